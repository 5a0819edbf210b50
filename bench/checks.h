/*
 * checks.h — the self-checks every run carries: is this result internally
 * consistent, and can its clock be trusted?  Evaluated once after the join
 * (run.c), printed in the summary and written to checks.csv (report.c,
 * results/README.md).  A check never changes the exit status: it says what
 * the machine showed.
 */
#ifndef LOCKBENCH_CHECKS_H
#define LOCKBENCH_CHECKS_H

/*
 * An empty timed interval (lfence; rdtsc ... rdtscp) costs some 20-100 cycles
 * natively on x86 parts of the last decade.  A hypervisor that traps rdtsc
 * turns each read into a VM exit, a round trip of well over 1000 cycles, and
 * then every acquisition time is mostly trap.  1000 sits an order of
 * magnitude above native and below any trap.
 */
#define CHECKS_TIMER_MAX_CYCLES 1000

enum check_id {
	CHECK_HIST_TOTAL,     /* bins, histogram count and per-thread counts agree; contended histogram = contentions */
	CHECK_PHASES,         /* acq_fast + acq_spin + acq_nosleep + acq_sleep = acquisitions (LOCK_F_PHASES) */
	CHECK_INVARIANT,      /* the workload's verify() */
	CHECK_TIMER,          /* timer overhead plausible */
	CHECK_TSC_INVARIANT,  /* CPUID says the TSC is invariant */
	CHECK_TSC_FREQUENCY,  /* calibrated rate agrees with libcpuid's */
	CHECK_TSC_SKEW,       /* TSCs ordered across the run's CPUs */
	CHECK_FAIRNESS,       /* no thread starved in the measured interval */
	CHECKS_NR
};

enum check_status { CHECK_OK, CHECK_WARN, CHECK_SKIPPED, CHECK_STATUS_NR };

extern const char *const check_name[CHECKS_NR];          /* checks.csv `check` */
extern const char *const check_status_name[CHECK_STATUS_NR]; /* ok, WARN, skipped */

struct check {
	int status;              /* enum check_status */
	char detail[256];        /* one line, no commas */
};

struct checks {
	struct check c[CHECKS_NR];   /* indexed by enum check_id */
	unsigned int count[CHECK_STATUS_NR];
};

struct bench_result;

/* Fills res->checks from the merged figures; needs res->threads. */
void checks_evaluate(struct bench_result *res);

#endif
