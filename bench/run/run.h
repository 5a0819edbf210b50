/*
 * run.h — one benchmark run: threads, warm-up, measurement, merge.  run.c
 * runs it from the main thread; worker.c is the worker threads, runctl.c
 * the gate, the stop signal and the tests' hook they share (runctl.h),
 * merge.c the merge.
 */
#ifndef LOCKBENCH_RUN_H
#define LOCKBENCH_RUN_H

#include <stdbool.h>
#include <stddef.h>

#include "../core/harness.h"
#include "../core/result.h"

/*
 * Runs `cfg` to completion and fills `res`; returns an enum bench_exit.  On a
 * non-zero status a one-line message is in err.  Everything the run made
 * (threads, the workload's files) is gone when it returns, except the
 * per-thread records that res->threads points at: release them with
 * bench_result_free().
 */
int bench_run(const struct bench_config *cfg, struct bench_result *res, char *err, size_t errlen);
void bench_result_free(struct bench_result *res);

/*
 * True after a bench_run() that returned with threads still running: they
 * never left a lock that does not let them go (EXIT_WATCHDOG, or EXIT_SIGNAL
 * after the signal's grace), or a stop signal came and they were left to
 * the process's exit instead of being joined (EXIT_SIGNAL: blocked at the
 * start gate, or past their teardown).  Nothing they use was freed; the
 * caller must end the process with _exit(), since exit handlers would run
 * under them.
 */
bool bench_run_abandoned(void);

#endif
