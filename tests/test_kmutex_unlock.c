/*
 * test_kmutex_unlock.c — the kmutex family's lock word and unlock side, per
 * era, step by step:
 *
 * - before 4.10 the word is x86's count: a spinner's failed fast path marks
 *   it contended, so the owner's unlock goes through wait_lock; before 3.15
 *   the lock is freed under wait_lock (a release waits for it, the owner
 *   field NULL meanwhile), from 3.15 just before; 4.10's flag word sends a
 *   spinner's owner down no slow path at all;
 * - before 3.10 the spinner's cmpxchg is blind: while the release waits for
 *   wait_lock it fails again and again; from 3.10 a read comes first;
 * - the futex wake comes after wait_lock is dropped: a waiter can join the
 *   list while the unlocker is held right before its wake;
 * - 3.12's "once more" before joining the list: a newcomer that finds the
 *   lock freed takes it without marking it contended, so its own unlock is
 *   the fast one; those trylocks before queueing, and 4.10's before the
 *   spin, are counted apart (nosleep_unqueued: the kernel's tracepoint
 *   classes them with the spin);
 * - an owner's preemptions while it holds the lock, and a wait_lock holder's,
 *   are counted (sched oracle), and not claimed without it.
 * Threads are held where the oracle's test seam (oracle.h) lets the test
 * order them; the sched oracle's slots are the test's (kmutex_util.h), so no
 * spin ends but on the test's say.  Every wait is bounded in time; alarm()
 * ends a hung run.
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

/* ---- holding a thread at a seam event ---- */

/* One thread held at one event until the test releases it; each holds once. */
struct hold {
	enum oracle_event event;
	const struct oracle_runstate *who;
	uint32_t held, release, done;
	uint32_t bump_preempted;  /* while held: add this to who's involuntary switch-outs */
};

static struct hold holds[2];
static uint32_t hold_timed_out;

static void hold_hook(enum oracle_event event, const struct oracle_runstate *me,
		      const struct oracle_runstate *owner)
{
	(void)owner;
	for (size_t i = 0; i < sizeof(holds) / sizeof(holds[0]); i++) {
		struct hold *h = &holds[i];

		if (h->who != me || h->event != event || __atomic_load_n(&h->done, __ATOMIC_RELAXED))
			continue;
		__atomic_store_n(&h->done, 1, __ATOMIC_RELAXED);
		if (h->bump_preempted)
			__atomic_add_fetch(&me->slot->preempted, h->bump_preempted, __ATOMIC_RELAXED);
		/* Release: pairs with the test's wait on `held`. */
		__atomic_store_n(&h->held, 1, __ATOMIC_RELEASE);
		seam_wait(&h->release, 1);
		if (__atomic_load_n(&seam.timed_out, __ATOMIC_ACQUIRE))
			__atomic_store_n(&hold_timed_out, 1, __ATOMIC_RELEASE);
	}
}

static void holds_install(void)
{
	memset(&seam, 0, sizeof(seam));
	oracle_set_hook(hold_hook);
}

static void hold_release(struct hold *h)
{
	/* Release: pairs with the acquire wait in seam_wait. */
	__atomic_store_n(&h->release, 1, __ATOMIC_RELEASE);
}

static void holds_remove(void)
{
	oracle_set_hook(NULL);
	assert_int_equal(__atomic_load_n(&hold_timed_out, __ATOMIC_ACQUIRE), 0);
	memset(holds, 0, sizeof(holds));
}

/* An unlock made in a thread of its own: it may be held at a seam. */
struct unlocker {
	struct taker t;
};

static void *unlocker_main(void *arg)
{
	struct unlocker *u = arg;

	u->t.ops->unlock(u->t.lock, u->t.self);
	return NULL;
}

static void unlocker_start(struct unlocker *u, const struct lock_ops *ops, void *lock, struct lock_thread *self)
{
	*u = (struct unlocker){ .t = { .ops = ops, .lock = lock, .self = self } };
	assert_int_equal(pthread_create(&u->t.tid, NULL, unlocker_main, u), 0);
}

/* Samples for QUEUE_SAMPLE_S that `flag` stays 0. */
static void stays_zero(const uint32_t *flag)
{
	double end = now_s() + QUEUE_SAMPLE_S;

	while (now_s() < end) {
		assert_int_equal(__atomic_load_n(flag, __ATOMIC_ACQUIRE), 0);
		pause_briefly();
	}
}

/* ---- the release, per era ---- */

struct release_case {
	const char *lock;
	bool waiter_sleeps;    /* B sleeps on the list rather than spins (no spinning era) */
	bool via_wait_lock;    /* M's unlock takes wait_lock */
	bool freed_first;      /* ... having freed the lock before (3.15 on) */
	int cas_failed;        /* B's failed cmpxchg while the release waits: 1 some, 0 none, -1 unchecked */
};

static const struct release_case release_cases[] = {
	{ "kmutex-sleep", true, true, false, -1 },
	{ "kmutex-spin", false, true, false, 1 },
	{ "kmutex-fix", false, true, false, 1 },
	{ "kmutex-mcs", false, true, false, 0 },
	{ "kmutex-osq", false, true, true, -1 },
	{ "kmutex-handoff", false, false, true, -1 },
};

/*
 * M holds; B waits (spins on M, or sleeps).  M's unlock runs in a thread of
 * its own, held as soon as it takes wait_lock (its involuntary switch-outs
 * bumped by one meanwhile).  B's failed attempt marked the count contended,
 * so before 4.10 the unlock must take wait_lock; before 3.15 B must not get
 * the lock while the unlock is held there (it frees the count under
 * wait_lock), from 3.15 it must (the count was freed first).  From 4.10 a
 * spinner sets no flag, and the unlock never takes wait_lock.
 */
static void release_path(const struct release_case *rc)
{
	const struct lock_ops *ops = find(rc->lock);
	void *lock = sched_lock_new(ops);
	struct lock_thread *m = sched_self_new(ops, lock, 0);
	struct locker b;
	struct unlocker u;

	assert_false(ops->lock(lock, m));
	locker_start(&b, ops, lock, sched_self_new(ops, lock, 1));
	if (rc->waiter_sleeps)
		assert_true(wait_eq(&runstate(b.t.self)->sleeping, 1));
	else
		assert_true(wait_eq((const void *const *)&runstate(b.t.self)->watching, runstate(m)));
	holds[0] = (struct hold){ .event = ORACLE_EV_WAIT_LOCKED, .who = runstate(m), .bump_preempted = 1 };
	holds_install();
	unlocker_start(&u, ops, lock, m);
	if (!rc->via_wait_lock) {
		assert_true(wait_eq(&b.acquired, 1));
	} else {
		assert_true(wait_eq(&holds[0].held, 1));
		if (rc->freed_first) {
			assert_true(wait_eq(&b.acquired, 1));
		} else {
			/* B left its watch of M (M cleared the owner) and tries. */
			if (!rc->waiter_sleeps)
				assert_true(wait_eq((const void *const *)&runstate(b.t.self)->watching, NULL));
			stays_zero(&b.acquired);
		}
		hold_release(&holds[0]);
	}
	taker_join(&u.t);
	taker_join(&b.t);
	holds_remove();
	if (m->ev.unlock_slow != (rc->via_wait_lock ? 1u : 0u))
		print_error("%s: %" PRIu64 " unlocks took wait_lock\n", rc->lock, m->ev.unlock_slow);
	assert_int_equal(m->ev.unlock_slow, rc->via_wait_lock ? 1 : 0);
	/* The bump came while M held wait_lock, after its hold of the lock. */
	assert_int_equal(m->ev.wait_lock_preempted, rc->via_wait_lock ? 1 : 0);
	assert_int_equal(m->ev.owner_preempted, 0);
	if (rc->cas_failed == 1 && b.t.self->ev.spin_cas_failed == 0)
		print_error("%s: B never failed a blind cmpxchg\n", rc->lock);
	if (rc->cas_failed == 1)
		assert_true(b.t.self->ev.spin_cas_failed > 0);
	if (rc->cas_failed == 0)
		assert_int_equal(b.t.self->ev.spin_cas_failed, 0);
	free(m);
	free(b.t.self);
	test_lock_free(ops, lock);
}

static void release_waits_for_wait_lock_before_3_15(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(release_cases) / sizeof(release_cases[0]); i++)
		release_path(&release_cases[i]);
}

/* ---- the futex wake, after wait_lock is dropped ---- */

/*
 * M holds, W1 sleeps on the list.  M's unlock (its own thread) is held at
 * the moment it would make the futex call that wakes W1.  wait_lock must be
 * free by then: C takes the lock, and W2 must get onto the list and asleep
 * while M's unlock is still held.  Owners are off their CPUs, so nobody
 * spins.
 */
static void wake_after_wait_lock(const char *name)
{
	const struct lock_ops *ops = find(name);
	void *lock = sched_lock_new(ops);
	struct lock_thread *m = sched_self_new(ops, lock, 0), *c = sched_self_new(ops, lock, 2);
	struct locker w1, w2;
	struct unlocker u;

	assert_false(ops->lock(lock, m));
	__atomic_store_n(&test_slots[0].on_cpu, 0, __ATOMIC_RELAXED);
	locker_start(&w1, ops, lock, sched_self_new(ops, lock, 1));
	assert_true(wait_eq(&runstate(w1.t.self)->sleeping, 1));
	holds[0] = (struct hold){ .event = ORACLE_EV_WAKE, .who = runstate(m) };
	holds_install();
	unlocker_start(&u, ops, lock, m);
	assert_true(wait_eq(&holds[0].held, 1));
	assert_true(ops->trylock(lock, c));
	__atomic_store_n(&test_slots[2].on_cpu, 0, __ATOMIC_RELAXED);
	locker_start(&w2, ops, lock, sched_self_new(ops, lock, 3));
	if (!wait_eq(&runstate(w2.t.self)->sleeping, 1))
		print_error("%s: W2 could not join the list while the unlock waited to wake W1\n", name);
	assert_int_equal(__atomic_load_n(&runstate(w2.t.self)->sleeping, __ATOMIC_ACQUIRE), 1);
	hold_release(&holds[0]);
	taker_join(&u.t);
	ops->unlock(lock, c);
	taker_join(&w1.t);
	taker_join(&w2.t);
	holds_remove();
	assert_int_equal(m->ev.futex_wakes, 1);
	free(m);
	free(c);
	free(w1.t.self);
	free(w2.t.self);
	test_lock_free(ops, lock);
}

static void wake_comes_after_wait_lock(void **state)
{
	(void)state;
	for (size_t i = 0; i < N_VARIANTS; i++)
		wake_after_wait_lock(all_variants[i]);
}

/* ---- "once more" before joining the list (3.12 on) ---- */

/*
 * M holds, W sleeps on the list; N has failed its fast path and is held on
 * its way to wait_lock.  M's unlock frees the lock and wakes W, which is held
 * where it woke.  Then N goes on: 3.12-4.9 take the free lock "once more"
 * with xchg(count, 0) — no waiter marked — so N's own unlock is the fast
 * one; 2.6.x joins the list first and takes it with xchg(count, -1) behind W,
 * so N's unlock takes wait_lock; 4.10 keeps the waiters flag in the word, so
 * its unlock does too.  N's acquisition without sleeping was never queued
 * (nosleep_unqueued) from 3.12, which try before joining the list — 4.10
 * under wait_lock, as the kernel's tracepoint counts with the spin.
 */
static void once_more(const char *name, bool fast_unlock, bool unqueued)
{
	const struct lock_ops *ops = find(name);
	void *lock = sched_lock_new(ops);
	struct lock_thread *m = sched_self_new(ops, lock, 0);
	struct locker w, n;

	assert_false(ops->lock(lock, m));
	__atomic_store_n(&test_slots[0].on_cpu, 0, __ATOMIC_RELAXED);
	locker_start(&w, ops, lock, sched_self_new(ops, lock, 1));
	assert_true(wait_eq(&runstate(w.t.self)->sleeping, 1));
	n.t.self = sched_self_new(ops, lock, 2);
	holds[0] = (struct hold){ .event = ORACLE_EV_SLOW, .who = runstate(n.t.self) };
	holds[1] = (struct hold){ .event = ORACLE_EV_AWAKE, .who = runstate(w.t.self) };
	holds_install();
	locker_start(&n, ops, lock, n.t.self);
	assert_true(wait_eq(&holds[0].held, 1));
	ops->unlock(lock, m);
	assert_true(wait_eq(&holds[1].held, 1));
	hold_release(&holds[0]);
	taker_join(&n.t);
	hold_release(&holds[1]);
	taker_join(&w.t);
	holds_remove();
	assert_int_equal(n.t.self->ev.acq_nosleep, 1);
	if (n.t.self->ev.nosleep_unqueued != (unqueued ? 1u : 0u))
		print_error("%s: N was unqueued %" PRIu64 " times\n", name, n.t.self->ev.nosleep_unqueued);
	assert_int_equal(n.t.self->ev.nosleep_unqueued, unqueued ? 1 : 0);
	if (n.t.self->ev.unlock_slow != (fast_unlock ? 0u : 1u))
		print_error("%s: N's unlock took wait_lock %" PRIu64 " times\n", name, n.t.self->ev.unlock_slow);
	assert_int_equal(n.t.self->ev.unlock_slow, fast_unlock ? 0 : 1);
	free(m);
	free(w.t.self);
	free(n.t.self);
	test_lock_free(ops, lock);
}

static void once_more_before_joining_the_list(void **state)
{
	(void)state;
	once_more("kmutex-sleep", false, false);
	once_more("kmutex-spin", false, false);
	once_more("kmutex-fix", false, false);
	once_more("kmutex-mcs", true, true);
	once_more("kmutex-osq", true, true);
	once_more("kmutex-handoff", false, true);
}

/*
 * 4.10: M holds, W sleeps on the list (the waiters flag set); M's unlock
 * frees the lock, keeping the flag, and wakes W, held where it woke.  N's
 * fast path wants a flagless word and fails; the trylock before the spin
 * takes the free lock: acquired without sleeping, never queued.
 */
static void trylock_before_the_spin_is_unqueued(void **state)
{
	const struct lock_ops *ops = find("kmutex-handoff");
	void *lock = sched_lock_new(ops);
	struct lock_thread *m = sched_self_new(ops, lock, 0);
	struct locker w, n;

	(void)state;
	assert_false(ops->lock(lock, m));
	__atomic_store_n(&test_slots[0].on_cpu, 0, __ATOMIC_RELAXED);
	locker_start(&w, ops, lock, sched_self_new(ops, lock, 1));
	assert_true(wait_eq(&runstate(w.t.self)->sleeping, 1));
	holds[0] = (struct hold){ .event = ORACLE_EV_AWAKE, .who = runstate(w.t.self) };
	holds_install();
	ops->unlock(lock, m);
	assert_true(wait_eq(&holds[0].held, 1));
	locker_start(&n, ops, lock, sched_self_new(ops, lock, 2));
	taker_join(&n.t);
	hold_release(&holds[0]);
	taker_join(&w.t);
	holds_remove();
	assert_int_equal(n.t.self->ev.acq_fast, 0);
	assert_int_equal(n.t.self->ev.acq_nosleep, 1);
	assert_int_equal(n.t.self->ev.nosleep_unqueued, 1);
	free(m);
	free(w.t.self);
	free(n.t.self);
	test_lock_free(ops, lock);
}

/* ---- the owner's preemptions ---- */

/*
 * An owner switched out twice while it held the lock: owner_preempted 2,
 * with the sched oracle; without it nothing is claimed (preempt_seen 0).
 */
static void owner_preemptions_are_counted(void **state)
{
	(void)state;
	for (size_t i = 0; i < N_VARIANTS; i++) {
		const struct lock_ops *ops = find(all_variants[i]);
		void *lock = sched_lock_new(ops);
		struct lock_thread *m = sched_self_new(ops, lock, 0);
		void *plain = kmutex_new(ops, 0, ORACLE_RUNSTATE);
		struct lock_thread *r = test_self_new(ops, plain, 1);

		__atomic_add_fetch(&test_slots[0].preempted, 5, __ATOMIC_RELAXED);
		assert_false(ops->lock(lock, m));
		__atomic_add_fetch(&test_slots[0].preempted, 2, __ATOMIC_RELAXED);
		ops->unlock(lock, m);
		__atomic_add_fetch(&test_slots[0].preempted, 1, __ATOMIC_RELAXED);
		assert_false(ops->lock(lock, m));
		ops->unlock(lock, m);
		assert_int_equal(m->ev.preempt_seen, 1);
		assert_int_equal(m->ev.owner_preempted, 2);
		assert_false(ops->lock(plain, r));
		ops->unlock(plain, r);
		assert_int_equal(r->ev.preempt_seen, 0);
		assert_int_equal(r->ev.owner_preempted, 0);
		free(m);
		free(r);
		test_lock_free(ops, lock);
		test_lock_free(ops, plain);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(release_waits_for_wait_lock_before_3_15),
		cmocka_unit_test(wake_comes_after_wait_lock),
		cmocka_unit_test(once_more_before_joining_the_list),
		cmocka_unit_test(trylock_before_the_spin_is_unqueued),
		cmocka_unit_test(owner_preemptions_are_counted),
	};

	alarm(TEST_ALARM_S);
	return cmocka_run_group_tests_name("kmutex-unlock", tests, NULL, NULL);
}
