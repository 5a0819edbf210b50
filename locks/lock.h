/*
 * lock.h — the one interface every lock in locks/ implements, and the registry
 * that lists them.  The harness sees a lock only through struct lock_ops.
 *
 * Adding a lock: write locks/<name>.c ending in one `const struct lock_ops
 * lock_ops_<name>`, and add LOCK(<name>) to locks/locks.def.  The Makefile
 * builds every .c file in locks/, and the registry-wide tests pick it up.
 */
#ifndef LOCKBENCH_LOCK_H
#define LOCKBENCH_LOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arch.h"

/* Settings a run passes to every lock; locks that have no use for one ignore it. */
struct lock_params {
	/* Optimistic-spin budget in TSC cycles (kmutex-*): 0 = the lock's
	 * default, which is no budget with the sched oracle (need_resched()
	 * ends spins, as in the kernel) and 2^15 cycles without it. */
	uint64_t spin_budget_cycles;
	/* Which oracle the kmutex family asks (see locks/oracle.h); 0 = auto:
	 * sched where the harness loaded it (oracle_sched_open), else runstate. */
	int oracle;
	/* The run's worker threads, for locks that size per-thread structures
	 * at init (ck-anderson's slots, ck-clh's nodes); 0 = unknown (a test
	 * driving the lock directly): such a lock assumes a small default. */
	unsigned int threads;
};

/* Why one optimistic-spin phase ended (kmutex-*). */
enum spin_exit {
	SPIN_EXIT_ACQUIRED,          /* the spinner took the lock */
	SPIN_EXIT_OWNER_CHANGED,     /* another waiter took it first (the 2.6.36 fix sleeps here) */
	SPIN_EXIT_OWNER_NOT_RUNNING, /* the owner is off its CPU: spinning cannot help */
	SPIN_EXIT_NEED_RESCHED,      /* this spinner was preempted meanwhile (sched oracle) */
	SPIN_EXIT_BUDGET,            /* the explicit (or userspace default) spin budget ran out */
	SPIN_EXIT_QUEUE_GAVE_UP,     /* left the MCS/OSQ spinner queue before reaching its head */
	SPIN_EXIT_NR
};

extern const char *const spin_exit_name[SPIN_EXIT_NR];

/*
 * What a lock with spin/sleep phases records about itself.  Written only by the
 * thread that owns it, plain (non-atomic) fields; merged after the join.  Locks
 * without such phases (LOCK_F_PHASES unset) leave every field zero.  With it,
 * acq_fast + acq_spin + acq_nosleep + acq_sleep counts every lock() call.
 */
struct lock_events {
	uint64_t acq_fast;     /* first atomic attempt succeeded */
	uint64_t acq_spin;     /* acquired in an optimistic spin phase */
	uint64_t acq_nosleep;  /* acquired in the slow path, neither spinning nor after a futex wait */
	uint64_t acq_sleep;    /* acquired after at least one futex wait */
	uint64_t spin_exit[SPIN_EXIT_NR];
	uint64_t spin_cycles;  /* TSC cycles spent in spin phases */
	uint64_t futex_waits;  /* FUTEX_WAIT calls (each is one sleep, or a failed attempt to) */
	uint64_t futex_wakes;  /* FUTEX_WAKE calls */
	uint64_t handoffs;     /* locks handed directly to a waiter by unlock */
};

/*
 * Per-thread, per-lock state: the events, then the lock's own per-thread area
 * (an MCS queue node, a published run-state), thread_size bytes of it, starting
 * on its own cache line.  Allocated zeroed and cache-line aligned by the caller,
 * on the thread's own NUMA node where that is known.
 */
struct lock_thread {
	struct lock_events ev;
	unsigned int id;       /* 0 .. threads-1, for diagnostics */
	int node;              /* NUMA node of the thread's CPU, -1 unknown (ck-cohort's cohort) */
	unsigned char priv[] cacheline_aligned;
};

/* Size of a struct lock_thread for `ops`, rounded to whole cache lines. */
#define LOCK_THREAD_SIZE(ops) \
	ALIGN_UP(sizeof(struct lock_thread) + (ops)->thread_size, CACHELINE)

enum lock_flags {
	LOCK_F_PHASES       = 1u << 0, /* fills struct lock_events */
	LOCK_F_NO_EXCLUSION = 1u << 1, /* `none`: proves the exclusion checks can fail */
	LOCK_F_SLEEPS       = 1u << 2, /* may block in the kernel (futex); never a pure spinlock */
	LOCK_F_ORACLE       = 1u << 3, /* asks locks/oracle.h: the harness resolves --oracle for it */
};

struct lock_ops {
	const char *name;         /* registry key, as typed on the command line */
	const char *description;  /* one line for --list */
	size_t size;              /* bytes of lock state; caller gives it zeroed, cache-line aligned */
	size_t thread_size;       /* bytes of lock_thread.priv this lock uses (0 = none) */
	unsigned int flags;       /* enum lock_flags */

	int  (*init)(void *lock, const struct lock_params *params); /* 0 or -errno */
	void (*destroy)(void *lock);
	/* Optional: called by each thread before its first use of the lock. */
	void (*thread_init)(void *lock, struct lock_thread *self);

	/* Returns true when the acquisition was contended: it did not succeed on
	 * its first atomic attempt. */
	bool (*lock)(void *lock, struct lock_thread *self);
	void (*unlock)(void *lock, struct lock_thread *self);
	/* Returns true when the lock was taken; never blocks. */
	bool (*trylock)(void *lock, struct lock_thread *self);
};

/* The registry: every lock listed in locks/locks.def, in that order. */
extern const struct lock_ops *const lock_registry[];
extern const size_t lock_registry_len;

/* The lock called `name`, or NULL. */
const struct lock_ops *lock_find(const char *name);

#endif
