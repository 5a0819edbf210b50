#include <stdlib.h>
#include <time.h>

#include "../locks/arch.h"
#include "tsc.h"

#define OVERHEAD_SAMPLES 1001

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

uint64_t tsc_timer_overhead(void)
{
	uint64_t samples[OVERHEAD_SAMPLES];

	for (int i = 0; i < OVERHEAD_SAMPLES; i++) {
		uint64_t t0 = tsc_begin();

		samples[i] = tsc_end() - t0;
	}
	qsort(samples, OVERHEAD_SAMPLES, sizeof(samples[0]), cmp_u64);
	return samples[OVERHEAD_SAMPLES / 2];
}

static double monotonic_raw_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

double tsc_calibrate_hz(double seconds)
{
	double s0 = monotonic_raw_s(), s1;
	uint64_t c0 = tsc_now(), c1;

	do {
		s1 = monotonic_raw_s();
		c1 = tsc_now();
	} while (s1 - s0 < seconds);
	return (double)(c1 - c0) / (s1 - s0);
}
