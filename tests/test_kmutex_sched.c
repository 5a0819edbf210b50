/*
 * test_kmutex_sched.c — the sched oracle's decisions in the kmutex family,
 * with slots the test writes in place of the BPF program
 * (tests/test_oracle_sched.c drives the real one): an owner off its CPU, a
 * spinner preempted (need_resched), mutex_can_spin_on_owner() from 3.10 only,
 * and which spinner queue can be left, and when.  Each must end the spin or
 * leave the queue exactly as its kernel era did.
 * Every wait is bounded in time; alarm() ends a hung run.
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "../locks/oracle.h"
#include "lockutil.h"
#include "kmutex_util.h"

/* ---- the sched oracle's decisions, with slots the test writes ---- */

static struct oracle_sched_slot test_slots[4] cacheline_aligned;

/* A lock with the sched oracle (no budget), and its per-thread states
 * reading test_slots[id] in place of what the BPF program would keep. */
static void *sched_lock_new(const struct lock_ops *ops)
{
	assert_int_equal(oracle_sched_open_fake(8), 0);
	memset(test_slots, 0, sizeof(test_slots));
	for (size_t i = 0; i < sizeof(test_slots) / sizeof(test_slots[0]); i++)
		test_slots[i].on_cpu = 1;
	return kmutex_new(ops, 0, ORACLE_SCHED);
}

static struct lock_thread *sched_self_new(const struct lock_ops *ops, void *lock, unsigned int id)
{
	struct lock_thread *self = test_self_new(ops, lock, id);

	runstate(self)->slot = &test_slots[id];
	return self;
}

enum sched_event { OWNER_OFF_CPU, SPINNER_PREEMPTED };

/* M holds and runs; B spins on M; then M is switched out, or B is
 * preempted: B must stop spinning for that reason and sleep. */
static void spin_ends_on(const char *name, enum sched_event ev, enum spin_exit expect)
{
	const struct lock_ops *ops = find(name);
	void *lock = sched_lock_new(ops);
	struct lock_thread *m = sched_self_new(ops, lock, 0);
	struct taker b = { .ops = ops, .lock = lock, .self = sched_self_new(ops, lock, 1) };

	assert_false(ops->lock(lock, m));
	taker_start(&b);
	assert_true(wait_eq((const void *const *)&runstate(b.self)->watching, runstate(m)));
	/* Relaxed, as the BPF program's stores: the spinner polls them. */
	if (ev == OWNER_OFF_CPU)
		__atomic_store_n(&test_slots[0].on_cpu, 0, __ATOMIC_RELAXED);
	else
		__atomic_add_fetch(&test_slots[1].preempted, 1, __ATOMIC_RELAXED);
	if (!wait_eq(&runstate(b.self)->sleeping, 1))
		print_error("%s: the spinner kept spinning\n", name);
	assert_int_equal(__atomic_load_n(&runstate(b.self)->sleeping, __ATOMIC_ACQUIRE), 1);
	ops->unlock(lock, m);
	taker_join(&b);
	assert_int_equal(b.self->ev.spin_exit[expect], 1);
	assert_int_equal(b.self->ev.spin_exit[SPIN_EXIT_BUDGET], 0);
	assert_int_equal(b.self->ev.acq_sleep, 1);
	free(m);
	free(b.self);
	test_lock_free(ops, lock);
}

static void sched_owner_off_cpu_ends_the_spin(void **state)
{
	(void)state;
	for (size_t i = 1; i < N_VARIANTS; i++)
		spin_ends_on(all_variants[i], OWNER_OFF_CPU, SPIN_EXIT_OWNER_NOT_RUNNING);
}

static void sched_need_resched_ends_the_spin(void **state)
{
	(void)state;
	for (size_t i = 1; i < N_VARIANTS; i++)
		spin_ends_on(all_variants[i], SPINNER_PREEMPTED, SPIN_EXIT_NEED_RESCHED);
}

/* Spin-watch starts per thread (the seam's ORACLE_EV_WATCH). */
static uint32_t watches[4];

static void count_watches(enum oracle_event event, const struct oracle_runstate *me,
			  const struct oracle_runstate *owner)
{
	(void)owner;
	if (event != ORACLE_EV_WATCH)
		return;
	for (unsigned int i = 0; i < 4; i++)
		if (me->slot == &test_slots[i])
			__atomic_add_fetch(&watches[i], 1, __ATOMIC_RELAXED);
}

/*
 * The owner is off its CPU before B arrives.  From 3.10 on,
 * mutex_can_spin_on_owner() sends B to the wait list without spinning at
 * all; 2.6.29-3.9 had no such gate: B starts mutex_spin_on_owner(), which
 * gives up at its first look.  Either way the exit is "owner not running".
 */
static void can_spin_gate_is_era_exact(void **state)
{
	(void)state;
	for (size_t i = 1; i < N_VARIANTS; i++) {
		const struct lock_ops *ops = find(all_variants[i]);
		bool gated = strcmp(all_variants[i], "kmutex-spin") != 0 &&
			     strcmp(all_variants[i], "kmutex-fix") != 0;
		void *lock = sched_lock_new(ops);
		struct lock_thread *m = sched_self_new(ops, lock, 0);
		struct taker b = { .ops = ops, .lock = lock, .self = sched_self_new(ops, lock, 1) };

		assert_false(ops->lock(lock, m));
		__atomic_store_n(&test_slots[0].on_cpu, 0, __ATOMIC_RELAXED);
		memset(watches, 0, sizeof(watches));
		oracle_set_hook(count_watches);
		taker_start(&b);
		assert_true(wait_eq(&runstate(b.self)->sleeping, 1));
		oracle_set_hook(NULL);
		ops->unlock(lock, m);
		taker_join(&b);
		if (__atomic_load_n(&watches[1], __ATOMIC_RELAXED) != (gated ? 0u : 1u))
			print_error("%s: %u spin-on-owner phases, expected %u\n", all_variants[i],
				    watches[1], gated ? 0u : 1u);
		assert_int_equal(__atomic_load_n(&watches[1], __ATOMIC_RELAXED), gated ? 0 : 1);
		assert_int_equal(b.self->ev.spin_exit[SPIN_EXIT_OWNER_NOT_RUNNING], 1);
		free(m);
		free(b.self);
		test_lock_free(ops, lock);
	}
}

/*
 * M holds and runs; B spins on M at the head of the spinner queue; D waits
 * in the queue behind B.  Then D is preempted (need_resched), or B, D's
 * predecessor, is switched out.  3.10's MCS lock cannot be left: D stays.
 * 3.15's OSQ is left on need_resched, not for a preempted predecessor; 4.10's
 * also for a predecessor off its CPU (vcpu_is_preempted).
 */
static void queue_exit(const char *name, enum sched_event ev, bool leaves)
{
	const struct lock_ops *ops = find(name);
	void *lock = sched_lock_new(ops);
	struct lock_thread *m = sched_self_new(ops, lock, 0);
	struct taker b = { .ops = ops, .lock = lock, .self = sched_self_new(ops, lock, 1) };
	struct taker d = { .ops = ops, .lock = lock, .self = sched_self_new(ops, lock, 2) };

	assert_false(ops->lock(lock, m));
	taker_start(&b);
	assert_true(wait_eq((const void *const *)&runstate(b.self)->watching, runstate(m)));
	taker_start(&d);
	{
		/* D has long reached the queue by then. */
		double end = now_s() + QUEUE_SAMPLE_S;

		while (now_s() < end)
			pause_briefly();
	}
	if (ev == SPINNER_PREEMPTED)
		__atomic_add_fetch(&test_slots[2].preempted, 1, __ATOMIC_RELAXED);
	else
		__atomic_store_n(&test_slots[1].on_cpu, 0, __ATOMIC_RELAXED);
	if (leaves) {
		assert_true(wait_eq(&runstate(d.self)->sleeping, 1));
	} else {
		double end = now_s() + QUEUE_SAMPLE_S;

		while (now_s() < end) {
			assert_int_equal(__atomic_load_n(&runstate(d.self)->sleeping, __ATOMIC_RELAXED), 0);
			pause_briefly();
		}
	}
	ops->unlock(lock, m);
	taker_join(&b);
	taker_join(&d);
	if (d.self->ev.spin_exit[SPIN_EXIT_QUEUE_GAVE_UP] != (leaves ? 1u : 0u))
		print_error("%s: D left the queue %" PRIu64 " times, expected %u\n", name,
			    d.self->ev.spin_exit[SPIN_EXIT_QUEUE_GAVE_UP], leaves ? 1u : 0u);
	assert_int_equal(d.self->ev.spin_exit[SPIN_EXIT_QUEUE_GAVE_UP], leaves ? 1 : 0);
	free(m);
	free(b.self);
	free(d.self);
	test_lock_free(ops, lock);
}

static void spinner_queue_exits_are_era_exact(void **state)
{
	(void)state;
	queue_exit("kmutex-mcs", SPINNER_PREEMPTED, false);
	queue_exit("kmutex-osq", SPINNER_PREEMPTED, true);
	queue_exit("kmutex-handoff", SPINNER_PREEMPTED, true);
	queue_exit("kmutex-osq", OWNER_OFF_CPU, false);
	queue_exit("kmutex-handoff", OWNER_OFF_CPU, true);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(sched_owner_off_cpu_ends_the_spin),
		cmocka_unit_test(sched_need_resched_ends_the_spin),
		cmocka_unit_test(can_spin_gate_is_era_exact),
		cmocka_unit_test(spinner_queue_exits_are_era_exact),
	};

	alarm(TEST_ALARM_S);
	return cmocka_run_group_tests_name("kmutex-sched", tests, NULL, NULL);
}
