/*
 * ttas — test-and-test-and-set with bounded exponential backoff: waiters spin
 * on a shared read of the lock word and attempt the exchange only when it
 * looks free; after a lost race they back off for a doubling
 * number of pause instructions, capped so a waiter never sleeps through a
 * free lock for long (Anderson 1990; Mellor-Crummey & Scott, TOCS 1991 §2).
 */
#include "tas_word.h"

/* Pause instructions: the first back-off and its cap (2^4 .. 2^10). */
#define TTAS_BACKOFF_MIN 16u
#define TTAS_BACKOFF_MAX 1024u

static void ttas_backoff(unsigned int *pauses)
{
	for (unsigned int i = 0; i < *pauses; i++)
		pr_relax();
	if (*pauses < TTAS_BACKOFF_MAX)
		*pauses *= 2;
}

static bool ttas_lock(void *lock, struct lock_thread *self)
{
	struct tas_word *l = lock;
	unsigned int pauses = TTAS_BACKOFF_MIN;

	if (tas_word_trylock(lock, self))
		return false;
	for (;;) {
		/* Relaxed: only a hint; the exchange below is the acquire. */
		while (pr_load(&l->held, PR_RELAXED))
			pr_relax();
		if (tas_word_trylock(lock, self))
			return true;
		ttas_backoff(&pauses);
	}
}

const struct lock_ops lock_ops_ttas = {
	.name = "ttas",
	.description = "test-and-test-and-set spinlock with bounded exponential backoff",
	.size = sizeof(struct tas_word),
	.init = tas_word_init,
	.destroy = tas_word_destroy,
	.lock = ttas_lock,
	.unlock = tas_word_unlock,
	.trylock = tas_word_trylock,
};
