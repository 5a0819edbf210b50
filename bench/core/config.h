/*
 * config.h — what a run is told: struct bench_config, filled by the command
 * line (cli.c, the one writer besides the tests) and read-only after, and
 * the exit statuses a run answers with.  Data only: every layer of bench/
 * may read it, none of it calls anything.
 */
#ifndef LOCKBENCH_CONFIG_H
#define LOCKBENCH_CONFIG_H

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>

#include "../../locks/lock.h"

struct workload_ops;

/* Exit statuses of lockbench, documented in the README. */
enum bench_exit {
	EXIT_OK = 0,
	EXIT_RUNTIME = 1,   /* a system call or result write failed */
	EXIT_USAGE = 2,     /* bad command line or unusable --out/--dir */
	EXIT_INVARIANT = 3, /* a workload's invariant failed: the lock lost updates */
	EXIT_WATCHDOG = 4,  /* no progress for --watchdog seconds */
	/* The output directory takes no more writes (its file system full, over
	 * quota or read-only: ENOSPC, EDQUOT, EROFS): nothing written.  run-all
	 * stops on it rather than fail every later run the same way. */
	EXIT_OUT_FULL = 5,
	EXIT_SIGNAL = 130,  /* stopped by SIGINT/SIGTERM/SIGHUP; nothing written (--exec: what was gathered) */
};

/* The exit status of a result write that failed with errno `e`:
 * EXIT_OUT_FULL where the directory takes no more writes, as a later run
 * there would fail too; else `other` (EXIT_RUNTIME for a file, EXIT_USAGE for
 * an -o that cannot be made). */
static inline int bench_write_status(int e, int other)
{
	return e == ENOSPC || e == EDQUOT || e == EROFS ? EXIT_OUT_FULL : other;
}

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
 * A workload's own settings: bytes that only the workload's file interprets,
 * filled by its options (struct option_def in its file, given as
 * `--KEY VALUE`) and read by its setup(); all zero is its defaults.  The
 * harness and the CLI know none of them.
 */
#define WORKLOAD_SETTINGS_SIZE 64
struct workload_settings {
	unsigned char bytes[WORKLOAD_SETTINGS_SIZE];
} __attribute__((aligned(16)));

/* --sim-semantics (docs/sim.md, "Running a simulation"). */
enum bench_sim_semantics {
	BENCH_SIM_DEFAULT,  /* kernel for the kmutex-* models, userspace for every other lock */
	BENCH_SIM_KERNEL,
	BENCH_SIM_USER,
};

#define EXEC_METRICS_MAX 8   /* --metric options of one --exec run */
/* -t's largest count (--help says it; run-all's --threads takes it through
 * `lockbench --plan check --threads`). */
#define MAX_THREADS 65536u

struct bench_config {
	const struct lock_ops *lock;
	const struct workload_ops *workload;
	unsigned int threads;
	double duration_s;
	double warmup_s;          /* excluded from every statistic */
	uint64_t cs_cycles;       /* busy work inside the critical section */
	uint64_t think_cycles;    /* busy work between operations */
	const char *pin;          /* placement policy (placement.h) */
	bool pin_asked;           /* --pin was given (--exec pins nothing without it) */
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
	int sched;                /* --sched: enum sched_mode (schedmode.h; 0: other) */
	/* --exec (docs/exec.md): the program run under the preloaded library,
	 * argv after `--` (NULL: a benchmark run); --lock-opt's KEY=VALUEs one
	 * per line, for the library; --metric NAME=REGEX, as typed. */
	char *const *exec_argv;
	const char *exec_lock_opts;
	const char *exec_metrics[EXEC_METRICS_MAX];
	unsigned int exec_metrics_n;
	/* --program NAME (bench/exec/programs.def): its name and its
	 * {threads} (-t); NULL and 0 for `-- PROGRAM`. */
	const char *exec_program;
	unsigned int exec_threads_asked;
	/* --sim PROFILE (docs/sim.md, "Running a simulation"): the run is
	 * simulated on that profile's machine (NULL: a real run), on sim_cpus
	 * CPUs (0: the profile's), from sim_seed, in sim_semantics (enum
	 * bench_sim_semantics); -d and --warmup are then simulated seconds. */
	const char *sim_profile;
	unsigned int sim_cpus;
	uint64_t sim_seed;
	int sim_semantics;
	const char *sim_sched;    /* --sim-sched: the scheduler model (NULL: the profile's sched.model) */
	/* Output */
	const char *out_dir;      /* NULL: summary only */
	const char *cmdline;      /* the command line, as typed */
	bool quiet;               /* no summary on stdout (tests) */
};

#endif
