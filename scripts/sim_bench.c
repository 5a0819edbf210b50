/*
 * sim_bench.c — make bench's figures for the simulator (docs/sim.md): the
 * wall time of one simulated second, and events and shared accesses per
 * second of this machine's time, for LOCK's simulated build (sim/locks_sim.def)
 * taken by THREADS threads on as many simulated CPUs of PROFILE's machine,
 * each acquisition's hold and the gap after it drawn from the profile's
 * WORKLOAD times, lock to unlock a kernel section (kernel semantics: the
 * hold less the workload's outside_ns, as lockbench --sim runs it).
 *
 *   sim_bench [PROFILE [LOCK [WORKLOAD [THREADS [SIM_MS]]]]]
 *   (default: here, the patch pair's fix (its patch-table column 2,
 *   locks/locks.def), the patch workload (WL_PATCH's first,
 *   bench/workloads/workloads.def), 64, 200 — the one simulated
 *   second of the patch workload at 64 threads on 64 CPUs, in 200 ms of it)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../sim/lockrun.h"
#include "../sim/registry_sim.h"
#include "../bench/workloads/workload.h"

static double wall(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static int parse(const char *text, unsigned long lo, unsigned long hi, unsigned long *out)
{
	char *end;

	*out = strtoul(text, &end, 10);
	return *end || end == text || *out < lo || *out > hi ? -1 : 0;
}

static const struct lock_ops *find_lock(const char *name)
{
	for (size_t i = 0; i < sim_lock_registry_len; i++)
		if (strcmp(sim_lock_registry[i]->name, name) == 0)
			return sim_lock_registry[i];
	return NULL;
}

/* The defaults, from the registries: no lock or workload named here. */
static const char *default_lock(void)
{
	for (size_t i = 0; i < lock_registry_len; i++)
		if (lock_plans[i].column == 2)
			return lock_registry[i]->name;
	return "";
}

static const char *default_workload(void)
{
	for (size_t i = 0; i < workload_registry_len; i++)
		if (workload_plans[i].role == WL_PATCH)
			return workload_registry[i]->name;
	return "";
}

static int usage(void)
{
	fprintf(stderr, "usage: sim_bench [PROFILE [LOCK [WORKLOAD [THREADS (1-%d) [SIM_MS (1-10000)]]]]]\n",
		SIM_MAX_CPUS);
	return 2;
}

int main(int argc, char **argv)
{
	const char *profile = argc > 1 ? argv[1] : "here", *lock = argc > 2 ? argv[2] : default_lock();
	const char *workload = argc > 3 ? argv[3] : default_workload();
	unsigned long threads = 64, ms = 200;
	struct sim_profile p;
	const struct sim_workload_times *w;
	struct sim_lockrun r = { .kernel_section = true, .seed = 1 };
	struct sim_lockrun_result out;
	struct sim_config cfg = { .profile = &p, .seed = 1, .semantics = SIM_KERNEL };
	const struct sim_stats *st;
	char err[512];
	struct sim *s;
	double t0, secs;

	if (argc > 6 || (argc > 4 && parse(argv[4], 1, SIM_MAX_CPUS, &threads) < 0) ||
	    (argc > 5 && parse(argv[5], 1, 10000, &ms) < 0))
		return usage();
	if (sim_profile_find(profile, &p, err, sizeof(err)) != 0)
		return fprintf(stderr, "sim_bench: %s\n", err), 1;
	if (!(r.ops = find_lock(lock)))
		return fprintf(stderr, "sim_bench: no simulated lock '%s'\n", lock), 1;
	if (!(w = sim_profile_workload(&p, workload)))
		return fprintf(stderr, "sim_bench: profile '%s' has no workload '%s'\n", p.name, workload), 1;
	cfg.ncpus = (unsigned)threads;
	if (!(s = sim_create(&cfg, err, sizeof(err))))
		return fprintf(stderr, "sim_bench: %s\n", err), 1;
	r.threads = (unsigned)threads;
	r.hold_dist = &w->hold;
	r.gap_dist = &w->gap;
	/* as lockbench --sim in kernel semantics: the hold less the call's part outside the lock */
	r.outside_cycles = sim_profile_has(w->outside_ns) ? sim_cycles(s, w->outside_ns) : 0;
	r.duration_cycles = sim_cycles(s, ms * 1e6);
	t0 = wall();
	if (sim_lockrun(s, &r, &out, err, sizeof(err)) != 0)
		return fprintf(stderr, "sim_bench: %s\n", err), 1;
	secs = wall() - t0;
	st = sim_stats(s);
	printf("sim: %s, %s on %s, %lu threads on %lu CPUs, %lu simulated ms: %llu acquisitions, %llu events, "
	       "%llu accesses in %.2f s: %.2f M events/s, %.2f M accesses/s, %.1f s per simulated second\n",
	       p.name, lock, workload, threads, threads, ms, (unsigned long long)out.acquisitions,
	       (unsigned long long)st->events, (unsigned long long)st->accesses, secs, st->events / secs / 1e6,
	       st->accesses / secs / 1e6, secs * 1000.0 / (double)ms);
	sim_destroy(s);
	return 0;
}
