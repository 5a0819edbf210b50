/*
 * oracle.h — what the kernel's mutex spinner sees, asked from userspace:
 * "is the lock owner on a CPU?" and "does my CPU want me off?".
 *
 * The kernel mutex spins only while its owner is on a CPU: from 2.6.29 it
 * compared the owner with the task running on the owner's CPU
 * (cpu_rq(owner->cpu)->curr, kernel/sched.c), from 2011 (2.6.39 or 3.0)
 * it reads owner->on_cpu,
 * 4.10 on also asks vcpu_is_preempted(); and every spin loop stops on
 * need_resched().  Userspace has no such view, so the answer lives here, in
 * one module the kmutex policies share without knowing how it is obtained.
 *
 * Every thread publishes a cache-line-aligned run-state (struct
 * oracle_runstate); a lock that uses the oracle keeps it at the start of its
 * lock_thread.priv, and its owner field points at the owner's run-state.
 *
 * Oracles (--lock-opt oracle=NAME, or --oracle NAME; kmutex.c's settings):
 *
 *  sched  The kernel's own view, through BPF (oracle_sched.c, bpf/): a
 *      tp_btf/sched_switch program keeps per thread a slot with on_cpu and
 *      the count of involuntary switch-outs, in a map the process reads with
 *      plain loads.  Owner on CPU: the owner's slot says so.  need_resched():
 *      a userspace thread acts on TIF_NEED_RESCHED only at its next return to
 *      user mode, so it can never see its own flag before being switched out;
 *      its faithful analogue is "I was preempted since this spin phase
 *      began", which the thread sees the moment it runs again.  With sched
 *      the kmutex policies spin with no budget, as their kernel eras did.
 *      Error direction: a switch-in that is never traced (seen on KVM guests)
 *      leaves on_cpu 0 for a running thread until the thread stores 1 itself
 *      (on acquiring, and on starting to spin, when it reads 0) — so an error
 *      makes a spinner sleep early, never spin on an owner that is off CPU.
 *
 *  runstate  The lock library marks the run-state sleeping around every
 *      futex wait it makes and running after.  It SEES an owner asleep in a
 *      futex wait of a lock that uses this oracle.  It does NOT see an owner
 *      that was preempted, that blocks in any other system call, or that
 *      sleeps on a different lock, nor need_resched(): only the spin budget
 *      (spin-budget, 2^15 cycles by default) ends such a spin — a userspace
 *      compromise, not the kernel's rule.
 *
 *  rq-curr  runstate, plus the 2.6.29 test "is the owner the task its CPU is
 *      running?": a per-CPU slot names the thread that last ran lock code on
 *      that CPU (written at acquisition, on entering the slow path and while
 *      spinning; emptied when a thread goes to sleep).  It SEES an owner
 *      preempted by another user of the lock; not preemption by a thread
 *      that does not touch the lock.  It costs a sched_getcpu() and a store
 *      on every acquisition.  Spins end on the budget as with runstate.
 *
 *  auto (0, the default)  sched where oracle_settle() could load it for
 *      this run (oracle_sched_open), else runstate.
 *
 * All of them are hints, read with relaxed loads, that decide only whether
 * to spin, never who owns the lock.
 */
#ifndef LOCKBENCH_ORACLE_H
#define LOCKBENCH_ORACLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pr.h"
#include "bpf/oracle_slot.h"

enum oracle_kind {
	ORACLE_AUTO = 0,       /* the default: zeroed settings ask auto */
	ORACLE_RUNSTATE,
	ORACLE_RQ_CURR,
	ORACLE_SCHED,
	ORACLE_NR
};

extern const char *const oracle_name[ORACLE_NR];

/* The oracle called `name`, or -1. */
int oracle_find(const char *name);
/* 0 when `kind` works in this process now, else -errno (-EINVAL: no such
 * oracle, -ENOTSUP: sched_getcpu() unavailable for rq-curr, -ENOENT: sched
 * not opened by oracle_sched_open). */
int oracle_check(int kind);
/* What `kind` means here: AUTO becomes sched when it is open, else runstate. */
int oracle_resolve(int kind);
/*
 * The spin budget where the oracle cannot see need_resched() (runstate,
 * rq-curr): 2^15 cycles, 12.6 µs at the development VM's 2.6 GHz TSC.  One
 * futex sleep + wake-up costs about that there (a FUTEX_WAKE/FUTEX_WAIT
 * ping-pong between two threads measured 28 µs per round trip, two sleeps),
 * and spinning no longer than blocking would cost keeps the waste within 2x
 * of an oracle that knew the wait in advance (Karlin, Li, Manasse, Owicki,
 * "Empirical studies of competitive spinning", SOSP 1991).  A userspace
 * compromise: the kernel's own bound is need_resched(), which `sched` sees,
 * and with it there is no budget.
 */
#define ORACLE_USERSPACE_SPIN_BUDGET UINT64_C(32768)

/* The spin budget in TSC cycles a lock with oracle `kind` uses: `requested`
 * when given (--spin-budget), else 0 (none) with sched and
 * ORACLE_USERSPACE_SPIN_BUDGET otherwise. */
uint64_t oracle_spin_budget(int kind, uint64_t requested);

/*
 * Settles the oracle a lock asked for (`requested`) before a run of
 * `threads` threads starts: auto and sched load the BPF program
 * (oracle_sched_open); auto falls back to runstate, with the reason in
 * `why`; an explicit sched that cannot load returns -1, the reason in `why`.
 * Else the oracle to use; `why` is "" unless auto fell back.
 */
int oracle_settle(int requested, unsigned int threads, char *why, size_t whylen);

/*
 * sched: loads the BPF program for this process with room for `threads`
 * threads (it stays loaded; a later call with more threads reloads it).
 * 0, or -errno with a one-line reason in `why` (not root and without
 * CAP_BPF + CAP_PERFMON, no kernel BTF, tracepoint missing, built without
 * BPF).  Call it before the threads that use it start.
 */
int oracle_sched_open(unsigned int threads, char *why, size_t whylen);
/* Test seam: plain memory in place of the program's slots, for `threads`
 * threads; the test writes on_cpu and the counts itself. */
int oracle_sched_open_fake(unsigned int threads);
bool oracle_sched_is_open(void);
/* Whether the slots' `resched` counts TIF_NEED_RESCHED as it is set (a
 * kernel with sched_set_need_resched_tp, or the test seam), so a spinner can
 * leave before the preemption it asks for, as the kernel's does. */
bool oracle_sched_sees_resched(void);
/* This thread's slot (registering it on first use); NULL when sched is not
 * open or its slots are all taken. */
struct oracle_sched_slot *oracle_sched_slot_self(void);
/* A running thread whose slot says it is off its CPU: a switch-in the program
 * never saw.  Its CPU, then on_cpu, as the program would have written them. */
void oracle_sched_untraced_switch_in(struct oracle_sched_slot *slot);

/* One per thread (per lock); zeroed memory is a running thread. */
struct oracle_runstate {
	uint32_t sleeping;   /* 1 while in a futex wait of the lock library */
	uint32_t cpu;        /* rq-curr: 1 + the CPU it last ran lock code on; 0 unknown */
	/* sched: this thread's slot, set by oracle_thread_init and only read
	 * after, so spinners reach an owner's slot without touching anything
	 * the owner writes.  Relaxed atomic (oracle_slot()): lockbench --exec
	 * recycles an exited thread's node (zeroed a word at a time, atomic
	 * too) while a spinner may still read it; NULL reads as a running
	 * owner, as zeroed memory does.  A lock that publishes its owner's
	 * run-state does so with a release store (kmutex: km_acquired). */
	struct oracle_sched_slot *slot;
	/* The owner run-state this thread is spinning on (NULL: none): lets a
	 * test see where a spinner is without touching the hot path. */
	const struct oracle_runstate *watching;
} cacheline_aligned;

/* rq-curr's per-CPU "current" slots: written only by a thread running on that
 * CPU, so the line moves between CPUs only when threads migrate. */
#define ORACLE_MAX_CPUS 1024
struct oracle_cpu_slot {
	const struct oracle_runstate *curr;
} cacheline_aligned;
extern struct oracle_cpu_slot oracle_cpu_slots[ORACLE_MAX_CPUS];

/* In the thread, before its first use of a lock with oracle `kind`. */
void oracle_thread_init(struct oracle_runstate *me, int kind);

/* rq-curr: "I am running lock code on this CPU now". */
void oracle_on_cpu(struct oracle_runstate *me);
/* rq-curr: empty this CPU's slot if it still names `me`. */
void oracle_vacate_cpu(const struct oracle_runstate *me);

/*
 * "I am running": called on acquiring and on starting to spin.  sched: a
 * switch-in the program missed would leave on_cpu 0; store 1 only when it
 * reads 0, since a store on every acquisition would invalidate the line
 * every spinner reads.  rq-curr: claims this CPU's slot.
 */
static inline void oracle_running(struct oracle_runstate *me, int kind)
{
	if (kind == ORACLE_SCHED && me->slot &&
	    pr_load(&me->slot->on_cpu, PR_RELAXED) == 0)
		oracle_sched_untraced_switch_in(me->slot);
	else if (kind == ORACLE_RQ_CURR)
		oracle_on_cpu(me);
}

/* Called just before a futex wait: this thread leaves its CPU. */
static inline void oracle_sleeping(struct oracle_runstate *me, int kind)
{
	/* Relaxed: spinners read it as a hint; the futex word orders the rest. */
	pr_store(&me->sleeping, 1, PR_RELAXED);
	if (kind == ORACLE_RQ_CURR)
		oracle_vacate_cpu(me);
}

/*
 * Test seams.  A test installs one hook; the lock library calls it in the
 * thread concerned, so the test can hold that thread at a chosen point:
 * - ORACLE_EV_OWNER_LEFT: oracle_watch_owner() saw the owner it watched
 *   leave (`owner`), before returning;
 * - ORACLE_EV_AWAKE: a futex wait of `me` just returned, before it retries;
 * - ORACLE_EV_WATCH: oracle_watch_owner() is about to spin on `owner`;
 * - ORACLE_EV_SLOW: `me` gave up spinning (or never spun) and is about to
 *   take a kmutex's wait_lock to join its wait list;
 * - ORACLE_EV_WAIT_LOCKED: `me` just took a kmutex's wait_lock;
 * - ORACLE_EV_WAKE: `me`, unlocking, is about to make the futex call that
 *   wakes a waiter.
 * All are on slow paths (a spin phase, wait_lock, a system call): the cost
 * when no hook is installed is one relaxed load there, nothing elsewhere.
 */
enum oracle_event {
	ORACLE_EV_OWNER_LEFT, ORACLE_EV_AWAKE, ORACLE_EV_WATCH, ORACLE_EV_SLOW, ORACLE_EV_WAIT_LOCKED,
	ORACLE_EV_WAKE,
};
typedef void (*oracle_hook)(enum oracle_event event, const struct oracle_runstate *me,
			    const struct oracle_runstate *owner);
void oracle_set_hook(oracle_hook hook);  /* NULL (the default) removes it */
extern oracle_hook oracle_hook_installed;
void oracle_hook_call(enum oracle_event event, const struct oracle_runstate *me,
		      const struct oracle_runstate *owner);

/* Calls the test hook, if one is installed. */
static inline void oracle_test_event(enum oracle_event event, const struct oracle_runstate *me,
				     const struct oracle_runstate *owner)
{
	/* Relaxed: only tells whether to look; oracle_hook_call orders the rest.
	 * A native atomic, not pr.h's: a test seam, no lock state, so the
	 * simulator has nothing to charge for it. */
	if (__builtin_expect(__atomic_load_n(&oracle_hook_installed, __ATOMIC_RELAXED) != NULL, 0))
		oracle_hook_call(event, me, owner);
}

/* Called right after a futex wait returns. */
static inline void oracle_awake(struct oracle_runstate *me, int kind)
{
	pr_store(&me->sleeping, 0, PR_RELAXED);
	if (kind == ORACLE_RQ_CURR)
		oracle_on_cpu(me);
	oracle_test_event(ORACLE_EV_AWAKE, me, NULL);
}

/* A thread's sched slot, read once: see struct oracle_runstate. */
static inline const struct oracle_sched_slot *oracle_slot(const struct oracle_runstate *rs)
{
	return pr_load(&rs->slot, PR_RELAXED);
}

/* The kernel's owner->on_cpu, as far as `kind` can tell. */
static inline bool oracle_owner_running(const struct oracle_runstate *owner, int kind)
{
	uint32_t cpu;
	const struct oracle_runstate *curr;
	const struct oracle_sched_slot *slot;

	if (kind == ORACLE_SCHED) {
		slot = oracle_slot(owner);
		return !slot || pr_load(&slot->on_cpu, PR_RELAXED);
	}
	if (pr_load(&owner->sleeping, PR_RELAXED))
		return false;
	if (kind != ORACLE_RQ_CURR)
		return true;
	cpu = pr_load(&owner->cpu, PR_RELAXED);
	if (cpu == 0)
		return true;
	curr = pr_load(&oracle_cpu_slots[cpu - 1].curr, PR_RELAXED);
	return curr == NULL || curr == owner;
}

/* How one watch of an owner, or one spin, ended. */
enum oracle_watch {
	ORACLE_SPINNING,           /* nothing ends it yet (oracle_spin_over) */
	ORACLE_OWNER_LEFT,         /* *owner_field no longer names `owner` */
	ORACLE_OWNER_NOT_RUNNING,  /* the oracle says `owner` is off its CPU */
	ORACLE_NEED_RESCHED,       /* sched: this thread was preempted meanwhile */
	ORACLE_BUDGET,             /* the TSC passed the budget's deadline */
};

/* What ends a spin phase besides its owner: need_resched() and the budget. */
struct oracle_spin {
	uint64_t deadline;                /* TSC; UINT64_MAX: no budget */
	const struct oracle_sched_slot *slot;  /* sched: this thread's; NULL: need_resched unseen */
	uint64_t preempted_at_start;      /* its involuntary switch-outs */
	uint64_t resched_at_start;        /* its TIF_NEED_RESCHED settings */
};

/* Starts a spin phase of `me`: budget 0 means none. */
static inline void oracle_spin_start(struct oracle_spin *s, struct oracle_runstate *me, int kind,
				     uint64_t budget)
{
	s->deadline = budget ? pr_clock() + budget : UINT64_MAX;
	s->slot = kind == ORACLE_SCHED ? me->slot : NULL;
	/* Relaxed: counts this thread compares with later ones of its own. */
	s->preempted_at_start = s->slot ? pr_load(&s->slot->preempted, PR_RELAXED) : 0;
	s->resched_at_start = s->slot ? pr_load(&s->slot->resched, PR_RELAXED) : 0;
	oracle_running(me, kind);
}

/*
 * need_resched() first (the kernel's test): TIF_NEED_RESCHED set on us since
 * the spin began, where the kernel tells (remote wake-ups: seen before the
 * IPI preempts us), else the preemption it caused, seen once we run again;
 * then the budget.
 */
static inline enum oracle_watch oracle_spin_over(const struct oracle_spin *s)
{
	if (s->slot && (pr_load(&s->slot->resched, PR_RELAXED) != s->resched_at_start ||
			pr_load(&s->slot->preempted, PR_RELAXED) != s->preempted_at_start))
		return ORACLE_NEED_RESCHED;
	if (s->deadline != UINT64_MAX && pr_clock_past(s->deadline))
		return ORACLE_BUDGET;
	return ORACLE_SPINNING;
}

/*
 * mutex_spin_on_owner(), which lived in kernel/sched.c from 2.6.29 to 3.9:
 * spin while *owner_field still names `owner` and the oracle says it runs,
 * until the spin is over (need_resched, budget).  What to do when the owner
 * changes is the caller's policy (the 2.6.36 fix is exactly that decision).
 * `cpu_fixed`: before owner->on_cpu (2.6.39/3.0) the kernel read owner->cpu
 * once and then watched that
 * CPU's rq->curr, so an owner that migrated counts as not running; sched
 * sees the CPU of each switch-in, the other oracles follow the owner.
 */
enum oracle_watch oracle_watch_owner(struct oracle_runstate *const *owner_field,
				     const struct oracle_runstate *owner,
				     struct oracle_runstate *me, int kind,
				     const struct oracle_spin *spin, bool cpu_fixed);

#endif
