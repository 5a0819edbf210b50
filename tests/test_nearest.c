/*
 * test_nearest.c — "The model nearest the kernel's mutex" on the figures
 * together (analysis/figures/nearness.c): a model stands out only where,
 * against each other model, it is nearer beyond both intervals on more
 * figures than the other is; gaps inside the intervals name no model.  On issue 42's case: the smallest EMD (2.13 bins against 2.42,
 * within the intervals) belongs to one model while every contention figure
 * favours another, and the line named the first.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "../analysis/figures/figures.h"

enum { EMD, PER_OP, CYCLES, NFIG };

/* Two candidates' ratio intervals on figure f: [lo0, hi0] and [lo1, hi1]. */
static void two_ratios(struct nearness *d, int f, double lo0, double hi0, double lo1, double hi1)
{
	d[0 * NFIG + f] = near_ratio(lo0, hi0);
	d[1 * NFIG + f] = near_ratio(lo1, hi1);
}

/* Issue 42's case at 8 threads: kmutex-mcs has the smallest EMD, kmutex-handoff's
 * contended/op is the kernel's (0.96x) where the others' are 0.00-0.20x. */
static void the_figures_together_not_the_smallest_emd(void **state)
{
	struct nearness d[3 * NFIG] = {
		/* kmutex-mcs */ [0 * NFIG + EMD] = { 1.4, 2.9, true },
		/* kmutex-osq */ [1 * NFIG + EMD] = { 1.6, 3.2, true },
		/* kmutex-handoff */ [2 * NFIG + EMD] = { 1.7, 3.3, true },
	};

	(void)state;
	d[0 * NFIG + PER_OP] = near_ratio(0.0011, 0.2);
	d[1 * NFIG + PER_OP] = near_ratio(0.0009, 0.05);
	d[2 * NFIG + PER_OP] = near_ratio(0.91, 1.02);
	d[0 * NFIG + CYCLES] = near_ratio(0.4, 2.1);
	d[1 * NFIG + CYCLES] = near_ratio(0.6, 3.0);
	d[2 * NFIG + CYCLES] = near_ratio(0.7, 1.6);
	/* The smallest EMD is kmutex-mcs's: the old line's pick. */
	assert_true(d[0 * NFIG + EMD].lo < d[2 * NFIG + EMD].lo);
	assert_int_equal(near_stands_out(d, 3, NFIG), 2);
}

/* EMD gaps of a tenth of a bin and contention figures that overlap: no model. */
static void gaps_within_the_intervals_name_no_model(void **state)
{
	struct nearness d[2 * NFIG] = {
		[0 * NFIG + EMD] = { 1.2, 3.1, true },
		[1 * NFIG + EMD] = { 1.3, 3.2, true },
	};

	(void)state;
	two_ratios(d, PER_OP, 0.5, 1.4, 0.6, 1.2);
	two_ratios(d, CYCLES, 1.5, 3.0, 1.8, 2.5);
	assert_int_equal(near_stands_out(d, 2, NFIG), -1);
}

/* Nearer on one figure and farther on another, each beyond the intervals:
 * neither; nearer on two and farther on one: the two. */
static void a_split_names_no_model(void **state)
{
	struct nearness d[2 * NFIG] = { 0 };

	(void)state;
	two_ratios(d, PER_OP, 0.95, 1.05, 0.01, 0.02);
	two_ratios(d, CYCLES, 10, 20, 0.9, 1.1);
	assert_int_equal(near_stands_out(d, 2, NFIG), -1);
	d[0 * NFIG + EMD] = (struct nearness){ 0.5, 1.0, true };
	d[1 * NFIG + EMD] = (struct nearness){ 2.0, 4.0, true };
	assert_int_equal(near_stands_out(d, 2, NFIG), 0);
	/* A figure one side lacks counts for neither. */
	d[1 * NFIG + EMD].ok = false;
	assert_int_equal(near_stands_out(d, 2, NFIG), -1);
	d[0 * NFIG + CYCLES].ok = false;
	assert_int_equal(near_stands_out(d, 2, NFIG), 0);
}

static void a_ratio_interval_as_a_distance(void **state)
{
	struct nearness n;

	(void)state;
	n = near_ratio(0.8, 1.25);
	assert_true(n.ok && n.lo == 0 && fabs(n.hi - log(1.25)) < 1e-12);
	n = near_ratio(2, 4);
	assert_true(n.ok && fabs(n.lo - log(2)) < 1e-12 && fabs(n.hi - log(4)) < 1e-12);
	n = near_ratio(0.25, 0.5);
	assert_true(n.ok && fabs(n.lo - log(2)) < 1e-12 && fabs(n.hi - log(4)) < 1e-12);
	assert_false(near_ratio(0, 1).ok);
	assert_false(near_ratio(2, 1).ok);
}

static uint64_t rng = 0x2545f4914f6cdd1dULL;

static double uniform(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (double)(rng >> 11) / (double)(UINT64_C(1) << 53);
}

/* The EMD's bounds from per-bin intervals hold the EMD of every share
 * difference inside them (here the interval's centre and random points),
 * and are the EMD itself where the intervals have no width. */
static void the_emd_bounds_hold_it(void **state)
{
	static struct hist_comparison hc;

	(void)state;
	for (int trial = 0; trial < 2000; trial++) {
		double sum = 0, w = trial % 2 ? 0 : 3 * uniform();
		int last = 4 + (int)(20 * uniform());

		memset(&hc, 0, sizeof(hc));
		for (int b = 0; b < last; b++) {
			hc.diff[b] = b < last - 1 ? 20 * (uniform() - 0.5) : -sum;
			sum += hc.diff[b];
			hc.lo[b] = hc.diff[b] - w * uniform();
			hc.hi[b] = hc.diff[b] + w * uniform();
		}
		for (int k = 0; k < 4; k++) {
			double cum = 0, emd = 0;

			for (int b = 0; b < RESULT_BINS; b++) {
				double x = k == 0 ? hc.diff[b] : hc.lo[b] + (hc.hi[b] - hc.lo[b]) * uniform();

				cum += x / 100;
				emd += fabs(cum);
			}
			hc.test.emd = k == 0 ? emd : hc.test.emd;
			struct nearness n = near_emd(&hc);

			assert_true(n.ok && n.lo <= emd + 1e-12 && emd <= n.hi + 1e-12);
			if (w == 0)
				assert_true(fabs(n.lo - emd) < 1e-9 && fabs(n.hi - emd) < 1e-9);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(the_figures_together_not_the_smallest_emd),
		cmocka_unit_test(gaps_within_the_intervals_name_no_model),
		cmocka_unit_test(a_split_names_no_model),
		cmocka_unit_test(a_ratio_interval_as_a_distance),
		cmocka_unit_test(the_emd_bounds_hold_it),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
