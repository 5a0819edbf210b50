/*
 * hist.h — power-of-two histograms of TSC cycle counts, the shape of Tim
 * Chen's table ("acq time = 2^bin cycles"): bin b counts values v with
 * 2^b <= v < 2^(b+1); bin 0 also takes 0 and 1.  One per thread, written only
 * by its thread, merged after the join.
 */
#ifndef LOCKBENCH_HIST_H
#define LOCKBENCH_HIST_H

#include <stdbool.h>
#include <stdint.h>

#include "../../locks/arch.h"

#define HIST_BINS 64

struct hist {
	uint64_t bins[HIST_BINS];
	uint64_t count;      /* values recorded */
	uint64_t sum;        /* their total, in cycles (wraps only after ~2^64 cycles) */
	uint64_t min, max;
	uint64_t contended;  /* acquisitions that missed their first attempt */
} cacheline_aligned;

static inline unsigned int hist_bin(uint64_t v)
{
	return v < 2 ? 0 : 63u - (unsigned int)__builtin_clzll(v);
}

static inline void hist_record(struct hist *h, uint64_t v, bool contended)
{
	h->bins[hist_bin(v)]++;
	h->count++;
	h->sum += v;
	h->contended += contended;
	if (v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
}

/* Empty: min starts at UINT64_MAX so the first value sets it. */
void hist_reset(struct hist *h);
/* dst += src; min/max combine, empty histograms change nothing. */
void hist_merge(struct hist *dst, const struct hist *src);
/* Lower bound of bin b in cycles (bin 0: 0). */
uint64_t hist_bin_lower(unsigned int bin);
/* The smallest bin b such that at least `q` (0..1) of the values
 * lie in bins <= b: a quantile at bin resolution; 0 for an empty histogram. */
unsigned int hist_quantile_bin(const struct hist *h, double q);

#endif
