/*
 * runctl.h — what a run's main thread (run.c) and its workers (worker.c)
 * share: the run's record with the phase flag every worker polls, the start
 * gate they meet at, the stop signal, and the tests' hook.  All of it is
 * runctl.c's, which calls no other file of the run.
 */
#ifndef LOCKBENCH_RUNCTL_H
#define LOCKBENCH_RUNCTL_H

#include <pthread.h>
#include <signal.h>
#include <stdbool.h>

#include "watchdog.h"
#include "../core/harness.h"

/* The slice every wait of the main thread sleeps in, between its looks. */
#define WAIT_SLICE_S 0.01

struct bench_run {
	/* Written three times a run, read by every thread once per op: alone on
	 * its line pair so no thread's own writes share it. */
	int phase __attribute__((aligned(CACHELINE_PAIR)));
	unsigned int threads_done;      /* threads that left their loop */
	int failed;                     /* a thread's op() failed */
	const struct bench_config *cfg;
	void *lock;
	void *wl_shared;
	const int *cpu_of_thread;       /* placement_plan()'s answer */
	int lock_node;                  /* --lock-node, resolved (-1: first touch) */
	pthread_mutex_t gate_mutex;
	pthread_cond_t gate_cond;       /* the workers wait here for the gate */
	pthread_cond_t ready_cond;      /* the main thread waits here for the workers */
	unsigned int gate_ready;        /* threads waiting at the gate */
	int gate_state;                 /* 0 closed, 1 open, -1 aborted */
	/* --sched other than the default: past the gate, the workers that took
	 * their policy, and the futex word they then wait on (1: go). */
	unsigned int sched_arrived;
	uint32_t sched_go;
	/* The main thread's alone. */
	struct watchdog wd;
	bool watching;                  /* wd started */
	bool abandoned;                 /* threads left running: nothing they use is freed */
} __attribute__((aligned(CACHELINE_PAIR)));

/* Threads that have left their loop (after their teardown). */
unsigned int threads_done(struct bench_run *run);

/* SIGINT/SIGTERM/SIGHUP request a stop from now on (bench_catch_stop_signals());
 * the handlers SIGINT and SIGTERM replace go to *old_int and *old_term unless NULL. */
void stop_signals_catch(struct sigaction *old_int, struct sigaction *old_term);

void gate_init(struct bench_run *run);
void gate_destroy(struct bench_run *run);
/* The main thread's side of the gate (the workers' is gate_wait() in
 * worker.c): 1 opens it, -1 aborts the run at it. */
void gate_set(struct bench_run *run, int state);
/*
 * Waits for the `created` workers to reach the gate — every one that was
 * created arrives, its setup failed or not — in slices, until a stop signal
 * (when `stoppable`) or limit_s; true when all have arrived.
 */
bool gate_await(struct bench_run *run, unsigned int created, bool stoppable, double limit_s);
/* All the workers at the gate, unless a stop signal came first. */
bool gate_await_ready(struct bench_run *run, unsigned int created);

/*
 * --sched: past the gate each worker takes its policy, then says so and
 * waits (gate_sched_arrive) until the main thread, once all `created` have
 * (or a worker failed, or a stop signal came), lets them all go at once
 * (gate_sched_release).  No mutex: under SCHED_FIFO a waiter woken behind a
 * running worker on its CPU does not run, and must hold up nobody.
 */
void gate_sched_arrive(struct bench_run *run);
void gate_sched_release(struct bench_run *run, unsigned int created);

/*
 * Makes SIGINT/SIGTERM/SIGHUP request a stop instead of killing the process,
 * from now on: a signal that arrives before bench_run() (while the result
 * directory is being staged, say) still stops the run cleanly.  bench_run()
 * installs the same handlers for its own duration in any case, and --exec
 * (exec/launcher/life.c) passes the stop on to the program.
 */
void bench_catch_stop_signals(void);

/* The SIGINT/SIGTERM/SIGHUP that asked for a stop (caught since
 * bench_catch_stop_signals() or during bench_run()), or 0; and whether the
 * last came from a terminal (^C, a hangup), which sent it to the whole
 * foreground process group. */
int bench_stop_signal(void);
bool bench_stop_from_terminal(void);

/* --exec's fork: the stop signals blocked (the mask before in *old) so that
 * none is lost between fork and exec; the child sets them back as this
 * process found them (stop_signals_original(), async-signal-safe), and
 * both restore *old. */
void stop_signals_block(sigset_t *old);
void stop_signals_original(void);

/* "stopped by signal N; WHAT" into err: EXIT_SIGNAL, every stopped run's
 * status and line. */
int bench_stopped(char *err, size_t errlen, const char *what);

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
