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
 *
 * A waiter's life in the condvar's memory: counted in `waiters` before it
 * unlocks, uncounted by one release decrement right after its sleep, which
 * is its last access (it re-locks the mutex after, which is other memory).
 * pthread_cond_destroy() flags `waiters` and sleeps until the count is
 * zero: POSIX's rationale for it frees a condvar right after a broadcast,
 * while the woken are still leaving their waits, and glibc's destroy waits
 * for them the same way.  A woken waiter's last act may be a FUTEX_WAKE of
 * the destroyer: a system call on the address, which reads nothing there
 * (a stray wake of whatever reuses it, which every futex user absorbs).
 *
 * pthread_cond_wait is a cancellation point: its sleep runs with
 * asynchronous cancellation on (as glibc's did until 2.34, and its
 * cancellable system calls still do), and a waiter cancelled there leaves,
 * passes on a wake it may have taken, and re-locks the mutex before the
 * program's cleanup handlers run, as POSIX asks.
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
	uint32_t waiters;  /* PX_COND_COUNT: threads inside a wait that may still touch the
	                    * condvar; PX_COND_DESTROYING: a destroy sleeps here until none is */
	uint32_t flags;    /* PX_COND_*, from the attributes at init */
};
_Static_assert(sizeof(struct px_cond) <= sizeof(pthread_cond_t), "condvar state outgrows pthread_cond_t");

enum { PX_COND_MONOTONIC = 1u << 0, PX_COND_SHARED = 1u << 1 };
#define PX_COND_DESTROYING (1u << 31)
#define PX_COND_COUNT (PX_COND_DESTROYING - 1)

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

static int px_futex_op(const struct px_cond *pc, int op)
{
	return op | (pc->flags & PX_COND_SHARED ? 0 : FUTEX_PRIVATE_FLAG);
}

/*
 * Waits until every waiter has left (a correct program has woken them all:
 * POSIX allows destroy once none is blocked, not once all have returned),
 * then zeroes the bytes, which the caller may free at once.  A waiter
 * still blocked, which POSIX leaves undefined, keeps it waiting until some
 * signal wakes it, as glibc's does.
 */
PX_EXPORT int pthread_cond_destroy(pthread_cond_t *c)
{
	struct px_cond *pc = px_cond(c);
	int op = px_futex_op(pc, FUTEX_WAIT);
	/* Acquire, with each leaving waiter's release decrement: their reads
	 * of the condvar come before the zeroing below. */
	uint32_t w = __atomic_or_fetch(&pc->waiters, PX_COND_DESTROYING, __ATOMIC_ACQUIRE);

	while (w & PX_COND_COUNT) {
		/* Returns at once if a waiter left since the load (no lost wake). */
		syscall(SYS_futex, &pc->waiters, op, w, NULL, NULL, 0);
		w = __atomic_load_n(&pc->waiters, __ATOMIC_ACQUIRE);
	}
	memset(c, 0, sizeof(*c));
	return 0;
}

static void px_cond_wake(struct px_cond *pc, int n)
{
	/* Seq-cst, with the waiter's increment of `waiters`: a waiter counted
	 * before this load is woken or sees `seq` changed. */
	if (!(__atomic_load_n(&pc->waiters, __ATOMIC_SEQ_CST) & PX_COND_COUNT))
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

/* One wait in progress: what its sleep and its cancellation need. */
struct px_wait {
	struct px_cond *pc;
	pthread_mutex_t *m;
	const void *site;
	uint32_t seq;      /* `seq` as read holding the mutex */
	int wake_op;       /* FUTEX_WAKE, private or shared: read before leaving */
};

/* The waiter's last access to the condvar: uncounted, and the destroyer
 * woken if it waits for this one.  Release: pairs with destroy's acquire,
 * so every read of the condvar above comes before its memory is reused. */
static void px_cond_leave(const struct px_wait *w)
{
	struct px_cond *pc = w->pc;
	int op = w->wake_op;

	if (__atomic_sub_fetch(&pc->waiters, 1, __ATOMIC_RELEASE) == PX_COND_DESTROYING)
		syscall(SYS_futex, &pc->waiters, op, 1, NULL, NULL, 0);
}

/*
 * Cancelled in its sleep (or on entering it, a cancel pending): a signal
 * sent meanwhile may have woken this thread and no other, and POSIX asks
 * that a cancelled waiter consume none, so one more is woken (spurious at
 * worst); then it leaves, and re-locks the mutex, which the program's
 * cleanup handlers, run next, expect held.
 */
static void px_cond_cancelled(void *arg)
{
	const struct px_wait *w = arg;

	if (__atomic_load_n(&w->pc->seq, __ATOMIC_RELAXED) != w->seq)
		syscall(SYS_futex, &w->pc->seq, w->wake_op, 1, NULL, NULL, 0);
	px_cond_leave(w);
	px_lock_any(w->m, w->site);
}

/*
 * The sleep while `seq` is what was read holding the mutex: abs NULL for
 * ever, else until `clk` reaches *abs (FUTEX_WAIT_BITSET takes an absolute
 * time, CLOCK_MONOTONIC by default, CLOCK_REALTIME with its flag).  0 when
 * woken (or for nothing), else ETIMEDOUT.  A negative tv_sec is a deadline
 * long past, as glibc reads it (the kernel would refuse it, EINVAL).  The
 * system call is the cancellation point: asynchronous cancellation is on
 * around it only, the thread's own type and state restored after.
 */
#pragma GCC diagnostic push
/* glibc's C pthread_cleanup_push sets its routine and argument before its
 * sigsetjmp and never after: GCC's warning that they might be clobbered by
 * the longjmp is about nothing. */
#pragma GCC diagnostic ignored "-Wclobbered"
static int px_cond_sleep(struct px_wait *w, clockid_t clk, const struct timespec *abs)
{
	int op = px_futex_op(w->pc, FUTEX_WAIT_BITSET) | (clk == CLOCK_REALTIME ? FUTEX_CLOCK_REALTIME : 0);
	int type, timedout;

	if (abs && abs->tv_sec < 0)
		return ETIMEDOUT;
	pthread_cleanup_push(px_cond_cancelled, w);
	pthread_setcanceltype(PTHREAD_CANCEL_ASYNCHRONOUS, &type);
	timedout = syscall(SYS_futex, &w->pc->seq, op, w->seq, abs, NULL, FUTEX_BITSET_MATCH_ANY) != 0 &&
		   errno == ETIMEDOUT;
	pthread_setcanceltype(type, NULL);
	pthread_cleanup_pop(0);
	return timedout ? ETIMEDOUT : 0;
}
#pragma GCC diagnostic pop

/*
 * One wait: the mutex is taken again in every case, as POSIX asks, then
 * ETIMEDOUT when the deadline passed.  No wake-up is lost: `seq` is read,
 * and the waiter counted (seq-cst, before px_cond_wake's load of the
 * count), while the mutex is held, so a signal made after the unlock
 * either bumps `seq` before the futex compares it (the sleep returns at
 * once) or finds the waiter asleep and wakes it.
 */
static int px_cond_wait(pthread_cond_t *c, pthread_mutex_t *m, clockid_t clk, const struct timespec *abs,
			const void *site)
{
	struct px_wait w = { .pc = px_cond(c), .m = m, .site = site };
	int rc, err;

	if (abs && (abs->tv_nsec < 0 || abs->tv_nsec >= 1000000000L))
		return EINVAL;
	if (clk != CLOCK_REALTIME && clk != CLOCK_MONOTONIC)
		return EINVAL;
	PX_COUNT(cond_waits);
	w.wake_op = px_futex_op(w.pc, FUTEX_WAKE);
	/* Relaxed: read holding the mutex, as a signaller that holds it bumps it. */
	w.seq = __atomic_load_n(&w.pc->seq, __ATOMIC_RELAXED);
	__atomic_fetch_add(&w.pc->waiters, 1, __ATOMIC_SEQ_CST);
	rc = px_unlock_any(m);
	if (rc) {
		px_cond_leave(&w);
		return rc;
	}
	err = px_cond_sleep(&w, clk, abs);
	px_cond_leave(&w);
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
