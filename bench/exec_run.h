/*
 * exec_run.h — `lockbench --exec -- PROGRAM ARGS...` (docs/exec.md): runs
 * the program with bench/exec's library preloaded, waits for it, and writes
 * the result directory a benchmark run writes, plus the program's figures,
 * its output and mutexes.csv.
 */
#ifndef LOCKBENCH_EXEC_RUN_H
#define LOCKBENCH_EXEC_RUN_H

#include "core/config.h"

/* The whole --exec run: an exit status of config.h (EXIT_USAGE before the
 * program starts on a bad --metric or an unusable -o or library;
 * EXIT_RUNTIME when the program could not run, failed, was killed, or a
 * metric was not found — the result directory then says which). */
int exec_run_and_report(const struct bench_config *cfg);

#endif
