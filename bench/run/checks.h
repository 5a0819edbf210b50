/*
 * checks.h — the self-checks every run carries: is this result internally
 * consistent, and can its clock be trusted?  Evaluated once after the join
 * (run.c) into the result's struct checks (result.h), printed in the
 * summary and written to checks.csv (report.c, results/README.md).  A check
 * never changes the exit status: it says what the machine showed.
 */
#ifndef LOCKBENCH_CHECKS_H
#define LOCKBENCH_CHECKS_H

#include "../core/result.h"

/*
 * An empty timed interval (lfence; rdtsc ... rdtscp) costs some 20-100 cycles
 * natively on x86 parts of the last decade.  A hypervisor that traps rdtsc
 * turns each read into a VM exit, a round trip of well over 1000 cycles, and
 * then every acquisition time is mostly trap.  1000 sits an order of
 * magnitude above native and below any trap.
 */
#define CHECKS_TIMER_MAX_CYCLES 1000

extern const char *const check_name[CHECKS_NR];          /* checks.csv `check` */
extern const char *const check_status_name[CHECK_STATUS_NR]; /* ok, WARN, skipped */

/* Fills res->checks from the merged figures; needs res->threads. */
void checks_evaluate(struct bench_result *res);

#endif
