/*
 * launcher.h — `lockbench --exec -- PROGRAM ARGS...` (docs/exec.md): runs
 * the program with bench/exec's library preloaded, waits for it, and writes
 * the result directory a benchmark run writes, plus the program's figures,
 * its output and mutexes.csv.  The launcher's files, one job each, are
 * listed in launcher_internal.h.
 */
#ifndef LOCKBENCH_EXEC_LAUNCHER_H
#define LOCKBENCH_EXEC_LAUNCHER_H

#include "../../core/config.h"

/* The whole --exec run: an exit status of config.h (EXIT_USAGE before the
 * program starts on a bad --metric, an unusable -o, library or private
 * directory; EXIT_RUNTIME when the program could not run, failed, was
 * killed, its private directory's file system filled, or a metric was not
 * found — the result directory then says which; EXIT_SIGNAL when a stop
 * signal ended it, what it gathered written all the same). */
int exec_run_and_report(const struct bench_config *cfg);

#endif
