/*
 * share-coverage.c — how often lbcompare's per-bin share intervals (the
 * "Share of acquisitions in each bin" tables: stats_share_diff at 95%, with
 * lbcompare's resamples) hold the true difference, measured by an A/A
 * simulation: both sides' runs drawn from one distribution, so the true
 * difference of every bin's share is 0 and an interval covers when it holds 0.
 * Run by `make bench`; prints, asserts nothing.
 *
 * A run's histogram: `count` acquisitions over log2 bins around bin 20, each
 * acquisition spread with sd 1.5 bins, the whole run shifted by its own
 * offset (sd `run_sd` bins): runs differ more than acquisitions do, which is
 * what makes the run, not the acquisition, the unit.  Coverage is counted
 * over the bins that hold at least 1% of the pooled acquisitions of a trial.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../analysis/figures/stats.h"

#define BINS 64
#define CENTRE 20
#define SPREAD 1.5
#define RESAMPLES 1000   /* analysis/figures/figures.h: HIST_RESAMPLES */
#define TRIALS 400       /* a line's trials; argv[1] sets another count */
#define MIN_SHARE 1.0    /* percent of a trial's pooled acquisitions */

struct scenario {
	size_t nx, ny;
	double run_sd;
	unsigned int count;
};

static void run_histogram(struct stats_rng *rng, const struct scenario *sc, uint64_t *h)
{
	double offset = sc->run_sd * stats_rng_normal(rng);

	memset(h, 0, BINS * sizeof(*h));
	for (unsigned int i = 0; i < sc->count; i++) {
		long b = lround(CENTRE + offset + SPREAD * stats_rng_normal(rng));

		h[b < 0 ? 0 : b >= BINS ? BINS - 1 : b]++;
	}
}

/* Bins counted in one trial, and how many of their intervals held 0. */
static void trial(const struct scenario *sc, uint64_t seed, unsigned long *bins, unsigned long *covered)
{
	static uint64_t runs[2 * STATS_MAX_REPS][BINS];
	const uint64_t *x[STATS_MAX_REPS], *y[STATS_MAX_REPS];
	double diff[BINS], lo[BINS], hi[BINS], pooled[BINS] = { 0 }, total = 0;
	struct stats_rng rng;

	stats_rng_seed(&rng, seed);
	for (size_t i = 0; i < sc->nx + sc->ny; i++) {
		run_histogram(&rng, sc, runs[i]);
		for (int b = 0; b < BINS; b++)
			pooled[b] += (double)runs[i][b];
		total += sc->count;
	}
	for (size_t i = 0; i < sc->nx; i++)
		x[i] = runs[i];
	for (size_t i = 0; i < sc->ny; i++)
		y[i] = runs[sc->nx + i];
	if (stats_share_diff(x, sc->nx, y, sc->ny, BINS, STATS_LEVEL, RESAMPLES, seed, diff, lo, hi) != 0) {
		fprintf(stderr, "share-coverage: stats_share_diff failed\n");
		return;
	}
	for (int b = 0; b < BINS; b++)
		if (100 * pooled[b] / total >= MIN_SHARE) {
			(*bins)++;
			*covered += lo[b] <= 0 && hi[b] >= 0;
		}
}

int main(int argc, char **argv)
{
	char *end;
	unsigned long trials = argc > 1 ? strtoul(argv[1], &end, 10) : TRIALS;

	static const struct scenario scenarios[] = {
		{ 3, 3, 0.5, 2000 },  { 4, 4, 0.5, 2000 },  { 5, 5, 0.5, 2000 },  { 6, 6, 0.5, 2000 },
		{ 10, 10, 0.5, 2000 }, { 4, 8, 0.5, 2000 }, { 5, 5, 0.2, 2000 },  { 5, 5, 1.0, 2000 },
		{ 6, 6, 1.0, 2000 },  { 5, 5, 0.5, 200 },  { 2, 8, 0.5, 2000 }, { 3, 10, 0.5, 2000 },
	};

	if (argc > 2 || (argc > 1 && (*end || trials < 1 || trials > 1000000))) {
		fprintf(stderr, "usage: share-coverage [TRIALS]  (1 to 1000000, default %d)\n", TRIALS);
		return 2;
	}
	printf("share-coverage: A/A, %lu trials a line, %d resamples; the share of the 95%% intervals of\n"
	       "bins holding >= %.0f%% of the acquisitions that hold the true difference (0)\n",
	       trials, RESAMPLES, MIN_SHARE);
	printf("%8s %7s %6s %6s %9s\n", "runs", "run_sd", "count", "bins", "coverage");
	for (size_t s = 0; s < sizeof(scenarios) / sizeof(scenarios[0]); s++) {
		const struct scenario *sc = &scenarios[s];
		unsigned long bins = 0, covered = 0;
		char runs[16];

		for (uint64_t t = 0; t < trials; t++)
			trial(sc, 1000000 * s + t, &bins, &covered);
		snprintf(runs, sizeof(runs), "%zu:%zu", sc->nx, sc->ny);
		printf("%8s %7.1f %6u %6lu %8.1f%%\n", runs, sc->run_sd, sc->count, bins,
		       bins ? 100.0 * (double)covered / (double)bins : 0);
	}
	return 0;
}
