/*
 * hist_within.h — one histogram within another, bin by bin: the contended
 * acquisitions are some of all of them, each in the bin it has among all.
 * lockbench's self-check (bench/run/checks.c, histogram_total) and
 * lbcompare's reader (analysis/files/resultfile.c, hist_contended.csv
 * against hist.csv) ask this one question of the same two histograms.
 */
#ifndef LOCKBENCH_HIST_WITHIN_H
#define LOCKBENCH_HIST_WITHIN_H

#include <stdint.h>

/* The first bin where `part` holds more than `whole`, or -1: none. */
static inline int hist_first_excess(const uint64_t *part, const uint64_t *whole, int nbins)
{
	for (int b = 0; b < nbins; b++)
		if (part[b] > whole[b])
			return b;
	return -1;
}

#endif
