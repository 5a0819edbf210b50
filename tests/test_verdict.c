/*
 * test_verdict.c — a verdict, its ratio and its interval tell one story
 * (analysis/figures/figures.c: judge, verdict_ratio, interval_text,
 * ratio_decimals): the printed ratio lies inside its printed interval, a
 * difference is never shown where the interval holds 1 or where the sizes
 * could not show one without ties, and the printed digits keep the
 * interval and the ratio visibly off 1 beside a difference.  On data built
 * to break it: two modes, ties, unequal sizes, shifts of a few percent.
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

#include "../analysis/figures/figures.h"

static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;

static double uniform(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (double)(rng_state >> 11) / (double)(UINT64_C(1) << 53);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* n values of one of four shapes around `centre`; the median, min and max
 * filled in as figure() does. */
static void fill(struct stat3 *s, unsigned n, double centre, int shape)
{
	double sorted[MAX_REPS];

	memset(s, 0, sizeof(*s));
	s->n = n;
	for (unsigned i = 0; i < n; i++) {
		double u = uniform();

		switch (shape) {
		case 0: s->vals[i] = centre * (1 + 0.05 * (u - 0.5)); break;                 /* a few % of noise */
		case 1: s->vals[i] = centre * (u < 0.5 ? 0.7 : 1.4) * (1 + 0.01 * uniform()); break;  /* two modes */
		case 2: s->vals[i] = floor(centre * (1 + 0.3 * u)); break;                  /* small counts: ties */
		default: s->vals[i] = centre * (1 + 0.002 * floor(3 * u)); break;           /* three levels: ties */
		}
	}
	memcpy(sorted, s->vals, n * sizeof(double));
	qsort(sorted, n, sizeof(double), cmp_double);
	s->median = n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
	s->min = sorted[0];
	s->max = sorted[n - 1];
}

/* Every story-telling rule on one pair. */
static void check_pair(const struct stat3 *s, const struct stat3 *base, unsigned *shown)
{
	struct verdict vd;
	char ci[64], r_text[32];
	double r, lo, hi;

	judge(s, base, &vd);
	if (!vd.tested)
		return;
	r = verdict_ratio(&vd, s, base);
	if (vd.ratio_ok && vd.ratio.reached) {
		if (!(r >= vd.ratio.lo && r <= vd.ratio.hi))
			print_message("r %.17g lo %.17g hi %.17g nx %u ny %u\n", r, vd.ratio.lo, vd.ratio.hi, s->n, base->n);
		assert_true(r >= vd.ratio.lo && r <= vd.ratio.hi);
	}
	if (vd.direction == 0)
		return;
	(*shown)++;
	/* a difference: the sizes can show one without ties, and the
	 * interval is wholly on its side of 1 */
	assert_true(stats_mwu_p_min(s->n, base->n) <= 1 - STATS_LEVEL);
	assert_true(vd.ratio_ok && vd.ratio.reached);
	assert_true(vd.direction > 0 ? vd.ratio.lo > 1 : vd.ratio.hi < 1);
	/* and so printed */
	interval_text(&vd, ci, sizeof(ci));
	assert_int_equal(sscanf(ci, "[%lf..%lf]", &lo, &hi), 2);
	assert_true(vd.direction > 0 ? lo > 1 : hi < 1);
	snprintf(r_text, sizeof(r_text), "%.*f", ratio_decimals(r, vd.direction), r);
	assert_true(vd.direction > 0 ? strtod(r_text, NULL) > 1 : strtod(r_text, NULL) < 1);
}

static void a_verdict_its_ratio_and_its_interval_agree(void **state)
{
	unsigned shown = 0, pairs = 0;

	(void)state;
	for (unsigned trial = 0; trial < 20000; trial++) {
		struct stat3 s, base;
		unsigned nx = 2 + (unsigned)(uniform() * 19), ny = 2 + (unsigned)(uniform() * 19);
		int shape = (int)(uniform() * 4);
		double shift = 1 + 0.3 * (uniform() - 0.5) * (uniform() < 0.5 ? 0.1 : 1);

		fill(&base, ny, shape == 2 ? 20 : 1000, shape);
		fill(&s, nx, (shape == 2 ? 20 : 1000) * shift, shape);
		check_pair(&s, &base, &shown);
		pairs++;
	}
	/* the search is no search if nothing was ever shown */
	assert_true(shown > pairs / 10);
}

/* 2 runs against 5 with ties reach p = 1/21 < 0.05, where the tables'
 * note says no difference can be shown (the smallest tie-free p is 2/21):
 * no verdict. */
static void ties_do_not_show_what_the_sizes_cannot(void **state)
{
	struct stat3 s = { .n = 2, .vals = { 10, 10 }, .median = 10, .min = 10, .max = 10 };
	struct stat3 base = { .n = 5, .vals = { 5, 5, 5, 5, 5 }, .median = 5, .min = 5, .max = 5 };
	struct verdict vd;
	char note[512];

	(void)state;
	judge(&s, &base, &vd);
	assert_true(reach_note(2, 5, note, sizeof(note)));
	assert_int_equal(vd.direction, 0);
	assert_string_equal(verdict_word(&vd, SENSE_RATE), "no difference");
}

/* A shift of 0.4%: the interval's lower end reads above 1, not "1". */
static void a_small_difference_is_printed_with_the_digits_it_needs(void **state)
{
	struct verdict vd = { .tested = true, .direction = 1, .ratio_ok = true,
			      .ratio = { .estimate = 1.004, .lo = 1.0004, .hi = 1.009, .reached = true } };
	char ci[64];

	(void)state;
	interval_text(&vd, ci, sizeof(ci));
	assert_string_equal(ci, "[1.0004..1.009]");
	assert_int_equal(ratio_decimals(1.004, 1), 3);
	assert_int_equal(ratio_decimals(1.004, 0), 2);
	assert_int_equal(ratio_decimals(0.9996, -1), 4);
}

/* A ratio far below 1 (a 2M-cycle critical section against an empty one)
 * reads inside its interval: "0.0001x" beside [8.11e-05..0.00129], not
 * "0.00x" (helper ba saw it so in a before -> after table). */
static void a_ratio_far_below_1_reads_inside_its_interval(void **state)
{
	struct verdict vd = { .tested = true, .direction = -1, .ratio_ok = true,
			      .ratio = { .estimate = 0.000104, .lo = 8.11e-05, .hi = 0.00129, .reached = true } };
	struct stat3 s = { .n = 4, .median = 1 }, base = { .n = 4, .median = 9600 };
	char r[32], ci[64];
	double lo, hi, v;

	(void)state;
	assert_true(ratio_text(&vd, &s, &base, r, sizeof(r)));
	interval_text(&vd, ci, sizeof(ci));
	assert_int_equal(sscanf(ci, "[%lf..%lf]", &lo, &hi), 2);
	v = strtod(r, NULL);
	assert_true(v >= lo && v <= hi);
	assert_string_equal(r, "0.0001x");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_verdict_its_ratio_and_its_interval_agree),
		cmocka_unit_test(ties_do_not_show_what_the_sizes_cannot),
		cmocka_unit_test(a_small_difference_is_printed_with_the_digits_it_needs),
		cmocka_unit_test(a_ratio_far_below_1_reads_inside_its_interval),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
