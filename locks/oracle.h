/*
 * oracle.h — "is the lock owner running?", asked from userspace.
 *
 * The kernel mutex spins only while its owner is on a CPU: 2.6.29-2.6.39
 * compared the owner with the task running on the owner's CPU
 * (cpu_rq(owner->cpu)->curr, kernel/sched.c), 3.0 on reads owner->on_cpu,
 * 4.10 on also asks vcpu_is_preempted().  Userspace has no such view, so the
 * answer lives here, in one module the kmutex policies share without knowing
 * how it is obtained.
 *
 * Every thread publishes a cache-line-aligned run-state (struct
 * oracle_runstate); a lock that uses the oracle keeps it at the start of its
 * lock_thread.priv, and its owner field points at the owner's run-state.
 *
 * Oracles (--oracle NAME, lock_params.oracle):
 *
 *  runstate (default)  The lock library marks the run-state sleeping around
 *      every futex wait it makes and running after.  It SEES an owner asleep
 *      in a futex wait of a lock that uses this oracle.  It does NOT see an
 *      owner that was preempted, that blocks in any other system call (I/O,
 *      page faults, another library's futex), or that sleeps on a different
 *      lock: the run-state is per thread *per lock*, as lock_thread is.  Those
 *      owners look running, and only the spin budget (--spin-budget, the
 *      stand-in for need_resched()) ends the spin.
 *
 *  rq-curr  runstate, plus the 2.6.29 test "is the owner the task its CPU is
 *      running?": a per-CPU slot names the thread that last ran lock code on
 *      that CPU (written at acquisition, on entering the slow path and while
 *      spinning; emptied when a thread goes to sleep).  An owner is not
 *      running when another thread has since run lock code on the owner's
 *      CPU.  It SEES an owner preempted by another user of the lock, which is
 *      the lock-holder preemption of an oversubscribed run.  It does NOT see
 *      preemption by a thread that does not touch the lock, nor blocking in
 *      other system calls; an owner that migrated keeps a stale CPU and looks
 *      not running (errs toward sleeping).  It costs a sched_getcpu() (an rseq
 *      read in glibc >= 2.35) and a store on every acquisition.
 *
 * Neither sees the owner's scheduler state directly; both are hints, read
 * with relaxed loads, that decide only whether to spin, never who owns the lock.
 */
#ifndef LOCKBENCH_ORACLE_H
#define LOCKBENCH_ORACLE_H

#include <stdbool.h>
#include <stdint.h>

#include "arch.h"

enum oracle_kind {
	ORACLE_RUNSTATE = 0,   /* the default: lock_params.oracle == 0 */
	ORACLE_RQ_CURR,
	ORACLE_NR
};

extern const char *const oracle_name[ORACLE_NR];

/* The oracle called `name`, or -1. */
int oracle_find(const char *name);
/* 0 when `kind` works on this machine, else -errno (-EINVAL: no such oracle,
 * -ENOTSUP: sched_getcpu() unavailable for rq-curr). */
int oracle_check(int kind);

/* One per thread (per lock); zeroed memory is a running thread. */
struct oracle_runstate {
	uint32_t sleeping;   /* 1 while in a futex wait of the lock library */
	uint32_t cpu;        /* rq-curr: 1 + the CPU it last ran lock code on; 0 unknown */
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

void oracle_thread_init(struct oracle_runstate *me);

/* rq-curr: "I am running lock code on this CPU now". */
void oracle_on_cpu(struct oracle_runstate *me);
/* rq-curr: empty this CPU's slot if it still names `me`. */
void oracle_vacate_cpu(const struct oracle_runstate *me);

/* Called just before a futex wait: this thread leaves its CPU. */
static inline void oracle_sleeping(struct oracle_runstate *me, int kind)
{
	/* Relaxed: spinners read it as a hint; the futex word orders the rest. */
	__atomic_store_n(&me->sleeping, 1, __ATOMIC_RELAXED);
	if (kind == ORACLE_RQ_CURR)
		oracle_vacate_cpu(me);
}

/*
 * Test seams.  A test installs one hook; the lock library calls it in the
 * thread concerned, so the test can hold that thread at a chosen point:
 * - ORACLE_EV_OWNER_LEFT: oracle_watch_owner() saw the owner it watched
 *   leave (`owner`), before returning;
 * - ORACLE_EV_AWAKE: a futex wait of `me` just returned, before it retries.
 * Both points are on slow paths (an owner change, a system call): the cost
 * when no hook is installed is one relaxed load there, nothing elsewhere.
 */
enum oracle_event { ORACLE_EV_OWNER_LEFT, ORACLE_EV_AWAKE };
typedef void (*oracle_hook)(enum oracle_event event, const struct oracle_runstate *me,
			    const struct oracle_runstate *owner);
void oracle_set_hook(oracle_hook hook);  /* NULL (the default) removes it */
extern oracle_hook oracle_hook_installed;
void oracle_hook_call(enum oracle_event event, const struct oracle_runstate *me,
		      const struct oracle_runstate *owner);

/* Called right after a futex wait returns. */
static inline void oracle_awake(struct oracle_runstate *me, int kind)
{
	__atomic_store_n(&me->sleeping, 0, __ATOMIC_RELAXED);
	if (kind == ORACLE_RQ_CURR)
		oracle_on_cpu(me);
	/* Relaxed: only tells whether to look; oracle_hook_call orders the rest. */
	if (__builtin_expect(__atomic_load_n(&oracle_hook_installed, __ATOMIC_RELAXED) != NULL, 0))
		oracle_hook_call(ORACLE_EV_AWAKE, me, NULL);
}

/* The kernel's owner->on_cpu, as far as `kind` can tell. */
static inline bool oracle_owner_running(const struct oracle_runstate *owner, int kind)
{
	uint32_t cpu;
	const struct oracle_runstate *curr;

	if (__atomic_load_n(&owner->sleeping, __ATOMIC_RELAXED))
		return false;
	if (kind != ORACLE_RQ_CURR)
		return true;
	cpu = __atomic_load_n(&owner->cpu, __ATOMIC_RELAXED);
	if (cpu == 0)
		return true;
	curr = __atomic_load_n(&oracle_cpu_slots[cpu - 1].curr, __ATOMIC_RELAXED);
	return curr == NULL || curr == owner;
}

/* How one watch of an owner ended. */
enum oracle_watch {
	ORACLE_OWNER_LEFT,         /* *owner_field no longer names `owner` */
	ORACLE_OWNER_NOT_RUNNING,  /* the oracle says `owner` is off its CPU */
	ORACLE_BUDGET,             /* the TSC passed `deadline`: need_resched() */
};

/*
 * mutex_spin_on_owner(), which lived in kernel/sched.c from 2.6.29 to 3.9:
 * spin while *owner_field still names `owner` and the oracle says it runs,
 * until `deadline` (TSC).  What to do when the owner changes is the caller's
 * policy (the 2.6.36 fix is exactly that decision).
 */
enum oracle_watch oracle_watch_owner(struct oracle_runstate *const *owner_field,
				     const struct oracle_runstate *owner,
				     struct oracle_runstate *me, int kind, uint64_t deadline);

#endif
