/*
 * kmutex — the Linux kernel mutex in userspace, one implementation with a
 * policy per kernel era, so that each era's one decision can be measured
 * against the others.  Modelled on the kernel sources (read, not copied):
 *
 *   kmutex-sleep    before 2.6.29: kernel/mutex.c __mutex_lock_common() goes
 *                   straight to the wait list and schedule().
 *   kmutex-spin     2.6.29-2.6.35: adaptive spinning (Peter Zijlstra, from -rt):
 *                   the loop in __mutex_lock_common() and mutex_spin_on_owner()
 *                   in kernel/sched.c, which watches rq->curr of the CPU the
 *                   owner was on when the spin began.  When lock->owner
 *                   changes the spinner "breaks to re-assess": a blind
 *                   cmpxchg, re-read the owner, spin on the new one.  Any
 *                   number of waiters spin at once.
 *   kmutex-fix      2.6.36, Tim Chen's patch (shared/seeds/): when the owner
 *                   changes to another non-NULL owner, return 0 — stop
 *                   spinning and sleep.
 *   kmutex-mcs      3.10-3.14: mutex_can_spin_on_owner() gates the spin;
 *                   spinners take an MCS lock (mspin_lock, inside struct
 *                   mutex) around each attempt, so one waiter spins on the
 *                   owner; a queued waiter cannot leave the queue; the owner
 *                   watched through owner->on_cpu, the count read before its
 *                   cmpxchg.  mutex_spin_on_owner() returns lock->owner ==
 *                   NULL: the 2.6.36 rule, kept.  The sleep path tries "once
 *                   more" before joining the list (3.12 on).
 *   kmutex-osq      3.15-4.0: the queue becomes the cancellable MCS lock
 *                   (osq_lock, kernel/locking/mcs_spinlock.c, later osq_lock.c),
 *                   held for the whole spin and left on need_resched(); still
 *                   the 2.6.36 rule (4.1 drops it: see kmutex-handoff); the
 *                   slow unlock frees the count before taking wait_lock.
 *   kmutex-handoff  4.10 on: kernel/locking/mutex.c with the owner-change rule
 *                   of 4.1 on (owner changed: keep spinning, since only the OSQ
 *                   head spins), the owner word with flags kept across unlock,
 *                   and MUTEX_FLAG_HANDOFF: a woken waiter that is first on
 *                   the wait list sets the flag, spins as the "waiter-spinner",
 *                   and the next __mutex_unlock_slowpath() hands it the lock
 *                   (__mutex_handoff) instead of releasing it.  OSQ waiters
 *                   also leave when their predecessor is off its CPU
 *                   (vcpu_is_preempted(node_cpu(node->prev)), 4.10 on).
 *
 * Shape shared by every policy, as in the kernel:
 * - `state`, before 4.10, x86's count (asm/mutex_64.h) as 1 - count:
 *   KM_COUNT_FREE, KM_COUNT_LOCKED, KM_COUNT_CONTENDED and above.  The fast
 *   path is `lock decl`, so every failed attempt — a spinner's first one too
 *   — marks the count contended, and the owner's unlock (`lock incl`) then
 *   takes the slow path: wait_lock, atomic_set(&count, 1) (before 3.15 under
 *   wait_lock, from 3.15 just before it), wake the first waiter.  A free lock
 *   is always KM_COUNT_FREE: the mark is lost on release, and the woken
 *   waiter's xchg(count, -1) sets it again.  From 4.10 the owner word's
 *   flags: KM_LOCKED; KM_WAITERS (MUTEX_FLAG_WAITERS): unlock must take the
 *   slow path; KM_HANDOFF: unlock must hand the lock to the first waiter,
 *   never release it; the flags survive a release.
 * - `owner`: the holder's run-state (oracle.h), written right after the
 *   acquiring atomic and cleared before the releasing one, a hint for spinners
 *   only: mutual exclusion rests on `state` (and a handoff's grant) alone.
 * - lock: the fast path; then the optimistic spin phase; then the wait
 *   list: a FIFO of waiters under `wait_lock`, each sleeping on its own futex
 *   word; unlock wakes the first, after dropping wait_lock.  A woken waiter
 *   that loses the race stays first and sleeps again, as in the kernel (a
 *   futex queue would send it to the back).  The waiter that takes the lock
 *   leaves the list, and the last one out clears the waiters' mark.
 * - What ends a spin: the owner off its CPU, need_resched(), and an optional
 *   TSC budget — which of them this process can see is the oracle's business
 *   (oracle.h); with `sched` there is no budget unless one is asked for.
 *
 * Differences from the kernel, all forced by userspace (docs/kmutex.md,
 * "What the models cannot do", measures each): spinners, queued waiters and
 * wait_lock holders can be preempted (the kernel runs them with preemption
 * off), which the sched oracle sees and counts; wait_lock yields after a
 * short spin rather than spin through a preempted holder's timeslice; the
 * futex wake comes after wait_lock is dropped (before 4.10 the kernel woke
 * under it, where nothing could preempt the waker); queue nodes are per
 * thread, not per CPU; and `owner` is a word apart from `state`, so the
 * kernel's "!owner && need_resched()" exit stays in every era (from 4.10 the
 * kernel's owner *is* the lock word, and a NULL owner means free).
 *
 * One lock in three files, calls going one way (kmutex_internal.h): this
 * one, with the fast path, unlock, the settings and the ops; the wait list
 * and the sleep in kmutex_wait.c; the optimistic spin phase in
 * kmutex_spin.c, which both of those call.  The spinner queue is a type of
 * its own beneath them, knowing nothing of the mutex (locks/spinq.h,
 * spinq.c: osq_lock.c), which only the spin takes.
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "kmutex_internal.h"

static inline struct kmutex_thread *km_self(struct lock_thread *self)
{
	return (struct kmutex_thread *)self->priv;
}

static struct kmutex_thread *km_of_waiter(struct km_waiter *w)
{
	return (struct kmutex_thread *)((char *)w - offsetof(struct kmutex_thread, waiter));
}

/* ---- the lock word (and kmutex_internal.h) ---- */

/*
 * The fast path.  Before 4.10 x86's `lock decl` on the count: it takes a free
 * lock, and marks a held one contended (count below 0), so that the owner's
 * unlock will take the slow path; a spinner's failed attempt included.  From
 * 4.10 a compare-and-swap that wants a free lock with no flags.  Acquire:
 * pairs with the release of the unlock that freed it.
 */
static bool km_fast_lock(struct kmutex *l)
{
	uint32_t expected = 0;

	if (km_count_era(l))
		return pr_fetch_add(&l->state, 1, PR_ACQUIRE) == KM_COUNT_FREE;
	return pr_cas(&l->state, &expected, KM_LOCKED, PR_ACQUIRE, PR_RELAXED);
}

/* ---- settings: --lock-opt oracle=NAME, spin-budget=CYCLES, layout=lines|kernel,
 *      wait-lock=auto|tas-yield|ticket ---- */

/* In struct lock_settings' bytes; zeroed: auto, the oracle's own budget. */
struct kmutex_settings {
	uint64_t spin_budget_cycles;  /* as asked; 0 = the oracle's default (oracle_spin_budget) */
	int32_t oracle_requested;     /* enum oracle_kind, ORACLE_AUTO by default */
	int32_t oracle;               /* settled by kmutex_prepare(); ORACLE_AUTO before */
	char fallback[200];           /* why sched could not load when auto fell back; "" otherwise */
	int32_t layout;               /* enum km_layout; zeroed: lines */
	int32_t wait_lock;            /* enum km_wait_lock_kind; zeroed: auto */
};
_Static_assert(sizeof(struct kmutex_settings) <= LOCK_SETTINGS_SIZE, "kmutex settings outgrow lock_settings");

/* Copied in and out: the bytes are unsigned char, never read as another type. */
static struct kmutex_settings km_settings_of(const unsigned char *bytes)
{
	struct kmutex_settings k;

	memcpy(&k, bytes, sizeof(k));
	return k;
}

static struct kmutex_settings km_settings(const struct lock_settings *s)
{
	return km_settings_of(s->bytes);
}

static void km_settings_store(unsigned char *bytes, const struct kmutex_settings *k)
{
	memcpy(bytes, k, sizeof(*k));
}

static const char *oracle_name_at(size_t i)
{
	return oracle_name[i];
}

static int km_set_oracle(unsigned char *bytes, const char *value, char *err, size_t errlen)
{
	struct kmutex_settings k = km_settings_of(bytes);
	int kind = option_pick(value, ORACLE_NR, oracle_name_at, "unknown oracle", err, errlen);

	if (kind < 0)
		return -1;
	k.oracle_requested = kind;
	km_settings_store(bytes, &k);
	return 0;
}

#define KM_MAX_BUDGET UINT64_C(1000000000000)

static int km_set_budget(unsigned char *bytes, const char *value, char *err, size_t errlen)
{
	struct kmutex_settings k = km_settings_of(bytes);

	if (option_u64(value, 0, KM_MAX_BUDGET, &k.spin_budget_cycles, err, errlen))
		return -1;
	km_settings_store(bytes, &k);
	return 0;
}

static const char *const km_layout_name[KM_LAYOUT_NR] = {
	[KM_LAYOUT_LINES] = "lines",
	[KM_LAYOUT_KERNEL] = "kernel",
};

static const char *km_layout_name_at(size_t i)
{
	return km_layout_name[i];
}

static int km_set_layout(unsigned char *bytes, const char *value, char *err, size_t errlen)
{
	struct kmutex_settings k = km_settings_of(bytes);

	k.layout = option_pick(value, KM_LAYOUT_NR, km_layout_name_at, "unknown layout", err, errlen);
	if (k.layout < 0)
		return -1;
	km_settings_store(bytes, &k);
	return 0;
}

/* wait-lock=: zeroed, auto. */
enum km_wait_lock_kind { KW_AUTO, KW_TAS_YIELD, KW_TICKET, KW_NR };

static const char *const km_wait_lock_name[KW_NR] = {
	[KW_AUTO] = "auto",
	[KW_TAS_YIELD] = "tas-yield",
	[KW_TICKET] = "ticket",
};

static const char *km_wait_lock_name_at(size_t i)
{
	return km_wait_lock_name[i];
}

static int km_set_wait_lock(unsigned char *bytes, const char *value, char *err, size_t errlen)
{
	struct kmutex_settings k = km_settings_of(bytes);

	k.wait_lock = option_pick(value, KW_NR, km_wait_lock_name_at, "unknown wait-lock", err, errlen);
	if (k.wait_lock < 0)
		return -1;
	km_settings_store(bytes, &k);
	return 0;
}

/* auto: the kernel's ticket spinlock where a holder keeps its CPU (the
 * simulator's kernel semantics), else tas-yield: a preempted userspace
 * holder would stall every queued ticket for its timeslice. */
static enum km_wait_lock_kind km_wait_lock_kind(const struct kmutex_settings *k)
{
	if (k->wait_lock != KW_AUTO)
		return k->wait_lock;
	return pr_holder_preemptible() ? KW_TAS_YIELD : KW_TICKET;
}

static const struct option_def kmutex_options[] = {
	{ "oracle", "auto|sched|runstate|rq-curr",
	  "what spinners see: sched, the kernel's view via BPF; default auto, sched where it loads, else runstate",
	  km_set_oracle, "oracle" },
	{ "spin-budget", "CYCLES",
	  "optimistic-spin budget in TSC cycles; default 0: none with sched, 32768 with the others",
	  km_set_budget, "spin-budget" },
	{ "layout", "lines|kernel",
	  "where the spinner-queue tail and the wait list are: lines (default), each on a line of its own; "
	  "kernel, on the owner word's line, as in struct mutex",
	  km_set_layout, NULL },
	{ "wait-lock", "auto|tas-yield|ticket",
	  "wait_lock: tas-yield, test-and-set yielding to a preempted holder; ticket, the kernel's FIFO ticket "
	  "spinlock (x86, 2.6.25-4.1), which convoys when a userspace holder is preempted; default auto: "
	  "ticket under the simulator's kernel semantics, else tas-yield",
	  km_set_wait_lock, NULL },
	{ NULL, NULL, NULL, NULL, NULL },
};

/* The oracle, settled before the threads start: sched is loaded here, sized
 * to the run's threads; auto falls back to runstate, saying why. */
static int kmutex_prepare(struct lock_settings *s, unsigned int threads, char *msg, size_t msglen)
{
	struct kmutex_settings k = km_settings(s);

	k.oracle = oracle_settle(k.oracle_requested, threads, k.fallback, sizeof(k.fallback));
	/* wait-lock auto settled now, while the machine that runs the lock (a
	 * simulator, whose semantics decide) is the one asked: the figures are
	 * written after it is gone. */
	k.wait_lock = km_wait_lock_kind(&k);
	if (k.oracle < 0) {
		snprintf(msg, msglen, "oracle sched unavailable: %s", k.fallback);
		return -1;
	}
	km_settings_store(s->bytes, &k);
	if (!k.fallback[0])
		return 0;
	snprintf(msg, msglen, "oracle sched unavailable (%s): using runstate, spin budget %" PRIu64 " cycles",
		 k.fallback, oracle_spin_budget(k.oracle, k.spin_budget_cycles));
	return 1;
}

static void kmutex_settings_figures(const struct lock_settings *s, lock_put_fn *put, void *ctx)
{
	struct kmutex_settings k = km_settings(s);
	int oracle = oracle_resolve(k.oracle != ORACLE_AUTO ? k.oracle : k.oracle_requested);
	char num[24];

	snprintf(num, sizeof(num), "%" PRIu64, k.spin_budget_cycles);
	put(ctx, "spin_budget_cycles", num);
	put(ctx, "oracle", oracle_name[oracle]);
	put(ctx, "oracle_requested", oracle_name[k.oracle_requested]);
	snprintf(num, sizeof(num), "%" PRIu64, oracle_spin_budget(oracle, k.spin_budget_cycles));
	put(ctx, "spin_budget_effective_cycles", num);
	put(ctx, "oracle_fallback", k.fallback[0] ? k.fallback : "-");
	/* When a spinner learns of need_resched(): as it is set (the kernel's
	 * tracepoint), or only after the preemption it asked for. */
	put(ctx, "oracle_need_resched", oracle != ORACLE_SCHED ? "-" :
	    oracle_sched_sees_resched() ? "when-set" : "after-preemption");
	put(ctx, "layout", km_layout_name[k.layout]);
	put(ctx, "wait_lock", km_wait_lock_name[km_wait_lock_kind(&k)]);
}

/* ---- lock_ops ---- */

static int kmutex_init(void *lock, const struct lock_params *params, const struct kmutex_policy *pol)
{
	struct kmutex *l = lock;
	struct kmutex_settings k = km_settings(&params->settings);
	/* Settled by prepare() in a run; a test that calls init directly gets
	 * what its request means now. */
	int oracle = oracle_resolve(k.oracle != ORACLE_AUTO ? k.oracle : k.oracle_requested);
	int err = oracle_check(oracle);

	if (err)
		return err;
	l->pol = pol;
	l->oracle = oracle;
	l->budget = oracle_spin_budget(oracle, k.spin_budget_cycles);
	pr_store(&l->state, 0, PR_RELAXED);
	pr_store(&l->owner, NULL, PR_RELAXED);
	l->queue = k.layout == KM_LAYOUT_KERNEL ? &l->kernel_queue : &l->lines_queue;
	l->wait = k.layout == KM_LAYOUT_KERNEL ? &l->kernel_wait : &l->lines_wait;
	l->wait_ticket = km_wait_lock_kind(&k) == KW_TICKET;
	spinq_init(l->queue);
	pr_store(&l->wait->lock, 0, PR_RELAXED);
	pr_store(&l->wait->head, 0, PR_RELAXED);
	pr_store(&l->wait->tail, 0, PR_RELAXED);
	pr_store(&l->wait->first, NULL, PR_RELAXED);
	l->wait->last = NULL;
	return 0;
}

static void kmutex_destroy(void *lock)
{
	(void)lock;
}

static void kmutex_thread_init(void *lock, struct lock_thread *self)
{
	struct kmutex *l = lock;

	oracle_thread_init(&km_self(self)->rs, l->oracle);
}

static bool kmutex_lock(void *lock, struct lock_thread *self)
{
	struct kmutex *l = lock;
	struct kmutex_thread *me = km_self(self);
	uint64_t waits, lost = 0;

	if (km_fast_lock(l)) {
		km_acquired(l, me);
		self->ev.acq_fast++;
		return false;
	}
	/* 4.10: the fast path wants a flagless word, but a free lock may keep
	 * KM_WAITERS; the slow path's __mutex_trylock() takes it anyway. */
	if (l->pol->handoff && km_trylock_keep_flags(l, false, &lost)) {
		km_acquired(l, me);
		self->ev.acq_nosleep++;
		self->ev.nosleep_unqueued++;
		return true;
	}
	if (l->pol->spin && km_optimistic_spin(l, self, me, NULL)) {
		self->ev.acq_spin++;
		return true;
	}
	oracle_running(&me->rs, l->oracle);
	waits = km_wait_until_acquired(l, self, me);
	self->ev.futex_waits += waits;
	if (waits)
		self->ev.acq_sleep++;
	else
		self->ev.acq_nosleep++;
	return true;
}

/*
 * wake_up_process() of a waiter, in two steps.  The mark, under wait_lock:
 * while we hold it the waiter cannot leave the list, so its word is still
 * there to write.  The futex wake, only when the waiter may sleep, after
 * wait_lock is dropped — from 4.10 the kernel's order too (wake_q); before,
 * the kernel woke under wait_lock, whose holder nothing could preempt, while
 * a system call made under ours would leave a preemptible holder, and a
 * waiter woken onto our CPU may preempt us right at its return (measured:
 * docs/kmutex.md, "wait_lock").  By then the waiter may have taken the lock
 * and gone, but a FUTEX_WAKE_PRIVATE touches no memory, and a stray wake of
 * whatever waits there now is a spurious wake-up its loop absorbs.
 * Returns the word to wake, or NULL.
 */
static uint32_t *km_wake_mark(struct km_waiter *w)
{
	/* Release: a waiter that finds WOKEN sees what we did before. */
	if (pr_xchg(&w->wake, KM_WAKE_WOKEN, PR_RELEASE) == KM_WAKE_SLEEPING)
		return &w->wake;
	return NULL;
}

static void km_wake_finish(struct lock_thread *self, struct kmutex_thread *me, uint32_t *word)
{
	if (!word)
		return;
	oracle_test_event(ORACLE_EV_WAKE, &me->rs, NULL);
	self->ev.futex_wakes++;
	pr_futex_wake(word, 1);
}

/* __mutex_handoff(), under wait_lock: the lock stays locked and becomes the
 * first waiter's; KM_HANDOFF is cleared, KM_WAITERS kept. */
static void km_hand_over(struct kmutex *l, struct lock_thread *self, struct km_waiter *to)
{
	/* Relaxed: the lock stays held throughout; the grant orders the rest. */
	pr_fetch_and(&l->state, ~KM_HANDOFF, PR_RELAXED);
	/* Release: the waiter's run-state, which we saw it queue under
	 * wait_lock, as km_acquired's own. */
	pr_store(&l->owner, &km_of_waiter(to)->rs, PR_RELEASE);
	/* Release: hands our critical section to the waiter's acquire load. */
	pr_store(&to->granted, 1, PR_RELEASE);
	self->ev.handoffs++;
}

/*
 * 4.10's release of the owner word unless it is to be handed over: the
 * flags stay.  Returns the state it saw last.
 */
static uint32_t km_release_word(struct kmutex *l)
{
	/* Acquire: pairs with the release cmpxchg that set KM_HANDOFF. */
	uint32_t s = pr_load(&l->state, PR_ACQUIRE);

	for (;;) {
		if (s & KM_HANDOFF)
			return s;
		/* Release: publishes the critical section to the next acquirer.
		 * Acquire on failure, as the load above. */
		if (pr_cas(&l->state, &s, s & KM_WAITERS, PR_RELEASE, PR_ACQUIRE))
			return s;
	}
}

/* atomic_set(&lock->count, 1) in the slow unlock (x86's fast path left the
 * count at 0 or below).  Release: publishes the critical section to the next
 * acquirer. */
static void km_count_release(struct kmutex *l)
{
	pr_store(&l->state, KM_COUNT_FREE, PR_RELEASE);
}

/*
 * A slow unlock holds wait_lock: the window since its release failed, a few
 * instructions after it cleared the owner (the stamp is taken there, so the
 * fast path pays no clock read), is closed.  Before 3.15 the lock stayed
 * held with no owner throughout: what spinners saw as "no owner: try".
 */
static void km_window_closes(struct lock_thread *self, uint64_t opened)
{
	self->ev.unlock_slow++;
	self->ev.unlock_window_cycles += pr_clock() - opened;
}

/*
 * __mutex_unlock_slowpath() before 4.10: the count is freed under wait_lock
 * — so a release waits for wait_lock, and the owner field stays NULL on a
 * lock that is not yet free meanwhile — or, from 3.15, just before taking it
 * ("as a performance measurement, release the lock before doing other wakeup
 * related duties"); then the first waiter is woken.  Out of line, as the
 * 4.10 one below: the uncontended unlock then saves no register (its window
 * stamp would cost it one).
 */
static __attribute__((noinline)) void km_count_unlock_slow(struct kmutex *l, struct lock_thread *self,
							   struct kmutex_thread *me)
{
	uint64_t window = pr_clock();
	uint32_t *wake = NULL;

	if (l->pol->release_first)
		km_count_release(l);
	km_wait_lock(l, me);
	km_window_closes(self, window);
	if (!l->pol->release_first)
		km_count_release(l);
	if (l->wait->first)
		wake = km_wake_mark(l->wait->first);
	km_wait_unlock(l, me);
	km_wake_finish(self, me, wake);
}

/* The same from 4.10: the word is released (or handed over) first, the wait
 * list is looked at only when a flag says so. */
static __attribute__((noinline)) void km_flags_unlock_slow(struct kmutex *l, struct lock_thread *self,
							   struct kmutex_thread *me)
{
	uint64_t window = pr_clock();
	uint32_t s = km_release_word(l), *wake = NULL;
	struct km_waiter *first;

	if (!(s & (KM_WAITERS | KM_HANDOFF)))
		return;
	km_wait_lock(l, me);
	km_window_closes(self, window);
	first = l->wait->first;
	/* A flag with nobody to hand to releases (__mutex_handoff(lock, NULL)).
	 * Release: publishes the critical section to the next acquirer. */
	if ((s & KM_HANDOFF) && first)
		km_hand_over(l, self, first);
	else if (s & KM_HANDOFF)
		pr_fetch_and(&l->state, ~(KM_LOCKED | KM_HANDOFF), PR_RELEASE);
	if (first)
		wake = km_wake_mark(first);
	km_wait_unlock(l, me);
	km_wake_finish(self, me, wake);
}

/* The end of a hold: the owner's preemptions while it held the lock. */
static void km_hold_ends(struct lock_thread *self, struct kmutex_thread *me)
{
	if (!me->rs.slot)
		return;
	self->ev.owner_preempted += km_preempted_now(me) - me->own.preempted_at_hold;
	self->ev.preempt_seen = 1;
}

/*
 * mutex_unlock(): mutex_clear_owner(), then before 4.10 x86's `lock incl` on
 * the count — done unless a failed attempt had marked it contended — and
 * from 4.10 a compare-and-swap that wants the word flagless.
 */
static void kmutex_unlock(void *lock, struct lock_thread *self)
{
	struct kmutex *l = lock;
	struct kmutex_thread *me = km_self(self);
	uint32_t expected = KM_LOCKED;

	km_hold_ends(self, me);
	/* Relaxed: a hint, and the release below orders it before the next
	 * owner's store. */
	pr_store(&l->owner, NULL, PR_RELAXED);
	/* Release: publishes the critical section to the next acquirer. */
	if (km_count_era(l)) {
		if (pr_sub_fetch(&l->state, 1, PR_RELEASE) == KM_COUNT_FREE)
			return;
		km_count_unlock_slow(l, self, me);
	} else if (!pr_cas(&l->state, &expected, 0, PR_RELEASE, PR_RELAXED)) {
		km_flags_unlock_slow(l, self, me);
	}
}

/* mutex_trylock(): before 4.10 x86's cmpxchg(count, 1, 0), without a read
 * first; from 4.10 __mutex_trylock(), which the flags do not stop. */
static bool kmutex_trylock(void *lock, struct lock_thread *self)
{
	struct kmutex *l = lock;
	uint64_t lost = 0;
	bool taken = km_count_era(l) ? km_count_cmpxchg(l, true, &lost) : km_trylock_keep_flags(l, false, &lost);

	if (!taken)
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
		.options = kmutex_options,						\
		.prepare = kmutex_prepare,						\
		.settings_figures = kmutex_settings_figures,				\
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
	    .spin = true, .blind_cmpxchg = true, .owner_cpu_fixed = true);
KMUTEX_LOCK(kmutex_fix, "kmutex-fix",
	    "kernel mutex 2.6.36 (Tim Chen's fix): owner changed while spinning: sleep",
	    .spin = true, .sleep_on_owner_change = true, .blind_cmpxchg = true, .owner_cpu_fixed = true);
KMUTEX_LOCK(kmutex_mcs, "kmutex-mcs",
	    "kernel mutex 3.10-3.14: spinners queue on an MCS lock, one spins on the owner",
	    .spin = true, .sleep_on_owner_change = true, .can_spin_gate = true, .queue = KQ_MCS,
	    .sleep_try = KS_ONCE_MORE);
KMUTEX_LOCK(kmutex_osq, "kmutex-osq",
	    "kernel mutex 3.15-4.0: cancellable spinner queue (OSQ), left on need_resched",
	    .spin = true, .sleep_on_owner_change = true, .can_spin_gate = true, .queue = KQ_OSQ,
	    .release_first = true, .sleep_try = KS_ONCE_MORE);
KMUTEX_LOCK(kmutex_handoff, "kmutex-handoff",
	    "kernel mutex 4.10 on: OSQ, spin on new owners, handoff to the first waiter",
	    .spin = true, .can_spin_gate = true, .queue = KQ_OSQ, .handoff = true);
