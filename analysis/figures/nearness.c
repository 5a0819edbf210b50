/*
 * nearness.c — distances as intervals, and which of several candidates
 * stands out as nearest on them together (figures.h): no group, no run, only
 * the intervals the report prints (a ratio's Moses interval, the per-bin
 * share intervals of two histograms), so tests/test_nearest.c takes it alone.
 */
#include <math.h>

#include "figures.h"

/* |ln r| over the ratio interval [lo, hi]: [0, ...] where it holds 1. */
struct nearness near_ratio(double lo, double hi)
{
	double a = fabs(log(lo)), b = fabs(log(hi));

	if (!(lo > 0) || !(hi >= lo))
		return (struct nearness){ 0, 0, false };
	return (struct nearness){ lo <= 1 && hi >= 1 ? 0 : fmin(a, b), fmax(a, b), true };
}

/* The EMD's interval from the per-bin share differences' (hc->lo, hc->hi,
 * percentage points): the EMD is the sum over bins of |the cumulative
 * difference|, and the cumulative difference up to a bin lies between the
 * sums of its bins' ends (wider than its own interval: the bins' widths
 * add), so the sums bound it from below and above. */
struct nearness near_emd(const struct hist_comparison *hc)
{
	double cum_lo = 0, cum_hi = 0, lo = 0, hi = 0;

	for (int b = 0; b < RESULT_BINS; b++) {
		cum_lo += hc->lo[b] / 100;
		cum_hi += hc->hi[b] / 100;
		lo += cum_lo > 0 ? cum_lo : cum_hi < 0 ? -cum_hi : 0;
		hi += fmax(fabs(cum_lo), fabs(cum_hi));
	}
	return (struct nearness){ lo, fmax(hi, hc->test.emd), true };
}

/* Whether a is nearer than b beyond both intervals. */
static bool nearer(const struct nearness *a, const struct nearness *b)
{
	return a->ok && b->ok && a->hi < b->lo;
}

/* On how many figures a is nearer than b beyond both intervals. */
static unsigned int wins(const struct nearness *d, unsigned int a, unsigned int b, unsigned int nfig)
{
	unsigned int k = 0;

	for (unsigned int f = 0; f < nfig; f++)
		k += nearer(&d[a * nfig + f], &d[b * nfig + f]);
	return k;
}

int near_stands_out(const struct nearness *d, unsigned int n, unsigned int nfig)
{
	for (unsigned int a = 0; a < n; a++) {
		bool out = true;

		for (unsigned int b = 0; b < n && out; b++)
			out = b == a || wins(d, a, b, nfig) > wins(d, b, a, nfig);
		if (out)
			return (int)a;
	}
	return -1;
}

