/*
 * oracle_slot.h — one benchmark thread's scheduler view, as the sched oracle's
 * BPF program (sched_oracle.bpf.c) keeps it and lockbench reads it: one
 * 64-byte slot per thread in a BPF_F_MMAPABLE array that the process maps.
 * Shared by the BPF object and the userspace loader, so it uses only fixed
 * width types both sides have.
 */
#ifndef LOCKBENCH_ORACLE_SLOT_H
#define LOCKBENCH_ORACLE_SLOT_H

#ifdef __bpf__
typedef __u32 slot_u32;
typedef __u64 slot_u64;
#else
#include <stdint.h>
typedef uint32_t slot_u32;
typedef uint64_t slot_u64;
#endif

struct oracle_sched_slot {
	/* 1 from a switch-in to the next switch-out (the kernel's on_cpu).
	 * The thread also sets it itself when it reads 0 while running: some
	 * switch-ins are never traced (seen on KVM guests), and an on_cpu of 0
	 * for a running thread would make spinners sleep until its next
	 * switch-out.  So the error goes one way: toward sleeping. */
	slot_u32 on_cpu;
	slot_u32 cpu;       /* the CPU of the last traced switch-in */
	/* Switch-outs as the kernel counts them into nivcsw / nvcsw:
	 * involuntary = preempted (preempt, or prev_state TASK_RUNNING). */
	slot_u64 preempted;
	slot_u64 blocked;
	/* How often TIF_NEED_RESCHED was set on it (sched_set_need_resched_tp,
	 * kernel 6.16 on; stays 0 where the program has no such tracepoint):
	 * seen before the preemption it asks for, when that comes by IPI. */
	slot_u64 resched;
	slot_u64 pad[4];
};

#endif
