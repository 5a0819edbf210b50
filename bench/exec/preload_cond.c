/*
 * preload_cond.c — condition variables of `lockbench --exec`, over any lock.
 *
 * glibc's condvar unlocks and relocks the mutex with its own internal calls,
 * which would reach glibc's mutex code with our bytes in it: so every
 * pthread_cond_* is ours, and waits on whatever mutex it is given through
 * the interposed lock and unlock (ours, or glibc's for a kind passed
 * through).  Ours also to a lookup by glibc's symbol version, as
 * ThreadSanitizer's interceptors make: preload_cond.map.
 *
 * One futex sequence word per condvar, in the pthread_cond_t's own bytes
 * (PTHREAD_COND_INITIALIZER is zeros): a waiter reads `seq` and counts
 * itself in `waiters` while it holds the mutex, unlocks, and sleeps while
 * `seq` is what it read; signal and broadcast bump `seq` and wake one or
 * all.  A signal between the read and the sleep changes `seq`, so the sleep
 * returns at once: no wake-up is lost.  A wake-up may go to a waiter that
 * came after the signal, and a sleep may end for nothing: spurious
 * wake-ups, which POSIX allows and every caller's predicate loop absorbs.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "preload.h"

struct px_cond {
	uint32_t seq;      /* the futex word: bumped by every signal and broadcast */
	uint32_t waiters;  /* threads between counting themselves and waking */
	uint32_t flags;    /* PX_COND_*, from the attributes at init */
};
_Static_assert(sizeof(struct px_cond) <= sizeof(pthread_cond_t), "condvar state outgrows pthread_cond_t");

enum { PX_COND_MONOTONIC = 1u << 0, PX_COND_SHARED = 1u << 1 };

static struct px_cond *px_cond(pthread_cond_t *c)
{
	return (struct px_cond *)(void *)c;
}

static void px_count(uint64_t struct_offset)
{
	struct px_thread *t = px_cfg.ops ? px_self() : NULL;

	if (t)
		(*(uint64_t *)(void *)((char *)&t->c + struct_offset))++;
}
#define PX_COUNT(field) px_count(offsetof(struct px_counts, field))

PX_EXPORT int pthread_cond_init(pthread_cond_t *c, const pthread_condattr_t *attr)
{
	struct px_cond *pc = px_cond(c);
	clockid_t clk = CLOCK_REALTIME;
	int pshared = PTHREAD_PROCESS_PRIVATE;

	memset(c, 0, sizeof(*c));
	if (attr && (pthread_condattr_getclock(attr, &clk) || pthread_condattr_getpshared(attr, &pshared)))
		return EINVAL;
	pc->flags = (clk == CLOCK_MONOTONIC ? PX_COND_MONOTONIC : 0) |
		    (pshared == PTHREAD_PROCESS_SHARED ? PX_COND_SHARED : 0);
	return 0;
}

PX_EXPORT int pthread_cond_destroy(pthread_cond_t *c)
{
	/* Waiters still counted: POSIX says EBUSY may be returned. */
	if (__atomic_load_n(&px_cond(c)->waiters, __ATOMIC_RELAXED))
		return EBUSY;
	memset(c, 0, sizeof(*c));
	return 0;
}

static int px_futex_op(const struct px_cond *pc, int op)
{
	return op | (pc->flags & PX_COND_SHARED ? 0 : FUTEX_PRIVATE_FLAG);
}

static void px_cond_wake(struct px_cond *pc, int n)
{
	/* Seq-cst, with the waiter's increment of `waiters`: a waiter counted
	 * before this load is woken or sees `seq` changed. */
	if (!__atomic_load_n(&pc->waiters, __ATOMIC_SEQ_CST))
		return;
	__atomic_fetch_add(&pc->seq, 1, __ATOMIC_SEQ_CST);
	syscall(SYS_futex, &pc->seq, px_futex_op(pc, FUTEX_WAKE), n, NULL, NULL, 0);
}

PX_EXPORT int pthread_cond_signal(pthread_cond_t *c)
{
	PX_COUNT(cond_signals);
	px_cond_wake(px_cond(c), 1);
	return 0;
}

PX_EXPORT int pthread_cond_broadcast(pthread_cond_t *c)
{
	PX_COUNT(cond_broadcasts);
	px_cond_wake(px_cond(c), INT_MAX);
	return 0;
}

/*
 * One wait: abs NULL waits for ever; else until `clk` reaches *abs
 * (FUTEX_WAIT_BITSET takes an absolute time, CLOCK_MONOTONIC by default,
 * CLOCK_REALTIME with its flag).  The mutex is taken again in every case,
 * as POSIX asks, then ETIMEDOUT when the deadline passed.
 */
static int px_cond_wait(pthread_cond_t *c, pthread_mutex_t *m, clockid_t clk, const struct timespec *abs,
			const void *site)
{
	struct px_cond *pc = px_cond(c);
	uint32_t seq;
	int rc, err = 0, op;

	if (abs && (abs->tv_nsec < 0 || abs->tv_nsec >= 1000000000L))
		return EINVAL;
	if (clk != CLOCK_REALTIME && clk != CLOCK_MONOTONIC)
		return EINVAL;
	PX_COUNT(cond_waits);
	/* Relaxed: read holding the mutex, as a signaller that holds it bumps it. */
	seq = __atomic_load_n(&pc->seq, __ATOMIC_RELAXED);
	__atomic_fetch_add(&pc->waiters, 1, __ATOMIC_SEQ_CST);
	rc = px_unlock_any(m);
	if (rc) {
		__atomic_fetch_sub(&pc->waiters, 1, __ATOMIC_RELAXED);
		return rc;
	}
	op = px_futex_op(pc, FUTEX_WAIT_BITSET) | (clk == CLOCK_REALTIME ? FUTEX_CLOCK_REALTIME : 0);
	if (syscall(SYS_futex, &pc->seq, op, seq, abs, NULL, FUTEX_BITSET_MATCH_ANY) != 0 && errno == ETIMEDOUT)
		err = ETIMEDOUT;
	__atomic_fetch_sub(&pc->waiters, 1, __ATOMIC_RELAXED);
	rc = px_lock_any(m, site);
	if (err == ETIMEDOUT)
		PX_COUNT(cond_timeouts);
	return rc ? rc : err;
}

PX_EXPORT int pthread_cond_wait(pthread_cond_t *c, pthread_mutex_t *m)
{
	return px_cond_wait(c, m, CLOCK_REALTIME, NULL, __builtin_return_address(0));
}

PX_EXPORT int pthread_cond_timedwait(pthread_cond_t *c, pthread_mutex_t *m, const struct timespec *abs)
{
	clockid_t clk = px_cond(c)->flags & PX_COND_MONOTONIC ? CLOCK_MONOTONIC : CLOCK_REALTIME;

	return px_cond_wait(c, m, clk, abs, __builtin_return_address(0));
}

PX_EXPORT int pthread_cond_clockwait(pthread_cond_t *c, pthread_mutex_t *m, clockid_t clk, const struct timespec *abs)
{
	return px_cond_wait(c, m, clk, abs, __builtin_return_address(0));
}
