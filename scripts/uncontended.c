/*
 * uncontended.c — `make bench`: the two performance figures of the core issue,
 * measured in one process so their ratios are fair.
 *
 * 1. Timing overhead: cycles per iteration of the harness's timed acquisition
 *    on the `none` lock (tsc_begin, indirect lock call, tsc_end, histogram
 *    update, unlock call) against a bare back-to-back rdtscp pair.
 * 2. Uncontended lock+unlock, one thread, for every registered lock, against
 *    glibc's pthread mutex.
 * Each figure is the median of TRIALS trials of ITERS iterations.
 *
 * A second thread stays alive (asleep) throughout: glibc drops the lock
 * prefix from its mutex while a process is single-threaded, which no
 * contended benchmark ever sees, and which would flatter `pthread`.
 */
#include <inttypes.h>
#include <pthread.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../bench/harness.h"
#include "../tests/lockutil.h"

#define TRIALS 9
#define ITERS 200000

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return v[n / 2];
}

static uint64_t sink;

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

static double timed_none_cycles(struct bench_thread *t)
{
	uint64_t t0 = tsc_now();

	for (int i = 0; i < ITERS; i++) {
		bench_lock(t);
		bench_unlock(t);
	}
	return (double)(tsc_now() - t0) / ITERS;
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
	const struct lock_ops *none = lock_find("none");
	struct bench_thread *t = aligned_alloc(CACHELINE, sizeof(*t));
	double pair[TRIALS], timed[TRIALS], p, m;

	memset(t, 0, sizeof(*t));
	t->lock_ops = none;
	t->lock = test_lock_new(none);
	t->lt = test_self_new(none, t->lock, 0);
	hist_reset(&t->acq);
	for (int k = 0; k < TRIALS; k++) {
		pair[k] = rdtscp_pair_cycles();
		timed[k] = timed_none_cycles(t);
	}
	p = median(pair, TRIALS);
	m = median(timed, TRIALS);
	printf("timing overhead (median of %d x %d iterations, TSC cycles per iteration):\n", TRIALS, ITERS);
	printf("  bare rdtscp pair                 %8.1f\n", p);
	printf("  timed acquisition, lock 'none'   %8.1f   ratio %.2f (target <= 1.25): %s\n",
	       m, m / p, m / p <= 1.25 ? "ok" : "OVER TARGET");
	test_lock_free(none, t->lock);
	free(t->lt);
	free(t);
}

/* Trials interleave the locks, so a slow spell of the machine hits them all. */
static void uncontended_all(double *cycles, size_t n)
{
	void *locks[64];
	struct lock_thread *selves[64];
	double v[64][TRIALS];

	for (size_t i = 0; i < n; i++) {
		locks[i] = test_lock_new(lock_registry[i]);
		selves[i] = test_self_new(lock_registry[i], locks[i], 0);
	}
	for (int k = 0; k < TRIALS; k++)
		for (size_t i = 0; i < n; i++)
			v[i][k] = lock_unlock_cycles(lock_registry[i], locks[i], selves[i]);
	for (size_t i = 0; i < n; i++) {
		cycles[i] = median(v[i], TRIALS);
		free(selves[i]);
		test_lock_free(lock_registry[i], locks[i]);
	}
}

/* The locks the issues hold to "no slower than glibc's pthread mutex". */
static bool is_target(const char *name)
{
	return strcmp(name, "futex") == 0 || strcmp(name, "ticket") == 0 ||
	       strcmp(name, "mcs") == 0 || strncmp(name, "kmutex-", 7) == 0;
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

int main(void)
{
	double base, cycles[64];
	size_t n = lock_registry_len < 64 ? lock_registry_len : 64;
	pthread_t other;

	if (pipe(wake_pipe) != 0 || pthread_create(&other, NULL, sleeper, NULL) != 0) {
		perror("uncontended: cannot start the second thread");
		return 1;
	}

	overhead_figures();
	uncontended_all(cycles, n);
	base = cycles[0];
	for (size_t i = 0; i < n; i++)
		if (strcmp(lock_registry[i]->name, "pthread") == 0)
			base = cycles[i];
	printf("\nuncontended lock+unlock, 1 thread (median of %d x %d, TSC cycles per pair):\n", TRIALS, ITERS);
	for (size_t i = 0; i < n; i++) {
		const struct lock_ops *ops = lock_registry[i];
		bool target = is_target(ops->name);

		printf("  %-18s %8.1f   %.2fx pthread%s\n", ops->name, cycles[i], cycles[i] / base,
		       !target ? "" :
		       cycles[i] <= base ? "  (target <= pthread: ok)" : "  (target <= pthread: SLOWER)");
	}
	if (write(wake_pipe[1], "x", 1) != 1 || pthread_join(other, NULL) != 0)
		return 1;
	return 0;
}
