/*
 * exec_cost.c — `make bench`: what lockbench --exec's interposer costs an
 * uncontended lock+unlock (scripts/exec-bench.sh runs it, docs/exec.md
 * quotes it).  Two modes, each printing the least of TRIALS trials of ITERS
 * iterations, in TSC cycles per lock+unlock (on a shared machine another
 * job only ever adds cycles to a trial: the least is the one it spared):
 *
 *   exec_cost direct LOCK   the lock driven by lockbench itself: bench_lock()
 *                           and bench_unlock() on a bench_thread, --timing off
 *   exec_cost program       pthread_mutex_lock/unlock of a static
 *                           PTHREAD_MUTEX_INITIALIZER mutex, as a program
 *                           calls them: run it with and without the library
 *                           preloaded (LOCKBENCH_EXEC_TIMING=off), and under
 *                           the floor library (exec_floor.c)
 *
 * A second thread stays alive (asleep) in both, as in scripts/uncontended.c:
 * glibc drops its lock prefix while a process is single-threaded.
 */
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../bench/core/config.h"
#include "../bench/core/harness.h"
#include "../locks/standalone.h"
#include "trials.h"

static pthread_mutex_t program_lock = PTHREAD_MUTEX_INITIALIZER;

static double program_trial(void)
{
	uint64_t t0 = tsc_now();

	for (int i = 0; i < ITERS; i++) {
		pthread_mutex_lock(&program_lock);
		pthread_mutex_unlock(&program_lock);
	}
	return (double)(tsc_now() - t0) / ITERS;
}

static struct bench_thread *direct_thread(const struct lock_ops *ops)
{
	struct bench_thread *t = aligned_alloc(CACHELINE, sizeof(*t));
	struct bench_config cfg = { .timing = TIMING_OFF };

	if (!t)
		abort();
	memset(t, 0, sizeof(*t));
	t->lock_ops = ops;
	t->lock = lock_new_standalone(ops);
	t->lt = lock_thread_new_standalone(ops, t->lock, 0);
	bench_timing_init(t, &cfg);
	return t;
}

static void *sleeper(void *arg)
{
	(void)arg;
	pause();
	return NULL;
}

int main(int argc, char **argv)
{
	double v[TRIALS];
	struct bench_thread *t = NULL;
	pthread_t other;

	if (argc == 3 && !strcmp(argv[1], "direct")) {
		const struct lock_ops *ops = lock_find(argv[2]);

		if (!ops) {
			fprintf(stderr, "exec_cost: no lock '%s'\n", argv[2]);
			return 2;
		}
		t = direct_thread(ops);
	} else if (argc != 2 || strcmp(argv[1], "program")) {
		fprintf(stderr, "usage: exec_cost direct LOCK | exec_cost program\n");
		return 2;
	}
	if (pthread_create(&other, NULL, sleeper, NULL))
		return 1;
	for (int i = 0; i < TRIALS; i++)
		v[i] = t ? lock_unlock_trial(t) : program_trial();
	printf("%.1f\n", least(v, TRIALS));
	fflush(stdout);
	_exit(0);  /* the sleeper never returns; the library still writes nothing wanted */
}
