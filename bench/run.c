/*
 * run.c — the harness proper: place and start the threads, let them meet at a
 * gate, run warm-up then the measured interval, stop them on a shared flag,
 * join, merge the per-thread records, check the workload's invariant.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "kernel_locks.h"
#include "memory.h"
#include "placement.h"
#include "run.h"
#include "syslimits.h"
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
	pthread_cond_t gate_cond;       /* the workers wait here for the gate */
	pthread_cond_t ready_cond;      /* the main thread waits here for the workers */
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

int bench_stop_signal(void)
{
	return stop_signal;
}

int (*bench_test_hook)(const char *phase, unsigned int n);

int bench_test_point(const char *phase, unsigned int n)
{
	return bench_test_hook ? bench_test_hook(phase, n) : 0;
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
	hist_reset(&t->acq_contended);
	memset(&t->lt->ev, 0, sizeof(t->lt->ev));
	t->untimed = t->untimed_contended = 0;
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
	/* Only the main thread waits on ready_cond: waking every worker at each
	 * arrival made starting 20,000 threads quadratic. */
	pthread_cond_signal(&run->ready_cond);
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

	/* Here rather than at allocation: only a running loop has a phase to
	 * stop on; a test calling op() directly has none. */
	t->phase = &run->phase;
	for (;;) {
		/* Relaxed: the flag orders nothing; results travel through join. */
		int phase = __atomic_load_n(&run->phase, __ATOMIC_RELAXED);
		int status;

		if (phase == PHASE_STOP || (max_ops && t->ops_all >= max_ops))
			break;
		if (phase == PHASE_MEASURE && !measuring) {
			measuring = true;
			thread_measure_start(t);
		}
		status = wl->op(t);
		if (status == WL_OP_ABANDONED) {
			/* Only after the stop, so it is this thread's last op. */
			t->ops_abandoned++;
			break;
		}
		if (status != WL_OP_DONE) {
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

/* The lock's and the workload's per-thread setup; false (the run failed,
 * the reason in t->errmsg) if the workload's failed. */
static bool thread_prepare(struct bench_thread *t)
{
	const struct workload_ops *wl = t->cfg->workload;
	int injected = bench_test_point("setup", t->id);

	if (t->lock_ops->thread_init)
		t->lock_ops->thread_init(t->lock, t->lt);
	if (injected)
		bench_fail(t, injected, "thread %u: setup: %s (test hook)", t->id, strerror(injected));
	if (injected || (wl->thread_setup && wl->thread_setup(t) != 0)) {
		/* Before this thread reaches the gate: the main thread, which
		 * waits for all of them there, sees it and never opens it. */
		__atomic_store_n(&t->run->failed, 1, __ATOMIC_RELAXED);
		__atomic_store_n(&t->run->phase, PHASE_STOP, __ATOMIC_RELAXED);
		return false;
	}
	return true;
}

static void *thread_main(void *arg)
{
	struct bench_thread *t = arg;
	const struct workload_ops *wl = t->cfg->workload;
	bool ready = thread_prepare(t);

	/* A thread whose setup failed still arrives: the gate counts it. */
	if (gate_wait(t->run) && ready)
		thread_loop(t);
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

/*
 * Waits for the `created` workers to reach the gate — every one that was
 * created arrives, its setup failed or not — in slices, until a stop signal
 * (when `stoppable`) or limit_s; true when all have arrived.
 */
static bool gate_await(struct bench_run *run, unsigned int created, bool stoppable, double limit_s)
{
	double end = mono_now_s() + limit_s;
	bool all;

	pthread_mutex_lock(&run->gate_mutex);
	while (run->gate_ready < created && !(stoppable && stop_signal) && mono_now_s() < end) {
		struct timespec until;

		clock_gettime(CLOCK_MONOTONIC, &until);
		until.tv_nsec += (long)(WAIT_SLICE_S * 1e9);
		if (until.tv_nsec >= 1000000000L) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000L;
		}
		pthread_cond_timedwait(&run->ready_cond, &run->gate_mutex, &until);
	}
	all = run->gate_ready >= created;
	pthread_mutex_unlock(&run->gate_mutex);
	return all;
}

/* All the workers at the gate, unless a stop signal came first. */
static bool gate_await_ready(struct bench_run *run, unsigned int created)
{
	return gate_await(run, created, true, INFINITY) && !stop_signal;
}

/* The condition variables time out on CLOCK_MONOTONIC: a wall-clock step
 * must not stretch a wait slice. */
static void gate_init(struct bench_run *run)
{
	pthread_condattr_t attr;

	pthread_mutex_init(&run->gate_mutex, NULL);
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&run->gate_cond, NULL);
	pthread_cond_init(&run->ready_cond, &attr);
	pthread_condattr_destroy(&attr);
}

static void gate_destroy(struct bench_run *run)
{
	pthread_cond_destroy(&run->ready_cond);
	pthread_cond_destroy(&run->gate_cond);
	pthread_mutex_destroy(&run->gate_mutex);
}

/* splitmix64 (Steele, Lea & Flood 2014), as fserver uses it: here the
 * timing sampler's own stream, so its gaps share nothing with a workload's. */
static uint64_t splitmix64(uint64_t *state)
{
	uint64_t z = (*state += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

/* Called once per timed acquisition under sample:N, outside the timed
 * interval; N >= 2 (cli.c), so the modulus is at least 3. */
uint64_t bench_timing_gap(struct bench_thread *t)
{
	return splitmix64(&t->timing_rng) % (2 * t->timing_mean - 1);
}

/* Under sample:N the first gap is drawn too, so threads do not all time
 * their first acquisition; under off the countdown starts where no run
 * reaches 0 (2^64 acquisitions). */
void bench_timing_init(struct bench_thread *t, const struct bench_config *cfg)
{
	t->timing_skip = 0;
	t->timing_mean = 0;
	if (cfg->timing == TIMING_OFF) {
		t->timing_skip = UINT64_MAX;
	} else if (cfg->timing == TIMING_SAMPLE) {
		t->timing_mean = cfg->timing_sample;
		/* 0x74696d696e67 is "timing": apart from fserver's seed ^ (id + 1) << 32. */
		t->timing_rng = cfg->seed ^ ((uint64_t)(t->id + 1) << 32) ^ UINT64_C(0x74696d696e67);
		t->timing_skip = bench_timing_gap(t);
	}
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
	t->lt->node = mem_node_of_cpu(cpu);
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
	hist_reset(&t->acq_contended);
	bench_timing_init(t, cfg);
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
	dst->acq_nosleep += src->acq_nosleep;
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
	hist_reset(&res->acq_contended);
	res->ops_min = UINT64_MAX;
	for (unsigned int i = 0; i < n; i++) {
		const struct bench_thread *t = res->threads[i];

		hist_merge(&res->acq, &t->acq);
		hist_merge(&res->acq_contended, &t->acq_contended);
		merge_events(&res->ev, &t->lt->ev);
		res->acquisitions += t->acq.count + t->untimed;
		res->contentions += t->acq.contended + t->untimed_contended;
		res->ops += t->ops;
		res->ops_all += t->ops_all;
		res->ops_abandoned += t->ops_abandoned;
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

/* Why threads_start() stopped short of cfg->threads. */
enum start_status { START_OK, START_FAILED, START_STOPPED };

/* Creates worker i, its signal mask without SIGINT/SIGTERM (only the main
 * thread takes them); 0 or an errno. */
static int thread_create(struct bench_thread *t, pthread_attr_t *attr)
{
	sigset_t block, old;
	int rc = bench_test_point("start", t->id);

	if (rc)
		return rc;
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	/* Blocked around the create alone, which copies the mask: between two
	 * creates a stop signal reaches this thread's handler at once. */
	pthread_sigmask(SIG_BLOCK, &block, &old);
	rc = pthread_create(&t->tid, attr, thread_main, t);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return rc;
}

static int thread_pin(pthread_attr_t *attr, int cpu)
{
	cpu_set_t set;

	if (cpu < 0)
		return 0;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return pthread_attr_setaffinity_np(attr, sizeof(set), &set);
}

static void start_failed(const struct bench_config *cfg, unsigned int i, int rc, char *err, size_t errlen)
{
	char limits[600];

	if (rc == EAGAIN || rc == ENOMEM) {
		limits_describe(limits, sizeof(limits));
		snprintf(err, errlen, "cannot start thread %u of %u: %s (%s)", i + 1, cfg->threads,
			 strerror(rc), limits);
	} else {
		snprintf(err, errlen, "cannot start thread %u of %u: %s", i + 1, cfg->threads, strerror(rc));
	}
}

static void no_memory(const struct bench_config *cfg, unsigned int i, int cpu, char *err, size_t errlen)
{
	int node = mem_node_of_cpu(cpu);

	if (node >= 0)
		snprintf(err, errlen, "cannot start thread %u of %u: no memory for its records on NUMA node %d "
			 "(CPU %d)", i + 1, cfg->threads, node, cpu);
	else
		snprintf(err, errlen, "cannot start thread %u of %u: no memory for its records", i + 1,
			 cfg->threads);
}

/*
 * Creates the workers, stopping at the first that cannot be placed or
 * created, or at a stop signal; *created says how many run (threads[0..n)
 * all non-NULL).  On START_FAILED err says why.
 */
static enum start_status threads_start(struct bench_run *run, struct bench_thread **threads,
				       unsigned int *created, char *err, size_t errlen)
{
	const struct bench_config *cfg = run->cfg;
	pthread_attr_t attr;
	unsigned int i;
	int rc = pthread_attr_init(&attr);

	*created = 0;
	if (!rc)
		rc = pthread_attr_setstacksize(&attr, THREAD_STACK_BYTES);
	for (i = 0; !rc && i < cfg->threads && !stop_signal; i++) {
		int cpu = run->cpu_of_thread[i];

		rc = bench_test_point("place", i);
		threads[i] = rc ? NULL : thread_alloc(cfg, run, i, cpu);
		if (!threads[i]) {
			no_memory(cfg, i, cpu, err, errlen);
			pthread_attr_destroy(&attr);
			return START_FAILED;
		}
		rc = thread_pin(&attr, cpu);
		if (!rc)
			rc = thread_create(threads[i], &attr);
		if (rc) {
			thread_free(cfg, threads[i]);
			threads[i] = NULL;
			break;
		}
		*created = i + 1;
	}
	pthread_attr_destroy(&attr);
	if (rc) {
		start_failed(cfg, i, rc, err, errlen);
		return START_FAILED;
	}
	return *created < cfg->threads ? START_STOPPED : START_OK;
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
	snprintf(err, errlen, "stopped by signal %d; nothing written", (int)stop_signal);
	return EXIT_SIGNAL;
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
			 "within %.0f s; nothing written", (int)stop_signal, inside, created,
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
	bench_test_point("warmup", 0);
	res->measured_s = run_timed(run, res->tsc_hz, &res->machine.noise);
	bench_test_point("join", 0);
	if (!threads_leave(run, created))
		return run_abandon(run, threads, created, res->tsc_hz, err, errlen);
	if (stop_signal)
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
	bench_test_point("probe", 0);
	machine_probe(&res->machine, *cpu_of_thread, cfg->threads);
	res->tsc_hz = res->machine.tsc_hz;
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
	if (limits_check_start(cfg, err, errlen) != 0)
		return EXIT_USAGE;
	status = run_place(cfg, res, &cpu_of_thread, err, errlen);
	if (status == EXIT_OK && stop_signal)
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
	struct sigaction sa = { .sa_handler = on_stop_signal }, old_int, old_term;
	int status;

	memset(res, 0, sizeof(*res));
	res->cfg = cfg;
	/* From the start: the probe and the limits' reading answer a stop too. */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
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
