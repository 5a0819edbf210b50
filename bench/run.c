/*
 * run.c — the harness proper: place and start the threads, let them meet at a
 * gate, run warm-up then the measured interval, stop them on a shared flag,
 * join, merge the per-thread records, check the workload's invariant.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "memory.h"
#include "placement.h"
#include "run.h"
#include "tsc.h"
#include "watchdog.h"
#include "workload.h"

#define THREAD_STACK_BYTES (1u << 20)
#define WAIT_SLICE_S 0.01
/* After a stop signal, how long the threads get to leave their loops before
 * the run is abandoned with them still inside a lock that never lets go. */
#define SIGNAL_GRACE_S 1.0
/* After the watchdog fires: threads that are not stuck finish their current
 * operation, so the workload's files can be removed under nobody's feet. */
#define WATCHDOG_GRACE_S 0.5

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
	pthread_cond_t gate_cond;
	unsigned int gate_ready;        /* threads waiting at the gate */
	int gate_state;                 /* 0 closed, 1 open, -1 aborted */
	/* The main thread's alone. */
	struct watchdog wd;
	bool watching;                  /* wd started */
	bool abandoned;                 /* threads left running: nothing they use is freed */
} __attribute__((aligned(CACHELINE_PAIR)));

/* The run whose threads were left running (run_abandon), if any. */
static struct bench_run *abandoned_run;

bool bench_run_abandoned(void)
{
	return abandoned_run != NULL;
}

static volatile sig_atomic_t stop_signal;

static void on_stop_signal(int sig)
{
	stop_signal = sig;
}

void bench_catch_stop_signals(void)
{
	struct sigaction sa = { .sa_handler = on_stop_signal };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

int bench_fail(struct bench_thread *t, int err, const char *fmt, ...)
{
	va_list ap;

	t->err = err ? err : EIO;
	va_start(ap, fmt);
	vsnprintf(t->errmsg, sizeof(t->errmsg), fmt, ap);
	va_end(ap);
	return -1;
}

void figure_add(struct figures *out, const char *key, const char *label, const char *fmt, ...)
{
	struct figure *f;
	va_list ap;

	if (out->n >= FIGURES_MAX)
		return;
	f = &out->f[out->n++];
	snprintf(f->key, sizeof(f->key), "%s", key);
	snprintf(f->label, sizeof(f->label), "%s", label);
	va_start(ap, fmt);
	vsnprintf(f->value, sizeof(f->value), fmt, ap);
	va_end(ap);
}

/* ---- the worker thread ---- */

static void usage_now(struct thread_usage *u)
{
	struct rusage ru;

	if (getrusage(RUSAGE_THREAD, &ru) != 0) {
		memset(u, 0, sizeof(*u));
		return;
	}
	u->user_s = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6;
	u->sys_s = (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6;
	u->vol_csw = (uint64_t)ru.ru_nvcsw;
	u->invol_csw = (uint64_t)ru.ru_nivcsw;
}

/* Starts the measured interval for this thread: warm-up figures are dropped. */
static void thread_measure_start(struct bench_thread *t)
{
	hist_reset(&t->acq);
	memset(&t->lt->ev, 0, sizeof(t->lt->ev));
	t->ops = 0;
	usage_now(&t->usage);
}

static void thread_measure_end(struct bench_thread *t)
{
	struct thread_usage end;

	usage_now(&end);
	t->usage.user_s = end.user_s - t->usage.user_s;
	t->usage.sys_s = end.sys_s - t->usage.sys_s;
	t->usage.vol_csw = end.vol_csw - t->usage.vol_csw;
	t->usage.invol_csw = end.invol_csw - t->usage.invol_csw;
}

/* Waits until the main thread opens the gate; false if it aborted the run. */
static bool gate_wait(struct bench_run *run)
{
	int state;

	pthread_mutex_lock(&run->gate_mutex);
	run->gate_ready++;
	pthread_cond_broadcast(&run->gate_cond);
	while (run->gate_state == 0)
		pthread_cond_wait(&run->gate_cond, &run->gate_mutex);
	state = run->gate_state;
	pthread_mutex_unlock(&run->gate_mutex);
	return state > 0;
}

static void thread_loop(struct bench_thread *t)
{
	struct bench_run *run = t->run;
	const struct workload_ops *wl = t->cfg->workload;
	uint64_t max_ops = t->cfg->max_ops;
	bool measuring = false;

	for (;;) {
		/* Relaxed: the flag orders nothing; results travel through join. */
		int phase = __atomic_load_n(&run->phase, __ATOMIC_RELAXED);

		if (phase == PHASE_STOP || (max_ops && t->ops_all >= max_ops))
			break;
		if (phase == PHASE_MEASURE && !measuring) {
			measuring = true;
			thread_measure_start(t);
		}
		if (wl->op(t) != 0) {
			__atomic_store_n(&run->failed, 1, __ATOMIC_RELAXED);
			__atomic_store_n(&run->phase, PHASE_STOP, __ATOMIC_RELAXED);
			break;
		}
		t->ops++;
		t->ops_all++;
		busy_loops(t->think_loops);
	}
	if (!measuring)
		thread_measure_start(t);
	thread_measure_end(t);
}

static void *thread_main(void *arg)
{
	struct bench_thread *t = arg;
	const struct workload_ops *wl = t->cfg->workload;
	bool ready = true;

	if (t->lock_ops->thread_init)
		t->lock_ops->thread_init(t->lock, t->lt);
	if (wl->thread_setup && wl->thread_setup(t) != 0)
		ready = false;
	if (gate_wait(t->run) && ready)
		thread_loop(t);
	else if (!ready) {
		/* Stop the others now rather than after the whole duration. */
		__atomic_store_n(&t->run->failed, 1, __ATOMIC_RELAXED);
		__atomic_store_n(&t->run->phase, PHASE_STOP, __ATOMIC_RELAXED);
	}
	if (ready && wl->thread_teardown)
		wl->thread_teardown(t);
	__atomic_fetch_add(&t->run->threads_done, 1, __ATOMIC_RELAXED);
	return NULL;
}

/* ---- the main thread ---- */

static unsigned int threads_done(struct bench_run *run)
{
	return __atomic_load_n(&run->threads_done, __ATOMIC_RELAXED);
}

static bool watchdog_fired(struct bench_run *run)
{
	return run->watching && watchdog_poll(&run->wd, threads_done(run));
}

static bool run_should_stop(struct bench_run *run)
{
	return stop_signal ||
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
		if (stop_signal && signalled_s == 0)
			signalled_s = mono_now_s();
		else if (stop_signal && mono_now_s() - signalled_s > SIGNAL_GRACE_S)
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

static void gate_set(struct bench_run *run, int state)
{
	pthread_mutex_lock(&run->gate_mutex);
	run->gate_state = state;
	pthread_cond_broadcast(&run->gate_cond);
	pthread_mutex_unlock(&run->gate_mutex);
}

static void gate_await_ready(struct bench_run *run, unsigned int created)
{
	pthread_mutex_lock(&run->gate_mutex);
	while (run->gate_ready < created)
		pthread_cond_wait(&run->gate_cond, &run->gate_mutex);
	pthread_mutex_unlock(&run->gate_mutex);
}

static struct bench_thread *thread_alloc(const struct bench_config *cfg, struct bench_run *run,
					 unsigned int id, int cpu)
{
	struct bench_thread *t = mem_alloc_near_cpu(sizeof(*t), cpu);

	if (!t)
		return NULL;
	t->lt = mem_alloc_near_cpu(LOCK_THREAD_SIZE(cfg->lock), cpu);
	t->wl = cfg->workload->thread_size ? mem_alloc_near_cpu(cfg->workload->thread_size, cpu) : NULL;
	if (!t->lt || (cfg->workload->thread_size && !t->wl)) {
		mem_free(t->lt, LOCK_THREAD_SIZE(cfg->lock));
		mem_free(t, sizeof(*t));
		return NULL;
	}
	t->lt->id = id;
	t->lock_ops = cfg->lock;
	t->lock = run->lock;
	t->wl_shared = run->wl_shared;
	t->cfg = cfg;
	t->run = run;
	t->id = id;
	t->cpu = cpu;
	t->cs_loops = busy_loops_for(cfg->cs_cycles);
	t->think_loops = busy_loops_for(cfg->think_cycles);
	hist_reset(&t->acq);
	return t;
}

static void thread_free(const struct bench_config *cfg, struct bench_thread *t)
{
	if (!t)
		return;
	mem_free(t->wl, cfg->workload->thread_size);
	mem_free(t->lt, LOCK_THREAD_SIZE(cfg->lock));
	mem_free(t, sizeof(*t));
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

static void merge_events(struct lock_events *dst, const struct lock_events *src)
{
	dst->acq_fast += src->acq_fast;
	dst->acq_spin += src->acq_spin;
	dst->acq_sleep += src->acq_sleep;
	for (int r = 0; r < SPIN_EXIT_NR; r++)
		dst->spin_exit[r] += src->spin_exit[r];
	dst->spin_cycles += src->spin_cycles;
	dst->futex_waits += src->futex_waits;
	dst->futex_wakes += src->futex_wakes;
	dst->handoffs += src->handoffs;
}

static void merge_results(struct bench_result *res)
{
	unsigned int n = res->cfg->threads;
	double mean, var = 0;

	hist_reset(&res->acq);
	res->ops_min = UINT64_MAX;
	for (unsigned int i = 0; i < n; i++) {
		const struct bench_thread *t = res->threads[i];

		hist_merge(&res->acq, &t->acq);
		merge_events(&res->ev, &t->lt->ev);
		res->ops += t->ops;
		res->ops_all += t->ops_all;
		res->ops_min = t->ops < res->ops_min ? t->ops : res->ops_min;
		res->ops_max = t->ops > res->ops_max ? t->ops : res->ops_max;
		res->usage.user_s += t->usage.user_s;
		res->usage.sys_s += t->usage.sys_s;
		res->usage.vol_csw += t->usage.vol_csw;
		res->usage.invol_csw += t->usage.invol_csw;
	}
	mean = (double)res->ops / n;
	for (unsigned int i = 0; i < n; i++) {
		double d = (double)res->threads[i]->ops - mean;

		var += d * d;
	}
	res->ops_cv = mean > 0 ? sqrt(var / n) / mean : 0;
	res->ops_per_s = res->measured_s > 0 ? (double)res->ops / res->measured_s : 0;
}

/* Creates the workers; returns how many were created (all, unless err is set). */
static unsigned int threads_start(struct bench_run *run, struct bench_thread **threads,
				  const int *cpu_of_thread, char *err, size_t errlen)
{
	const struct bench_config *cfg = run->cfg;
	pthread_attr_t attr;
	unsigned int i;
	int rc = pthread_attr_init(&attr);

	if (!rc)
		rc = pthread_attr_setstacksize(&attr, THREAD_STACK_BYTES);
	for (i = 0; !rc && i < cfg->threads; i++) {
		threads[i] = thread_alloc(cfg, run, i, cpu_of_thread[i]);
		if (!threads[i]) {
			rc = ENOMEM;
			break;
		}
		if (cpu_of_thread[i] >= 0) {
			cpu_set_t set;

			CPU_ZERO(&set);
			CPU_SET(cpu_of_thread[i], &set);
			rc = pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
		}
		if (!rc)
			rc = pthread_create(&threads[i]->tid, &attr, thread_main, threads[i]);
		if (rc) {
			thread_free(cfg, threads[i]);
			threads[i] = NULL;
		}
	}
	pthread_attr_destroy(&attr);
	if (rc)
		snprintf(err, errlen, "cannot start thread %u of %u: %s", i + 1, cfg->threads, strerror(rc));
	return rc ? i : cfg->threads;
}

/* Warm-up, then the measured interval; returns its length in seconds. */
static double run_timed(struct bench_run *run)
{
	double t0, t1;

	run_wait(run, run->cfg->warmup_s);
	t0 = mono_now_s();
	if (!run_should_stop(run)) {
		int warmup = PHASE_WARMUP;

		/* A CAS, not a store: a failing thread may set STOP meanwhile, and
		 * that must not be overwritten.  Relaxed: the flag orders nothing. */
		__atomic_compare_exchange_n(&run->phase, &warmup, PHASE_MEASURE, false,
					    __ATOMIC_RELAXED, __ATOMIC_RELAXED);
	}
	run_wait(run, run->cfg->duration_s);
	t1 = mono_now_s();
	__atomic_store_n(&run->phase, PHASE_STOP, __ATOMIC_RELAXED);
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
		snprintf(err, errlen, "stopped by signal %d; %u of %u threads did not leave lock %s "
			 "within %.0f s; nothing written", (int)stop_signal, created - threads_done(run),
			 created, cfg->lock->name, SIGNAL_GRACE_S);
	}
	/* Detached, so that the threads that did finish are not reported as
	 * leaked (ThreadSanitizer), and nobody waits for the rest. */
	for (unsigned int i = 0; i < created; i++)
		pthread_detach(threads[i]->tid);
	run->abandoned = true;
	abandoned_run = run;
	return status;
}

/* Runs the threads over an initialised lock and workload. */
static int run_threads(struct bench_run *run, struct bench_result *res, char *err, size_t errlen)
{
	const struct bench_config *cfg = run->cfg;
	struct bench_thread **threads = calloc(cfg->threads, sizeof(*threads));
	const int *cpu_of_thread = run->cpu_of_thread;
	int status = EXIT_OK;
	unsigned int created;
	sigset_t block, old;

	if (!threads) {
		snprintf(err, errlen, "out of memory for %u threads", cfg->threads);
		return EXIT_RUNTIME;
	}
	/* Workers inherit a mask without SIGINT/SIGTERM: only this thread sees them. */
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &block, &old);
	created = threads_start(run, threads, cpu_of_thread, err, errlen);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	gate_await_ready(run, created);
	if (created < cfg->threads) {
		gate_set(run, -1);
		status = EXIT_RUNTIME;
	} else if (watchdog_start(&run->wd, watchdog_limit(cfg), threads, created) != 0) {
		gate_set(run, -1);
		snprintf(err, errlen, "out of memory for the watchdog");
		status = EXIT_RUNTIME;
	} else {
		run->watching = true;
		gate_set(run, 1);
		res->measured_s = run_timed(run);
	}
	if (!threads_leave(run, created))
		return run_abandon(run, threads, created, res->tsc_hz, err, errlen);
	for (unsigned int i = 0; i < created; i++)
		pthread_join(threads[i]->tid, NULL);
	res->threads = threads;
	if (status != EXIT_OK)
		return status;
	if (stop_signal) {
		snprintf(err, errlen, "stopped by signal %d; nothing written", (int)stop_signal);
		return EXIT_SIGNAL;
	}
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

static int run_prepare(struct bench_run *run, char *err, size_t errlen)
{
	const struct bench_config *cfg = run->cfg;
	const struct workload_ops *wl = cfg->workload;
	int rc;

	run->lock = mem_alloc_node(cfg->lock->size, run->lock_node);
	run->wl_shared = mem_alloc_node(wl->shared_size, run->lock_node);
	if (!run->lock || !run->wl_shared) {
		snprintf(err, errlen, "out of memory for the lock and shared data");
		return EXIT_RUNTIME;
	}
	rc = cfg->lock->init(run->lock, &cfg->lock_params);
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
	if (placement_plan(cfg->pin, cfg->threads, *cpu_of_thread, err, errlen) != 0)
		return EXIT_USAGE;
	res->pin_order_n = placement_order(cfg->pin, &res->pin_order, err, errlen);
	if (res->pin_order_n < 0) {
		res->pin_order_n = 0;
		return EXIT_USAGE;
	}
	res->lock_node = mem_resolve_node(cfg->lock_node, (*cpu_of_thread)[0], err, errlen);
	if (res->lock_node < -1)
		return EXIT_USAGE;
	machine_probe(&res->machine, *cpu_of_thread, cfg->threads);
	res->tsc_hz = res->machine.tsc_hz;
	return EXIT_OK;
}

int bench_run(const struct bench_config *cfg, struct bench_result *res, char *err, size_t errlen)
{
	struct bench_run *run = NULL;
	struct sigaction sa = { .sa_handler = on_stop_signal }, old_int, old_term;
	int *cpu_of_thread = NULL;
	int status;

	memset(res, 0, sizeof(*res));
	res->cfg = cfg;
	status = run_place(cfg, res, &cpu_of_thread, err, errlen);
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
	pthread_mutex_init(&run->gate_mutex, NULL);
	pthread_cond_init(&run->gate_cond, NULL);
	busy_calibrate();
	res->timer_overhead = tsc_timer_overhead();
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	status = run_prepare(run, err, errlen);
	if (status == EXIT_OK) {
		status = run_threads(run, res, err, errlen);
		run_cleanup(run);
	}
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	if (status == EXIT_OK && cfg->workload->figures)
		cfg->workload->figures(res, &res->extra);
	/* After an invariant failure too: the figures are merged, and the
	 * checks are where the failure shows beside everything else. */
	if (status == EXIT_OK || status == EXIT_INVARIANT)
		checks_evaluate(res);
	free(cpu_of_thread);
	if (run->abandoned)
		return status;
	watchdog_free(&run->wd);
	pthread_cond_destroy(&run->gate_cond);
	pthread_mutex_destroy(&run->gate_mutex);
	mem_free(run->wl_shared, cfg->workload->shared_size);
	mem_free(run->lock, cfg->lock->size);
	mem_free(run, sizeof(*run));
	return status;
}
