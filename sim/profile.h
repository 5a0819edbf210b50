/*
 * profile.h — a simulated machine's profile (docs/sim.md).  PLACEHOLDER from
 * the engine branch: the struct exactly as the issue 39 contract
 * (sim-api.md) gives it, so the engine compiles and its tests fill one; the
 * profile branch's sim/profile.h (with the loader) replaces this file whole.
 */
#ifndef LOCKBENCH_SIM_PROFILE_H
#define LOCKBENCH_SIM_PROFILE_H

#include <stddef.h>

#define SIM_DIST_MAX 64

struct sim_dist {               /* an empirical distribution of durations, ns */
	unsigned n;             /* points, <= SIM_DIST_MAX */
	double ns[SIM_DIST_MAX];  /* ascending quantile values */
	double p[SIM_DIST_MAX];   /* cumulative probabilities, ascending, p[n-1] == 1 */
};

struct sim_workload_times {
	char name[32];
	struct sim_dist hold;
	struct sim_dist gap;
};

struct sim_profile {
	char name[64];
	unsigned sockets, cores_per_socket, threads_per_core;
	double tsc_ghz;                    /* virtual TSC cycles per ns */
	/* coherence, in cycles */
	double lat_hit;                    /* the line is in this CPU's cache in a state the access allows */
	double lat_smt;                    /* transfer from the SMT sibling's cache (same core) */
	double lat_socket;                 /* transfer from another core of the same socket */
	double lat_remote;                 /* transfer from a core on another socket */
	double lat_mem;                    /* no cache holds it */
	double atomic_extra;               /* a locked read-modify-write beyond its line's transfer */
	double pause_cycles;               /* one pause instruction */
	/* kernel and scheduler */
	char sched_model[32];              /* "cfs-2.6.34" or "eevdf-6.x" */
	unsigned hz;                       /* timer tick */
	double sched_latency_ns, sched_min_granularity_ns, sched_wakeup_granularity_ns; /* as scaled for the CPUs */
	double wake_latency_ns;            /* futex wake until the woken thread runs on an idle CPU */
	double context_switch_ns;
	double syscall_ns;                 /* a system call's entry and exit */
	double futex_wait_ns, futex_wake_ns;   /* the futex calls' own kernel work */
	unsigned n_workloads;
	struct sim_workload_times workloads[8];
};

/* 0, or -1 with a one-line error naming the file, line and key in err. */
int sim_profile_load(const char *path, struct sim_profile *p, char *err, size_t errlen);
int sim_profile_find(const char *name_or_path, struct sim_profile *p, char *err, size_t errlen);

#endif
