/*
 * simrun.c — a simulated run (simrun.h).  sim/ runs the threads
 * (sim_lockrun); here, above it, each measured acquisition's virtual cycles
 * go into the threads' histograms as bench_lock() records a real one, each
 * thread's measured lock events into its lock_thread and its time on a
 * simulated CPU into its CPU time (virtual seconds), and the run's result
 * is merged and checked by the real run's code (merge.c, checks.c).
 *
 * Nothing of the host goes in: no machine probe (meta.csv's host keys stay
 * "unknown"), no clock but the virtual TSC, no address; one seed, one result.
 */
#include <stdlib.h>
#include <string.h>

#include "checks.h"
#include "merge.h"
#include "run.h"
#include "simrun.h"
#include "worker.h"
#include "../platform/machine.h"
#include "../platform/memory.h"
#include "../workloads/workload.h"
#include "../../sim/lockrun.h"
#include "../../sim/registry_sim.h"

static const struct lock_ops *sim_lock_find(const char *name)
{
	for (size_t i = 0; i < sim_lock_registry_len; i++)
		if (strcmp(sim_lock_registry[i]->name, name) == 0)
			return sim_lock_registry[i];
	return NULL;
}

bool bench_sim_lock(const char *name)
{
	return sim_lock_find(name) != NULL;
}

/* Kernel semantics by default for the kmutex-* models only: they model the
 * kernel's struct mutex, whose code runs in a system call; every other lock
 * is a userspace lock, preemptible anywhere. */
int bench_sim_semantics(const struct bench_config *cfg)
{
	if (cfg->sim_semantics != BENCH_SIM_DEFAULT)
		return cfg->sim_semantics;
	return strncmp(cfg->lock->name, "kmutex", 6) == 0 ? BENCH_SIM_KERNEL : BENCH_SIM_USER;
}

/* In a simulated thread: a measured acquisition, as bench_lock() records it. */
static void on_acquire(void *ctx, unsigned thread, uint64_t cycles, bool contended)
{
	struct bench_thread *t = ((struct bench_thread **)ctx)[thread];

	hist_record(&t->acq, cycles, contended);
	if (contended)
		hist_record(&t->acq_contended, cycles, true);
	t->ops++;
}

/* on_acquire() counted each acquisition as an op; where an op is PER_OP of
 * them (the profile's workload.NAME.acq_per_op: fserver's job), the thread's
 * whole ones, counted from its first measured acquisition, and the one left
 * unfinished abandoned at the stop, as a real run's job is. */
static void ops_of_acquisitions(struct bench_thread *t, unsigned per_op)
{
	if (per_op > 1) {
		t->ops_abandoned = t->ops % per_op != 0;
		t->ops /= per_op;
	}
	t->ops_all = t->ops;
}

/* The threads' records, as worker.c's are allocated (thread_free() frees them). */
static int threads_alloc(const struct bench_config *cfg, struct bench_thread **threads, unsigned ncpus)
{
	for (unsigned i = 0; i < cfg->threads; i++) {
		struct bench_thread *t = mem_alloc_node(sizeof(*t), -1);

		if (!t)
			return -1;
		memset(t, 0, sizeof(*t));
		threads[i] = t;
		t->lt = mem_alloc_node(LOCK_THREAD_SIZE(cfg->lock), -1);
		if (!t->lt)
			return -1;
		memset(t->lt, 0, LOCK_THREAD_SIZE(cfg->lock));
		t->id = i;
		t->lt->id = i;
		t->cpu = (int)(i % ncpus);  /* where sim_spawn() places it */
		t->lock_ops = cfg->lock;
		t->cfg = cfg;
		hist_reset(&t->acq);
		hist_reset(&t->acq_contended);
	}
	return 0;
}

struct simrun {
	struct sim_profile profile;
	const struct sim_workload_times *times;
	const struct lock_ops *ops;
	struct sim *sim;
};

/* What the command line asked for, found: EXIT_OK, or EXIT_USAGE and why. */
static int simrun_find(const struct bench_config *cfg, struct simrun *sr, char *err, size_t errlen)
{
	char why[512];

	if (!(sr->ops = sim_lock_find(cfg->lock->name))) {
		snprintf(err, errlen, "--sim: lock %s has no simulated build (lockbench --list: its simulated: section)",
			 cfg->lock->name);
		return EXIT_USAGE;
	}
	if (cfg->threads > SIM_MAX_THREADS) {
		snprintf(err, errlen, "--sim: %u threads (a simulation runs 1 to %d)", cfg->threads, SIM_MAX_THREADS);
		return EXIT_USAGE;
	}
	if (sim_profile_find(cfg->sim_profile, &sr->profile, why, sizeof(why)) != 0) {
		snprintf(err, errlen, "--sim: %s", why);
		return EXIT_USAGE;
	}
	if (cfg->sim_sched && sim_profile_use_sched(&sr->profile, cfg->sim_sched, sr->profile.sockets *
							sr->profile.cores_per_socket * sr->profile.threads_per_core,
							why, sizeof(why)) != 0) {
		snprintf(err, errlen, "--sim-sched: profile %s: %s", sr->profile.name, why);
		return EXIT_USAGE;
	}
	if (!(sr->times = sim_profile_workload(&sr->profile, cfg->workload->name))) {
		snprintf(err, errlen, "--sim: profile %s has no times for workload %s", sr->profile.name,
			 cfg->workload->name);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

static int simrun_create(const struct bench_config *cfg, struct simrun *sr, char *err, size_t errlen)
{
	struct sim_config sc = {
		.profile = &sr->profile,
		.ncpus = cfg->sim_cpus,
		.seed = cfg->sim_seed,
		.semantics = bench_sim_semantics(cfg) == BENCH_SIM_KERNEL ? SIM_KERNEL : SIM_USERSPACE,
	};
	char why[512];

	if (!(sr->sim = sim_create(&sc, why, sizeof(why)))) {
		snprintf(err, errlen, "--sim: %s", why);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

/* A simulated thread's measured time on a CPU as its CPU time: virtual
 * seconds of the profile's clock, the kernel sections' as sys. */
static void sim_usage(struct bench_thread *t, const struct sim_cpu_time *c, double tsc_hz)
{
	t->usage.user_s = (double)c->user / tsc_hz;
	t->usage.sys_s = (double)c->sys / tsc_hz;
}

/* The lock's run on the simulator; each thread's events into its
 * lock_thread, its time on a CPU into its usage. */
static int simrun_lock(const struct bench_config *cfg, struct simrun *sr, struct bench_result *res,
		       struct bench_thread **threads, char *err, size_t errlen)
{
	struct lock_events *ev = calloc(cfg->threads, sizeof(*ev));
	struct sim_cpu_time *cpu = calloc(cfg->threads, sizeof(*cpu));
	struct sim_lockrun r = {
		.ops = sr->ops,
		.settings = cfg->lock_params.settings,
		.threads = cfg->threads,
		.hold_dist = &sr->times->hold,
		.gap_dist = &sr->times->gap,
		.seed = cfg->sim_seed,
		.measure_from_cycles = sim_cycles(sr->sim, cfg->warmup_s * 1e9),
		.duration_cycles = sim_cycles(sr->sim, (cfg->warmup_s + cfg->duration_s) * 1e9),
		.kernel_section = bench_sim_semantics(cfg) == BENCH_SIM_KERNEL,
		/* Every workload writes its data under the lock: counter its
		 * value, fpos the file's f_pos, creat the directory's inode (more
		 * than one line there: one is a lower bound).  The measured hold
		 * times are one thread's, the line always here. */
		.data_line = true,
		/* kernel semantics only: the lock covers the call less this */
		.outside_cycles = sim_profile_has(sr->times->outside_ns) ? sim_cycles(sr->sim, sr->times->outside_ns) : 0,
		.on_acquire = on_acquire,
		.ctx = threads,
		.thread_ev = ev,
		.thread_cpu = cpu,
	};
	struct sim_lockrun_result out;

	if (!ev || !cpu) {
		free(ev);
		free(cpu);
		snprintf(err, errlen, "out of memory for %u threads", cfg->threads);
		return EXIT_RUNTIME;
	}
	if (sim_lockrun(sr->sim, &r, &out, err, errlen) != 0) {
		free(ev);
		free(cpu);
		return EXIT_RUNTIME;
	}
	for (unsigned i = 0; i < cfg->threads; i++) {
		threads[i]->lt->ev = ev[i];
		ops_of_acquisitions(threads[i], sr->times->acq_per_op);
		sim_usage(threads[i], &cpu[i], sr->profile.tsc_ghz * 1e9);
	}
	free(ev);
	free(cpu);
	res->lock_params.settings = out.settings;
	res->ran_ops = sr->ops;
	res->lock_params.threads = cfg->threads;
	/* The lock's own exclusion, seen by the simulator (sim_lockrun_result). */
	if (!(cfg->lock->flags & LOCK_F_NO_EXCLUSION)) {
		res->invariant = out.overlaps ? INVARIANT_FAILED : INVARIANT_OK;
		snprintf(res->invariant_msg, sizeof(res->invariant_msg),
			 "simulated: %llu acquisitions found another thread inside lock %s",
			 (unsigned long long)out.overlaps, cfg->lock->name);
	}
	return EXIT_OK;
}

static int simrun_threads(const struct bench_config *cfg, struct simrun *sr, struct bench_result *res,
			  char *err, size_t errlen)
{
	struct bench_thread **threads = calloc(cfg->threads, sizeof(*threads));
	int status;

	if (!threads) {
		snprintf(err, errlen, "out of memory for %u threads", cfg->threads);
		return EXIT_RUNTIME;
	}
	res->threads = threads;
	if (threads_alloc(cfg, threads, sim_ncpus(sr->sim)) != 0) {
		snprintf(err, errlen, "out of memory for %u threads", cfg->threads);
		return EXIT_RUNTIME;
	}
	status = simrun_lock(cfg, sr, res, threads, err, errlen);
	if (status != EXIT_OK)
		return status;
	res->tsc_hz = sr->profile.tsc_ghz * 1e9;
	res->sim_cpus = sim_ncpus(sr->sim);
	res->sim_semantics = bench_sim_semantics(cfg);
	snprintf(res->sim_sched, sizeof(res->sim_sched), "%s", sr->profile.sched_model);
	res->sim_acq_per_op = sr->times->acq_per_op > 1 ? sr->times->acq_per_op : 1;
	res->measured_s = cfg->duration_s;
	res->lock_node = -1;
	machine_build_commit(&res->machine);
	merge_results(res);
	checks_evaluate(res);
	if (res->invariant == INVARIANT_FAILED) {
		snprintf(err, errlen, "%s", res->invariant_msg);
		return EXIT_INVARIANT;
	}
	return EXIT_OK;
}

int bench_simrun(const struct bench_config *cfg, struct bench_result *res, char *err, size_t errlen)
{
	struct simrun *sr = calloc(1, sizeof(*sr));
	int status;

	memset(res, 0, sizeof(*res));
	res->cfg = cfg;
	if (!sr) {
		snprintf(err, errlen, "out of memory");
		return EXIT_RUNTIME;
	}
	status = simrun_find(cfg, sr, err, errlen);
	if (status == EXIT_OK)
		status = simrun_create(cfg, sr, err, errlen);
	if (status == EXIT_OK)
		status = simrun_threads(cfg, sr, res, err, errlen);
	if (sr->sim)
		sim_destroy(sr->sim);
	free(sr);
	return status;
}
