/*
 * bpfload.h — what every BPF loader in lockbench asks before and while it
 * loads a tracing program (the sched oracle, locks/oracle_sched.c; kernel lock
 * capture, bench/kernel/kernel_locks.c): may this process load one, does the kernel
 * have BTF, and, when libbpf fails, what it said — each as one line.
 */
#ifndef LOCKBENCH_BPFLOAD_H
#define LOCKBENCH_BPFLOAD_H

#include <stdbool.h>
#include <stddef.h>

/* The kernel BTF every CO-RE program here needs. */
#define BPFLOAD_VMLINUX_BTF "/sys/kernel/btf/vmlinux"

/* vsnprintf into why[whylen]; nothing when why is NULL or whylen 0. */
void bpfload_why(char *why, size_t whylen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/*
 * 0 when this process may load a tracing program and the kernel has BTF;
 * else -errno with one line in `why`: -EPERM without root or CAP_BPF +
 * CAP_PERFMON (or CAP_SYS_ADMIN), -ENOENT without BTF, -ENOTSUP when
 * lockbench was built without BPF.
 */
int bpfload_check(char *why, size_t whylen);

/* Around a libbpf open/load/attach: libbpf's own output goes nowhere, and
 * its last warning is kept for bpfload_failed(). */
void bpfload_quiet_begin(void);
void bpfload_quiet_end(void);

/* Inside quiet_begin/end: "BPF load failed (ERRNO TEXT): LIBBPF'S LAST
 * WARNING" for err (-errno). */
void bpfload_failed(int err, char *why, size_t whylen);

#endif
