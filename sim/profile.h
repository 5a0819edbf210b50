/*
 * profile.h — a simulated machine's constants, read from one text file
 * (docs/sim.md, "Machine profiles"): its topology, the cache-coherence
 * latencies, the scheduler's parameters, the kernel's costs and the
 * workloads' kernel times.  Every constant in the file carries its source on
 * its own line (`# measured: how, when, on what`, `# cited: publication` or
 * `# derived: from what, how`); the loader refuses one without.  sim/calibrate.c writes this machine's.
 *
 * The file is untrusted input (it travels between hosts with results):
 * opened through common/safefile.h (its last component never followed, no
 * FIFO or device opened, a size bound), and every bad line is refused with
 * one line "FILE:LINE: KEY: why".
 *
 * A latency the profiled machine has no pair for (lat_smt without SMT,
 * lat_remote with one socket) is left out of the file and is NAN here: it
 * was not measurable there, and inventing it would be worse than refusing a
 * simulation that needs it (sim_profile_has()).
 */
#ifndef LOCKBENCH_SIM_PROFILE_H
#define LOCKBENCH_SIM_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SIM_DIST_MAX 64
#define SIM_WORKLOADS_MAX 8
#define SIM_SCHED_MODELS_MAX 4
/* The most sockets a link map (topology.links) can name. */
#define SIM_LINK_SOCKETS_MAX 64
/* The largest profile file read (a profile is a few KiB). */
#define SIM_PROFILE_MAX_BYTES (256 * 1024)
/* Where sim_profile_find() also looks, before the folders near the binary. */
#define SIM_PROFILE_DIR_ENV "LOCKBENCH_SIM_PROFILES"

struct sim_dist {               /* an empirical distribution of durations, ns */
	unsigned n;             /* points, <= SIM_DIST_MAX (64) */
	double ns[SIM_DIST_MAX];   /* ascending quantile values */
	double p[SIM_DIST_MAX];    /* cumulative probabilities, ascending, p[n-1] == 1 */
};

struct sim_workload_times {
	char name[32];
	struct sim_dist hold;
	struct sim_dist gap;
	/* added: the part of each hold that lies outside the kernel's lock
	 * where a hold is a whole system call (an estimate, ns); NAN when the
	 * profile does not give it */
	double outside_ns;
	/* added: the acquisitions one operation of the workload makes where
	 * an operation is more than one (fserver: a job's locked calls); 0
	 * when the profile does not give it: one */
	unsigned acq_per_op;
};

/* Scaling of a scheduler's tunables with the CPU count, as the kernel's
 * get_update_sysctl_factor() does (SCHED_TUNABLESCALING_*). */
enum sim_sched_scaling { SIM_SCALE_NONE, SIM_SCALE_LOG, SIM_SCALE_LINEAR };

/* One scheduler's parameters as the file gives them: normalized (one CPU),
 * before the kernel's scaling.  NAN where the scheduler has no such tunable
 * (EEVDF has no latency or wake-up granularity). */
struct sim_sched_params {
	char model[32];                    /* "cfs-2.6.34", "eevdf-6.x" */
	unsigned hz;
	unsigned nr_latency;               /* CFS's sched_nr_latency; 0: none */
	enum sim_sched_scaling scaling;
	unsigned scaling_cap;              /* CPUs counted at most (the kernel's 8) */
	double latency_ns, min_granularity_ns, wakeup_granularity_ns;
};

struct sim_profile {
	char name[64];
	unsigned sockets, cores_per_socket, threads_per_core;
	double tsc_ghz;                    /* virtual TSC cycles per ns */
	/* coherence, in cycles */
	double lat_hit;                    /* the line is in this CPU's cache in a state the access allows */
	double lat_smt;                    /* transfer from the SMT sibling's cache (same core) */
	double lat_socket;                 /* transfer from another core of the same socket */
	double lat_remote;                 /* transfer from a core on another socket (one hop away where
	                                      topology.links is given) */
	double lat_remote_2hop;            /* added: from a socket two interconnect hops away (8-socket
	                                      Nehalem-EX); NAN when the file does not give it; charged
	                                      only where topology.links says which sockets are linked */
	/* added: topology.links, the sockets' direct interconnect links (bit b
	 * of socket_links[a]: a and b one hop apart; every other pair two hops,
	 * the loader checks); has_links false: every other socket one hop */
	bool has_links;
	uint64_t socket_links[SIM_LINK_SOCKETS_MAX];
	double lat_mem;                    /* no cache holds it */
	double atomic_extra;               /* a locked read-modify-write beyond its line's transfer */
	double pause_cycles;               /* one pause instruction */
	/* kernel and scheduler: the model in use, scaled for the profile's CPUs
	 * (sim_profile_use_sched() picks another model or CPU count) */
	char sched_model[32];              /* "cfs-2.6.34" or "eevdf-6.x" */
	unsigned hz;                       /* timer tick */
	double sched_latency_ns, sched_min_granularity_ns, sched_wakeup_granularity_ns; /* as scaled for the CPUs */
	double wake_latency_ns;            /* futex wake until the woken thread runs on an idle CPU */
	double context_switch_ns;          /* here measured with one FUTEX_WAKE and one sleeping
	                                      FUTEX_WAIT in it (docs/sim.md, "Calibration") */
	double syscall_ns;                 /* a system call's entry and exit */
	double futex_wait_ns, futex_wake_ns;   /* the futex calls' own kernel work (syscall_ns not in it) */
	unsigned n_workloads;
	struct sim_workload_times workloads[SIM_WORKLOADS_MAX];
	/* added beside the contract's fields */
	unsigned sched_nr_latency;         /* the model in use's (0: it has none) */
	unsigned n_sched;                  /* every scheduler model the file gives */
	struct sim_sched_params sched[SIM_SCHED_MODELS_MAX];
};

/* 0, or -1 with a one-line error naming the file, line and key in err. */
int sim_profile_load(const char *path, struct sim_profile *p, char *err, size_t errlen);
/* A shipped profile by name ("here", "nehalem-ex-64": NAME.profile in
 * $LOCKBENCH_SIM_PROFILES, then sim/profiles/ beside or above the running
 * binary), or a path (anything with a '/' or ending in ".profile"). */
int sim_profile_find(const char *name_or_path, struct sim_profile *p, char *err, size_t errlen);

/* Makes MODEL (one of p->sched[]) the scheduler in use, its tunables scaled
 * for CPUS as the kernel scales them: 0, or -1 with a one-line error. */
int sim_profile_use_sched(struct sim_profile *p, const char *model, unsigned cpus, char *err, size_t errlen);
/* The kernel's factor: 1, min(cpus, cap), or 1 + ilog2(min(cpus, cap)). */
unsigned sim_sched_factor(enum sim_sched_scaling s, unsigned cap, unsigned cpus);

/* A workload's times by name, or NULL. */
const struct sim_workload_times *sim_profile_workload(const struct sim_profile *p, const char *name);
/* Whether a latency was given (not NAN: see above). */
bool sim_profile_has(double v);
/* The duration at cumulative probability u in [0, 1]: linear between the
 * distribution's points (u below p[0] gives ns[0]). */
double sim_dist_at(const struct sim_dist *d, double u);

#endif
