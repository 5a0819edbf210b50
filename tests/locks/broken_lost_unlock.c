/*
 * broken-lost-unlock — a test-and-set lock whose unlock() is lost once, after
 * BROKEN_GOOD_UNLOCKS good ones: the class of bug (a lost release, a lost
 * wake-up) that leaves every thread waiting forever.  It exists only in the
 * test build's lockbench (build/tests/lockbench-test), to prove the watchdog;
 * no real run can choose it.  Waiters yield instead of spinning so that a
 * stuck run does not starve the watchdog's own thread on a 2-CPU machine.
 */
#include <sched.h>

#include "../../locks/lock.h"

#define BROKEN_GOOD_UNLOCKS 1000u

struct broken_lock {
	unsigned int held;
	unsigned int unlocks;   /* unlock() calls so far, the lost one included */
} cacheline_aligned;

static int broken_init(void *lock, const struct lock_params *params)
{
	struct broken_lock *l = lock;

	(void)params;
	__atomic_store_n(&l->held, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&l->unlocks, 0, __ATOMIC_RELAXED);
	return 0;
}

static void broken_destroy(void *lock)
{
	(void)lock;
}

/* Acquire: pairs with the release store in broken_unlock. */
static bool broken_trylock(void *lock, struct lock_thread *self)
{
	struct broken_lock *l = lock;

	(void)self;
	return __atomic_exchange_n(&l->held, 1, __ATOMIC_ACQUIRE) == 0;
}

static bool broken_lock(void *lock, struct lock_thread *self)
{
	if (broken_trylock(lock, self))
		return false;
	while (!broken_trylock(lock, self))
		sched_yield();
	return true;
}

static void broken_unlock(void *lock, struct lock_thread *self)
{
	struct broken_lock *l = lock;

	(void)self;
	/* Relaxed: only the holder counts, and the lock orders the holders. */
	if (__atomic_add_fetch(&l->unlocks, 1, __ATOMIC_RELAXED) == BROKEN_GOOD_UNLOCKS + 1)
		return;  /* the bug: this release never happens */
	__atomic_store_n(&l->held, 0, __ATOMIC_RELEASE);
}

const struct lock_ops lock_ops_broken_lost_unlock = {
	.name = "broken-lost-unlock",
	.description = "TEST BUILD ONLY: test-and-set whose 1001st unlock is lost (hangs every waiter)",
	.size = sizeof(struct broken_lock),
	.init = broken_init,
	.destroy = broken_destroy,
	.lock = broken_lock,
	.unlock = broken_unlock,
	.trylock = broken_trylock,
};
