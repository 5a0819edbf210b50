/*
 * across.h — the figures of a host's variants against the same variants on
 * another host (model/across.h): before -> after, each variant against
 * itself, on the figure its tables lead with (the throughput; an --exec
 * group's first metric), judged as every table judges (figures.h: judge,
 * Hodges–Lehmann's ratio inside Moses' interval, Mann–Whitney's verdict).
 */
#ifndef LOCKBENCH_ANALYSIS_FIGURES_ACROSS_H
#define LOCKBENCH_ANALYSIS_FIGURES_ACROSS_H

#include "../model/across.h"
#include "figures.h"

/* Pair K of A: the figure's column (into *col), the before's and the after's
 * figures over their repetitions, and the after judged against the before.
 * 0, or -1 where a side lacks the figure (err set). */
int across_figure(const struct across *a, unsigned int k, struct column *col, struct stat3 *before,
		  struct stat3 *after, struct verdict *vd, char *err, size_t errlen);
/* The verdicts A's pairs test (two repetitions a side or more), and how
 * many of them are a difference: what chance_note() says of a table. */
void across_verdicts(const struct across *a, unsigned int *tested, unsigned int *shown);
/* reach_note() for A's pair whose sizes allow the largest smallest p. */
bool across_reach_note(const struct across *a, char *buf, size_t len);

#endif
