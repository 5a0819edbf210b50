/*
 * kmutex_queue.c — the kmutex spinner queue (internal to the kmutex lock:
 * locks/kmutex_internal.h), which decides who may spin on the owner.  3.10's
 * MCS lock (mspin_lock, inside struct mutex), taken around each spin attempt
 * and never left early; and its cancellable form of 3.15 on, the OSQ
 * (kernel/locking/mcs_spinlock.c, later osq_lock.c: read, not copied), held
 * for the whole spin phase and left on need_resched() or, from 4.10, when the
 * predecessor is off its CPU.  Each thread queues its own node (struct
 * kmutex_thread); struct kmutex holds the tail.
 */
#include <stddef.h>

#include "kmutex_internal.h"

/*
 * Waits for a successor that swapped itself into the tail to link itself, or
 * moves the tail back to `prev` when we are last: osq_wait_next().
 */
static struct km_node *km_queue_wait_next(struct kmutex *l, struct km_node *node, struct km_node *prev)
{
	for (;;) {
		struct km_node *expected = node;

		/* Release: a later queuer that finds `prev` at the tail sees our
		 * unlinking; acquire: pairs with the tail exchange of a queuer. */
		if (pr_load(l->queue_tail, PR_RELAXED) == node &&
		    pr_cas(l->queue_tail, &expected, prev, PR_ACQ_REL, PR_RELAXED))
			return NULL;
		/* Exchange, not load: a concurrent unqueue of our successor must
		 * not keep seeing us as its valid `prev` (osq_lock.c Step-A).
		 * Acquire: pairs with the successor's release store of ->next. */
		if (pr_load(&node->next, PR_RELAXED)) {
			struct km_node *next = pr_xchg(&node->next, NULL, PR_ACQUIRE);

			if (next)
				return next;
		}
		pr_relax();
	}
}

/* Leaves the queue from the middle: osq_lock()'s unqueue, Steps A-C.
 * Returns true when the queue was handed to us after all. */
static bool km_queue_leave(struct kmutex *l, struct km_node *node, struct km_node *prev)
{
	struct km_node *next;

	/* A: detach from prev, or find that prev already handed over. */
	for (;;) {
		struct km_node *expected = node;

		/* Acq_rel, as the kernel's fully ordered cmpxchg: pairs with the
		 * acquire exchange of prev->next by prev's own unlock or unqueue
		 * (km_queue_unlock_slow, km_queue_wait_next), whichever wins the line. */
		if (pr_load(&prev->next, PR_RELAXED) == node &&
		    pr_cas(&prev->next, &expected, NULL, PR_ACQ_REL, PR_RELAXED))
			break;
		/* Acquire: pairs with the release store of ->locked in km_queue_unlock_slow. */
		if (pr_load(&node->locked, PR_ACQUIRE))
			return true;
		pr_relax();
		/* Acquire: pairs with Step C of prev's own unqueue, which gives us a new prev. */
		prev = pr_load(&node->prev, PR_ACQUIRE);
	}
	/* B: stabilise next, or move the tail back to prev. */
	next = km_queue_wait_next(l, node, prev);
	if (!next)
		return false;
	/* C: link next to prev.  Release: next reads its new prev with acquire
	 * (Step A above); prev's unlock reads ->next with acquire. */
	pr_store(&next->prev, prev, PR_RELEASE);
	pr_store(&prev->next, next, PR_RELEASE);
	return false;
}

/* Whether a queued waiter must leave: need_resched() or the budget (3.15's
 * osq_lock), and from 4.10 a predecessor off its CPU (vcpu_is_preempted:
 * here the predecessor is a thread the scheduler can take off, as a
 * hypervisor takes a vCPU). */
static bool km_queue_should_leave(struct kmutex *l, struct km_node *node, const struct oracle_spin *spin)
{
	if (oracle_spin_over(spin) != ORACLE_SPINNING)
		return true;
	if (l->pol->handoff) {
		/* Relaxed: a hint, re-read every iteration (Step C may change it). */
		struct km_node *prev = pr_load(&node->prev, PR_RELAXED);

		return !oracle_owner_running(&km_of_node(prev)->rs, l->oracle);
	}
	return false;
}

/*
 * Joins the queue and waits to reach its head.  With `spin` NULL the wait
 * never ends early (3.10's mspin_lock); otherwise the waiter unqueues when
 * km_queue_should_leave() says so (osq_lock).
 */
bool km_queue_lock(struct kmutex *l, struct km_node *node, const struct oracle_spin *spin)
{
	struct km_node *prev;

	km_of_node(node)->own.preempted_at_queue = km_preempted_now(km_of_node(node));
	pr_store(&node->locked, 0, PR_RELAXED);
	pr_store(&node->next, NULL, PR_RELAXED);
	/* Release: publishes the node's fields to whoever links behind us;
	 * acquire: pairs with the release cmpxchg that emptied the queue. */
	prev = pr_xchg(l->queue_tail, node, PR_ACQ_REL);
	if (!prev)
		return true;
	pr_store(&node->prev, prev, PR_RELAXED);
	/* Release: pairs with the acquire read of ->next by prev's unlock, which
	 * then writes our ->locked after our initialisation. */
	pr_store(&prev->next, node, PR_RELEASE);
	/* Acquire: pairs with the release store of ->locked in km_queue_unlock_slow. */
	while (!pr_load(&node->locked, PR_ACQUIRE)) {
		if (spin && km_queue_should_leave(l, node, spin)) {
			/* Handed the queue after all: its unlock counts the rest. */
			if (km_queue_leave(l, node, pr_load(&node->prev, PR_ACQUIRE)))
				return true;
			km_queue_left(km_of_node(node));
			return false;
		}
		pr_relax();
	}
	return true;
}

/* km_queue_unlock() when we are not last: hands the queue to the successor. */
void km_queue_unlock_slow(struct kmutex *l, struct km_node *node)
{
	struct km_node *next;

	/* Acquire: pairs with the successor's release store of our ->next. */
	next = pr_xchg(&node->next, NULL, PR_ACQUIRE);
	if (!next)
		next = km_queue_wait_next(l, node, NULL);
	/* Release: pairs with the acquire spin on ->locked in km_queue_lock. */
	if (next)
		pr_store(&next->locked, 1, PR_RELEASE);
}
