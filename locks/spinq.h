/*
 * spinq.h — a spinner queue: an MCS lock whose waiter may leave before its
 * turn comes, the kernel's optimistic spin queue (kernel/locking/osq_lock.c,
 * 3.15 on: read, not copied), and, never left, 3.10's mspin_lock.  A queue
 * is one tail pointer; each waiter brings its own node, and a waiter spins
 * on its own node only.  It knows nothing of what it guards: whoever reaches
 * the head spins on something else (kmutex: the owner), and when a waiter
 * must give up is the caller's to say (spinq_should_leave_fn), as osq_lock()
 * asks need_resched() and vcpu_is_preempted() and nothing of the mutex.
 *
 * Lock and unlock are inline: kmutex-mcs takes and leaves the queue on every
 * attempt of its spin loop; and the lock always, so that a caller's leave
 * test, a constant there, is inlined into the wait as a direct call (no
 * indirect call in a spin loop, no copy of the test left out of line).  Leaving
 * from the middle and the handover to a successor that is still linking in
 * are out of line (spinq.c).
 */
#ifndef LOCKBENCH_SPINQ_H
#define LOCKBENCH_SPINQ_H

#include <stdbool.h>
#include <stdint.h>

#include "arch.h"
#include "pr.h"

/* A waiter's place in the queue (struct optimistic_spin_node), on a line of
 * its own: only its predecessor writes it, to link behind it and to hand
 * it the queue. */
struct spinq_node {
	struct spinq_node *next;
	struct spinq_node *prev;
	uint32_t locked;  /* 1: the queue was handed to us */
} cacheline_aligned;

/* The queue: its last waiter, NULL when empty (struct optimistic_spin_queue;
 * the kernel keeps a CPU number, here the node itself). */
struct spinq {
	struct spinq_node *tail;
};

/* Whether the waiter at `node` must give up now; `ctx` is the caller's.  Its
 * predecessor, for a test that looks at it, is spinq_prev(node). */
typedef bool spinq_should_leave_fn(struct spinq_node *node, void *ctx);

bool spinq_leave(struct spinq *q, struct spinq_node *node, struct spinq_node *prev);
void spinq_unlock_slow(struct spinq *q, struct spinq_node *node);

static inline void spinq_init(struct spinq *q)
{
	pr_store(&q->tail, NULL, PR_RELAXED);
}

/* Whether anyone holds the queue or waits in it (osq_is_locked()).  Relaxed:
 * a snapshot. */
static inline bool spinq_is_locked(struct spinq *q)
{
	return pr_load(&q->tail, PR_RELAXED) != NULL;
}

/* The waiter's predecessor now, a hint: an unqueue ahead of it may change
 * it at any time.  Relaxed: re-read on every test. */
static inline struct spinq_node *spinq_prev(struct spinq_node *node)
{
	return pr_load(&node->prev, PR_RELAXED);
}

/*
 * Joins the queue and waits to reach its head; true once there.  With
 * `should_leave` NULL the wait never ends early (3.10's mspin_lock);
 * otherwise the waiter leaves the queue as soon as it says so, and false
 * is returned (osq_lock()).  A waiter handed the queue while it was
 * leaving holds it: true.
 */
static inline __attribute__((always_inline)) bool spinq_lock(struct spinq *q, struct spinq_node *node,
							     spinq_should_leave_fn *should_leave, void *ctx)
{
	struct spinq_node *prev;

	pr_store(&node->locked, 0, PR_RELAXED);
	pr_store(&node->next, NULL, PR_RELAXED);
	/* Release: publishes the node's fields to whoever links behind us;
	 * acquire: pairs with the release cmpxchg that emptied the queue. */
	prev = pr_xchg(&q->tail, node, PR_ACQ_REL);
	if (!prev)
		return true;
	pr_store(&node->prev, prev, PR_RELAXED);
	/* Release: pairs with the acquire read of ->next by prev's unlock, which
	 * then writes our ->locked after our initialisation. */
	pr_store(&prev->next, node, PR_RELEASE);
	/* Acquire: pairs with the release store of ->locked in spinq_unlock_slow. */
	while (!pr_load(&node->locked, PR_ACQUIRE)) {
		/* Acquire: pairs with Step C of prev's own unqueue (spinq_leave). */
		if (should_leave && should_leave(node, ctx))
			return spinq_leave(q, node, pr_load(&node->prev, PR_ACQUIRE));
		pr_relax();
	}
	return true;
}

/* Leaves the head of the queue; a successor, if any, is handed it out of
 * line. */
static inline void spinq_unlock(struct spinq *q, struct spinq_node *node)
{
	struct spinq_node *expected = node;

	/* Release: pairs with the acquire exchange of the next queuer. */
	if (pr_cas(&q->tail, &expected, NULL, PR_RELEASE, PR_RELAXED))
		return;
	spinq_unlock_slow(q, node);
}

#endif
