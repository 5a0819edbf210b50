/* lockutil.h — test helpers: a lock and its per-thread states outside the harness. */
#ifndef LOCKBENCH_TESTS_LOCKUTIL_H
#define LOCKBENCH_TESTS_LOCKUTIL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../locks/lock.h"

/* The longest any single step of an orchestrated scenario may take. */
#define WAIT_S 5.0

static inline double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static inline void pause_briefly(void)
{
	struct timespec ts = { 0, 50 * 1000 };

	nanosleep(&ts, NULL);
}

/* Bounded waits for another thread's store (acquire: pairs with its release
 * store); false after WAIT_S. */
static inline bool wait_u32(const uint32_t *addr, uint32_t want)
{
	double end = now_s() + WAIT_S;

	while (__atomic_load_n(addr, __ATOMIC_ACQUIRE) != want)
		if (now_s() > end)
			return false;
		else
			pause_briefly();
	return true;
}

static inline bool wait_ptr(const void *const *addr, const void *want)
{
	double end = now_s() + WAIT_S;

	while (__atomic_load_n(addr, __ATOMIC_ACQUIRE) != want)
		if (now_s() > end)
			return false;
		else
			pause_briefly();
	return true;
}

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

/* Sets a lock's option as --lock-opt KEY=VALUE does: through the lock's own
 * option table.  Aborts when the lock has no such option or refuses VALUE. */
static inline void test_lock_opt(const struct lock_ops *ops, struct lock_params *params, const char *key,
				 const char *value)
{
	const struct lock_option *o = lock_option_find(ops, key, strlen(key));
	char err[256];

	if (!o || o->set(&params->settings, value, err, sizeof(err)) != 0)
		abort();
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
