/*
 * tas_word.h — the one-byte test-and-set word that tas and ttas both are:
 * its init, destroy, trylock and unlock, here once.  Each lock's own file
 * keeps its lock(), how it waits, which is all that tells the two apart.
 * Static inline: tas.c and ttas.c each take its functions' addresses for
 * their ops, and inline trylock into their lock().
 */
#ifndef LOCKBENCH_TAS_WORD_H
#define LOCKBENCH_TAS_WORD_H

#include "lock.h"

struct tas_word {
	unsigned char held;
} cacheline_aligned;

static inline int tas_word_init(void *lock, const struct lock_params *params)
{
	(void)params;
	__atomic_store_n(&((struct tas_word *)lock)->held, 0, __ATOMIC_RELAXED);
	return 0;
}

static inline void tas_word_destroy(void *lock)
{
	(void)lock;
}

/* Acquire: pairs with the release store in tas_word_unlock. */
static inline bool tas_word_trylock(void *lock, struct lock_thread *self)
{
	struct tas_word *l = lock;

	(void)self;
	return __atomic_exchange_n(&l->held, 1, __ATOMIC_ACQUIRE) == 0;
}

static inline void tas_word_unlock(void *lock, struct lock_thread *self)
{
	struct tas_word *l = lock;

	(void)self;
	__atomic_store_n(&l->held, 0, __ATOMIC_RELEASE);
}

#endif
