/*
 * markdown_kernel.c — the report's "Models against the running kernel's
 * mutex" (markdown.h): per workload of run-all's kernel experiment and
 * thread count, a table over the comparison of its runs — each figure of
 * kernel_columns() (the same table that names them in lbcompare's text and
 * data/kernel-W-tN.csv) and the earth mover's distance of each model's
 * contended histogram from the kernel's — the kernel's settings from its
 * runs' meta.csv, and the chart.
 */
#include <stdlib.h>
#include <string.h>

#include "../figures/figures.h"
#include "markdown_int.h"

/* The distance of variant i's contended histogram from the kernel's (the
 * group's baseline), where some variant has two runs or more. */
static void print_emd_cell(struct md *m, const struct group *g, unsigned int i)
{
	static struct hist_comparison hc;

	if (i == 0)
		fprintf(m->out, "  |");
	else if (group_max_reps(g) >= 2 && compare_hists(g, i, true, &hc))
		fprintf(m->out, " %.2f, %s |", hc.test.emd, hist_verdict(&hc));
	else
		fprintf(m->out, " n/a |");
}

/* Whether variant i has any of the table's figures (a row of its own). */
static bool has_row(const struct group *g, unsigned int i, const struct column *cols, unsigned int ncols)
{
	for (unsigned int c = 0; c < ncols; c++)
		if (figure_missing(&g->v[i], &cols[c]) == FIGURE_OK)
			return true;
	return false;
}

/* The group as a table, a row per variant in its order (the kernel's
 * first), a column per kernel_columns() figure, then the distance of the
 * histograms. */
static void print_kernel_table(struct md *m, const struct group *g)
{
	unsigned int ncols;
	const struct column *cols = kernel_columns(&ncols);

	fprintf(m->out, "#### %u threads\n\n| variant |", g->threads);
	for (unsigned int c = 0; c < ncols; c++)
		fprintf(m->out, " %s |", cols[c].title);
	fprintf(m->out, " EMD from the kernel's contended histogram, bins |\n|---|");
	for (unsigned int c = 0; c <= ncols; c++)
		fprintf(m->out, "---|");
	fprintf(m->out, "\n");
	for (unsigned int i = 0; i < g->nv; i++) {
		if (!has_row(g, i, cols, ncols))
			continue;
		fprintf(m->out, "| %s%s |", i == 0 ? "the kernel's mutex: " : "", g->v[i].series);
		for (unsigned int c = 0; c < ncols; c++)
			md_figure_cell(m->out, g, i, &cols[c]);
		print_emd_cell(m, g, i);
		fprintf(m->out, "\n");
	}
	fprintf(m->out, "\n");
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
		unsigned int shown = 0;

		if (strcmp(r->kind, "kernel") != 0 || strcmp(r->workload, w) != 0 || !md_kernel_base_run(m, i))
			continue;
		for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
			const char *v = result_meta_get(m->run[i], keys[k][0]);

			if (!v || !*v)
				continue;
			fprintf(m->out, "%s%s: ", shown++ ? "; " : "The kernel's mutex, beside the kernel's row (meta.csv): ",
				keys[k][1]);
			for (; *v; v++)
				fprintf(m->out, *v == '|' ? "\\|" : "%c", *v);
		}
		if (shown)
			fprintf(m->out, ".\n\n");
		return;
	}
}

static void print_workload(struct md *m, const char *w)
{
	static const struct group *g[MAX_GROUPS];
	const struct dir_part *part = md_part(m, "kernel", w);
	size_t n;

	fprintf(m->out, "### %s\n\n", w);
	if (!rundir_plans(m->d, "kernel", w, NULL, true)) {
		fprintf(m->out, "- No `%s` runs finished (see [Failed runs](#failed-runs)).\n\n", w);
		return;
	}
	if (!part || md_failed_comparison(m, part))
		return;
	print_kernel_settings(m, w);
	if ((n = md_groups_of(part->c, w, kernel_baseline, g)) == 0) {
		fprintf(m->out, "- No table: the first variant of `%s` is not the kernel's `none` with `--kernel-locks`.\n\n", w);
		return;
	}
	for (size_t i = 0; i < n; i++)
		print_kernel_table(m, g[i]);
	fprintf(m->out, "Every figure of these runs (phases, spin exits, the kernel's waits by class, the histograms bin by bin): `data/kernel-%s.txt`; these tables' figures as CSV: `data/kernel-%s-t*.csv`.\n\n",
		w, w);
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
			fprintf(m->out, "The same work under the running kernel's own `struct mutex` and under each model of it: the first row is the `none` lock with `--kernel-locks` (no userspace lock, so the threads meet only in the kernel's mutex), the others take the model around the same system call. **What each side times:** the kernel's row counts and times its mutex waits from `lock:contention_begin` to `contention_end` — its slow path only, each acquisition that found the mutex held, timed once from its first begin; the models' figures are their contended acquisitions only (those that missed their first atomic attempt), from that attempt to the lock taken. So `contended/op` and `contended mean cycles` compare slow path with slow path. **How acquired**, as the tracepoint's flags class the kernel's waits: `unqueued/op` is the kernel's `spin` class (the trylock before the spin, the optimistic spin, the trylock under `wait_lock`: never on the wait list) against a model's `acq_spin` + `nosleep_unqueued`; `queued/op` is the kernel's `spin_sleep` + `sleep` against the rest of a model's slow path (`acq_nosleep` + `acq_sleep` − `nosleep_unqueued`: it joined the wait list); `queued at once/op` is the kernel's `sleep` alone (the models do not record whether a queued acquisition spun first) and `slept/op` a model's `acq_sleep`, after a futex wait (the tracepoint cannot say whether a queued waiter slept); glibc's `pthread` has no phases. Each cell: the median [95%% CI], and on a model's row its ratio to the kernel's median and the verdict against the kernel's repetitions; EMD: the earth mover's distance of the model's contended histogram from the kernel's, in log2 bins, and whether the permutation test tells them apart. The charts (at the top of the report) draw the kernel's waits black and dashed over the models'. The answer's model nearest the kernel's mutex is the one that, against each other model, lies nearer the kernel's row beyond both intervals on more figures than the other does (a contention figure's distance is its ratio's interval, the EMD's lies between bounds the per-bin share intervals of the full comparison give); where none does, it says that no model stands out.\n\n");
		}
		print_workload(m, w);
	}
}
