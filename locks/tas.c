/*
 * tas — test-and-set spinlock: every attempt is an atomic exchange, so every
 * waiter keeps the lock's cache line bouncing in exclusive state.  The
 * baseline that TTAS, ticket and MCS locks improve on (Anderson, "The
 * performance of spin lock alternatives", IEEE TPDS 1990).
 */
#include "tas_word.h"

static bool tas_lock(void *lock, struct lock_thread *self)
{
	if (tas_word_trylock(lock, self))
		return false;
	while (!tas_word_trylock(lock, self))
		pr_relax();
	return true;
}

const struct lock_ops lock_ops_tas = {
	.name = "tas",
	.description = "test-and-set spinlock: atomic exchange on every attempt",
	.size = sizeof(struct tas_word),
	.init = tas_word_init,
	.destroy = tas_word_destroy,
	.lock = tas_lock,
	.unlock = tas_word_unlock,
	.trylock = tas_word_trylock,
};
