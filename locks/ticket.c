/*
 * ticket — FIFO ticket spinlock: take a number, wait until it is served.  Fair
 * by construction, but every waiter spins on the one `serving` word, so each
 * release invalidates all waiters' copies (Mellor-Crummey & Scott 1991 §2.2;
 * the x86 kernel spinlock from 2.6.25 to 4.1).
 */
#include "lock.h"
#include "pr.h"

struct ticket_lock {
	uint32_t next;     /* the next ticket to hand out */
	uint32_t serving;  /* the ticket that holds the lock */
} cacheline_aligned;

static int ticket_init(void *lock, const struct lock_params *params)
{
	struct ticket_lock *l = lock;

	(void)params;
	pr_store(&l->next, 0, PR_RELAXED);
	pr_store(&l->serving, 0, PR_RELAXED);
	return 0;
}

static void ticket_destroy(void *lock)
{
	(void)lock;
}

static bool ticket_lock(void *lock, struct lock_thread *self)
{
	struct ticket_lock *l = lock;
	/* Relaxed: taking a ticket orders nothing; the acquire is on `serving`. */
	uint32_t mine = pr_fetch_add(&l->next, 1, PR_RELAXED);

	(void)self;
	/* Acquire: pairs with the release increment of `serving` in ticket_unlock. */
	if (pr_load(&l->serving, PR_ACQUIRE) == mine)
		return false;
	while (pr_load(&l->serving, PR_ACQUIRE) != mine)
		pr_relax();
	return true;
}

static void ticket_unlock(void *lock, struct lock_thread *self)
{
	struct ticket_lock *l = lock;
	/* Only the holder writes `serving`, so a plain read-increment is race-free. */
	uint32_t now = pr_load(&l->serving, PR_RELAXED);

	(void)self;
	/* Release: publishes the critical section to the next ticket holder. */
	pr_store(&l->serving, now + 1, PR_RELEASE);
}

static bool ticket_trylock(void *lock, struct lock_thread *self)
{
	struct ticket_lock *l = lock;
	/* Acquire: if `serving` is the ticket we then take, this read is what
	 * synchronises with the previous holder's release. */
	uint32_t serving = pr_load(&l->serving, PR_ACQUIRE);
	uint32_t expected = serving;

	(void)self;
	return pr_cas(&l->next, &expected, serving + 1, PR_RELAXED, PR_RELAXED);
}

const struct lock_ops lock_ops_ticket = {
	.name = "ticket",
	.description = "FIFO ticket spinlock: fetch-and-add a ticket, spin on the serving counter",
	.size = sizeof(struct ticket_lock),
	.init = ticket_init,
	.destroy = ticket_destroy,
	.lock = ticket_lock,
	.unlock = ticket_unlock,
	.trylock = ticket_trylock,
};
