/*
 * lock.h — the one interface every lock in locks/ implements, and the registry
 * that lists them.  The harness sees a lock only through struct lock_ops.
 *
 * Adding a lock: write locks/<name>.c ending in one `const struct lock_ops
 * lock_ops_<name>`, and add LOCK(<name>) to locks/locks.def.  The Makefile
 * builds every .c file in locks/, and the registry-wide tests pick it up.
 * A lock with settings keeps them in the same file: a table of options
 * (struct option_def, given as --lock-opt KEY=VALUE and listed by --list),
 * the bytes they fill (struct lock_settings), and optionally prepare() and
 * settings_figures() (what it ran with, in summary.csv).
 */
#ifndef LOCKBENCH_LOCK_H
#define LOCKBENCH_LOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../common/option.h"
#include "arch.h"
#include "spin_exit.h"

/*
 * A lock's own settings: bytes that only the lock's file interprets, filled
 * by its options (--lock-opt KEY=VALUE, struct option_def) and passed
 * through by the harness, which knows none of them.  All zero is the lock's
 * defaults.
 */
#define LOCK_SETTINGS_SIZE 256
struct lock_settings {
	unsigned char bytes[LOCK_SETTINGS_SIZE];
} __attribute__((aligned(16)));

/* Settings a run passes to every lock; locks that have no use for one ignore it. */
struct lock_params {
	struct lock_settings settings;
	/* The run's worker threads, for locks that size per-thread structures
	 * at init (ck-anderson's slots, ck-clh's nodes); 0 = unknown (a test
	 * driving the lock directly): such a lock assumes a small default. */
	unsigned int threads;
};

/* put(ctx, KEY, VALUE): one summary.csv line of a lock's settings_figures(). */
typedef void lock_put_fn(void *ctx, const char *key, const char *value);

/* enum spin_exit's names (spin_exit.h), as summary.csv keys take them. */
extern const char *const spin_exit_name[SPIN_EXIT_NR];

/*
 * What a lock with spin/sleep phases records about itself.  Written only by the
 * thread that owns it, plain (non-atomic) fields; merged after the join.  Locks
 * without such phases (LOCK_F_PHASES unset) leave every field zero.  With it,
 * acq_fast + acq_spin + acq_nosleep + acq_sleep counts every lock() call.
 */
struct lock_events {
	uint64_t acq_fast;     /* first atomic attempt succeeded */
	uint64_t acq_spin;     /* acquired in an optimistic spin phase */
	uint64_t acq_nosleep;  /* acquired in the slow path, neither spinning nor after a futex wait */
	uint64_t acq_sleep;    /* acquired after at least one futex wait */
	/* Of acq_nosleep: taken by a slow-path trylock before the waiter joined
	 * the wait list (4.10: before the spin and again under wait_lock; 3.12+:
	 * "once more").  The kernel's lock:contention_begin counts these with
	 * the spin (never queued), so lbcompare needs them apart. */
	uint64_t nosleep_unqueued;
	uint64_t spin_exit[SPIN_EXIT_NR];
	uint64_t spin_cycles;  /* TSC cycles spent in spin phases */
	uint64_t futex_waits;  /* FUTEX_WAIT calls (each is one sleep, or a failed attempt to) */
	uint64_t futex_wakes;  /* FUTEX_WAKE calls */
	uint64_t handoffs;     /* locks handed directly to a waiter by unlock */
	uint64_t unlock_slow;  /* unlocks that took the lock's slow path (kmutex: wait_lock) */
	/* kmutex: TSC cycles of the slow unlocks from the failed release (the
	 * owner already cleared) until they held wait_lock; before 3.15 the
	 * lock stays held, its owner NULL, all that time. */
	uint64_t unlock_window_cycles;
	uint64_t spin_cas_failed;  /* failed compare-and-swaps on the lock word in spin phases */
	/*
	 * Involuntary switch-outs where the kernel's own mutex code runs with
	 * preemption off, or would not lose the CPU at all (kmutex, seen through
	 * the sched oracle): of a thread holding the lock (`owner`), holding the
	 * wait list's spinlock, or queued in the MCS/OSQ spinner queue.  Counted
	 * only where preempt_seen is 1 (the lock saw its threads' switch-outs).
	 */
	uint64_t preempt_seen;
	uint64_t owner_preempted;
	uint64_t wait_lock_preempted;
	uint64_t queue_preempted;
};

/*
 * Per-thread, per-lock state: the events, then the lock's own per-thread area
 * (an MCS queue node, a published run-state), thread_size bytes of it, starting
 * on its own cache line.  Allocated zeroed and cache-line aligned by the caller,
 * on the thread's own NUMA node where that is known.
 */
struct lock_thread {
	struct lock_events ev;
	unsigned int id;       /* 0 .. threads-1, for diagnostics */
	int node;              /* NUMA node of the thread's CPU, -1 unknown (ck-cohort's cohort) */
	unsigned char priv[] cacheline_aligned;
};

/* Size of a struct lock_thread for `ops`, rounded to whole cache lines. */
#define LOCK_THREAD_SIZE(ops) \
	ALIGN_UP(sizeof(struct lock_thread) + (ops)->thread_size, CACHELINE)

enum lock_flags {
	LOCK_F_PHASES       = 1u << 0, /* fills struct lock_events */
	LOCK_F_NO_EXCLUSION = 1u << 1, /* `none`: proves the exclusion checks can fail */
	LOCK_F_SLEEPS       = 1u << 2, /* may block in the kernel (futex); never a pure spinlock */
	/* The lock_thread given to lock() is in use until the matching unlock()
	 * (an MCS queue node): a thread holding several such locks at once
	 * needs one per lock held (lockbench --exec gives each its own). */
	LOCK_F_HOLDS_THREAD = 1u << 3,
	/* A lock_thread, or the lock itself, is bound to one lock and sized
	 * for the run's thread count (thread_init hands out a node of that
	 * lock, init sizes slots by lock_params.threads): unusable where
	 * threads and locks come and go unannounced (lockbench --exec). */
	LOCK_F_PER_LOCK_THREAD = 1u << 4,
};

struct lock_ops {
	const char *name;         /* registry key, as typed on the command line */
	const char *description;  /* one line for --list */
	size_t size;              /* bytes of lock state; caller gives it zeroed, cache-line aligned */
	size_t thread_size;       /* bytes of lock_thread.priv this lock uses (0 = none) */
	unsigned int flags;       /* enum lock_flags */

	/* Its settings (NULL: none), ended by an entry whose key is NULL:
	 * `--lock-opt KEY=VALUE`, set() given lock_settings' bytes. */
	const struct option_def *options;
	/* Optional, once per run before init() and before any thread starts:
	 * sets up what the settings ask for `threads` threads (kmutex: loads
	 * the sched oracle) and settles them (auto becomes what was found).
	 * 0; 1 when it went on with a one-line note in msg (a fallback, which
	 * the harness prints); -1 with a one-line error in msg. */
	int  (*prepare)(struct lock_settings *s, unsigned int threads, char *msg, size_t msglen);
	/* Optional: the settings in force after prepare(), as summary.csv keys
	 * (results/README.md), each through put(). */
	void (*settings_figures)(const struct lock_settings *s, lock_put_fn *put, void *ctx);

	int  (*init)(void *lock, const struct lock_params *params); /* 0 or -errno */
	void (*destroy)(void *lock);
	/* Optional: called by each thread before its first use of the lock. */
	void (*thread_init)(void *lock, struct lock_thread *self);

	/* Returns true when the acquisition was contended: it did not succeed on
	 * its first atomic attempt. */
	bool (*lock)(void *lock, struct lock_thread *self);
	void (*unlock)(void *lock, struct lock_thread *self);
	/* Returns true when the lock was taken; never blocks. */
	bool (*trylock)(void *lock, struct lock_thread *self);
};

/* The registry: every lock listed in locks/locks.def, in that order. */
extern const struct lock_ops *const lock_registry[];
extern const size_t lock_registry_len;

/* run-all's patch experiment (`--list`'s plan: section, read by
 * scripts/registry.sh): its locks as the columns of the patch table, in
 * order, the first the baseline every ratio is to (2.6.34's kmutex-spin),
 * the second the fix.  A kernel_locks column runs only where lockbench
 * --kernel-locks works: `none`, whose waits are then the kernel's own. */
struct lock_patch_column {
	const char *lock;
	bool kernel_locks;
};
extern const struct lock_patch_column lock_patch_table[];
extern const size_t lock_patch_table_len;

/* The lock called `name`, or NULL. */
const struct lock_ops *lock_find(const char *name);

/* `ops`' option called `key` (klen bytes of it), or NULL. */
const struct option_def *lock_option_find(const struct lock_ops *ops, const char *key, size_t klen);
/* The entry of table `opts` (NULL: none) called `key` (klen bytes of it), or NULL. */
const struct option_def *option_find(const struct option_def *opts, const char *key, size_t klen);

/* For options' set(): a whole decimal integer in [min, max]. */
bool lock_parse_u64(const char *text, uint64_t min, uint64_t max, uint64_t *out);
/* The same, refused in one spelling for every option: 0, or -1 with
 * "'TEXT' is not an integer in [MIN, MAX]" in err (the caller names the
 * option). */
int option_u64(const char *text, uint64_t min, uint64_t max, uint64_t *out, char *err, size_t errlen);
/* For options' set(): the index of `text` among name_at(0) .. name_at(count
 * - 1), or -1 with lock_unknown_name()'s refusal ("WHAT 'TEXT' (valid: ...)")
 * in err. */
int option_pick(const char *text, size_t count, const char *(*name_at)(size_t i), const char *what,
		char *err, size_t errlen);

/*
 * Every name parser's refusal, one spelling: "WHAT 'NAME' (valid: a b c)" in
 * err, where the valid names are name_at(0) .. name_at(count - 1); with
 * ": did you mean 'b'?" after NAME where one is within two edits of it.  WHAT is
 * e.g. "--lock: unknown lock".  Returns -1, for `return lock_unknown_name(...)`.
 */
int lock_unknown_name(char *err, size_t errlen, const char *what, const char *name, size_t count,
		      const char *(*name_at)(size_t i));

#endif
