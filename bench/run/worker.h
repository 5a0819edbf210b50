/*
 * worker.h — a run's worker threads (worker.c): started by the main thread
 * (run.c), each runs its loop of operations until the run's phase says
 * stop.  bench_fail() and the --timing sampler are harness.c's.
 */
#ifndef LOCKBENCH_WORKER_H
#define LOCKBENCH_WORKER_H

#include <stddef.h>

#include "../core/harness.h"

struct bench_run;

/* Why threads_start() stopped short of cfg->threads. */
enum start_status { START_OK, START_FAILED, START_STOPPED };

/*
 * Creates the workers, stopping at the first that cannot be placed or
 * created, or at a stop signal; *created says how many run (threads[0..n)
 * all non-NULL).  On START_FAILED err says why.
 */
enum start_status threads_start(struct bench_run *run, struct bench_thread **threads,
				unsigned int *created, char *err, size_t errlen);

/* Frees a worker's record (NULL: nothing), after it was joined. */
void thread_free(const struct bench_config *cfg, struct bench_thread *t);

#endif
