/*
 * markdown_programs.c — report.md's "Real programs" (markdown_int.h): each
 * program run-all ran under the interposer (lockbench --exec, docs/exec.md),
 * one experiment per program and threads asked (the comparison's --exec
 * groups, model/comparison.h), as a table of its locks against the
 * interposer's pthread with the program's own figures (program_columns:
 * each metric the way its runs say it is better, the wall time) and the
 * locks' contention; then the patch's pair (run-env's PATCH_PAIR) on
 * each of them.  Every verdict is judge()'s, as the other tables' are.
 */
#include <string.h>

#include "../figures/figures.h"
#include "markdown_int.h"

/* The exec part's groups, in the order run-all's plan met them. */
static size_t program_groups(const struct md *m, const struct group **g)
{
	const struct dir_part *part = md_part(m, "exec", "exec");
	size_t n = 0;

	for (unsigned int i = 0; part && part->c && i < part->c->ngroups; i++)
		if (part->c->groups[i].program)
			g[n++] = &part->c->groups[i];
	return n;
}

/* The program's figures the section judges (program_columns without the
 * CPU time, which the full text has), then the locks' contention: the share
 * of acquisitions contended (in percent) and their mean cycles; returns how many. */
static unsigned int section_columns(const struct group *g, struct column *cols, unsigned int *nprogram)
{
	struct column contended[RATIO_COLUMNS_MAX];
	unsigned int n = *nprogram = program_columns(g, cols) - 1;

	cols[n++] = (struct column){ "% contended", "contentions", 100, "%.3g", false, false, NULL, "acquisitions",
				     NULL, "contended_pct", false, 1 + SENSE_COUNT };
	for (unsigned int c = 0, k = table_columns(g, TABLE_CONTENDED, contended); c < k; c++)
		if (strcmp(contended[c].key, "contended_acq_cycles_mean") == 0)
			cols[n++] = contended[c];
	return n;
}

/* The variant of LOCK under the default --sched, its index in g, or -1. */
static int variant_index(const struct group *g, const char *lock)
{
	const struct variant *v = find_variant(g, lock);

	return v ? (int)(v - g->v) : -1;
}

/* The patch pair, before -> after, on COL: "501 → 2002, **4.00x** [3.9..4.1], better";
 * false (nothing printed) where either lacks the figure. */
static bool print_pair(const struct md *m, FILE *out, const struct group *g, const struct column *col)
{
	int spin = variant_index(g, m->pair[0]), fix = variant_index(g, m->pair[1]);
	struct stat3 before, after;
	struct verdict vd;
	char ci[64], ratio[32];
	char err[ERR_LEN];
	const char *word;

	if (spin < 0 || fix < 0 || figure_missing(&g->v[spin], col) != FIGURE_OK ||
	    figure_missing(&g->v[fix], col) != FIGURE_OK ||
	    figure(&g->v[spin], col->key, col->scale, &before, err, sizeof(err)) != 0 ||
	    figure(&g->v[fix], col->key, col->scale, &after, err, sizeof(err)) != 0)
		return false;
	judge(&after, &before, &vd);
	fprintf(out, col->fmt, before.median);
	fprintf(out, " → ");
	fprintf(out, col->fmt, after.median);
	if (ratio_text(&vd, &after, &before, ratio, sizeof(ratio)))
		fprintf(out, ", **%s**", ratio);
	interval_text(&vd, ci, sizeof(ci));
	if (strcmp(ci, "-") != 0)
		fprintf(out, " %s", ci);
	word = verdict_word(&vd, column_sense(col));
	/* A time that grew by 1.12x must not read like a gain. */
	if (lower_is_better(column_sense(col)))
		fprintf(out, " (lower is better)");
	fprintf(out, ", %s", strcmp(word, "-") ? word : "no verdict (fewer than 2 runs a side)");
	return true;
}

static void print_heading(FILE *out, const struct group *g, const char *lead)
{
	fprintf(out, "%s`%s`, ", lead, g->program);
	if (g->threads)
		fprintf(out, "%u thread%s asked", g->threads, g->threads == 1 ? "" : "s");
	else
		fprintf(out, "its own threads");
}

/* The answer's line of a program: the patch's pair on its first figure
 * (its registry metric; the wall time where it has none). */
static void print_answer(const struct md *m, FILE *out, const struct group *g)
{
	struct column cols[RATIO_COLUMNS_MAX];

	program_columns(g, cols);
	print_heading(out, g, "- **Real program ");
	fprintf(out, ":** `%s` → `%s` on %s: ", m->pair[0], m->pair[1], cols[0].title);
	if (!print_pair(m, out, g, &cols[0]))
		fprintf(out, "n/a (not both ran)");
	fprintf(out, ".\n");
}

void md_programs_answer(struct md *m)
{
	static const struct group *g[MAX_GROUPS];
	size_t n = program_groups(m, g);

	for (size_t i = 0; i < n; i++)
		print_answer(m, m->out, g[i]);
}

static void print_program(struct md *m, const struct group *g)
{
	FILE *out = m->out;
	struct column cols[RATIO_COLUMNS_MAX];
	unsigned int nprogram, ncols = section_columns(g, cols, &nprogram);
	char name[160], alt[160];

	print_heading(out, g, "### ");
	fprintf(out, "\n\n");
	md_figure_table(out, g, "lock", cols, ncols);
	fprintf(out, "The patch's pair, `%s` → `%s`:", m->pair[0], m->pair[1]);
	for (unsigned int c = 0; c < nprogram; c++) {
		fprintf(out, "%s %s ", c ? ";" : "", cols[c].title);
		if (!print_pair(m, out, g, &cols[c]))
			fprintf(out, "n/a (not both ran)");
	}
	fprintf(out, ".\n\n");
	/* run-all draws them from this group's CSV (lbcompare --csv names them by
	 * the group's workload, exec-PROGRAM, and the threads asked): the
	 * contended histogram where every run has one, else all acquisitions'. */
	bool contended = hist_charted(g, true);

	snprintf(name, sizeof(name), "hist-%s%s-t%u", contended ? "contended-" : "", g->workload, g->threads);
	snprintf(alt, sizeof(alt), "%sacquisition times, %s, %u threads asked", contended ? "contended " : "",
		 g->program, g->threads);
	md_print_plot(m, alt, name);
	snprintf(alt, sizeof(alt), "%s, %u threads asked", g->program, g->threads);
	md_print_phases_plot(m, g, "", alt);
}

void md_programs_section(struct md *m)
{
	static const struct group *g[MAX_GROUPS];
	const struct dir_part *part = md_part(m, "exec", "exec");
	size_t n;

	if (!part)
		return;
	fprintf(m->out, "## Real programs\n\n");
	fprintf(m->out, "Each program ran under lockbench's interposer (`lockbench --exec`, `docs/exec.md`): every normal pthread mutex of the unmodified program was the lock named, and its figures are the program's own — each metric it printed, judged the way its registry says is better, and its wall time — beside the locks' contended share of acquisitions and their mean cycles. A program at one thread count is one experiment; the interposer's `pthread` (glibc's mutex through the library) is the baseline. The CPU time, all acquisitions, phases and histograms are in the full comparison (run-all's `data/program-NAME.txt`, or `lbcompare` over `runs/`).\n\n");
	if (md_failed_comparison(m, part))
		return;
	n = program_groups(m, g);
	for (size_t i = 0; i < n; i++)
		print_program(m, g[i]);
}
