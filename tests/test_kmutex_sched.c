/*
 * test_kmutex_sched.c — the sched oracle's decisions in the kmutex family,
 * with slots the test writes in place of the BPF program
 * (tests/test_oracle_sched.c drives the real one): an owner off its CPU, a
 * spinner preempted or flagged (need_resched), an owner that moved to
 * another CPU (2.6.29-2.6.36 stop), mutex_can_spin_on_owner() from 3.10
 * only, and which spinner queue can be left, and when (and that a queued
 * waiter's preemption is counted).  Each must end the spin or
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

enum sched_event { OWNER_OFF_CPU, SPINNER_PREEMPTED, SPINNER_RESCHED, OWNER_MIGRATED };

/* M holds and runs; B spins on M. */
struct spinning {
	const struct lock_ops *ops;
	void *lock;
	struct lock_thread *m;
	struct taker b;
};

static void spinning_start(struct spinning *s, const char *name)
{
	s->ops = find(name);
	s->lock = sched_lock_new(s->ops);
	s->m = sched_self_new(s->ops, s->lock, 0);
	s->b = (struct taker){ .ops = s->ops, .lock = s->lock, .self = sched_self_new(s->ops, s->lock, 1) };
	assert_false(s->ops->lock(s->lock, s->m));
	taker_start(&s->b);
	assert_true(wait_eq((const void *const *)&runstate(s->b.self)->watching, runstate(s->m)));
}

/* Relaxed, as the BPF program's stores: the spinner polls them. */
static void spinning_event(enum sched_event ev)
{
	if (ev == OWNER_OFF_CPU)
		__atomic_store_n(&test_slots[0].on_cpu, 0, __ATOMIC_RELAXED);
	else if (ev == SPINNER_PREEMPTED)
		__atomic_add_fetch(&test_slots[1].preempted, 1, __ATOMIC_RELAXED);
	else if (ev == SPINNER_RESCHED)
		__atomic_add_fetch(&test_slots[1].resched, 1, __ATOMIC_RELAXED);
	else  /* the switch-in on CPU 3, the owner still running */
		__atomic_store_n(&test_slots[0].cpu, 3, __ATOMIC_RELAXED);
}

/* M releases; B gets the lock; B's events, checked by the caller, stay
 * until spinning_free. */
static void spinning_finish(struct spinning *s)
{
	s->ops->unlock(s->lock, s->m);
	taker_join(&s->b);
}

static void spinning_free(struct spinning *s)
{
	free(s->m);
	free(s->b.self);
	test_lock_free(s->ops, s->lock);
}

/* Then M is switched out, or B is preempted, or B's TIF_NEED_RESCHED is set
 * (not yet preempted), or M moves to another CPU: B must stop spinning for
 * that reason and sleep. */
static void spin_ends_on(const char *name, enum sched_event ev, enum spin_exit expect)
{
	struct spinning s;
	const struct lock_events *ev_b;

	spinning_start(&s, name);
	spinning_event(ev);
	if (!wait_eq(&runstate(s.b.self)->sleeping, 1))
		print_error("%s: the spinner kept spinning\n", name);
	assert_int_equal(__atomic_load_n(&runstate(s.b.self)->sleeping, __ATOMIC_ACQUIRE), 1);
	spinning_finish(&s);
	ev_b = &s.b.self->ev;
	assert_int_equal(ev_b->spin_exit[expect], 1);
	assert_int_equal(ev_b->spin_exit[SPIN_EXIT_BUDGET], 0);
	assert_int_equal(ev_b->acq_sleep, 1);
	spinning_free(&s);
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

/* The kernel's spinner sees need_resched() before the preemption it asks
 * for; where the kernel reports the flag as it is set, so does B. */
static void sched_need_resched_seen_when_set(void **state)
{
	(void)state;
	for (size_t i = 1; i < N_VARIANTS; i++)
		spin_ends_on(all_variants[i], SPINNER_RESCHED, SPIN_EXIT_NEED_RESCHED);
}

/*
 * The owner moves to another CPU while B spins on it, and runs there.
 * 2.6.29 read owner->cpu once and watched that CPU's rq->curr: B stops
 * ("owner not running") and sleeps.  From 2.6.39/3.0 the spinner reads
 * owner->on_cpu and keeps spinning.
 */
static void owner_keeps_b_spinning(const char *name)
{
	struct spinning s;
	double end;

	spinning_start(&s, name);
	spinning_event(OWNER_MIGRATED);
	for (end = now_s() + QUEUE_SAMPLE_S; now_s() < end; pause_briefly())
		assert_ptr_equal(__atomic_load_n(&runstate(s.b.self)->watching, __ATOMIC_ACQUIRE), runstate(s.m));
	spinning_finish(&s);
	assert_int_equal(s.b.self->ev.spin_exit[SPIN_EXIT_OWNER_NOT_RUNNING], 0);
	assert_int_equal(s.b.self->ev.acq_spin, 1);
	spinning_free(&s);
}

static void owner_cpu_fixed_before_on_cpu(void **state)
{
	(void)state;
	spin_ends_on("kmutex-spin", OWNER_MIGRATED, SPIN_EXIT_OWNER_NOT_RUNNING);
	spin_ends_on("kmutex-fix", OWNER_MIGRATED, SPIN_EXIT_OWNER_NOT_RUNNING);
	owner_keeps_b_spinning("kmutex-mcs");
	owner_keeps_b_spinning("kmutex-osq");
	owner_keeps_b_spinning("kmutex-handoff");
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
	/* The kernel's queued waiter cannot be preempted; this one was, once. */
	assert_int_equal(d.self->ev.queue_preempted, ev == SPINNER_PREEMPTED ? 1 : 0);
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
		cmocka_unit_test(sched_need_resched_seen_when_set),
		cmocka_unit_test(owner_cpu_fixed_before_on_cpu),
		cmocka_unit_test(can_spin_gate_is_era_exact),
		cmocka_unit_test(spinner_queue_exits_are_era_exact),
	};

	alarm(TEST_ALARM_S);
	return cmocka_run_group_tests_name("kmutex-sched", tests, NULL, NULL);
}
