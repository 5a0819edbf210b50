/*
 * machine.h — what a result needs to be read months later on another box:
 * the CPU (libcpuid), what a TSC cycle is worth and whether it can be trusted
 * (calibration, invariance, cross-CPU order), the topology (hwloc), the
 * system's frequency and SMT state (sysfs), and the build.  Probed once per
 * run before the threads start; written to meta.csv (results/README.md).
 */
#ifndef LOCKBENCH_MACHINE_H
#define LOCKBENCH_MACHINE_H

#include <stdbool.h>
#include <stdio.h>

#include "fsinfo.h"
#include "kernel_env.h"
#include "tsc.h"

#define MACHINE_WARN_MAX 8
#define MACHINE_TEXT 128
#define MACHINE_TSC_TOLERANCE 0.01   /* calibrated vs libcpuid: warn beyond 1% */
/* A TSC skew bound wider than this (seconds) orders nothing the runs time
 * across CPUs (a wake-up, a kernel wait: microseconds): a busy machine
 * delayed the check's answers, not a skew. */
#define MACHINE_SKEW_LOOSE_S 100e-6
#define MACHINE_CALIBRATION_S 0.02   /* TSC against CLOCK_MONOTONIC_RAW */
#define MACHINE_SKEW_BUDGET_S 0.04   /* cross-CPU ping-pong, all pairs */

/* Pressure stall information: what some task waited for (PSI's files). */
enum machine_psi { MACHINE_PSI_CPU, MACHINE_PSI_IO, MACHINE_PSI_MEMORY, MACHINE_PSI_NR };

/* One reading of what perturbs a run, taken at each end of the measured
 * interval (machine_noise_begin / _end); what is not exposed here is left
 * out (its *_ok false). */
struct machine_noise_sample {
	double t;                                 /* CLOCK_MONOTONIC, s */
	bool stat_ok;                             /* /proc/stat's cpu line, all CPUs, USER_HZ ticks */
	unsigned long long busy, steal, total;
	double self_cpu_s;                        /* this process's user + sys (getrusage) */
	long csw_involuntary;                     /* this process's */
	bool psi_ok[MACHINE_PSI_NR];              /* /proc/pressure/{cpu,io,memory} "some" totals, us */
	double psi_us[MACHINE_PSI_NR];
	bool mhz_ok;                              /* mean cpufreq scaling_cur_freq over the CPUs */
	double mhz;
	bool throttle_ok;                         /* thermal_throttle core + package counts, summed */
	unsigned long long throttle;
};

/* What else the machine did while the run was measured: meta.csv's noise_*
 * keys (results/README.md). */
struct machine_noise {
	bool taken;                               /* both ends were read */
	struct machine_noise_sample begin, end;
	bool loadavg_ok;                          /* /proc/loadavg at the end */
	double loadavg_1m;
	int procs_running;
	bool temp_ok;                             /* hottest thermal zone at the end, deg C */
	double temp_c_max;
};

/* Other processes used more than this share of the machine's CPU time, or
 * the hypervisor stole more than this, or some task waited for I/O more than
 * this share of the interval (PSI io "some"): meta.csv says the run was busy.
 * The I/O bound, and why: results/README.md, noise_busy. */
#define MACHINE_BUSY_OTHER_PCT 10.0
#define MACHINE_BUSY_STEAL_PCT 2.0
#define MACHINE_BUSY_IO_PRESSURE_PCT 10.0

struct machine_info {
	/* libcpuid */
	bool cpuid_ok;
	char cpuid_error[MACHINE_TEXT];
	char vendor[16], brand[64], codename[64], hypervisor[16];
	int family, model, stepping;        /* display family/model (extended fields folded in) */
	int cores, logical, total_logical;  /* per package; in the system */
	int l1d_kib, l1i_kib, l2_kib, l3_kib;  /* -1: unknown */
	bool tsc, tsc_invariant, rdtscp;
	double tsc_hz_cpuid;                /* 0: libcpuid does not know */
	const char *tsc_hz_cpuid_source;    /* how it knows, or "unknown" */
	int cpu_mhz_os;                     /* cpu_clock_by_os(), -1: unknown */
	/* the clock, measured */
	double tsc_hz;                      /* calibrated against CLOCK_MONOTONIC_RAW */
	double calibration_s;
	double tsc_hz_diff;                 /* (calibrated - libcpuid) / libcpuid; 0 when unknown */
	int skew_status;                    /* 0, or the errno that stopped the check */
	struct tsc_skew skew;
	/* hwloc */
	unsigned int packages, numa_nodes, hw_cores, pus, pus_usable;
	char usable_cpus[256];              /* hwloc list syntax, ' ' for ',' */
	/* the system, where it says */
	char hostname[65], os[65], kernel_release[65], kernel_version[65], arch[65];  /* uname(2) */
	char glibc[32], clocksource[32], governor[MACHINE_TEXT], cpufreq_driver[64], boost[64];
	char smt_control[32], smt_active[16];
	bool numa;                          /* libnuma works here */
	struct kernel_env kernel;           /* what decides the kernel mutex's behaviour */
	/* the build and the run */
	char commit[48], date_utc[32];
	char build_id[72];                  /* the binary's GNU build ID, hex (buildid.h) */
	double probe_s;
	struct machine_noise noise;         /* over the measured interval */
	struct fs_info workload_dir;        /* where a file workload makes its files (run.c probes it) */
	unsigned int nwarn;
	char warn[MACHINE_WARN_MAX][256];
};

/* Identity, system state and topology: everything but the clock checks.
 * `cpus` are the CPUs the run uses (-1 entries: unpinned). */
void machine_identify(struct machine_info *m, const int *cpus, unsigned int n);

/* machine_identify(), then TSC calibration and the cross-CPU check over the
 * run's CPUs (every usable CPU when unpinned); each warning is printed on
 * stderr as it is found.  Bounded: about MACHINE_CALIBRATION_S +
 * MACHINE_SKEW_BUDGET_S. */
void machine_probe(struct machine_info *m, const int *cpu_of_thread, unsigned int nthreads);
/* m->commit and m->build_id alone: the build's, not the host's (a simulated run's meta.csv). */
void machine_build_commit(struct machine_info *m);

/* Whether the skew check's bound is too wide to say anything (MACHINE_SKEW_LOOSE_S). */
bool machine_skew_loose(const struct machine_info *m);

/* The calibrated TSC rate is within MACHINE_TSC_TOLERANCE of libcpuid's
 * (meaningful when tsc_hz_cpuid > 0): the probe's warning and the
 * tsc_frequency self-check both ask this. */
bool machine_tsc_rate_agrees(const struct machine_info *m);

/* Read at the start and at the end of the measured interval: cheap (a few
 * small /proc and sysfs files), and outside it. */
void machine_noise_begin(struct machine_noise *n);
void machine_noise_end(struct machine_noise *n);

/* The noise figures as meta.csv gives them: percentages of the machine's
 * CPU time over the interval (-1: not exposed). */
double machine_noise_other_cpu_pct(const struct machine_noise *n);
double machine_noise_steal_pct(const struct machine_noise *n);
/* PSI's "some" share of the interval, %: of the time some task waited for
 * that resource (-1: not exposed). */
double machine_noise_pressure_pct(const struct machine_noise *n, enum machine_psi which);

/* Whether the run shared the machine (meta.csv's noise_busy): MACHINE_BUSY_NO,
 * _UNKNOWN (no /proc/stat and no I/O figure over its bound), or _YES with
 * what made it busy in `why` ("other processes X% of the CPU time; steal
 * Y%; I/O pressure Z%"). */
enum machine_busy { MACHINE_BUSY_NO, MACHINE_BUSY_UNKNOWN, MACHINE_BUSY_YES };
enum machine_busy machine_noise_busy(const struct machine_noise *n, char *why, size_t len);

/* The summary's clock lines, and every warning again.  meta.csv is
 * meta.h's machine_write_meta(). */
void machine_print_summary(const struct machine_info *m, FILE *out);

#endif
