/*
 * test_timing.c — --timing: which acquisitions bench_lock() times, and that
 * every count stays exact whichever it is.  The sampler is driven directly
 * (bench_lock on the `none` lock, no threads, no clocks asserted on); then
 * real runs check the merged counts against the workload's own.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "lockutil.h"
#include "../bench/run/run.h"
#include "../bench/workloads/workload.h"

#define CALLS 80000u

/* A bench_thread on the `none` lock under one --timing mode. */
static struct bench_thread *timing_thread(int timing, uint64_t sample, uint64_t seed)
{
	const struct lock_ops *none = lock_find("none");
	struct bench_config cfg = { .timing = timing, .timing_sample = sample, .seed = seed };
	struct bench_thread *t = aligned_alloc(CACHELINE, sizeof(*t));

	assert_non_null(t);
	memset(t, 0, sizeof(*t));
	t->lock_ops = none;
	t->lock = test_lock_new(none);
	t->lt = test_self_new(none, t->lock, 0);
	hist_reset(&t->acq);
	hist_reset(&t->acq_contended);
	bench_timing_init(t, &cfg);
	return t;
}

static void timing_thread_free(struct bench_thread *t)
{
	test_lock_free(t->lock_ops, t->lock);
	free(t->lt);
	free(t);
}

/* Runs `calls` acquisitions; timed[i] says whether the i-th was timed. */
static void acquire(struct bench_thread *t, unsigned int calls, bool *timed)
{
	for (unsigned int i = 0; i < calls; i++) {
		uint64_t before = t->acq.count;

		bench_lock(t);
		bench_unlock(t);
		if (timed)
			timed[i] = t->acq.count != before;
	}
}

static void all_times_every_acquisition(void **state)
{
	struct bench_thread *t = timing_thread(TIMING_ALL, 0, 1);

	(void)state;
	acquire(t, CALLS, NULL);
	assert_int_equal(t->acq.count, CALLS);
	assert_int_equal(t->untimed, 0);
	assert_int_equal(t->acquired, CALLS);
	timing_thread_free(t);
}

static void off_times_none_and_counts_all(void **state)
{
	struct bench_thread *t = timing_thread(TIMING_OFF, 0, 1);

	(void)state;
	acquire(t, CALLS, NULL);
	assert_int_equal(t->acq.count, 0);
	assert_int_equal(t->untimed, CALLS);
	assert_int_equal(t->acquired, CALLS);
	assert_int_equal(t->waiting_since, 0);
	timing_thread_free(t);
}

/*
 * sample:8: about one in 8 timed, at gaps that vary (uniform over 0..14
 * untimed in between: 15 values), so no periodic workload lines up with
 * them; every acquisition counted, timed or not.
 */
static void sample_times_one_in_n_at_random_gaps(void **state)
{
	static bool timed[CALLS];
	struct bench_thread *t = timing_thread(TIMING_SAMPLE, 8, 1);
	unsigned int seen[16] = { 0 }, distinct = 0, gaps = 0, last = 0, gap_max = 0;
	bool first = true;

	(void)state;
	acquire(t, CALLS, timed);
	assert_int_equal(t->acq.count + t->untimed, CALLS);
	assert_int_equal(t->acquired, CALLS);
	for (unsigned int i = 0; i < CALLS; i++) {
		if (!timed[i])
			continue;
		if (!first) {
			unsigned int gap = i - last - 1;

			assert_true(gap <= 14);
			gap_max = gap > gap_max ? gap : gap_max;
			distinct += seen[gap]++ == 0;
			gaps++;
		}
		first = false;
		last = i;
	}
	print_message("# sample:8: %llu of %u timed, %u distinct gaps, longest %u\n",
		      (unsigned long long)t->acq.count, CALLS, distinct, gap_max);
	/* 10,000 expected; a binomial-like spread of ~100 either way. */
	assert_true(t->acq.count > CALLS / 8 - 500 && t->acq.count < CALLS / 8 + 500);
	assert_int_equal(distinct, 15);
	assert_true(seen[0] > 0 && seen[14] > 0);
	assert_true(gaps + 1 == t->acq.count);
	timing_thread_free(t);
}

/* The gaps come from --seed: the same seed, the same acquisitions timed. */
static void sample_follows_the_seed(void **state)
{
	static bool a[CALLS / 8], b[CALLS / 8], c[CALLS / 8];
	struct bench_thread *ta = timing_thread(TIMING_SAMPLE, 16, 7), *tb = timing_thread(TIMING_SAMPLE, 16, 7);
	struct bench_thread *tc = timing_thread(TIMING_SAMPLE, 16, 8);

	(void)state;
	acquire(ta, CALLS / 8, a);
	acquire(tb, CALLS / 8, b);
	acquire(tc, CALLS / 8, c);
	assert_memory_equal(a, b, sizeof(a));
	assert_memory_not_equal(a, c, sizeof(a));
	timing_thread_free(ta);
	timing_thread_free(tb);
	timing_thread_free(tc);
}

/* A real run: the counter workload makes one acquisition per operation,
 * and a kmutex counts each acquisition's phase, so both check the exact
 * counts whatever was timed. */
static void run_counts_exact(int timing, uint64_t sample)
{
	static struct bench_config cfg;
	struct bench_result res;
	const struct lock_events *ev = &res.ev;
	char err[512] = "";
	int status;

	cfg = (struct bench_config){
		.lock = lock_find("kmutex-spin"), .workload = workload_find("counter"), .threads = 2,
		.duration_s = 0.2, .warmup_s = 0, .pin = "rr", .lock_node = -1, .seed = 3,
		.timing = timing, .timing_sample = sample, .quiet = true,
	};
	status = bench_run(&cfg, &res, err, sizeof(err));
	if (status != EXIT_OK)
		print_error("%s\n", err);
	assert_int_equal(status, EXIT_OK);
	assert_int_equal(res.acquisitions, res.ops);
	assert_int_equal(ev->acq_fast + ev->acq_spin + ev->acq_nosleep + ev->acq_sleep, res.acquisitions);
	assert_true(res.contentions <= res.acquisitions);
	assert_true(res.acq.contended <= res.contentions);
	assert_int_equal(res.acq_contended.count, res.acq.contended);
	assert_int_equal(res.checks.c[CHECK_HIST_TOTAL].status, CHECK_OK);
	assert_int_equal(res.checks.c[CHECK_PHASES].status, CHECK_OK);
	if (timing == TIMING_OFF)
		assert_int_equal(res.acq.count, 0);
	else if (timing == TIMING_ALL)
		assert_int_equal(res.acq.count, res.acquisitions);
	else
		assert_true(res.acq.count > 0 && res.acq.count < res.acquisitions);
	bench_result_free(&res);
}

static void run_all_exact(void **state)
{
	(void)state;
	run_counts_exact(TIMING_ALL, 0);
}

static void run_sample_exact(void **state)
{
	(void)state;
	run_counts_exact(TIMING_SAMPLE, 16);
}

static void run_off_exact(void **state)
{
	(void)state;
	run_counts_exact(TIMING_OFF, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(all_times_every_acquisition),
		cmocka_unit_test(off_times_none_and_counts_all),
		cmocka_unit_test(sample_times_one_in_n_at_random_gaps),
		cmocka_unit_test(sample_follows_the_seed),
		cmocka_unit_test(run_all_exact),
		cmocka_unit_test(run_sample_exact),
		cmocka_unit_test(run_off_exact),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
