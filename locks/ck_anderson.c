/*
 * ck-anderson — Concurrency Kit's array-based queue lock (ck_spinlock_anderson,
 * libck-dev 0.7.1; Anderson 1990): a fetch-and-add on `next` hands each waiter
 * a slot of an array, where it spins until its predecessor clears the flag.
 *
 * The array needs a slot per thread that can wait at once, so init sizes it
 * from the run's thread count (lock_params.threads), rounded up to a power of
 * two so ck takes its fetch-and-add path rather than a compare-and-swap loop
 * and a division.  ck packs the slots 8 bytes apart, eight to a cache line,
 * and so does this adapter: that is ck's lock as its users get it.
 *
 * ck has no Anderson trylock; ck_anderson_trylock below is ours, over ck's
 * data: it takes the next slot only when that slot is already free.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <ck_spinlock.h>

#include "ck.h"

struct ck_anderson_lock {
	ck_spinlock_anderson_t a;    /* ck's: slots, count, mask; `next` on its own line */
} cacheline_aligned;

/* Per thread: the slot of the acquisition in progress, for unlock. */
struct ck_anderson_thread {
	ck_spinlock_anderson_thread_t *slot;
};

static struct ck_anderson_thread *ck_anderson_self(struct lock_thread *self)
{
	return (struct ck_anderson_thread *)self->priv;
}

static unsigned int pow2_at_least(unsigned int n)
{
	unsigned int p = 2;

	while (p < n)
		p <<= 1;
	return p;
}

static int ck_anderson_init(void *lock, const struct lock_params *params)
{
	struct ck_anderson_lock *l = lock;
	unsigned int count = pow2_at_least(ck_threads(params));
	size_t bytes = ALIGN_UP(count * sizeof(ck_spinlock_anderson_thread_t), CACHELINE);
	ck_spinlock_anderson_thread_t *slots = aligned_alloc(CACHELINE, bytes);

	if (!slots)
		return -ENOMEM;
	memset(slots, 0, bytes);
	ck_spinlock_anderson_init(&l->a, slots, count);
	return 0;
}

static void ck_anderson_destroy(void *lock)
{
	struct ck_anderson_lock *l = lock;

	free(l->a.slots);
	l->a.slots = NULL;
}

/*
 * Takes the slot `next` names if it is free, moving `next` on with a
 * compare-and-swap instead of ck's fetch-and-add.  If `next` did not move,
 * nobody took that slot meanwhile, so it is still free: its flag is set only
 * by its taker.  (The array has a slot for every thread, so the slot cannot
 * be a whole lap behind, still owed to a waiter of the previous round.)
 */
static bool ck_anderson_trylock(void *lock, struct lock_thread *self)
{
	struct ck_anderson_lock *l = lock;
	unsigned int next = ck_pr_load_uint(&l->a.next);
	unsigned int position = next & l->a.mask;

	if (ck_pr_load_uint(&l->a.slots[position].locked))
		return false;
	if (!ck_pr_cas_uint(&l->a.next, next, next + 1))
		return false;
	/* What ck_spinlock_anderson_lock does once its slot is free. */
	ck_pr_fence_load();
	ck_pr_store_uint(&l->a.slots[position].locked, true);
	ck_pr_fence_lock();
	ck_anderson_self(self)->slot = &l->a.slots[position];
	CK_ACQUIRED(lock);
	return true;
}

static bool ck_anderson_lock(void *lock, struct lock_thread *self)
{
	struct ck_anderson_lock *l = lock;

	if (ck_anderson_trylock(lock, self))
		return false;
	ck_spinlock_anderson_lock(&l->a, &ck_anderson_self(self)->slot);
	CK_ACQUIRED(lock);
	return true;
}

static void ck_anderson_unlock(void *lock, struct lock_thread *self)
{
	struct ck_anderson_lock *l = lock;

	CK_RELEASING(lock);
	ck_spinlock_anderson_unlock(&l->a, ck_anderson_self(self)->slot);
}

const struct lock_ops lock_ops_ck_anderson = {
	.name = "ck-anderson",
	.description = "Concurrency Kit ck_spinlock_anderson: array queue lock, FIFO, a slot per waiter",
	.size = sizeof(struct ck_anderson_lock),
	.flags = LOCK_F_PER_LOCK_THREAD,
	.thread_size = sizeof(struct ck_anderson_thread),
	.init = ck_anderson_init,
	.destroy = ck_anderson_destroy,
	.lock = ck_anderson_lock,
	.unlock = ck_anderson_unlock,
	.trylock = ck_anderson_trylock,
};
