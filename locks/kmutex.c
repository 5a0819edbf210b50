/*
 * kmutex — the Linux kernel mutex in userspace, one implementation with a
 * policy per kernel era, so that each era's one decision can be measured
 * against the others.  Modelled on the kernel sources (read, not copied):
 *
 *   kmutex-sleep    before 2.6.29: kernel/mutex.c __mutex_lock_common() goes
 *                   straight to the wait list and schedule().
 *   kmutex-spin     2.6.29-2.6.35: adaptive spinning (Peter Zijlstra, from -rt):
 *                   the loop in __mutex_lock_common() and mutex_spin_on_owner()
 *                   in kernel/sched.c.  When lock->owner changes the spinner
 *                   "breaks to re-assess": cmpxchg, re-read the owner, spin on
 *                   the new one.  Any number of waiters spin at once.
 *   kmutex-fix      2.6.36, Tim Chen's patch (shared/seeds/): when the owner
 *                   changes to another non-NULL owner, return 0 — stop
 *                   spinning and sleep.
 *   kmutex-mcs      3.10-3.14: spinners take an MCS lock (mspin_lock, inside
 *                   struct mutex) around each attempt, so one waiter spins on the
 *                   owner; a queued waiter cannot leave the queue.
 *                   mutex_can_spin_on_owner() gates entry; mutex_spin_on_owner()
 *                   returns lock->owner == NULL: the 2.6.36 rule, kept.
 *   kmutex-osq      3.15-4.0: the queue becomes the cancellable MCS lock
 *                   (osq_lock, kernel/locking/mcs_spinlock.c, later osq_lock.c),
 *                   held for the whole spin and left on need_resched(); still
 *                   the 2.6.36 rule (4.1 drops it: see kmutex-handoff).
 *   kmutex-handoff  4.10 on: kernel/locking/mutex.c with the owner-change rule
 *                   of 4.1 on (owner changed: keep spinning, since only the OSQ
 *                   head spins), MUTEX_FLAG_HANDOFF: a woken waiter that still
 *                   loses sets the flag, spins as the "waiter-spinner", and the
 *                   next __mutex_unlock_slowpath() hands it the lock
 *                   (__mutex_handoff) instead of releasing it.
 *
 * Shape shared by every policy, as in the kernel:
 * - `state`: 0 free; KM_LOCKED; KM_WAITERS: someone may sleep on the futex and
 *   unlock must wake one (the kernel's count of -1); KM_HANDOFF: unlock must
 *   hand the lock to `handoff_to`, never release it.  A free lock is always 0.
 * - `owner`: the holder's run-state (oracle.h), written right after the
 *   acquiring atomic and cleared before the releasing one, a hint for spinners
 *   only: mutual exclusion rests on `state` alone.
 * - lock: one cmpxchg (fast path); then the optimistic spin phase; then the
 *   futex sleep, where the kernel's wait list and schedule() were.
 * - need_resched() has no userspace equivalent: a spin phase ends when its TSC
 *   budget (lock_params.spin_budget_cycles) is spent.
 *
 * Differences from the kernel, all forced by userspace: the wait list is the
 * futex's own queue (FIFO per priority in the kernel's futex hash), so "the
 * first waiter" of 4.10 is the woken waiter that claims `handoff_to` first;
 * spinners and queued waiters can be preempted (the kernel spins with
 * preemption off), which only the spin budget and the oracle can notice.
 */
#include <stddef.h>

#include "futex_sys.h"
#include "lock.h"
#include "oracle.h"

/*
 * Default spin budget: 2^15 cycles, 12.6 µs at this machine's 2.6 GHz TSC.
 * One futex sleep + wake-up costs about that here (a FUTEX_WAKE/FUTEX_WAIT
 * ping-pong between two threads measured 28 µs per round trip, two sleeps),
 * and spinning no longer than blocking would cost keeps the waste within 2x
 * of an oracle that knew the wait in advance (Karlin, Li, Manasse, Owicki,
 * "Empirical studies of competitive spinning", SOSP 1991).  The kernel's own
 * bound, the rest of a timeslice, is milliseconds: far too long once owners
 * can be preempted, which the kernel's could not be while holding no lock.
 */
#define KMUTEX_DEFAULT_SPIN_BUDGET 32768u

enum {
	KM_LOCKED  = 1u,
	KM_WAITERS = 2u,
	KM_HANDOFF = 4u,
};

/* The handoff grant word of a waiter (futex): 4.10's owner == current test. */
enum {
	KM_GRANT_WAITING  = 0,
	KM_GRANT_SLEEPING = 1,  /* the waiter may be in FUTEX_WAIT: wake it */
	KM_GRANT_GIVEN    = 2,
};

enum km_queue {
	KQ_NONE,  /* 2.6.29-2.6.36: every waiter spins on the owner */
	KQ_MCS,   /* 3.10-3.14: MCS lock around each attempt, no way out */
	KQ_OSQ,   /* 3.15 on: cancellable queue held for the whole spin phase */
};

/* Where the kernel eras differ; everything else is one code path. */
struct kmutex_policy {
	bool spin;                   /* optimistic spinning at all (2.6.29 on) */
	bool sleep_on_owner_change;  /* the 2.6.36 rule (2.6.36 - 4.0) */
	enum km_queue queue;         /* who may spin on the owner */
	bool handoff;                /* MUTEX_FLAG_HANDOFF and the waiter-spinner (4.10 on) */
};

/* A spinner queue node; also carries the handoff grant. */
struct km_node {
	struct km_node *next;
	struct km_node *prev;
	uint32_t locked;  /* 1: the queue was handed to us */
	uint32_t grant;   /* KM_GRANT_* */
} cacheline_aligned;

/* lock_thread.priv: the run-state first (oracle.h's contract), then the node. */
struct kmutex_thread {
	struct oracle_runstate rs;
	struct km_node node;
};

struct kmutex {
	/* What every acquirer and spinner reads: the lock word, the owner hint,
	 * and the read-only settings, on one line as in struct mutex. */
	uint32_t state;
	int oracle;
	struct oracle_runstate *owner;
	const struct kmutex_policy *pol;
	uint64_t budget;
	/* Written only by waiters: kept off the line the owner releases. */
	struct km_node *queue_tail __attribute__((aligned(CACHELINE)));
	struct km_node *handoff_to;
} cacheline_aligned;

static struct kmutex_thread *km_self(struct lock_thread *self)
{
	return (struct kmutex_thread *)self->priv;
}

static struct kmutex_thread *km_of_node(struct km_node *node)
{
	return (struct kmutex_thread *)((char *)node - offsetof(struct kmutex_thread, node));
}

/* ---- the lock word ---- */

/* Acquire: pairs with the release cmpxchg of the unlock that freed it. */
static bool km_trylock(struct kmutex *l)
{
	uint32_t expected = 0;

	return __atomic_compare_exchange_n(&l->state, &expected, KM_LOCKED, false,
					   __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

/* The spinner's attempt: read first, so spinning does not bounce the line
 * (3.10 on, "atomic_read(&lock->count) == 1 && cmpxchg"). */
static bool km_trylock_spinning(struct kmutex *l)
{
	return __atomic_load_n(&l->state, __ATOMIC_RELAXED) == 0 && km_trylock(l);
}

/* mutex_set_owner(), right after the acquiring atomic. */
static void km_acquired(struct kmutex *l, struct kmutex_thread *me)
{
	/* Relaxed: a hint; the acquiring atomic orders the critical section. */
	__atomic_store_n(&l->owner, &me->rs, __ATOMIC_RELAXED);
	if (l->oracle == ORACLE_RQ_CURR)
		oracle_on_cpu(&me->rs);
}

/* ---- the spinner queue: MCS (3.10) and its cancellable form, OSQ (3.15) ---- */

/*
 * Waits for a successor that swapped itself into the tail to link itself, or
 * moves the tail back to `prev` when we are last: osq_wait_next().
 */
static struct km_node *km_queue_wait_next(struct kmutex *l, struct km_node *node, struct km_node *prev)
{
	for (;;) {
		struct km_node *expected = node;

		/* Release: a later queuer that finds `prev` at the tail sees our
		 * unlinking; acquire: pairs with the tail exchange of a queuer. */
		if (__atomic_load_n(&l->queue_tail, __ATOMIC_RELAXED) == node &&
		    __atomic_compare_exchange_n(&l->queue_tail, &expected, prev, false,
						__ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
			return NULL;
		/* Exchange, not load: a concurrent unqueue of our successor must
		 * not keep seeing us as its valid `prev` (osq_lock.c Step-A).
		 * Acquire: pairs with the successor's release store of ->next. */
		if (__atomic_load_n(&node->next, __ATOMIC_RELAXED)) {
			struct km_node *next = __atomic_exchange_n(&node->next, NULL, __ATOMIC_ACQUIRE);

			if (next)
				return next;
		}
		cpu_relax();
	}
}

/* Leaves the queue from the middle: osq_lock()'s unqueue, Steps A-C.
 * Returns true when the queue was handed to us after all. */
static bool km_queue_leave(struct kmutex *l, struct km_node *node, struct km_node *prev)
{
	struct km_node *next;

	/* A: detach from prev, or find that prev already handed over. */
	for (;;) {
		struct km_node *expected = node;

		/* Acq_rel, as the kernel's fully ordered cmpxchg: pairs with the
		 * acquire exchange of prev->next by prev's own unlock or unqueue
		 * (km_queue_unlock, km_queue_wait_next), whichever wins the line. */
		if (__atomic_load_n(&prev->next, __ATOMIC_RELAXED) == node &&
		    __atomic_compare_exchange_n(&prev->next, &expected, NULL, false,
						__ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
			break;
		/* Acquire: pairs with the release store of ->locked in km_queue_unlock. */
		if (__atomic_load_n(&node->locked, __ATOMIC_ACQUIRE))
			return true;
		cpu_relax();
		/* Acquire: pairs with Step C of prev's own unqueue, which gives us a new prev. */
		prev = __atomic_load_n(&node->prev, __ATOMIC_ACQUIRE);
	}
	/* B: stabilise next, or move the tail back to prev. */
	next = km_queue_wait_next(l, node, prev);
	if (!next)
		return false;
	/* C: link next to prev.  Release: next reads its new prev with acquire
	 * (Step A above); prev's unlock reads ->next with acquire. */
	__atomic_store_n(&next->prev, prev, __ATOMIC_RELEASE);
	__atomic_store_n(&prev->next, next, __ATOMIC_RELEASE);
	return false;
}

/*
 * Joins the queue and waits to reach its head.  With deadline UINT64_MAX the
 * wait never ends early (3.10's mspin_lock); otherwise the waiter unqueues
 * when the TSC passes it (3.15's osq_lock on need_resched()).
 */
static bool km_queue_lock(struct kmutex *l, struct km_node *node, uint64_t deadline)
{
	struct km_node *prev;

	__atomic_store_n(&node->locked, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&node->next, NULL, __ATOMIC_RELAXED);
	/* Release: publishes the node's fields to whoever links behind us;
	 * acquire: pairs with the release cmpxchg that emptied the queue. */
	prev = __atomic_exchange_n(&l->queue_tail, node, __ATOMIC_ACQ_REL);
	if (!prev)
		return true;
	__atomic_store_n(&node->prev, prev, __ATOMIC_RELAXED);
	/* Release: pairs with the acquire read of ->next by prev's unlock, which
	 * then writes our ->locked after our initialisation. */
	__atomic_store_n(&prev->next, node, __ATOMIC_RELEASE);
	/* Acquire: pairs with the release store of ->locked in km_queue_unlock. */
	while (!__atomic_load_n(&node->locked, __ATOMIC_ACQUIRE)) {
		if (deadline != UINT64_MAX && tsc_now() > deadline)
			return km_queue_leave(l, node, prev);
		cpu_relax();
	}
	return true;
}

static void km_queue_unlock(struct kmutex *l, struct km_node *node)
{
	struct km_node *expected = node, *next;

	/* Release: pairs with the acquire exchange of the next queuer. */
	if (__atomic_compare_exchange_n(&l->queue_tail, &expected, NULL, false,
					__ATOMIC_RELEASE, __ATOMIC_RELAXED))
		return;
	/* Acquire: pairs with the successor's release store of our ->next. */
	next = __atomic_exchange_n(&node->next, NULL, __ATOMIC_ACQUIRE);
	if (!next)
		next = km_queue_wait_next(l, node, NULL);
	/* Release: pairs with the acquire spin on ->locked in km_queue_lock. */
	if (next)
		__atomic_store_n(&next->locked, 1, __ATOMIC_RELEASE);
}

/* ---- the optimistic spin phase ---- */

/* mutex_can_spin_on_owner(): no owner (just released, or not yet set) or a
 * running one. */
static bool km_can_spin_on_owner(struct kmutex *l)
{
	const struct oracle_runstate *owner = __atomic_load_n(&l->owner, __ATOMIC_RELAXED);

	return !owner || oracle_owner_running(owner, l->oracle);
}

/* Spins on one owner; SPIN_EXIT_NR means "the owner left: try the lock". */
static enum spin_exit km_spin_on_owner(struct kmutex *l, struct kmutex_thread *me,
				       const struct oracle_runstate *owner, uint64_t deadline)
{
	switch (oracle_watch_owner(&l->owner, owner, &me->rs, l->oracle, deadline)) {
	case ORACLE_OWNER_NOT_RUNNING:
		return SPIN_EXIT_OWNER_NOT_RUNNING;
	case ORACLE_BUDGET:
		return SPIN_EXIT_BUDGET;
	case ORACLE_OWNER_LEFT:
		break;
	}
	/* The one decision the seed patch changed: a new owner already in
	 * place means heavy contention, so sleep (2.6.36 - 4.0); before and
	 * after, re-assess and spin on whoever owns it now. */
	if (l->pol->sleep_on_owner_change && __atomic_load_n(&l->owner, __ATOMIC_RELAXED))
		return SPIN_EXIT_OWNER_CHANGED;
	return SPIN_EXIT_NR;
}

/* One attempt of the spin loop: spin on the current owner, then try. */
static enum spin_exit km_spin_attempt(struct kmutex *l, struct kmutex_thread *me, uint64_t deadline)
{
	const struct oracle_runstate *owner = __atomic_load_n(&l->owner, __ATOMIC_RELAXED);
	enum spin_exit why = SPIN_EXIT_NR;

	if (owner)
		why = km_spin_on_owner(l, me, owner, deadline);
	if (why == SPIN_EXIT_NR && km_trylock_spinning(l)) {
		km_acquired(l, me);
		return SPIN_EXIT_ACQUIRED;
	}
	/* No owner to watch (between acquire and set_owner, or just
	 * released): the kernel's "!owner && need_resched()". */
	if (why == SPIN_EXIT_NR && !owner && tsc_now() > deadline)
		why = SPIN_EXIT_BUDGET;
	return why;
}

static enum spin_exit km_spin_loop(struct kmutex *l, struct kmutex_thread *me, uint64_t deadline)
{
	for (;;) {
		enum spin_exit why;

		if (l->pol->queue == KQ_MCS)
			km_queue_lock(l, &me->node, UINT64_MAX);
		why = km_spin_attempt(l, me, deadline);
		if (l->pol->queue == KQ_MCS)
			km_queue_unlock(l, &me->node);
		if (why != SPIN_EXIT_NR)
			return why;
		cpu_relax();
	}
}

/* mutex_optimistic_spin(): one spin phase, accounted in self->ev. */
static bool km_optimistic_spin(struct kmutex *l, struct lock_thread *self, struct kmutex_thread *me)
{
	uint64_t start = tsc_now(), deadline = start + l->budget;
	enum spin_exit why;

	if (l->oracle == ORACLE_RQ_CURR)
		oracle_on_cpu(&me->rs);
	if (!km_can_spin_on_owner(l))
		why = SPIN_EXIT_OWNER_NOT_RUNNING;
	else if (l->pol->queue == KQ_OSQ && !km_queue_lock(l, &me->node, deadline))
		why = SPIN_EXIT_QUEUE_GAVE_UP;
	else {
		why = km_spin_loop(l, me, deadline);
		if (l->pol->queue == KQ_OSQ)
			km_queue_unlock(l, &me->node);
	}
	self->ev.spin_exit[why]++;
	self->ev.spin_cycles += tsc_now() - start;
	return why == SPIN_EXIT_ACQUIRED;
}

/* ---- handoff (4.10): the woken waiter that still loses ---- */

/* Sleeps on our own grant word until the lock is handed to us. */
static uint64_t km_wait_for_grant(struct kmutex *l, struct kmutex_thread *me)
{
	uint32_t *grant = &me->node.grant;
	uint64_t waits = 0;

	for (;;) {
		/* Acquire: pairs with the release exchange in km_hand_over: the
		 * previous critical section happens before ours. */
		uint32_t g = __atomic_load_n(grant, __ATOMIC_ACQUIRE);
		uint32_t expected = KM_GRANT_WAITING;

		if (g == KM_GRANT_GIVEN)
			return waits;
		if (g == KM_GRANT_WAITING &&
		    !__atomic_compare_exchange_n(grant, &expected, KM_GRANT_SLEEPING, false,
						 __ATOMIC_RELAXED, __ATOMIC_RELAXED))
			continue;
		oracle_sleeping(&me->rs, l->oracle);
		futex_wait(grant, KM_GRANT_SLEEPING);
		oracle_awake(&me->rs, l->oracle);
		waits++;
	}
}

/*
 * The waiter-spinner (4.10): having set KM_HANDOFF, spin while the owner runs
 * and the budget lasts; the grant, not a cmpxchg, ends it.
 */
static bool km_waiter_spin(struct kmutex *l, struct lock_thread *self, struct kmutex_thread *me)
{
	uint64_t start = tsc_now(), deadline = start + l->budget;
	enum spin_exit why;

	for (;;) {
		const struct oracle_runstate *owner = __atomic_load_n(&l->owner, __ATOMIC_RELAXED);

		/* Acquire: pairs with the release exchange in km_hand_over. */
		if (__atomic_load_n(&me->node.grant, __ATOMIC_ACQUIRE) == KM_GRANT_GIVEN) {
			why = SPIN_EXIT_ACQUIRED;
			break;
		}
		if (owner && !oracle_owner_running(owner, l->oracle)) {
			why = SPIN_EXIT_OWNER_NOT_RUNNING;
			break;
		}
		if (tsc_now() > deadline) {
			why = SPIN_EXIT_BUDGET;
			break;
		}
		cpu_relax();
	}
	self->ev.spin_exit[why]++;
	self->ev.spin_cycles += tsc_now() - start;
	return why == SPIN_EXIT_ACQUIRED;
}

/* Takes a free lock as a waiter: WAITERS stays set, since others may sleep. */
static bool km_take_free(struct kmutex *l, uint32_t s, bool slept)
{
	uint32_t want = slept ? KM_LOCKED | KM_WAITERS : KM_LOCKED;

	/* Acquire: pairs with the release cmpxchg of the unlock that freed it. */
	return __atomic_compare_exchange_n(&l->state, &s, want, false,
					   __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

/*
 * Claims the handoff: become `handoff_to`, then either take the lock if it is
 * free or set KM_HANDOFF on the locked word, so its unlock hands it over.
 * Returns false when another waiter holds the claim.  *waits counts sleeps.
 */
static bool km_claim_handoff(struct kmutex *l, struct lock_thread *self,
			     struct kmutex_thread *me, uint64_t *waits)
{
	struct km_node *none = NULL;

	__atomic_store_n(&me->node.grant, KM_GRANT_WAITING, __ATOMIC_RELAXED);
	/* Acquire: pairs with the release store that ended the previous
	 * handoff, so its clearing of KM_HANDOFF is visible to us. */
	if (!__atomic_compare_exchange_n(&l->handoff_to, &none, &me->node, false,
					 __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
		return false;
	for (;;) {
		uint32_t s = __atomic_load_n(&l->state, __ATOMIC_RELAXED);

		if (!(s & KM_LOCKED)) {
			if (!km_take_free(l, s, true))
				continue;
			/* Ours without a handoff: withdraw the claim (no unlock
			 * reads it, as KM_HANDOFF was never set).  Release: pairs
			 * with the acquire claim of the next claimant. */
			__atomic_store_n(&l->handoff_to, NULL, __ATOMIC_RELEASE);
			km_acquired(l, me);
			return true;
		}
		/* KM_WAITERS too: we consumed a wake-up and now sleep on our grant
		 * word, so the others asleep on `state` need the flag to be woken
		 * when the lock, once ours, is released.  Release: publishes
		 * handoff_to and our grant word to the unlock that sees the flag
		 * (its acquire load of state). */
		if (__atomic_compare_exchange_n(&l->state, &s, s | KM_HANDOFF | KM_WAITERS, false,
						__ATOMIC_RELEASE, __ATOMIC_RELAXED))
			break;
	}
	if (!km_waiter_spin(l, self, me))
		*waits += km_wait_for_grant(l, me);
	return true;
}

/* ---- the sleep phase ---- */

/* The wait-list loop of __mutex_lock_common(); returns the futex waits. */
static uint64_t km_sleep_until_acquired(struct kmutex *l, struct lock_thread *self,
					struct kmutex_thread *me)
{
	uint64_t waits = 0;

	for (;;) {
		uint32_t s = __atomic_load_n(&l->state, __ATOMIC_RELAXED);

		if (!(s & KM_LOCKED)) {
			if (km_take_free(l, s, waits > 0)) {
				km_acquired(l, me);
				return waits;
			}
			continue;
		}
		/* 4.10: woken, and still lost: ask for the lock to be handed over. */
		if (waits && l->pol->handoff && km_claim_handoff(l, self, me, &waits))
			return waits;
		/* Relaxed: the futex compares the word itself; no data rides on it. */
		if (!(s & KM_WAITERS) &&
		    !__atomic_compare_exchange_n(&l->state, &s, s | KM_WAITERS, false,
						 __ATOMIC_RELAXED, __ATOMIC_RELAXED))
			continue;
		oracle_sleeping(&me->rs, l->oracle);
		futex_wait(&l->state, s | KM_WAITERS);
		oracle_awake(&me->rs, l->oracle);
		waits++;
	}
}

/* ---- lock_ops ---- */

static int kmutex_init(void *lock, const struct lock_params *params, const struct kmutex_policy *pol)
{
	struct kmutex *l = lock;
	int err = oracle_check(params->oracle);

	if (err)
		return err;
	l->pol = pol;
	l->oracle = params->oracle;
	l->budget = params->spin_budget_cycles ? params->spin_budget_cycles : KMUTEX_DEFAULT_SPIN_BUDGET;
	__atomic_store_n(&l->state, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&l->owner, NULL, __ATOMIC_RELAXED);
	__atomic_store_n(&l->queue_tail, NULL, __ATOMIC_RELAXED);
	__atomic_store_n(&l->handoff_to, NULL, __ATOMIC_RELAXED);
	return 0;
}

static void kmutex_destroy(void *lock)
{
	(void)lock;
}

static void kmutex_thread_init(void *lock, struct lock_thread *self)
{
	(void)lock;
	oracle_thread_init(&km_self(self)->rs);
}

static bool kmutex_lock(void *lock, struct lock_thread *self)
{
	struct kmutex *l = lock;
	struct kmutex_thread *me = km_self(self);
	uint64_t waits;

	if (km_trylock(l)) {
		km_acquired(l, me);
		self->ev.acq_fast++;
		return false;
	}
	if (l->pol->spin && km_optimistic_spin(l, self, me)) {
		self->ev.acq_spin++;
		return true;
	}
	if (l->oracle == ORACLE_RQ_CURR)
		oracle_on_cpu(&me->rs);
	waits = km_sleep_until_acquired(l, self, me);
	self->ev.futex_waits += waits;
	if (waits)
		self->ev.acq_sleep++;
	else
		self->ev.acq_spin++;
	return true;
}

/* __mutex_handoff(): the lock stays locked and becomes `to`'s. */
static void km_hand_over(struct kmutex *l, struct lock_thread *self, uint32_t s)
{
	struct km_node *to = __atomic_load_n(&l->handoff_to, __ATOMIC_RELAXED);
	struct kmutex_thread *next = km_of_node(to);

	/* Relaxed: the lock stays held throughout; the grant orders the rest. */
	while (!__atomic_compare_exchange_n(&l->state, &s, s & ~KM_HANDOFF, false,
					    __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;
	__atomic_store_n(&l->owner, &next->rs, __ATOMIC_RELAXED);
	/* Release: pairs with the acquire claim of the next claimant, which must
	 * see KM_HANDOFF cleared before it sets it again. */
	__atomic_store_n(&l->handoff_to, NULL, __ATOMIC_RELEASE);
	self->ev.handoffs++;
	/* Release: hands our critical section to the waiter's acquire load. */
	if (__atomic_exchange_n(&to->grant, KM_GRANT_GIVEN, __ATOMIC_RELEASE) == KM_GRANT_SLEEPING) {
		self->ev.futex_wakes++;
		futex_wake(&to->grant, 1);
	}
}

static void kmutex_unlock_slow(struct kmutex *l, struct lock_thread *self)
{
	/* Acquire: pairs with the release cmpxchg that set KM_HANDOFF, so
	 * handoff_to is visible when the flag is. */
	uint32_t s = __atomic_load_n(&l->state, __ATOMIC_ACQUIRE);

	for (;;) {
		if (s & KM_HANDOFF) {
			km_hand_over(l, self, s);
			return;
		}
		/* Release: publishes the critical section to the next acquirer.
		 * Acquire on failure, as the load above. */
		if (__atomic_compare_exchange_n(&l->state, &s, 0, false,
						__ATOMIC_RELEASE, __ATOMIC_ACQUIRE))
			break;
	}
	if (s & KM_WAITERS) {
		self->ev.futex_wakes++;
		futex_wake(&l->state, 1);
	}
}

static void kmutex_unlock(void *lock, struct lock_thread *self)
{
	struct kmutex *l = lock;
	uint32_t expected = KM_LOCKED;

	/* mutex_clear_owner() before the release.  Relaxed: a hint, and the
	 * release below orders it before the next owner's store. */
	__atomic_store_n(&l->owner, NULL, __ATOMIC_RELAXED);
	/* Release: publishes the critical section to the next acquirer. */
	if (__atomic_compare_exchange_n(&l->state, &expected, 0, false,
					__ATOMIC_RELEASE, __ATOMIC_RELAXED))
		return;
	kmutex_unlock_slow(l, self);
}

static bool kmutex_trylock(void *lock, struct lock_thread *self)
{
	struct kmutex *l = lock;

	if (!km_trylock(l))
		return false;
	km_acquired(l, km_self(self));
	return true;
}

/* One registered lock per kernel era: its policy, an init that installs it,
 * and the ops. */
#define KMUTEX_LOCK(id, lock_name, desc, ...)						\
	static const struct kmutex_policy policy_##id = { __VA_ARGS__ };		\
	static int init_##id(void *lock, const struct lock_params *params)		\
	{										\
		return kmutex_init(lock, params, &policy_##id);				\
	}										\
	const struct lock_ops lock_ops_##id = {						\
		.name = lock_name,							\
		.description = desc,							\
		.size = sizeof(struct kmutex),						\
		.thread_size = sizeof(struct kmutex_thread),				\
		.flags = LOCK_F_PHASES | LOCK_F_SLEEPS,					\
		.init = init_##id,							\
		.destroy = kmutex_destroy,						\
		.thread_init = kmutex_thread_init,					\
		.lock = kmutex_lock,							\
		.unlock = kmutex_unlock,						\
		.trylock = kmutex_trylock,						\
	}

KMUTEX_LOCK(kmutex_sleep, "kmutex-sleep",
	    "kernel mutex before 2.6.29: no spinning, contended waiters sleep at once",
	    .spin = false);
KMUTEX_LOCK(kmutex_spin, "kmutex-spin",
	    "kernel mutex 2.6.29-2.6.35: spin while the owner runs; new owner: spin on it",
	    .spin = true);
KMUTEX_LOCK(kmutex_fix, "kmutex-fix",
	    "kernel mutex 2.6.36 (Tim Chen's fix): owner changed while spinning: sleep",
	    .spin = true, .sleep_on_owner_change = true);
KMUTEX_LOCK(kmutex_mcs, "kmutex-mcs",
	    "kernel mutex 3.10-3.14: spinners queue on an MCS lock, one spins on the owner",
	    .spin = true, .sleep_on_owner_change = true, .queue = KQ_MCS);
KMUTEX_LOCK(kmutex_osq, "kmutex-osq",
	    "kernel mutex 3.15-4.0: cancellable spinner queue (OSQ), left when the budget ends",
	    .spin = true, .sleep_on_owner_change = true, .queue = KQ_OSQ);
KMUTEX_LOCK(kmutex_handoff, "kmutex-handoff",
	    "kernel mutex 4.10 on: OSQ, spin on new owners, handoff to a woken waiter that lost",
	    .spin = true, .queue = KQ_OSQ, .handoff = true);
