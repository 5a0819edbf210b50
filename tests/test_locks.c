/*
 * test_locks.c — registry-wide: every lock must exclude (the counter workload
 * at 4x oversubscription loses no update), `none` must be caught losing
 * updates, and trylock/contention reports must mean what lock.h says.
 * Locks are found through the registry, so a new lock is tested by adding it.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "lockutil.h"
#include "../bench/run/run.h"
#include "../bench/workloads/workload.h"

/*
 * Per thread: many thousands of read-modify-writes, unless the time bound ends
 * the run first: FIFO locks (ticket, mcs) under 4x oversubscription hand the
 * lock to preempted waiters and manage only 200-400 operations per second in
 * all here (50 under ThreadSanitizer), so the evidence asked of a run is
 * modest: some operations by every thread on average, and contention.  Think
 * time between operations makes the threads interleave instead of one
 * re-taking a hot lock in long streaks.
 */
#define EXCLUSION_OPS_PER_THREAD 20000u
#define EXCLUSION_MIN_OPS_PER_THREAD 10u
#define EXCLUSION_SECONDS 2.0

static unsigned int oversubscribed_threads(void)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	return cpus > 2 ? 4u * (unsigned int)cpus : 8u;
}

static int run_counter(const struct lock_ops *ops, struct bench_result *res, char *err, size_t errlen)
{
	static struct bench_config cfg;

	cfg = (struct bench_config){
		.lock = ops,
		.workload = workload_find("counter"),
		.threads = oversubscribed_threads(),
		.duration_s = EXCLUSION_SECONDS,
		.cs_cycles = 200,
		.think_cycles = 400,
		.pin = "rr",
		.lock_node = -1,
		.max_ops = EXCLUSION_OPS_PER_THREAD,
		.quiet = true,
	};
	return bench_run(&cfg, res, err, errlen);
}

static void mutual_exclusion(void **state)
{
	const struct lock_ops *ops = *state;
	struct bench_result res;
	char err[512] = "";
	int status = run_counter(ops, &res, err, sizeof(err));

	if (status != EXIT_OK)
		print_error("%s: %s\n", ops->name, err);
	assert_int_equal(status, EXIT_OK);
	print_message("# %s: %" PRIu64 " ops, %" PRIu64 " contended, %.2f s\n",
		      ops->name, res.ops_all, res.acq.contended, res.measured_s);
	/* The run is only evidence if it did real work under contention. */
	assert_true(res.ops_all >= (uint64_t)EXCLUSION_MIN_OPS_PER_THREAD * res.cfg->threads);
	assert_true(res.acq.contended > 0);
	assert_int_equal(res.acq.count, res.ops);
	/* What the seed patch counted: the contended acquisitions alone. */
	assert_int_equal(res.acq_contended.count, res.acq.contended);
	assert_true(res.acq_contended.sum <= res.acq.sum);
	assert_true(res.acq_contended.max <= res.acq.max);
	bench_result_free(&res);
}

static void none_loses_updates(void **state)
{
	struct bench_result res;
	char err[512] = "";
	int status;

	(void)state;
	status = run_counter(lock_find("none"), &res, err, sizeof(err));
	assert_int_equal(status, EXIT_INVARIANT);
	assert_non_null(strstr(err, "lost"));
	bench_result_free(&res);
}

/* ---- trylock and the contended report ---- */

struct holder_arg {
	const struct lock_ops *ops;
	void *lock;
	int result;          /* what the other thread's call returned */
	int waiting;         /* set just before the other thread calls lock() */
};

static void *trylock_from_other_thread(void *p)
{
	struct holder_arg *a = p;
	struct lock_thread *self = test_self_new(a->ops, a->lock, 7);

	a->result = a->ops->trylock(a->lock, self);
	if (a->result)
		a->ops->unlock(a->lock, self);
	free(self);
	return NULL;
}

static int trylock_elsewhere(const struct lock_ops *ops, void *lock)
{
	struct holder_arg a = { .ops = ops, .lock = lock };
	pthread_t tid;

	assert_int_equal(pthread_create(&tid, NULL, trylock_from_other_thread, &a), 0);
	assert_int_equal(pthread_join(tid, NULL), 0);
	return a.result;
}

static void trylock_semantics(void **state)
{
	const struct lock_ops *ops = *state;
	void *lock = test_lock_new(ops);
	struct lock_thread *a = test_self_new(ops, lock, 0);
	struct lock_thread *b = test_self_new(ops, lock, 1);

	assert_true(ops->trylock(lock, a));
	assert_false(ops->trylock(lock, b));
	assert_false(trylock_elsewhere(ops, lock));
	ops->unlock(lock, a);
	assert_true(trylock_elsewhere(ops, lock));
	assert_false(ops->lock(lock, b));          /* free: not contended */
	assert_false(ops->trylock(lock, a));
	ops->unlock(lock, b);
	assert_true(ops->trylock(lock, a));
	ops->unlock(lock, a);
	free(a);
	free(b);
	test_lock_free(ops, lock);
}

static void *lock_from_other_thread(void *p)
{
	struct holder_arg *a = p;
	struct lock_thread *self = test_self_new(a->ops, a->lock, 9);

	__atomic_store_n(&a->waiting, 1, __ATOMIC_RELEASE);
	a->result = a->ops->lock(a->lock, self);
	a->ops->unlock(a->lock, self);
	free(self);
	return NULL;
}

static void spin_ms(double ms)
{
	struct timespec t0, t1;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	do
		clock_gettime(CLOCK_MONOTONIC, &t1);
	while ((double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6 < ms);
}

/* A lock() that had to wait for a holder reports contention.  The holder
 * keeps the lock for 50 ms after the waiter announced itself, far longer
 * than the waiter needs to reach its first attempt. */
static void lock_reports_contention(void **state)
{
	const struct lock_ops *ops = *state;
	void *lock = test_lock_new(ops);
	struct lock_thread *holder = test_self_new(ops, lock, 0);
	struct holder_arg a = { .ops = ops, .lock = lock, .result = -1 };
	pthread_t tid;

	assert_false(ops->lock(lock, holder));
	assert_int_equal(pthread_create(&tid, NULL, lock_from_other_thread, &a), 0);
	while (!__atomic_load_n(&a.waiting, __ATOMIC_ACQUIRE))
		cpu_relax();
	spin_ms(50);
	ops->unlock(lock, holder);
	assert_int_equal(pthread_join(tid, NULL), 0);
	assert_int_equal(a.result, 1);
	free(holder);
	test_lock_free(ops, lock);
}

/* ---- one cmocka test per (property, lock), built from the registry ---- */

static struct CMUnitTest *tests;
static size_t ntests;
static char names[256][64];

static void add_test(const char *prop, const struct lock_ops *ops, CMUnitTestFunction fn)
{
	struct CMUnitTest *t = &tests[ntests];

	snprintf(names[ntests], sizeof(names[ntests]), "%s/%s", prop, ops->name);
	*t = (struct CMUnitTest){ .name = names[ntests], .test_func = fn, .initial_state = (void *)ops };
	ntests++;
}

int main(void)
{
	tests = calloc(3 * lock_registry_len + 1, sizeof(*tests));
	if (!tests || 3 * lock_registry_len + 1 > 256)
		return 1;
	for (size_t i = 0; i < lock_registry_len; i++) {
		const struct lock_ops *ops = lock_registry[i];

		if (ops->flags & LOCK_F_NO_EXCLUSION)
			continue;
		add_test("mutual_exclusion", ops, mutual_exclusion);
		add_test("trylock", ops, trylock_semantics);
		add_test("contended", ops, lock_reports_contention);
	}
	add_test("loses_updates", lock_find("none"), none_loses_updates);
	return _cmocka_run_group_tests("locks", tests, ntests, NULL, NULL);
}
