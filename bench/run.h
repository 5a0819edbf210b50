/* run.h — one benchmark run: threads, warm-up, measurement, merge. */
#ifndef LOCKBENCH_RUN_H
#define LOCKBENCH_RUN_H

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
 * Makes SIGINT/SIGTERM request a stop instead of killing the process, from
 * now on: a signal that arrives before bench_run() (while the result
 * directory is being staged, say) still stops the run cleanly.  bench_run()
 * installs the same handlers for its own duration in any case.
 */
void bench_catch_stop_signals(void);

#endif
