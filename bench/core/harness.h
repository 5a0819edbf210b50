/*
 * harness.h — the hot path: the per-thread record every worker and workload
 * writes, and the timed acquisition every workload goes through, inline.
 * What it calls out of line is harness.c's, below it: bench_timing_gap()
 * once per timed acquisition under --timing sample:N only, bench_fail() when
 * an operation fails.  Nothing here knows the run that drives the threads
 * (run/) or the command line that configured it (config.h).
 *
 * Data path: CLI (cli.c) -> struct bench_config (config.h) -> the run
 * (run/run.c) and its threads (run/worker.c) -> timed acquisitions
 * (bench_lock below) -> per-thread struct hist -> merge (run/merge.c) ->
 * struct bench_result (result.h) -> summary and result files (output/).
 */
#ifndef LOCKBENCH_HARNESS_H
#define LOCKBENCH_HARNESS_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../platform/hist.h"
#include "../../locks/lock.h"

struct bench_config;
struct bench_run;

/* CPU time and context switches of one thread over the measured interval. */
struct thread_usage {
	double user_s, sys_s;
	uint64_t vol_csw, invol_csw;
};

/* The run's phase, which every worker polls (runctl.h's struct bench_run). */
enum bench_phase { PHASE_WARMUP, PHASE_MEASURE, PHASE_STOP };

/* One per worker thread, cache-line aligned, on the thread's NUMA node. */
struct bench_thread {
	struct hist acq;               /* acquisition times, cycles */
	struct hist acq_contended;     /* the contended ones only: what the seed patch counted */
	uint64_t ops;                  /* operations in the measured interval */
	uint64_t ops_all;              /* operations including warm-up: for invariants */
	uint64_t ops_abandoned;        /* operations left unfinished at the stop (WL_OP_ABANDONED) */
	const struct lock_ops *lock_ops;
	void *lock;
	struct lock_thread *lt;        /* this thread's lock_thread for `lock` */
	/* --timing, read by every bench_lock(): untimed acquisitions left before
	 * the next timed one (always 0 under `all`; never reaching 0 under
	 * `off`), and under sample:N the mean N of the gaps (else 0). */
	uint64_t timing_skip;
	uint64_t timing_mean;
	void *wl;                      /* the workload's per-thread state */
	void *wl_shared;               /* the workload's shared state */
	const struct bench_config *cfg;
	struct bench_run *run;
	const int *phase;              /* the run's enum bench_phase: for bench_stopping() */
	unsigned int id;
	int cpu;                       /* pinned CPU, -1 when unpinned */
	uint64_t cs_loops, think_loops;
	struct thread_usage usage;
	/* For the watchdog (run.c), which reads them from the main thread while
	 * this one runs: written only here, with relaxed atomic stores. */
	uint64_t acquired;             /* acquisitions, warm-up included, never reset */
	uint64_t waiting_since;        /* TSC when the pending lock() began; 0: none pending;
	                                * BENCH_WAITING_UNTIMED: an untimed one (--timing) */
	/* Acquisitions bench_lock() did not time (--timing sample:N or off) in
	 * the measured interval, and how many of them were contended: with the
	 * histogram's counts, the exact totals. */
	uint64_t untimed, untimed_contended;
	uint64_t timing_rng;           /* sample:N: the gaps' random stream (bench_timing_gap) */
	int err;                       /* 0, or the errno that stopped this thread */
	char errmsg[160];
	pthread_t tid;
} cacheline_aligned;

/* waiting_since while an untimed lock() is pending: no TSC was read for it
 * (the watchdog then counts from the thread's last acquisition). */
#define BENCH_WAITING_UNTIMED 1

/* The untimed acquisitions to leave before the next timed one, under
 * sample:N: uniform in [0, 2N-2], so one in N is timed on average, at gaps
 * no periodic workload can line up with (harness.c).  Out of line: a 64-bit
 * division that `all` never pays, kept out of every op(). */
uint64_t bench_timing_gap(struct bench_thread *t);
/* Sets t's --timing fields, which bench_lock() reads, from cfg (timing,
 * timing_sample, seed) and t->id (harness.c). */
void bench_timing_init(struct bench_thread *t, const struct bench_config *cfg);

/* An acquisition --timing leaves untimed: the same lock() and the same exact
 * counts, without the TSC reads and the histogram.  Of `lock` with node
 * `lt`; returns lock()'s answer, whether it was contended.  (--exec's
 * interposer has its own, which stores nothing before the lock's call:
 * bench/exec/preload.c, px_lock_untimed.) */
static inline bool bench_lock_untimed_on(struct bench_thread *t, void *lock, struct lock_thread *lt)
{
	bool contended;

	t->timing_skip--;
	__atomic_store_n(&t->waiting_since, BENCH_WAITING_UNTIMED, __ATOMIC_RELAXED);
	contended = t->lock_ops->lock(lock, lt);
	__atomic_store_n(&t->waiting_since, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&t->acquired, t->acquired + 1, __ATOMIC_RELAXED);
	t->untimed++;
	t->untimed_contended += contended;
	return contended;
}

static inline void bench_lock_untimed(struct bench_thread *t)
{
	bench_lock_untimed_on(t, t->lock, t->lt);
}

/*
 * Timed acquisition: from just before lock() to just after it returns.  The
 * watchdog's two words are this thread's own, on its own line: relaxed
 * stores, plain movs on x86, ordered against nothing — the watchdog needs
 * only to see them eventually, and reads them a few times a second.
 * --timing costs `all` two loads of this thread's own line and two branches
 * that always go the same way, both outside the timed interval.
 */
static inline void bench_lock(struct bench_thread *t)
{
	uint64_t t0;
	bool contended;
	uint64_t acq_cycles;

	if (t->timing_skip) {
		bench_lock_untimed(t);
		return;
	}
	t0 = tsc_begin();
	__atomic_store_n(&t->waiting_since, t0, __ATOMIC_RELAXED);
	contended = t->lock_ops->lock(t->lock, t->lt);
	acq_cycles = tsc_end() - t0;
	__atomic_store_n(&t->waiting_since, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&t->acquired, t->acquired + 1, __ATOMIC_RELAXED);
	hist_record(&t->acq, acq_cycles, contended);
	/* After tsc_end(): the branch and the second record are outside every
	 * timed interval, and touch only this thread's own cache lines. */
	if (contended)
		hist_record(&t->acq_contended, acq_cycles, true);
	if (t->timing_mean)
		t->timing_skip = bench_timing_gap(t);
}

static inline void bench_unlock(struct bench_thread *t)
{
	t->lock_ops->unlock(t->lock, t->lt);
}

/*
 * True once the run has stopped: a workload whose operation takes many locked
 * calls asks between them, and gives the operation up (WL_OP_ABANDONED,
 * workload.h) rather than finish it long after --duration.  A relaxed load of
 * a word written three times a run: it orders nothing, and a stop seen one
 * call late costs only that call.  Without a run (a test calling op()
 * directly) it is never true.
 */
static inline bool bench_stopping(const struct bench_thread *t)
{
	return t->phase && __atomic_load_n(t->phase, __ATOMIC_RELAXED) == PHASE_STOP;
}

/*
 * Busy work that does not touch memory other threads see: `loops` iterations
 * of a volatile stack store, converted from cycles by busy_loops_for() after
 * busy_calibrate() has timed the loop once per process (busywork.h).
 */
static inline void busy_loops(uint64_t loops)
{
	volatile uint64_t sink;

	for (uint64_t i = 0; i < loops; i++)
		sink = i;
	(void)sink;
}

/* Fails the thread's run with a one-line message: returns -1 for op()
 * (harness.c). */
int bench_fail(struct bench_thread *t, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
