/*
 * run.c — the harness proper, from the main thread: place the threads and
 * probe the machine, prepare the lock and the workload, start the workers
 * (worker.c) and let them meet at the gate (runctl.c), run warm-up then the
 * measured interval, stop them on the shared phase flag, join, merge their
 * records (merge.c), check the workload's invariant.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "checks.h"
#include "merge.h"
#include "run.h"
#include "runctl.h"
#include "watchdog.h"
#include "worker.h"
#include "../core/busywork.h"
#include "../kernel/kernel_locks.h"
#include "../platform/memory.h"
#include "../platform/placement.h"
#include "../platform/schedmode.h"
#include "../platform/syslimits.h"
#include "../platform/tsc.h"
#include "../workloads/fileutil.h"
#include "../workloads/workload.h"

/* After a stop signal, how long the threads get to leave their loops before
 * the run is abandoned with them still inside a lock that never lets go. */
#define SIGNAL_GRACE_S 1.0
/* After the watchdog fires: threads that are not stuck finish their current
 * operation, so the workload's files can be removed under nobody's feet. */
#define WATCHDOG_GRACE_S 0.5

/* The run whose threads were left running (run_abandon), if any. */
static struct bench_run *abandoned_run;

bool bench_run_abandoned(void)
{
	return abandoned_run != NULL;
}

static bool watchdog_fired(struct bench_run *run)
{
	return run->watching && watchdog_poll(&run->wd, threads_done(run));
}

static bool run_should_stop(struct bench_run *run)
{
	return bench_stop_signal() ||
	       __atomic_load_n(&run->phase, __ATOMIC_RELAXED) == PHASE_STOP ||
	       threads_done(run) == run->cfg->threads ||
	       watchdog_fired(run);
}

static void nap(double seconds)
{
	struct timespec ts = { .tv_sec = 0, .tv_nsec = (long)(seconds * 1e9) };

	nanosleep(&ts, NULL);
}

/* Sleeps `seconds` in short slices; returns early when the run must stop. */
static void run_wait(struct bench_run *run, double seconds)
{
	double end = mono_now_s() + seconds;

	while (!run_should_stop(run)) {
		double left = end - mono_now_s();

		if (left <= 0)
			return;
		nap(left < WAIT_SLICE_S ? left : WAIT_SLICE_S);
	}
}

/*
 * Waits for the workers to leave their loops (the phase is STOP); false when
 * some have not: the watchdog fired, or a stop signal's grace ran out.  Those
 * are inside a lock that does not let them go, and cannot be joined.
 */
static bool threads_leave(struct bench_run *run, unsigned int created)
{
	double signalled_s = 0;

	while (threads_done(run) < created) {
		if (watchdog_fired(run))
			return false;
		if (bench_stop_signal() && signalled_s == 0)
			signalled_s = mono_now_s();
		else if (bench_stop_signal() && mono_now_s() - signalled_s > SIGNAL_GRACE_S)
			return false;
		nap(WAIT_SLICE_S);
	}
	return true;
}

/* Gives threads that are not stuck `seconds` to finish their operation. */
static void threads_grace(struct bench_run *run, unsigned int created, double seconds)
{
	double end = mono_now_s() + seconds;

	while (threads_done(run) < created && mono_now_s() < end)
		nap(WAIT_SLICE_S);
}

/* Warm-up, then the measured interval; returns its length in seconds.  The
 * kernel lock capture (--kernel-locks) records exactly this interval: the
 * waits that begin between the phase's CAS and its STOP store. */
static double run_timed(struct bench_run *run, double tsc_hz, struct machine_noise *noise)
{
	double t0, t1;

	run_wait(run, run->cfg->warmup_s);
	machine_noise_begin(noise);  /* what else the machine does meanwhile (meta.csv noise_*) */
	t0 = mono_now_s();
	klock_start(tsc_hz);
	if (!run_should_stop(run)) {
		int warmup = PHASE_WARMUP;

		/* A CAS, not a store: a failing thread may set STOP meanwhile, and
		 * that must not be overwritten.  Relaxed: the flag orders nothing. */
		__atomic_compare_exchange_n(&run->phase, &warmup, PHASE_MEASURE, false,
					    __ATOMIC_RELAXED, __ATOMIC_RELAXED);
		bench_test_point("measure", 0);
	}
	run_wait(run, run->cfg->duration_s);
	t1 = mono_now_s();
	klock_stop();
	__atomic_store_n(&run->phase, PHASE_STOP, __ATOMIC_RELAXED);
	machine_noise_end(noise);
	return t1 - t0;
}

static int first_thread_error(struct bench_thread **threads, unsigned int n, char *err, size_t errlen)
{
	for (unsigned int i = 0; i < n; i++)
		if (threads[i] && threads[i]->err) {
			snprintf(err, errlen, "%s", threads[i]->errmsg);
			return EXIT_RUNTIME;
		}
	snprintf(err, errlen, "a worker thread failed");
	return EXIT_RUNTIME;
}

/* Detached, so that threads that did finish are not reported as leaked
 * (ThreadSanitizer), and nobody waits for the rest; nothing they use is
 * freed, and the caller ends the process with _exit() (run.h). */
static void threads_leave_running(struct bench_run *run, struct bench_thread **threads,
				  unsigned int created)
{
	for (unsigned int i = 0; i < created; i++)
		pthread_detach(threads[i]->tid);
	run->abandoned = true;
	abandoned_run = run;
}

static int stopped_by_signal(char *err, size_t errlen)
{
	return bench_stopped(err, errlen, "nothing written");
}

/*
 * A stop signal, and every worker has left its loop (or never entered it):
 * not joined one by one — at 20,000 threads that took 3 s here, most of the
 * time from the signal to the exit — but left for the process's exit to
 * end.  Each has done with the lock and the workload (threads_done counts
 * it after its teardown), or waits at the closed gate, having done its setup.
 */
static int run_stop_now(struct bench_run *run, struct bench_thread **threads, unsigned int created,
			char *err, size_t errlen)
{
	threads_leave_running(run, threads, created);
	return stopped_by_signal(err, errlen);
}

/*
 * Some threads never left their loops: say why, give the others a moment to
 * finish, and leave the stuck ones running — joining them would hang, and
 * freeing what they use would crash them.  The process exits next.
 */
static int run_abandon(struct bench_run *run, struct bench_thread **threads, unsigned int created,
		       double tsc_hz, char *err, size_t errlen)
{
	const struct bench_config *cfg = run->cfg;
	int status = EXIT_SIGNAL;

	__atomic_store_n(&run->phase, PHASE_STOP, __ATOMIC_RELAXED);
	if (run->wd.fired_s > 0) {
		watchdog_report(&run->wd, cfg, run->lock, tsc_hz, stderr, err, errlen);
		threads_grace(run, created, WATCHDOG_GRACE_S);
		status = EXIT_WATCHDOG;
	} else {
		unsigned int inside = created - threads_done(run);

		/* The last ones left between the grace's end and here. */
		if (inside == 0)
			return run_stop_now(run, threads, created, err, errlen);
		snprintf(err, errlen, "stopped by signal %d; %u of %u threads did not leave lock %s "
			 "within %.0f s; nothing written", bench_stop_signal(), inside, created,
			 cfg->lock->name, SIGNAL_GRACE_S);
	}
	threads_leave_running(run, threads, created);
	return status;
}

static void threads_join(struct bench_thread **threads, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		pthread_join(threads[i]->tid, NULL);
}

/*
 * Starts the workers and waits for them at the closed gate, then starts the
 * watchdog: EXIT_OK, or why the run cannot go on — a worker that could not
 * be placed, created or set up, or a stop signal.  *created says how many
 * workers run.
 */
static int run_start(struct bench_run *run, struct bench_thread **threads, unsigned int *created,
		     char *err, size_t errlen)
{
	const struct bench_config *cfg = run->cfg;
	enum start_status st = threads_start(run, threads, created, err, errlen);
	bool all_ready = st == START_OK && gate_await_ready(run, *created);

	if (st == START_FAILED)
		return EXIT_RUNTIME;
	if (__atomic_load_n(&run->failed, __ATOMIC_RELAXED))
		return first_thread_error(threads, *created, err, errlen);
	if (!all_ready)
		return stopped_by_signal(err, errlen);
	if (watchdog_start(&run->wd, watchdog_limit(cfg), threads, *created) != 0) {
		snprintf(err, errlen, "out of memory for the watchdog");
		return EXIT_RUNTIME;
	}
	run->watching = true;
	return EXIT_OK;
}

/* Runs the threads over an initialised lock and workload. */
static int run_threads(struct bench_run *run, struct bench_result *res, char *err, size_t errlen)
{
	const struct bench_config *cfg = run->cfg;
	struct bench_thread **threads = calloc(cfg->threads, sizeof(*threads));
	unsigned int created;
	int status;

	if (!threads) {
		snprintf(err, errlen, "out of memory for %u threads", cfg->threads);
		return EXIT_RUNTIME;
	}
	status = run_start(run, threads, &created, err, errlen);
	if (status == EXIT_SIGNAL && created > 0) {
		/* Their setup done, they hold nothing the cleanup removes. */
		gate_await(run, created, false, SIGNAL_GRACE_S);
		return run_stop_now(run, threads, created, err, errlen);
	}
	if (status != EXIT_OK) {
		/* None of them has touched the lock: each leaves at the gate, and
		 * all are joined — the gate never waits for one that will not come. */
		gate_set(run, -1);
		threads_join(threads, created);
		res->threads = threads;
		return status;
	}
	gate_set(run, 1);
	if (cfg->sched != SCHED_MODE_OTHER)
		gate_sched_release(run, created);
	bench_test_point("warmup", 0);
	res->measured_s = run_timed(run, res->tsc_hz, &res->machine.noise);
	bench_test_point("join", 0);
	if (!threads_leave(run, created))
		return run_abandon(run, threads, created, res->tsc_hz, err, errlen);
	if (bench_stop_signal())
		return run_stop_now(run, threads, created, err, errlen);
	threads_join(threads, created);
	res->threads = threads;
	if (run->failed)
		return first_thread_error(threads, cfg->threads, err, errlen);
	merge_results(res);
	if (!cfg->workload->verify)
		return EXIT_OK;
	if (cfg->workload->verify(run->wl_shared, res->ops_all, res->invariant_msg,
				  sizeof(res->invariant_msg)) != 0) {
		res->invariant = INVARIANT_FAILED;
		snprintf(err, errlen, "%s", res->invariant_msg);
		return EXIT_INVARIANT;
	}
	res->invariant = INVARIANT_OK;
	return EXIT_OK;
}

/* The lock's own settings, settled before any thread starts (kmutex:
 * its oracle, loading the BPF program it needs); a note it makes (a
 * fallback) is one stderr line, an error fails the run. */
static int run_lock_prepare(const struct bench_config *cfg, struct lock_params *params, char *err, size_t errlen)
{
	char msg[512] = "";
	int rc;

	if (!cfg->lock->prepare)
		return EXIT_OK;
	rc = cfg->lock->prepare(&params->settings, cfg->threads, msg, sizeof(msg));
	if (rc < 0) {
		snprintf(err, errlen, "lock %s: %s", cfg->lock->name, msg);
		return EXIT_RUNTIME;
	}
	if (rc > 0)
		fprintf(stderr, "lockbench: %s\n", msg);
	return EXIT_OK;
}

static int run_prepare(struct bench_run *run, struct bench_result *res, char *err, size_t errlen)
{
	const struct bench_config *cfg = run->cfg;
	const struct workload_ops *wl = cfg->workload;
	struct lock_params *params = &res->lock_params;
	int rc;

	*params = cfg->lock_params;
	params->threads = cfg->threads;
	rc = run_lock_prepare(cfg, params, err, errlen);
	if (rc != EXIT_OK)
		return rc;
	run->lock = mem_alloc_node(cfg->lock->size, run->lock_node);
	run->wl_shared = mem_alloc_node(wl->shared_size, run->lock_node);
	if (!run->lock || !run->wl_shared) {
		snprintf(err, errlen, "out of memory for the lock and shared data");
		return EXIT_RUNTIME;
	}
	rc = cfg->lock->init(run->lock, params);
	if (rc) {
		snprintf(err, errlen, "lock %s: init failed: %s", cfg->lock->name, strerror(-rc));
		return EXIT_RUNTIME;
	}
	rc = wl->setup ? wl->setup(run->wl_shared, cfg, err, errlen) : WL_SETUP_OK;
	if (rc != WL_SETUP_OK) {
		cfg->lock->destroy(run->lock);
		return rc == WL_SETUP_USAGE ? EXIT_USAGE : EXIT_RUNTIME;
	}
	return EXIT_OK;
}

static void run_cleanup(struct bench_run *run)
{
	const struct bench_config *cfg = run->cfg;

	if (cfg->workload->teardown)
		cfg->workload->teardown(run->wl_shared, cfg);
	if (!run->abandoned)
		cfg->lock->destroy(run->lock);
}

/*
 * --sched fifo with two workers pinned to one CPU: a waiter woken there
 * behind a worker that never blocks would never run, and a FIFO wait list
 * would stall behind it (measured: docs/kmutex.md, "--sched fifo").  Unpinned,
 * the kernel moves a runnable real-time thread to a CPU that can run it.
 */
static int sched_fits_placement(const struct bench_config *cfg, const int *cpu_of_thread, char *err,
				size_t errlen)
{
	if (cfg->sched != SCHED_MODE_FIFO)
		return 0;
	for (unsigned int i = 0; i < cfg->threads; i++)
		for (unsigned int j = 0; j < i; j++)
			if (cpu_of_thread[i] >= 0 && cpu_of_thread[i] == cpu_of_thread[j]) {
				snprintf(err, errlen, "--sched fifo: threads %u and %u are pinned to CPU %d: under "
					 "SCHED_FIFO one would never run while the other does not block (use --pin none)",
					 j, i, cpu_of_thread[i]);
				return -1;
			}
	return 0;
}

/*
 * Before anything lands on a node: where the threads go (and the policy's
 * order, for meta.csv), the node of the lock and shared data, and the
 * machine probe (identity, TSC calibration, cross-CPU TSC check over the
 * run's CPUs), once per run and before any worker starts.
 */
static int run_place(const struct bench_config *cfg, struct bench_result *res, int **cpu_of_thread,
		     char *err, size_t errlen)
{
	*cpu_of_thread = calloc(cfg->threads, sizeof(**cpu_of_thread));
	if (!*cpu_of_thread) {
		snprintf(err, errlen, "out of memory for %u threads", cfg->threads);
		return EXIT_RUNTIME;
	}
	if (placement_plan(cfg->pin, cfg->threads, *cpu_of_thread, err, errlen) != 0 ||
	    sched_fits_placement(cfg, *cpu_of_thread, err, errlen) != 0)
		return EXIT_USAGE;
	res->pin_order_n = placement_order(cfg->pin, &res->pin_order, err, errlen);
	if (res->pin_order_n < 0) {
		res->pin_order_n = 0;
		return EXIT_USAGE;
	}
	res->lock_node = mem_resolve_node(cfg->lock_node, (*cpu_of_thread)[0], err, errlen);
	if (res->lock_node < -1)
		return EXIT_USAGE;
	bench_test_point("probe", 0);
	machine_probe(&res->machine, *cpu_of_thread, cfg->threads);
	res->tsc_hz = res->machine.tsc_hz;
	if (cfg->workload->takes_dir) {
		const char *which;

		fsinfo_probe(&res->machine.workload_dir, wdir_parent(cfg, &which));
	}
	return EXIT_OK;
}

/* --kernel-locks: loaded before anything else of the run, so that where the
 * capture cannot run the run ends at once, on one line and before any other
 * (the oracle's fallback, the probe's warnings). */
static int run_kernel_open(const struct bench_config *cfg, char *err, size_t errlen)
{
	char why[400];

	if (!cfg->kernel_locks || klock_open(cfg->threads, why, sizeof(why)) == 0)
		return EXIT_OK;
	snprintf(err, errlen, "--kernel-locks: %s", why);
	return EXIT_USAGE;
}

/* After the join: what the capture recorded.  It is unloaded either way. */
static int run_kernel_collect(const struct bench_config *cfg, struct bench_result *res, int status,
			      char *err, size_t errlen)
{
	if (cfg->kernel_locks && status == EXIT_OK && klock_collect(&res->kernel, err, errlen) != 0)
		status = EXIT_RUNTIME;
	klock_close();
	return status;
}

/*
 * What comes before the lock and workload: the kernel lock capture loaded,
 * the limits checked, the threads placed, the machine probed, the run's
 * record made (*runp; NULL unless EXIT_OK).  A stop signal that came
 * meanwhile ends it here.
 */
static int run_new(const struct bench_config *cfg, struct bench_result *res, struct bench_run **runp,
		   char *err, size_t errlen)
{
	struct bench_run *run = NULL;
	int *cpu_of_thread = NULL;
	int status;

	*runp = NULL;
	if (run_kernel_open(cfg, err, errlen) != EXIT_OK)
		return EXIT_USAGE;
	/* A limit the run would exceed is the command line's to change. */
	if (limits_check_start(&(struct limits_need){ cfg->threads, cfg->workload->name,
						      cfg->workload->fds_shared, cfg->workload->fds_per_thread },
			       err, errlen) != 0)
		return EXIT_USAGE;
	if (sched_mode_check(cfg->sched, err, errlen) != 0)
		return EXIT_USAGE;
	status = run_place(cfg, res, &cpu_of_thread, err, errlen);
	if (status == EXIT_OK && bench_stop_signal())
		status = stopped_by_signal(err, errlen);
	if (status == EXIT_OK)
		run = mem_alloc_node(sizeof(*run), res->lock_node);
	if (!run) {
		free(cpu_of_thread);
		if (status == EXIT_OK)
			snprintf(err, errlen, "out of memory");
		return status == EXIT_OK ? EXIT_RUNTIME : status;
	}
	run->cfg = cfg;
	run->cpu_of_thread = cpu_of_thread;
	run->lock_node = res->lock_node;
	gate_init(run);
	*runp = run;
	return EXIT_OK;
}

int bench_run(const struct bench_config *cfg, struct bench_result *res, char *err, size_t errlen)
{
	struct bench_run *run;
	struct sigaction old_int, old_term;
	int status;

	memset(res, 0, sizeof(*res));
	res->cfg = cfg;
	/* From the start: the probe and the limits' reading answer a stop too. */
	stop_signals_catch(&old_int, &old_term);
	status = run_new(cfg, res, &run, err, errlen);
	if (!run) {
		klock_close();
		sigaction(SIGINT, &old_int, NULL);
		sigaction(SIGTERM, &old_term, NULL);
		return status;
	}
	busy_calibrate();
	res->timer_overhead = tsc_timer_overhead();
	status = run_prepare(run, res, err, errlen);
	if (status == EXIT_OK) {
		status = run_threads(run, res, err, errlen);
		run_cleanup(run);
	}
	status = run_kernel_collect(cfg, res, status, err, errlen);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	if (status == EXIT_OK && cfg->workload->figures)
		cfg->workload->figures(res, &res->extra);
	/* After an invariant failure too: the figures are merged, and the
	 * checks are where the failure shows beside everything else. */
	if (status == EXIT_OK || status == EXIT_INVARIANT)
		checks_evaluate(res);
	free((void *)run->cpu_of_thread);
	if (run->abandoned)
		return status;
	watchdog_free(&run->wd);
	gate_destroy(run);
	mem_free(run->wl_shared, cfg->workload->shared_size);
	mem_free(run->lock, cfg->lock->size);
	mem_free(run, sizeof(*run));
	return status;
}

void bench_result_free(struct bench_result *res)
{
	free(res->pin_order);
	res->pin_order = NULL;
	res->pin_order_n = 0;
	if (!res->threads)
		return;
	for (unsigned int i = 0; i < res->cfg->threads; i++)
		thread_free(res->cfg, res->threads[i]);
	free((void *)res->threads);
	res->threads = NULL;
}
