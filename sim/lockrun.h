/*
 * lockrun.h — one lock's run on the simulator: THREADS simulated threads
 * take a struct lock_ops lock in a loop (lock, hold, unlock, gap) for a span
 * of virtual time, each lock-to-unlock a kernel section when asked (a
 * system call's, as a workload's is), and the lock's own events (struct
 * lock_events) and the acquisitions are summed.  The lock's code must be its
 * simulated build (the Makefile's SIM_LOCKS) or written against pr_*.
 */
#ifndef LOCKBENCH_SIM_LOCKRUN_H
#define LOCKBENCH_SIM_LOCKRUN_H

#include "../locks/lock.h"
#include "sim.h"

struct sim_lockrun {
	const struct lock_ops *ops;
	struct lock_settings settings;     /* all zero: the lock's defaults */
	unsigned threads;
	uint64_t hold_cycles, gap_cycles;  /* each acquisition's critical section, and the time after it */
	/* Or, where given, each drawn from a distribution (ns; a profile's
	 * workload times), by a stream per thread from `seed`. */
	const struct sim_dist *hold_dist, *gap_dist;
	uint64_t seed;
	uint64_t duration_cycles;          /* threads stop taking the lock then */
	bool kernel_section;               /* lock .. unlock inside sim_kernel_enter/exit */
	/* The data the lock protects: a cache line each acquisition reads and
	 * writes under the lock (a counter's value, a file's f_pos, a
	 * directory's inode fields), so that it moves with the lock from CPU
	 * to CPU as the real one does.  false: none (the hold is all). */
	bool data_line;
	/* With kernel_section only: the part of each drawn hold that lies
	 * outside the kernel's lock (a profile's workload.NAME.outside_ns, in
	 * cycles; 0: none).  The hold becomes the drawn time less this, never
	 * below 0 (the lock's own code is then the whole critical section), and
	 * what was taken off runs after the unlock, still in the kernel section
	 * (the call's work outside its lock, and its exit), so each call keeps
	 * its drawn length.  Without kernel_section (userspace semantics: a
	 * userspace lock around the whole call) it is ignored. */
	uint64_t outside_cycles;
	/* Optional, in the simulated thread after each unlock: a test's look
	 * at the thread's events as they grow. */
	void (*after_unlock)(void *ctx, unsigned thread, const struct lock_events *ev);
	void *ctx;
	/* The measured interval (lockbench's --sim: its warm-up is before it):
	 * each thread's acquisitions and events count from its first lock()
	 * begun at or after this virtual time (0: all). */
	uint64_t measure_from_cycles;
	/* Optional, in the simulated thread after each measured lock(): the
	 * virtual cycles from just before lock() to its return, and whether it
	 * was contended (lockbench's histograms are filled from these). */
	void (*on_acquire)(void *ctx, unsigned thread, uint64_t cycles, bool contended);
	/* Optional, `threads` of them: each thread's measured events. */
	struct lock_events *thread_ev;
	/* Optional, `threads` of them: each thread's virtual cycles on a CPU
	 * from measure_from_cycles to duration_cycles (sim_exec_self), split
	 * as a real thread's CPU time is: `sys` inside its kernel sections
	 * (lock to unlock, when kernel_section), `user` the rest. */
	struct sim_cpu_time *thread_cpu;
};

struct sim_cpu_time {
	uint64_t user, sys;
};

struct sim_lockrun_result {
	uint64_t acquisitions, contended;  /* measured ones (measure_from_cycles) */
	uint64_t overlaps;                 /* acquisitions that found another holder inside: exclusion broken */
	struct lock_events ev;             /* every thread's measured ones, summed */
	struct lock_settings settings;     /* what the lock ran with: its settings after prepare() */
	char note[256];                    /* prepare()'s note, if it gave one */
};

/*
 * Runs `r` on `s` (a fresh simulation): 0; -1 with a one-line error in err
 * (the lock's prepare or init refused, no memory, the simulation stuck or
 * still running a second of virtual time past the duration).
 */
int sim_lockrun(struct sim *s, const struct sim_lockrun *r, struct sim_lockrun_result *out, char *err,
		size_t errlen);

#endif
