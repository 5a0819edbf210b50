/*
 * kmutex_internal.h — internal to the kmutex lock, nothing else includes it.
 * One lock in three files, cut as the kernel cuts its mutex:
 *   locks/kmutex.c        the policies, the lock word, the optimistic spin
 *                         phase, unlock, settings and lock_ops (mutex.c);
 *   locks/kmutex_queue.c  the spinner queue, MCS and OSQ (osq_lock.c);
 *   locks/kmutex_wait.c   the wait list and the sleep.
 * Here: the state they share, and the small helpers more than one of them
 * calls on a hot path, static inline, so that the cut adds no call to a spin
 * loop.
 */
#ifndef LOCKBENCH_KMUTEX_INTERNAL_H
#define LOCKBENCH_KMUTEX_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lock.h"
#include "oracle.h"

enum {
	KM_LOCKED  = 1u,
	KM_WAITERS = 2u,
	KM_HANDOFF = 4u,
};

/* A waiter's futex word: its task state, as wake_up_process() sees it. */
enum {
	KM_WAKE_RUNNING  = 0,  /* set under wait_lock before sleeping (set_task_state) */
	KM_WAKE_SLEEPING = 1,  /* in FUTEX_WAIT, or about to be: wake it */
	KM_WAKE_WOKEN    = 2,  /* an unlock woke it */
};

enum km_queue {
	KQ_NONE,  /* 2.6.29-2.6.36: every waiter spins on the owner */
	KQ_MCS,   /* 3.10-3.14: MCS lock around each attempt, no way out */
	KQ_OSQ,   /* 3.15 on: cancellable queue held for the whole spin phase */
};

/* Where the kernel eras differ; everything else is one code path. */
struct kmutex_policy {
	bool spin;                   /* optimistic spinning at all (2.6.29 on) */
	bool sleep_on_owner_change;  /* the 2.6.36 rule (2.6.36 - 4.0) */
	bool can_spin_gate;          /* mutex_can_spin_on_owner() before spinning (3.10 on) */
	enum km_queue queue;         /* who may spin on the owner */
	bool handoff;                /* 4.10: flags kept, MUTEX_FLAG_HANDOFF, waiter-spinner,
				      * OSQ left when the predecessor is off its CPU */
};

/* A spinner queue node. */
struct km_node {
	struct km_node *next;
	struct km_node *prev;
	uint32_t locked;  /* 1: the queue was handed to us */
} cacheline_aligned;

/* A wait-list entry (struct mutex_waiter), under wait_lock but for `wake`
 * and `granted`. */
struct km_waiter {
	struct km_waiter *next;
	struct km_waiter *prev;
	uint32_t wake;     /* KM_WAKE_*: the futex word this waiter sleeps on */
	uint32_t granted;  /* 4.10: 1 when an unlock handed the lock to us */
} cacheline_aligned;

/* lock_thread.priv: the run-state first (oracle.h's contract), then the
 * queue node and the waiter, each on its own line. */
struct kmutex_thread {
	struct oracle_runstate rs;
	struct km_node node;
	struct km_waiter waiter;
};

struct kmutex {
	/* What every acquirer and spinner reads: the lock word, the owner hint,
	 * and the read-only settings, on one line as in struct mutex. */
	uint32_t state;
	int oracle;
	struct oracle_runstate *owner;
	const struct kmutex_policy *pol;
	uint64_t budget;                 /* TSC cycles; 0: no budget */
	/* Written only by spinners: kept off the line the owner releases. */
	struct km_node *queue_tail __attribute__((aligned(CACHELINE)));
	/* The wait list, written only under wait_lock by sleepers and unlocks. */
	uint32_t wait_lock __attribute__((aligned(CACHELINE)));
	struct km_waiter *wait_first;
	struct km_waiter *wait_last;
} cacheline_aligned;

/* ---- the lock word ---- */

/*
 * Takes the lock if it is free, keeping the flags (4.10's __mutex_trylock;
 * before 4.10 a free lock has none); `handoff`: we set KM_HANDOFF as the
 * first waiter, and it must not outlive our acquisition.  Read first, so a
 * spinner does not bounce the line (3.10 on: "atomic_read(&lock->count) ==
 * 1 && cmpxchg").
 */
static inline bool km_trylock_keep_flags(struct kmutex *l, bool handoff)
{
	uint32_t s = __atomic_load_n(&l->state, __ATOMIC_RELAXED);

	while (!(s & KM_LOCKED)) {
		uint32_t want = (s | KM_LOCKED) & ~(handoff ? KM_HANDOFF : 0u);

		/* Acquire: pairs with the release of the unlock that freed it. */
		if (__atomic_compare_exchange_n(&l->state, &s, want, false,
						__ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
			return true;
	}
	return false;
}

/* mutex_set_owner(), right after the acquiring atomic. */
static inline void km_acquired(struct kmutex *l, struct kmutex_thread *me)
{
	/* Relaxed: a hint; the acquiring atomic orders the critical section. */
	__atomic_store_n(&l->owner, &me->rs, __ATOMIC_RELAXED);
	oracle_running(&me->rs, l->oracle);
}

/* ---- the spinner queue (kmutex_queue.c) ---- */

bool km_queue_lock(struct kmutex *l, struct km_node *node, const struct oracle_spin *spin);
void km_queue_unlock_slow(struct kmutex *l, struct km_node *node);

/* Leaves the queue; a successor, if any, is handed it out of line.  Inline:
 * kmutex-mcs takes and leaves the queue on every attempt of its spin loop. */
static inline void km_queue_unlock(struct kmutex *l, struct km_node *node)
{
	struct km_node *expected = node;

	/* Release: pairs with the acquire exchange of the next queuer. */
	if (__atomic_compare_exchange_n(&l->queue_tail, &expected, NULL, false,
					__ATOMIC_RELEASE, __ATOMIC_RELAXED))
		return;
	km_queue_unlock_slow(l, node);
}

/* ---- the optimistic spin phase (kmutex.c) ---- */

bool km_optimistic_spin(struct kmutex *l, struct lock_thread *self, struct kmutex_thread *me,
			struct km_waiter *w);

/* ---- the wait list (kmutex_wait.c) ---- */

void km_wait_lock(struct kmutex *l);

/* Release: publishes the list to the next holder's acquire exchange. */
static inline void km_wait_unlock(struct kmutex *l)
{
	__atomic_store_n(&l->wait_lock, 0, __ATOMIC_RELEASE);
}

uint64_t km_wait_until_acquired(struct kmutex *l, struct lock_thread *self, struct kmutex_thread *me);

#endif
