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
	__atomic_store_n(&((struct mcs_lock *)lock)->tail, NULL, __ATOMIC_RELAXED);
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
	__atomic_store_n(&node->waiting, 1, __ATOMIC_RELAXED);
	/* Release: pairs with the acquire load of `next` in mcs_unlock, so the
	 * predecessor sees `waiting` set before it clears it. */
	__atomic_store_n(&prev->next, node, __ATOMIC_RELEASE);
	/* Acquire: pairs with the release store of 0 in mcs_unlock. */
	while (__atomic_load_n(&node->waiting, __ATOMIC_ACQUIRE))
		cpu_relax();
}

static bool mcs_lock(void *lock, struct lock_thread *self)
{
	struct mcs_lock *l = lock;
	struct mcs_node *node = mcs_self_node(self);
	struct mcs_node *prev;

	__atomic_store_n(&node->next, NULL, __ATOMIC_RELAXED);
	/* Release: publishes next = NULL to whoever links behind us.  Acquire:
	 * pairs with the release CAS that emptied the queue in mcs_unlock, when
	 * we find it empty. */
	prev = __atomic_exchange_n(&l->tail, node, __ATOMIC_ACQ_REL);
	if (!prev)
		return false;
	mcs_wait(node, prev);
	return true;
}

static void mcs_unlock(void *lock, struct lock_thread *self)
{
	struct mcs_lock *l = lock;
	struct mcs_node *node = mcs_self_node(self);
	struct mcs_node *next = __atomic_load_n(&node->next, __ATOMIC_ACQUIRE);

	if (!next) {
		struct mcs_node *expected = node;

		/* Release: pairs with the acquire exchange of the next locker. */
		if (__atomic_compare_exchange_n(&l->tail, &expected, NULL, false,
						__ATOMIC_RELEASE, __ATOMIC_RELAXED))
			return;
		/* A successor swapped itself in but has not linked yet. */
		while (!(next = __atomic_load_n(&node->next, __ATOMIC_ACQUIRE)))
			cpu_relax();
	}
	/* Release: hands the critical section to the successor. */
	__atomic_store_n(&next->waiting, 0, __ATOMIC_RELEASE);
}

static bool mcs_trylock(void *lock, struct lock_thread *self)
{
	struct mcs_lock *l = lock;
	struct mcs_node *node = mcs_self_node(self);
	struct mcs_node *expected = NULL;

	__atomic_store_n(&node->next, NULL, __ATOMIC_RELAXED);
	/* Acquire: pairs with the release CAS that emptied the queue; release
	 * publishes node->next = NULL to a successor that links behind us. */
	return __atomic_compare_exchange_n(&l->tail, &expected, node, false,
					   __ATOMIC_ACQ_REL, __ATOMIC_RELAXED);
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
