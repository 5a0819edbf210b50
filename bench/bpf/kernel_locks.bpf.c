// SPDX-License-Identifier: GPL-2.0
/*
 * kernel_locks.bpf.c — lockbench --kernel-locks: every kernel lock contention
 * of one process's tasks (target_tgid, set before load) that begins while
 * `capturing` is set, timed from lock:contention_begin to the matching
 * lock:contention_end (Linux 5.19+), as `perf lock contention` and klockstat
 * time them.  Per lock type a log2 histogram in TSC cycles (klock_maps.h), and
 * per (lock address, kernel stack at the begin) a count, total and max.
 *
 * Both tracepoints fire for every contention in the system; everything but a
 * tgid compare is done for lockbench's tasks only.  The begin decides: a wait
 * that began while capturing is recorded when it ends, even after capturing
 * stopped (lockbench reads the maps after joining its threads); one that
 * began before is not.  The same lock's begin again while its wait is open
 * (a mutex or rwsem that spun first, then sleeps) is the same wait.  Stats
 * live in per-CPU maps: a wait is recorded on the CPU where it ends, with
 * plain stores, and lockbench adds the CPUs up.
 *
 * GPL: tp_btf programs may call GPL-only helpers only from GPL programs.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "klock_maps.h"

char LICENSE[] SEC("license") = "GPL";

const volatile __u32 target_tgid = 0;
/* Set by lockbench through the mmapped .bss: the TSC rate (klock_maps.h)
 * once it is calibrated, then `capturing` at the measured interval's start,
 * cleared at its end.  Read once per begin / end. */
volatile __u64 ns_to_cycles_mult = 0;
volatile __u32 capturing = 0;

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, __u32);                  /* tid */
	__type(value, struct klock_task);
	__uint(max_entries, 1);              /* sized by the loader: the run's threads and then some */
} tasks SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);                  /* enum klock_type */
	__type(value, struct klock_type_stats);
	__uint(max_entries, KLOCK_TYPES);
} type_stats SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, struct klock_misses);
	__uint(max_entries, 1);
} misses SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__type(key, struct klock_pair_key);
	__type(value, struct klock_pair_stats);
	__uint(max_entries, KLOCK_PAIRS);
} pairs SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_STACK_TRACE);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, KLOCK_STACK_DEPTH * sizeof(__u64));
	__uint(max_entries, KLOCK_PAIRS);
} stacks SEC(".maps");

static bool ours(void)
{
	return (bpf_get_current_pid_tgid() >> 32) == target_tgid;
}

static void missed(bool timed)
{
	__u32 zero = 0;
	struct klock_misses *m = bpf_map_lookup_elem(&misses, &zero);

	if (!m)
		return;
	if (timed)
		m->unpaired++;
	else
		m->untimed++;
}

static struct klock_task *task_of(__u32 tid, bool create)
{
	struct klock_task *t = bpf_map_lookup_elem(&tasks, &tid);
	struct klock_task empty = {};

	if (t || !create)
		return t;
	bpf_map_update_elem(&tasks, &tid, &empty, BPF_NOEXIST);
	return bpf_map_lookup_elem(&tasks, &tid);
}

SEC("tp_btf/contention_begin")
int BPF_PROG(on_begin, void *lock, unsigned int flags)
{
	struct klock_task *t;
	__u32 d;

	if (!ours() || !capturing)
		return 0;
	t = task_of((__u32)bpf_get_current_pid_tgid(), true);
	if (!t) {
		missed(false);
		return 0;
	}
	d = t->depth;
	if (d > 0 && d <= KLOCK_NEST && t->w[(d - 1) & (KLOCK_NEST - 1)].lock == (__u64)lock)
		return 0;  /* the same wait, begun again (spinning ended, now sleeping) */
	if (d >= KLOCK_NEST) {
		missed(false);
		return 0;
	}
	d &= KLOCK_NEST - 1;
	t->w[d].lock = (__u64)lock;
	t->w[d].flags = flags;
	/* The stack first, the clock after: unwinding costs the waiter ~17 us
	 * on the development VM, which is not time spent waiting. */
	t->w[d].stack_id = bpf_get_stackid(ctx, &stacks, 0);
	t->w[d].start_ns = bpf_ktime_get_ns();
	t->depth = d + 1;
	return 0;
}

static void record_type(unsigned int type, __u64 cycles)
{
	__u32 key = type;
	struct klock_type_stats *s = bpf_map_lookup_elem(&type_stats, &key);

	if (!s)
		return;
	s->bins[klock_bin(cycles) & (KLOCK_BINS - 1)]++;
	if (s->count == 0 || cycles < s->min)
		s->min = cycles;
	if (cycles > s->max)
		s->max = cycles;
	s->count++;
	s->sum += cycles;
}

static void record_pair(const struct klock_open_wait *w, unsigned int type, __u64 cycles)
{
	struct klock_pair_key key = { .lock = w->lock, .stack_id = w->stack_id, .type = type };
	struct klock_pair_stats zero = {}, *p = bpf_map_lookup_elem(&pairs, &key);

	if (!p) {
		bpf_map_update_elem(&pairs, &key, &zero, BPF_NOEXIST);
		p = bpf_map_lookup_elem(&pairs, &key);
	}
	if (!p) {
		missed(true);
		return;
	}
	p->count++;
	p->sum += cycles;
	if (cycles > p->max)
		p->max = cycles;
}

SEC("tp_btf/contention_end")
int BPF_PROG(on_end, void *lock, int ret)
{
	struct klock_task *t;
	struct klock_open_wait w;
	unsigned int type;
	__u64 cycles;
	__u32 d;

	if (!ours())
		return 0;
	t = task_of((__u32)bpf_get_current_pid_tgid(), false);
	if (!t)
		return 0;
	d = t->depth;
	/* Not the innermost open wait: one whose begin came before capturing. */
	if (d == 0 || d > KLOCK_NEST || t->w[(d - 1) & (KLOCK_NEST - 1)].lock != (__u64)lock)
		return 0;
	w = t->w[(d - 1) & (KLOCK_NEST - 1)];
	t->depth = d - 1;
	cycles = ((bpf_ktime_get_ns() - w.start_ns) * ns_to_cycles_mult) >> KLOCK_MULT_SHIFT;
	type = klock_type_of(w.flags);
	record_type(type, cycles);
	record_pair(&w, type, cycles);
	return 0;
}
