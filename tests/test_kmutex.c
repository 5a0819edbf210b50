/*
 * test_kmutex.c — the kmutex family's spinning, step by step rather than by
 * statistics:
 *
 * - the one decision the seed patch changed.  A holds the lock, B spins on A,
 *   A releases and C takes the lock while B is still spinning (B is held at
 *   the moment it notices A leave, through oracle.h's watch hook).  Each
 *   variant must then do what its kernel era did: keep spinning on C
 *   (2.6.29-2.6.35, and 4.1 on), or record "owner changed" and sleep
 *   (2.6.36-4.0); kmutex-sleep never spins at all;
 * - the spinner queue (3.10 on): one waiter spins on the owner, the next
 *   waits in the queue, awake;
 * - the rq-curr oracle sees an owner whose CPU another lock user took, and
 *   every variant still excludes with it;
 * - the oracle and spin-budget options refuse what they cannot take.
 * The wait list and handoff are in test_kmutex_waitlist.c, the sched
 * oracle's decisions in test_kmutex_sched.c; what they share is in
 * kmutex_util.h.  Every wait is bounded in time; alarm() ends a hung run.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "kmutex_util.h"
#include "lockutil.h"
#include "../bench/run/run.h"
#include "../bench/workloads/workload.h"
#include "../locks/oracle.h"

/* A budget no scenario step can spend: only the orchestrated events end a
 * spin (about 40 s at 2.6 GHz; the step timeouts fire long before). */
#define SCENARIO_BUDGET (UINT64_C(100) * 1000 * 1000 * 1000)

/* ---- the owner-change scenario ---- */

enum after_change {
	NEVER_SPINS,     /* kmutex-sleep */
	KEEPS_SPINNING,  /* re-assess: spin on the new owner */
	SLEEPS,          /* the 2.6.36 rule */
	TAKES_IT,        /* A just released (no C): B takes the lock spinning */
};

struct scenario {
	const char *lock;
	enum after_change expect;
};

static void expect_never_spins(struct taker *b, struct lock_thread *a)
{
	const struct lock_events *ev = &b->self->ev;

	assert_true(wait_eq(&runstate(b->self)->sleeping, 1));
	b->ops->unlock(b->lock, a);
	taker_join(b);
	for (int r = 0; r < SPIN_EXIT_NR; r++)
		assert_int_equal(ev->spin_exit[r], 0);
	assert_int_equal(ev->spin_cycles, 0);
	assert_int_equal(ev->acq_sleep, 1);
	assert_true(ev->futex_waits >= 1);
}

static void expect_keeps_spinning(struct taker *b, struct lock_thread *c)
{
	const struct lock_events *ev = &b->self->ev;

	/* B re-assessed and now spins on C, awake. */
	assert_true(wait_eq((const void *const *)&runstate(b->self)->watching, runstate(c)));
	assert_int_equal(__atomic_load_n(&runstate(b->self)->sleeping, __ATOMIC_RELAXED), 0);
	b->ops->unlock(b->lock, c);
	taker_join(b);
	assert_int_equal(ev->spin_exit[SPIN_EXIT_OWNER_CHANGED], 0);
	assert_int_equal(ev->spin_exit[SPIN_EXIT_ACQUIRED], 1);
	assert_int_equal(ev->acq_spin, 1);
	assert_int_equal(ev->acq_sleep, 0);
	assert_int_equal(ev->futex_waits, 0);
}

static void expect_sleeps(struct taker *b, struct lock_thread *c)
{
	const struct lock_events *ev = &b->self->ev;

	/* B gave up on the new owner and went to the futex. */
	assert_true(wait_eq(&runstate(b->self)->sleeping, 1));
	b->ops->unlock(b->lock, c);
	taker_join(b);
	assert_int_equal(ev->spin_exit[SPIN_EXIT_OWNER_CHANGED], 1);
	assert_int_equal(ev->spin_exit[SPIN_EXIT_ACQUIRED], 0);
	assert_int_equal(ev->acq_sleep, 1);
	assert_int_equal(ev->acq_spin, 0);
	assert_true(ev->futex_waits >= 1);
	assert_int_equal(c->ev.futex_wakes, 1);
}

/* No new owner: whatever the era, a spinner whose owner released takes the
 * lock without sleeping (the 2.6.36 rule tests for a *new* owner). */
static void expect_takes_it(struct taker *b, struct lock_thread *a)
{
	const struct lock_events *ev = &b->self->ev;

	b->ops->unlock(b->lock, a);
	taker_join(b);
	assert_int_equal(ev->spin_exit[SPIN_EXIT_ACQUIRED], 1);
	assert_int_equal(ev->spin_exit[SPIN_EXIT_OWNER_CHANGED], 0);
	assert_int_equal(ev->acq_spin, 1);
	assert_int_equal(ev->futex_waits, 0);
}

/* A releases while B spins on it, and C takes the lock before B re-assesses. */
static void c_takes_it_under_b(struct taker *b, struct lock_thread *a, struct lock_thread *c,
			       enum after_change expect)
{
	/* A releases ... B notices and is held there ... */
	b->ops->unlock(b->lock, a);
	assert_true(wait_eq(&seam.noticed, 1));
	/* ... C takes the lock at its first attempt, while B still spins. */
	assert_false(b->ops->lock(b->lock, c));
	/* Release: pairs with the acquire wait in the seam hook. */
	__atomic_store_n(&seam.release, 1, __ATOMIC_RELEASE);
	if (expect == KEEPS_SPINNING)
		expect_keeps_spinning(b, c);
	else
		expect_sleeps(b, c);
}

static void owner_changes_while_spinning(void **state)
{
	const struct scenario *sc = *state;
	const struct lock_ops *ops = find(sc->lock);
	void *lock = kmutex_new(ops, SCENARIO_BUDGET, ORACLE_RUNSTATE);
	struct lock_thread *a = test_self_new(ops, lock, 0);
	struct lock_thread *c = test_self_new(ops, lock, 2);
	struct taker b = { .ops = ops, .lock = lock, .self = test_self_new(ops, lock, 1) };

	memset(&seam, 0, sizeof(seam));
	seam.watcher = runstate(b.self);
	seam.owner = runstate(a);
	oracle_set_hook(seam_hook);

	assert_false(ops->lock(lock, a));
	taker_start(&b);
	if (sc->expect == NEVER_SPINS) {
		expect_never_spins(&b, a);
	} else {
		/* B spins on A. */
		assert_true(wait_eq((const void *const *)&runstate(b.self)->watching, runstate(a)));
		if (sc->expect == TAKES_IT) {
			__atomic_store_n(&seam.release, 1, __ATOMIC_RELEASE);
			expect_takes_it(&b, a);
		} else {
			c_takes_it_under_b(&b, a, c, sc->expect);
		}
	}
	oracle_set_hook(NULL);
	assert_int_equal(__atomic_load_n(&seam.timed_out, __ATOMIC_ACQUIRE), 0);
	free(a);
	free(b.self);
	free(c);
	test_lock_free(ops, lock);
}

/* ---- the spinner queue (3.10 on): one waiter spins on the owner ---- */

/* A holds; B and D both wait.  Without a queue both spin on A; with one, the
 * second waits in the queue and never watches the owner while the first does. */
static void spinners_on_the_owner(const char *name, bool queued)
{
	const struct lock_ops *ops = find(name);
	void *lock = kmutex_new(ops, SCENARIO_BUDGET, ORACLE_RUNSTATE);
	struct lock_thread *a = test_self_new(ops, lock, 0);
	struct taker b = { .ops = ops, .lock = lock, .self = test_self_new(ops, lock, 1) };
	struct taker d = { .ops = ops, .lock = lock, .self = test_self_new(ops, lock, 2) };
	const void *const *b_watch = (const void *const *)&runstate(b.self)->watching;
	const void *const *d_watch = (const void *const *)&runstate(d.self)->watching;

	assert_false(ops->lock(lock, a));
	taker_start(&b);
	assert_true(wait_eq(b_watch, runstate(a)));
	taker_start(&d);
	if (!queued) {
		assert_true(wait_eq(d_watch, runstate(a)));
	} else {
		double end = now_s() + QUEUE_SAMPLE_S;

		/* D has long entered lock() by the end; it must sit in the
		 * queue, awake, while B keeps watching A. */
		while (now_s() < end) {
			assert_ptr_equal(__atomic_load_n(b_watch, __ATOMIC_ACQUIRE), runstate(a));
			assert_ptr_not_equal(__atomic_load_n(d_watch, __ATOMIC_ACQUIRE), runstate(a));
			assert_int_equal(__atomic_load_n(&runstate(d.self)->sleeping, __ATOMIC_RELAXED), 0);
			pause_briefly();
		}
	}
	ops->unlock(lock, a);
	taker_join(&b);
	taker_join(&d);
	/* Both got it by spinning: the queue delays, never puts to sleep, and
	 * no third thread took the lock to trigger the 2.6.36 rule. */
	assert_int_equal(b.self->ev.acq_spin + d.self->ev.acq_spin, 2);
	free(a);
	free(b.self);
	free(d.self);
	test_lock_free(ops, lock);
}

static void one_spinner_per_owner(void **state)
{
	(void)state;
	spinners_on_the_owner("kmutex-spin", false);
	spinners_on_the_owner("kmutex-mcs", true);
	spinners_on_the_owner("kmutex-osq", true);
	spinners_on_the_owner("kmutex-handoff", true);
}

/* ---- the rq-curr oracle ---- */

struct pinned_call {
	int cpu;
	struct oracle_runstate *rs;
	void (*fn)(struct oracle_runstate *rs);
};

static void *pinned_main(void *arg)
{
	struct pinned_call *p = arg;

	p->fn(p->rs);
	return NULL;
}

/* Runs fn(rs) in a new thread pinned to `cpu`; false if pinning failed. */
static bool run_pinned(int cpu, struct oracle_runstate *rs, void (*fn)(struct oracle_runstate *rs))
{
	struct pinned_call call = { .cpu = cpu, .rs = rs, .fn = fn };
	pthread_attr_t attr;
	pthread_t tid;
	cpu_set_t set;
	int rc;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	assert_int_equal(pthread_attr_init(&attr), 0);
	assert_int_equal(pthread_attr_setaffinity_np(&attr, sizeof(set), &set), 0);
	rc = pthread_create(&tid, &attr, pinned_main, &call);
	pthread_attr_destroy(&attr);
	if (rc == EINVAL || rc == EPERM)
		return false;
	assert_int_equal(rc, 0);
	assert_int_equal(pthread_join(tid, NULL), 0);
	return true;
}

static void go_to_sleep(struct oracle_runstate *rs)
{
	oracle_sleeping(rs, ORACLE_RQ_CURR);
}

static void rq_curr_sees_the_cpu_taken(void **state)
{
	struct oracle_runstate owner, other;
	int cpu = sched_getcpu();

	(void)state;
	if (oracle_check(ORACLE_RQ_CURR) != 0 || cpu < 0)
		skip();
	oracle_thread_init(&owner, ORACLE_RQ_CURR);
	oracle_thread_init(&other, ORACLE_RQ_CURR);
	/* The owner ran lock code on CPU `cpu` (a thread pinned there). */
	if (!run_pinned(cpu, &owner, oracle_on_cpu))
		skip();
	assert_true(oracle_owner_running(&owner, ORACLE_RQ_CURR));
	/* Another lock user ran on that CPU since: the owner was preempted. */
	assert_true(run_pinned(cpu, &other, oracle_on_cpu));
	assert_false(oracle_owner_running(&owner, ORACLE_RQ_CURR));
	assert_true(oracle_owner_running(&owner, ORACLE_RUNSTATE));
	/* That thread went to sleep: the CPU is free again for all it knows. */
	assert_true(run_pinned(cpu, &other, go_to_sleep));
	assert_true(oracle_owner_running(&owner, ORACLE_RQ_CURR));
	/* An owner asleep in a futex is not running, to either oracle. */
	__atomic_store_n(&owner.sleeping, 1, __ATOMIC_RELAXED);
	assert_false(oracle_owner_running(&owner, ORACLE_RUNSTATE));
	assert_false(oracle_owner_running(&owner, ORACLE_RQ_CURR));
}

static void every_variant_excludes_with_rq_curr(void **state)
{
	(void)state;
	if (oracle_check(ORACLE_RQ_CURR) != 0)
		skip();
	for (size_t i = 0; i < N_VARIANTS; i++) {
		static struct bench_config cfg;
		struct bench_result res;
		char err[512] = "";
		int status;

		cfg = (struct bench_config){
			.lock = find(all_variants[i]),
			.workload = workload_find("counter"),
			.threads = 8,
			.duration_s = 0.3,
			.cs_cycles = 200,
			.think_cycles = 400,
			.pin = "rr",
			.lock_node = -1,
			.max_ops = 20000,
			.quiet = true,
		};
		test_lock_opt(cfg.lock, &cfg.lock_params, "oracle", "rq-curr");
		status = bench_run(&cfg, &res, err, sizeof(err));
		if (status != EXIT_OK)
			print_error("%s: %s\n", all_variants[i], err);
		assert_int_equal(status, EXIT_OK);
		assert_true(res.acq.contended > 0);
		print_message("# %s, rq-curr: %" PRIu64 " ops, %" PRIu64 " via spin, %" PRIu64
			      " without sleeping, %" PRIu64 " via sleep\n", all_variants[i], res.ops_all,
			      res.ev.acq_spin, res.ev.acq_nosleep, res.ev.acq_sleep);
		/* The era without spinning never acquires in a spin phase. */
		if (strcmp(all_variants[i], "kmutex-sleep") == 0)
			assert_int_equal(res.ev.acq_spin, 0);
		bench_result_free(&res);
	}
}

/* The settings are the lock's own: its options check their values, and a
 * lock without options has none to find. */
static void unknown_oracle_is_refused(void **state)
{
	const struct lock_ops *ops = find("kmutex-fix");
	const struct option_def *oracle = lock_option_find(ops, "oracle", 6);
	const struct option_def *budget = lock_option_find(ops, "spin-budget=5", 11);
	struct lock_params params = { 0 };
	char err[256];

	(void)state;
	assert_non_null(oracle);
	assert_non_null(budget);
	assert_int_equal(oracle->set(params.settings.bytes, "nope", err, sizeof(err)), -1);
	assert_string_equal(err, "unknown oracle 'nope' (valid: auto runstate rq-curr sched)");
	assert_int_equal(budget->set(params.settings.bytes, "-1", err, sizeof(err)), -1);
	assert_string_equal(err, "'-1' is not an integer in [0, 1000000000000]");
	assert_int_equal(budget->set(params.settings.bytes, "1000000000000", err, sizeof(err)), 0);
	assert_null(lock_option_find(ops, "oracles", 7));
	assert_null(lock_option_find(find("pthread"), "oracle", 6));
	assert_int_equal(oracle_find("rq-curr"), ORACLE_RQ_CURR);
	assert_int_equal(oracle_find("nope"), -1);
}

static const struct scenario scenarios[] = {
	{ "kmutex-sleep", NEVER_SPINS },
	{ "kmutex-spin", KEEPS_SPINNING },
	{ "kmutex-fix", SLEEPS },
	{ "kmutex-mcs", SLEEPS },
	{ "kmutex-osq", SLEEPS },
	{ "kmutex-handoff", KEEPS_SPINNING },
	{ "kmutex-spin", TAKES_IT },
	{ "kmutex-fix", TAKES_IT },
	{ "kmutex-mcs", TAKES_IT },
	{ "kmutex-osq", TAKES_IT },
	{ "kmutex-handoff", TAKES_IT },
};

#define SCENARIO_TEST(i, what) \
	{ what, owner_changes_while_spinning, NULL, NULL, (void *)&scenarios[i] }

int main(void)
{
	const struct CMUnitTest tests[] = {
		SCENARIO_TEST(0, "A holds, B waits: kmutex-sleep never spins"),
		SCENARIO_TEST(1, "B spins on A, C takes over: kmutex-spin spins on C"),
		SCENARIO_TEST(2, "B spins on A, C takes over: kmutex-fix sleeps (owner changed)"),
		SCENARIO_TEST(3, "B spins on A, C takes over: kmutex-mcs sleeps (owner changed)"),
		SCENARIO_TEST(4, "B spins on A, C takes over: kmutex-osq sleeps (owner changed)"),
		SCENARIO_TEST(5, "B spins on A, C takes over: kmutex-handoff spins on C"),
		SCENARIO_TEST(6, "B spins on A, A releases: kmutex-spin takes it spinning"),
		SCENARIO_TEST(7, "B spins on A, A releases: kmutex-fix takes it spinning"),
		SCENARIO_TEST(8, "B spins on A, A releases: kmutex-mcs takes it spinning"),
		SCENARIO_TEST(9, "B spins on A, A releases: kmutex-osq takes it spinning"),
		SCENARIO_TEST(10, "B spins on A, A releases: kmutex-handoff takes it spinning"),
		cmocka_unit_test(one_spinner_per_owner),
		cmocka_unit_test(rq_curr_sees_the_cpu_taken),
		cmocka_unit_test(every_variant_excludes_with_rq_curr),
		cmocka_unit_test(unknown_oracle_is_refused),
	};

	alarm(TEST_ALARM_S);
	return cmocka_run_group_tests_name("kmutex", tests, NULL, NULL);
}
