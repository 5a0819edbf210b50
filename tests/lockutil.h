/* lockutil.h — test helpers: a lock and its per-thread states outside the harness. */
#ifndef LOCKBENCH_TESTS_LOCKUTIL_H
#define LOCKBENCH_TESTS_LOCKUTIL_H

#include <stdlib.h>
#include <string.h>

#include "../locks/lock.h"

static inline void *test_lock_new(const struct lock_ops *ops)
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

static inline void test_lock_free(const struct lock_ops *ops, void *lock)
{
	ops->destroy(lock);
	free(lock);
}

/* A lock_thread for `ops`; call from the thread that will use it. */
static inline struct lock_thread *test_self_new(const struct lock_ops *ops, void *lock, unsigned int id)
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
