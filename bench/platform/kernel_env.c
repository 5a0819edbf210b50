/*
 * kernel_env.c — what decides the running kernel's mutex behaviour, read
 * from userspace (kernel_env.h).  Sources, each named in what it records:
 *
 * - the build config: /proc/config.gz (CONFIG_IKCONFIG_PROC; gzip, read with
 *   zlib where lockbench was built with it), else /boot/config-RELEASE;
 * - the preemption mode.  With PREEMPT_DYNAMIC the mode is chosen at boot
 *   (preempt= on the command line, else the config's CONFIG_PREEMPT_NONE /
 *   _VOLUNTARY / CONFIG_PREEMPT / _LAZY default) and can be changed later
 *   through debugfs sched/preempt, which prints the modes with the current
 *   one in parentheses and which lockdown refuses; each change, the boot's
 *   included, logs "Dynamic Preempt: MODE", so the last such line of the
 *   kernel log is the current mode while the log still holds one.  Without
 *   PREEMPT_DYNAMIC the config says, or uname -v (PREEMPT_RT, PREEMPT_LAZY,
 *   PREEMPT; nothing for none and voluntary alike);
 * - paravirt vcpu_is_preempted(): the mutex spinner's owner_on_cpu() asks
 *   it, and on x86 it is the native "always false" unless a KVM guest kernel
 *   with CONFIG_PARAVIRT_SPINLOCKS found KVM_FEATURE_STEAL_TIME (CPUID
 *   0x40000001 EAX bit 5, KVM's leaves found by their "KVMKVMKVM" signature
 *   at 0x40000000 + n * 0x100), in which case it reads the preempted flag
 *   the host sets in the guest's steal-time area.  The hypervisor the kernel
 *   detected is its own word in the kernel log ("Hypervisor detected: KVM");
 *   userspace CPUID is only believed when the kernel names KVM too (under
 *   some hypervisors CPUID from userspace answers differently from the
 *   kernel's: on this project's PVM guests it reads "bhyve bhyve ").
 */
#define _GNU_SOURCE
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <sys/utsname.h>
#ifdef LOCKBENCH_ZLIB
#include <zlib.h>
#endif
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#define KERNEL_ENV_X86 1
#endif

#include "kernel_env.h"
#include "sysfile.h"

#define TEXT_MAX (8u << 20)   /* the longest config or kernel log read */

static const char *const preempt_modes[] = { "none", "voluntary", "full", "lazy", "rt" };

#define set(field, ...) snprintf(field, sizeof(field), __VA_ARGS__)

/* A whole small file, NUL-terminated (malloc'd), or NULL. */
static char *read_text(const char *path)
{
	return sysfile_read(path, TEXT_MAX, NULL);
}

#ifdef LOCKBENCH_ZLIB
static long next_gzip(void *src, char *buf, size_t n)
{
	return gzread(src, buf, (unsigned int)n);
}

/* A gzip file's text (malloc'd), or NULL: not there, not gzip, cut short. */
static char *read_gzip(const char *path)
{
	gzFile g = gzopen(path, "rb");
	char *text = g ? sysfile_read_from(next_gzip, g, TEXT_MAX, NULL) : NULL;

	if (g)
		gzclose(g);
	return text;
}
#endif

/* The build config's text (malloc'd), or NULL with e->config saying why. */
static char *read_config(struct kernel_env *e, const char *release)
{
	char path[96];
	char *text = NULL;

#ifdef LOCKBENCH_ZLIB
	text = read_gzip("/proc/config.gz");
	if (text) {
		set(e->config, "/proc/config.gz");
		return text;
	}
#endif
	snprintf(path, sizeof(path), "/boot/config-%s", release);
	text = read_text(path);
	if (text)
		set(e->config, "%s", path);
	else
#ifdef LOCKBENCH_ZLIB
		set(e->config, "unavailable (no /proc/config.gz, no %s)", path);
#else
		set(e->config, "unavailable (no %s; /proc/config.gz needs zlib, which this lockbench was built without)", path);
#endif
	return text;
}

/* The config's value of `name` ("y", "m", a number...), "n" for "# NAME is
 * not set" or a name it does not have (Kconfig leaves unset symbols without
 * a prompt out), NULL without a config. */
static const char *config_value(const char *config, const char *name, char *buf, size_t len)
{
	size_t n = strlen(name);

	if (!config)
		return NULL;
	for (const char *line = config; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL)
		if (strncmp(line, name, n) == 0 && line[n] == '=') {
			size_t v = strcspn(line + n + 1, "\n");

			snprintf(buf, len, "%.*s", (int)v, line + n + 1);
			return buf;
		}
	snprintf(buf, len, "n");
	return buf;
}

static bool config_yes(const char *config, const char *name)
{
	char v[16];
	const char *s = config_value(config, name, v, sizeof(v));

	return s && strcmp(s, "y") == 0;
}

/* The word after the last `marker` in `text` (a preemption mode, a
 * hypervisor's name), or false. */
static bool last_word_after(const char *text, const char *marker, char *out, size_t len)
{
	const char *hit = NULL;

	for (const char *p = text; p && (p = strstr(p, marker)) != NULL; p += strlen(marker))
		hit = p + strlen(marker);
	if (!hit)
		return false;
	snprintf(out, len, "%.*s", (int)strcspn(hit, " \t\n\r,()"), hit);
	return out[0] != '\0';
}

static bool preempt_mode(const char *word)
{
	for (size_t i = 0; i < sizeof(preempt_modes) / sizeof(preempt_modes[0]); i++)
		if (strcmp(word, preempt_modes[i]) == 0)
			return true;
	return false;
}

/* The kernel log (malloc'd), or NULL: dmesg_restrict without CAP_SYSLOG. */
static char *read_kernel_log(void)
{
	int size = klogctl(10 /* SYSLOG_ACTION_SIZE_BUFFER */, NULL, 0);
	char *buf;
	int got;

	if (size <= 0 || (unsigned int)size > TEXT_MAX || !(buf = malloc((size_t)size + 1)))
		return NULL;
	got = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, buf, size);
	if (got < 0) {
		free(buf);
		return NULL;
	}
	buf[got] = '\0';
	return buf;
}

/* The config's CONFIG_PREEMPT* choice: a mode, or NULL. */
static const char *config_preempt(const char *config)
{
	if (config_yes(config, "CONFIG_PREEMPT_RT"))
		return "rt";
	if (config_yes(config, "CONFIG_PREEMPT_LAZY"))
		return "lazy";
	if (config_yes(config, "CONFIG_PREEMPT"))
		return "full";
	if (config_yes(config, "CONFIG_PREEMPT_VOLUNTARY"))
		return "voluntary";
	if (config_yes(config, "CONFIG_PREEMPT_NONE"))
		return "none";
	return NULL;
}

/* PREEMPT_DYNAMIC: the current mode, from the most direct source there is. */
static void dynamic_preempt(struct kernel_env *e, const char *config, const char *log)
{
	char *debugfs = read_text("/sys/kernel/debug/sched/preempt");
	char *cmdline = read_text("/proc/cmdline");
	char word[16];
	const char *def = config_preempt(config);

	if (debugfs && last_word_after(debugfs, "(", word, sizeof(word)) && preempt_mode(word)) {
		set(e->preempt, "%s", word);
		set(e->preempt_source, "debugfs sched/preempt");
	} else if (log && last_word_after(log, "Dynamic Preempt: ", word, sizeof(word)) && preempt_mode(word)) {
		set(e->preempt, "%s", word);
		set(e->preempt_source, "kernel log: the last 'Dynamic Preempt' line (PREEMPT_DYNAMIC)");
	} else if (cmdline && last_word_after(cmdline, " preempt=", word, sizeof(word)) && preempt_mode(word)) {
		set(e->preempt, "%s", word);
		set(e->preempt_source, "the boot's: preempt= on the command line (PREEMPT_DYNAMIC; debugfs may have changed it)");
	} else if (def) {
		set(e->preempt, "%s", def);
		set(e->preempt_source, "the boot's: the config's default (PREEMPT_DYNAMIC; no preempt= on the command line; "
					"debugfs may have changed it)");
	} else {
		set(e->preempt, "unknown");
		set(e->preempt_source, "PREEMPT_DYNAMIC, and no debugfs, kernel log line, preempt= or config to tell");
	}
	free(debugfs);
	free(cmdline);
}

static void preemption(struct kernel_env *e, const char *config, const char *log, const char *version)
{
	const char *mode = config_preempt(config);

	if (config ? config_yes(config, "CONFIG_PREEMPT_DYNAMIC") : strstr(version, "PREEMPT_DYNAMIC") != NULL) {
		dynamic_preempt(e, config, log);
		return;
	}
	if (mode) {
		set(e->preempt, "%s", mode);
		set(e->preempt_source, "the config (no PREEMPT_DYNAMIC)");
		return;
	}
	mode = strstr(version, "PREEMPT_RT") ? "rt" : strstr(version, "PREEMPT_LAZY") ? "lazy" :
	       strstr(version, " PREEMPT ") ? "full" : NULL;
	set(e->preempt, "%s", mode ? mode : "unknown");
	set(e->preempt_source, "%s", mode ? "uname -v" : "no config, and uname -v names none (none and voluntary alike)");
}

/* Whether the kernel runs under a hypervisor (its cpuinfo "hypervisor"
 * flag): 1, 0, -1 unknown. */
static int cpuinfo_hypervisor(void)
{
	char *cpuinfo = read_text("/proc/cpuinfo");
	const char *flags = cpuinfo ? strstr(cpuinfo, "\nflags") : NULL;
	int yes = -1;

	if (flags) {
		size_t n = strcspn(flags + 1, "\n");
		char *line = strndup(flags + 1, n);

		yes = line && (strstr(line, " hypervisor ") || (n >= 11 && strcmp(line + n - 11, " hypervisor") == 0));
		free(line);
	}
	free(cpuinfo);
	return yes;
}

/* KVM's CPUID leaves, found by signature: their feature word (EAX of base
 * + 1), true; and what CPUID's first hypervisor leaf says, in `said`. */
static bool cpuid_kvm(uint32_t *features, char *said, size_t len)
{
#ifdef KERNEL_ENV_X86
	unsigned int a, b, c, d;
	char sig[13];

	snprintf(said, len, "none");
	__cpuid(1, a, b, c, d);
	if (!(c & (1u << 31)))
		return false;
	for (unsigned int base = 0x40000000; base < 0x40010000; base += 0x100) {
		__cpuid(base, a, b, c, d);
		memcpy(sig, &b, 4);
		memcpy(sig + 4, &c, 4);
		memcpy(sig + 8, &d, 4);
		sig[12] = '\0';
		for (int i = 0; i < 12; i++)
			if (sig[i] && (sig[i] < 0x20 || sig[i] > 0x7e || sig[i] == ','))
				sig[i] = '?';
		if (base == 0x40000000)
			snprintf(said, len, "'%s' at 0x40000000", sig);
		if (strcmp(sig, "KVMKVMKVM") == 0 && a >= base + 1) {
			__cpuid(base + 1, a, b, c, d);
			*features = a;
			snprintf(said, len, "KVMKVMKVM at %#x, features %#x", base, a);
			return true;
		}
	}
#else
	(void)features;
	snprintf(said, len, "unknown (not x86)");
#endif
	return false;
}

#define KVM_FEATURE_STEAL_TIME 5

static void vcpu_preempted(struct kernel_env *e, const char *config, const char *log)
{
	int hv = cpuinfo_hypervisor();
	uint32_t features = 0;
	bool kvm_leaves = cpuid_kvm(&features, e->cpuid_hypervisor, sizeof(e->cpuid_hypervisor));

	if (!log || !last_word_after(log, "Hypervisor detected: ", e->hypervisor, sizeof(e->hypervisor)))
		set(e->hypervisor, "%s", hv == 0 ? "none" : "unknown");
#ifndef KERNEL_ENV_X86
	set(e->vcpu_preempted, "unknown");
	set(e->vcpu_preempted_why, "this probe reads x86's paravirt signals only");
	return;
#endif
	if (config && !config_yes(config, "CONFIG_PARAVIRT_SPINLOCKS")) {
		set(e->vcpu_preempted, "no");
		set(e->vcpu_preempted_why, "CONFIG_PARAVIRT_SPINLOCKS is off: the native one, always false");
	} else if (hv == 0) {
		set(e->vcpu_preempted, "no");
		set(e->vcpu_preempted_why, "no hypervisor (/proc/cpuinfo): the native one, always false");
	} else if (strcmp(e->hypervisor, "KVM") == 0 && config && kvm_leaves) {
		bool steal = features & (1u << KVM_FEATURE_STEAL_TIME);

		set(e->vcpu_preempted, "%s", steal ? "yes" : "no");
		set(e->vcpu_preempted_why, "KVM guest (kernel log) with CONFIG_PARAVIRT_SPINLOCKS; KVM_FEATURE_STEAL_TIME %s "
			"(CPUID): %s", steal ? "set" : "clear", steal ? "reads the host's preempted flag" : "the native one");
	} else {
		set(e->vcpu_preempted, "unknown");
		set(e->vcpu_preempted_why, "%s", !config ? "no config to tell CONFIG_PARAVIRT_SPINLOCKS" :
			strcmp(e->hypervisor, "unknown") == 0 ? "the kernel log does not say which hypervisor the kernel detected" :
			strcmp(e->hypervisor, "KVM") == 0 ? "the kernel detected KVM but userspace CPUID shows no KVM leaves" :
			"the kernel detected another hypervisor than KVM (kernel_hypervisor); this probe knows KVM's signal only");
	}
}

void kernel_env_probe(struct kernel_env *e)
{
	struct utsname u;
	char *config, *log = read_kernel_log();
	char v[16];
	const char *spin;

	memset(e, 0, sizeof(*e));
	if (uname(&u) != 0)
		memset(&u, 0, sizeof(u));
	config = read_config(e, u.release);
	spin = config_value(config, "CONFIG_MUTEX_SPIN_ON_OWNER", v, sizeof(v));
	set(e->spin_on_owner, "%s", spin ? spin : "unknown");
	preemption(e, config, log, u.version);
	vcpu_preempted(e, config, log);
	free(config);
	free(log);
}

void kernel_env_print(const struct kernel_env *e, FILE *out)
{
	fprintf(out, "  kernel env      CONFIG_MUTEX_SPIN_ON_OWNER %s; preempt %s (%s); vcpu_is_preempted %s (%s)\n",
		e->spin_on_owner, e->preempt, e->preempt_source, e->vcpu_preempted, e->vcpu_preempted_why);
}
