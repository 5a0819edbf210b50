/*
 * meta.c — meta.csv, the machine a result came from and how the run sat on
 * it: key,value lines, every key always present ("unknown" or "unavailable"
 * where the machine does not say), formats in results/README.md.  What it
 * writes, machine.c has probed.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <hwloc.h>
#include <libcpuid.h>

#include "meta.h"
#include "../core/result.h"
#include "../platform/machine.h"

/* One key,value line; commas and newlines in the value become spaces. */
static void put(FILE *f, const char *key, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void put(FILE *f, const char *key, const char *fmt, ...)
{
	char value[16384];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(value, sizeof(value), fmt, ap);
	va_end(ap);
	for (char *c = value; *c; c++)
		if (*c == ',' || *c == '\n' || *c == '\r')
			*c = ' ';
	fprintf(f, "%s,%s\n", key, value[0] ? value : "unknown");
}

/* A value lossless (the command line, paths): '%', ',' and newlines
 * percent-encoded. */
static void put_encoded(FILE *f, const char *key, const char *value)
{
	fprintf(f, "%s,", key);
	for (const char *c = value ? value : ""; *c; c++) {
		if (*c == '%' || *c == ',' || *c == '\n' || *c == '\r')
			fprintf(f, "%%%02X", (unsigned char)*c);
		else
			fputc(*c, f);
	}
	fputc('\n', f);
}

static void put_int_or_unknown(FILE *f, const char *key, int v)
{
	if (v < 0)
		put(f, key, "unknown");
	else
		put(f, key, "%d", v);
}

static void write_identity(const struct machine_info *m, FILE *f)
{
	put(f, "cpu_vendor", "%s", m->vendor);
	put(f, "cpu_brand", "%s", m->brand);
	put(f, "cpu_codename", "%s", m->codename);
	put_int_or_unknown(f, "cpu_family", m->cpuid_ok ? m->family : -1);
	put_int_or_unknown(f, "cpu_model", m->cpuid_ok ? m->model : -1);
	put_int_or_unknown(f, "cpu_stepping", m->cpuid_ok ? m->stepping : -1);
	put_int_or_unknown(f, "cpu_cores_per_package", m->cpuid_ok ? m->cores : -1);
	put_int_or_unknown(f, "cpu_threads_per_package", m->cpuid_ok ? m->logical : -1);
	put_int_or_unknown(f, "cpu_threads_total", m->cpuid_ok ? m->total_logical : -1);
	put_int_or_unknown(f, "cache_l1d_kib", m->cpuid_ok ? m->l1d_kib : -1);
	put_int_or_unknown(f, "cache_l1i_kib", m->cpuid_ok ? m->l1i_kib : -1);
	put_int_or_unknown(f, "cache_l2_kib", m->cpuid_ok ? m->l2_kib : -1);
	put_int_or_unknown(f, "cache_l3_kib", m->cpuid_ok ? m->l3_kib : -1);
	put(f, "hypervisor", "%s", m->hypervisor);
	put(f, "libcpuid_version", "%s", cpuid_lib_version());
}

static const char *yes_no(const struct machine_info *m, bool v)
{
	return !m->cpuid_ok ? "unknown" : v ? "1" : "0";
}

/* What decides the running kernel's mutex behaviour (kernel_env.h). */
static void write_kernel_env(const struct kernel_env *k, FILE *f)
{
	put(f, "kernel_config", "%s", k->config);
	put(f, "kernel_mutex_spin_on_owner", "%s", k->spin_on_owner);
	put(f, "kernel_preempt", "%s", k->preempt);
	put(f, "kernel_preempt_source", "%s", k->preempt_source);
	put(f, "kernel_hypervisor", "%s", k->hypervisor);
	put(f, "cpuid_hypervisor", "%s", k->cpuid_hypervisor);
	put(f, "kernel_vcpu_is_preempted", "%s", k->vcpu_preempted);
	put(f, "kernel_vcpu_is_preempted_why", "%s", k->vcpu_preempted_why);
}

static void write_clock(const struct machine_info *m, FILE *f)
{
	const struct tsc_skew *s = &m->skew;

	put(f, "tsc", "%s", yes_no(m, m->tsc));
	put(f, "tsc_invariant", "%s", yes_no(m, m->tsc_invariant));
	put(f, "tsc_rdtscp", "%s", yes_no(m, m->rdtscp));
	put(f, "tsc_hz_calibrated", "%.0f", m->tsc_hz);
	put(f, "tsc_calibration_s", "%.3f", m->calibration_s);
	if (m->tsc_hz_cpuid > 0) {
		put(f, "tsc_hz_libcpuid", "%.0f", m->tsc_hz_cpuid);
		put(f, "tsc_hz_diff_pct", "%.4f", 100 * m->tsc_hz_diff);
	} else {
		put(f, "tsc_hz_libcpuid", "unknown");
		put(f, "tsc_hz_diff_pct", "unknown");
	}
	put(f, "tsc_hz_libcpuid_source", "%s", m->tsc_hz_cpuid_source);
	put_int_or_unknown(f, "cpu_mhz_os", m->cpu_mhz_os);
	put(f, "clocksource", "%s", m->clocksource);
	put(f, "tsc_skew_status", "%s", m->skew_status ? strerror(m->skew_status) :
					  s->aborted ? "cut short" : s->pairs ? "ok" : "not applicable");
	put(f, "tsc_skew_cpus", "%u", s->cpus);
	put(f, "tsc_skew_pairs", "%u", s->pairs);
	put(f, "tsc_skew_ref_cpu", "%d", s->ref_cpu);
	put(f, "tsc_skew_rounds", "%llu", (unsigned long long)s->rounds);
	put(f, "tsc_skew_bound_cycles", "%llu", (unsigned long long)s->bound);
	put(f, "tsc_skew_worst_cpu", "%d", s->worst_cpu);
	put(f, "tsc_skew_worst_offset_cycles", "%lld", (long long)s->worst_offset);
	put(f, "tsc_skew_backwards_pairs", "%u", s->backwards);
	put(f, "tsc_skew_backwards_max_cycles", "%llu", (unsigned long long)s->backwards_max);
	put(f, "tsc_skew_s", "%.4f", s->elapsed_s);
}

static void write_system(const struct machine_info *m, FILE *f)
{
	put(f, "hostname", "%s", m->hostname);
	put(f, "os", "%s", m->os);
	put(f, "kernel_release", "%s", m->kernel_release);
	put(f, "kernel_version", "%s", m->kernel_version);
	put(f, "arch", "%s", m->arch);
	put(f, "glibc", "%s", m->glibc);
	put(f, "cpufreq_governor", "%s", m->governor);
	put(f, "cpufreq_driver", "%s", m->cpufreq_driver);
	put(f, "boost", "%s", m->boost);
	put(f, "smt_control", "%s", m->smt_control);
	put(f, "smt_active", "%s", m->smt_active);
	put(f, "hwloc_version", "%s", HWLOC_VERSION);
	put(f, "topology_packages", "%u", m->packages);
	put(f, "topology_numa_nodes", "%u", m->numa_nodes);
	put(f, "topology_cores", "%u", m->hw_cores);
	put(f, "topology_pus", "%u", m->pus);
	put(f, "topology_pus_usable", "%u", m->pus_usable);
	put(f, "cpus_usable", "%s", m->usable_cpus);
	put(f, "numa", "%s", m->numa ? "1" : "0");
}

static void write_placement(const struct bench_result *res, FILE *f)
{
	char order[12000];
	size_t used = 0;

	order[0] = '\0';
	for (int i = 0; i < res->pin_order_n && used < sizeof(order); i++)
		used += (size_t)snprintf(order + used, sizeof(order) - used, "%s%d", i ? " " : "",
					 res->pin_order[i]);
	if (used >= sizeof(order))
		memcpy(order + sizeof(order) - 4, "...", 4);
	put(f, "pin", "%s", res->cfg->pin);
	put(f, "pin_order", "%s", res->pin_order_n ? order : "none");
	put(f, "pin_order_len", "%d", res->pin_order_n);
	if (res->cfg->lock_node < 0)
		put(f, "lock_node_requested", "first-thread");
	else
		put(f, "lock_node_requested", "%d", res->cfg->lock_node);
	if (res->lock_node < 0)
		put(f, "lock_node", "first-touch");
	else
		put(f, "lock_node", "%d", res->lock_node);
}

/* A figure, or `unavailable` where the machine does not expose it. */
static void put_or_unavailable(FILE *f, const char *key, bool ok, const char *fmt, double v)
{
	if (ok)
		put(f, key, fmt, v);
	else
		put(f, key, "unavailable");
}

/* Whether the run shared the machine: the verdict meta.csv and run-all's
 * report give (machine_noise_busy). */
static void put_busy(FILE *f, const struct machine_noise *n)
{
	char why[160];

	switch (machine_noise_busy(n, why, sizeof(why))) {
	case MACHINE_BUSY_NO:
		put(f, "noise_busy", "no");
		break;
	case MACHINE_BUSY_UNKNOWN:
		put(f, "noise_busy", "unknown");
		break;
	case MACHINE_BUSY_YES:
		put(f, "noise_busy", "yes: %s", why);
		break;
	}
}

/* A PSI share, `unavailable` where the kernel has no PSI. */
static void put_pressure(FILE *f, const char *key, const struct machine_noise *n, enum machine_psi which)
{
	double pct = machine_noise_pressure_pct(n, which);

	put_or_unavailable(f, key, pct >= 0, "%.2f", pct);
}

/* The file system of a file workload's directory; `-` for a workload without one. */
static void write_workload_dir(const struct fs_info *fs, FILE *f)
{
	if (!fs->probed) {
		static const char *const keys[] = { "workload_dir", "workload_dir_fs", "workload_dir_fs_magic",
						    "workload_dir_mount_source", "workload_dir_mount_point" };

		for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
			put(f, keys[i], "-");
		return;
	}
	put_encoded(f, "workload_dir", fs->dir);
	put(f, "workload_dir_fs", "%s", fs->type);
	if (fs->statfs_ok)
		put(f, "workload_dir_fs_magic", "0x%llx", fs->magic);
	else
		put(f, "workload_dir_fs_magic", "unknown");
	put_encoded(f, "workload_dir_mount_source", fs->source);
	put_encoded(f, "workload_dir_mount_point", fs->mount_point);
}

static void write_noise(const struct machine_noise *n, FILE *f)
{
	const struct machine_noise_sample *a = &n->begin, *b = &n->end;
	double secs = n->taken ? b->t - a->t : 0, other = machine_noise_other_cpu_pct(n);
	double steal = machine_noise_steal_pct(n);

	put_or_unavailable(f, "noise_interval_s", n->taken, "%.4f", secs);
	put_or_unavailable(f, "noise_other_cpu_pct", other >= 0, "%.2f", other);
	put_or_unavailable(f, "noise_steal_pct", steal >= 0, "%.2f", steal);
	put_pressure(f, "noise_cpu_pressure_pct", n, MACHINE_PSI_CPU);
	put_pressure(f, "noise_io_pressure_pct", n, MACHINE_PSI_IO);
	put_pressure(f, "noise_memory_pressure_pct", n, MACHINE_PSI_MEMORY);
	put_or_unavailable(f, "noise_loadavg_1m", n->loadavg_ok, "%.2f", n->loadavg_1m);
	put_or_unavailable(f, "noise_procs_running", n->loadavg_ok, "%.0f", n->procs_running);
	put_or_unavailable(f, "noise_csw_involuntary", n->taken, "%.0f", (double)(b->csw_involuntary - a->csw_involuntary));
	put_or_unavailable(f, "noise_csw_involuntary_per_s", n->taken && secs > 0, "%.1f",
			   (double)(b->csw_involuntary - a->csw_involuntary) / secs);
	put_or_unavailable(f, "noise_cpu_mhz_begin", n->taken && a->mhz_ok, "%.0f", a->mhz);
	put_or_unavailable(f, "noise_cpu_mhz_end", n->taken && b->mhz_ok, "%.0f", b->mhz);
	put_or_unavailable(f, "noise_thermal_throttle", n->taken && a->throttle_ok && b->throttle_ok, "%.0f",
			   (double)(b->throttle - a->throttle));
	put_or_unavailable(f, "noise_temp_c_max", n->temp_ok, "%.1f", n->temp_c_max);
	put_busy(f, n);
}

/* A simulated run (--sim): which machine, from which seed, in which
 * semantics; "-" for a real run. */
static void write_sim(const struct bench_result *res, FILE *f)
{
	const struct bench_config *cfg = res->cfg;
	static const char *const semantics[] = {
		[BENCH_SIM_DEFAULT] = "-", [BENCH_SIM_KERNEL] = "kernel", [BENCH_SIM_USER] = "user",
	};

	put(f, "simulated", "%d", cfg->sim_profile != NULL);
	if (!cfg->sim_profile) {
		static const char *const keys[] = { "sim_profile", "sim_cpus", "sim_seed", "sim_semantics",
						    "sim_sched", "sim_acq_per_op" };

		for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
			put(f, keys[i], "-");
		return;
	}
	put_encoded(f, "sim_profile", cfg->sim_profile);
	put(f, "sim_cpus", "%u", res->sim_cpus);
	put(f, "sim_seed", "%llu", (unsigned long long)cfg->sim_seed);
	put(f, "sim_semantics", "%s", semantics[res->sim_semantics]);
	put(f, "sim_sched", "%s", res->sim_sched);
	put(f, "sim_acq_per_op", "%u", res->sim_acq_per_op);
}

void machine_write_meta(const struct bench_result *res, FILE *f)
{
	const struct machine_info *m = &res->machine;

	fprintf(f, "key,value\n");
	put(f, "format", "lockbench-meta-1");
	put(f, "date_utc", "%s", m->date_utc);
	put(f, "lockbench_commit", "%s", m->commit);
	put(f, "lockbench_build_id", "%s", m->build_id);
	put_encoded(f, "cmdline", res->cfg->cmdline);
	write_system(m, f);
	write_identity(m, f);
	write_kernel_env(&m->kernel, f);
	write_clock(m, f);
	write_placement(res, f);
	put(f, "probe_s", "%.4f", m->probe_s);
	write_workload_dir(&m->workload_dir, f);
	write_noise(&m->noise, f);
	write_sim(res, f);
	put(f, "warnings", "%u", m->nwarn);
	for (unsigned int i = 0; i < m->nwarn; i++) {
		char key[24];

		snprintf(key, sizeof(key), "warning_%u", i + 1);
		put(f, key, "%s", m->warn[i]);
	}
}
