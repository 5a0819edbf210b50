/*
 * standalone.h — a lock and its per-thread state outside the harness, for
 * code that drives a lock directly (the tests through tests/lockutil.h, and
 * scripts/uncontended.c).  Allocation failure aborts: these are not for the
 * benchmark's own data path, which reports errors through bench_fail() (bench/core/harness.c).
 */
#ifndef LOCKBENCH_LOCKS_STANDALONE_H
#define LOCKBENCH_LOCKS_STANDALONE_H

#include <stdlib.h>
#include <string.h>

#include "lock.h"

/* A zeroed, initialised lock with default parameters. */
static inline void *lock_new_standalone(const struct lock_ops *ops)
{
	size_t size = ALIGN_UP(ops->size, CACHELINE_PAIR);
	void *lock = aligned_alloc(CACHELINE_PAIR, size);
	struct lock_params params = { 0 };

	if (!lock)
		abort();
	memset(lock, 0, size);
	if (ops->init(lock, &params) != 0)
		abort();
	return lock;
}

static inline void lock_free_standalone(const struct lock_ops *ops, void *lock)
{
	ops->destroy(lock);
	free(lock);
}

/* A lock_thread for `ops`; call from the thread that will use it. */
static inline struct lock_thread *lock_thread_new_standalone(const struct lock_ops *ops, void *lock,
								unsigned int id)
{
	size_t size = LOCK_THREAD_SIZE(ops);
	struct lock_thread *self = aligned_alloc(CACHELINE, size);

	if (!self)
		abort();
	memset(self, 0, size);
	self->id = id;
	if (ops->thread_init)
		ops->thread_init(lock, self);
	return self;
}

#endif
