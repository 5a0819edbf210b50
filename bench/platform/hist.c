#include <string.h>

#include "hist.h"

void hist_reset(struct hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min = UINT64_MAX;
}

void hist_merge(struct hist *dst, const struct hist *src)
{
	for (unsigned int b = 0; b < HIST_BINS; b++)
		dst->bins[b] += src->bins[b];
	dst->count += src->count;
	dst->sum += src->sum;
	dst->contended += src->contended;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
}

uint64_t hist_bin_lower(unsigned int bin)
{
	return bin == 0 ? 0 : UINT64_C(1) << bin;
}

unsigned int hist_quantile_bin(const struct hist *h, double q)
{
	uint64_t seen = 0;

	for (unsigned int b = 0; b < HIST_BINS; b++) {
		seen += h->bins[b];
		if (h->count && (double)seen >= q * (double)h->count)
			return b;
	}
	return 0;
}
