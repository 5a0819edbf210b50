/*
 * trials.h — how `make bench`'s C programs (uncontended.c, exec_cost.c)
 * state a figure: the median (uncontended.c) or the least (exec_cost.c) of
 * TRIALS trials of ITERS iterations each.
 */
#ifndef LOCKBENCH_SCRIPTS_TRIALS_H
#define LOCKBENCH_SCRIPTS_TRIALS_H

#include "../analysis/figures/stats.h"
#include "../bench/core/harness.h"

#define TRIALS 9
#define ITERS 200000

/* The project's one median (analysis/figures/stats.c: for an even count the
 * mean of the two middle figures), so that make bench's figures and
 * lbcompare's agree on the same numbers. */
static inline double median(const double *v, int n)
{
	return stats_median(v, (size_t)n);
}

/* The least of v's n figures: where other jobs only ever add (exec_cost.c). */
static inline double least(const double *v, int n)
{
	double m = v[0];

	for (int i = 1; i < n; i++)
		if (v[i] < m)
			m = v[i];
	return m;
}

/* TSC cycles per bench_lock + bench_unlock of thread t's lock, over ITERS. */
static inline double lock_unlock_trial(struct bench_thread *t)
{
	uint64_t t0 = tsc_now();

	for (int i = 0; i < ITERS; i++) {
		bench_lock(t);
		bench_unlock(t);
	}
	return (double)(tsc_now() - t0) / ITERS;
}

#endif
