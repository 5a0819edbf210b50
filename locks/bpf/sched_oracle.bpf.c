// SPDX-License-Identifier: GPL-2.0
/*
 * sched_oracle.bpf.c — the kernel's view of lockbench's threads, for the
 * kmutex models' `sched` oracle (locks/oracle.h): whether a thread is on a
 * CPU (the kernel spinner's owner->on_cpu test) and how often it was
 * preempted (so a spinner can tell, the moment it runs again, that its CPU
 * wanted it off: need_resched()).
 *
 * One program on tp_btf/sched_switch (the four-argument form, kernel >= 5.18)
 * and, where the kernel has it (6.16 on), one on the bare tracepoint
 * sched_set_need_resched_tp (the loader leaves it out elsewhere) write one
 * 64-byte slot per registered thread of one process (target_tgid,
 * set before load); the process maps the slot array and reads it with plain
 * loads.  Threads register tid -> slot in slot_of_tid; a thread's entry is
 * removed when it exits, so tids reused later start unregistered.
 *
 * GPL: tp_btf programs may call GPL-only helpers only from GPL programs.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "oracle_slot.h"

/* libbpf 1.1's headers have none for BPF programs: volatile accesses, so
 * each slot field is one load or store that userspace sees whole. */
#define READ_ONCE(x)     (*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, v) (*(volatile __typeof__(x) *)&(x) = (v))

char LICENSE[] SEC("license") = "GPL";

const volatile __u32 target_tgid = 0;

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__type(key, __u32);
	__type(value, struct oracle_sched_slot);
	__uint(max_entries, 1);          /* sized by the loader before load */
} slots SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, __u32);              /* tid */
	__type(value, __u32);            /* index into slots */
	__uint(max_entries, 1);          /* sized by the loader before load */
} slot_of_tid SEC(".maps");

static struct oracle_sched_slot *slot_of(struct task_struct *task)
{
	__u32 tid = task->pid;
	__u32 *index = bpf_map_lookup_elem(&slot_of_tid, &tid);

	return index ? bpf_map_lookup_elem(&slots, index) : NULL;
}

SEC("tp_btf/sched_switch")
int BPF_PROG(on_switch, bool preempt, struct task_struct *prev, struct task_struct *next,
	     unsigned int prev_state)
{
	struct oracle_sched_slot *slot;

	if (prev->tgid == target_tgid && (slot = slot_of(prev))) {
		WRITE_ONCE(slot->on_cpu, 0);
		/* As the kernel's __schedule() picks nivcsw over nvcsw: a
		 * preemption, or a task still runnable (TASK_RUNNING is 0).
		 * Only this CPU writes the counts of a task switching out
		 * here, so a plain increment is not torn by another writer. */
		if (preempt || prev_state == 0)
			WRITE_ONCE(slot->preempted, READ_ONCE(slot->preempted) + 1);
		else
			WRITE_ONCE(slot->blocked, READ_ONCE(slot->blocked) + 1);
	}
	if (next->tgid == target_tgid && (slot = slot_of(next))) {
		WRITE_ONCE(slot->cpu, bpf_get_smp_processor_id());
		WRITE_ONCE(slot->on_cpu, 1);
	}
	return 0;
}

/* TIF_NEED_RESCHED set on a task, on whichever CPU set it: a remote wake-up
 * sets it, then sends the IPI that preempts the task.  Two CPUs may count at
 * once and one increment be lost: a spinner only asks whether it changed. */
SEC("tp_btf/sched_set_need_resched_tp")
int BPF_PROG(on_need_resched, struct task_struct *task, int cpu, int tif)
{
	struct oracle_sched_slot *slot;

	if (task->tgid == target_tgid && (slot = slot_of(task)))
		WRITE_ONCE(slot->resched, READ_ONCE(slot->resched) + 1);
	return 0;
}

SEC("tp_btf/sched_process_exit")
int BPF_PROG(on_exit, struct task_struct *task)
{
	__u32 tid = task->pid;

	if (task->tgid == target_tgid)
		bpf_map_delete_elem(&slot_of_tid, &tid);
	return 0;
}
