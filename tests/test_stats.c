/*
 * test_stats.c — analysis/stats.c against hand-computed and textbook
 * figures, then over synthetic repetitions: an A/A comparison (both sides
 * from one distribution, many seeds) must read "no difference" in at least
 * 95% of seeds, and an A/B one with a 20% shift must be told apart (80% of
 * seeds, never the wrong way round) at run-all's default repetition counts
 * on a quiet machine, and at this VM's measured noise with the repetitions
 * that noise needs.  No timing: fast and deterministic.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../analysis/figures/stats.h"

/* run-all's default repetitions (run-all: REPS), full and quick mode. */
#define REPS_FULL 6
#define REPS_QUICK 5
/*
 * Noise: the spread of one figure over repetitions, as the standard
 * deviation of its logarithm (about the relative spread), measured on this
 * project's 2-core VM with run-all's interleaved rounds (README, "Reading
 * the verdicts"): Ops/sec of full-mode counter runs (2 s, 6 repetitions, 12
 * variants) spread by 0.064-0.070 in the quietest variants (1 thread), and
 * by a median 0.19 over all 12 while other sessions' builds and tests took
 * a median 48% of the CPU time.  NOISE_SIGMA (0.10) is the noise the
 * aa test uses (its false-positive rate does not depend on it: the test is
 * on ranks).
 */
#define NOISE_SIGMA 0.10
#define QUIET_SIGMA 0.07
#define LOADED_SIGMA 0.19
#define LOADED_REPS 24           /* enough for 80% at +20% (20 give 82%; 24 keep the test fast: past
                                    STATS_EXACT_MAX values p is the normal approximation's) */
#define SEEDS 2000

static void assert_close(double got, double want, double tolerance)
{
	if (fabs(got - want) > tolerance)
		fail_msg("%.10g is not %.10g (+-%g)", got, want, tolerance);
}

/* ---- hand-computed and textbook cases ---- */

static void generator_is_seeded(void **state)
{
	struct stats_rng a, b, c;
	bool differs = false;

	(void)state;
	stats_rng_seed(&a, 42);
	stats_rng_seed(&b, 42);
	stats_rng_seed(&c, 43);
	for (int i = 0; i < 100; i++) {
		uint64_t va = stats_rng_next(&a);

		assert_true(va == stats_rng_next(&b));
		differs |= va != stats_rng_next(&c);
	}
	assert_true(differs);
	for (int i = 0; i < 10000; i++) {
		double u = stats_rng_uniform(&a);

		assert_true(u >= 0 && u < 1);
		assert_true(stats_rng_below(&a, 7) < 7);
	}
}

static void medians(void **state)
{
	double odd[] = { 5, 1, 3 }, even[] = { 4, 1, 3, 2 };

	(void)state;
	assert_close(stats_median(odd, 3), 3, 0);
	assert_close(stats_median(even, 4), 2.5, 0);
	assert_close(odd[0], 5, 0);  /* the input is not sorted in place */
}

/*
 * By hand: the median lies below x(k) only when fewer than k of the n values
 * are below it, P(Bin(n, 1/2) <= k - 1).  n = 10: P(<= 1) = 11/1024, P(<= 2)
 * = 56/1024 = 0.055 > 0.025, so k = 2: [x(2), x(9)], coverage 1 - 22/1024 =
 * 0.978515625.  n = 5: even [x(1), x(5)] covers only 1 - 2/32 = 0.9375.
 */
static void median_ci_by_hand(void **state)
{
	double ten[] = { 12, 7, 3, 18, 9, 1, 15, 11, 5, 20 };  /* sorted: 1 3 5 7 9 11 12 15 18 20 */
	double five[] = { 4, 2, 8, 6, 10 }, six[] = { 4, 2, 8, 6, 10, 12 };
	double nine[] = { 9, 8, 7, 6, 5, 4, 3, 2, 1 };
	struct stats_interval ci;

	(void)state;
	assert_close(stats_binom_half_cdf(10, 1), 11.0 / 1024, 1e-15);
	stats_median_ci(ten, 10, 0.95, &ci);
	assert_close(ci.lo, 3, 0);
	assert_close(ci.hi, 18, 0);
	assert_close(ci.coverage, 0.978515625, 1e-12);
	assert_true(ci.reached);
	stats_median_ci(five, 5, 0.95, &ci);
	assert_close(ci.lo, 2, 0);
	assert_close(ci.hi, 10, 0);
	assert_close(ci.coverage, 0.9375, 1e-12);
	assert_false(ci.reached);
	stats_median_ci(six, 6, 0.95, &ci);
	assert_close(ci.coverage, 1 - 2.0 / 64, 1e-12);
	assert_true(ci.reached);
	stats_median_ci(nine, 9, 0.95, &ci);  /* P(<= 1) = 10/512: k = 2 */
	assert_close(ci.lo, 2, 0);
	assert_close(ci.hi, 8, 0);
	assert_close(ci.coverage, 1 - 20.0 / 512, 1e-12);
	assert_true(stats_spread_large(10, &(struct stats_interval){ 8.9, 10.5, 1, true }, 0.10));
	assert_false(stats_spread_large(10, &(struct stats_interval){ 9.1, 10.9, 1, true }, 0.10));
}

/*
 * Hollander & Wolfe (1973), p. 69: permeability constants of the human
 * chorioamnion at term (x) and at 12–26 weeks (y), the example of R's
 * wilcox.test: W = 35, one-sided p = 0.1272, so two-sided 0.2544 (764 of the
 * 3003 ways to deal the ranks are as extreme, by enumeration).
 */
static const double hw_x[] = { 0.80, 0.83, 1.89, 1.04, 1.45, 1.38, 1.91, 1.64, 0.73, 1.46 };
static const double hw_y[] = { 1.15, 0.88, 0.90, 0.74, 1.21 };

static void mann_whitney_textbook(void **state)
{
	struct stats_mwu t;

	(void)state;
	assert_int_equal(stats_mann_whitney(hw_x, 10, hw_y, 5, &t), 0);
	assert_close(t.u, 35, 0);
	assert_close(t.p, 764.0 / 3003, 1e-12);
	assert_true(t.exact);
	assert_int_equal(stats_direction(&t, 10, 5, 0.95), 0);
}

static void mann_whitney_small_and_tied(void **state)
{
	double lo[] = { 1, 2, 3 }, hi[] = { 4, 5, 6 }, a[] = { 1, 2, 2, 3 }, b[] = { 2, 3, 4, 4 };
	double lo4[] = { 1, 2, 3, 4 }, hi4[] = { 5, 6, 7, 8 }, bad[] = { 1, NAN };
	struct stats_mwu t;

	(void)state;
	/* Complete separation of 3 and 3: 2 of the 20 deals, p = 0.1 — no
	 * difference can be shown with three repetitions a side. */
	assert_int_equal(stats_mann_whitney(lo, 3, hi, 3, &t), 0);
	assert_close(t.u, 0, 0);
	assert_close(t.p, 0.1, 1e-12);
	assert_close(t.p_min, 0.1, 1e-12);
	assert_int_equal(stats_direction(&t, 3, 3, 0.95), 0);
	/* 4 and 4: 2 of 70, and a direction. */
	assert_int_equal(stats_mann_whitney(hi4, 4, lo4, 4, &t), 0);
	assert_close(t.u, 16, 0);
	assert_close(t.p, 2.0 / 70, 1e-12);
	assert_int_equal(stats_direction(&t, 4, 4, 0.95), 1);
	/* Ties as midranks: U = 2.5, 14 of the 70 deals as extreme (enumerated). */
	assert_int_equal(stats_mann_whitney(a, 4, b, 4, &t), 0);
	assert_close(t.u, 2.5, 0);
	assert_close(t.p, 0.2, 1e-12);
	/* All equal: nothing to tell apart. */
	assert_int_equal(stats_mann_whitney(a + 1, 1, a + 2, 1, &t), 0);
	assert_close(t.p, 1, 0);
	assert_int_equal(stats_mann_whitney(bad, 2, lo, 3, &t), -1);
	assert_int_equal(stats_mann_whitney(lo, 0, hi, 3, &t), -1);
}

/*
 * The smallest p depends on both sizes: 3 against 5 reach 2/56 = 0.036 and 2
 * against 8 2/45 = 0.044, where 3 a side stop at 0.1.  It is the p of
 * complete separation, whichever side is above.
 */
static void mann_whitney_smallest_p_of_sizes(void **state)
{
	double lo[12], hi[12];
	struct stats_mwu t;

	(void)state;
	assert_close(stats_mwu_p_min(3, 5), 2.0 / 56, 1e-15);
	assert_close(stats_mwu_p_min(8, 2), 2.0 / 45, 1e-15);
	assert_close(stats_mwu_p_min(1, 1), 1, 0);
	assert_int_equal(stats_mwu_reps_needed(2, 0.95), 8);
	assert_int_equal(stats_mwu_reps_needed(3, 0.95), 5);
	assert_int_equal(stats_mwu_reps_needed(4, 0.95), 4);
	assert_int_equal(stats_mwu_reps_needed(1, 0.95), 39);  /* 2/40 = 0.05 */
	assert_int_equal(stats_mwu_reps_needed(1, 0.99), 0);    /* 2/200: past STATS_MAX_REPS */
	for (int i = 0; i < 12; i++) {
		lo[i] = i;
		hi[i] = 100 + i;
	}
	for (size_t nx = 1; nx <= 12; nx++)
		for (size_t ny = 1; ny <= 12; ny++) {
			assert_int_equal(stats_mann_whitney(lo, nx, hi, ny, &t), 0);
			assert_close(t.p, stats_mwu_p_min(nx, ny), 1e-12);
			assert_close(t.p_min, t.p, 0);
			assert_int_equal(stats_mann_whitney(hi, nx, lo, ny, &t), 0);
			assert_close(t.p, stats_mwu_p_min(nx, ny), 1e-12);
		}
}

static void mann_whitney_normal_approximation(void **state)
{
	double x[30], y[30];
	struct stats_mwu t;

	(void)state;
	for (int i = 0; i < 30; i++) {
		x[i] = i;          /* x: 0..29, y: 15.5..44.5, no ties */
		y[i] = i + 15.5;
	}
	/* x_i > y_j when i >= j + 16: 1 + 2 + ... + 14 = 105 pairs. */
	assert_int_equal(stats_mann_whitney(x, 30, y, 30, &t), 0);
	assert_false(t.exact);
	assert_close(t.u, 105, 0);
	/* sd = sqrt(900 * 61 / 12) = 67.64; z = (450 - 105 - 0.5) / 67.64 = 5.093 */
	assert_close(t.p, erfc(344.5 / sqrt(900.0 * 61 / 12) / M_SQRT2), 1e-12);
	assert_int_equal(stats_direction(&t, 30, 30, 0.95), -1);
}

/* Moses' interval on the same data: k = 9 by enumeration, so the 9th
 * smallest and 9th largest of the 50 ratios; the Hodges–Lehmann ratio is
 * the median of the 50. */
static void ratio_interval_textbook(void **state)
{
	struct stats_ratio r;
	double zero[] = { 0, 1 };

	(void)state;
	assert_int_equal(stats_ratio_ci(hw_x, 10, hw_y, 5, 0.95, &r), 0);
	assert_true(r.reached);
	assert_close(r.lo, 1.04 / 1.21, 1e-12);
	assert_close(r.hi, 1.45 / 0.74, 1e-12);
	/* 25th and 26th, their geometric mean (the median of the log ratios) */
	assert_close(r.estimate, sqrt(1.46 / 1.15 * 1.64 / 1.21), 1e-12);
	assert_int_equal(stats_ratio_ci(zero, 2, hw_y, 5, 0.95, &r), -1);
	assert_int_equal(stats_ratio_ci(hw_x, 3, hw_y, 3, 0.95, &r), 0);
	assert_false(r.reached);  /* 3 and 3 cannot reach 95% */
}

/*
 * Swapping the sides inverts the ratio, estimate and interval alike: the
 * estimate is the median of the log ratios, as the interval is.  By hand:
 * {1, 2} against {1, 3} has the ratios 1/3, 2/3, 1, 2 and y against x 1/2,
 * 1, 3/2, 3; the middle pairs' arithmetic means (5/6 and 5/4) multiply to
 * 25/24, their geometric means to 1.
 */
static void ratio_estimate_is_reciprocal(void **state)
{
	double a[] = { 1, 2 }, b[] = { 1, 3 }, x[STATS_MAX_REPS], y[STATS_MAX_REPS];
	size_t sizes[][2] = { { 5, 5 }, { 6, 6 }, { 5, 6 }, { 4, 9 } };
	struct stats_ratio ab, ba;
	struct stats_rng rng;

	(void)state;
	assert_int_equal(stats_ratio_ci(a, 2, b, 2, 0.95, &ab), 0);
	assert_int_equal(stats_ratio_ci(b, 2, a, 2, 0.95, &ba), 0);
	assert_close(ab.estimate, sqrt(2.0 / 3), 1e-15);
	assert_close(ab.estimate * ba.estimate, 1, 1e-12);
	stats_rng_seed(&rng, 28);
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		for (size_t k = 0; k < sizes[i][0] || k < sizes[i][1]; k++) {
			x[k] = 1000 * exp(NOISE_SIGMA * stats_rng_normal(&rng));
			y[k] = 1000 * exp(NOISE_SIGMA * stats_rng_normal(&rng));
		}
		assert_int_equal(stats_ratio_ci(x, sizes[i][0], y, sizes[i][1], 0.95, &ab), 0);
		assert_int_equal(stats_ratio_ci(y, sizes[i][1], x, sizes[i][0], 0.95, &ba), 0);
		assert_close(ab.estimate * ba.estimate, 1, 1e-12);
		assert_close(ab.lo * ba.hi, 1, 1e-12);
		assert_close(ab.hi * ba.lo, 1, 1e-12);
	}
}

/* ---- synthetic repetitions ---- */

/* n throughputs around `median`, lognormal with the given sigma. */
static void reps(struct stats_rng *rng, double median, double sigma, double *out, size_t n)
{
	for (size_t i = 0; i < n; i++)
		out[i] = median * exp(sigma * stats_rng_normal(rng));
}

/* How often, over SEEDS seeds, n vs n repetitions at `ratio` read as a
 * difference the right way round (ratio 1: either way); also checks that
 * Moses' interval excludes 1.0 exactly then, and that no seed reads the
 * wrong way round (ratio != 1). */
static double detection_rate(double ratio, double sigma, size_t n, uint64_t seed0)
{
	unsigned int found = 0, wrong = 0;

	for (uint64_t seed = seed0; seed < seed0 + SEEDS; seed++) {
		struct stats_rng rng;
		struct stats_mwu t;
		struct stats_ratio r;
		double x[STATS_MAX_REPS], y[STATS_MAX_REPS];
		int dir;

		stats_rng_seed(&rng, seed);
		reps(&rng, 1000 * ratio, sigma, x, n);
		reps(&rng, 1000, sigma, y, n);
		assert_int_equal(stats_mann_whitney(x, n, y, n, &t), 0);
		assert_int_equal(stats_ratio_ci(x, n, y, n, STATS_LEVEL, &r), 0);
		dir = stats_direction(&t, n, n, STATS_LEVEL);
		if (r.reached && (dir != 0) != (r.lo > 1 || r.hi < 1))
			fail_msg("seed %llu: verdict %d but ratio interval [%g, %g]", (unsigned long long)seed, dir,
				 r.lo, r.hi);
		found += ratio == 1 ? dir != 0 : dir == (ratio > 1 ? 1 : -1);
		wrong += ratio != 1 && dir == (ratio > 1 ? -1 : 1);
	}
	if (wrong)
		fail_msg("%u of %d seeds read %g the wrong way round", wrong, SEEDS, ratio);
	return (double)found / SEEDS;
}

static void aa_false_positives_at_most_5pct(void **state)
{
	size_t counts[] = { REPS_QUICK, REPS_FULL, 10 };

	(void)state;
	for (size_t i = 0; i < sizeof(counts) / sizeof(counts[0]); i++) {
		double rate = detection_rate(1.0, NOISE_SIGMA, counts[i], 1000 * i);

		print_message("# A/A, %zu vs %zu repetitions, %d seeds: %.2f%% read as a difference\n", counts[i],
			      counts[i], SEEDS, 100 * rate);
		assert_true(rate <= 0.05);
	}
}

/* +20% at `sigma`: how often n1, then n2, repetitions a side tell it apart
 * (seeds from seed0, then from seed0 + 100000), printed on one line. */
static void ab_20pct_rates(double sigma, size_t n1, size_t n2, uint64_t seed0, double rate[2])
{
	rate[0] = detection_rate(1.2, sigma, n1, seed0);
	rate[1] = detection_rate(1.2, sigma, n2, seed0 + 100000);
	print_message("# A/B, +20%% at sigma %.2f: detected in %.1f%% of seeds at %zu repetitions, %.1f%% at %zu\n",
		      sigma, 100 * rate[0], n1, 100 * rate[1], n2);
}

static void ab_20pct_detected_at_default_reps(void **state)
{
	double rate[2];  /* at REPS_FULL, at REPS_QUICK */

	(void)state;
	ab_20pct_rates(QUIET_SIGMA, REPS_FULL, REPS_QUICK, 100000, rate);
	assert_true(rate[0] >= 0.80);
	assert_true(rate[1] >= 0.80);
	/* -20% as well (detection_rate fails on any verdict the wrong way round) */
	assert_true(detection_rate(1 / 1.2, QUIET_SIGMA, REPS_FULL, 300000) >= 0.80);
}

/* At the loaded VM's noise the default repetitions mostly read "no
 * difference" (never the opposite); LOADED_REPS tell +20% apart. */
static void ab_20pct_at_loaded_noise(void **state)
{
	double rate[2];  /* at REPS_FULL, at LOADED_REPS */

	(void)state;
	ab_20pct_rates(LOADED_SIGMA, REPS_FULL, LOADED_REPS, 400000, rate);
	assert_true(rate[1] >= 0.80);
}

/* ---- histograms ---- */

/* A run's histogram: `count` acquisitions around bin `centre`, the run's
 * own offset drawn with sd `run_sd` bins (runs differ more than
 * acquisitions do), each acquisition spread over bins with sd 1.5. */
static void run_hist(struct stats_rng *rng, double centre, double run_sd, unsigned int count, uint64_t *h)
{
	double offset = run_sd * stats_rng_normal(rng);

	memset(h, 0, 64 * sizeof(*h));
	for (unsigned int i = 0; i < count; i++) {
		long b = lround(centre + offset + 1.5 * stats_rng_normal(rng));

		h[b < 0 ? 0 : b > 63 ? 63 : b]++;
	}
}

static void emd_by_hand(void **state)
{
	uint64_t a[4] = { 1, 0, 0, 0 }, b[4] = { 0, 0, 1, 0 }, c[4] = { 1, 1, 0, 0 }, none[4] = { 0 };

	(void)state;
	assert_close(stats_emd_bins(a, b, 4), 2, 1e-12);   /* all the mass moved two bins */
	assert_close(stats_emd_bins(a, a, 4), 0, 0);
	assert_close(stats_emd_bins(a, c, 4), 0.5, 1e-12); /* half of it moved one bin */
	assert_close(stats_emd_bins(a, none, 4), 0, 0);
}

static void hist_permutation_exhaustive_and_sampled(void **state)
{
	uint64_t runs[12][64];
	const uint64_t *x[6], *y[6];
	struct stats_rng rng;
	struct stats_hist_test t, t2;

	(void)state;
	stats_rng_seed(&rng, 7);
	for (int i = 0; i < 12; i++)
		run_hist(&rng, i < 6 ? 20 : 24, 0.3, 500, runs[i]);
	for (int i = 0; i < 6; i++) {
		x[i] = runs[i];
		y[i] = runs[6 + i];
	}
	/* 3 and 3: 20 ways; separated as far as they go, p = 2/20. */
	assert_int_equal(stats_hist_permutation(x, 3, y, 3, 64, 1000, 1, &t), 0);
	assert_true(t.exhaustive);
	assert_int_equal(t.relabellings, 20);
	assert_close(t.p, 0.1, 1e-12);
	assert_close(t.p_min, 0.1, 1e-12);
	assert_true(t.emd > 3 && t.emd < 5);  /* moved by 4 bins */
	/* 6 and 6 sampled: the same seed, the same p. */
	assert_int_equal(stats_hist_permutation(x, 6, y, 6, 64, 300, 5, &t), 0);
	assert_int_equal(stats_hist_permutation(x, 6, y, 6, 64, 300, 5, &t2), 0);
	assert_false(t.exhaustive);
	assert_close(t.p, t2.p, 0);
	assert_close(t.p * 301, round(t.p * 301), 1e-9);  /* (1 + as far) / (1 + 300) */
	assert_true(t.p < 0.05);
	assert_int_equal(stats_hist_permutation(x, 6, y, 0, 64, 300, 5, &t), -1);
}

static void share_diff_bootstrap_is_seeded(void **state)
{
	uint64_t runs[10][64];
	const uint64_t *x[5], *y[5];
	double d[64], lo[64], hi[64], d2[64], lo2[64], hi2[64], lo3[64], hi3[64];
	struct stats_rng rng;
	bool differs = false;

	(void)state;
	stats_rng_seed(&rng, 11);
	for (int i = 0; i < 10; i++)
		run_hist(&rng, i < 5 ? 20 : 26, 0.5, 400, runs[i]);
	for (int i = 0; i < 5; i++) {
		x[i] = runs[i];
		y[i] = runs[5 + i];
	}
	assert_int_equal(stats_share_diff(x, 5, y, 5, 64, 0.95, 500, 3, d, lo, hi), 0);
	assert_int_equal(stats_share_diff(x, 5, y, 5, 64, 0.95, 500, 3, d2, lo2, hi2), 0);
	assert_int_equal(stats_share_diff(x, 5, y, 5, 64, 0.95, 500, 4, d2, lo3, hi3), 0);
	assert_memory_equal(lo, lo2, sizeof(lo));
	assert_memory_equal(hi, hi2, sizeof(hi));
	for (int b = 0; b < 64; b++) {
		double sx = 0, sy = 0, tx = 0, ty = 0;

		for (int i = 0; i < 5; i++) {
			sx += (double)x[i][b];
			sy += (double)y[i][b];
			for (int k = 0; k < 64; k++) {
				tx += (double)x[i][k];
				ty += (double)y[i][k];
			}
		}
		assert_close(d[b], 100 * (sy / ty - sx / tx), 1e-9);
		assert_true(lo[b] <= hi[b]);
		differs |= lo[b] != lo3[b] || hi[b] != hi3[b];
	}
	assert_true(differs);   /* another seed, other resamples */
	assert_true(hi[20] < 0 && lo[26] > 0);  /* the mass left bin 20 for bin 26 */
}

/*
 * A/A over histograms: the per-bin share intervals at 95% hold the true
 * difference (0) in about 95% of the bins that matter (>= 1% of the
 * acquisitions), at NX runs against NY, SEEDS A/A trials; the share that
 * held.  A percentile bootstrap of 5 runs covered 87% here, and Welch–
 * Satterthwaite's degrees of freedom 91% at 2 against 8 and 90% at 3
 * against 10 (scripts/share-coverage.c measures more cases).
 */
static double share_coverage(size_t nx, size_t ny, unsigned int seeds)
{
	unsigned long bins = 0, covered = 0;

	for (unsigned int seed = 0; seed < seeds; seed++) {
		uint64_t runs[2 * STATS_MAX_REPS][64];
		const uint64_t *x[STATS_MAX_REPS], *y[STATS_MAX_REPS];
		double d[64], lo[64], hi[64], pooled[64] = { 0 }, total = 0;
		struct stats_rng rng;

		stats_rng_seed(&rng, 9000 + seed);
		for (size_t i = 0; i < nx + ny; i++) {
			run_hist(&rng, 20, 0.5, 1000, runs[i]);
			for (int b = 0; b < 64; b++) {
				pooled[b] += (double)runs[i][b];
				total += (double)runs[i][b];
			}
		}
		for (size_t i = 0; i < nx + ny; i++)
			(i < nx ? x : y)[i < nx ? i : i - nx] = runs[i];
		assert_int_equal(stats_share_diff(x, nx, y, ny, 64, STATS_LEVEL, 1000, seed, d, lo, hi), 0);
		for (int b = 0; b < 64; b++)
			if (pooled[b] >= total / 100) {
				bins++;
				covered += lo[b] <= 0 && hi[b] >= 0;
			}
	}
	print_message("# share intervals, A/A, %zu vs %zu runs, %u seeds: %.1f%% of %lu bins' 95%% intervals hold 0\n",
		      nx, ny, seeds, 100.0 * (double)covered / (double)bins, bins);
	return (double)covered / (double)bins;
}

static void share_intervals_cover_95pct(void **state)
{
	(void)state;
	assert_true(share_coverage(REPS_QUICK, REPS_QUICK, 200) >= 0.93);
}

/* Unequal sizes, issue 42's: the few runs' side decides the degrees of freedom. */
static void share_intervals_cover_95pct_at_unequal_sizes(void **state)
{
	(void)state;
	assert_true(share_coverage(2, 8, 200) >= 0.93);
	assert_true(share_coverage(3, 10, 200) >= 0.93);
}

/* A/A over histograms: runs from one distribution, dealt at random. */
static void hist_aa_false_positives_at_most_5pct(void **state)
{
	unsigned int found = 0, seeds = 400;

	(void)state;
	for (unsigned int seed = 0; seed < seeds; seed++) {
		uint64_t runs[2 * REPS_QUICK][64];
		const uint64_t *x[REPS_QUICK], *y[REPS_QUICK];
		struct stats_rng rng;
		struct stats_hist_test t;

		stats_rng_seed(&rng, 5000 + seed);
		for (int i = 0; i < 2 * REPS_QUICK; i++)
			run_hist(&rng, 20, 1.0, 200, runs[i]);
		for (int i = 0; i < REPS_QUICK; i++) {
			x[i] = runs[i];
			y[i] = runs[REPS_QUICK + i];
		}
		assert_int_equal(stats_hist_permutation(x, REPS_QUICK, y, REPS_QUICK, 64, 5000, seed, &t), 0);
		found += t.p <= 1 - STATS_LEVEL;
	}
	print_message("# histogram A/A, %d vs %d runs, %u seeds: %.2f%% read as a difference\n", REPS_QUICK,
		      REPS_QUICK, seeds, 100.0 * found / seeds);
	assert_true(found <= seeds / 20);
}

/* ---- against brute force: each figure recomputed another way ---- */
/*
 * stats.c computes the Mann–Whitney distribution by subset sums, Moses' k
 * from it, the median's coverage by a running binomial term, and the
 * permutation test by stepping through combinations; here each is counted
 * over every subset (bit masks), every coverage from exact integers, and
 * they must agree to 1e-9 on random data, ties included.
 */

/* A value's midrank among all n: those below it, plus the middle of its ties. */
static double midrank(const double *all, int n, double v)
{
	int below = 0, equal = 0;

	for (int i = 0; i < n; i++) {
		below += all[i] < v;
		equal += all[i] == v;
	}
	return below + (equal + 1) / 2.0;
}

/* The exact two-sided p over every nx-subset of the n midranks. */
static double brute_mwu_p(const double *x, int nx, const double *y, int ny)
{
	double all[32], rank[32], w = 0, mean = nx * (nx + ny + 1) / 2.0;
	int n = nx + ny;
	unsigned long far = 0, ways = 0;

	for (int i = 0; i < n; i++)
		all[i] = i < nx ? x[i] : y[i - nx];
	for (int i = 0; i < n; i++)
		rank[i] = midrank(all, n, all[i]);
	for (int i = 0; i < nx; i++)
		w += rank[i];
	for (unsigned long mask = 0; mask < 1UL << n; mask++) {
		double s = 0;

		if (__builtin_popcountl(mask) != nx)
			continue;
		for (int i = 0; i < n; i++)
			s += mask >> i & 1 ? rank[i] : 0;
		ways++;
		far += fabs(s - mean) >= fabs(w - mean) - 1e-9;
	}
	return (double)far / (double)ways;
}

/* Moses' k by counting U over every subset of the ranks 1..n: the largest k
 * with P(U <= k - 1) <= tail. */
static long brute_moses_k(int nx, int ny, double tail)
{
	int n = nx + ny;
	unsigned long count[32 * 32 + 1] = { 0 }, ways = 0, below = 0;
	long k = 0;

	for (unsigned long mask = 0; mask < 1UL << n; mask++) {
		int w = 0;

		if (__builtin_popcountl(mask) != nx)
			continue;
		for (int i = 0; i < n; i++)
			w += mask >> i & 1 ? i + 1 : 0;
		count[w - nx * (nx + 1) / 2]++;
		ways++;
	}
	for (int u = 0; u <= nx * ny; u++) {
		below += count[u];
		if ((double)below / (double)ways > tail)
			break;
		k = u + 1;
	}
	return k;
}

static void mann_whitney_and_moses_against_brute_force(void **state)
{
	struct stats_rng rng;

	(void)state;
	stats_rng_seed(&rng, 15);
	for (int trial = 0; trial < 300; trial++) {
		int nx = 2 + (int)stats_rng_below(&rng, 7), ny = 2 + (int)stats_rng_below(&rng, 7);
		double x[8], y[8], r[64], logr[64], lr;
		struct stats_mwu t;
		struct stats_ratio ratio;
		long k = brute_moses_k(nx, ny, 0.025);
		int m = nx * ny;

		/* whole numbers 1..12: ties are common */
		for (int i = 0; i < nx; i++)
			x[i] = 1 + stats_rng_below(&rng, 12) + (trial % 2 ? 3 : 0);
		for (int i = 0; i < ny; i++)
			y[i] = 1 + stats_rng_below(&rng, 12);
		assert_int_equal(stats_mann_whitney(x, (size_t)nx, y, (size_t)ny, &t), 0);
		assert_close(t.p, brute_mwu_p(x, nx, y, ny), 1e-9);
		assert_int_equal(stats_ratio_ci(x, (size_t)nx, y, (size_t)ny, 0.95, &ratio), 0);
		for (int i = 0; i < m; i++)
			r[i] = x[i / ny] / y[i % ny];
		qsort(r, (size_t)m, sizeof(r[0]), stats_cmp_double);
		for (int i = 0; i < m; i++)
			logr[i] = log(r[i]);
		lr = m % 2 ? logr[m / 2] : (logr[m / 2 - 1] + logr[m / 2]) / 2;
		assert_close(ratio.estimate, exp(lr), 1e-9 * exp(lr));
		assert_true(ratio.reached == (k >= 1));
		assert_close(ratio.lo, r[k >= 1 ? k - 1 : 0], 0);
		assert_close(ratio.hi, r[k >= 1 ? m - k : m - 1], 0);
	}
}

static void median_ci_against_exact_integers(void **state)
{
	double x[40];
	struct stats_rng rng;

	(void)state;
	stats_rng_seed(&rng, 16);
	for (int n = 1; n <= 40; n++) {
		double s[40], coverage = 0;
		uint64_t c = 1, tail = 0;  /* C(n, i), and the sum of C(n, 0..k-1) */
		int k = 0;
		struct stats_interval ci;

		for (int i = 0; i < n; i++)
			x[i] = s[i] = 1000 * exp(0.1 * stats_rng_normal(&rng));
		qsort(s, (size_t)n, sizeof(s[0]), stats_cmp_double);
		/* the largest k <= (n + 1) / 2 whose coverage reaches 95%, at least 1 */
		for (int i = 0; i < (n + 1) / 2; i++) {
			double cov;

			tail += c;  /* now C(n, 0) + ... + C(n, i): k = i + 1 misses with twice that */
			c = c * (uint64_t)(n - i) / (uint64_t)(i + 1);
			cov = 1 - 2 * ldexp((double)tail, -n);
			if (i > 0 && cov < 0.95)
				break;
			k = i + 1;
			coverage = cov;
		}
		stats_median_ci(x, (size_t)n, 0.95, &ci);
		assert_close(ci.lo, s[k - 1], 0);
		assert_close(ci.hi, s[n - k], 0);
		assert_close(ci.coverage, coverage, 1e-9);
	}
}

/* The earth mover's distance between two sets of runs, by cumulative shares. */
static double brute_emd(uint64_t runs[][64], unsigned long mask, int n)
{
	double a[64] = { 0 }, b[64] = { 0 }, ta = 0, tb = 0, ca = 0, cb = 0, d = 0;

	for (int i = 0; i < n; i++)
		for (int k = 0; k < 64; k++) {
			*(mask >> i & 1 ? &a[k] : &b[k]) += (double)runs[i][k];
			*(mask >> i & 1 ? &ta : &tb) += (double)runs[i][k];
		}
	for (int k = 0; k < 64; k++) {
		ca += a[k];
		cb += b[k];
		d += fabs(ca / ta - cb / tb);
	}
	return d;
}

static void hist_permutation_against_brute_force(void **state)
{
	uint64_t runs[10][64];
	const uint64_t *x[5], *y[5];
	struct stats_rng rng;
	struct stats_hist_test t;

	(void)state;
	stats_rng_seed(&rng, 17);
	for (int trial = 0; trial < 20; trial++) {
		int nx = 2 + trial % 4, ny = 2 + trial / 4 % 4, n = nx + ny;
		unsigned long far = 0, ways = 0, first = (1UL << nx) - 1;
		double observed;

		for (int i = 0; i < n; i++)
			run_hist(&rng, 20 + (i < nx ? trial % 3 : 0), 0.7, 300, runs[i]);
		for (int i = 0; i < nx; i++)
			x[i] = runs[i];
		for (int i = 0; i < ny; i++)
			y[i] = runs[nx + i];
		observed = brute_emd(runs, first, n);
		for (unsigned long mask = 0; mask < 1UL << n; mask++)
			if (__builtin_popcountl(mask) == nx) {
				ways++;
				far += brute_emd(runs, mask, n) >= observed - 1e-12 * observed;
			}
		assert_int_equal(stats_hist_permutation(x, (size_t)nx, y, (size_t)ny, 64, 100000, 1, &t), 0);
		assert_true(t.exhaustive);
		assert_int_equal(t.relabellings, ways);
		assert_close(t.emd, observed, 1e-9);
		assert_close(t.p, (double)far / (double)ways, 1e-9);
	}
}

/* Student's t quantiles as published (97.5%, and 99.5% at 4). */
static void t_quantiles_as_tabulated(void **state)
{
	static const double nu[] = { 1, 2, 3, 4, 5, 10, 30 };
	static const double q975[] = { 12.7062047361747, 4.30265272974946, 3.18244630528371, 2.77644510519779,
				       2.57058183563631, 2.22813885198627, 2.04227245630124 };

	(void)state;
	for (size_t i = 0; i < sizeof(nu) / sizeof(nu[0]); i++)
		assert_close(stats_t_quantile(0.975, nu[i]), q975[i], 1e-9 * q975[i]);
	assert_close(stats_t_quantile(0.995, 4), 4.60409487134999, 1e-9 * 4.6);
}

/* One side's shares (percent) of n runs drawn with replacement. */
static void resampled_shares(struct stats_rng *rng, const uint64_t *const *runs, unsigned int n, double *share)
{
	const uint64_t *pick[STATS_MAX_REPS];
	double total = 0;

	for (unsigned int i = 0; i < n; i++)
		pick[i] = runs[stats_rng_below(rng, n)];
	for (int b = 0; b < 64; b++) {
		share[b] = 0;
		for (unsigned int i = 0; i < n; i++)
			share[b] += (double)pick[i][b];
		total += share[b];
	}
	for (int b = 0; b < 64; b++)
		share[b] *= 100 / total;
}

/* The share intervals recomputed: the same resamples (the same generator,
 * drawn in the same order), each side's variance in two passes, the smaller
 * side's degrees of freedom. */
static void share_diff_recomputed(void **state)
{
	enum { NX = 4, NY = 6, R = 300 };
	uint64_t runs[NX + NY][64];
	const uint64_t *x[NX], *y[NY];
	static double bx[R][64], by[R][64];
	double d[64], lo[64], hi[64];
	struct stats_rng rng;

	(void)state;
	stats_rng_seed(&rng, 18);
	for (int i = 0; i < NX + NY; i++)
		run_hist(&rng, i < NX ? 20 : 21, 0.6, 500, runs[i]);
	for (int i = 0; i < NX; i++)
		x[i] = runs[i];
	for (int i = 0; i < NY; i++)
		y[i] = runs[NX + i];
	assert_int_equal(stats_share_diff(x, NX, y, NY, 64, 0.95, R, 99, d, lo, hi), 0);
	stats_rng_seed(&rng, 99);
	for (int r = 0; r < R; r++) {
		resampled_shares(&rng, x, NX, bx[r]);
		resampled_shares(&rng, y, NY, by[r]);
	}
	for (int b = 0; b < 64; b++) {
		double mx = 0, my = 0, vx = 0, vy = 0, nu, half;

		for (int r = 0; r < R; r++) {
			mx += bx[r][b] / R;
			my += by[r][b] / R;
		}
		for (int r = 0; r < R; r++) {
			vx += (bx[r][b] - mx) * (bx[r][b] - mx) / R;
			vy += (by[r][b] - my) * (by[r][b] - my) / R;
		}
		vx *= NX / (NX - 1.0);
		vy *= NY / (NY - 1.0);
		if (vx + vy == 0) {
			assert_close(lo[b], d[b], 0);
			assert_close(hi[b], d[b], 0);
			continue;
		}
		nu = (NX < NY ? NX : NY) - 1;
		half = stats_t_quantile(0.975, nu) * sqrt(vx + vy);
		assert_close(lo[b], d[b] - half, 1e-9);
		assert_close(hi[b], d[b] + half, 1e-9);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(generator_is_seeded),
		cmocka_unit_test(medians),
		cmocka_unit_test(median_ci_by_hand),
		cmocka_unit_test(mann_whitney_textbook),
		cmocka_unit_test(mann_whitney_small_and_tied),
		cmocka_unit_test(mann_whitney_smallest_p_of_sizes),
		cmocka_unit_test(mann_whitney_normal_approximation),
		cmocka_unit_test(ratio_interval_textbook),
		cmocka_unit_test(ratio_estimate_is_reciprocal),
		cmocka_unit_test(aa_false_positives_at_most_5pct),
		cmocka_unit_test(ab_20pct_detected_at_default_reps),
		cmocka_unit_test(ab_20pct_at_loaded_noise),
		cmocka_unit_test(emd_by_hand),
		cmocka_unit_test(hist_permutation_exhaustive_and_sampled),
		cmocka_unit_test(share_diff_bootstrap_is_seeded),
		cmocka_unit_test(share_intervals_cover_95pct),
		cmocka_unit_test(share_intervals_cover_95pct_at_unequal_sizes),
		cmocka_unit_test(hist_aa_false_positives_at_most_5pct),
		cmocka_unit_test(mann_whitney_and_moses_against_brute_force),
		cmocka_unit_test(median_ci_against_exact_integers),
		cmocka_unit_test(hist_permutation_against_brute_force),
		cmocka_unit_test(t_quantiles_as_tabulated),
		cmocka_unit_test(share_diff_recomputed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
