/*
 * markdown_kernel.c — the report's "Models against the running kernel's
 * mutex" (markdown.h): per workload of run-all's kernel experiment and
 * thread count, a table built from lbcompare's derived files —
 * data/kernel-W-tN.csv (each figure of kernel_columns(), the same table
 * that names them in lbcompare's text) and data/histcmp-W-tN.csv (the
 * earth mover's distance of each model's contended histogram from the
 * kernel's) — the kernel's settings from its runs' meta.csv, and the chart.
 */
#include <stdlib.h>
#include <string.h>

#include "../figures/figures.h"
#include "markdown_int.h"

/* The row of csv whose first cells are VARIANT and FIGURE (-1: none). */
static long csv_row(const struct md_csv *csv, int fig_col, const char *variant, const char *figure)
{
	for (size_t r = 1; r < csv->nrows; r++)
		if (strcmp(csv->cell[r * csv->ncols], variant) == 0 &&
		    strcmp(csv->cell[r * csv->ncols + (size_t)fig_col], figure) == 0)
			return (long)r;
	return -1;
}

static const char *cell(const struct md_csv *csv, long row, const char *col)
{
	int c = md_csv_col(csv, col);

	return row > 0 && c >= 0 ? csv->cell[(size_t)row * csv->ncols + (size_t)c] : "";
}

/* A number of the CSV in the column's format ("" stays ""). */
static void number(char *buf, size_t len, const char *fmt, const char *text)
{
	if (*text)
		snprintf(buf, len, fmt, strtod(text, NULL));
	else
		snprintf(buf, len, "-");
}

/* One figure's cell: median [CI], and off the baseline's row its ratio and
 * verdict against the kernel's. */
static void print_figure_cell(struct md *m, const struct md_csv *csv, long row, const struct column *col)
{
	char med[32], lo[32], hi[32];
	const char *verdict = cell(csv, row, "verdict"), *ratio = cell(csv, row, "ratio");

	if (row < 0) {
		fprintf(m->out, " n/a |");
		return;
	}
	number(med, sizeof(med), col->fmt, cell(csv, row, "median"));
	fprintf(m->out, " %s", med);
	if (strtol(cell(csv, row, "runs"), NULL, 10) >= 2) {
		number(lo, sizeof(lo), col->fmt, cell(csv, row, "ci_lo"));
		number(hi, sizeof(hi), col->fmt, cell(csv, row, "ci_hi"));
		fprintf(m->out, " [%s–%s]", lo, hi);
	}
	if (strcmp(verdict, "baseline") != 0 && *ratio)
		fprintf(m->out, " %.2fx", strtod(ratio, NULL));
	if (strcmp(verdict, "baseline") != 0 && strcmp(verdict, "-") != 0)
		fprintf(m->out, " %s", verdict);
	fprintf(m->out, " |");
}

/* The distance of VARIANT's contended histogram from the kernel's (the
 * group's baseline), from histcmp (NULL: none written). */
static void print_emd_cell(struct md *m, const struct md_csv *hist, const char *variant, bool baseline)
{
	int var = hist ? md_csv_col(hist, "variant") : -1;

	for (size_t r = 1; hist && var >= 0 && !baseline && r < hist->nrows; r++)
		if (strcmp(hist->cell[r * hist->ncols], "contended") == 0 &&
		    strcmp(hist->cell[r * hist->ncols + (size_t)var], variant) == 0) {
			fprintf(m->out, " %.2f, %s |", strtod(cell(hist, (long)r, "emd_bins"), NULL),
				cell(hist, (long)r, "verdict"));
			return;
		}
	fprintf(m->out, " %s |", baseline ? "" : "n/a");
}

/* data/kernel-W-tN.csv (NAME) as a table, a row per variant in its order
 * (the kernel's first), a column per kernel_columns() figure, then the
 * distance of the histograms. */
static void print_kernel_table(struct md *m, const char *name)
{
	char path[MD_PATH], threads[16];
	struct md_csv csv, hist;
	unsigned int ncols;
	const struct column *cols = kernel_columns(&ncols);
	int fig;
	bool have_hist;

	snprintf(path, sizeof(path), "data/%s", name);
	if (md_csv_read(&csv, &m->top, path) != 0)
		return;
	fig = md_csv_col(&csv, "figure");
	snprintf(threads, sizeof(threads), "%s", strrchr(name, 't') + 1);
	threads[strcspn(threads, ".")] = '\0';
	snprintf(path, sizeof(path), "data/histcmp-%s", name + strlen("kernel-"));
	have_hist = md_csv_read(&hist, &m->top, path) == 0;
	fprintf(m->out, "#### %s threads\n\n| variant |", threads);
	for (unsigned int c = 0; c < ncols; c++)
		fprintf(m->out, " %s |", cols[c].title);
	fprintf(m->out, " EMD from the kernel's contended histogram, bins |\n|---|");
	for (unsigned int c = 0; c <= ncols; c++)
		fprintf(m->out, "---|");
	fprintf(m->out, "\n");
	/* The rows go variant by variant (csv_figures): a line at each one's first. */
	for (size_t r = 1; fig >= 0 && r < csv.nrows; r++) {
		const char *v = csv.cell[r * csv.ncols];
		bool first = r == 1 || strcmp(v, csv.cell[csv.ncols]) == 0;

		if (r > 1 && strcmp(v, csv.cell[(r - 1) * csv.ncols]) == 0)
			continue;
		fprintf(m->out, "| %s%s |", first ? "the kernel's mutex: " : "", v);
		for (unsigned int c = 0; c < ncols; c++)
			print_figure_cell(m, &csv, csv_row(&csv, fig, v, figure_name(&cols[c])), &cols[c]);
		print_emd_cell(m, have_hist ? &hist : NULL, v, first);
		fprintf(m->out, "\n");
	}
	fprintf(m->out, "\n");
	md_csv_free(&csv);
	if (have_hist)
		md_csv_free(&hist);
}

/* What decides the kernel mutex's behaviour, from the meta.csv of the
 * kernel row's first finished run of W: its keys as they are (a '|' would
 * end the line's table cell elsewhere: escaped). */
static void print_kernel_settings(struct md *m, const char *w)
{
	static const char *const keys[][2] = {
		{ "kernel_release", "kernel" }, { "kernel_mutex_spin_on_owner", "`CONFIG_MUTEX_SPIN_ON_OWNER`" },
		{ "kernel_preempt", "preemption" }, { "kernel_hypervisor", "hypervisor" },
		{ "kernel_vcpu_is_preempted", "paravirt `vcpu_is_preempted()` can stop a spin" },
		{ "kernel_vcpu_is_preempted_why", "because" },
	};

	for (size_t i = 0; i < m->d->ndone; i++) {
		const struct plan_run *r = &m->d->plan[m->d->done[i]];
		struct kv_file meta;
		unsigned int shown = 0;

		if (strcmp(r->kind, "kernel") != 0 || strcmp(r->workload, w) != 0 || !strstr(r->args, "-l none "))
			continue;
		if (rundir_run_kv(m->d, r->name, "meta.csv", &meta) != 0)
			return;
		for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
			const char *v = kv_get(&meta, keys[k][0]);

			if (!v || !*v)
				continue;
			fprintf(m->out, "%s%s: ", shown++ ? "; " : "The kernel's mutex, beside the kernel's row (meta.csv): ",
				keys[k][1]);
			for (; *v; v++)
				fprintf(m->out, *v == '|' ? "\\|" : "%c", *v);
		}
		if (shown)
			fprintf(m->out, ".\n\n");
		kv_file_free(&meta);
		return;
	}
}

static void print_workload(struct md *m, const char *w)
{
	char rel[MD_PATH], pattern[MD_PATH], **names;
	size_t n = 0;

	fprintf(m->out, "### %s\n\n", w);
	if (!rundir_plans(m->d, "kernel", w, NULL, true)) {
		fprintf(m->out, "- No `%s` runs finished (see [Failed runs](#failed-runs)).\n\n", w);
		return;
	}
	snprintf(rel, sizeof(rel), "data/kernel-%s.txt", w);
	if (md_failed_comparison(m, rel))
		return;
	print_kernel_settings(m, w);
	snprintf(pattern, sizeof(pattern), "kernel-%s-t*.csv", w);
	if (!(names = md_names(m, "data", pattern)) || !names[0]) {
		fprintf(m->out, "- `data/kernel-%s-t*.csv` are missing (the first variant is not the kernel's `none`, or `./run-all --report DIR` derives them).\n\n", w);
		sf_names_free(names);
		return;
	}
	while (names[n])
		n++;
	qsort(names, n, sizeof(*names), md_cmp_threads);
	for (size_t i = 0; i < n; i++) {
		char alt[128], name[128];
		const char *t = strrchr(names[i], 't');

		print_kernel_table(m, names[i]);
		snprintf(name, sizeof(name), "hist-contended-%s-%.*s", w, (int)strcspn(t, "."), t);
		snprintf(alt, sizeof(alt), "contended acquisition times of the models and the kernel's mutex waits, %s, %.*s threads",
			 w, (int)strcspn(t + 1, "."), t + 1);
		md_print_plot(m, alt, name);
	}
	sf_names_free(names);
	fprintf(m->out, "Every figure of these runs (phases, spin exits, the kernel's waits by class, the histograms bin by bin): `%s`; these tables' figures as CSV: `data/kernel-%s-t*.csv`.\n\n",
		rel, w);
}

/* Whether the section has W to show: its runs, or why it has none (no
 * kernel capture: the experiment has no baseline).  Nothing when --workloads
 * left W out, or --locks every lock of it. */
static bool kernel_workload_shown(struct md *m, const char *w)
{
	const char *wanted = rundir_setting(m->d, "WORKLOADS");

	if (*wanted && !word_in(w, wanted))
		return false;
	return rundir_plans(m->d, "kernel", w, NULL, false) || !*rundir_env(m->d, "KL");
}

void md_kernel_section(struct md *m)
{
	bool heading = false, explained = false;
	char w[64];

	for (const char *p = rundir_env(m->d, "KERNEL_WORKLOADS"); md_next_word(&p, w, sizeof(w));) {
		if (!kernel_workload_shown(m, w))
			continue;
		if (!heading) {
			fprintf(m->out, "## Models against the running kernel's mutex\n\n");
			heading = true;
		}
		if (!rundir_plans(m->d, "kernel", w, NULL, false)) {
			fprintf(m->out, "`%s`: not run: kernel lock capture is unavailable here (%s), and without it the experiment has no baseline.\n\n",
				w, *rundir_env(m->d, "KL_WHY") ? rundir_env(m->d, "KL_WHY") : "not recorded with these runs");
			continue;
		}
		if (!explained) {
			explained = true;
			fprintf(m->out, "The same work under the running kernel's own `struct mutex` and under each model of it: the first row is the `none` lock with `--kernel-locks` (no userspace lock, so the threads meet only in the kernel's mutex), the others take the model around the same system call. **What each side times:** the kernel's row counts and times its mutex waits from `lock:contention_begin` to `contention_end` — its slow path only, each acquisition that found the mutex held, timed once from its first begin; the models' figures are their contended acquisitions only (those that missed their first atomic attempt), from that attempt to the lock taken. So `contended/op` and `contended mean cycles` compare slow path with slow path. **How acquired**, as the tracepoint's flags class the kernel's waits: `unqueued/op` is the kernel's `spin` class (the trylock before the spin, the optimistic spin, the trylock under `wait_lock`: never on the wait list) against a model's `acq_spin` + `nosleep_unqueued`; `queued/op` is the kernel's `spin_sleep` + `sleep` against the rest of a model's slow path (`acq_nosleep` + `acq_sleep` − `nosleep_unqueued`: it joined the wait list); `queued at once/op` is the kernel's `sleep` alone (the models do not record whether a queued acquisition spun first) and `slept/op` a model's `acq_sleep`, after a futex wait (the tracepoint cannot say whether a queued waiter slept); glibc's `pthread` has no phases. Each cell: the median [95%% CI], and on a model's row its ratio to the kernel's median and the verdict against the kernel's repetitions; EMD: the earth mover's distance of the model's contended histogram from the kernel's, in log2 bins, and whether the permutation test tells them apart. The chart under each table draws the kernel's waits black and dashed over the models'.\n\n");
		}
		print_workload(m, w);
	}
}
