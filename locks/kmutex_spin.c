/*
 * kmutex_spin.c — the kmutex optimistic spin phase (internal to the kmutex
 * lock: locks/kmutex_internal.h): mutex_optimistic_spin() with
 * mutex_can_spin_on_owner() and mutex_spin_on_owner(), each era's
 * decisions taken from its policy.  Called by the lock's slow path
 * (kmutex.c) and by 4.10's waiter-spinner (kmutex_wait.c); it calls only the
 * spinner queue (locks/spinq.h, which knows nothing of the mutex) and the
 * oracle, so calls go one way: kmutex.c -> kmutex_wait.c -> kmutex_spin.c
 * -> spinq.c (the kernel's mutex.c -> osq_lock.c, with its spin and wait
 * paths cut apart here only to keep each file short).  Here too what the
 * mutex adds to the queue: when a queued waiter leaves, and the count of
 * its preemptions while queued.
 */
#include <stddef.h>

#include "kmutex_internal.h"

/* ---- the spinner queue (locks/spinq.h), as the mutex uses it ---- */

static struct kmutex_thread *km_of_node(struct spinq_node *node)
{
	return (struct kmutex_thread *)((char *)node - offsetof(struct kmutex_thread, node));
}

/* What a queued waiter's leave test needs: its lock and its spin phase
 * (NULL: 3.10's mspin_lock, never left). */
struct km_queue_wait {
	struct kmutex *l;
	const struct oracle_spin *spin;
};

/* Whether a queued waiter must leave: need_resched() or the budget (3.15's
 * osq_lock), and from 4.10 a predecessor off its CPU (vcpu_is_preempted:
 * here the predecessor is a thread the scheduler can take off, as a
 * hypervisor takes a vCPU).  Inlined into spinq_lock()'s wait. */
static bool km_queue_should_leave(struct spinq_node *node, void *ctx)
{
	const struct km_queue_wait *qw = ctx;

	if (!qw->spin)
		return false;
	if (oracle_spin_over(qw->spin) != ORACLE_SPINNING)
		return true;
	if (qw->l->pol->handoff)
		return !oracle_owner_running(&km_of_node(spinq_prev(node))->rs, qw->l->oracle);
	return false;
}

/* The queued waiter's preemptions since it joined (queue_preempted). */
static void km_queue_left(struct kmutex_thread *me)
{
	km_lock_thread(me)->ev.queue_preempted += km_preempted_now(me) - me->own.preempted_at_queue;
}

/*
 * Joins the queue and waits to reach its head.  With `spin` NULL the wait
 * never ends early (3.10's mspin_lock); otherwise the waiter unqueues when
 * km_queue_should_leave() says so (osq_lock).  Out of line: kmutex-mcs's
 * spin loop calls it on every attempt, and the queue's wait, inlined here,
 * stays out of that loop.
 */
static __attribute__((noinline)) bool km_queue_lock(struct kmutex *l, struct kmutex_thread *me,
						    const struct oracle_spin *spin)
{
	struct km_queue_wait qw = { l, spin };

	me->own.preempted_at_queue = km_preempted_now(me);
	if (spinq_lock(l->queue, &me->node, km_queue_should_leave, &qw))
		return true;  /* handed the queue while leaving, too: its unlock counts the rest */
	km_queue_left(me);
	return false;
}

/* Leaves the queue.  Inline: kmutex-mcs takes and leaves the queue on every
 * attempt of its spin loop. */
static inline void km_queue_unlock(struct kmutex *l, struct kmutex_thread *me)
{
	km_queue_left(me);
	spinq_unlock(l->queue, &me->node);
}

/* ---- the spin phase ---- */

/* The owner hint, for reading its run-state through: acquire, pairing with
 * the release of the store that set it (km_acquired, km_hand_over).  The
 * kernel's ACCESS_ONCE (later READ_ONCE) of lock->owner and its dependent
 * loads: C11's consume, which compilers implement as acquire, and x86-64
 * as a plain mov. */
static inline const struct oracle_runstate *km_owner(const struct kmutex *l)
{
	return pr_load(&l->owner, PR_ACQUIRE);
}

static enum spin_exit km_exit_of(enum oracle_watch why)
{
	switch (why) {
	case ORACLE_OWNER_NOT_RUNNING:
		return SPIN_EXIT_OWNER_NOT_RUNNING;
	case ORACLE_NEED_RESCHED:
		return SPIN_EXIT_NEED_RESCHED;
	case ORACLE_BUDGET:
		return SPIN_EXIT_BUDGET;
	default:
		return SPIN_EXIT_NR;
	}
}

/* mutex_can_spin_on_owner() (3.10 on): not when we must reschedule, nor when
 * the owner is off its CPU; a NULL owner (just released, or not yet set)
 * lets us try. */
static enum spin_exit km_can_spin_on_owner(struct kmutex *l, const struct oracle_spin *spin)
{
	const struct oracle_runstate *owner = km_owner(l);
	enum spin_exit why = km_exit_of(oracle_spin_over(spin));

	if (why == SPIN_EXIT_NR && owner && !oracle_owner_running(owner, l->oracle))
		why = SPIN_EXIT_OWNER_NOT_RUNNING;
	return why;
}

/* mutex_spin_on_owner(); SPIN_EXIT_NR means "the owner left: try the lock". */
static enum spin_exit km_spin_on_owner(struct kmutex *l, struct kmutex_thread *me,
				       const struct oracle_runstate *owner, const struct oracle_spin *spin)
{
	enum oracle_watch why = oracle_watch_owner(&l->owner, owner, &me->rs, l->oracle, spin,
						   l->pol->owner_cpu_fixed);

	if (why != ORACLE_OWNER_LEFT)
		return km_exit_of(why);
	/* The one decision the seed patch changed: a new owner already in
	 * place means heavy contention, so sleep (2.6.36 - 4.0); before and
	 * after, re-assess and spin on whoever owns it now. */
	if (l->pol->sleep_on_owner_change && pr_load(&l->owner, PR_RELAXED))
		return SPIN_EXIT_OWNER_CHANGED;
	return SPIN_EXIT_NR;
}

/* The spin loop's try: the count's cmpxchg before 4.10, __mutex_trylock()
 * from 4.10 (as the waiter-spinner `handoff`: clearing our KM_HANDOFF). */
static bool km_spin_trylock(struct kmutex *l, bool handoff, uint64_t *failed)
{
	if (km_count_era(l))
		return km_count_cmpxchg(l, l->pol->blind_cmpxchg, failed);
	return km_trylock_keep_flags(l, handoff, failed);
}

/*
 * One attempt of the spin loop: spin on the current owner, then try.  `w`:
 * we are 4.10's waiter-spinner, the first waiter, whose lock an unlock may
 * hand over instead of releasing ("owner == task").
 */
static enum spin_exit km_spin_attempt(struct kmutex *l, struct lock_thread *self, struct kmutex_thread *me,
				      struct km_waiter *w, const struct oracle_spin *spin)
{
	const struct oracle_runstate *owner = km_owner(l);
	enum spin_exit why = SPIN_EXIT_NR;

	/* Acquire: pairs with the release store of the grant in km_hand_over. */
	if (w && pr_load(&w->granted, PR_ACQUIRE)) {
		km_handed_over(l, me);
		return SPIN_EXIT_ACQUIRED;
	}
	if (owner && owner != &me->rs)
		why = km_spin_on_owner(l, me, owner, spin);
	if (why == SPIN_EXIT_NR && km_spin_trylock(l, w != NULL, &self->ev.spin_cas_failed)) {
		km_acquired(l, me);
		return SPIN_EXIT_ACQUIRED;
	}
	/* No owner to watch (between acquire and set_owner, or just
	 * released): the kernel's "!owner && need_resched()".  Before 4.10 also
	 * "|| rt_task(task)", not modelled: the threads stand for the kernel's
	 * ordinary tasks (docs/kmutex.md, "What the models cannot do"). */
	if (why == SPIN_EXIT_NR && !owner)
		why = km_exit_of(oracle_spin_over(spin));
	return why;
}

static enum spin_exit km_spin_loop(struct kmutex *l, struct lock_thread *self, struct kmutex_thread *me,
				   struct km_waiter *w, const struct oracle_spin *spin)
{
	for (;;) {
		enum spin_exit why;

		if (l->pol->queue == KQ_MCS && !w)
			km_queue_lock(l, me, NULL);
		why = km_spin_attempt(l, self, me, w, spin);
		if (l->pol->queue == KQ_MCS && !w)
			km_queue_unlock(l, me);
		if (why != SPIN_EXIT_NR)
			return why;
		pr_relax();
	}
}

/*
 * mutex_optimistic_spin(): one spin phase, accounted in self->ev.  `w`: the
 * 4.10 waiter-spinner, which neither asks mutex_can_spin_on_owner() nor
 * takes the OSQ (it is already first on the wait list).
 */
bool km_optimistic_spin(struct kmutex *l, struct lock_thread *self, struct kmutex_thread *me,
			struct km_waiter *w)
{
	uint64_t start = pr_clock();
	bool queued = l->pol->queue == KQ_OSQ && !w;
	struct oracle_spin spin;
	enum spin_exit why = SPIN_EXIT_NR;

	oracle_spin_start(&spin, &me->rs, l->oracle, l->budget);
	if (l->pol->can_spin_gate && !w)
		why = km_can_spin_on_owner(l, &spin);
	if (why == SPIN_EXIT_NR && queued && !km_queue_lock(l, me, &spin))
		why = SPIN_EXIT_QUEUE_GAVE_UP;
	else if (why == SPIN_EXIT_NR) {
		why = km_spin_loop(l, self, me, w, &spin);
		if (queued)
			km_queue_unlock(l, me);
	}
	self->ev.spin_exit[why]++;
	self->ev.spin_cycles += pr_clock() - start;
	return why == SPIN_EXIT_ACQUIRED;
}
