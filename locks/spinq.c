/*
 * spinq.c — the spinner queue's out-of-line parts (locks/spinq.h): a waiter
 * leaving from the middle, osq_lock()'s unqueue (kernel/locking/osq_lock.c,
 * 3.15 on: read, not copied), and the handover to a successor still
 * linking itself in, osq_unlock()'s slow path.
 */
#include <stddef.h>

#include "spinq.h"

/*
 * Waits for a successor that swapped itself into the tail to link itself, or
 * moves the tail back to `prev` when we are last: osq_wait_next().
 */
static struct spinq_node *spinq_wait_next(struct spinq *q, struct spinq_node *node, struct spinq_node *prev)
{
	for (;;) {
		struct spinq_node *expected = node;

		/* Release: a later queuer that finds `prev` at the tail sees our
		 * unlinking; acquire: pairs with the tail exchange of a queuer. */
		if (pr_load(&q->tail, PR_RELAXED) == node &&
		    pr_cas(&q->tail, &expected, prev, PR_ACQ_REL, PR_RELAXED))
			return NULL;
		/* Exchange, not load: a concurrent unqueue of our successor must
		 * not keep seeing us as its valid `prev` (osq_lock.c Step-A).
		 * Acquire: pairs with the successor's release store of ->next. */
		if (pr_load(&node->next, PR_RELAXED)) {
			struct spinq_node *next = pr_xchg(&node->next, NULL, PR_ACQUIRE);

			if (next)
				return next;
		}
		pr_relax();
	}
}

/*
 * Leaves the queue from the middle, `prev` being our predecessor as last
 * read: osq_lock()'s unqueue, Steps A-C.  Returns true when the queue was
 * handed to us after all (we hold it then), false when we are out.
 */
bool spinq_leave(struct spinq *q, struct spinq_node *node, struct spinq_node *prev)
{
	struct spinq_node *next;

	/* A: detach from prev, or find that prev already handed over. */
	for (;;) {
		struct spinq_node *expected = node;

		/* Acq_rel, as the kernel's fully ordered cmpxchg: pairs with the
		 * acquire exchange of prev->next by prev's own unlock or unqueue
		 * (spinq_unlock_slow, spinq_wait_next), whichever wins the line. */
		if (pr_load(&prev->next, PR_RELAXED) == node &&
		    pr_cas(&prev->next, &expected, NULL, PR_ACQ_REL, PR_RELAXED))
			break;
		/* Acquire: pairs with the release store of ->locked in spinq_unlock_slow. */
		if (pr_load(&node->locked, PR_ACQUIRE))
			return true;
		pr_relax();
		/* Acquire: pairs with Step C of prev's own unqueue, which gives us a new prev. */
		prev = pr_load(&node->prev, PR_ACQUIRE);
	}
	/* B: stabilise next, or move the tail back to prev. */
	next = spinq_wait_next(q, node, prev);
	if (!next)
		return false;
	/* C: link next to prev.  Release: next reads its new prev with acquire
	 * (Step A above); prev's unlock reads ->next with acquire. */
	pr_store(&next->prev, prev, PR_RELEASE);
	pr_store(&prev->next, next, PR_RELEASE);
	return false;
}

/* spinq_unlock() when we are not last: hands the queue to the successor. */
void spinq_unlock_slow(struct spinq *q, struct spinq_node *node)
{
	struct spinq_node *next;

	/* Acquire: pairs with the successor's release store of our ->next. */
	next = pr_xchg(&node->next, NULL, PR_ACQUIRE);
	if (!next)
		next = spinq_wait_next(q, node, NULL);
	/* Release: pairs with the acquire spin on ->locked in spinq_lock. */
	if (next)
		pr_store(&next->locked, 1, PR_RELEASE);
}
