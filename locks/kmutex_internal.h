/*
 * kmutex_internal.h — internal to the kmutex lock, nothing else includes it.
 * One lock in three files, each calling only those below it:
 *   locks/kmutex.c        the policies, the lock word's fast path, unlock,
 *                         settings and lock_ops (mutex.c);
 *   locks/kmutex_wait.c   the wait list and the sleep (mutex.c's slow path);
 *   locks/kmutex_spin.c   the optimistic spin phase (mutex.c's
 *                         mutex_optimistic_spin()), which kmutex.c calls
 *                         first and 4.10's waiter-spinner in kmutex_wait.c
 *                         calls again;
 * and beneath them, alone, the spinner queue, MCS and OSQ (locks/spinq.h,
 * spinq.c: osq_lock.c), a type of its own that knows nothing of the mutex,
 * which only the spin phase takes.
 * The kernel keeps spin and wait in one file; here they are two only to
 * keep each short, and the calls still go one way.  Here: the state they
 * share, and the small helpers more than one of them calls on a hot path,
 * static inline, so that the cut adds no call to a spin loop.
 */
#ifndef LOCKBENCH_KMUTEX_INTERNAL_H
#define LOCKBENCH_KMUTEX_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lock.h"
#include "oracle.h"
#include "pr.h"
#include "spinq.h"

/*
 * The lock word, two ways.  From 4.10 the kernel's word is the owner with
 * flags in its low bits; here: */
enum {
	KM_LOCKED  = 1u,
	KM_WAITERS = 2u,
	KM_HANDOFF = 4u,
};

/*
 * Before 4.10 it is x86's count (asm/mutex_64.h): 1 free, 0 locked, below 0
 * locked with waiters perhaps asleep.  Here state = 1 - count, so that the
 * fast path's `lock decl` is one fetch_add: */
enum {
	KM_COUNT_FREE      = 0u,  /* count 1 */
	KM_COUNT_LOCKED    = 1u,  /* count 0: held, no waiter marked */
	KM_COUNT_CONTENDED = 2u,  /* count -1, or lower (2, 3, ...): the next unlock takes the slow path */
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

/* How the sleep path tries the count before 4.10 (__mutex_lock_common()). */
enum km_sleep_try {
	KS_XCHG,             /* 2.6.x: join the list, then xchg(count, -1) each round */
	KS_ONCE_MORE,        /* 3.12 on: "once more" xchg(count, 0) before joining the list
			      * when count >= 0 (ec83f425; 3.12-3.16, MUTEX_SHOW_NO_WAITER);
			      * then xchg(-1) only when count >= 0.  From 3.17 the "once more"
			      * wants count == 1 (!mutex_is_locked(), as in v4.0): an xchg
			      * that would change nothing spared, no model's era. */
};

/* Where the kernel eras differ; everything else is one code path. */
struct kmutex_policy {
	bool spin;                   /* optimistic spinning at all (2.6.29 on) */
	bool sleep_on_owner_change;  /* the 2.6.36 rule (2.6.36 - 4.0) */
	bool can_spin_gate;          /* mutex_can_spin_on_owner() before spinning (3.10 on) */
	enum km_queue queue;         /* who may spin on the owner */
	bool handoff;                /* 4.10: the owner word with flags kept, MUTEX_FLAG_HANDOFF,
				      * waiter-spinner, OSQ left when the predecessor is off its
				      * CPU; before it, x86's count (KM_COUNT_*) */
	bool blind_cmpxchg;          /* before 3.10: the spin loop's cmpxchg(count, 1, 0) without
				      * reading the count first */
	bool owner_cpu_fixed;        /* 2.6.29 until 2.6.39/3.0: the owner watched on the CPU it ran on when
				      * the spin began (cpu_rq(owner->cpu)->curr) */
	bool release_first;          /* 3.15-4.9: the slow unlock frees the count before taking
				      * wait_lock, not under it */
	enum km_sleep_try sleep_try; /* before 4.10 */
};

/* A wait-list entry (struct mutex_waiter), under wait_lock but for `wake`
 * and `granted`. */
struct km_waiter {
	struct km_waiter *next;
	struct km_waiter *prev;
	uint32_t wake;     /* KM_WAKE_*: the futex word this waiter sleeps on */
	uint32_t granted;  /* 4.10: 1 when an unlock handed the lock to us */
} cacheline_aligned;

/* What only its own thread touches: snapshots of its own involuntary
 * switch-outs (the sched oracle's count) where the kernel's code stops being
 * preemptible. */
struct km_private {
	uint64_t preempted_at_hold;       /* on acquiring the lock */
	uint64_t preempted_at_wait_lock;  /* on taking wait_lock */
	uint64_t preempted_at_queue;      /* on joining the spinner queue */
} cacheline_aligned;

/* lock_thread.priv: the run-state first (oracle.h's contract), then the
 * queue node, the waiter and the private part, each on its own line. */
struct kmutex_thread {
	struct oracle_runstate rs;
	struct spinq_node node;
	struct km_waiter waiter;
	struct km_private own;
};

static inline struct lock_thread *km_lock_thread(struct kmutex_thread *me)
{
	return (struct lock_thread *)((char *)me - offsetof(struct lock_thread, priv));
}

/* This thread's involuntary switch-outs so far (its own slot: a line only
 * its CPU's switches write), or 0 where the oracle cannot see them. */
static inline uint64_t km_preempted_now(const struct kmutex_thread *me)
{
	/* Relaxed: only this thread's own switch-outs change it. */
	return me->rs.slot ? pr_load(&me->rs.slot->preempted, PR_RELAXED) : 0;
}

/* wait_lock and the wait list (struct mutex's wait_lock and wait_list),
 * written only under wait_lock by sleepers and unlocks.  wait_lock is one
 * of two locks (--lock-opt wait-lock=): `lock`, a test-and-set lock that
 * yields, or `head` and `tail`, x86's FIFO ticket spinlock (2.6.25 to 4.1:
 * arch_spinlock_t's 16-bit head and tail halves; 4.2 on, queued spinlocks,
 * not modelled).  Both fit the padding before `first`: the layout is
 * unchanged. */
struct km_wait {
	uint32_t lock;
	uint16_t head;  /* ticket: the ticket now served, written by its holder */
	uint16_t tail;  /* ticket: the next ticket, taken with a fetch-add */
	struct km_waiter *first;
	struct km_waiter *last;
};

/* Where the spinner-queue tail and the wait list live (--lock-opt layout=). */
enum km_layout {
	KM_LAYOUT_LINES,   /* the default: each on a line of its own, off the owner word's */
	KM_LAYOUT_KERNEL,  /* on the owner word's line, as in struct mutex (2.6.29 on) */
	KM_LAYOUT_NR
};

struct kmutex {
	/* What every acquirer and spinner reads: the lock word, the owner hint,
	 * and the read-only settings, on one line as in struct mutex. */
	uint32_t state;
	int oracle;
	struct oracle_runstate *owner;
	const struct kmutex_policy *pol;
	uint64_t budget;                 /* TSC cycles; 0: no budget */
	/* layout=kernel: the spinner-queue tail and the wait list here, on the
	 * line of the count and the owner, as struct mutex has them: the slow
	 * unlock's wait_lock is then taken on the very line the spinners'
	 * cmpxchg hits (2.6.29-2.6.36: `count, wait_lock, wait_list, owner`;
	 * 3.10 added the MCS tail, 3.15 the OSQ's, to the same struct). */
	struct spinq kernel_queue;
	struct km_wait kernel_wait;
	/* layout=lines: the tail, written only by spinners, kept off the line
	 * the owner releases; the wait list on a third line. */
	struct spinq lines_queue __attribute__((aligned(CACHELINE)));
	struct km_wait lines_wait __attribute__((aligned(CACHELINE)));
	/* Which of the two is in use: set by init, only read after, on a line
	 * nobody writes. */
	struct spinq *queue __attribute__((aligned(CACHELINE)));
	struct km_wait *wait;
	bool wait_ticket;                /* wait_lock is the ticket spinlock */
} cacheline_aligned;
_Static_assert(offsetof(struct kmutex, kernel_wait) + sizeof(struct km_wait) <= CACHELINE,
	       "layout=kernel: the tail and the wait list must share the owner word's line");

/* ---- the lock word ---- */

/* Before 4.10 the word is x86's count; from 4.10 the owner word's flags. */
static inline bool km_count_era(const struct kmutex *l)
{
	return !l->pol->handoff;
}

/*
 * Takes the lock if it is free, keeping the flags (4.10's __mutex_trylock);
 * `handoff`: we set KM_HANDOFF as the first waiter, and it must not outlive
 * our acquisition.  Read first, as the kernel does.  A compare-and-swap that
 * loses a race is counted in *failed.
 */
static inline bool km_trylock_keep_flags(struct kmutex *l, bool handoff, uint64_t *failed)
{
	uint32_t s = pr_load(&l->state, PR_RELAXED);

	while (!(s & KM_LOCKED)) {
		uint32_t want = (s | KM_LOCKED) & ~(handoff ? KM_HANDOFF : 0u);

		/* Acquire: pairs with the release of the unlock that freed it. */
		if (pr_cas(&l->state, &s, want, PR_ACQUIRE, PR_RELAXED))
			return true;
		(*failed)++;
	}
	return false;
}

/*
 * cmpxchg(&lock->count, 1, 0) before 4.10: from 3.10 only when a read finds
 * the count 1 ("atomic_read(&lock->count) == 1 && cmpxchg"); before 3.10
 * `blind`: each attempt takes the line exclusive whatever the count, as the
 * 2.6.3x spinner herd did around every release.  A failed one is counted in
 * *failed.
 */
static inline bool km_count_cmpxchg(struct kmutex *l, bool blind, uint64_t *failed)
{
	uint32_t s = KM_COUNT_FREE;

	if (!blind && pr_load(&l->state, PR_RELAXED) != KM_COUNT_FREE)
		return false;
	/* Acquire: pairs with the release of the unlock that freed it. */
	if (pr_cas(&l->state, &s, KM_COUNT_LOCKED, PR_ACQUIRE, PR_RELAXED))
		return true;
	(*failed)++;
	return false;
}

/* mutex_set_owner(), right after the acquiring atomic; and, for the owner's
 * preemptions, where this thread's hold began. */
static inline void km_acquired(struct kmutex *l, struct kmutex_thread *me)
{
	/* Release, though the acquiring atomic orders the critical section: the
	 * hint is how spinners reach our run-state, and km_owner()'s acquire
	 * must then see it as thread_init set it (lockbench --exec makes a
	 * thread's node at its first lock: nothing older orders that).  The
	 * kernel set its owner after a locked decl (2.6.29-4.9) or with a
	 * locked cmpxchg (4.10 on), so on x86-64 our earlier stores were
	 * visible first there too; the release store is the same mov. */
	pr_store(&l->owner, &me->rs, PR_RELEASE);
	oracle_running(&me->rs, l->oracle);
	me->own.preempted_at_hold = km_preempted_now(me);
}

/* 4.10: an unlock handed us the lock (and made us the owner). */
static inline void km_handed_over(struct kmutex *l, struct kmutex_thread *me)
{
	oracle_running(&me->rs, l->oracle);
	me->own.preempted_at_hold = km_preempted_now(me);
}

/* ---- the optimistic spin phase (kmutex_spin.c) ---- */

bool km_optimistic_spin(struct kmutex *l, struct lock_thread *self, struct kmutex_thread *me,
			struct km_waiter *w);

/* ---- the wait list (kmutex_wait.c) ---- */

void km_wait_lock(struct kmutex *l, struct kmutex_thread *me);

/* Release: publishes the list to the next holder's acquire (exchange, or
 * the ticket's load of head).  First the holder's preemptions while it held
 * it (wait_lock_preempted).  The ticket's unlock is the kernel's `incb` of
 * head, not a locked add: only the holder writes head. */
static inline void km_wait_unlock(struct kmutex *l, struct kmutex_thread *me)
{
	km_lock_thread(me)->ev.wait_lock_preempted += km_preempted_now(me) - me->own.preempted_at_wait_lock;
	if (__builtin_expect(l->wait_ticket, 0)) {
		uint16_t head = pr_load(&l->wait->head, PR_RELAXED);

		pr_store(&l->wait->head, (uint16_t)(head + 1), PR_RELEASE);
		return;
	}
	pr_store(&l->wait->lock, 0, PR_RELEASE);
}

uint64_t km_wait_until_acquired(struct kmutex *l, struct lock_thread *self, struct kmutex_thread *me);

#endif
