/*
 * markdown_util.c — what the report's sections share (markdown_int.h): the
 * tally of lines, the directory's file names, a chart's link, a failed
 * comparison said in place of its tables.  Below every section's file
 * (markdown.c, markdown_runs.c, markdown_kernel.c, markdown_hosts.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "markdown_int.h"
#include "print.h"

/* DIR/plots/NAME.png's link, where gnuplot drew it. */
void md_print_plot(struct md *m, const char *alt, const char *name)
{
	if (rundir_has_png(m->d, name) || (m->charts_planned && print_chart_planned(m->model, name)))
		fprintf(m->out, "![%s](plots/%s.png)\n\n", alt, name);
}

/* The phases chart run-all draws beside each histogram chart (charts.csv:
 * PREFIXphases-WORKLOAD-tTHREADS, PREFIX "sim-" for the simulated runs'),
 * linked where its histogram is: a chart drawn is a chart linked.  WHAT
 * names the group in the alt text. */
void md_print_phases_plot(struct md *m, const struct group *g, const char *prefix, const char *what)
{
	char alt[192], name[160];

	snprintf(name, sizeof(name), "%sphases-%s-t%u", prefix, g->workload, g->threads);
	snprintf(alt, sizeof(alt), "how acquisitions were obtained, %s", what);
	md_print_plot(m, alt, name);
}

bool md_failed_comparison(struct md *m, const struct dir_part *part)
{
	char rel[MD_PATH], key[MD_PATH + sizeof(part->failed)];

	if (!part->failed[0])
		return false;
	/* The report compares every --exec run as one part (exec_part); run-all
	 * keeps each program's comparison apart, as data/program-NAME.txt. */
	if (strcmp(part->kind, "exec") == 0)
		snprintf(rel, sizeof(rel), "data/program-*.txt");
	else
		snprintf(rel, sizeof(rel), "data/%s-%s.txt", part->kind, part->workload);
	md_print_failed_comparison(m->out, rel, part->failed);
	snprintf(key, sizeof(key), "%s\t%s", rel, part->failed);
	tally_add(&m->failed, key);
	return true;
}

void md_fenced(FILE *out, const char *text)
{
	fprintf(out, "```text\n%s```\n\n", text);
}

/* One figure's cell of variant i: median [CI], and off the baseline's row
 * (the group's first) its ratio and verdict against the baseline's, as the
 * text's cells judge them ("n/a": no such figure). */
void md_figure_cell(FILE *out, const struct group *g, unsigned int i, const struct column *col)
{
	struct stat3 s, base;
	struct verdict vd;
	bool base_ok;
	char err[ERR_LEN], ratio[32];

	if (figure_missing(&g->v[i], col) != FIGURE_OK ||
	    figure_pair(g, i, col, &s, &base, &base_ok, err, sizeof(err)) != 0) {
		fprintf(out, " n/a |");
		return;
	}
	fprintf(out, " ");
	fprintf(out, col->fmt, s.median);
	if (s.n >= 2) {
		fprintf(out, " [");
		fprintf(out, col->fmt, s.ci.lo);
		fprintf(out, "–");
		fprintf(out, col->fmt, s.ci.hi);
		fprintf(out, "]");
	}
	if (i > 0 && base_ok) {
		judge(&s, &base, &vd);
		if (ratio_text(&vd, &s, &base, ratio, sizeof(ratio)))
			fprintf(out, " %s", ratio);
		if (strcmp(verdict_word(&vd, column_sense(col)), "-") != 0)
			fprintf(out, " %s", verdict_word(&vd, column_sense(col)));
	}
	fprintf(out, " |");
}

void md_figure_table(FILE *out, const struct group *g, const char *head, const struct column *cols, unsigned int ncols)
{
	fprintf(out, "| %s |", head);
	for (unsigned int c = 0; c < ncols; c++)
		fprintf(out, " %s |", cols[c].title);
	fprintf(out, "\n|---|");
	for (unsigned int c = 0; c < ncols; c++)
		fprintf(out, "---|");
	fprintf(out, "\n");
	for (unsigned int i = 0; i < g->nv; i++) {
		fprintf(out, "| %s%s |", g->v[i].label, i == 0 ? " (baseline)" : "");
		for (unsigned int c = 0; c < ncols; c++)
			md_figure_cell(out, g, i, &cols[c]);
		fprintf(out, "\n");
	}
	fprintf(out, "\n");
	md_chance_note(out, g, cols, ncols);
}

void md_chance_note(FILE *out, const struct group *g, const struct column *cols, unsigned int ncols)
{
	unsigned int tested, shown;
	char note[256];

	if (coverage_note(g, note, sizeof(note)))
		fprintf(out, "%s\n\n", note);
	table_verdicts(g, cols, ncols, &tested, &shown);
	if (chance_note(tested, shown, note, sizeof(note)))
		fprintf(out, "%s\n\n", note);
}

/* The headline figures of group G (ratio_columns' first four: throughput,
 * CPU us/op, #contentions, contended mean cycles), then the workload's own
 * metrics, a row per variant. */
void md_headline_table(FILE *out, const struct group *g)
{
	struct column cols[RATIO_COLUMNS_MAX];

	ratio_columns(g, cols);
	md_figure_table(out, g, "variant", cols,
			MD_HEADLINE_COLUMNS + workload_columns(g, cols + MD_HEADLINE_COLUMNS));
}

void tally_add(struct tally *t, const char *key)
{
	for (size_t i = 0; i < t->n; i++)
		if (strcmp(t->item[i].key, key) == 0) {
			t->item[i].count++;
			return;
		}
	if (t->n == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 16;
		struct tally_item *item = realloc(t->item, cap * sizeof(*item));
		if (!item)
			return;  /* out of memory: the line goes uncounted, the report goes on */
		t->item = item;
		t->cap = cap;
	}
	if ((t->item[t->n].key = strdup(key)) != NULL)
		t->item[t->n++].count = 1;
}

static bool by_count;
static int cmp_items(const void *a, const void *b)
{
	const struct tally_item *x = a, *y = b;

	if (by_count && x->count != y->count)
		return x->count < y->count ? 1 : -1;
	return strcmp(x->key, y->key);
}

void tally_sort(struct tally *t, bool most_first)
{
	by_count = most_first;
	if (t->n > 1)
		qsort(t->item, t->n, sizeof(*t->item), cmp_items);
}

void tally_free(struct tally *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->item[i].key);
	free(t->item);
	*t = (struct tally){ 0 };
}

bool md_next_word(const char **p, char *w, size_t len)
{
	size_t n;

	*p += strspn(*p, " ");
	n = strcspn(*p, " ");
	if (n == 0)
		return false;
	snprintf(w, len, "%.*s", (int)n, *p);
	*p += n;
	return true;
}

void md_print_failed_comparison(FILE *out, const char *rel, const char *line)
{
	fprintf(out, "**The comparison of these runs failed** (`%s`), so this section has no tables:\n\n```text\n%s\n```\n\n",
		rel, line);
}

int md_rate_figure(const struct group *g, const struct variant *v, struct stat3 *s)
{
	struct column cols[RATIO_COLUMNS_MAX];
	char err[ERR_LEN];

	ratio_columns(g, cols);
	return figure(v, cols[0].key, cols[0].scale, s, err, sizeof(err));
}

/* Variant S against the baseline BASE on throughput: "0.97x [0.80..1.35],
 * no difference" (Hodges–Lehmann's ratio, as the tables print it, Moses'
 * interval, the verdict). */
void md_rate_change(FILE *out, const struct group *g, const struct stat3 *s, const struct stat3 *base)
{
	struct column cols[RATIO_COLUMNS_MAX];
	struct verdict vd;
	char ci[64], ratio[32];

	ratio_columns(g, cols);
	judge(s, base, &vd);
	ratio_text(&vd, s, base, ratio, sizeof(ratio));
	interval_text(&vd, ci, sizeof(ci));
	fprintf(out, "**%s**", ratio);
	if (strcmp(ci, "-") != 0)
		fprintf(out, " %s", ci);
	if (strcmp(verdict_word(&vd, column_sense(&cols[0])), "-") != 0)
		fprintf(out, ", %s", verdict_word(&vd, column_sense(&cols[0])));
}
