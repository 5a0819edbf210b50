/*
 * test_kmutex_waitlist.c — the kmutex family's sleeping side, step by step
 * rather than by statistics:
 *
 * - 4.10's handoff: a waiter that keeps losing (held, each time it wakes,
 *   until a hog has re-taken the lock) gets it at the second release; without
 *   handoff (kmutex-fix) the same waiter loses every round;
 * - the wait list as the kernel keeps it: a woken waiter that loses stays
 *   first, and the last waiter out clears the waiters flag.
 * Each waiter is held where the oracle's test seam (kmutex_util.h) lets the
 * test order it.  Every wait is bounded in time; alarm() ends a hung run.
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

/* ---- 4.10's handoff: a waiter that keeps losing ---- */

/*
 * A duel: the hog holds the lock; the waiter W sleeps on it.  Each round the
 * hog releases (waking W) and at once tries to re-take it, while W is held
 * where its futex wait returned until that attempt is done — W loses every
 * race it can lose.  4.10's handoff must give W the lock at the second
 * release; without it W loses every round.
 */
#define DUEL_ROUNDS 5
#define DUEL_FINAL (DUEL_ROUNDS + 1)  /* the hog releases for good */

struct duel {
	const struct lock_ops *ops;
	void *lock;
	struct lock_thread *hog, *w;
	uint32_t command;  /* test -> hog: the round to play */
	uint32_t w_round;  /* the round in which W's lock() returned; 0: not yet */
	pthread_t hog_tid, w_tid;
};

static void *duel_hog(void *arg)
{
	struct duel *d = arg;

	for (uint32_t r = 1; r <= DUEL_FINAL; r++) {
		seam_wait(&d->command, r);
		d->ops->unlock(d->lock, d->hog);
		if (r == DUEL_FINAL) {
			__atomic_store_n(&seam.attempted, r, __ATOMIC_RELEASE);
			break;
		}
		/* Re-take at once, before the woken W may try; if the release
		 * handed the lock to W, wait for it like anyone else. */
		bool retaken = d->ops->trylock(d->lock, d->hog);

		/* Release: pairs with the acquire wait in the seam hook. */
		__atomic_store_n(&seam.attempted, r, __ATOMIC_RELEASE);
		if (!retaken)
			d->ops->lock(d->lock, d->hog);
	}
	return NULL;
}

static void *duel_waiter(void *arg)
{
	struct duel *d = arg;

	d->ops->lock(d->lock, d->w);
	/* Release: pairs with the test's wait on w_round. */
	__atomic_store_n(&d->w_round, __atomic_load_n(&seam.round, __ATOMIC_ACQUIRE), __ATOMIC_RELEASE);
	d->ops->unlock(d->lock, d->w);
	return NULL;
}

/* Waits until W has lost round r (woken r times, asleep again) or owns the lock. */
static void duel_await_round(struct duel *d, uint32_t r)
{
	double end = now_s() + WAIT_S;

	for (;;) {
		if (__atomic_load_n(&d->w_round, __ATOMIC_ACQUIRE))
			return;
		/* Acquire on wakes: W cleared `sleeping` before it counted the
		 * wake-up, so a 1 seen after it is the next sleep. */
		if (__atomic_load_n(&seam.wakes, __ATOMIC_ACQUIRE) >= r &&
		    __atomic_load_n(&runstate(d->w)->sleeping, __ATOMIC_ACQUIRE))
			return;
		assert_true(now_s() < end);
		pause_briefly();
	}
}

/* Plays the duel on `name`; returns the round W got the lock in. */
static uint32_t duel(const char *name, uint64_t *handoffs)
{
	struct duel d = { .ops = find(name) };

	d.lock = kmutex_new(d.ops, 0, ORACLE_RUNSTATE);
	d.hog = test_self_new(d.ops, d.lock, 0);
	d.w = test_self_new(d.ops, d.lock, 1);
	memset(&seam, 0, sizeof(seam));
	seam.sleeper = runstate(d.w);
	oracle_set_hook(seam_hook);

	assert_false(d.ops->lock(d.lock, d.hog));
	assert_int_equal(pthread_create(&d.w_tid, NULL, duel_waiter, &d), 0);
	duel_await_round(&d, 0);  /* W spun, gave up, sleeps */
	assert_int_equal(pthread_create(&d.hog_tid, NULL, duel_hog, &d), 0);
	for (uint32_t r = 1; r <= DUEL_FINAL && !__atomic_load_n(&d.w_round, __ATOMIC_ACQUIRE); r++) {
		/* Release: the hog and the hook read the round after these. */
		__atomic_store_n(&seam.round, r, __ATOMIC_RELEASE);
		__atomic_store_n(&d.command, r, __ATOMIC_RELEASE);
		duel_await_round(&d, r);
	}
	assert_int_equal(pthread_join(d.w_tid, NULL), 0);
	/* The hog finishes its rounds on its own once W is done. */
	__atomic_store_n(&seam.round, DUEL_FINAL, __ATOMIC_RELEASE);
	__atomic_store_n(&d.command, DUEL_FINAL, __ATOMIC_RELEASE);
	assert_int_equal(pthread_join(d.hog_tid, NULL), 0);
	oracle_set_hook(NULL);
	assert_int_equal(__atomic_load_n(&seam.timed_out, __ATOMIC_ACQUIRE), 0);
	*handoffs = d.hog->ev.handoffs;
	assert_int_equal(d.w->ev.acq_sleep, 1);
	free(d.hog);
	free(d.w);
	test_lock_free(d.ops, d.lock);
	return d.w_round;
}

static void handoff_bounds_a_losing_waiter(void **state)
{
	uint64_t handoffs;

	(void)state;
	/* Round 1: W wakes, loses, claims the handoff; round 2 hands it over. */
	assert_int_equal(duel("kmutex-handoff", &handoffs), 2);
	assert_int_equal(handoffs, 1);
	/* The same duel without handoff: W loses every contested round and
	 * gets the lock only when the hog stops. */
	assert_int_equal(duel("kmutex-fix", &handoffs), DUEL_FINAL);
	assert_int_equal(handoffs, 0);
}

/* ---- the wait list as the kernel keeps it ---- */

/* A waiter that records when it got the lock (1st, 2nd, ...). */
struct queued {
	struct taker t;
	uint32_t *next_rank;
	uint32_t rank;
};

static void *queued_main(void *arg)
{
	struct queued *q = arg;

	q->t.ops->lock(q->t.lock, q->t.self);
	/* Release: pairs with the test's acquire read after the join. */
	__atomic_store_n(&q->rank, __atomic_add_fetch(q->next_rank, 1, __ATOMIC_ACQ_REL), __ATOMIC_RELEASE);
	q->t.ops->unlock(q->t.lock, q->t.self);
	return NULL;
}

static void queued_start(struct queued *q, const struct lock_ops *ops, void *lock, unsigned int id,
			 uint32_t *next_rank)
{
	*q = (struct queued){ .t = { .ops = ops, .lock = lock, .self = test_self_new(ops, lock, id) },
			      .next_rank = next_rank };
	assert_int_equal(pthread_create(&q->t.tid, NULL, queued_main, q), 0);
	/* Asleep on the wait list (after its spin, for the spinning eras). */
	assert_true(wait_eq(&runstate(q->t.self)->sleeping, 1));
}

/* Waits until `rs` woke at least `wakes` times and sleeps again. */
static bool await_asleep_again(const struct oracle_runstate *rs, uint32_t wakes)
{
	double end = now_s() + WAIT_S;

	while (!(__atomic_load_n(&seam.wakes, __ATOMIC_ACQUIRE) >= wakes &&
		 __atomic_load_n(&rs->sleeping, __ATOMIC_ACQUIRE)))
		if (now_s() > end)
			return false;
		else
			pause_briefly();
	return true;
}

/*
 * M holds; W1 then W2 sleep on the wait list.  M's unlock wakes W1, which is
 * held where it woke until M has taken the lock back; W1 loses and sleeps
 * again.  In the kernel it is still first on the list, so M's next unlock
 * wakes W1 again and W1 gets the lock before W2.  (On a futex queue W1 would
 * have gone behind W2.)
 */
static void woken_loser_stays_first(const char *name)
{
	const struct lock_ops *ops = find(name);
	void *lock = kmutex_new(ops, 0, ORACLE_RUNSTATE);
	struct lock_thread *m = test_self_new(ops, lock, 0);
	struct queued w1, w2;
	uint32_t next_rank = 0;

	assert_false(ops->lock(lock, m));
	queued_start(&w1, ops, lock, 1, &next_rank);
	queued_start(&w2, ops, lock, 2, &next_rank);
	memset(&seam, 0, sizeof(seam));
	seam.sleeper = runstate(w1.t.self);
	seam.round = 1;
	oracle_set_hook(seam_hook);
	ops->unlock(lock, m);
	assert_true(wait_eq(&seam.wakes, 1));
	assert_true(ops->trylock(lock, m));
	/* Release: pairs with the acquire wait in the seam hook. */
	__atomic_store_n(&seam.attempted, 1, __ATOMIC_RELEASE);
	assert_true(await_asleep_again(runstate(w1.t.self), 1));
	assert_int_equal(__atomic_load_n(&next_rank, __ATOMIC_ACQUIRE), 0);
	ops->unlock(lock, m);
	taker_join(&w1.t);
	taker_join(&w2.t);
	oracle_set_hook(NULL);
	assert_int_equal(__atomic_load_n(&seam.timed_out, __ATOMIC_ACQUIRE), 0);
	if (w1.rank != 1)
		print_error("%s: W1 got the lock %u%s, W2 %u%s\n", name, w1.rank,
			    w1.rank == 1 ? "st" : "nd", w2.rank, w2.rank == 1 ? "st" : "nd");
	assert_int_equal(w1.rank, 1);
	assert_int_equal(w2.rank, 2);
	free(m);
	free(w1.t.self);
	free(w2.t.self);
	test_lock_free(ops, lock);
}

static void wait_list_is_fifo_and_keeps_the_woken(void **state)
{
	(void)state;
	for (size_t i = 0; i < N_VARIANTS; i++)
		woken_loser_stays_first(all_variants[i]);
}

/*
 * The last waiter to leave the list clears the waiters flag (the kernel sets
 * count to 0 when wait_list is empty): its own unlock then takes the fast
 * path and wakes nobody.  Its acquisition counts as one after sleeping.
 */
static void last_waiter_clears_the_flag(void **state)
{
	(void)state;
	for (size_t i = 0; i < N_VARIANTS; i++) {
		const struct lock_ops *ops = find(all_variants[i]);
		void *lock = kmutex_new(ops, 0, ORACLE_RUNSTATE);
		struct lock_thread *m = test_self_new(ops, lock, 0);
		struct queued w;
		uint32_t next_rank = 0;

		assert_false(ops->lock(lock, m));
		queued_start(&w, ops, lock, 1, &next_rank);
		ops->unlock(lock, m);
		taker_join(&w.t);
		assert_int_equal(m->ev.futex_wakes, 1);
		if (w.t.self->ev.futex_wakes != 0)
			print_error("%s: the last waiter's unlock woke nobody with a futex call\n",
				    all_variants[i]);
		assert_int_equal(w.t.self->ev.futex_wakes, 0);
		assert_int_equal(w.t.self->ev.acq_sleep, 1);
		/* Free and flagless: the fast path takes it. */
		assert_false(ops->lock(lock, m));
		ops->unlock(lock, m);
		free(m);
		free(w.t.self);
		test_lock_free(ops, lock);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(handoff_bounds_a_losing_waiter),
		cmocka_unit_test(wait_list_is_fifo_and_keeps_the_woken),
		cmocka_unit_test(last_waiter_clears_the_flag),
	};

	alarm(TEST_ALARM_S);
	return cmocka_run_group_tests_name("kmutex-waitlist", tests, NULL, NULL);
}
