/*
 * machine.c — the machine a result came from, and whether its clock can be
 * trusted.  Libraries where they know (libcpuid: the CPU; hwloc: the
 * topology; libnuma: NUMA), sysfs where only the kernel says (frequency
 * governor, boost, SMT control, clocksource).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <gnu/libc-version.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <libcpuid.h>

#include "buildid.h"
#include "machine.h"
#include "memory.h"
#include "topology.h"

#ifndef LOCKBENCH_GIT_COMMIT
#define LOCKBENCH_GIT_COMMIT "unknown"  /* the Makefile defines it */
#endif

#define SYS_CPU "/sys/devices/system/cpu"

enum { CPUID_EAX, CPUID_EBX, CPUID_ECX, CPUID_EDX };

static void warn(struct machine_info *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void warn(struct machine_info *m, const char *fmt, ...)
{
	va_list ap;

	if (m->nwarn >= MACHINE_WARN_MAX)
		return;
	va_start(ap, fmt);
	vsnprintf(m->warn[m->nwarn++], sizeof(m->warn[0]), fmt, ap);
	va_end(ap);
}

/* The first line of a sysfs file, newline dropped; false when absent. */
static bool read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	bool ok;

	if (!f)
		return false;
	ok = fgets(buf, (int)len, f) != NULL;
	fclose(f);
	if (ok)
		buf[strcspn(buf, "\n")] = '\0';
	return ok;
}

static void copy(char *dst, size_t len, const char *src)
{
	snprintf(dst, len, "%s", src);
}

/* ---- libcpuid ---- */

/* "... @ 2.40GHz": Intel brand strings name the nominal (TSC) frequency. */
static double brand_hz(const char *brand)
{
	const char *at = strrchr(brand, '@');
	char unit[4];
	double v;

	if (!at || sscanf(at + 1, " %lf%3s", &v, unit) != 2 || v <= 0)
		return 0;
	if (strcmp(unit, "GHz") == 0)
		return v * 1e9;
	if (strcmp(unit, "MHz") == 0)
		return v * 1e6;
	return 0;
}

/* The hypervisor's timing leaf (VMware's 0x40000010, also offered by KVM):
 * EAX is the TSC frequency in kHz. */
static double hypervisor_tsc_hz(void)
{
	uint32_t regs[4];

	cpu_exec_cpuid(0x40000000, regs);
	if (regs[CPUID_EAX] < 0x40000010 || regs[CPUID_EAX] > 0x400000ff)
		return 0;
	cpu_exec_cpuid(0x40000010, regs);
	return (double)regs[CPUID_EAX] * 1e3;
}

/*
 * The /proc/cpuinfo figure libcpuid's cpu_clock_by_os() reads is the kernel's
 * fixed boot-time cpu_khz only when neither cpufreq nor APERF/MPERF lets the
 * kernel report the current clock instead (arch/x86/kernel/cpu/proc.c); only
 * then does it describe the TSC.
 */
static bool os_mhz_is_fixed(const struct cpu_raw_data_t *raw)
{
	bool aperfmperf = raw->basic_cpuid[0][CPUID_EAX] >= 6 && (raw->basic_cpuid[6][CPUID_ECX] & 1);

	return !aperfmperf && access(SYS_CPU "/cpu0/cpufreq", F_OK) != 0;
}

/* What libcpuid knows of the TSC frequency, best source first. */
static void cpuid_tsc_hz(struct machine_info *m, const struct cpu_raw_data_t *raw,
			 const struct cpu_id_t *id)
{
	uint32_t max_basic = raw->basic_cpuid[0][CPUID_EAX];
	bool intel = id->vendor == VENDOR_INTEL;
	const uint32_t *l15 = raw->basic_cpuid[0x15], *l16 = raw->basic_cpuid[0x16];
	double hz;

	m->tsc_hz_cpuid = 0;
	m->tsc_hz_cpuid_source = "unknown";
	if (intel && max_basic >= 0x15 && l15[CPUID_EAX] && l15[CPUID_EBX] && l15[CPUID_ECX]) {
		/* crystal Hz * TSC/crystal ratio: the TSC's own frequency */
		m->tsc_hz_cpuid = (double)l15[CPUID_ECX] * l15[CPUID_EBX] / l15[CPUID_EAX];
		m->tsc_hz_cpuid_source = "cpuid-15h";
	} else if (intel && max_basic >= 0x16 && l16[CPUID_EAX]) {
		/* base frequency, MHz: the invariant TSC's rate on Intel parts */
		m->tsc_hz_cpuid = (double)l16[CPUID_EAX] * 1e6;
		m->tsc_hz_cpuid_source = "cpuid-16h";
	} else if (id->flags[CPU_FEATURE_HYPERVISOR] && (hz = hypervisor_tsc_hz()) > 0) {
		m->tsc_hz_cpuid = hz;
		m->tsc_hz_cpuid_source = "cpuid-40000010h";
	} else if (intel && (hz = brand_hz(id->brand_str)) > 0) {
		m->tsc_hz_cpuid = hz;
		m->tsc_hz_cpuid_source = "brand-string";
	} else if (m->cpu_mhz_os > 0 && os_mhz_is_fixed(raw)) {
		m->tsc_hz_cpuid = m->cpu_mhz_os * 1e6;
		m->tsc_hz_cpuid_source = "os-cpu-mhz";
	}
}

static const char *hypervisor_name(hypervisor_vendor_t hv)
{
	static const char *const names[] = {
		[HYPERVISOR_NONE] = "none", [HYPERVISOR_BHYVE] = "bhyve", [HYPERVISOR_HYPERV] = "hyper-v",
		[HYPERVISOR_KVM] = "kvm", [HYPERVISOR_PARALLELS] = "parallels", [HYPERVISOR_QEMU] = "qemu",
		[HYPERVISOR_VIRTUALBOX] = "virtualbox", [HYPERVISOR_VMWARE] = "vmware", [HYPERVISOR_XEN] = "xen",
	};

	if (hv >= 0 && hv < NUM_HYPERVISOR_VENDORS && names[hv])
		return names[hv];
	return "unknown";
}

static void identify_cpu(struct machine_info *m)
{
	struct cpu_raw_data_t raw;
	struct cpu_id_t id;

	cpuid_set_warn_function(NULL);  /* its warnings are not ours to print */
	m->cpu_mhz_os = cpu_clock_by_os();
	if (!cpuid_present() || cpuid_get_raw_data(&raw) != 0 || cpu_identify(&raw, &id) != 0) {
		copy(m->cpuid_error, sizeof(m->cpuid_error), cpuid_error());
		m->tsc_hz_cpuid_source = "unknown";
		warn(m, "libcpuid cannot identify this CPU (%s): CPU identity and TSC flags unknown",
		     m->cpuid_error);
		return;
	}
	m->cpuid_ok = true;
	copy(m->vendor, sizeof(m->vendor), id.vendor_str);
	copy(m->brand, sizeof(m->brand), id.brand_str);
	copy(m->codename, sizeof(m->codename), id.cpu_codename);
	copy(m->hypervisor, sizeof(m->hypervisor), hypervisor_name(cpuid_get_hypervisor(&raw, &id)));
	m->family = id.ext_family;
	m->model = id.ext_model;
	m->stepping = id.stepping;
	m->cores = id.num_cores;
	m->logical = id.num_logical_cpus;
	m->total_logical = id.total_logical_cpus;
	m->l1d_kib = id.l1_data_cache;
	m->l1i_kib = id.l1_instruction_cache;
	m->l2_kib = id.l2_cache;
	m->l3_kib = id.l3_cache;
	m->tsc = id.flags[CPU_FEATURE_TSC];
	/* libcpuid's CONSTANT_TSC is CPUID 80000007h EDX[8], "invariant TSC":
	 * constant rate across P-states and ticking through deep C-states
	 * (Linux shows it as constant_tsc + nonstop_tsc). */
	m->tsc_invariant = id.flags[CPU_FEATURE_CONSTANT_TSC];
	m->rdtscp = id.flags[CPU_FEATURE_RDTSCP];
	cpuid_tsc_hz(m, &raw, &id);
}

/* ---- the system ---- */

/* Each CPU's value of a per-CPU sysfs file, joined with '/' when they differ. */
static void per_cpu_value(const int *cpus, unsigned int n, const char *leaf, char *out, size_t len)
{
	out[0] = '\0';
	for (unsigned int i = 0; i < n; i++) {
		char path[128], value[64];

		snprintf(path, sizeof(path), SYS_CPU "/cpu%d/cpufreq/%s", cpus[i], leaf);
		if (!read_line(path, value, sizeof(value)) || strstr(out, value))
			continue;
		if (out[0])
			strncat(out, "/", len - strlen(out) - 1);
		strncat(out, value, len - strlen(out) - 1);
	}
	if (!out[0])
		copy(out, len, "unavailable");
}

static void boost_state(char *out, size_t len)
{
	char v[16];

	if (read_line(SYS_CPU "/intel_pstate/no_turbo", v, sizeof(v)))
		snprintf(out, len, "%s (intel_pstate no_turbo=%s)", strcmp(v, "0") == 0 ? "on" : "off", v);
	else if (read_line(SYS_CPU "/cpufreq/boost", v, sizeof(v)))
		snprintf(out, len, "%s (cpufreq boost=%s)", strcmp(v, "1") == 0 ? "on" : "off", v);
	else if (read_line(SYS_CPU "/cpufreq/policy0/boost", v, sizeof(v)))
		snprintf(out, len, "%s (policy0 boost=%s)", strcmp(v, "1") == 0 ? "on" : "off", v);
	else
		copy(out, len, "unavailable");
}

static void identify_system(struct machine_info *m, const int *cpus, unsigned int n)
{
	struct utsname u;
	time_t now = time(NULL);
	struct tm tm;

	if (uname(&u) == 0) {
		copy(m->hostname, sizeof(m->hostname), u.nodename);
		copy(m->os, sizeof(m->os), u.sysname);
		copy(m->kernel_release, sizeof(m->kernel_release), u.release);
		copy(m->kernel_version, sizeof(m->kernel_version), u.version);
		copy(m->arch, sizeof(m->arch), u.machine);
	}
	snprintf(m->glibc, sizeof(m->glibc), "%s", gnu_get_libc_version());
	if (!read_line("/sys/devices/system/clocksource/clocksource0/current_clocksource",
		       m->clocksource, sizeof(m->clocksource)))
		copy(m->clocksource, sizeof(m->clocksource), "unavailable");
	per_cpu_value(cpus, n, "scaling_governor", m->governor, sizeof(m->governor));
	per_cpu_value(cpus, n, "scaling_driver", m->cpufreq_driver, sizeof(m->cpufreq_driver));
	boost_state(m->boost, sizeof(m->boost));
	if (!read_line(SYS_CPU "/smt/control", m->smt_control, sizeof(m->smt_control)))
		copy(m->smt_control, sizeof(m->smt_control), "unavailable");
	if (!read_line(SYS_CPU "/smt/active", m->smt_active, sizeof(m->smt_active)))
		copy(m->smt_active, sizeof(m->smt_active), "unavailable");
	m->numa = mem_numa();
	machine_build_commit(m);
	gmtime_r(&now, &tm);
	strftime(m->date_utc, sizeof(m->date_utc), "%Y-%m-%dT%H:%M:%SZ", &tm);
}

void machine_build_commit(struct machine_info *m)
{
	copy(m->commit, sizeof(m->commit), LOCKBENCH_GIT_COMMIT);
	build_id_self(m->build_id, sizeof(m->build_id));
}

/* ---- hwloc ---- */

/* The usable CPUs as a list of ints (malloc'd); 0 on failure. */
static unsigned int usable_cpu_list(int **out)
{
	char err[256];
	hwloc_topology_t topo = topology_get(err, sizeof(err));
	hwloc_bitmap_t usable = topo ? topology_usable_cpus(topo, err, sizeof(err)) : NULL;
	unsigned int n = 0;
	int id;

	*out = NULL;
	if (!usable)
		return 0;
	*out = malloc(sizeof(int) * (size_t)hwloc_bitmap_weight(usable));
	if (*out) {
		hwloc_bitmap_foreach_begin(id, usable)
			(*out)[n++] = id;
		hwloc_bitmap_foreach_end();
	}
	hwloc_bitmap_free(usable);
	return n;
}

static void identify_topology(struct machine_info *m)
{
	char err[256];
	hwloc_topology_t topo = topology_get(err, sizeof(err));
	hwloc_bitmap_t usable = topo ? topology_usable_cpus(topo, err, sizeof(err)) : NULL;

	if (!usable) {
		warn(m, "hwloc: %s: topology unknown", err);
		copy(m->usable_cpus, sizeof(m->usable_cpus), "unknown");
		return;
	}
	m->packages = topology_count(topo, HWLOC_OBJ_PACKAGE);
	m->numa_nodes = topology_count(topo, HWLOC_OBJ_NUMANODE);
	m->hw_cores = topology_count(topo, HWLOC_OBJ_CORE);
	m->pus = topology_count(topo, HWLOC_OBJ_PU);
	m->pus_usable = (unsigned int)hwloc_bitmap_weight(usable);
	hwloc_bitmap_list_snprintf(m->usable_cpus, sizeof(m->usable_cpus), usable);
	for (char *c = m->usable_cpus; (c = strchr(c, ',')) != NULL;)
		*c = ' ';
	hwloc_bitmap_free(usable);
}

/* The distinct pinned CPUs, or every usable CPU when none is pinned
 * (malloc'd; *n set). */
static int *run_cpus(const int *cpu_of_thread, unsigned int nthreads, unsigned int *n)
{
	int *cpus = malloc(sizeof(int) * (nthreads ? nthreads : 1));

	*n = 0;
	for (unsigned int i = 0; cpus && i < nthreads; i++) {
		bool seen = cpu_of_thread[i] < 0;

		for (unsigned int j = 0; j < *n && !seen; j++)
			seen = cpus[j] == cpu_of_thread[i];
		if (!seen)
			cpus[(*n)++] = cpu_of_thread[i];
	}
	if (cpus && *n == 0) {
		free(cpus);
		*n = usable_cpu_list(&cpus);
	}
	return cpus;
}

void machine_identify(struct machine_info *m, const int *cpus, unsigned int n)
{
	memset(m, 0, sizeof(*m));
	m->tsc_hz_cpuid_source = "unknown";
	m->skew.ref_cpu = m->skew.worst_cpu = -1;
	identify_cpu(m);
	identify_topology(m);
	identify_system(m, cpus, n);
	kernel_env_probe(&m->kernel);
}

/* ---- the clock ---- */

/* Written so that a NaN (a calibration gone wrong) disagrees too. */
bool machine_tsc_rate_agrees(const struct machine_info *m)
{
	return fabs(m->tsc_hz_diff) <= MACHINE_TSC_TOLERANCE;
}

static void check_clock(struct machine_info *m)
{
	if (m->cpuid_ok && !m->tsc_invariant)
		warn(m, "TSC is not invariant (CPUID 80000007h EDX[8] clear): its rate may follow "
			"P-states or stop in deep C-states, so cycle counts are not time");
	if (m->tsc_hz_cpuid > 0) {
		m->tsc_hz_diff = (m->tsc_hz - m->tsc_hz_cpuid) / m->tsc_hz_cpuid;
		if (!machine_tsc_rate_agrees(m))
			warn(m, "TSC rate: calibrated %.4f GHz but libcpuid says %.4f GHz (%s), %+.2f%% apart "
				"(tolerance %.0f%%)", m->tsc_hz / 1e9, m->tsc_hz_cpuid / 1e9,
			     m->tsc_hz_cpuid_source, 100 * m->tsc_hz_diff, 100 * MACHINE_TSC_TOLERANCE);
	}
	if (m->skew_status)
		warn(m, "cross-CPU TSC check could not run: %s", strerror(m->skew_status));
	else if (m->skew.backwards)
		warn(m, "TSC not ordered across CPUs: %u of %u CPU pair(s) saw a timestamp read later "
			"come out up to %llu cycles smaller; cross-CPU cycle figures are suspect",
		     m->skew.backwards, m->skew.pairs, (unsigned long long)m->skew.backwards_max);
	if (!m->skew_status && m->skew.aborted)
		warn(m, "cross-CPU TSC check cut short: a CPU stopped answering (oversubscribed?)");
	if (!m->skew_status && m->skew.unreachable)
		warn(m, "cross-CPU TSC check could not run on %u CPU(s)", m->skew.unreachable);
}

void machine_probe(struct machine_info *m, const int *cpu_of_thread, unsigned int nthreads)
{
	double t0 = mono_now_s();
	unsigned int n;
	int *cpus = run_cpus(cpu_of_thread, nthreads, &n);

	machine_identify(m, cpus, n);
	m->calibration_s = MACHINE_CALIBRATION_S;
	m->tsc_hz = tsc_calibrate_hz(MACHINE_CALIBRATION_S);
	if (!cpus)
		m->skew_status = ENOMEM;
	else if (tsc_skew_check(cpus, n, MACHINE_SKEW_BUDGET_S, 0, &m->skew) != 0)
		m->skew_status = errno ? errno : EIO;
	check_clock(m);
	free(cpus);
	m->probe_s = mono_now_s() - t0;
	for (unsigned int i = 0; i < m->nwarn; i++)
		fprintf(stderr, "lockbench: WARNING: %s\n", m->warn[i]);
}

/* ---- noise: what else the machine did over the measured interval ---- */

/* /proc/stat's first line: all CPUs' ticks since boot. */
static bool read_proc_stat(struct machine_noise_sample *s)
{
	unsigned long long v[8] = { 0 };  /* user nice system idle iowait irq softirq steal */
	FILE *f = fopen("/proc/stat", "r");
	int n;

	if (!f)
		return false;
	n = fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5],
		   &v[6], &v[7]);
	fclose(f);
	if (n < 4)
		return false;
	/* guest time is counted in user already */
	s->busy = v[0] + v[1] + v[2] + v[5] + v[6];
	s->steal = v[7];
	s->total = s->busy + v[3] + v[4] + v[7];
	return true;
}

/* PSI's "some" line of /proc/pressure/FILE: the time, us since boot, in
 * which some task waited for a CPU (cpu), for I/O (io) or for memory
 * (memory: reclaim, swap-in, thrashing). */
static const char *const psi_file[MACHINE_PSI_NR] = {
	[MACHINE_PSI_CPU] = "cpu", [MACHINE_PSI_IO] = "io", [MACHINE_PSI_MEMORY] = "memory",
};

static bool read_pressure(const char *file, double *total_us)
{
	char line[256], path[64];
	FILE *f;
	bool ok = false;

	snprintf(path, sizeof(path), "/proc/pressure/%s", file);
	if (!(f = fopen(path, "r")))
		return false;
	while (!ok && fgets(line, sizeof(line), f)) {
		const char *t = strstr(line, "total=");

		ok = strncmp(line, "some ", 5) == 0 && t && sscanf(t, "total=%lf", total_us) == 1;
	}
	fclose(f);
	return ok;
}

/* Sums (or averages) a per-CPU sysfs number over every CPU that has it. */
static bool per_cpu_sum(const char *leaf, double *sum, unsigned int *count)
{
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);

	*sum = 0;
	*count = 0;
	for (long c = 0; c < ncpu; c++) {
		char path[160], value[32];

		snprintf(path, sizeof(path), SYS_CPU "/cpu%ld/%s", c, leaf);
		if (read_line(path, value, sizeof(value))) {
			*sum += strtod(value, NULL);
			(*count)++;
		}
	}
	return *count > 0;
}

static void noise_sample(struct machine_noise_sample *s)
{
	struct rusage ru;
	double sum, sum2;
	unsigned int n, n2;

	s->t = mono_now_s();
	s->stat_ok = read_proc_stat(s);
	if (getrusage(RUSAGE_SELF, &ru) == 0) {
		s->self_cpu_s = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
				(double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
		s->csw_involuntary = ru.ru_nivcsw;
	}
	for (int p = 0; p < MACHINE_PSI_NR; p++)
		s->psi_ok[p] = read_pressure(psi_file[p], &s->psi_us[p]);
	s->mhz_ok = per_cpu_sum("cpufreq/scaling_cur_freq", &sum, &n);
	s->mhz = n ? sum / n / 1000 : 0;  /* kHz */
	s->throttle_ok = per_cpu_sum("thermal_throttle/core_throttle_count", &sum, &n);
	per_cpu_sum("thermal_throttle/package_throttle_count", &sum2, &n2);
	s->throttle = (unsigned long long)(sum + sum2);
}

/* The hottest thermal zone, deg C. */
static bool max_temperature(double *celsius)
{
	bool any = false;

	for (int z = 0; z < 256; z++) {
		char path[96], value[32];

		snprintf(path, sizeof(path), "/sys/class/thermal/thermal_zone%d/temp", z);
		if (!read_line(path, value, sizeof(value))) {
			if (access(path, F_OK) != 0 && z > 0 && !any)
				break;
			continue;
		}
		if (!any || strtod(value, NULL) / 1000 > *celsius)
			*celsius = strtod(value, NULL) / 1000;
		any = true;
	}
	return any;
}

void machine_noise_begin(struct machine_noise *n)
{
	memset(n, 0, sizeof(*n));
	noise_sample(&n->begin);
}

void machine_noise_end(struct machine_noise *n)
{
	FILE *f;
	int running, all;

	noise_sample(&n->end);
	f = fopen("/proc/loadavg", "r");
	if (f) {
		n->loadavg_ok = fscanf(f, "%lf %*f %*f %d/%d", &n->loadavg_1m, &running, &all) == 3;
		n->procs_running = running;
		fclose(f);
	}
	n->temp_ok = max_temperature(&n->temp_c_max);
	n->taken = true;
}

/* What /proc/stat's ticks over the interval say, as % of all of them. */
static bool stat_delta(const struct machine_noise *n, double *ticks)
{
	if (!n->taken || !n->begin.stat_ok || !n->end.stat_ok || n->end.total <= n->begin.total)
		return false;
	*ticks = (double)(n->end.total - n->begin.total);
	return true;
}

double machine_noise_other_cpu_pct(const struct machine_noise *n)
{
	double ticks, busy, self;

	if (!stat_delta(n, &ticks))
		return -1;
	busy = (double)(n->end.busy - n->begin.busy);
	self = (n->end.self_cpu_s - n->begin.self_cpu_s) * (double)sysconf(_SC_CLK_TCK);
	/* Ticks are sampled, the process's own time is exact: a little either way. */
	return busy > self ? 100 * (busy - self) / ticks : 0;
}

double machine_noise_steal_pct(const struct machine_noise *n)
{
	double ticks;

	if (!stat_delta(n, &ticks))
		return -1;
	return 100 * (double)(n->end.steal - n->begin.steal) / ticks;
}

double machine_noise_pressure_pct(const struct machine_noise *n, enum machine_psi which)
{
	const struct machine_noise_sample *a = &n->begin, *b = &n->end;
	double secs = n->taken ? b->t - a->t : 0;

	if (!n->taken || secs <= 0 || !a->psi_ok[which] || !b->psi_ok[which])
		return -1;
	return (b->psi_us[which] - a->psi_us[which]) / (secs * 1e4);  /* us over s, as % */
}

enum machine_busy machine_noise_busy(const struct machine_noise *n, char *why, size_t len)
{
	double other = machine_noise_other_cpu_pct(n), steal = machine_noise_steal_pct(n);
	double io = machine_noise_pressure_pct(n, MACHINE_PSI_IO);
	char io_text[32] = "unavailable";
	bool cpu_busy = other > MACHINE_BUSY_OTHER_PCT || steal > MACHINE_BUSY_STEAL_PCT;

	if (!cpu_busy && io <= MACHINE_BUSY_IO_PRESSURE_PCT)
		return other < 0 ? MACHINE_BUSY_UNKNOWN : MACHINE_BUSY_NO;
	if (io >= 0)
		snprintf(io_text, sizeof(io_text), "%.1f%%", io);
	if (other >= 0)
		snprintf(why, len, "other processes %.1f%% of the CPU time; steal %.1f%%; I/O pressure %s", other,
			 steal, io_text);
	else
		snprintf(why, len, "I/O pressure %s", io_text);
	return MACHINE_BUSY_YES;
}

/* ---- the summary ---- */

bool machine_skew_loose(const struct machine_info *m)
{
	return m->skew.pairs && (double)m->skew.bound > m->tsc_hz * MACHINE_SKEW_LOOSE_S;
}

/* After the skew line's verdict: what a bound too wide to order anything means. */
#define SKEW_LOOSE_WORDS "; the bound is too wide to order anything timed across CPUs (a busy machine delayed the check)"

void machine_print_summary(const struct machine_info *m, FILE *out)
{
	fprintf(out, "  clock           TSC %.4f GHz calibrated", m->tsc_hz / 1e9);
	if (m->tsc_hz_cpuid > 0)
		fprintf(out, ", %.4f GHz by libcpuid (%s), %+.2f%%", m->tsc_hz_cpuid / 1e9,
			m->tsc_hz_cpuid_source, 100 * m->tsc_hz_diff);
	else
		fprintf(out, ", libcpuid frequency unknown");
	fprintf(out, "; invariant %s\n", !m->cpuid_ok ? "unknown" : m->tsc_invariant ? "yes" : "NO");
	if (m->skew.pairs)
		fprintf(out, "  TSC skew        %u CPU(s) vs CPU %d: |offset| < %llu cycles, worst estimate %+lld "
			"on CPU %d; %s%s\n", m->skew.cpus, m->skew.ref_cpu, (unsigned long long)m->skew.bound,
			(long long)m->skew.worst_offset, m->skew.worst_cpu,
			m->skew.backwards ? "NOT ordered" : "ordered", machine_skew_loose(m) ? SKEW_LOOSE_WORDS : "");
	else
		fprintf(out, "  TSC skew        not checked (%u CPU)\n", m->skew.cpus);
	for (unsigned int i = 0; i < m->nwarn; i++)
		fprintf(out, "  WARNING: %s\n", m->warn[i]);
}
