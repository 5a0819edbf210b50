/* lockutil.h — test helpers: a lock and its per-thread states outside the harness. */
#ifndef LOCKBENCH_TESTS_LOCKUTIL_H
#define LOCKBENCH_TESTS_LOCKUTIL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../locks/lock.h"
#include "../locks/standalone.h"

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

/*
 * Bounded wait for another thread's store: true once *addr == want (an
 * acquire load, pairing with its release store), false after WAIT_S.  A
 * macro so one loop serves every type __atomic_load_n takes (uint32_t
 * flags, pointers).
 */
#define wait_eq(addr, want)                                                   \
	({                                                                    \
		double wait_end_ = now_s() + WAIT_S;                          \
		bool wait_ok_ = true;                                         \
		while (__atomic_load_n((addr), __ATOMIC_ACQUIRE) != (want)) { \
			if (now_s() > wait_end_) {                            \
				wait_ok_ = false;                             \
				break;                                        \
			}                                                     \
			pause_briefly();                                      \
		}                                                             \
		wait_ok_;                                                     \
	})

/* Sets a lock's option as --lock-opt KEY=VALUE does: through the lock's own
 * option table.  Aborts when the lock has no such option or refuses VALUE. */
static inline void test_lock_opt(const struct lock_ops *ops, struct lock_params *params, const char *key,
				 const char *value)
{
	const struct option_def *o = lock_option_find(ops, key, strlen(key));
	char err[256];

	if (!o || o->set(params->settings.bytes, value, err, sizeof(err)) != 0)
		abort();
}

/* The standalone lock helpers live in locks/standalone.h (scripts/uncontended.c
 * uses them too); these are their names in the tests. */
static inline void *test_lock_new(const struct lock_ops *ops)
{
	return lock_new_standalone(ops);
}

static inline void test_lock_free(const struct lock_ops *ops, void *lock)
{
	lock_free_standalone(ops, lock);
}

static inline struct lock_thread *test_self_new(const struct lock_ops *ops, void *lock, unsigned int id)
{
	return lock_thread_new_standalone(ops, lock, id);
}

#endif
