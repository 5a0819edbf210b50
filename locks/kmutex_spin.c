/*
 * kmutex_spin.c — the kmutex optimistic spin phase (internal to the kmutex
 * lock: locks/kmutex_internal.h): mutex_optimistic_spin() with
 * mutex_can_spin_on_owner() and mutex_spin_on_owner(), each era's
 * decisions taken from its policy.  Called by the lock's slow path
 * (kmutex.c) and by 4.10's waiter-spinner (kmutex_wait.c); it calls only the
 * spinner queue (kmutex_queue.c) and the oracle, so calls between the four
 * files go one way: kmutex.c -> kmutex_wait.c -> kmutex_spin.c ->
 * kmutex_queue.c (the kernel's mutex.c -> osq_lock.c, with its spin and wait
 * paths cut apart here only to keep each file short).
 */
#include "kmutex_internal.h"

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
			km_queue_lock(l, &me->node, NULL);
		why = km_spin_attempt(l, self, me, w, spin);
		if (l->pol->queue == KQ_MCS && !w)
			km_queue_unlock(l, &me->node);
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
	if (why == SPIN_EXIT_NR && queued && !km_queue_lock(l, &me->node, &spin))
		why = SPIN_EXIT_QUEUE_GAVE_UP;
	else if (why == SPIN_EXIT_NR) {
		why = km_spin_loop(l, self, me, w, &spin);
		if (queued)
			km_queue_unlock(l, &me->node);
	}
	self->ev.spin_exit[why]++;
	self->ev.spin_cycles += pr_clock() - start;
	return why == SPIN_EXIT_ACQUIRED;
}
