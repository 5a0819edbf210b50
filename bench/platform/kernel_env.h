/*
 * kernel_env.h — what decides how the running kernel's own mutex behaves,
 * where userspace can read it (kernel_env.c): whether its waiters spin at
 * all (CONFIG_MUTEX_SPIN_ON_OWNER), whether a lock holder can be preempted
 * inside the kernel (the preemption mode), and whether a spinner can see
 * that the owner's virtual CPU was preempted by the host (paravirt
 * vcpu_is_preempted()).  meta.csv's kernel_mutex_* keys (results/README.md);
 * what cannot be read is "unknown", with why, never guessed.
 */
#ifndef LOCKBENCH_KERNEL_ENV_H
#define LOCKBENCH_KERNEL_ENV_H

#include <stdio.h>

#define KERNEL_ENV_TEXT 160

struct kernel_env {
	char config[KERNEL_ENV_TEXT];          /* where the build config was read, or "unavailable (why)" */
	char spin_on_owner[8];                 /* CONFIG_MUTEX_SPIN_ON_OWNER: y, n, unknown */
	char preempt[16];                      /* none, voluntary, full, lazy, rt, unknown */
	char preempt_source[KERNEL_ENV_TEXT];  /* how that was found */
	char hypervisor[32];                   /* the kernel's word ("KVM", "PVM"), none, unknown */
	char cpuid_hypervisor[KERNEL_ENV_TEXT];  /* what userspace CPUID 0x40000000.. says */
	char vcpu_preempted[8];                /* yes, no, unknown */
	char vcpu_preempted_why[KERNEL_ENV_TEXT];
};

/* Reads /proc/config.gz (or /boot/config-RELEASE), /proc/cmdline, the
 * kernel log, /proc/cpuinfo, uname and CPUID: a few ms. */
void kernel_env_probe(struct kernel_env *e);

/* The summary's one line ("  kernel env      ..."). */
void kernel_env_print(const struct kernel_env *e, FILE *out);

#endif
