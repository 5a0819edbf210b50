/*
 * harness.h — what the harness shares with workloads: the run's settings, the
 * per-thread record, and the timed acquisition every workload goes through.
 *
 * Data path: CLI (cli.c) -> struct bench_config -> the run (run.c) and its
 * threads (worker.c) -> timed acquisitions (bench_lock below) -> per-thread
 * struct hist -> merge (merge.c) -> summary and result files (report.c,
 * meta.c; formats in results/README.md).
 */
#ifndef LOCKBENCH_HARNESS_H
#define LOCKBENCH_HARNESS_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../locks/lock.h"
#include "hist.h"

struct workload_ops;

/* Exit statuses of lockbench, documented in the README. */
enum bench_exit {
	EXIT_OK = 0,
	EXIT_RUNTIME = 1,   /* a system call or result write failed */
	EXIT_USAGE = 2,     /* bad command line or unusable --out/--dir */
	EXIT_INVARIANT = 3, /* a workload's invariant failed: the lock lost updates */
	EXIT_WATCHDOG = 4,  /* no progress for --watchdog seconds */
	EXIT_SIGNAL = 130,  /* stopped by SIGINT/SIGTERM; nothing written */
};

/*
 * --timing: which acquisitions bench_lock() times.  Counts (acquisitions,
 * contentions, phases, spin exits, operations) are exact in every mode; only
 * the histograms and cycle figures cover the timed acquisitions alone.
 */
enum bench_timing {
	TIMING_ALL,     /* every one (the default; the patch-shaped tables) */
	TIMING_SAMPLE,  /* one in N on average, at random gaps from --seed */
	TIMING_OFF,     /* none: the histograms stay empty */
};

/*
 * --sched: the worker threads' scheduling.  FIFO puts them all under
 * SCHED_FIFO at one priority, so none preempts another (a userspace stand-in
 * for the kernel's preemption-off spinning; docs/kmutex.md, "--sched fifo").
 */
enum bench_sched {
	SCHED_MODE_OTHER,  /* the default: SCHED_OTHER, as the process runs */
	SCHED_MODE_FIFO,
};
extern const char *const bench_sched_name[];

/*
 * A workload's own settings: bytes that only the workload's file interprets,
 * filled by its options (struct workload_option in workload.h, given as
 * `--KEY VALUE`) and read by its setup(); all zero is its defaults.  The
 * harness and the CLI know none of them.
 */
#define WORKLOAD_SETTINGS_SIZE 64
struct workload_settings {
	unsigned char bytes[WORKLOAD_SETTINGS_SIZE];
} __attribute__((aligned(16)));

/* Everything a run is told: filled by the CLI (or a test), read-only after. */
struct bench_config {
	const struct lock_ops *lock;
	const struct workload_ops *workload;
	unsigned int threads;
	double duration_s;
	double warmup_s;          /* excluded from every statistic */
	uint64_t cs_cycles;       /* busy work inside the critical section */
	uint64_t think_cycles;    /* busy work between operations */
	const char *pin;          /* placement policy (placement.h) */
	struct lock_params lock_params;
	int lock_node;            /* NUMA node for the lock and shared data; -1: first thread's */
	double watchdog_s;        /* 0: the default (max(5, duration)) */
	int timing;               /* --timing: enum bench_timing (0: all) */
	uint64_t timing_sample;   /* --timing sample:N: N, the mean gap between timed acquisitions */
	/* Workload knobs; each workload documents which it reads. */
	struct workload_settings wl_settings;  /* the workload's own options */
	const char *dir;          /* parent of the workload's private temporary directory */
	uint64_t seed;            /* per-thread random streams derive from it */
	uint64_t max_ops;         /* per thread, 0 = unbounded: bounds tests on slow locks */
	bool kernel_locks;        /* --kernel-locks: record the kernel's lock contention (kernel_locks.h) */
	int sched;                /* --sched: enum bench_sched (0: other) */
	/* Output */
	const char *out_dir;      /* NULL: summary only */
	const char *cmdline;      /* the command line, as typed */
	bool quiet;               /* no summary on stdout (tests) */
};

/* CPU time and context switches of one thread over the measured interval. */
struct thread_usage {
	double user_s, sys_s;
	uint64_t vol_csw, invol_csw;
};

enum bench_phase { PHASE_WARMUP, PHASE_MEASURE, PHASE_STOP };

struct bench_run;

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
 * no periodic workload can line up with (worker.c). */
uint64_t bench_timing_gap(struct bench_thread *t);
/* Sets t's --timing fields from cfg (timing, timing_sample, seed) and t->id. */
void bench_timing_init(struct bench_thread *t, const struct bench_config *cfg);

/* An acquisition --timing leaves untimed: the same lock() and the same exact
 * counts, without the TSC reads and the histogram. */
static inline void bench_lock_untimed(struct bench_thread *t)
{
	bool contended;

	t->timing_skip--;
	__atomic_store_n(&t->waiting_since, BENCH_WAITING_UNTIMED, __ATOMIC_RELAXED);
	contended = t->lock_ops->lock(t->lock, t->lt);
	__atomic_store_n(&t->waiting_since, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&t->acquired, t->acquired + 1, __ATOMIC_RELAXED);
	t->untimed++;
	t->untimed_contended += contended;
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
 * busy_calibrate() has timed the loop once per process.
 */
static inline void busy_loops(uint64_t loops)
{
	volatile uint64_t sink;

	for (uint64_t i = 0; i < loops; i++)
		sink = i;
	(void)sink;
}

void busy_calibrate(void);
uint64_t busy_loops_for(uint64_t cycles);

/* Fails the thread's run with a one-line message: returns -1 for op(). */
int bench_fail(struct bench_thread *t, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
