/*
 * lock.h — the one interface every lock in locks/ implements, and the registry
 * that lists them.  The harness sees a lock only through struct lock_ops.
 *
 * Adding a lock: write locks/<name>.c ending in one `const struct lock_ops
 * lock_ops_<name>`, and add LOCK(<name>, 0, 0) to locks/locks.def (no
 * patch-table column, no role: struct lock_plan below).  The Makefile
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
#include "../common/lock_events.def"
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
 * The counters are named, and each explained, in common/lock_events.def.
 */
struct lock_events {
#define LOCK_EVENT_FIELD(unused, name) uint64_t name;
	LOCK_EVENT_PHASES(LOCK_EVENT_FIELD, -)
	uint64_t spin_exit[SPIN_EXIT_NR];
	LOCK_EVENT_COUNTS(LOCK_EVENT_FIELD, -)
	uint64_t preempt_seen;  /* 1: the lock saw its threads' switch-outs (the next three count) */
	LOCK_EVENT_PREEMPTS(LOCK_EVENT_FIELD, -)
#undef LOCK_EVENT_FIELD
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
/* The I-th lock's name: the names' walk lock_unknown_name() takes. */
const char *lock_registry_name(size_t i);

/* What run-all and the report do with a lock beyond the sweep: its roles,
 * declared on its locks/locks.def line and said by `--list`'s plan: section
 * (scripts/registry.sh), so that no script or report knows a lock by name. */
enum lock_role {
	/* Keeps the lock within a NUMA node: means something only with two or
	 * more, so run-all sweeps it only there unless --locks names it. */
	LOCK_R_NUMA_ONLY    = 1u << 0,
	/* The programs' baseline: first under every program (the first lock met
	 * is a comparison's baseline), and the lock run-all's --exec probe uses. */
	LOCK_R_PROGRAM_BASE = 1u << 1,
	/* With --kernel-locks the running kernel's own lock alone (a lock that
	 * excludes nothing): the kernel row's baseline, its patch-table column
	 * only where kernel capture works, the --kernel-locks probe's lock. */
	LOCK_R_KERNEL_BASE  = 1u << 2,
	/* Concurrency Kit's algorithm (docs/ck.md), a reference beside the
	 * suite's own: --quick's first look leaves it out of the sweep, and the
	 * report says so (run-env's CK_LOCKS). */
	LOCK_R_CK           = 1u << 3,
};

/* One lock's line of run-all's plan, lock_plans[i] lock_registry[i]'s. */
struct lock_plan {
	/* Its column of the patch experiment's table, from 1: 1 the baseline of
	 * every ratio (2.6.34's kmutex-spin), 2 the fix (the patch pair); 0 not
	 * in it.  The columns are 1..N, each once (tests/test_locks.c). */
	unsigned int column;
	unsigned int roles; /* enum lock_role */
};
extern const struct lock_plan lock_plans[];

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
