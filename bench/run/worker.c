/*
 * worker.c — a run's worker threads: each one's record, allocated on its
 * CPU's node, its creation, pinned, and its life: setup, the gate, the loop
 * of operations that runs warm-up and then the measured interval until the
 * phase says stop, teardown.  The timed acquisitions themselves are
 * bench_lock() (harness.h), inlined into each workload's op().  What the
 * loop calls is static here or inline (busy_loops()), op() aside: keep it
 * so, or the loop pays a call per operation that it never paid.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

#include "runctl.h"
#include "worker.h"
#include "../core/busywork.h"
#include "../platform/memory.h"
#include "../platform/schedmode.h"
#include "../platform/syslimits.h"
#include "../workloads/workload.h"

#define THREAD_STACK_BYTES (1u << 20)

/* ---- the thread's life ---- */

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

/* --sched: past the gate, where this thread holds nothing another waits
 * for, it takes its policy, then waits for the others to have taken theirs
 * (schedmode.c says why there).  False (the run failed) if it could not. */
static bool thread_sched(struct bench_thread *t)
{
	int rc;

	if (t->cfg->sched == SCHED_MODE_OTHER)
		return true;
	rc = sched_mode_self(t->cfg->sched);
	if (rc) {
		bench_fail(t, rc, "thread %u: --sched %s: %s", t->id, sched_mode_name[t->cfg->sched], strerror(rc));
		__atomic_store_n(&t->run->failed, 1, __ATOMIC_RELAXED);
		__atomic_store_n(&t->run->phase, PHASE_STOP, __ATOMIC_RELAXED);
	}
	gate_sched_arrive(t->run);
	return rc == 0;
}

static void *thread_main(void *arg)
{
	struct bench_thread *t = arg;
	const struct workload_ops *wl = t->cfg->workload;
	bool ready = thread_prepare(t);

	/* A thread whose setup failed still arrives: the gate counts it. */
	if (gate_wait(t->run) && ready && thread_sched(t))
		thread_loop(t);
	if (ready && wl->thread_teardown)
		wl->thread_teardown(t);
	/* Release: pairs with the acquire in threads_done() (runctl.c).  After a
	 * stop signal the main thread tears the workload down without joining,
	 * once every thread is counted here: this thread's last use of it must
	 * come before (fpos's reads of the descriptor that teardown closes). */
	__atomic_fetch_add(&t->run->threads_done, 1, __ATOMIC_RELEASE);
	return NULL;
}

/* ---- its record ---- */

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

void thread_free(const struct bench_config *cfg, struct bench_thread *t)
{
	if (!t)
		return;
	mem_free(t->wl, cfg->workload->thread_size);
	mem_free(t->lt, LOCK_THREAD_SIZE(cfg->lock));
	mem_free(t, sizeof(*t));
}

/* ---- its start ---- */

/* Creates worker i, its signal mask without SIGINT/SIGTERM/SIGHUP (only
 * the main thread takes them); 0 or an errno. */
static int thread_create(struct bench_thread *t, pthread_attr_t *attr)
{
	sigset_t block, old;
	int rc = bench_test_point("start", t->id);

	if (rc)
		return rc;
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
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
enum start_status threads_start(struct bench_run *run, struct bench_thread **threads,
				unsigned int *created, char *err, size_t errlen)
{
	const struct bench_config *cfg = run->cfg;
	pthread_attr_t attr;
	unsigned int i;
	int rc = pthread_attr_init(&attr);

	*created = 0;
	if (!rc)
		rc = pthread_attr_setstacksize(&attr, THREAD_STACK_BYTES);
	for (i = 0; !rc && i < cfg->threads && !bench_stop_signal(); i++) {
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
