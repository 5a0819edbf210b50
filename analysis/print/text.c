/*
 * text.c — lbcompare's text tables for one group: throughput, contention,
 * the differences from the baseline, acquisition phases, the kernel's own
 * lock waits, and print_group, which puts them (with the seed's figures and
 * the histograms) in order; text_print, the whole text (print.h).
 */
#include <stdio.h>
#include <string.h>

#include "../../locks/spin_exit.h"
#include "print.h"
#include "text_int.h"

/* What the cells of a table needed saying underneath. */
struct unavailable {
	bool old, kernel;        /* "n/a": runs that predate a figure; the kernel row's missing ones */
	bool model, no_phases;   /* the models' missing ones; a lock without phases */
	bool untimed;            /* a cycle figure of --timing off runs */
	bool unmatched;          /* a program's metric its output did not give */
	bool unmeasured;         /* a cycle figure of runs that timed none of its acquisitions */
	bool spread;             /* some interval reaches beyond +-10% of its median */
};

/* The median's interval, "!" after it when it is wide (STATS_SPREAD). */
static void print_interval(struct text *t, const struct stat3 *s, const char *fmt, struct unavailable *na)
{
	char lo[32], hi[32], text[72];
	bool wide;

	if (s->n < 2) {
		fprintf(t->out, " %-24s", "(1 run)");
		return;
	}
	wide = stats_spread_large(s->median, &s->ci, STATS_SPREAD);
	snprintf(lo, sizeof(lo), fmt, s->ci.lo);
	snprintf(hi, sizeof(hi), fmt, s->ci.hi);
	snprintf(text, sizeof(text), "[%s..%s]%s", lo, hi, wide ? "!" : "");
	fprintf(t->out, " %-24s", text);
	na->spread |= wide;
}

/* A cell: median, its interval, the ratio to the baseline's median and the
 * verdict (`base` NULL: the baseline lacks the figure; `self`: this is the
 * baseline's own row). */
static void print_stat(struct text *t, const struct stat3 *s, const struct stat3 *base, bool self, unsigned int nreps,
		       const struct column *col, struct unavailable *na)
{
	char buf[64];
	struct verdict vd;

	snprintf(buf, sizeof(buf), col->fmt, s->median);
	fprintf(t->out, "  %14s", buf);
	if (nreps > 1)
		print_interval(t, s, col->fmt, na);
	if (col->no_ratio)
		return;
	if (self || !base || nreps < 2) {
		print_ratio(t, s->median, base ? base->median : 0);
		if (nreps >= 2)
			fprintf(t->out, " %-13s", self ? "" : "-");
		return;
	}
	judge(s, base, &vd);
	print_verdict_ratio(t, &vd, s, base);
	fprintf(t->out, " %-13s", verdict_word(&vd, column_sense(col)));
}

/* The cells of a figure the variant's runs do not have. */
static void print_unavailable(struct text *t, unsigned int nreps, const struct column *col)
{
	fprintf(t->out, "  %14s", "n/a");
	if (nreps > 1)
		fprintf(t->out, " %-24s", "");
	if (!col->no_ratio)
		fprintf(t->out, " %7s", "-");
	if (!col->no_ratio && nreps > 1)
		fprintf(t->out, " %-13s", "-");
}
/* One cell: the variant's figure and its ratio to the baseline's (no ratio
 * when the baseline lacks the figure).  Where the variant's runs lack an
 * optional key, or the kernel row has no such figure, "n/a" and the reason
 * noted.  0, or -1 with err set. */
static int print_cell(struct text *t, const struct group *g, unsigned int i, unsigned int nreps, const struct column *col,
		      struct unavailable *na)
{
	struct stat3 s, base;
	enum missing why = figure_missing(&g->v[i], col);
	bool base_ok;

	if (why != FIGURE_OK) {
		print_unavailable(t, nreps, col);
		*(why == FIGURE_UNTIMED ? &na->untimed : why == FIGURE_KERNEL ? &na->kernel
			: why == FIGURE_MODEL ? &na->model : why == FIGURE_NO_PHASES ? &na->no_phases
			: why == FIGURE_UNMATCHED ? &na->unmatched : why == FIGURE_UNMEASURED ? &na->unmeasured
			: &na->old) = true;
		return 0;
	}
	if (figure_pair(g, i, col, &s, &base, &base_ok, t->err, t->errlen))
		return -1;
	print_stat(t, &s, base_ok ? &base : NULL, i == 0, nreps, col, na);
	return 0;
}

/* Which variants a table has rows for. */
enum rows {
	ROWS_ALL,
	ROWS_MODELS,      /* not the kernel row: figures of a userspace lock */
	ROWS_CAPTURED,    /* those with kernel capture */
};

static bool in_rows(const struct variant *v, enum rows rows)
{
	return rows == ROWS_ALL || (rows == ROWS_MODELS && !v->kernel_row) || (rows == ROWS_CAPTURED && v->kernel_ok);
}

/* What the marks in a table mean, under it. */
static void print_legend(struct text *t, const struct unavailable *na)
{
	if (na->old)
		fprintf(t->out, "(n/a: those runs were written by a lockbench that did not record the figure)\n");
	if (na->untimed)
		fprintf(t->out, "(n/a: runs with --timing off time no acquisition)\n");
	if (na->unmatched)
		fprintf(t->out, "(n/a: in some run the program's output did not match the metric's regex: summary.csv has no metric_NAME)\n");
	if (na->unmeasured)
		fprintf(t->out, "(n/a: not measured: some run timed none of these acquisitions (timed_contentions or\n"
			" timed_acquisitions 0: --timing sample:N sampled none), so its 0 is no figure)\n");
	if (na->kernel)
		fprintf(t->out, "(n/a for the kernel row: the capture sees only the kernel's waits, not its uncontended acquisitions,\n"
		       " nor whether a queued waiter slept)\n");
	if (na->model)
		fprintf(t->out, "(n/a for the models: their phases do not say whether a queued acquisition spun first)\n");
	if (na->no_phases)
		fprintf(t->out, "(n/a: a lock without spin/sleep phases records none)\n");
	if (na->spread)
		fprintf(t->out, "(!: the median's 95%% CI reaches beyond +-%.0f%% of it: a noisy figure; more repetitions narrow it)\n",
		       100 * STATS_SPREAD);
}

/* What the brackets and verdicts of the group's tables are, once above them,
 * with what the fewest repetitions of a variant can say. */
static void print_stats_note(struct text *t, const struct group *g)
{
	unsigned int least = group_min_reps(g), most = group_max_reps(g);
	char note[256];

	if (most < 2) {
		fprintf(t->out, "One run per variant: no intervals and no verdicts (run-all --reps, or more runs, give them).\n\n");
		return;
	}
	fprintf(t->out, "Figures: the median of %u", least);
	if (most > least)
		fprintf(t->out, " to %u", most);
	fprintf(t->out, " repetitions, [its 95%% CI] (order statistics); verdict: the variant's repetitions against\n"
	       "%s's (Mann-Whitney U, 95%%; \"no difference\": none shown).\n", g->v[0].label);
	if (coverage_note(g, note, sizeof(note)))
		fprintf(t->out, "%s\n", note);
	if (group_reach_note(g, note, sizeof(note)))
		fprintf(t->out, "%s\n", note);
	fprintf(t->out, "\n");
}

/* A table of `cols` by variant, the `rows` ones. */
static int print_block(struct text *t, const struct group *g, const struct column *cols, unsigned int ncols, enum rows rows)
{
	unsigned int nreps = group_max_reps(g);
	struct unavailable na = { 0 };
	int width = label_width(g);

	fprintf(t->out, "%-*s", width, "");
	for (unsigned int c = 0; c < ncols; c++) {
		fprintf(t->out, "  %14s", cols[c].title);
		if (nreps > 1)
			fprintf(t->out, " %-24s", "[95% CI]");
		if (!cols[c].no_ratio)
			fprintf(t->out, " %7s", "ratio");
		if (!cols[c].no_ratio && nreps > 1)
			fprintf(t->out, " %-13s", "verdict");
	}
	fprintf(t->out, "\n");
	for (unsigned int i = 0; i < g->nv; i++) {
		if (!in_rows(&g->v[i], rows))
			continue;
		fprintf(t->out, "%-*s", width, g->v[i].label);
		for (unsigned int c = 0; c < ncols; c++)
			if (print_cell(t, g, i, nreps, &cols[c], &na))
				return -1;
		fprintf(t->out, "\n");
	}
	print_legend(t, &na);
	fprintf(t->out, "\n");
	return 0;
}

static int print_throughput(struct text *t, const struct group *g)
{
	struct column cols[RATIO_COLUMNS_MAX];

	if (g->program)
		fprintf(t->out, "The program's own figures (one run is one operation, so these replace runs/sec): its metrics,\n"
			"each judged the way its runs say it is better (metric_better_NAME), its wall and CPU time:\n");
	return print_block(t, g, cols, table_columns(g, TABLE_THROUGHPUT | TABLE_WORKLOAD, cols), ROWS_ALL);
}

/* The patch's "#contentions" and "Time to acquire mutex": contended
 * acquisitions only; then the same over every acquisition, fast path
 * included, which is what lockbench's plain acq_cycles figures cover. */
static int print_contention(struct text *t, const struct group *g)
{
	struct column cols[RATIO_COLUMNS_MAX];

	fprintf(t->out, "Contended acquisitions only, as the patch counted (#contentions; mean acquisition cycles):\n");
	if (print_block(t, g, cols, table_columns(g, TABLE_CONTENDED, cols), ROWS_ALL))
		return -1;
	fprintf(t->out, "All acquisitions, fast path included:\n");
	return print_block(t, g, cols, table_columns(g, TABLE_ALL, cols), ROWS_ALL);
}

/* The title of a ratio column in the differences table, which has every
 * table's columns: where two share a title ("mean cycles"), its table says
 * which acquisitions. */
static const char *difference_title(const struct group *g, const struct column *col, char *buf, size_t len)
{
	struct column cols[RATIO_COLUMNS_MAX];
	unsigned int ncols = ratio_columns(g, cols), same = 0;

	for (unsigned int c = 0; c < ncols; c++)
		same += strcmp(cols[c].title, col->title) == 0;
	if (same < 2 || !(column_tables(col) & (TABLE_CONTENDED | TABLE_ALL)))
		return col->title;
	snprintf(buf, len, "%s, %s", col->title, column_tables(col) & TABLE_CONTENDED ? "contended" : "all");
	return buf;
}

/* One line of the differences table: variant i's figure against the baseline's. */
static int print_difference(struct text *t, const struct group *g, unsigned int i, const struct column *col, int width)
{
	struct stat3 s, base;
	struct verdict vd;
	char ci[64] = "-", p[16] = "-", title[64];
	bool base_ok;

	if (figure_missing(&g->v[i], col) != FIGURE_OK || figure_missing(&g->v[0], col) != FIGURE_OK)
		return 0;
	if (figure_pair(g, i, col, &s, &base, &base_ok, t->err, t->errlen))
		return -1;
	judge(&s, &base, &vd);
	interval_text(&vd, ci, sizeof(ci));
	if (vd.tested)
		p_text(vd.mwu.p, p, sizeof(p));
	fprintf(t->out, "%-*s  %-23s %3u:%-3u", width, g->v[i].label, difference_title(g, col, title, sizeof(title)), s.n,
		base.n);
	print_verdict_ratio(t, &vd, &s, &base);
	fprintf(t->out, "  %-22s %6s  %s\n", ci, p, verdict_word(&vd, column_sense(col)));
	return 0;
}

/*
 * ministat's question for every figure with a ratio: is the variant's
 * different from the baseline's at 95% confidence, and by how much?  The
 * verdict is the Mann–Whitney U test's over the repetitions; the ratio is
 * Hodges–Lehmann's and its interval Moses' (stats.h), and a difference is
 * shown only where that interval excludes 1.0 (judge()).
 */
static int print_differences(struct text *t, const struct group *g)
{
	struct column cols[RATIO_COLUMNS_MAX];
	unsigned int ncols = ratio_columns(g, cols);
	int width = label_width(g);
	unsigned int tested, shown;
	char note[256];

	if (g->nv < 2 || group_max_reps(g) < 2)
		return 0;
	fprintf(t->out, "Differences from %s at 95%% confidence, repetition by repetition (ratio: Hodges-Lehmann's,\n"
	       "the median of the runs' pairwise ratios; its CI: Moses', the ratios variant/baseline between which the\n"
	       "test does not reject; p: Mann-Whitney U, two-sided; runs: the variant's:the baseline's; a difference\n"
	       "is shown only where the CI excludes 1 too):\n", g->v[0].label);
	fprintf(t->out, "%-*s  %-23s %7s %7s  %-22s %6s  %s\n", width, "variant", "figure", "runs", "ratio", "95% CI of ratio", "p",
	       "verdict");
	for (unsigned int i = 1; i < g->nv; i++)
		for (unsigned int c = 0; c < ncols; c++)
			if (print_difference(t, g, i, &cols[c], width))
				return -1;
	table_verdicts(g, cols, ncols, &tested, &shown);
	if (chance_note(tested, shown, note, sizeof(note)))
		fprintf(t->out, "%s\n", note);
	fprintf(t->out, "\n");
	return 0;
}

/* True when some run of the group (with kernel capture: `captured`) has one
 * of `keys` above 0. */
static bool group_has_any(const struct group *g, const char *const *keys, size_t nkeys, bool captured)
{
	for (unsigned int i = 0; i < g->nv; i++)
		for (unsigned int r = 0; r < g->v[i].nreps && (!captured || g->v[i].kernel_ok); r++)
			for (size_t k = 0; k < nkeys; k++) {
				double n = 0;
				char ignored[256];

				result_number(g->v[i].reps[r], keys[k], &n, ignored, sizeof(ignored));
				if (n > 0)
					return true;
			}
	return false;
}

/* True when some run of the group recorded spin/sleep events. */
static bool group_has_phases(const struct group *g)
{
	return group_has_any(g, phase_keys, NPHASE_KEYS, false);
}

static int print_phases(struct text *t, const struct group *g)
{
	static const struct column cols[] = {
		{ "acq fast", "acq_fast", 1, "%.0f", true, false, NULL, NULL, NULL, NULL, false, 0 },
		{ "acq spin", "acq_spin", 1, "%.0f", true, false, NULL, NULL, NULL, NULL, false, 0 },
		{ "acq nosleep", "acq_nosleep", 1, "%.0f", true, true, NULL, NULL, NULL, NULL, false, 0 },
		{ "acq sleep", "acq_sleep", 1, "%.0f", true, false, NULL, NULL, NULL, NULL, false, 0 },
		{ "futex waits", "futex_waits", 1, "%.0f", true, false, NULL, NULL, NULL, NULL, false, 0 },
		{ "spin cycles", "spin_cycles", 1, "%.3g", true, false, NULL, NULL, NULL, NULL, false, 0 },
	};
	/* need_resched is optional: runs from before the sched oracle lack it. */
	static const struct column exits[] = {
#define SPIN_EXIT_COLUMN(id, name, title) \
	{ title, SPIN_EXIT_KEY_PREFIX name, 1, "%.0f", true, SPIN_EXIT_##id == SPIN_EXIT_NEED_RESCHED, \
	  NULL, NULL, NULL, NULL, false, 0 },
		SPIN_EXIT_REASONS(SPIN_EXIT_COLUMN)
#undef SPIN_EXIT_COLUMN
	};
	static const struct column preempted[] = {
		{ "owner preempted", "owner_preempted", 1, "%.0f", true, true, NULL, NULL, NULL, NULL, false, 0 },
		{ "per acquisition", "owner_preempted", 1, "%.4f", true, true, NULL, "acquisitions", NULL, NULL, false, 0 },
		{ "wait_lock", "wait_lock_preempted", 1, "%.0f", true, true, NULL, NULL, NULL, NULL, false, 0 },
		{ "spinner queue", "queue_preempted", 1, "%.0f", true, true, NULL, NULL, NULL, NULL, false, 0 },
		{ "unlocks slow", "unlock_slow", 1, "%.0f", true, true, NULL, NULL, NULL, NULL, false, 0 },
		{ "failed CAS", "spin_cas_failed", 1, "%.0f", true, true, NULL, NULL, NULL, NULL, false, 0 },
	};

	if (!group_has_phases(g))
		return 0;
	fprintf(t->out, "How acquisitions were obtained (nosleep: on the sleep path without sleeping; locks without\n"
	       "spin/sleep phases show 0):\n");
	if (print_block(t, g, cols, sizeof(cols) / sizeof(cols[0]), ROWS_MODELS))
		return -1;
	fprintf(t->out, "Why spin phases ended:\n");
	if (print_block(t, g, exits, sizeof(exits) / sizeof(exits[0]), ROWS_MODELS))
		return -1;
	fprintf(t->out, "Where the kernel's mutex is not preempted: a thread switched out involuntarily while it held\n"
	       "the lock, wait_lock, or a place in the spinner queue (kmutex with the sched oracle; n/a without\n"
	       "it); unlocks that took the slow path; failed compare-and-swaps on the lock word while spinning:\n");
	return print_block(t, g, preempted, sizeof(preempted) / sizeof(preempted[0]), ROWS_MODELS);
}

/* ---- the kernel's own lock waits (--kernel-locks) ---- */

static bool group_has_kernel(const struct group *g)
{
	for (unsigned int i = 0; i < g->nv; i++)
		if (g->v[i].kernel_ok)
			return true;
	return false;
}

/* "do_unlinkat 24/32, path_openat 8/32": the callers of the rows of lock
 * `lock` and their share of its waits with a stack (files before the lock
 * figures: every wait had one). */
static void callers_of(const struct result_run *run, const char *lock, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (unsigned int r = 0; r < run->kernel_nrows && used < len; r++) {
		const struct result_kernel_row *k = &run->kernel_row[r];
		char of[32] = "";

		if (strcmp(k->lock, lock) != 0)
			continue;
		if (k->has_lock)
			snprintf(of, sizeof(of), "/%llu", (unsigned long long)k->lock_stacks);
		used += (size_t)snprintf(buf + used, len - used, "%s%s %llu%s", used ? ", " : "", k->caller,
					 (unsigned long long)k->count, of);
	}
}

/* Each captured variant's most waited-for kernel lock, in its first run. */
static void print_kernel_tops(struct text *t, const struct group *g)
{
	for (unsigned int i = 0; i < g->nv; i++) {
		const struct result_run *run = g->v[i].reps[0];
		const struct result_kernel_row *top = &run->kernel_row[0];
		double all = 0, lock_sum = 0;
		char callers[200], ignored[256];

		if (!g->v[i].kernel_ok || run->kernel_nrows == 0)
			continue;
		result_number(run, "kernel_wait_cycles_sum", &all, ignored, sizeof(ignored));
		for (unsigned int r = 0; r < run->kernel_nrows; r++)
			if (strcmp(run->kernel_row[r].lock, top->lock) == 0)
				lock_sum = top->has_lock ? (double)top->lock_sum : lock_sum + (double)run->kernel_row[r].sum;
		callers_of(run, top->lock, callers, sizeof(callers));
		fprintf(t->out, "  %s: most waited for: %s %s (%.1f%% of the wait), from %s (callers of the waits with a stack)\n",
		       g->v[i].label, top->type, top->lock, all > 0 ? 100 * lock_sum / all : 0, callers);
	}
	fprintf(t->out, "\n");
}

/* What decides the kernel mutex's behaviour, from a run's meta.csv (one
 * line after `lead`; nothing for runs written before those keys). */
static void print_kernel_env(struct text *t, const char *lead, const struct result_run *run)
{
	const struct result_kernel_env *k = &run->kernel_env;

	if (k->preempt[0])
		fprintf(t->out, "%sCONFIG_MUTEX_SPIN_ON_OWNER %s, preemption %s, paravirt vcpu_is_preempted %s (meta.csv).\n", lead,
		       k->spin_on_owner[0] ? k->spin_on_owner : "unknown", k->preempt,
		       k->vcpu_preempted[0] ? k->vcpu_preempted : "unknown");
}

/* True when some captured run of the group waited for a kernel mutex. */
static bool group_has_kernel_mutex(const struct group *g)
{
	static const char *const mutex[] = { "kernel_contentions_mutex" };

	return group_has_any(g, mutex, 1, true);
}

/* The kernel's mutex waits by how they were resolved, beside the models'
 * acquisitions via spin and via sleep above. */
static int print_kernel_mutex(struct text *t, const struct group *g)
{
	static const struct column cols[] = {
		{ "via spin", "kernel_mutex_via_spin", 1, "%.0f", true, true, NULL, NULL, NULL, NULL, false, 0 },
		{ "spin, sleep", "kernel_mutex_via_spin_sleep", 1, "%.0f", true, true, NULL, NULL, NULL, NULL, false, 0 },
		{ "via sleep", "kernel_mutex_via_sleep", 1, "%.0f", true, true, NULL, NULL, NULL, NULL, false, 0 },
	};

	if (!group_has_kernel_mutex(g))
		return 0;
	for (unsigned int i = 0; i < g->nv; i++)
		if (g->v[i].kernel_ok) {
			print_kernel_env(t, "The kernel's mutex here: ", g->v[i].reps[0]);
			break;
		}
	fprintf(t->out, "The kernel's mutex waits by how they ended (lock:contention_begin's flags: via spin = never queued,\n"
	       "the optimistic spin or the trylocks around it got the lock; spin, sleep = spun, then queued to sleep;\n"
	       "via sleep = queued at once):\n");
	return print_block(t, g, cols, sizeof(cols) / sizeof(cols[0]), ROWS_CAPTURED);
}

/* How much of each run's time its threads spent waiting for kernel locks. */
static int print_kernel(struct text *t, const struct group *g)
{
	static const struct column cols[] = {
		{ "kernel waits", "kernel_contentions", 1, "%.0f", true, false, NULL, NULL, NULL, NULL, false, 0 },
		{ "mean cycles", "kernel_wait_cycles_mean", 1, "%.0f", true, false, NULL, NULL, NULL, NULL, false, 0 },
		{ "wait cycles/op", "kernel_wait_cycles_sum", 1, "%.0f", true, false, NULL, "ops", NULL, NULL, false, 0 },
	};

	if (!group_has_kernel(g))
		return 0;
	fprintf(t->out, "The kernel's own lock waits in these runs (--kernel-locks: lock:contention_begin to _end, the\n"
	       "runs' threads only; runs without it left out):\n");
	if (print_block(t, g, cols, sizeof(cols) / sizeof(cols[0]), ROWS_CAPTURED))
		return -1;
	print_kernel_tops(t, g);
	return print_kernel_mutex(t, g);
}

/*
 * The models against the running kernel's mutex, the group's baseline: each
 * side's own figure of the same thing (kernel_columns()), with its interval
 * and a verdict against the kernel's, where the baseline is the kernel row.
 */
static int print_models_vs_kernel(struct text *t, const struct group *g)
{
	unsigned int ncols;
	const struct column *cols = kernel_columns(&ncols);

	if (!kernel_baseline(g))
		return 0;
	fprintf(t->out, "Models against the running kernel's mutex (%s, the baseline).  What each side times: the\n"
	       "kernel, lock:contention_begin to contention_end on its mutexes, the slow path only (an acquisition\n"
	       "that found the mutex held, timed once from its first begin); the models, their contended\n"
	       "acquisitions only (those that missed their first atomic attempt).  Per operation: one op.\n"
	       "How acquired, as the tracepoint classes the kernel's waits: unqueued = the kernel's `spin` class\n"
	       "(the trylock before the spin, the optimistic spin, the trylock under wait_lock) against a model's\n"
	       "acq_spin + nosleep_unqueued; queued = the kernel's `spin, sleep` + `sleep` against the rest of a\n"
	       "model's slow path (acq_nosleep + acq_sleep - nosleep_unqueued: it joined the wait list); queued\n"
	       "at once = the kernel's `sleep` alone; slept = a model's acq_sleep (after a futex wait):\n",
	       g->v[0].label);
	return print_block(t, g, cols, ncols, ROWS_ALL);
}

/* What the kernel row is, said once above the group's tables, with what
 * decides its mutex's behaviour where its first run's meta.csv says. */
static void print_kernel_row_note(struct text *t, const struct group *g)
{
	for (unsigned int i = 0; i < g->nv; i++) {
		if (!g->v[i].kernel_row)
			continue;
		fprintf(t->out, "%s: the `none` lock (no userspace lock: the threads meet only in the kernel) with\n"
		       "--kernel-locks; its #contentions, mean cycles and contended histogram are the running\n"
		       "kernel's own lock waits, timed from lock:contention_begin to contention_end.\n", g->v[i].label);
		print_kernel_env(t, "Its kernel: ", g->v[i].reps[0]);
		fprintf(t->out, "\n");
	}
}

int print_group(struct text *t, const struct group *g)
{
	if (t->c->nhosts > 1)
		fprintf(t->out, "== host %s: ", t->c->hosts[g->host].label);
	else
		fprintf(t->out, "== ");
	if (g->program)
		fprintf(t->out, "program %s under the interposer (docs/exec.md), %u thread%s asked%s", g->program,
			g->threads, g->threads == 1 ? "" : "s", g->threads ? "" : " (not a registry run)");
	else
		fprintf(t->out, "workload %s, %u thread%s", g->workload, g->threads, g->threads == 1 ? "" : "s");
	/* The baseline is whichever run was named first: a glob's order picks it. */
	fprintf(t->out, ": %u variant%s, baseline %s (the first run named); timing %s ==\n\n", g->nv, g->nv == 1 ? "" : "s",
		g->v[0].label,
		t->c->mixed_timing ? "mixed (lock@timing)" : g->v[0].timing);
	print_stats_note(t, g);
	print_kernel_row_note(t, g);
	if (print_models_vs_kernel(t, g) || print_seed(t, g) || print_throughput(t, g) || print_contention(t, g) || print_differences(t, g) || print_phases(t, g) ||
	    print_kernel(t, g))
		return -1;
	print_hist(t, g, true);
	print_hist_differences(t, g, true);
	print_hist(t, g, false);
	print_hist_differences(t, g, false);
	return 0;
}

int text_print_hosts(const struct comparison *c, FILE *out, char *err, size_t errlen)
{
	struct text t = { c, out, err, errlen };

	if (c->nhosts < 2)
		return 0;
	print_hosts(&t);
	if (print_across_hosts(&t) != 0)
		return -1;
	print_before_after(&t);
	return 0;
}

int text_print(const struct comparison *c, FILE *out, char *err, size_t errlen)
{
	struct text t = { c, out, err, errlen };

	if (text_print_hosts(c, out, err, errlen) != 0)
		return -1;
	if (c->mixed_timing)
		fprintf(out, "NOTE: these runs mix --timing modes, so each variant is named lock@timing.  Ops/sec and CPU us/op\n"
			"of `all` runs include timing every acquisition; cycle figures and histograms cover the timed\n"
			"acquisitions only (sample:N: about 1 in N, counts as sampled; off: none, n/a).  Compare across\n"
			"modes with that in mind.\n\n");
	for (unsigned int i = 0; i < c->ngroups; i++)
		if (print_group(&t, &c->groups[i]) != 0)
			return -1;
	return 0;
}
