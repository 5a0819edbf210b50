/* run.h — one benchmark run: threads, warm-up, measurement, merge. */
#ifndef LOCKBENCH_RUN_H
#define LOCKBENCH_RUN_H

#include <stdbool.h>
#include <stddef.h>

#include "harness.h"
#include "result.h"

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
 * after the signal's grace).  Nothing they use was freed; the caller must
 * end the process with _exit(), since exit handlers would run under them.
 */
bool bench_run_abandoned(void);

/*
 * Makes SIGINT/SIGTERM request a stop instead of killing the process, from
 * now on: a signal that arrives before bench_run() (while the result
 * directory is being staged, say) still stops the run cleanly.  bench_run()
 * installs the same handlers for its own duration in any case.
 */
void bench_catch_stop_signals(void);

#endif
