/* test_hist.c — log2 bin edges, recording, merging, quantiles, and the
 * summary's terminal histogram (report_print_hist). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../bench/platform/hist.h"
#include "../bench/output/report.h"

static void bin_edges(void **state)
{
	(void)state;
	assert_int_equal(hist_bin(0), 0);
	assert_int_equal(hist_bin(1), 0);
	assert_int_equal(hist_bin(2), 1);
	assert_int_equal(hist_bin(3), 1);
	for (unsigned int k = 2; k < 64; k++) {
		uint64_t p = UINT64_C(1) << k;

		assert_int_equal(hist_bin(p - 1), k - 1);
		assert_int_equal(hist_bin(p), k);
		assert_int_equal(hist_bin(p + 1), k);
	}
	assert_int_equal(hist_bin(UINT64_MAX), 63);
}

static void bin_lower_bounds(void **state)
{
	(void)state;
	assert_int_equal(hist_bin_lower(0), 0);
	assert_int_equal(hist_bin_lower(1), 2);
	assert_int_equal(hist_bin_lower(13), 8192);
	assert_true(hist_bin_lower(63) == (UINT64_C(1) << 63));
	for (unsigned int b = 1; b < HIST_BINS; b++)
		assert_int_equal(hist_bin(hist_bin_lower(b)), b);
}

static void record_counts_everything(void **state)
{
	struct hist h;

	(void)state;
	hist_reset(&h);
	hist_record(&h, 0, false);
	hist_record(&h, 5, true);
	hist_record(&h, 7, true);
	hist_record(&h, UINT64_MAX / 4, false);
	assert_int_equal(h.count, 4);
	assert_int_equal(h.contended, 2);
	assert_int_equal(h.bins[0], 1);
	assert_int_equal(h.bins[2], 2);
	assert_int_equal(h.bins[61], 1);
	assert_true(h.min == 0);
	assert_true(h.max == UINT64_MAX / 4);
	assert_true(h.sum == 12 + UINT64_MAX / 4);
}

static void merge_adds_and_keeps_extremes(void **state)
{
	struct hist a, b, empty;

	(void)state;
	hist_reset(&a);
	hist_reset(&b);
	hist_reset(&empty);
	hist_record(&a, 100, false);
	hist_record(&a, 1000, true);
	hist_record(&b, 10, true);
	hist_record(&b, 100000, false);
	hist_merge(&a, &b);
	hist_merge(&a, &empty);
	assert_int_equal(a.count, 4);
	assert_int_equal(a.contended, 2);
	assert_int_equal(a.sum, 101110);
	assert_int_equal(a.min, 10);
	assert_int_equal(a.max, 100000);
	assert_int_equal(a.bins[hist_bin(100)], 1);
	assert_int_equal(a.bins[hist_bin(10)], 1);
	hist_merge(&empty, &a);
	assert_memory_equal(&empty, &a, sizeof(a));
}

static void quantile_bins(void **state)
{
	struct hist h;

	(void)state;
	hist_reset(&h);
	assert_int_equal(hist_quantile_bin(&h, 0.5), 0);
	for (int i = 0; i < 90; i++)
		hist_record(&h, 1u << 10, false);
	for (int i = 0; i < 10; i++)
		hist_record(&h, 1u << 20, false);
	assert_int_equal(hist_quantile_bin(&h, 0.5), 10);
	assert_int_equal(hist_quantile_bin(&h, 0.9), 10);
	assert_int_equal(hist_quantile_bin(&h, 0.91), 20);
	assert_int_equal(hist_quantile_bin(&h, 1.0), 20);
}

/* The bars are whole characters of the peak's 52, rounded down: a bin of 1
 * beside 3,130,432 (and 29,622: under 1/52 of it) draws no `@`; one of
 * 1/52 of the peak draws one. */
static int bar_length(const char *text, const char *count)
{
	const char *line = strstr(text, count), *bar;

	assert_non_null(line);
	bar = strchr(line, '|');
	assert_non_null(bar);
	return (int)strspn(bar + 1, "@");
}

static void bars_round_down(void **state)
{
	struct hist h;
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	(void)state;
	assert_non_null(out);
	hist_reset(&h);
	h.bins[5] = 3130432;
	h.bins[6] = 29622;
	h.bins[7] = 1;
	h.bins[8] = 3130432 / 52 + 1;
	report_print_hist(&h, "acq_cycles", out);
	assert_int_equal(fclose(out), 0);
	assert_int_equal(bar_length(text, " 3130432 |"), 52);
	assert_int_equal(bar_length(text, " 29622 |"), 0);
	assert_int_equal(bar_length(text, " 1 |"), 0);
	assert_int_equal(bar_length(text, " 60201 |"), 1);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(bin_edges),
		cmocka_unit_test(bin_lower_bounds),
		cmocka_unit_test(record_counts_everything),
		cmocka_unit_test(merge_adds_and_keeps_extremes),
		cmocka_unit_test(quantile_bins),
		cmocka_unit_test(bars_round_down),
	};

	return cmocka_run_group_tests_name("hist", tests, NULL, NULL);
}
