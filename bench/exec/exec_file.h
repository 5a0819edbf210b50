/*
 * exec_file.h — what the preloaded library writes for the launcher of
 * `lockbench --exec`, one pair of files per process of the program, in the
 * launcher's private directory (its merge into a run's files: results/README.md, "--exec runs"; docs/exec.md):
 *   exec-PID.csv     key,value: the lock() figures merged over the process's
 *                    threads (bench_thread's, as a benchmark's), the lock's
 *                    events and settings, the interposer's own counts;
 *   mutexes-PID.csv  one row per mutex that was taken: its call site (the
 *                    first frame outside the program's lock wrapper) and
 *                    the wrapper's own call, "-,0" without one.
 * Both sides include this file, so a key is named once.
 */
#ifndef LOCKBENCH_EXEC_FILE_H
#define LOCKBENCH_EXEC_FILE_H

#include "../../common/lock_events.def"

#define EXEC_FORMAT 1
#define EXEC_KEY_FORMAT "exec_format"
#define EXEC_FILE_PREFIX "exec"
#define EXEC_MUTEX_PREFIX "mutexes"
#define EXEC_MUTEX_HEADER \
	"mutex,destroyed,acquisitions,contentions,contended_timed,contended_cycles,site_object,site_address," \
	"wrapper_object,wrapper_address"

/* A line on the program's standard error, a process's figures not written
 * (printf: its pid, then "PATH: REASON"); the launcher quotes the main
 * process's. */
#define EXEC_NOT_WRITTEN "lockbench-exec: pid %d: figures not written to "

/* --pin (bench/exec/preload_pin.c): the process's threads the library
 * placed, and those whose sched_setaffinity() failed. */
#define EXEC_KEY_PINNED "threads_pinned"
#define EXEC_KEY_PIN_FAILED "pin_failures"

/* struct lock_events' plain counters (common/lock_events.def), written as
 * ev_NAME (spin exits apart): EXEC_EVENTS expands the user's EXEC_EVENT(NAME). */
#define EXEC_EVENT_OF(unused, name) EXEC_EVENT(name)
#define EXEC_EVENTS                                                                      \
	LOCK_EVENT_PHASES(EXEC_EVENT_OF, -) LOCK_EVENT_COUNTS(EXEC_EVENT_OF, -)          \
	EXEC_EVENT(preempt_seen) LOCK_EVENT_PREEMPTS(EXEC_EVENT_OF, -)

/* The interposer's own counts (struct px_counts, preload.h), by name. */
#define EXEC_COUNTS                                                               \
	EXEC_COUNT(trylocks) EXEC_COUNT(trylock_busy) EXEC_COUNT(timedlocks)      \
	EXEC_COUNT(timedlock_timeouts) EXEC_COUNT(cond_waits)                     \
	EXEC_COUNT(cond_timeouts) EXEC_COUNT(cond_signals)                        \
	EXEC_COUNT(cond_broadcasts) EXEC_COUNT(passthrough_locks)                 \
	EXEC_COUNT(passthrough_inits) EXEC_COUNT(mutex_inits)                     \
	EXEC_COUNT(mutex_starts) EXEC_COUNT(mutex_destroys)                       \
	EXEC_COUNT(mutex_restarts) EXEC_COUNT(threads)

#endif
