/*
 * tas — test-and-set spinlock: every attempt is an atomic exchange, so every
 * waiter keeps the lock's cache line bouncing in exclusive state.  The
 * baseline that TTAS, ticket and MCS locks improve on (Anderson, "The
 * performance of spin lock alternatives", IEEE TPDS 1990).
 */
#include "lock.h"

struct tas_lock {
	unsigned char held;
} cacheline_aligned;

static int tas_init(void *lock, const struct lock_params *params)
{
	(void)params;
	__atomic_store_n(&((struct tas_lock *)lock)->held, 0, __ATOMIC_RELAXED);
	return 0;
}

static void tas_destroy(void *lock)
{
	(void)lock;
}

/* Acquire: pairs with the release store in tas_unlock. */
static bool tas_trylock(void *lock, struct lock_thread *self)
{
	struct tas_lock *l = lock;

	(void)self;
	return __atomic_exchange_n(&l->held, 1, __ATOMIC_ACQUIRE) == 0;
}

static bool tas_lock(void *lock, struct lock_thread *self)
{
	if (tas_trylock(lock, self))
		return false;
	while (!tas_trylock(lock, self))
		cpu_relax();
	return true;
}

static void tas_unlock(void *lock, struct lock_thread *self)
{
	struct tas_lock *l = lock;

	(void)self;
	__atomic_store_n(&l->held, 0, __ATOMIC_RELEASE);
}

const struct lock_ops lock_ops_tas = {
	.name = "tas",
	.description = "test-and-set spinlock: atomic exchange on every attempt",
	.size = sizeof(struct tas_lock),
	.init = tas_init,
	.destroy = tas_destroy,
	.lock = tas_lock,
	.unlock = tas_unlock,
	.trylock = tas_trylock,
};
