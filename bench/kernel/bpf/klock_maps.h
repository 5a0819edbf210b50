/*
 * klock_maps.h — what the kernel lock capture's BPF program (kernel_locks.bpf.c)
 * keeps and lockbench (bench/kernel/kernel_locks.c) reads: the lock types named from
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
/* X(ID, name): enum klock_type's KLOCK_ID and its name in summary.csv and
 * kernel-hist.csv (klock_type_name[]), each named once. */
#define KLOCK_TYPE_LIST(X)                                                              \
	X(SPINLOCK, spinlock)         /* SPIN: spinlock_t, raw_spinlock_t (qspinlock slow path) */ \
	X(RWLOCK_READ, rwlock_read)   /* SPIN|READ: rwlock_t, read side */               \
	X(RWLOCK_WRITE, rwlock_write) /* SPIN|WRITE: rwlock_t, write side */             \
	X(RWSEM_READ, rwsem_read)     /* READ: rw_semaphore, down_read (inode i_rwsem shared) */ \
	X(RWSEM_WRITE, rwsem_write)   /* WRITE: down_write (inode_lock: a directory's i_rwsem) */ \
	X(MUTEX, mutex)               /* MUTEX, MUTEX|SPIN (optimistic spinning first) */ \
	X(RT_MUTEX, rt_mutex)         /* RT, alone or with READ/WRITE (PREEMPT_RT's sleeping locks) */ \
	X(PERCPU_RWSEM, percpu_rwsem) /* PERCPU|READ, PERCPU|WRITE */                    \
	X(OTHER, other)               /* any combination the kernel adds later */

enum klock_type {
#define KLOCK_TYPE_ENUM(id, name) KLOCK_##id,
	KLOCK_TYPE_LIST(KLOCK_TYPE_ENUM)
#undef KLOCK_TYPE_ENUM
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

/* The bin of bench/platform/hist.h's histograms, without a clz instruction (the BPF
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

/*
 * Stacks are taken for a lock's first KLOCK_STACKS_PER_LOCK waits of the
 * measured interval only, and for KLOCK_STACKS_MAX waits at most in all:
 * unwinding costs the waiter 2-17 us, inside the lock's slow path (an
 * rwsem's contention_begin fires under its wait_lock with interrupts off),
 * while every wait still counts, exactly, in its type's and its lock's
 * figures.  The callers' shares in kernel-locks.csv are those of the waits
 * with a stack.
 */
#define KLOCK_STACKS_PER_LOCK 32
#define KLOCK_STACKS_MAX 4096
/* Locks the per-lock table holds; (lock, stack) pairs: one per stack at most. */
#define KLOCK_LOCKS 4096
#define KLOCK_PAIRS KLOCK_STACKS_MAX
/* An open wait's stack_id when no stack was taken (bpf_get_stackid's
 * failures are -errno, above -4096). */
#define KLOCK_STACK_NOT_TAKEN (-1000000)

/* Per CPU, one per enum klock_type: the waits that ended on that CPU. */
struct klock_type_stats {
	klock_u64 bins[KLOCK_BINS];
	klock_u64 count, sum, min, max;   /* cycles; min meaningless while count is 0 */
};

/* Per CPU, one entry: what the program could not record. */
struct klock_misses {
	klock_u64 untimed;     /* begins not timed: nesting deeper than KLOCK_NEST, task table full */
	klock_u64 unpaired;    /* timed waits not in the per-lock table: it was full */
};

/* Count, cycles and longest wait of a set of waits (per CPU). */
struct klock_stats {
	klock_u64 count, sum, max;
};

/*
 * Per CPU, what spares the hot path a hash lookup when one lock is
 * contended over and over (the common case: a directory's i_rwsem, a
 * file's f_pos_lock): the last lock whose stack budget this CPU found
 * spent, and the waits of the last lock that ended here, not yet added to
 * its entry in the per-lock table (added when another lock's wait ends
 * here, and by lockbench after the run).
 */
struct klock_cpu_cache {
	klock_u64 spent_lock;          /* 0: none */
	klock_u64 lock;                /* the pending waits' lock; 0: none pending */
	klock_u32 type;
	klock_u32 pad;
	klock_u64 count, sum, max;
};

/* One lock (of one type) in the per-lock table: every wait for it. */
struct klock_lock_key {
	klock_u64 lock;        /* the lock's kernel address */
	klock_u32 type;        /* enum klock_type */
	klock_u32 pad;
};

/* One (lock, caller stack) pair: the waits for the lock that took a stack. */
struct klock_pair_key {
	klock_u64 lock;        /* the lock's kernel address */
	klock_s32 stack_id;    /* in the stacks map; < 0: no stack (-errno) */
	klock_u32 type;        /* enum klock_type */
};

/*
 * How a mutex wait was resolved, from the flags of its begins.  The 6.x
 * __mutex_lock_common() fires contention_begin(MUTEX|SPIN) before its
 * trylock and optimistic spin; if that fails, and the trylock after taking
 * the wait_lock too, it queues on the wait list and fires
 * contention_begin(MUTEX) just before its first schedule(); a woken first
 * waiter may spin again (MUTEX|SPIN, then MUTEX) before the one
 * contention_end.  One acquisition, one wait, timed from its first begin.
 */
/* X(ID, name): enum klock_mutex_class's KLOCK_MUTEX_ID and summary.csv's
 * name for it (klock_mutex_class_name[]). */
#define KLOCK_MUTEX_CLASS_LIST(X)                                                       \
	X(SPIN, spin)             /* never queued: the spin (or the trylocks around it) got it */ \
	X(SPIN_SLEEP, spin_sleep) /* spun, then queued to sleep */                     \
	X(SLEEP, sleep)           /* its first begin already the sleeping one (MUTEX alone) */

enum klock_mutex_class {
#define KLOCK_MUTEX_CLASS_ENUM(id, name) KLOCK_MUTEX_##id,
	KLOCK_MUTEX_CLASS_LIST(KLOCK_MUTEX_CLASS_ENUM)
#undef KLOCK_MUTEX_CLASS_ENUM
	KLOCK_MUTEX_CLASSES
};

/* A task's open waits, innermost last.  `flags` are the first begin's,
 * and KLOCK_W_SLEPT once a begin said the waiter goes to sleep. */
#define KLOCK_W_SLEPT (1u << 31)
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

/* The mark a begin leaves on its wait: a mutex's begin without SPIN is the
 * one before it sleeps. */
static inline klock_u32 klock_begin_mark(klock_u32 flags)
{
	return (flags & KLOCK_F_MUTEX) && !(flags & KLOCK_F_SPIN) ? KLOCK_W_SLEPT : 0;
}

enum klock_begin_result {
	KLOCK_BEGIN_NEW,       /* a new wait, now the innermost: time it */
	KLOCK_BEGIN_AGAIN,     /* the innermost wait's lock begun again: the same wait */
	KLOCK_BEGIN_FULL,      /* a new wait, but KLOCK_NEST are open: not timed */
	KLOCK_BEGIN_IGNORED,   /* a new wait, but `open_new` was false */
};

/*
 * lock:contention_begin for task t.  The same lock as its innermost open
 * wait is that wait begun again (a mutex that spun and now sleeps, or spins
 * once more as the first waiter); anything else is a new wait nested inside
 * (a spinlock in the mutex's slow path), opened when `open_new`.  A new wait
 * gets no stack and no start yet: the caller fills them in.
 */
static inline int klock_task_begin(struct klock_task *t, klock_u64 lock, klock_u32 flags, int open_new)
{
	klock_u32 d = t->depth;

	if (d > 0 && d <= KLOCK_NEST && t->w[(d - 1) & (KLOCK_NEST - 1)].lock == lock) {
		t->w[(d - 1) & (KLOCK_NEST - 1)].flags |= klock_begin_mark(flags);
		return KLOCK_BEGIN_AGAIN;
	}
	if (!open_new)
		return KLOCK_BEGIN_IGNORED;
	if (d >= KLOCK_NEST)
		return KLOCK_BEGIN_FULL;
	d &= KLOCK_NEST - 1;
	t->w[d].lock = lock;
	t->w[d].flags = flags | klock_begin_mark(flags);
	t->w[d].stack_id = KLOCK_STACK_NOT_TAKEN;
	t->w[d].start_ns = 0;
	t->depth = d + 1;
	return KLOCK_BEGIN_NEW;
}

/* lock:contention_end for task t: 1 and the wait in *out, popped, when it
 * is the innermost open wait's; else 0 (one whose begin was not timed). */
static inline int klock_task_end(struct klock_task *t, klock_u64 lock, struct klock_open_wait *out)
{
	klock_u32 d = t->depth;

	if (d == 0 || d > KLOCK_NEST || t->w[(d - 1) & (KLOCK_NEST - 1)].lock != lock)
		return 0;
	*out = t->w[(d - 1) & (KLOCK_NEST - 1)];
	t->depth = d - 1;
	return 1;
}

/* The class of a finished mutex wait (its open wait's flags). */
static inline unsigned int klock_mutex_class_of(klock_u32 flags)
{
	if (!(flags & KLOCK_F_SPIN))
		return KLOCK_MUTEX_SLEEP;
	return (flags & KLOCK_W_SLEPT) ? KLOCK_MUTEX_SPIN_SLEEP : KLOCK_MUTEX_SPIN;
}

/* Whether a new wait takes a stack: its lock's `nth` wait (from 0), with
 * `taken` stacks taken so far in all. */
static inline int klock_stack_wanted(klock_u64 nth, klock_u64 taken)
{
	return nth < KLOCK_STACKS_PER_LOCK && taken < KLOCK_STACKS_MAX;
}

#endif
