// SPDX-License-Identifier: GPL-2.0
/*
 * kernel_locks.bpf.c — lockbench --kernel-locks: every kernel lock contention
 * of one process's tasks (target_tgid, set before load) that begins while
 * `capturing` is set, timed from lock:contention_begin to the matching
 * lock:contention_end (Linux 5.19+), as `perf lock contention` and klockstat
 * time them.  Per lock type a log2 histogram in TSC cycles (klock_maps.h);
 * per lock a count, total and max of every wait; mutex waits by how they
 * were resolved (spin, spin then sleep, sleep); and, for each lock's first
 * KLOCK_STACKS_PER_LOCK waits only, the kernel stack at the begin, with a
 * count, total and max per (lock, stack).
 *
 * Both tracepoints fire for every contention in the system; everything but a
 * tgid compare is done for lockbench's tasks only.  The begin decides: a wait
 * that began while capturing is recorded when it ends, even after capturing
 * stopped (lockbench reads the maps after joining its threads); one that
 * began before is not.  The same lock's begin again while its wait is open
 * (a mutex that spun first, then sleeps) is the same wait (klock_task_begin).
 * Stats live in per-CPU maps: a wait is recorded on the CPU where it ends,
 * with plain stores, and lockbench adds the CPUs up; only the stack budget
 * is shared, counted with atomic adds.  The hot path avoids hash lookups
 * where one lock is contended over and over: a CPU's consecutive waits for
 * one lock gather in its cpu_cache entry and reach the per-lock table when
 * another lock's wait ends there (or when lockbench reads the caches), and
 * the begin skips the budget lookup for the lock this CPU last found spent.
 * (Measured with kernel.bpf_stats_enabled on 8 threads read()ing one
 * descriptor: 0.26 us per begin, 0.12 per end, against 0.34 and 0.20
 * without the cache; the end runs inside the mutex's critical section.)
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
/* Stacks the begins asked for (atomic adds; those below KLOCK_STACKS_MAX
 * were taken). */
__u64 stacks_wanted = 0;

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
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);                  /* enum klock_mutex_class */
	__type(value, struct klock_stats);
	__uint(max_entries, KLOCK_MUTEX_CLASSES);
} mutex_classes SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__type(key, struct klock_lock_key);
	__type(value, struct klock_stats);
	__uint(max_entries, KLOCK_LOCKS);
} locks SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, struct klock_cpu_cache);
	__uint(max_entries, 1);
} cpu_cache SEC(".maps");

/* Per lock address: its waits begun so far (while below the budget). */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, __u64);
	__type(value, __u64);
	__uint(max_entries, KLOCK_LOCKS);
} lock_begins SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__type(key, struct klock_pair_key);
	__type(value, struct klock_stats);
	__uint(max_entries, KLOCK_PAIRS);
} pairs SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_STACK_TRACE);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, KLOCK_STACK_DEPTH * sizeof(__u64));
	__uint(max_entries, KLOCK_STACKS_MAX);
} stacks SEC(".maps");

static bool ours(void)
{
	return (bpf_get_current_pid_tgid() >> 32) == target_tgid;
}

static struct klock_misses *misses_here(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&misses, &zero);
}

/* A begin that could not be timed. */
static void untimed(void)
{
	struct klock_misses *m = misses_here();

	if (m)
		m->untimed++;
}

/* Waits timed but left out of the per-lock table (full). */
static void unpaired(__u64 n)
{
	struct klock_misses *m = misses_here();

	if (m)
		m->unpaired += n;
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

/*
 * A stack for this wait, if its lock's budget and the run's allow: the
 * budget is read plainly first, so that once a hot lock has its stacks its
 * begins write nothing shared.
 */
static struct klock_cpu_cache *cache(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&cpu_cache, &zero);
}

static __s32 maybe_stack(void *ctx, __u64 lock)
{
	struct klock_cpu_cache *c = cache();
	__u64 zero = 0, *begun;

	if (!c || c->spent_lock == lock)
		return KLOCK_STACK_NOT_TAKEN;
	begun = bpf_map_lookup_elem(&lock_begins, &lock);
	if (!begun) {
		bpf_map_update_elem(&lock_begins, &lock, &zero, BPF_NOEXIST);
		begun = bpf_map_lookup_elem(&lock_begins, &lock);
	}
	if (begun && !klock_stack_wanted(*begun, 0))
		c->spent_lock = lock;
	if (!begun || !klock_stack_wanted(*begun, stacks_wanted))
		return KLOCK_STACK_NOT_TAKEN;
	if (!klock_stack_wanted(__sync_fetch_and_add(begun, 1), 0) ||
	    !klock_stack_wanted(0, __sync_fetch_and_add(&stacks_wanted, 1)))
		return KLOCK_STACK_NOT_TAKEN;
	return bpf_get_stackid(ctx, &stacks, 0);
}

SEC("tp_btf/contention_begin")
int BPF_PROG(on_begin, void *lock, unsigned int flags)
{
	struct klock_task *t;
	struct klock_open_wait *w;
	bool open_new = capturing;
	int r;

	if (!ours())
		return 0;
	t = task_of((__u32)bpf_get_current_pid_tgid(), open_new);
	if (!t) {
		if (open_new)
			untimed();
		return 0;
	}
	r = klock_task_begin(t, (__u64)lock, flags, open_new);
	if (r == KLOCK_BEGIN_FULL)
		untimed();
	if (r != KLOCK_BEGIN_NEW)
		return 0;
	w = &t->w[(t->depth - 1) & (KLOCK_NEST - 1)];
	/* The stack first, the clock after: unwinding costs the waiter 2-17 us
	 * on the development VM, which is not time spent waiting. */
	w->stack_id = maybe_stack(ctx, (__u64)lock);
	w->start_ns = bpf_ktime_get_ns();
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

static void add_wait(struct klock_stats *s, __u64 cycles)
{
	s->count++;
	s->sum += cycles;
	if (cycles > s->max)
		s->max = cycles;
}

static void record_mutex(const struct klock_open_wait *w, __u64 cycles)
{
	__u32 key = klock_mutex_class_of(w->flags);
	struct klock_stats *s = bpf_map_lookup_elem(&mutex_classes, &key);

	if (s)
		add_wait(s, cycles);
}

/* The per-CPU entry of `key` in `map`, made when missing; NULL when full. */
static struct klock_stats *entry_of(void *map, const void *key)
{
	struct klock_stats zero = {}, *s = bpf_map_lookup_elem(map, key);

	if (s)
		return s;
	bpf_map_update_elem(map, key, &zero, BPF_NOEXIST);
	return bpf_map_lookup_elem(map, key);
}

/* The pending waits of this CPU's cache into their lock's entry. */
static void flush_pending(struct klock_cpu_cache *c)
{
	struct klock_lock_key key = { .lock = c->lock, .type = c->type };
	struct klock_stats *s;

	if (!c->count)
		return;
	s = entry_of(&locks, &key);
	if (s) {
		s->count += c->count;
		s->sum += c->sum;
		if (c->max > s->max)
			s->max = c->max;
	} else {
		unpaired(c->count);
	}
	c->count = c->sum = c->max = 0;
}

/* Every wait in its lock's figures (pending in this CPU's cache while the
 * same lock's waits end here one after another); those with a stack in
 * their pair's too (the pairs map holds one entry per stack at most:
 * never full). */
static void record_lock(const struct klock_open_wait *w, unsigned int type, __u64 cycles)
{
	struct klock_pair_key pkey = { .lock = w->lock, .stack_id = w->stack_id, .type = type };
	struct klock_cpu_cache *c = cache();
	struct klock_stats *s;

	if (!c)
		return;
	if (c->lock != w->lock || c->type != type) {
		flush_pending(c);
		c->lock = w->lock;
		c->type = type;
	}
	c->count++;
	c->sum += cycles;
	if (cycles > c->max)
		c->max = cycles;
	if (w->stack_id == KLOCK_STACK_NOT_TAKEN)
		return;
	s = entry_of(&pairs, &pkey);
	if (s)
		add_wait(s, cycles);
}

SEC("tp_btf/contention_end")
int BPF_PROG(on_end, void *lock, int ret)
{
	struct klock_task *t;
	struct klock_open_wait w;
	unsigned int type;
	__u64 cycles;

	if (!ours())
		return 0;
	t = task_of((__u32)bpf_get_current_pid_tgid(), false);
	/* Not the innermost open wait: one whose begin came before capturing. */
	if (!t || !klock_task_end(t, (__u64)lock, &w))
		return 0;
	cycles = ((bpf_ktime_get_ns() - w.start_ns) * ns_to_cycles_mult) >> KLOCK_MULT_SHIFT;
	type = klock_type_of(w.flags);
	record_type(type, cycles);
	if (type == KLOCK_MUTEX)
		record_mutex(&w, cycles);
	record_lock(&w, type, cycles);
	return 0;
}
