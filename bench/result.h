/*
 * result.h — one run's merged figures: what report.c prints and writes, and
 * what a workload's figures() hook reads.
 */
#ifndef LOCKBENCH_RESULT_H
#define LOCKBENCH_RESULT_H

#include <stdint.h>

#include "checks.h"
#include "harness.h"
#include "kernel_locks.h"
#include "machine.h"

/* An ordered list of extra named figures (key as in summary.csv). */
#define FIGURES_MAX 32
struct figure {
	char key[40];      /* summary.csv key: [a-z0-9_]+ */
	char label[48];    /* human label for the summary */
	char value[40];    /* already formatted */
};
struct figures {
	struct figure f[FIGURES_MAX];
	unsigned int n;
};
void figure_add(struct figures *out, const char *key, const char *label,
		const char *fmt, ...) __attribute__((format(printf, 4, 5)));

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
	struct kernel_locks kernel;  /* --kernel-locks: the kernel's lock contention (captured: it ran) */
};

#endif
