/*
 * run.h — one benchmark run: threads, warm-up, measurement, merge.  run.c
 * runs it from the main thread; worker.c is the worker threads, runctl.c
 * the gate and the stop signal they share, merge.c the merge.
 */
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
 * after the signal's grace), or a stop signal came and they were left to
 * the process's exit instead of being joined (EXIT_SIGNAL: blocked at the
 * start gate, or past their teardown).  Nothing they use was freed; the
 * caller must end the process with _exit(), since exit handlers would run
 * under them.
 */
bool bench_run_abandoned(void);

/*
 * Makes SIGINT/SIGTERM request a stop instead of killing the process, from
 * now on: a signal that arrives before bench_run() (while the result
 * directory is being staged, say) still stops the run cleanly.  bench_run()
 * installs the same handlers for its own duration in any case.
 */
void bench_catch_stop_signals(void);

/* The SIGINT/SIGTERM that asked for a stop (caught since
 * bench_catch_stop_signals() or during bench_run()), or 0. */
int bench_stop_signal(void);

/*
 * Tests only: called, when set, as a run reaches each phase, n being the
 * worker's number where there is one:
 *   "probe"    before the machine probe;
 *   "place"    before worker n's records are allocated on its node;
 *   "start"    before worker n is created;
 *   "setup"    in worker n, before its workload setup;
 *   "warmup"   the gate just opened;
 *   "measure"  the measured interval just began;
 *   "join"     the workers just told to stop, not yet joined;
 *   "write"    the result files written, not yet moved into place (lockbench.c).
 * A non-zero return at "place", "start" or "setup" is an errno that step
 * fails with (0 elsewhere); the hook may also raise a signal or sleep.  NULL
 * in lockbench: the test build's sets it from LOCKBENCH_TEST_HOOK
 * (tests/locks/test_hook.c), so the shipped binary reads no such variable.
 * Inline, so that a point costs the workers' setup and the main thread one
 * load and a branch wherever it is.
 */
extern int (*bench_test_hook)(const char *phase, unsigned int n);
static inline int bench_test_point(const char *phase, unsigned int n)
{
	return bench_test_hook ? bench_test_hook(phase, n) : 0;
}

#endif
