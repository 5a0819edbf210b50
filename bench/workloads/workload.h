/*
 * workload.h — what a workload supplies: its body.  The harness owns threads,
 * placement, the start barrier, warm-up, stop, timing and reporting; a
 * workload prepares its shared and per-thread state, performs one operation
 * (taking the lock under test through bench_lock()/bench_unlock() as often as
 * the operation needs), checks its invariant, and cleans up.
 *
 * Adding a workload: write bench/workloads/<name>.c ending in one `const struct
 * workload_ops workload_ops_<name>`, and add WORKLOAD(<name>, role, full,
 * quick) to bench/workloads/workloads.def (its run-all role and durations).  A
 * workload with settings keeps them in the same file, as a lock does: a table
 * of options (struct option_def, common/option.h), the bytes they fill
 * (struct workload_settings, core/config.h), and settings_figures() (what it
 * ran with, in summary.csv).  Each option is a long option of lockbench's
 * own, `--KEY VALUE`, made from the table by the CLI (cli.c): --help and
 * --list show it with the workloads that have it, and a run whose workload
 * lacks it refuses it (exit 2).  Several workloads may offer the same key,
 * each with its own set(); no key may be one of lockbench's own options.
 * Its own figures come from figures(); those lbcompare should compare
 * between locks it declares its metrics (struct workload_metric).
 */
#ifndef LOCKBENCH_WORKLOAD_H
#define LOCKBENCH_WORKLOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../../common/metric.def"
#include "../core/config.h"
#include "../core/harness.h"
#include "../core/result.h"

/* What setup() returns: a failure is either the run's (a system call failed:
 * EXIT_RUNTIME) or the command line's (e.g. --dir names no usable directory:
 * EXIT_USAGE, so a bad --dir is a usage error like any other bad option). */
enum workload_setup_status {
	WL_SETUP_OK = 0,
	WL_SETUP_ERROR = -1,
	WL_SETUP_USAGE = -2,
};

/*
 * What op() returns.  An operation that takes many locked calls (an fserver
 * job takes ~1,500) checks bench_stopping() between them and, once the run
 * has stopped, closes what it opened and removes what it made (the state its
 * invariant expects between operations) and returns WL_OP_ABANDONED:
 * nothing failed, the operation is not counted (ops, ops_all, the invariant)
 * but in ops_abandoned, and its acquisitions, real ones, stay in the
 * histogram.  So after the stop a thread makes at most one more locked call
 * (besides the lock() it may be waiting in, which it cannot leave), instead
 * of finishing an operation that can take minutes under a FIFO spinlock.
 */
enum workload_op_status {
	WL_OP_DONE = 0,
	WL_OP_FAILED = -1,      /* after bench_fail(t, errno, ...): stops the run */
	WL_OP_ABANDONED = 1,    /* the run stopped mid-operation; nothing left open */
};

/*
 * One of a workload's own metrics, which lbcompare compares between locks
 * with a ratio, an interval and a verdict, as it does ops_per_s: declared
 * here (name, unit, direction, as stress-ng's stress_metrics_set() and
 * bench/exec/programs.def declare theirs) and filled by the workload's
 * figures() hook (figure_add() of `key`).  The writer puts each one's value
 * in summary.csv with the lines that declare it (common/metric.def), so the
 * reader and the tables know it from the file alone: adding a metric is its
 * entry here and its figure_add().  A metric whose key is the workload's rate
 * in its own unit (jobs_per_min, for a per_minute workload of "jobs") is that
 * rate: the tables show it once, as their rate column.
 */
enum workload_metric_sense {
#define WL_METRIC_SENSE(name, word) WM_##name,
	METRIC_SENSES(WL_METRIC_SENSE)
#undef WL_METRIC_SENSE
};
struct workload_metric {
	const char *key;     /* its summary.csv key, [a-z0-9_]+, none of lockbench's own */
	const char *unit;    /* what its value counts, no comma: "ms", "acquisitions" */
	enum workload_metric_sense sense;  /* which way is better */
	const char *title;   /* its column's title in lbcompare's tables (METRIC_TITLE_MAX bytes) */
	const char *how;     /* how figures() computes it, one line (results/README.md says so) */
};

struct workload_ops {
	const char *name;
	const char *description;   /* one line for --list */
	const char *unit;          /* what one op() is, in the summary: "ops", "jobs" */
	size_t shared_size;        /* bytes of shared state (zeroed, cache-line aligned) */
	size_t thread_size;        /* bytes of per-thread state (zeroed, aligned, thread's node) */
	/* File descriptors it holds at most, for the RLIMIT_NOFILE check made
	 * before a run starts (syslimits.h): shared ones, and each thread's. */
	unsigned int fds_shared;
	unsigned int fds_per_thread;
	/* It makes its files under --dir (fileutil.h's wdir_create()): meta.csv
	 * records that directory's file system, and run-all gives it --dir
	 * (`--list`'s plan: section says `takes-dir NAME`). */
	bool takes_dir;
	/* Its throughput is stated per minute, UNIT/min (fserver's jobs/min, as
	 * AIM7 states it), not UNIT/s: summary.csv's `rate_unit` and `--list`'s
	 * `unit` line say which, so no later stage need know a workload's name.
	 * (This and the next sit in takes_dir's padding: the later members'
	 * offsets, op's among them, which the worker loop calls, stay put.) */
	bool per_minute;
	/* Its threads also meet on a lock inside the kernel (a directory's
	 * inode lock for creat and fserver, the file's f_pos_lock for fpos), so
	 * `-l none --kernel-locks` measures the kernel's own lock on the same
	 * work (lbcompare's kernel row): summary.csv's `meets_in_kernel` and
	 * `--list`'s `meets-in-kernel` line. */
	bool meets_in_kernel;
	/* Its settings (NULL: none), ended by an entry whose key is NULL
	 * (set() given workload_settings' bytes), and the values in force as
	 * summary.csv keys (results/README.md), each through put(): optional,
	 * for a workload with options. */
	const struct option_def *options;
	void (*settings_figures)(const struct workload_settings *s, lock_put_fn *put, void *ctx);

	/* All hooks but op() are optional.  Hooks that fail return -1 after
	 * writing a one-line message to `err` (errlen bytes); setup() returns an
	 * enum workload_setup_status and, when it fails, leaves nothing behind. */
	int  (*setup)(void *shared, const struct bench_config *cfg, char *err, size_t errlen);
	int  (*thread_setup)(struct bench_thread *t);       /* in the thread, before the barrier */
	/* One operation: an enum workload_op_status. */
	int  (*op)(struct bench_thread *t);
	void (*thread_teardown)(struct bench_thread *t);    /* in the thread, after its last op */
	/* After the join: the invariant, given every op the threads completed,
	 * warm-up included.  Failing it is exit status EXIT_INVARIANT. */
	int  (*verify)(void *shared, uint64_t ops_all, char *err, size_t errlen);
	/* Always called when setup succeeded: on success, error and signal. */
	void (*teardown)(void *shared, const struct bench_config *cfg);
	/* Extra figures for the summary and summary.csv (e.g. jobs/min). */
	void (*figures)(const struct bench_result *res, struct figures *out);
	/* Its own metrics (NULL: none), ended by an entry whose key is NULL:
	 * figures() adds each one (struct workload_metric).  Last, so that the
	 * members above, op() among them, keep their offsets. */
	const struct workload_metric *metrics;
};

extern const struct workload_ops *const workload_registry[];
extern const size_t workload_registry_len;

/* What run-all plans with a workload (`--list`'s plan: section, read by
 * scripts/registry.sh): the experiment it is in and its -d seconds. */
enum workload_role {
	WL_UNPLANNED,   /* run-all accepts it with --workloads but plans nothing */
	WL_SWEEP,       /* the scaling sweep: every lock, 1 thread up to 2x the CPUs */
	WL_PATCH,       /* the patch experiment: the patch table's locks, 4x the CPUs */
	WL_KERNEL,      /* models vs the running kernel's mutex: `none` with kernel capture
			 * (the baseline), then the patch table's other locks, 1x, 2x and
			 * 4x the CPUs; planned only where --kernel-locks works */
};
struct workload_plan {
	enum workload_role role;
	double seconds_full;
	double seconds_quick;    /* with run-all --quick */
};
/* Index i is workload_registry[i]'s plan. */
extern const struct workload_plan workload_plans[];
extern const char *const workload_role_names[];

const struct workload_ops *workload_find(const char *name);
/* `wl`'s option called `key`, or NULL. */
const struct option_def *workload_option_find(const struct workload_ops *wl, const char *key);

#endif
