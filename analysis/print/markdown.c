/*
 * markdown.c — run-all's report.md (markdown.h): the header and the
 * results, the patch's table first, then each sweep; the machine and the
 * runs' own account of themselves follow (markdown_runs.c).
 */
#include "markdown.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../figures/figures.h"
#include "markdown_int.h"
#include "print.h"
#include "../files/rundir.h"

/* ---- the header ---- */

static void print_machine_line(struct md *m)
{
	const struct result_run *first = md_first_run(m);
	const char *host = first ? result_meta_get(first, "hostname") : NULL;
	const char *cpu = first ? result_meta_get(first, "cpu_brand") : NULL;
	int cpulen = cpu ? (int)strlen(cpu) : 0;

	while (cpulen > 0 && cpu[cpulen - 1] == ' ')  /* cpu_brand's padding */
		cpulen--;
	if (m->d->ndone && !first)  /* every run simulated: no machine of its own was measured */
		fprintf(m->out, "Machine: none measured, every run here is simulated (its machine: [Simulated: the seed's machine](#simulated-the-seeds-machine)); run-all ran on %s CPUs",
			rundir_env(m->d, "NCPU"));
	else
		fprintf(m->out, "Machine: %s%s%.*s, %s CPUs", host ? host : "an unrecorded host", cpulen ? ", " : "",
			cpulen, cpu ? cpu : "", rundir_env(m->d, "NCPU"));
	fprintf(m->out, ". Started %s; %s mode, %u repetition(s) per run", rundir_setting(m->d, "STARTED"),
		m->d->quick ? "quick" : "full", m->d->reps);
	if (m->d->has_variants)
		fprintf(m->out, ", run in %u round(s), each round every variant once in an order shuffled from seed %s (`plan.txt`).\n\n",
			m->d->reps, rundir_setting(m->d, "ORDER_SEED"));
	else
		fprintf(m->out, ", each variant's repetitions back to back.\n\n");
}

/* How to read the tables' intervals and verdicts (README, "Reading the verdicts"). */
static void print_stats_text(struct md *m)
{
	char note[256];

	if (m->d->reps < 2) {
		fprintf(m->out, "Figures are single runs: no confidence intervals and no verdicts (`--reps 4` or more give them).\n\n");
		return;
	}
	fprintf(m->out, "Figures are medians over the repetitions with their 95%% confidence interval in brackets (order statistics; with fewer than 6 repetitions the bracket is [min..max], which covers less, as each table says; `!`: the interval reaches beyond ±10%% of the median). Each ratio to the first variant has a verdict: `faster`/`slower` (`cheaper`/`costlier` for CPU time, `more`/`fewer` for counts, `better`/`worse` for a program's metrics) only where the Mann-Whitney U test over the repetitions finds a difference at 95%% confidence, else `no difference` — read that as \"not shown by these runs\", whatever the ratio says. The \"Differences\" table gives each ratio's 95%% interval and p; the \"Distribution\" tables compare whole histograms (earth mover's distance, permutation test) and show where the mass moved, bin by bin.\n");
	if (reach_note(m->d->reps, m->d->reps, note, sizeof(note)))
		fprintf(m->out, "%s\n", note);
	fprintf(m->out, "\n");
}

/* Which acquisitions the runs timed (summary.csv's `timing`; runs written
 * before --timing existed timed them all), with how many runs did so. */
static void print_timing_line(struct md *m)
{
	struct tally t = { 0 };
	bool all = true;

	for (size_t i = 0; i < m->d->ndone; i++) {
		const char *mode = result_get(m->run[i], "timing");
		tally_add(&t, mode ? mode : "all");
	}
	tally_sort(&t, false);
	for (size_t i = 0; i < t.n; i++) {
		fprintf(m->out, "%s`--timing %s` (%u run(s))", i ? ", " : "Acquisition timing: ", t.item[i].key,
			t.item[i].count);
		all = all && strcmp(t.item[i].key, "all") == 0;
	}
	if (t.n)
		fprintf(m->out, "%s.\n\n", all ? ": every acquisition timed, as the patch-shaped tables need"
					     : "; cycle figures and histograms of other modes cover only the acquisitions timed");
	tally_free(&t);
}

/* The title and the machine in one line, then the answer and the charts
 * (markdown_answer.c), then how to read the tables that follow. */
static void print_header(struct md *m)
{
	fprintf(m->out, "# lockbench report\n\n");
	print_machine_line(m);
	md_answer_section(m);
	md_charts_section(m);
	fprintf(m->out, "## Reading the figures\n\n");
	print_stats_text(m);
	print_timing_line(m);
	md_noise_section(m);
}

/* ---- the patch's table ---- */

/* Which oracle the patch experiment's kmutex runs spun with: one line per
 * combination of summary.csv's oracle, spin_budget_effective_cycles and
 * oracle_fallback, with how many runs used it. */
static void print_oracle_lines(struct md *m)
{
	struct tally t = { 0 };

	for (size_t i = 0; i < m->d->ndone; i++) {
		const struct result_run *run = m->run[i];
		const char *oracle = result_get(run, "oracle"), *budget = result_get(run, "spin_budget_effective_cycles");
		const char *fallback = result_get(run, "oracle_fallback");
		char key[512];
		if (strcmp(m->d->plan[m->d->done[i]].kind, "patch") != 0)
			continue;
		if (oracle && strcmp(oracle, "none") != 0) {
			snprintf(key, sizeof(key), "%.60s\t%.30s\t%.400s", oracle, budget ? budget : "",
				 fallback ? fallback : "");
			tally_add(&t, key);
		}
	}
	tally_sort(&t, false);
	for (size_t i = 0; i < t.n; i++) {
		char *oracle = t.item[i].key, *budget = strchr(oracle, '\t') + 1, *why = strchr(budget, '\t') + 1;
		budget[-1] = why[-1] = '\0';
		if (strcmp(oracle, "sched") == 0)
			fprintf(m->out, "Oracle of the kmutex runs: `sched` (the kernel's view through BPF: spins end when the owner leaves its CPU or the spinner is preempted)");
		else
			fprintf(m->out, "Oracle of the kmutex runs: `%s`", oracle);
		if (strcmp(budget, "0") == 0)
			fprintf(m->out, ", no spin budget");
		else
			fprintf(m->out, ", a spin budget of %s cycles", budget);
		fprintf(m->out, " (%u run(s))%s%s.\n", t.item[i].count, *why && strcmp(why, "-") ? "; `sched` could not load: " : "",
			*why && strcmp(why, "-") ? why : "");
	}
	if (t.n)
		fprintf(m->out, "\n");
	tally_free(&t);
}

/* The patch experiment's kernel row's lock, or NULL: run-env's KERNEL_BASE
 * where the plan has a patch run of it.  A directory from before the key
 * names none: there, a finished patch run whose lock excludes nothing
 * (md_kernel_base_run), so a kernel row whose runs all failed goes unsaid. */
static const char *kernel_row_lock(const struct md *m)
{
	const char *base = rundir_env(m->d, "KERNEL_BASE");
	char opt[80];

	if (*base) {
		snprintf(opt, sizeof(opt), "-l %.64s ", base);
		return rundir_plans(m->d, "patch", NULL, opt, false) ? base : NULL;
	}
	for (size_t i = 0; i < m->d->ndone; i++)
		if (strcmp(m->d->plan[m->d->done[i]].kind, "patch") == 0 && md_kernel_base_run(m, i))
			return result_get(m->run[i], "lock");
	return NULL;
}

/* What the kernel row is, or why there is none. */
static void print_kernel_line(struct md *m)
{
	const char *kernel_lock = kernel_row_lock(m);

	if (rundir_plans(m->d, NULL, NULL, "--kernel-locks", false)) {
		if (kernel_lock)
			fprintf(m->out, "The real kernel's row (`kernel X.Y TYPE`, named for the lock type it waited on most) is the `%s` lock, which excludes nothing, run with `--kernel-locks`: its threads meet only in the kernel, and its #contentions, mean cycles and contended histogram (black and dashed in the charts) are the running kernel's own lock waits, timed from `lock:contention_begin` to `contention_end`.\n",
				kernel_lock);
		fprintf(m->out, "Every run recorded its threads' waits for kernel locks (`--kernel-locks`: `kernel-hist.csv`, `kernel-locks.csv`): each comparison in `data/` has a block \"The kernel's own lock waits\" with them, with the lock waited on most and its callers.\n\n");
	} else if (!*rundir_env(m->d, "KL")) {
		fprintf(m->out, "Kernel lock capture is unavailable here (%s): no kernel row, and no run recorded the kernel's own lock waits.\n\n",
			*rundir_env(m->d, "KL_WHY") ? rundir_env(m->d, "KL_WHY") : "not recorded with these runs");
	}
}

/* The patch experiment's comparison of W: each thread count's headline
 * figures, the seed's own ratio beside them, and where the full text is
 * (its charts are at the top: md_charts_section); or why it failed. */
static void print_patch_workload(struct md *m, const struct dir_part *part)
{
	const struct group *g[MAX_GROUPS];
	size_t n;
	double seed;

	if (!part || md_failed_comparison(m, part))
		return;
	n = md_groups_of(part->c, part->workload, NULL, g);
	for (size_t i = 0; i < n; i++) {
		fprintf(m->out, "%u threads:\n\n", g[i]->threads);
		md_headline_table(m->out, g[i]);
	}
	if (seed_rate_ratio(part->workload, &seed))
		fprintf(m->out, "The seed patch's own ratio, 2.6.34 → the fix on 64 cores: %.2fx (`%s`'s row against `%s`'s here).\n\n",
			seed, m->pair[1], m->pair[0]);
	fprintf(m->out, "Every figure (all acquisitions, the differences with their intervals and p-values, phases, histograms, the kernel's own lock waits): `data/patch-%s.txt`.\n\n",
		part->workload);
}

/* Under this many CPUs the patch's pile-up of spinners cannot form. */
#define FEW_CPUS 8

/* What a small machine can show of the patch: said where its table is, as
 * it is about that table's verdicts, not in a report without it. */
static void print_small_machine(struct md *m)
{
	long ncpu = strtol(rundir_env(m->d, "NCPU"), NULL, 10);

	if (ncpu <= 0 || ncpu >= FEW_CPUS)
		return;
	fprintf(m->out, "**A small machine: %ld CPU(s).** With N CPUs at most N−1 threads can spin while the lock's owner runs, so the pile-up of spinners that the 2.6.36 patch cured cannot form on %ld; the seed's 3.14x was measured on 64 cores, and a machine with many cores is where it should appear (docs/run-all.md).\n\n",
		ncpu, ncpu);
}

static void print_patch(struct md *m)
{
	const char *all = rundir_env(m->d, "ALL_WORKLOADS");
	char w[64];

	if (!rundir_plans(m->d, "patch", NULL, NULL, false))
		return;
	fprintf(m->out, "## The patch's table, reproduced\n\n");
	fprintf(m->out, "Tim Chen's 2.6.36 patch compared 2.6.34 (`%s`) with the fix (`%s`) on test-mutex V (`creat`) and AIM7 fserver; the later kernel variants and glibc's mutex run beside them. Ratios are to the first variant. The patch's #contentions, mean acquisition time and histogram cover contended acquisitions only (its histogram's rows add up to its contention count), so the tables and charts here do too. Each table gives the headline figures; the seed's own published figures beside this machine's `%s` -> `%s`, the all-acquisitions figures (fast path included), the differences and the histograms are in the full comparison it links in `data/`.\n\n",
		m->pair[0], m->pair[1], m->pair[0], m->pair[1]);
	print_small_machine(m);
	print_oracle_lines(m);
	print_kernel_line(m);
	for (const char *p = all; md_next_word(&p, w, sizeof(w));) {
		if (!rundir_plans(m->d, "patch", w, NULL, false))
			continue;
		if (!rundir_plans(m->d, "patch", w, NULL, true)) {
			fprintf(m->out, "- No `%s` runs finished (see [Failed runs](#failed-runs)).\n\n", w);
			continue;
		}
		fprintf(m->out, "### %s\n\n", w);
		print_patch_workload(m, md_part(m, "patch", w));
	}
	for (int i = 0; i < 2; i++)
		if (!word_in(m->pair[i], rundir_env(m->d, "ALL_LOCKS")))
			fprintf(m->out, "- Lock `%s` is not in this build: the patch's before/after comparison needs it.\n\n", m->pair[i]);
}

/* ---- sweeps ---- */

/* One cell of the sweep's table: the median throughput [its 95% CI]. */
static void print_sweep_cell(struct md *m, const struct group *g, const struct variant *v)
{
	struct stat3 s;

	if (!v || md_rate_figure(g, v, &s) != 0) {
		fprintf(m->out, " - |");
		return;
	}
	fprintf(m->out, " %.0f", s.median);
	if (s.n >= 2)
		fprintf(m->out, " [%.0f–%.0f]%s", s.ci.lo, s.ci.hi, stats_spread_large(s.median, &s.ci, STATS_SPREAD) ? "!" : "");
	fprintf(m->out, " |");
}

/* The sweep's median throughput with its interval, a row per thread
 * count, a column per lock (the sweep's series: sweep_of). */
static void print_sweep_table(struct md *m, const struct comparison *c, const char *w)
{
	static struct sweep sw;

	sweep_of(c, w, &sw);
	fprintf(m->out, "%s, the median over the repetitions [its 95%% CI]%s:\n\n| threads |",
		sw.nrows ? sw.rows[0]->rate.title : "Throughput", m->d->reps < 6 ? " (with fewer than 6 repetitions [min–max])" : "");
	for (unsigned int k = 0; k < sw.nseries; k++)
		fprintf(m->out, " %s |", sw.series[k]);
	fprintf(m->out, "\n|---|");
	for (unsigned int k = 0; k < sw.nseries; k++)
		fprintf(m->out, "---|");
	fprintf(m->out, "\n");
	for (unsigned int r = 0; r < sw.nrows; r++) {
		fprintf(m->out, "| %u |", sw.rows[r]->threads);
		for (unsigned int k = 0; k < sw.nseries; k++)
			print_sweep_cell(m, sw.rows[r], sweep_variant(c, w, sw.rows[r]->threads, sw.series[k]));
		fprintf(m->out, "\n");
	}
	fprintf(m->out, "\n");
}

/* A --quick sweep that left Concurrency Kit's locks out (a first look,
 * issue 42: lockbench --plan variants); a quick directory from before swept
 * them all.  Those locks are run-env's CK_LOCKS (docs/ck.md's, as --list
 * names them, empty in a build without them); a directory from before the
 * key names none, and its report says nothing of them. */
static bool quick_left_out_ck(struct md *m, const char *w)
{
	char lock[64], opt[80];

	if (!m->d->quick || *rundir_setting(m->d, "LOCKS"))
		return false;
	for (const char *p = rundir_env(m->d, "CK_LOCKS"); md_next_word(&p, lock, sizeof(lock));) {
		snprintf(opt, sizeof(opt), "-l %s ", lock);
		if (!rundir_plans(m->d, "sweep", w, opt, false))
			return true;
	}
	return false;
}

/* A NUMA-only lock (run-env's NUMA_ONLY_LOCKS: its role in locks/locks.def)
 * only keeps the lock within a node: run-all sweeps it where there are two
 * or more, or where --locks names it.  Each one in the build that the sweep
 * of W has no run of, --locks naming none, was skipped for that. */
static void print_numa_skipped(struct md *m, const char *w)
{
	char lock[64], opt[80];

	if (*rundir_setting(m->d, "LOCKS"))
		return;
	for (const char *p = rundir_env(m->d, "NUMA_ONLY_LOCKS"); md_next_word(&p, lock, sizeof(lock));) {
		snprintf(opt, sizeof(opt), "-l %s ", lock);
		if (word_in(lock, rundir_env(m->d, "ALL_LOCKS")) && !rundir_plans(m->d, "sweep", w, opt, false))
			fprintf(m->out, "`%s` was skipped: this machine has %s NUMA node(s), and the cohort lock only keeps the lock within a node where there are two or more (name it in `--locks` to run it anyway).\n\n",
				lock, rundir_env(m->d, "NUMA_NODES"));
	}
}

static void print_sweep(struct md *m, const char *w)
{
	const struct dir_part *part = md_part(m, "sweep", w);

	fprintf(m->out, "## %c%s sweep\n\n", *w >= 'a' && *w <= 'z' ? *w - 'a' + 'A' : *w, w + 1);
	/* Its tables and charts come from the comparison: none when it
	 * failed, and then its line says why. */
	if (!part || md_failed_comparison(m, part))
		return;
	if (quick_left_out_ck(m, w))
		fprintf(m->out, "`--quick`'s sweep leaves out Concurrency Kit's locks and the patch table's (the patch experiment runs those): a first look; a full `./run-all` sweeps every lock.\n\n");
	else
		print_numa_skipped(m, w);
	print_sweep_table(m, part->c, w);
	md_sweep_verdicts(m, part->c, w);
	fprintf(m->out, "Every run's full comparison (contentions, acquisition cycles, histograms, with the 95%% CIs and verdicts against the first lock of each thread count): `data/sweep-%s.txt`; the same figures as CSV: `data/stats-%s-t*.csv`.\n\n",
		w, w);
}

static void print_sweeps(struct md *m)
{
	char w[64];

	for (const char *p = rundir_env(m->d, "ALL_WORKLOADS"); md_next_word(&p, w, sizeof(w));)
		if (rundir_plans(m->d, "sweep", w, NULL, true))
			print_sweep(m, w);
}

/* ---- the command ---- */

static void print_produced(struct md *m)
{
	static const char *const opts[][2] = {
		{ "ORDER_SEED", "--order-seed" }, { "BUDGET", "--budget" },       { "LOCKS", "--locks" },
		{ "WORKLOADS", "--workloads" },   { "THREADS", "--threads" },     { "DURATION", "--duration" },
	};

	fprintf(m->out, "## How this was produced\n\n`./run-all%s --reps %u", m->d->quick ? " --quick" : "", m->d->reps);
	for (size_t i = 0; i < sizeof(opts) / sizeof(opts[0]); i++)
		if (*rundir_setting(m->d, opts[i][0]))
			fprintf(m->out, " %s %s", opts[i][1], rundir_setting(m->d, opts[i][0]));
	if (strcmp(rundir_setting(m->d, "SIM_ONLY"), "1") == 0)
		fprintf(m->out, " --sim %s", rundir_setting(m->d, "SIM"));
	if (strcmp(rundir_setting(m->d, "DIR_WHY"), "--dir") == 0)
		fprintf(m->out, " --dir %s", rundir_setting(m->d, "DIR"));
	fprintf(m->out, "` — %zu runs, listed with their exact arguments in `plan.txt`; each run's result files are in `runs/<name>/`, its stderr in `logs/`.\n",
		m->d->nplan);
}

static void print_report(struct md *m)
{
	md_pair_read(m);
	print_header(m);
	print_patch(m);
	md_sim_section(m);
	md_kernel_section(m);
	print_sweeps(m);
	md_programs_section(m);
	md_failed_section(m);
	md_checks_section(m);
	md_warnings_section(m);
	md_machine_section(m);
	print_produced(m);
	tally_free(&m->failed);
}

void markdown_report_model(const struct rundir *d, struct dir_model *model, bool charts_planned, FILE *out)
{
	static struct md m;  /* static: two paths of PATH_MAX, not on the stack */

	memset(&m, 0, sizeof(m));
	m.d = d;
	m.model = model;
	m.run = model->run;
	m.charts_planned = charts_planned;
	m.out = out;
	print_report(&m);
}
