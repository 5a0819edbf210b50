/*
 * result.h — one run's merged figures: what report.c prints and writes, and
 * what a workload's figures() hook reads.  Filled by the run (run/merge.c,
 * run/checks.c); data and figure_add() (result.c) only, so the workloads,
 * below the run, can read it and add their figures.
 */
#ifndef LOCKBENCH_RESULT_H
#define LOCKBENCH_RESULT_H

#include <stdint.h>

#include "config.h"
#include "harness.h"
#include "../kernel/kernel_locks.h"
#include "../platform/machine.h"

/* An ordered list of extra named figures (key as in summary.csv). */
#define FIGURES_MAX 48   /* an --exec run's: 18, and 2 per --metric (EXEC_METRICS_MAX) */
struct figure {
	char key[48];      /* summary.csv key: [a-z0-9_]+ (metric_better_ and a 31-byte NAME) */
	char label[48];    /* human label for the summary */
	char value[40];    /* already formatted */
};
struct figures {
	struct figure f[FIGURES_MAX];
	unsigned int n;
};
void figure_add(struct figures *out, const char *key, const char *label,
		const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* The self-checks' verdicts (checks.h evaluates and names them). */
/*
 * The self-checks, each named once: X(ID, name, evaluator) gives enum
 * check_id's CHECK_ID, checks.csv's `check` name (check_name[]) and the
 * function of checks.c that judges it, in checks.csv's order.
 */
#define CHECKS(X)                                                                                         \
	/* bins, histogram count and per-thread counts agree; contended histogram = contentions */      \
	X(HIST_TOTAL, histogram_total, check_hist_total)                                                 \
	/* acq_fast + acq_spin + acq_nosleep + acq_sleep = acquisitions (LOCK_F_PHASES) */               \
	X(PHASES, acquisition_phases, check_phases)                                                      \
	X(INVARIANT, invariant, check_invariant)                /* the workload's verify() */           \
	X(TIMER, timer_overhead, check_timer)                   /* timer overhead plausible */          \
	X(TSC_INVARIANT, tsc_invariant, check_tsc_invariant)    /* CPUID says the TSC is invariant */  \
	X(TSC_FREQUENCY, tsc_frequency, check_tsc_frequency)    /* calibrated rate agrees with libcpuid's */ \
	X(TSC_SKEW, tsc_skew, check_tsc_skew)                   /* TSCs ordered across the run's CPUs */ \
	X(FAIRNESS, fairness, check_fairness)                   /* no thread starved in the measured interval */

enum check_id {
#define CHECK_ENUM(id, name, fn) CHECK_##id,
	CHECKS(CHECK_ENUM)
#undef CHECK_ENUM
	CHECKS_NR
};

enum check_status { CHECK_OK, CHECK_WARN, CHECK_SKIPPED, CHECK_STATUS_NR };

struct check {
	int status;              /* enum check_status */
	char detail[256];        /* one line, no commas */
};

struct checks {
	struct check c[CHECKS_NR];   /* indexed by enum check_id */
	unsigned int count[CHECK_STATUS_NR];
};

/* The workload's invariant, checked after the join (run.c). */
enum invariant_status {
	INVARIANT_NONE,    /* the workload has no verify() hook */
	INVARIANT_OK,
	INVARIANT_FAILED,  /* the run ends with EXIT_INVARIANT */
};

struct bench_result {
	const struct bench_config *cfg;
	struct bench_thread *const *threads;  /* cfg->threads of them */
	struct hist acq;             /* every thread's timed acquisitions, merged (--timing) */
	struct hist acq_contended;   /* the contended ones only (acq.contended of them) */
	uint64_t acquisitions;       /* every acquisition, timed or not: exact in every mode */
	uint64_t contentions;        /* the contended ones among them */
	struct lock_events ev;       /* every thread's lock events, merged */
	uint64_t ops;                /* measured interval */
	uint64_t ops_all;            /* warm-up included */
	uint64_t ops_abandoned;      /* left unfinished at the stop (WL_OP_ABANDONED): in neither */
	double measured_s;           /* length of the measured interval */
	double ops_per_s;
	uint64_t ops_min, ops_max;   /* per-thread fairness */
	double ops_cv;               /* coefficient of variation of per-thread ops */
	struct thread_usage usage;   /* summed over threads */
	uint64_t timer_overhead;     /* median cycles of an empty tsc_begin/tsc_end pair */
	double tsc_hz;               /* TSC frequency used for ns figures */
	struct figures extra;        /* from the workload's figures() hook */
	struct machine_info machine; /* identity, clock checks, system state: meta.csv */
	int lock_node;               /* NUMA node of the lock and shared data (-1: first touch) */
	int *pin_order;              /* the --pin policy's CPU order before wrapping (NULL: none) */
	int pin_order_n;
	int invariant;               /* enum invariant_status */
	char invariant_msg[256];     /* verify()'s message when it failed */
	struct checks checks;        /* the self-checks (checks.h), after the join */
	struct lock_params lock_params; /* what the lock ran with: its settings after prepare() */
	/* The build of the lock that ran, whose settings_figures() reads
	 * lock_params: NULL, cfg->lock's own; a simulated run's is the lock's
	 * simulated build (its answers, e.g. kmutex's need_resched view, are
	 * the simulator's). */
	const struct lock_ops *ran_ops;
	struct kernel_locks kernel;  /* --kernel-locks: the kernel's lock contention (captured: it ran) */
	/* --sim: the simulated CPUs and the semantics the run had (enum
	 * bench_sim_semantics, never DEFAULT); 0 for a real run. */
	unsigned int sim_cpus;
	int sim_semantics;
	char sim_sched[32];          /* the scheduler model the simulation ran */
	/* --sim: the acquisitions one op counts (the profile's
	 * workload.NAME.acq_per_op, 1 where it gives none). */
	unsigned int sim_acq_per_op;
};

#endif
