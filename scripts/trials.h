/*
 * trials.h — how `make bench`'s C programs (uncontended.c, exec_cost.c)
 * state a figure: the median of TRIALS trials of ITERS iterations each.
 */
#ifndef LOCKBENCH_SCRIPTS_TRIALS_H
#define LOCKBENCH_SCRIPTS_TRIALS_H

#include <stdlib.h>

#define TRIALS 9
#define ITERS 200000

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Sorts v in place. */
static inline double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return v[n / 2];
}

#endif
