/*
 * markdown_across.c — a comparison of two hosts (a before and an after:
 * two run-all directories of one plan) as markdown: each variant against
 * itself, a table per workload and thread count (figures/across.h), with
 * the notes every table of the report carries.  Printed first in the
 * hosts' report (markdown_hosts.c).
 */
#include <stdio.h>
#include <string.h>

#include "../figures/across.h"
#include "markdown_int.h"

/* "1234 [1200–1300]", as the tables' cells give a figure. */
static void md_stat(FILE *out, const struct stat3 *s, const char *fmt)
{
	fprintf(out, " ");
	fprintf(out, fmt, s->median);
	if (s->n < 2)
		return;
	fprintf(out, " [");
	fprintf(out, fmt, s->ci.lo);
	fprintf(out, "–");
	fprintf(out, fmt, s->ci.hi);
	fprintf(out, "]");
}

static void md_pair_row(FILE *out, const struct across *a, unsigned int k)
{
	struct column col;
	struct stat3 before, after;
	struct verdict vd;
	char err[ERR_LEN], ratio[32], ci[64];
	const char *word;

	fprintf(out, "| %s |", a->from->v[a->pair[k][0]].label);
	if (across_figure(a, k, &col, &before, &after, &vd, err, sizeof(err)) != 0) {
		fprintf(out, " n/a | n/a | n/a |\n");
		return;
	}
	md_stat(out, &before, col.fmt);
	fprintf(out, " |");
	md_stat(out, &after, col.fmt);
	ratio_text(&vd, &after, &before, ratio, sizeof(ratio));
	interval_text(&vd, ci, sizeof(ci));
	word = verdict_word(&vd, column_sense(&col));
	fprintf(out, " | **%s**%s%s%s%s |\n", ratio, strcmp(ci, "-") != 0 ? " " : "", strcmp(ci, "-") != 0 ? ci : "",
		strcmp(word, "-") != 0 ? ", " : "", strcmp(word, "-") != 0 ? word : "");
}

void md_across_table(FILE *out, const struct across *a, const char *from, const char *to)
{
	struct column cols[RATIO_COLUMNS_MAX];
	unsigned int tested, shown;
	char note[512];

	ratio_columns(a->from, cols);
	fprintf(out, "`%s`, %u threads, %s:\n\n", a->from->program ? a->from->program : a->from->workload,
		a->from->threads, cols[0].title);
	fprintf(out, "| variant | before (`%s`) | after (`%s`) | after / before, 95%% interval, verdict |\n", from, to);
	fprintf(out, "|---|---|---|---|\n");
	for (unsigned int k = 0; k < a->npairs; k++)
		md_pair_row(out, a, k);
	fprintf(out, "\n");
	if (a->only_from || a->only_to)
		fprintf(out, "%u variant%s only before, %u only after: not compared.\n\n", a->only_from,
			a->only_from == 1 ? "" : "s", a->only_to);
	if (across_reach_note(a, note, sizeof(note)))
		fprintf(out, "%s\n\n", note);
	across_verdicts(a, &tested, &shown);
	if (chance_note(tested, shown, note, sizeof(note)))
		fprintf(out, "%s\n\n", note);
}
