/*
 * futex — a sleeping mutex with no spinning: three states (0 free, 1 locked,
 * 2 locked with possible waiters), FUTEX_WAIT / FUTEX_WAKE on private futexes
 * (the "mutex, take 2" of Drepper, "Futexes Are Tricky", 2011).  A contended
 * waiter goes straight to sleep, which is what the kernel mutex did before
 * adaptive spinning arrived in 2.6.29.  Unlock pays a wake syscall only when
 * the word says someone may be asleep.
 */
#include "lock.h"
#include "pr.h"

enum { FUTEX_FREE = 0, FUTEX_LOCKED = 1, FUTEX_CONTENDED = 2 };

struct futex_lock {
	uint32_t state;
} cacheline_aligned;

static int futex_lock_init(void *lock, const struct lock_params *params)
{
	(void)params;
	pr_store(&((struct futex_lock *)lock)->state, FUTEX_FREE, PR_RELAXED);
	return 0;
}

static void futex_lock_destroy(void *lock)
{
	(void)lock;
}

/* Acquire: pairs with the release exchange in futex_unlock. */
static bool futex_trylock(void *lock, struct lock_thread *self)
{
	struct futex_lock *l = lock;
	uint32_t expected = FUTEX_FREE;

	(void)self;
	return pr_cas(&l->state, &expected, FUTEX_LOCKED, PR_ACQUIRE, PR_RELAXED);
}

/* Out of line, so the uncontended path carries no register saves. */
static __attribute__((noinline)) void futex_lock_slow(struct futex_lock *l, struct lock_thread *self)
{
	uint64_t waits = 0;

	/* Mark the lock contended before sleeping, so the holder's unlock wakes
	 * us; whoever takes it this way keeps it marked, since others may sleep. */
	while (pr_xchg(&l->state, FUTEX_CONTENDED, PR_ACQUIRE) != FUTEX_FREE) {
		waits++;
		pr_futex_wait(&l->state, FUTEX_CONTENDED);
	}
	self->ev.futex_waits += waits;
	/* A retry that found the lock free never slept, and never spun either. */
	if (waits)
		self->ev.acq_sleep++;
	else
		self->ev.acq_nosleep++;
}

static bool futex_lock(void *lock, struct lock_thread *self)
{
	if (futex_trylock(lock, self)) {
		self->ev.acq_fast++;
		return false;
	}
	futex_lock_slow(lock, self);
	return true;
}

static __attribute__((noinline)) void futex_unlock_wake(struct futex_lock *l, struct lock_thread *self)
{
	self->ev.futex_wakes++;
	pr_futex_wake(&l->state, 1);
}

static void futex_unlock(void *lock, struct lock_thread *self)
{
	struct futex_lock *l = lock;

	/* Release: publishes the critical section to the next acquirer. */
	if (pr_xchg(&l->state, FUTEX_FREE, PR_RELEASE) == FUTEX_CONTENDED)
		futex_unlock_wake(l, self);
}

const struct lock_ops lock_ops_futex = {
	.name = "futex",
	.description = "futex mutex, no spinning (free/locked/contended): the pre-2.6.29 kernel mutex",
	.size = sizeof(struct futex_lock),
	.flags = LOCK_F_PHASES | LOCK_F_SLEEPS,
	.init = futex_lock_init,
	.destroy = futex_lock_destroy,
	.lock = futex_lock,
	.unlock = futex_unlock,
	.trylock = futex_trylock,
};
