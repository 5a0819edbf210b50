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
#include "pr.h"

struct tas_word {
	unsigned char held;
} cacheline_aligned;

static inline int tas_word_init(void *lock, const struct lock_params *params)
{
	(void)params;
	pr_store(&((struct tas_word *)lock)->held, 0, PR_RELAXED);
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
	return pr_xchg(&l->held, 1, PR_ACQUIRE) == 0;
}

static inline void tas_word_unlock(void *lock, struct lock_thread *self)
{
	struct tas_word *l = lock;

	(void)self;
	pr_store(&l->held, 0, PR_RELEASE);
}

#endif
