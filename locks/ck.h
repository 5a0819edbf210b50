/*
 * ck.h — what the Concurrency Kit adapters (locks/ck_*.c) share.
 *
 * Concurrency Kit (Debian libck-dev 0.7.1, concurrencykit.org) is used as
 * shipped: its lock and unlock functions run unchanged, through its headers.
 * The adapters only fit them to struct lock_ops:
 *
 * - Contention.  lock.h asks lock() whether it missed its first attempt, and
 *   ck's lock functions do not say.  An adapter therefore makes its first
 *   attempt with a trylock (ck's own where it has one, as locks/pthread.c does
 *   with glibc) and calls ck's lock only when that fails; for ck's ticket lock
 *   a failed trylock is one load of the lock word, for its test-and-set locks
 *   it is one atomic more than ck's lock would make.  ck-mcs needs no such
 *   attempt: ck's lock leaves the node's `locked` flag set unless a
 *   predecessor cleared it to hand over the lock, so reading the node after
 *   lock() tells exactly, at no cost.
 * - ThreadSanitizer.  ck's atomics are inline assembly on x86-64, invisible
 *   to TSan, so under `make tsan` the Makefile compiles these files without
 *   instrumentation and defines LOCKBENCH_TSAN_ANNOTATE: each adapter then
 *   tells TSan, on the lock's address, that a lock() or successful trylock()
 *   acquires and an unlock() releases.  The workloads' own accesses stay
 *   instrumented, so TSan still checks that the lock orders them.
 */
#ifndef LOCKBENCH_CK_H
#define LOCKBENCH_CK_H

#include "lock.h"

#ifdef LOCKBENCH_TSAN_ANNOTATE
void __tsan_acquire(void *addr);
void __tsan_release(void *addr);
#define CK_ACQUIRED(lock) __tsan_acquire(lock)
#define CK_RELEASING(lock) __tsan_release(lock)
#else
#define CK_ACQUIRED(lock) ((void)(lock))
#define CK_RELEASING(lock) ((void)(lock))
#endif

/* Per-thread structures a lock sizes at init, when the run's thread count is
 * unknown (lock_params.threads 0: a test driving the lock directly). */
#define CK_THREADS_DEFAULT 64u

static inline unsigned int ck_threads(const struct lock_params *params)
{
	return params->threads ? params->threads : CK_THREADS_DEFAULT;
}

#endif
