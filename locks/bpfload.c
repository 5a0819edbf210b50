/* bpfload.c — see bpfload.h. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "bpfload.h"

#ifdef LOCKBENCH_BPF
#include <bpf/libbpf.h>
#include <linux/capability.h>
#endif

void bpfload_why(char *why, size_t whylen, const char *fmt, ...)
{
	va_list ap;

	if (!why || !whylen)
		return;
	va_start(ap, fmt);
	vsnprintf(why, whylen, fmt, ap);
	va_end(ap);
}

/* libbpf's last warning, to name the cause in one line. */
static char libbpf_last[256];

void bpfload_failed(int err, char *why, size_t whylen)
{
	bpfload_why(why, whylen, "BPF load failed (%s)%s%s", strerror(err < 0 ? -err : err),
		    libbpf_last[0] ? ": " : "", libbpf_last);
}

#ifdef LOCKBENCH_BPF

static libbpf_print_fn_t libbpf_print_before;

static int libbpf_capture(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	char line[sizeof(libbpf_last)];
	char *nl;

	if (level != LIBBPF_WARN)
		return 0;
	vsnprintf(line, sizeof(line), fmt, ap);
	nl = strchr(line, '\n');
	if (nl)
		*nl = '\0';
	if (line[0])
		memcpy(libbpf_last, line, sizeof(line));
	return 0;
}

void bpfload_quiet_begin(void)
{
	libbpf_last[0] = '\0';
	libbpf_print_before = libbpf_set_print(libbpf_capture);
}

void bpfload_quiet_end(void)
{
	libbpf_set_print(libbpf_print_before);
}

/* Tracing programs need CAP_BPF + CAP_PERFMON (or CAP_SYS_ADMIN). */
static bool may_trace(void)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[2];
	uint64_t eff;

	if (syscall(SYS_capget, &hdr, data) != 0)
		return geteuid() == 0;
	eff = (uint64_t)data[1].effective << 32 | data[0].effective;
	if (eff & (UINT64_C(1) << CAP_SYS_ADMIN))
		return true;
	return (eff & (UINT64_C(1) << 39)) && (eff & (UINT64_C(1) << 38)); /* CAP_BPF, CAP_PERFMON */
}

int bpfload_check(char *why, size_t whylen)
{
	if (!may_trace()) {
		bpfload_why(why, whylen, "needs root or CAP_BPF + CAP_PERFMON to load a tracing program");
		return -EPERM;
	}
	if (access(BPFLOAD_VMLINUX_BTF, R_OK) != 0) {
		bpfload_why(why, whylen, "the kernel has no BTF (%s): %s", BPFLOAD_VMLINUX_BTF, strerror(errno));
		return -ENOENT;
	}
	return 0;
}

#else /* !LOCKBENCH_BPF */

void bpfload_quiet_begin(void)
{
	libbpf_last[0] = '\0';
}

void bpfload_quiet_end(void)
{
}

int bpfload_check(char *why, size_t whylen)
{
	bpfload_why(why, whylen, "lockbench was built without BPF (clang, bpftool or libbpf-dev missing at build time)");
	return -ENOTSUP;
}

#endif
