/*
 * ttas — test-and-test-and-set with bounded exponential backoff: waiters spin
 * on a shared read of the lock word and attempt the exchange only when it
 * looks free; after a lost race they back off for a doubling
 * number of pause instructions, capped so a waiter never sleeps through a
 * free lock for long (Anderson 1990; Mellor-Crummey & Scott, TOCS 1991 §2).
 */
#include "lock.h"

/* Pause instructions: the first back-off and its cap (2^4 .. 2^10). */
#define TTAS_BACKOFF_MIN 16u
#define TTAS_BACKOFF_MAX 1024u

struct ttas_lock {
	unsigned char held;
} cacheline_aligned;

static int ttas_init(void *lock, const struct lock_params *params)
{
	(void)params;
	__atomic_store_n(&((struct ttas_lock *)lock)->held, 0, __ATOMIC_RELAXED);
	return 0;
}

static void ttas_destroy(void *lock)
{
	(void)lock;
}

/* Acquire: pairs with the release store in ttas_unlock. */
static bool ttas_trylock(void *lock, struct lock_thread *self)
{
	struct ttas_lock *l = lock;

	(void)self;
	return __atomic_exchange_n(&l->held, 1, __ATOMIC_ACQUIRE) == 0;
}

static void ttas_backoff(unsigned int *pauses)
{
	for (unsigned int i = 0; i < *pauses; i++)
		cpu_relax();
	if (*pauses < TTAS_BACKOFF_MAX)
		*pauses *= 2;
}

static bool ttas_lock(void *lock, struct lock_thread *self)
{
	struct ttas_lock *l = lock;
	unsigned int pauses = TTAS_BACKOFF_MIN;

	if (ttas_trylock(lock, self))
		return false;
	for (;;) {
		/* Relaxed: only a hint; the exchange below is the acquire. */
		while (__atomic_load_n(&l->held, __ATOMIC_RELAXED))
			cpu_relax();
		if (ttas_trylock(lock, self))
			return true;
		ttas_backoff(&pauses);
	}
}

static void ttas_unlock(void *lock, struct lock_thread *self)
{
	struct ttas_lock *l = lock;

	(void)self;
	__atomic_store_n(&l->held, 0, __ATOMIC_RELEASE);
}

const struct lock_ops lock_ops_ttas = {
	.name = "ttas",
	.description = "test-and-test-and-set spinlock with bounded exponential backoff",
	.size = sizeof(struct ttas_lock),
	.init = ttas_init,
	.destroy = ttas_destroy,
	.lock = ttas_lock,
	.unlock = ttas_unlock,
	.trylock = ttas_trylock,
};
