/*
 * mcs — the Mellor-Crummey & Scott queue lock (TOCS 1991, "Algorithms for
 * scalable synchronization on shared-memory multiprocessors", fig. 5).  Each
 * waiter spins on a flag in its own queue node, so a release touches one
 * waiter's cache line, not all of them; FIFO.  The node lives in the thread's
 * lock_thread area.  The same queue later went inside the kernel mutex
 * (kmutex-mcs, 3.10) to let only one waiter spin on the owner.
 */
#include <stddef.h>

#include "lock.h"
#include "pr.h"

struct mcs_node {
	struct mcs_node *next;
	uint32_t waiting;  /* 1 while our predecessor holds the lock */
} cacheline_aligned;

struct mcs_lock {
	struct mcs_node *tail;
} cacheline_aligned;

static struct mcs_node *mcs_self_node(struct lock_thread *self)
{
	return (struct mcs_node *)self->priv;
}

static int mcs_init(void *lock, const struct lock_params *params)
{
	(void)params;
	pr_store(&((struct mcs_lock *)lock)->tail, NULL, PR_RELAXED);
	return 0;
}

static void mcs_destroy(void *lock)
{
	(void)lock;
}

/* Out of line, so the uncontended path carries no register saves. */
static __attribute__((noinline)) void mcs_wait(struct mcs_node *node, struct mcs_node *prev)
{
	/* Set before we link in: the predecessor can clear it only after it
	 * sees our node, which the release store below publishes. */
	pr_store(&node->waiting, 1, PR_RELAXED);
	/* Release: pairs with the acquire load of `next` in mcs_unlock, so the
	 * predecessor sees `waiting` set before it clears it. */
	pr_store(&prev->next, node, PR_RELEASE);
	/* Acquire: pairs with the release store of 0 in mcs_unlock. */
	while (pr_load(&node->waiting, PR_ACQUIRE))
		pr_relax();
}

static bool mcs_lock(void *lock, struct lock_thread *self)
{
	struct mcs_lock *l = lock;
	struct mcs_node *node = mcs_self_node(self);
	struct mcs_node *prev;

	pr_store(&node->next, NULL, PR_RELAXED);
	/* Release: publishes next = NULL to whoever links behind us.  Acquire:
	 * pairs with the release CAS that emptied the queue in mcs_unlock, when
	 * we find it empty. */
	prev = pr_xchg(&l->tail, node, PR_ACQ_REL);
	if (!prev)
		return false;
	mcs_wait(node, prev);
	return true;
}

static void mcs_unlock(void *lock, struct lock_thread *self)
{
	struct mcs_lock *l = lock;
	struct mcs_node *node = mcs_self_node(self);
	struct mcs_node *next = pr_load(&node->next, PR_ACQUIRE);

	if (!next) {
		struct mcs_node *expected = node;

		/* Release: pairs with the acquire exchange of the next locker. */
		if (pr_cas(&l->tail, &expected, NULL, PR_RELEASE, PR_RELAXED))
			return;
		/* A successor swapped itself in but has not linked yet. */
		while (!(next = pr_load(&node->next, PR_ACQUIRE)))
			pr_relax();
	}
	/* Release: hands the critical section to the successor. */
	pr_store(&next->waiting, 0, PR_RELEASE);
}

static bool mcs_trylock(void *lock, struct lock_thread *self)
{
	struct mcs_lock *l = lock;
	struct mcs_node *node = mcs_self_node(self);
	struct mcs_node *expected = NULL;

	pr_store(&node->next, NULL, PR_RELAXED);
	/* Acquire: pairs with the release CAS that emptied the queue; release
	 * publishes node->next = NULL to a successor that links behind us. */
	return pr_cas(&l->tail, &expected, node, PR_ACQ_REL, PR_RELAXED);
}

const struct lock_ops lock_ops_mcs = {
	.name = "mcs",
	.description = "MCS queue lock: FIFO, each waiter spins on its own node",
	.size = sizeof(struct mcs_lock),
	.flags = LOCK_F_HOLDS_THREAD,
	.thread_size = sizeof(struct mcs_node),
	.init = mcs_init,
	.destroy = mcs_destroy,
	.lock = mcs_lock,
	.unlock = mcs_unlock,
	.trylock = mcs_trylock,
};
