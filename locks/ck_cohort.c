/*
 * ck-cohort — Concurrency Kit's NUMA-aware cohort lock (ck_cohort, libck-dev
 * 0.7.1; Dice, Marathe & Shavit, "Lock Cohorting", PPoPP 2012), as the paper's
 * C-TKT-TKT: a global ck ticket lock, and one cohort per NUMA node, each with
 * its own local ck ticket lock.  A thread takes its cohort's local lock, then
 * the global one unless the previous local holder passed it on: a releasing
 * thread that sees waiters in its cohort keeps the global lock for them, up to
 * CK_COHORT_DEFAULT_LOCAL_PASS_LIMIT (10) handovers in a row, so the lock and
 * the data it protects stay in one node's caches.
 *
 * A thread's cohort is its NUMA node as the harness placed it
 * (lock_thread.node, from the node of its pinned CPU); node -1 (unknown: not
 * pinned, or no NUMA) is cohort 0.  With one node there is one cohort and the
 * lock is a ticket lock behind a ticket lock: it only means something on a
 * machine with two or more nodes.  The cohorts live in the lock's memory, on
 * the lock's node, each on its own pair of cache lines.
 *
 * Contention: the adapter's local- and global-lock functions (the ones
 * ck_cohort is built over) try first and record a failure (locks/ck.h).
 */
#include <ck_cohort.h>
#include <ck_spinlock.h>

#include "ck.h"

/* Cohorts in the lock: node n uses cohort n mod this (more than any machine
 * this suite meets has nodes; beyond it, nodes share a cohort, which stays
 * correct). */
#define CK_COHORTS 64

/* Per thread: its cohort, and whether the acquisition in progress waited. */
struct ck_cohort_thread {
	struct ck_cohort_slot *mine;
	bool contended;
};

static void ticket_lock(ck_spinlock_ticket_t *lock, void *context)
{
	struct ck_cohort_thread *me = context;

	if (ck_spinlock_ticket_trylock(lock))
		return;
	me->contended = true;
	ck_spinlock_ticket_lock(lock);
}

static void ticket_unlock(ck_spinlock_ticket_t *lock, void *context)
{
	(void)context;
	ck_spinlock_ticket_unlock(lock);
}

static bool ticket_locked(ck_spinlock_ticket_t *lock, void *context)
{
	(void)context;
	return ck_spinlock_ticket_locked(lock);
}

static bool ticket_trylock(ck_spinlock_ticket_t *lock, void *context)
{
	(void)context;
	return ck_spinlock_ticket_trylock(lock);
}

/* struct ck_cohort_tkt and ck_cohort_tkt_{init,lock,unlock,trylock}: ck's. */
CK_COHORT_TRYLOCK_PROTOTYPE(tkt, ticket_lock, ticket_unlock, ticket_locked, ticket_trylock,
			    ticket_lock, ticket_unlock, ticket_locked, ticket_trylock)

struct ck_cohort_slot {
	CK_COHORT_INSTANCE(tkt) cohort;
	ck_spinlock_ticket_t local;
} __attribute__((aligned(CACHELINE_PAIR)));

struct ck_cohort_lock {
	ck_spinlock_ticket_t global __attribute__((aligned(CACHELINE_PAIR)));
	struct ck_cohort_slot slot[CK_COHORTS];
};

static struct ck_cohort_thread *ck_cohort_self(struct lock_thread *self)
{
	return (struct ck_cohort_thread *)self->priv;
}

static int ck_cohort_init(void *lock, const struct lock_params *params)
{
	struct ck_cohort_lock *l = lock;

	(void)params;
	ck_spinlock_ticket_init(&l->global);
	for (int i = 0; i < CK_COHORTS; i++) {
		ck_spinlock_ticket_init(&l->slot[i].local);
		ck_cohort_tkt_init(&l->slot[i].cohort, &l->global, &l->slot[i].local,
				   CK_COHORT_DEFAULT_LOCAL_PASS_LIMIT);
	}
	return 0;
}

static void ck_cohort_destroy(void *lock)
{
	(void)lock;
}

static void ck_cohort_thread_init(void *lock, struct lock_thread *self)
{
	struct ck_cohort_lock *l = lock;
	int node = self->node;

	ck_cohort_self(self)->mine = &l->slot[node < 0 ? 0 : node % CK_COHORTS];
}

static bool ck_cohort_lock(void *lock, struct lock_thread *self)
{
	struct ck_cohort_thread *me = ck_cohort_self(self);

	me->contended = false;
	ck_cohort_tkt_lock(&me->mine->cohort, me, me);
	CK_ACQUIRED(lock);
	return me->contended;
}

static void ck_cohort_unlock(void *lock, struct lock_thread *self)
{
	struct ck_cohort_thread *me = ck_cohort_self(self);

	CK_RELEASING(lock);
	ck_cohort_tkt_unlock(&me->mine->cohort, me, me);
}

static bool ck_cohort_trylock(void *lock, struct lock_thread *self)
{
	struct ck_cohort_thread *me = ck_cohort_self(self);

	if (!ck_cohort_tkt_trylock(&me->mine->cohort, me, me, me))
		return false;
	CK_ACQUIRED(lock);
	return true;
}

const struct lock_ops lock_ops_ck_cohort = {
	.name = "ck-cohort",
	.description = "Concurrency Kit ck_cohort, C-TKT-TKT: a ticket lock per NUMA node under a global one",
	.size = sizeof(struct ck_cohort_lock),
	.flags = LOCK_F_PER_LOCK_THREAD,
	.thread_size = sizeof(struct ck_cohort_thread),
	.init = ck_cohort_init,
	.destroy = ck_cohort_destroy,
	.thread_init = ck_cohort_thread_init,
	.lock = ck_cohort_lock,
	.unlock = ck_cohort_unlock,
	.trylock = ck_cohort_trylock,
};
