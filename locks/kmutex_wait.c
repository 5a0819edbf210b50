/*
 * kmutex_wait.c — the kmutex wait list and the sleep (internal to the kmutex
 * lock: locks/kmutex_internal.h): __mutex_lock_common()'s loop after the spin
 * phase, before 4.10 (the waiter's xchg) and from 4.10 (the first waiter sets
 * KM_HANDOFF and spins as the waiter-spinner, kmutex_spin.c's spin phase).
 * The waking side, in unlock, is kmutex.c's, which calls in here for
 * wait_lock; nothing here calls kmutex.c.
 */
#include "kmutex_internal.h"

/* wait_lock: spins this often before yielding to a preempted holder. */
#define KM_WAIT_LOCK_SPINS 256

/* The kernel's wait_lock (wait-lock=ticket): x86's ticket spinlock, one
 * fetch-add on the tail, then pauses until head serves our ticket: FIFO, no
 * yield (the kernel spins with preemption off; a preempted userspace holder
 * or next-in-line stalls every later ticket).  Acquire: pairs with
 * km_wait_unlock's release store of head. */
static void km_wait_lock_ticket(struct km_wait *w)
{
	uint16_t me = pr_fetch_add(&w->tail, 1, PR_RELAXED);

	while (pr_load(&w->head, PR_ACQUIRE) != me)
		pr_relax();
}

/* Today's wait_lock (wait-lock=tas-yield): test-and-set, yielding after
 * KM_WAIT_LOCK_SPINS passes.  Acquire: pairs with km_wait_unlock's release
 * store of 0. */
static inline void km_wait_lock_tas(struct km_wait *w)
{
	unsigned int spins = 0;

	while (pr_xchg(&w->lock, 1, PR_ACQUIRE))
		while (pr_load(&w->lock, PR_RELAXED)) {
			/* The holder may have been preempted (the kernel's
			 * cannot be): let it run rather than spin a timeslice. */
			if (++spins < KM_WAIT_LOCK_SPINS)
				pr_relax();
			else
				pr_yield();
		}
}

/* spin_lock_mutex(&lock->wait_lock) (kmutex_internal.h's km_wait_unlock
 * releases it).  Then where its holder's preemptions begin (the kernel's
 * holder runs with preemption off). */
void km_wait_lock(struct kmutex *l, struct kmutex_thread *me)
{
	if (__builtin_expect(l->wait_ticket, 0))
		km_wait_lock_ticket(l->wait);
	else
		km_wait_lock_tas(l->wait);
	me->own.preempted_at_wait_lock = km_preempted_now(me);
	oracle_test_event(ORACLE_EV_WAIT_LOCKED, &me->rs, NULL);
}

/* list_add_tail(&waiter->list, &lock->wait_list), under wait_lock.  The
 * first pointer is also read without the lock (4.10's is-first test): a
 * relaxed atomic store, a hint there.  The rest are plain accesses, not
 * pr.h's: through pr_load/pr_store they compile to other instructions
 * (scripts/objdump-same.sh), which the native build must not; so the
 * simulated build does not see them either. */
static void km_list_add_tail(struct kmutex *l, struct km_waiter *w)
{
	w->next = NULL;
	w->prev = l->wait->last;
	if (l->wait->last)
		l->wait->last->next = w;
	else
		pr_store(&l->wait->first, w, PR_RELAXED);
	l->wait->last = w;
}

/* mutex_remove_waiter(), under wait_lock. */
static void km_list_remove(struct kmutex *l, struct km_waiter *w)
{
	if (w->prev)
		w->prev->next = w->next;
	else
		pr_store(&l->wait->first, w->next, PR_RELAXED);
	if (w->next)
		w->next->prev = w->prev;
	else
		l->wait->last = w->prev;
}

/* __mutex_waiter_is_first(), read without wait_lock as 4.10 does. */
static bool km_is_first(struct kmutex *l, struct km_waiter *w)
{
	return pr_load(&l->wait->first, PR_RELAXED) == w;
}

/* schedule(), after wait_lock was dropped; returns the futex waits (0: an
 * unlock woke us before we slept). */
static uint64_t km_sleep(struct kmutex *l, struct kmutex_thread *me)
{
	uint32_t *wake = &me->waiter.wake;
	uint32_t running = KM_WAKE_RUNNING;

	/* Relaxed: the futex compares the word itself; WOKEN means skip. */
	if (!pr_cas(wake, &running, KM_WAKE_SLEEPING, PR_RELAXED, PR_RELAXED))
		return 0;
	oracle_sleeping(&me->rs, l->oracle);
	pr_futex_wait(wake, KM_WAKE_SLEEPING);
	oracle_awake(&me->rs, l->oracle);
	return 1;
}

/*
 * The waiter's try before 4.10: atomic_xchg(&lock->count, -1) == 1, which
 * marks the count contended whether or not it takes the lock; from 3.10 only
 * when the count reads >= 0 ("to avoid unnecessary xchg operations").
 */
static bool km_count_waiter_xchg(struct kmutex *l)
{
	if (l->pol->sleep_try != KS_XCHG &&
	    pr_load(&l->state, PR_RELAXED) > KM_COUNT_LOCKED)
		return false;
	/* Acquire: pairs with the release of the unlock that freed it. */
	return pr_xchg(&l->state, KM_COUNT_CONTENDED, PR_ACQUIRE) == KM_COUNT_FREE;
}

/*
 * Under wait_lock, before joining the list: 3.12's "once more, can we
 * acquire the lock?", atomic_xchg(&lock->count, 0) == 1, tried when the count
 * is >= 0 (MUTEX_SHOW_NO_WAITER, 3.12-3.16: kmutex-mcs and kmutex-osq's 3.15;
 * the == 1 of 3.17-4.9 is no model's); 4.10's "after waiting to acquire the
 * wait_lock, try again".  2.6.x joins the list first.
 */
static bool km_try_before_queueing(struct kmutex *l)
{
	uint64_t lost = 0;
	uint32_t s;

	if (!km_count_era(l))
		return km_trylock_keep_flags(l, false, &lost);
	if (l->pol->sleep_try == KS_XCHG)
		return false;
	s = pr_load(&l->state, PR_RELAXED);
	if (s > KM_COUNT_LOCKED)
		return false;
	/* Acquire: pairs with the release of the unlock that freed it. */
	return pr_xchg(&l->state, KM_COUNT_LOCKED, PR_ACQUIRE) == KM_COUNT_FREE;
}

/* 4.10: an unlock handed us the lock, or it is free (flags kept). */
static bool km_waiter_trylock(struct kmutex *l, struct kmutex_thread *me, bool first)
{
	uint64_t lost = 0;

	/* Acquire: pairs with the release store of the grant in km_hand_over
	 * (kmutex.c), which also made us the owner. */
	if (first && pr_load(&me->waiter.granted, PR_ACQUIRE)) {
		km_handed_over(l, me);
		return true;
	}
	if (!km_trylock_keep_flags(l, first, &lost))
		return false;
	km_acquired(l, me);
	return true;
}

/* After acquiring, under wait_lock: leave the list; the last waiter out
 * clears the flags ("set it to 0 if there are no waiters left"). */
static void km_waiter_done(struct kmutex *l, struct kmutex_thread *me)
{
	km_list_remove(l, &me->waiter);
	pr_store(&me->waiter.granted, 0, PR_RELAXED);
	if (l->wait->first)
		return;
	/* Relaxed: we hold the lock, and unlock's release orders what follows. */
	if (km_count_era(l))
		pr_store(&l->state, KM_COUNT_LOCKED, PR_RELAXED);
	else
		pr_fetch_and(&l->state, ~(KM_WAITERS | KM_HANDOFF), PR_RELAXED);
}

/* Drops wait_lock and sleeps: the loop's one sleep (the caller takes wait_lock again). */
static uint64_t km_wait_once(struct kmutex *l, struct kmutex_thread *me)
{
	uint64_t waits;

	/* set_task_state() under wait_lock: an unlock from now on wakes us. */
	pr_store(&me->waiter.wake, KM_WAKE_RUNNING, PR_RELAXED);
	km_wait_unlock(l, me);
	waits = km_sleep(l, me);
	return waits;
}

/* The wait-list loop of __mutex_lock_common() before 4.10; returns the futex
 * waits.  Holds wait_lock on entry and on return. */
static uint64_t km_wait_classic(struct kmutex *l, struct kmutex_thread *me)
{
	uint64_t waits = 0;

	km_list_add_tail(l, &me->waiter);
	while (!km_count_waiter_xchg(l)) {
		waits += km_wait_once(l, me);
		km_wait_lock(l, me);
	}
	km_acquired(l, me);
	return waits;
}

/* The same loop from 4.10: the first waiter, once woken, sets KM_HANDOFF
 * and spins as the waiter-spinner before trying again. */
static uint64_t km_wait_handoff(struct kmutex *l, struct lock_thread *self, struct kmutex_thread *me)
{
	uint64_t waits = 0;
	bool first = false;

	km_list_add_tail(l, &me->waiter);
	if (km_is_first(l, &me->waiter))
		pr_fetch_or(&l->state, KM_WAITERS, PR_RELAXED);
	while (!km_waiter_trylock(l, me, first)) {
		waits += km_wait_once(l, me);
		if (!first && km_is_first(l, &me->waiter)) {
			first = true;
			/* Relaxed: the unlock that reads it takes wait_lock. */
			pr_fetch_or(&l->state, KM_HANDOFF, PR_RELAXED);
		}
		if ((first && km_optimistic_spin(l, self, me, &me->waiter)) ||
		    km_waiter_trylock(l, me, first)) {
			km_wait_lock(l, me);
			break;
		}
		km_wait_lock(l, me);
	}
	return waits;
}

/* The sleep phase; returns the futex waits (0: acquired without sleeping). */
uint64_t km_wait_until_acquired(struct kmutex *l, struct lock_thread *self, struct kmutex_thread *me)
{
	uint64_t waits;

	oracle_test_event(ORACLE_EV_SLOW, &me->rs, NULL);
	km_wait_lock(l, me);
	if (km_try_before_queueing(l)) {
		km_acquired(l, me);
		km_wait_unlock(l, me);
		self->ev.nosleep_unqueued++;  /* and acq_nosleep: no wait (kmutex_lock) */
		return 0;
	}
	waits = km_count_era(l) ? km_wait_classic(l, me) : km_wait_handoff(l, self, me);
	km_waiter_done(l, me);
	km_wait_unlock(l, me);
	return waits;
}
