/*
 * across.h — one host's groups against another's, variant by variant: a
 * before and an after (two run-all directories of one machine, each a host
 * of its own: rundir_host_labels), or two machines.  Each variant is paired
 * with itself — the same lock, --timing and --sched at the same workload
 * (or program) and thread count — never with another variant.  Built from
 * a comparison (comparison.h); the figures and verdicts: figures/across.h.
 */
#ifndef LOCKBENCH_ANALYSIS_ACROSS_H
#define LOCKBENCH_ANALYSIS_ACROSS_H

#include "comparison.h"

/* A group of host FROM and the same experiment on host TO. */
struct across {
	const struct group *from, *to;
	unsigned int pair[MAX_VARIANTS][2];   /* a variant's index in from, and in to */
	unsigned int npairs;
	unsigned int only_from, only_to;      /* variants one side ran and the other did not */
};

/* Every group of host FROM whose experiment host TO also ran, in FROM's
 * order, into a (at most MAX): returns how many.  A group of one side only
 * is counted in *unmatched (NULL: not wanted). */
size_t across_groups(const struct comparison *c, unsigned int from, unsigned int to, struct across *a, size_t max,
		     unsigned int *unmatched);

#endif
