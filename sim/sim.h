/*
 * sim.h — the simulator engine (docs/sim.md): virtual CPUs in a topology,
 * simulated threads run as coroutines on one OS thread, each with a virtual
 * clock in TSC cycles, a coherence cost model charging every shared access
 * (coherence.h), and a scheduler modelled on Linux 2.6.34's CFS (sched.c).
 *
 * The engine always runs the event with the smallest virtual time (ties by
 * kind, then id), so every shared access happens in virtual-time order, and
 * the same seed gives the same sequence of events.  One simulation at a time
 * per process: the lock code's sim_pr_* calls (locks/pr.h) carry no handle.
 */
#ifndef LOCKBENCH_SIM_SIM_H
#define LOCKBENCH_SIM_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "coherence.h"
#include "profile.h"

#define SIM_MAX_THREADS 1024

enum sim_semantics {
	/* The kmutex models' default: a thread inside a kernel section
	 * (sim_kernel_enter .. sim_kernel_exit) is never preempted; it sees
	 * need_resched through its sched slot and is switched out at the
	 * section's end or when it sleeps; pr_yield there is a pause (the
	 * kernel's wait_lock spins with preemption off). */
	SIM_KERNEL,
	/* Today's harness: a thread may be preempted at any shared access;
	 * pr_yield is sched_yield(). */
	SIM_USERSPACE,
};

struct sim_config {
	const struct sim_profile *profile;
	unsigned ncpus;            /* 0: the profile's sockets x cores x threads */
	uint64_t seed;
	enum sim_semantics semantics;
	sim_cost_fn *cost;         /* NULL: sim_coherence_cost (a test plants a fault here) */
	size_t stack_bytes;        /* 0: 256 KiB per simulated thread */
};

struct sim_stats {
	uint64_t events;           /* heap events the engine ran */
	uint64_t accesses;         /* shared accesses charged */
	uint64_t transfers;        /* of them, line transfers (not hits) */
	uint64_t switches;         /* context switches */
	uint64_t preemptions;      /* involuntary switch-outs */
	uint64_t ticks;
	uint64_t parks;            /* spins parked until their lines change */
	uint64_t parked_passes;    /* spin passes charged without running them */
	uint64_t futex_sleeps, futex_wakeups;
	uint64_t delayed_sleeps;   /* EEVDF: sleeps that left the thread queued (DELAY_DEQUEUE) */
	uint64_t trace_hash;       /* of every event's (time, kind, id) in order */
};

struct sim;
typedef void sim_thread_fn(void *arg);

/* A simulation of cfg's machine: NULL with a one-line reason in err. */
struct sim *sim_create(const struct sim_config *cfg, char *err, size_t errlen);
void sim_destroy(struct sim *s);
/* A simulated thread running fn(arg), placed on CPU id % ncpus at a start
 * time drawn from the seed: its id (0, 1, ...), or -1 (too many threads). */
int sim_spawn(struct sim *s, sim_thread_fn *fn, void *arg);
/*
 * Runs until every thread has returned (0), until the next event is later
 * than `limit` cycles (1), or until no thread can run again (-1: a lost
 * wake-up, or spinners on lines only sleepers could write), seen at the
 * next tick.
 */
int sim_run(struct sim *s, uint64_t limit);
const struct sim_stats *sim_stats(const struct sim *s);
/* Before sim_run: sim_exec_self counts only the cycles from `from` to `to`
 * (lockbench's measured interval; default: all). */
void sim_cpu_window(struct sim *s, uint64_t from, uint64_t to);
unsigned sim_ncpus(const struct sim *s);
/* Cycles of the profile's nanoseconds, rounded. */
uint64_t sim_cycles(const struct sim *s, double ns);

/* What a thread looks like from outside, for tests and result files. */
struct sim_thread_info {
	int cpu;                   /* the CPU it runs or is queued on; -1 sleeping or done */
	bool running, sleeping, done;
	uint64_t vtime;            /* its virtual clock */
	uint64_t exec_cycles;      /* cycles it spent on a CPU */
	uint64_t preempted, blocked, resched;  /* its sched slot's counts */
};
void sim_thread_info(const struct sim *s, int id, struct sim_thread_info *out);

/* In a simulated thread. */
uint64_t sim_now(void);                    /* its virtual time */
/* Its virtual cycles on a CPU so far inside the CPU window (sim_cpu_window;
 * all of them without one): spinning and stalls on lines count, sleeping
 * and waiting in a run queue do not, a context switch is no thread's. */
uint64_t sim_exec_self(void);
int sim_self(void);                        /* its id */
void sim_work(uint64_t cycles);            /* computes for `cycles`, preemptible as its mode allows */
void sim_kernel_enter(void);               /* nests */
void sim_kernel_exit(void);                /* switched out here if need_resched is set */
struct oracle_sched_slot *sim_slot_self(void);  /* its sched slot (the scheduler writes it); NULL outside */

#endif
