/*
 * ck-mcs — Concurrency Kit's MCS queue lock (ck_spinlock_mcs, libck-dev
 * 0.7.1; Mellor-Crummey & Scott 1991), beside lockbench's own `mcs`.  The
 * queue node is the thread's lock_thread area, on its own cache line.
 *
 * Contention is read after the fact, exactly and for free: ck's lock sets the
 * node's `locked` flag before it swaps the node into the tail, and only a
 * predecessor handing over the lock clears it; an acquisition that found the
 * queue empty returns with the flag still set.
 */
#include <ck_spinlock.h>

#include "ck.h"

struct ck_mcs_lock {
	ck_spinlock_mcs_t tail;  /* the last queued node, NULL when free */
} cacheline_aligned;

static struct ck_spinlock_mcs *ck_mcs_node(struct lock_thread *self)
{
	return (struct ck_spinlock_mcs *)self->priv;
}

static int ck_mcs_init(void *lock, const struct lock_params *params)
{
	(void)params;
	ck_spinlock_mcs_init(&((struct ck_mcs_lock *)lock)->tail);
	return 0;
}

static void ck_mcs_destroy(void *lock)
{
	(void)lock;
}

static bool ck_mcs_lock(void *lock, struct lock_thread *self)
{
	struct ck_spinlock_mcs *node = ck_mcs_node(self);

	ck_spinlock_mcs_lock(&((struct ck_mcs_lock *)lock)->tail, node);
	CK_ACQUIRED(lock);
	/* Cleared only by a predecessor's unlock: we waited in the queue. */
	return !ck_pr_load_uint(&node->locked);
}

static void ck_mcs_unlock(void *lock, struct lock_thread *self)
{
	CK_RELEASING(lock);
	ck_spinlock_mcs_unlock(&((struct ck_mcs_lock *)lock)->tail, ck_mcs_node(self));
}

static bool ck_mcs_trylock(void *lock, struct lock_thread *self)
{
	if (!ck_spinlock_mcs_trylock(&((struct ck_mcs_lock *)lock)->tail, ck_mcs_node(self)))
		return false;
	CK_ACQUIRED(lock);
	return true;
}

const struct lock_ops lock_ops_ck_mcs = {
	.name = "ck-mcs",
	.description = "Concurrency Kit ck_spinlock_mcs: MCS queue lock, FIFO",
	.size = sizeof(struct ck_mcs_lock),
	.flags = LOCK_F_HOLDS_THREAD,
	.thread_size = sizeof(struct ck_spinlock_mcs),
	.init = ck_mcs_init,
	.destroy = ck_mcs_destroy,
	.lock = ck_mcs_lock,
	.unlock = ck_mcs_unlock,
	.trylock = ck_mcs_trylock,
};
