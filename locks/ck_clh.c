/*
 * ck-clh — Concurrency Kit's CLH queue lock (ck_spinlock_clh, libck-dev
 * 0.7.1; Craig 1993, Magnusson, Landin & Hagersten 1994).  A waiter swaps its
 * node into the tail and spins on its predecessor's node; unlock clears its
 * own node's flag and takes the predecessor's node for its next acquisition,
 * so nodes wander from thread to thread.
 *
 * Because they wander, a node cannot live in a lock_thread, which a thread may
 * free while the lock goes on (the tests do): the lock owns them, one per
 * thread of the run (lock_params.threads) plus its initial free node, in one
 * array allocated at init, each on its own cache line, handed out by
 * thread_init.
 *
 * ck has no CLH trylock; ck_clh_trylock below is ours, over ck's data: it
 * joins the queue only by a compare-and-swap on a tail whose node says free.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ck_spinlock.h>

#include "ck.h"

struct ck_clh_node {
	ck_spinlock_clh_t node;
} cacheline_aligned;

struct ck_clh_lock {
	ck_spinlock_clh_t *tail;     /* ck's queue: the last node in it */
	struct ck_clh_node *pool;    /* threads + 1 nodes; [0] starts as the free tail */
	unsigned int pool_len;
	unsigned int pool_used;      /* handed out so far (thread_init) */
} cacheline_aligned;

/* Per thread: the node this thread will queue with next. */
struct ck_clh_thread {
	ck_spinlock_clh_t *mine;
};

static struct ck_clh_thread *ck_clh_self(struct lock_thread *self)
{
	return (struct ck_clh_thread *)self->priv;
}

static int ck_clh_init(void *lock, const struct lock_params *params)
{
	struct ck_clh_lock *l = lock;
	size_t len = (size_t)ck_threads(params) + 1;

	l->pool = aligned_alloc(CACHELINE, len * sizeof(*l->pool));
	if (!l->pool)
		return -ENOMEM;
	memset(l->pool, 0, len * sizeof(*l->pool));
	l->pool_len = (unsigned int)len;
	l->pool_used = 1;
	ck_spinlock_clh_init(&l->tail, &l->pool[0].node);
	return 0;
}

static void ck_clh_destroy(void *lock)
{
	struct ck_clh_lock *l = lock;

	free(l->pool);
	l->pool = NULL;
}

/* Setup, before the run: more threads than init was told of is a bug. */
static void ck_clh_thread_init(void *lock, struct lock_thread *self)
{
	struct ck_clh_lock *l = lock;
	/* Relaxed: each caller only needs a distinct index; the node it names
	 * was zeroed at init, before any thread started. */
	unsigned int i = __atomic_fetch_add(&l->pool_used, 1, __ATOMIC_RELAXED);

	if (i >= l->pool_len) {
		fprintf(stderr, "lockbench: ck-clh: more threads than the %u the lock was sized for\n",
			l->pool_len - 1);
		abort();
	}
	ck_clh_self(self)->mine = &l->pool[i].node;
}

/*
 * Joins the queue only when the tail's node is free, with a compare-and-swap
 * instead of ck's unconditional swap.  The free node read can have been
 * recycled in between (its successor released, took it as its own, and
 * queued it again: ABA); then the swap queued us behind a live node, and we
 * wait for it exactly as ck's lock would — at most one critical section.
 */
static bool ck_clh_trylock(void *lock, struct lock_thread *self)
{
	struct ck_clh_lock *l = lock;
	ck_spinlock_clh_t *mine = ck_clh_self(self)->mine;
	ck_spinlock_clh_t *tail = ck_pr_load_ptr(&l->tail);

	if (ck_pr_load_uint(&tail->wait))
		return false;
	/* As ck_spinlock_clh_lock: our successor must see us held. */
	ck_pr_store_uint(&mine->wait, true);
	ck_pr_fence_store_atomic();
	if (!ck_pr_cas_ptr(&l->tail, tail, mine))
		return false;
	mine->previous = tail;
	ck_pr_fence_load();
	while (ck_pr_load_uint(&tail->wait))
		ck_pr_stall();
	ck_pr_fence_lock();
	CK_ACQUIRED(lock);
	return true;
}

static bool ck_clh_lock(void *lock, struct lock_thread *self)
{
	struct ck_clh_lock *l = lock;

	if (ck_clh_trylock(lock, self))
		return false;
	ck_spinlock_clh_lock(&l->tail, ck_clh_self(self)->mine);
	CK_ACQUIRED(lock);
	return true;
}

static void ck_clh_unlock(void *lock, struct lock_thread *self)
{
	CK_RELEASING(lock);
	ck_spinlock_clh_unlock(&ck_clh_self(self)->mine);
}

const struct lock_ops lock_ops_ck_clh = {
	.name = "ck-clh",
	.description = "Concurrency Kit ck_spinlock_clh: CLH queue lock, FIFO, spins on the predecessor's node",
	.size = sizeof(struct ck_clh_lock),
	.flags = LOCK_F_PER_LOCK_THREAD,
	.thread_size = sizeof(struct ck_clh_thread),
	.init = ck_clh_init,
	.destroy = ck_clh_destroy,
	.thread_init = ck_clh_thread_init,
	.lock = ck_clh_lock,
	.unlock = ck_clh_unlock,
	.trylock = ck_clh_trylock,
};
