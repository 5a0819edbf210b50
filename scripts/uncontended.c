/*
 * uncontended.c — `make bench`: the harness's own performance figures,
 * measured in one process so their ratios are fair.
 *
 * 1. Timing overhead: cycles per iteration of the harness's timed acquisition
 *    on the lock that excludes nothing (LOCK_F_NO_EXCLUSION: tsc_begin,
 *    indirect lock call, tsc_end, histogram
 *    update, unlock call) against a bare back-to-back rdtscp pair; and the
 *    same acquisition under each --timing mode.
 * 2. Uncontended lock+unlock, one thread, for every registered lock, against
 *    glibc's mutex (the programs' baseline, LOCK_R_PROGRAM_BASE).
 * Each figure is the median of TRIALS trials of ITERS iterations.
 * 3. lockbench's own locks beside Concurrency Kit's of the same algorithm
 *    (a Concurrency Kit lock "ck-X" whose X is registered too): uncontended
 *    cycles from 2., and the sweep workload's (WL_SWEEP's first) throughput
 *    with 2 threads, an empty critical section, under each
 *    --timing mode (real runs through bench_run(), the median of CONT_REPS,
 *    interleaved so a slow spell of the machine hits them all).
 *
 * Every ratio printed is also one row of the CSV file named by the first
 * argument, if any: `table,row,column,ratio` (scripts/bench-docs.sh compares
 * them with docs/measurement.csv, the documented sample's).
 *
 * A second thread stays alive (asleep) throughout: glibc drops the lock
 * prefix from its mutex while a process is single-threaded, which no
 * contended benchmark ever sees, and which would flatter glibc's mutex.
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../bench/run/run.h"
#include "../bench/workloads/workload.h"
#include "../locks/standalone.h"
#include "trials.h"

static uint64_t sink;

/* Every lock is taken from the registry by its flags and roles
 * (locks/locks.def), none by name: the first that has `flags`, else the
 * first that has `roles`; NULL when none has. */
static const struct lock_ops *lock_with(unsigned int flags, unsigned int roles)
{
	for (size_t i = 0; i < lock_registry_len; i++)
		if ((lock_registry[i]->flags & flags) || (lock_plans[i].roles & roles))
			return lock_registry[i];
	return NULL;
}

/* The lock that excludes nothing: the harness's own cost. */
static const struct lock_ops *bare_lock(void)
{
	return lock_with(LOCK_F_NO_EXCLUSION, 0);
}

/* The ratios' CSV (NULL: none asked for). */
static FILE *ratios_csv;

/* One ratio of the printed tables, as a row of the CSV. */
static void ratio_row(const char *table, const char *row, const char *column, double ratio)
{
	if (ratios_csv)
		fprintf(ratios_csv, "%s,%s,%s,%.4f\n", table, row, column, ratio);
}

static double rdtscp_pair_cycles(void)
{
	unsigned int aux;
	uint64_t acc = 0, t0 = tsc_now();

	for (int i = 0; i < ITERS; i++) {
		uint64_t a = __builtin_ia32_rdtscp(&aux);
		uint64_t b = __builtin_ia32_rdtscp(&aux);

		acc += b - a;
	}
	sink += acc;
	return (double)(tsc_now() - t0) / ITERS;
}

/* Cycles per bench_lock + bench_unlock of bare_lock() under one --timing mode. */
static double timing_mode_cycles(int timing)
{
	const struct lock_ops *bare = bare_lock();
	struct bench_config cfg = { .timing = timing, .timing_sample = 64, .seed = 1 };
	struct bench_thread *t = aligned_alloc(CACHELINE, sizeof(*t));
	double v[TRIALS];

	memset(t, 0, sizeof(*t));
	t->lock_ops = bare;
	t->lock = lock_new_standalone(bare);
	t->lt = lock_thread_new_standalone(bare, t->lock, 0);
	hist_reset(&t->acq);
	hist_reset(&t->acq_contended);
	bench_timing_init(t, &cfg);
	for (int k = 0; k < TRIALS; k++)
		v[k] = lock_unlock_trial(t);
	lock_free_standalone(bare, t->lock);
	free(t->lt);
	free(t);
	return median(v, TRIALS);
}

static double lock_unlock_cycles(const struct lock_ops *ops, void *lock, struct lock_thread *self)
{
	uint64_t t0 = tsc_now();

	for (int i = 0; i < ITERS; i++) {
		ops->lock(lock, self);
		ops->unlock(lock, self);
	}
	return (double)(tsc_now() - t0) / ITERS;
}

static void overhead_figures(void)
{
	const struct lock_ops *bare = bare_lock();
	struct bench_thread *t = aligned_alloc(CACHELINE, sizeof(*t));
	double pair[TRIALS], timed[TRIALS], p, m;

	memset(t, 0, sizeof(*t));
	t->lock_ops = bare;
	t->lock = lock_new_standalone(bare);
	t->lt = lock_thread_new_standalone(bare, t->lock, 0);
	hist_reset(&t->acq);
	for (int k = 0; k < TRIALS; k++) {
		pair[k] = rdtscp_pair_cycles();
		timed[k] = lock_unlock_trial(t);
	}
	p = median(pair, TRIALS);
	m = median(timed, TRIALS);
	printf("timing overhead (median of %d x %d iterations, TSC cycles per iteration):\n", TRIALS, ITERS);
	printf("  bare rdtscp pair                 %8.1f\n", p);
	printf("  timed acquisition, lock '%s'%*s %8.1f   ratio %.2f (target <= 1.25): %s\n", bare->name,
	       strlen(bare->name) < 6 ? (int)(6 - strlen(bare->name)) : 0, "", m, m / p,
	       m / p <= 1.25 ? "ok" : "OVER TARGET");
	ratio_row("timing_overhead", "timed_acquisition", "rdtscp_pair", m / p);
	lock_free_standalone(bare, t->lock);
	free(t->lt);
	free(t);
}

static void timing_mode_figures(void)
{
	static const struct { int timing; const char *name; } modes[] = {
		{ TIMING_ALL, "all" }, { TIMING_SAMPLE, "sample:64" }, { TIMING_OFF, "off" },
	};
	double all = 0;

	printf("\n--timing modes, lock '%s' (bench_lock + bench_unlock, median of %d x %d, TSC cycles per pair):\n",
	       bare_lock()->name, TRIALS, ITERS);
	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		double c = timing_mode_cycles(modes[i].timing);

		if (i == 0)
			all = c;
		printf("  %-18s %8.1f   %.2fx all\n", modes[i].name, c, c / all);
		ratio_row("timing_modes", modes[i].name, "all", c / all);
	}
}

/* Trials interleave the locks, so a slow spell of the machine hits them all. */
static void uncontended_all(double *cycles, size_t n)
{
	static void *locks[256];
	static struct lock_thread *selves[256];
	static double v[256][TRIALS];

	for (size_t i = 0; i < n; i++) {
		locks[i] = lock_new_standalone(lock_registry[i]);
		selves[i] = lock_thread_new_standalone(lock_registry[i], locks[i], 0);
	}
	for (int k = 0; k < TRIALS; k++)
		for (size_t i = 0; i < n; i++)
			v[i][k] = lock_unlock_cycles(lock_registry[i], locks[i], selves[i]);
	for (size_t i = 0; i < n; i++) {
		cycles[i] = median(v[i], TRIALS);
		free(selves[i]);
		lock_free_standalone(lock_registry[i], locks[i]);
	}
}

/* ---- 3. own vs Concurrency Kit, and --timing, on the contended sweep workload ---- */

#define CONT_REPS 7
#define CONT_SECONDS 0.2
#define CONT_SAMPLE 64
#define CONT_MAX 32

/* The algorithms both implement, [own, Concurrency Kit's]: a lock of
 * Concurrency Kit's role (locks.def's LOCK_R_CK), "ck-X", and X, lockbench's own. */
static const struct lock_ops *pairs[CONT_MAX / 2][2];
static int npairs;
/* The contended runs' locks: each pair's two, adjacent, then glibc's. */
static const struct lock_ops *cont_locks[CONT_MAX];
static int ncont;

static void find_pairs(void)
{
	for (size_t i = 0; i < lock_registry_len && npairs < CONT_MAX / 2 - 1; i++) {
		const char *name = lock_registry[i]->name, *dash = strchr(name, '-');
		const struct lock_ops *own = dash ? lock_find(dash + 1) : NULL;

		if (own && (lock_plans[i].roles & LOCK_R_CK)) {
			pairs[npairs][0] = own;
			pairs[npairs][1] = lock_registry[i];
			cont_locks[ncont++] = own;
			cont_locks[ncont++] = lock_registry[i];
			npairs++;
		}
	}
	if (lock_with(0, LOCK_R_PROGRAM_BASE))
		cont_locks[ncont++] = lock_with(0, LOCK_R_PROGRAM_BASE);
}

/* The locks the issues hold to "no slower than glibc's mutex": lockbench's
 * own sleeping locks (those that may sleep and record their phases: glibc's
 * do not) and its halves of the Concurrency Kit pairs. */
static bool is_target(const struct lock_ops *ops)
{
	unsigned int own_sleeping = LOCK_F_PHASES | LOCK_F_SLEEPS;

	for (int p = 0; p < npairs; p++)
		if (pairs[p][0] == ops)
			return true;
	return (ops->flags & own_sleeping) == own_sleeping;
}

static const struct {
	int timing;
	const char *name;
} cont_modes[] = { { TIMING_ALL, "all" }, { TIMING_SAMPLE, "sample:64" }, { TIMING_OFF, "off" } };
enum { NMODES = sizeof(cont_modes) / sizeof(cont_modes[0]) };

/* A run whose threads got less than this share of their CPUs (user + sys
 * over threads x measured time) shared them with another process: on a
 * shared machine that, not the lock, decides a 2-thread spinlock's
 * throughput.  Such a run is repeated, up to CONT_TRIES times in all. */
#define CONT_MIN_CPU_SHARE 0.9
#define CONT_TRIES 4

static unsigned int cont_repeated, cont_disturbed;

/* The scaling sweep's workload (WL_SWEEP's first): every lock runs it. */
static const struct workload_ops *sweep_workload(void)
{
	for (size_t i = 0; i < workload_registry_len; i++)
		if (workload_plans[i].role == WL_SWEEP)
			return workload_registry[i];
	return workload_registry[0];
}

/* ops/s of one real sweep-workload run, 2 threads; 0 when it failed (said on stderr). */
static double contended_ops(const struct lock_ops *ops, int timing)
{
	static struct bench_config cfg;
	struct bench_result res;
	char err[512] = "";
	int status;
	double ops_per_s, share;

	cfg = (struct bench_config){
		.lock = ops, .workload = sweep_workload(), .threads = 2, .duration_s = CONT_SECONDS,
		.warmup_s = 0.05, .pin = "cores", .lock_node = -1, .seed = 1, .timing = timing,
		.timing_sample = CONT_SAMPLE, .quiet = true,
	};
	for (int try = 1;; try++) {
		status = bench_run(&cfg, &res, err, sizeof(err));
		ops_per_s = status == EXIT_OK ? res.ops_per_s : 0;
		share = status == EXIT_OK && res.measured_s > 0 ?
			(res.usage.user_s + res.usage.sys_s) / (cfg.threads * res.measured_s) : 1;
		if (status != EXIT_OK)
			fprintf(stderr, "uncontended: %s: %s\n", ops->name, err);
		bench_result_free(&res);
		if (share >= CONT_MIN_CPU_SHARE)
			return ops_per_s;
		if (try == CONT_TRIES) {
			cont_disturbed++;
			return ops_per_s;
		}
		cont_repeated++;
	}
}

/* Every run's ops/s, [lock][mode][round]: each round runs every mode, and
 * within a mode every lock back to back (own and ck's of an algorithm
 * adjacent), in reverse order every other round, so a slow spell of a shared
 * machine — or its host moving the two vCPUs — lands on both sides alike. */
static double cont_ops[CONT_MAX][NMODES][CONT_REPS];

static void contended_all(double ops[CONT_MAX][NMODES])
{
	for (int r = 0; r < CONT_REPS; r++)
		for (int m = 0; m < NMODES; m++)
			for (int k = 0; k < ncont; k++) {
				int i = r % 2 ? ncont - 1 - k : k;

				cont_ops[i][m][r] = contended_ops(cont_locks[i], cont_modes[m].timing);
			}
	for (int i = 0; i < ncont; i++)
		for (int m = 0; m < NMODES; m++) {
			double v[CONT_REPS];

			memcpy(v, cont_ops[i][m], sizeof(v));
			ops[i][m] = median(v, CONT_REPS);
		}
}

/* own/ck in one mode: the median over rounds of the ratio of the two
 * adjacent runs, which saw the same state of the machine. */
static double paired_ratio(int own, int ck, int m)
{
	double r[CONT_REPS];

	for (int k = 0; k < CONT_REPS; k++)
		r[k] = cont_ops[ck][m][k] > 0 ? cont_ops[own][m][k] / cont_ops[ck][m][k] : 0;
	return median(r, CONT_REPS);
}

static int cont_index(const struct lock_ops *ops)
{
	for (int i = 0; i < ncont; i++)
		if (cont_locks[i] == ops)
			return i;
	return -1;
}

static size_t registry_index(const struct lock_ops *ops)
{
	for (size_t i = 0; i < lock_registry_len; i++)
		if (lock_registry[i] == ops)
			return i;
	return 0;
}

static void contended_figures(const double *uncontended)
{
	double ops[CONT_MAX][NMODES];
	const char *wl = sweep_workload()->name;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	contended_all(ops);
	printf("\n2-thread contended %s (lockbench -w %s -t 2, empty critical section; ops/s, median of\n"
	       "%d runs of %.1f s, interleaved), by --timing mode:\n", wl, wl, CONT_REPS, CONT_SECONDS);
	if (cpus < 2)
		printf("  (one CPU online: the two threads share it, so these figures measure the scheduler)\n");
	printf("  (%u runs repeated because their threads got under %.0f%% of their CPUs; %u kept so after %d tries)\n",
	       cont_repeated, 100 * CONT_MIN_CPU_SHARE, cont_disturbed, CONT_TRIES);
	printf("  %-12s %12s %12s %12s   %-14s %s\n", "lock", "all", "sample:64", "off", "sample:64/all", "off/all");
	for (int i = 0; i < ncont; i++) {
		const char *name = cont_locks[i]->name;

		printf("  %-12s %12.0f %12.0f %12.0f   %12.2fx %8.2fx\n", name, ops[i][0], ops[i][1],
		       ops[i][2], ops[i][1] / ops[i][0], ops[i][2] / ops[i][0]);
		ratio_row("contended", name, "sample:64/all", ops[i][1] / ops[i][0]);
		ratio_row("contended", name, "off/all", ops[i][2] / ops[i][0]);
	}
	printf("\nlockbench's own vs Concurrency Kit's, same algorithm: own/ck (uncontended: ck's cycles per\n"
	       "lock+unlock / own's, target >= 1.00; contended: the median over rounds of own's ops/s / ck's\n"
	       "in adjacent runs, target >= 0.90):\n");
	printf("  %-8s %-16s %-16s %-16s %-16s\n", "", "uncontended", "contended all", "sample:64", "off");
	for (int p = 0; p < npairs; p++) {
		const char *name = pairs[p][0]->name;
		double unc = uncontended[registry_index(pairs[p][1])] / uncontended[registry_index(pairs[p][0])];
		int own = cont_index(pairs[p][0]), ck = cont_index(pairs[p][1]);

		printf("  %-8s %5.2fx %-9s", name, unc, unc >= 1.0 ? "ok" : "BELOW");
		ratio_row("own_vs_ck", name, "uncontended", unc);
		for (int m = 0; m < NMODES; m++) {
			double r = paired_ratio(own, ck, m);

			printf(" %5.2fx %-9s", r, r >= 0.9 ? "ok" : "BELOW");
			ratio_row("own_vs_ck", name, cont_modes[m].name, r);
		}
		printf("\n");
	}
}

static int wake_pipe[2];

static void *sleeper(void *arg)
{
	char c;

	(void)arg;
	while (read(wake_pipe[0], &c, 1) < 0)
		;
	return NULL;
}

int main(int argc, char **argv)
{
	static double cycles[256];
	const struct lock_ops *glibc = lock_with(0, LOCK_R_PROGRAM_BASE);
	const char *bn;
	double base;
	size_t n = lock_registry_len < 256 ? lock_registry_len : 256;
	pthread_t other;

	if (argc > 1 && !(ratios_csv = fopen(argv[1], "w"))) {
		fprintf(stderr, "uncontended: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	if (ratios_csv)
		fprintf(ratios_csv, "table,row,column,ratio\n");
	if (pipe(wake_pipe) != 0 || pthread_create(&other, NULL, sleeper, NULL) != 0) {
		perror("uncontended: cannot start the second thread");
		return 1;
	}
	if (!bare_lock()) {
		fprintf(stderr, "uncontended: no registered lock excludes nothing (LOCK_F_NO_EXCLUSION)\n");
		return 1;
	}
	find_pairs();

	overhead_figures();
	timing_mode_figures();
	uncontended_all(cycles, n);
	base = cycles[glibc ? registry_index(glibc) : 0];
	bn = lock_registry[glibc ? registry_index(glibc) : 0]->name;
	printf("\nuncontended lock+unlock, 1 thread (median of %d x %d, TSC cycles per pair):\n", TRIALS, ITERS);
	for (size_t i = 0; i < n; i++) {
		const struct lock_ops *ops = lock_registry[i];
		bool target = is_target(ops);

		printf("  %-18s %8.1f   %.2fx %s", ops->name, cycles[i], cycles[i] / base, bn);
		if (target)
			printf("  (target <= %s: %s)", bn, cycles[i] <= base ? "ok" : "SLOWER");
		printf("\n");
		ratio_row("uncontended", ops->name, bn, cycles[i] / base);
	}
	contended_figures(cycles);
	if (write(wake_pipe[1], "x", 1) != 1 || pthread_join(other, NULL) != 0)
		return 1;
	if (ratios_csv && fclose(ratios_csv) != 0) {
		fprintf(stderr, "uncontended: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	return 0;
}
