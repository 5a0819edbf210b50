/*
 * klock_maps.h — what the kernel lock capture's BPF program (kernel_locks.bpf.c)
 * keeps and lockbench (bench/kernel_locks.c) reads: the lock types named from
 * the lock:contention_begin flags, the log2 bin of a wait, and the layout of
 * every map.  Shared by the BPF object and the userspace loader, so it uses
 * only fixed-width types both sides have and code both compilers take.
 */
#ifndef LOCKBENCH_KLOCK_MAPS_H
#define LOCKBENCH_KLOCK_MAPS_H

#ifdef __bpf__
typedef __u32 klock_u32;
typedef __s32 klock_s32;
typedef __u64 klock_u64;
#else
#include <stdint.h>
typedef uint32_t klock_u32;
typedef int32_t klock_s32;
typedef uint64_t klock_u64;
#endif

/* include/trace/events/lock.h (Linux 5.19+): the flags of contention_begin. */
#define KLOCK_F_SPIN   (1u << 0)
#define KLOCK_F_READ   (1u << 1)
#define KLOCK_F_WRITE  (1u << 2)
#define KLOCK_F_RT     (1u << 3)
#define KLOCK_F_PERCPU (1u << 4)
#define KLOCK_F_MUTEX  (1u << 5)

/* The lock types the flags name, as `perf lock contention` names them. */
enum klock_type {
	KLOCK_SPINLOCK,       /* SPIN: spinlock_t, raw_spinlock_t (qspinlock slow path) */
	KLOCK_RWLOCK_READ,    /* SPIN|READ: rwlock_t, read side */
	KLOCK_RWLOCK_WRITE,   /* SPIN|WRITE: rwlock_t, write side */
	KLOCK_RWSEM_READ,     /* READ: rw_semaphore, down_read (inode i_rwsem shared) */
	KLOCK_RWSEM_WRITE,    /* WRITE: rw_semaphore, down_write (inode_lock: a directory's i_rwsem) */
	KLOCK_MUTEX,          /* MUTEX, MUTEX|SPIN (optimistic spinning first) */
	KLOCK_RT_MUTEX,       /* RT, alone or with READ/WRITE (PREEMPT_RT's sleeping locks) */
	KLOCK_PERCPU_RWSEM,   /* PERCPU|READ, PERCPU|WRITE */
	KLOCK_OTHER,          /* any combination the kernel adds later */
	KLOCK_TYPES
};

static inline unsigned int klock_type_of(klock_u32 flags)
{
	flags &= 0x3f;
	if (flags & KLOCK_F_MUTEX)
		return KLOCK_MUTEX;
	if (flags & KLOCK_F_RT)
		return KLOCK_RT_MUTEX;
	if (flags & KLOCK_F_PERCPU)
		return (flags & (KLOCK_F_READ | KLOCK_F_WRITE)) ? KLOCK_PERCPU_RWSEM : KLOCK_OTHER;
	if (flags == KLOCK_F_SPIN)
		return KLOCK_SPINLOCK;
	if (flags == (KLOCK_F_SPIN | KLOCK_F_READ))
		return KLOCK_RWLOCK_READ;
	if (flags == (KLOCK_F_SPIN | KLOCK_F_WRITE))
		return KLOCK_RWLOCK_WRITE;
	if (flags == KLOCK_F_READ)
		return KLOCK_RWSEM_READ;
	if (flags == KLOCK_F_WRITE)
		return KLOCK_RWSEM_WRITE;
	return KLOCK_OTHER;
}

/* The bin of bench/hist.h's histograms, without a clz instruction (the BPF
 * target has none): floor(log2 v), and 0 for 0 and 1. */
#define KLOCK_BINS 64
static inline unsigned int klock_bin(klock_u64 v)
{
	unsigned int b = 0;

	if (v >> 32) { v >>= 32; b += 32; }
	if (v >> 16) { v >>= 16; b += 16; }
	if (v >> 8) { v >>= 8; b += 8; }
	if (v >> 4) { v >>= 4; b += 4; }
	if (v >> 2) { v >>= 2; b += 2; }
	if (v >> 1) b += 1;
	return b;
}

/*
 * Waits are timed in ns (bpf_ktime_get_ns: BPF has no TSC read) and turned
 * into TSC cycles with the run's calibrated rate: cycles = ns * mult >> 20,
 * mult = tsc_hz / 1e9 * 2^20.  Exact to 2^-20 of the rate; overflows only
 * for a single wait of more than ~7000 s at 2.6 GHz.
 */
#define KLOCK_MULT_SHIFT 20

/* Waits one task can have open at once: a wait for lock B inside the slow
 * path of lock A (A's wait_lock, an interrupt) nests. */
#define KLOCK_NEST 4
/* Frames kept per stack: the tracing frames, the lock code, the caller and
 * a few above it (a syscall's stack is ~10 deep).  Fewer frames barely make
 * the unwinding cheaper (measured: ~17 us per stack at 8 or 32 here). */
#define KLOCK_STACK_DEPTH 16
/* (lock, caller) pairs the program can tell apart in one run. */
#define KLOCK_PAIRS 4096

/* Per CPU, one per enum klock_type: the waits that ended on that CPU. */
struct klock_type_stats {
	klock_u64 bins[KLOCK_BINS];
	klock_u64 count, sum, min, max;   /* cycles; min meaningless while count is 0 */
};

/* Per CPU, one entry: what the program could not record. */
struct klock_misses {
	klock_u64 untimed;     /* begins not timed: nesting deeper than KLOCK_NEST, task table full */
	klock_u64 unpaired;    /* timed waits not in the (lock, caller) table: it was full */
};

/* One (lock, caller) pair: the top-locks table's rows. */
struct klock_pair_key {
	klock_u64 lock;        /* the lock's kernel address */
	klock_s32 stack_id;    /* in the stacks map; < 0: no stack (-errno) */
	klock_u32 type;        /* enum klock_type */
};
struct klock_pair_stats {      /* per CPU */
	klock_u64 count, sum, max;
};

/* A task's open waits, innermost last. */
struct klock_open_wait {
	klock_u64 lock;
	klock_u64 start_ns;
	klock_s32 stack_id;
	klock_u32 flags;
};
struct klock_task {
	klock_u32 depth;
	klock_u32 pad;
	struct klock_open_wait w[KLOCK_NEST];
};

#endif
