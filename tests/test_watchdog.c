/*
 * test_watchdog.c — the watchdog's limit, what counts as progress, and what
 * its diagnosis says, on hand-made thread records (no threads run here; the
 * end-to-end test with a lock that hangs is tests/watchdog.t).
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "../bench/run/watchdog.h"
#include "../bench/workloads/workload.h"

#define NTHREADS 3

static void sleep_s(double s)
{
	struct timespec ts = { .tv_sec = (time_t)s, .tv_nsec = (long)((s - (double)(time_t)s) * 1e9) };

	nanosleep(&ts, NULL);
}

static struct bench_thread *threads_new(void)
{
	struct bench_thread *t = aligned_alloc(CACHELINE, NTHREADS * sizeof(*t));

	assert_non_null(t);
	memset(t, 0, NTHREADS * sizeof(*t));
	for (unsigned int i = 0; i < NTHREADS; i++) {
		t[i].id = i;
		t[i].cpu = (int)i;
	}
	return t;
}

static void limit_is_option_else_max_of_5s_and_duration(void **state)
{
	struct bench_config cfg = { .duration_s = 1 };

	(void)state;
	assert_true(watchdog_limit(&cfg) == WATCHDOG_MIN_DEFAULT_S);
	cfg.duration_s = 60;
	assert_true(watchdog_limit(&cfg) == 60);
	cfg.watchdog_s = 0.5;
	assert_true(watchdog_limit(&cfg) == 0.5);
}

/* Polls for `seconds` in 20 ms steps, each making the progress `kind` says
 * (0 none, 1 an acquisition, 2 a thread leaving every 10th step); false if it
 * fired.  Margins are wide: a loaded machine may stretch every sleep. */
static bool survives(struct watchdog *wd, struct bench_thread *t, double seconds, int kind)
{
	unsigned int done = 0, step = 0;

	for (double s = 0; s < seconds; s += 0.02, step++) {
		if (kind == 1)
			t[1].acquired++;
		else if (kind == 2 && step % 10 == 9 && done < NTHREADS)
			done++;
		if (watchdog_poll(wd, done))
			return false;
		sleep_s(0.02);
	}
	return true;
}

static void acquisitions_and_exits_are_progress_silence_is_not(void **state)
{
	struct bench_thread *t = threads_new();
	struct bench_thread *ptrs[NTHREADS] = { &t[0], &t[1], &t[2] };
	struct watchdog wd;

	(void)state;
	assert_int_equal(watchdog_start(&wd, 1.0, ptrs, NTHREADS), 0);
	assert_true(survives(&wd, t, 1.5, 1));   /* one thread acquiring keeps it quiet */
	assert_true(survives(&wd, t, 0.6, 2));   /* so do threads leaving their loops */
	assert_false(survives(&wd, t, 3.0, 0));  /* silence for longer than the limit */
	assert_true(wd.fired_s > 0);
	t[1].acquired++;
	assert_true(watchdog_poll(&wd, 0));      /* once fired, it stays fired */
	watchdog_free(&wd);
	free(t);
}

static const struct lock_ops fake_lock = { .name = "fake", .size = 8 };

static void report_names_threads_and_lock_state(void **state)
{
	struct bench_thread *t = threads_new();
	struct bench_thread *ptrs[NTHREADS] = { &t[0], &t[1], &t[2] };
	uint32_t lock_words[2] = { 0xdeadbeef, 2 };
	struct bench_config cfg = { .lock = &fake_lock, .workload = workload_find("counter") };
	struct watchdog wd;
	char summary[512], *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	(void)state;
	assert_non_null(out);
	assert_int_equal(watchdog_start(&wd, 0.1, ptrs, NTHREADS), 0);
	t[0].acquired = 7;
	t[0].waiting_since = tsc_now() - 3000000000u;  /* 3 s at the 1 GHz given below */
	t[2].waiting_since = tsc_now();
	assert_false(survives(&wd, t, 0.5, 0));
	watchdog_report(&wd, &cfg, lock_words, 1e9, out, summary, sizeof(summary));
	fclose(out);
	assert_non_null(strstr(text, "no lock acquisition for 0.1 s (lock fake, workload counter, 3 threads)"));
	assert_non_null(strstr(text, "thread 0 (cpu 0): waiting in lock() for 3."));
	assert_non_null(strstr(text, "7 acquisitions before"));
	assert_non_null(strstr(text, "thread 1 (cpu 1): not in lock(), last acquired"));
	assert_non_null(strstr(text, "thread 2 (cpu 2): waiting in lock() for 0."));
	assert_non_null(strstr(text, "lock state (32-bit words of 8 bytes): 0xdeadbeef 0x00000002\n"));
	assert_non_null(strstr(summary, "2 of 3 threads waiting in lock() (longest 3."));
	assert_null(strchr(summary, '\n'));
	free(text);
	watchdog_free(&wd);
	free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(limit_is_option_else_max_of_5s_and_duration),
		cmocka_unit_test(acquisitions_and_exits_are_progress_silence_is_not),
		cmocka_unit_test(report_names_threads_and_lock_state),
	};

	return cmocka_run_group_tests_name("watchdog", tests, NULL, NULL);
}
