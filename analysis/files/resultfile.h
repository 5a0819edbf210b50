/*
 * resultfile.h — strict readers for the result files documented in
 * results/README.md.  Anything that does not match the documented format is
 * rejected with a one-line message; nothing here trusts its input.
 */
#ifndef LOCKBENCH_RESULTFILE_H
#define LOCKBENCH_RESULTFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../../common/metric.def"
#include "../../common/safefile.h"

#define RESULT_BINS 64
#define RESULT_MAX_KEYS 256
#define RESULT_KEY_LEN 48
#define RESULT_VALUE_LEN 256
#define RESULT_FILE_MAX (1u << 20)
#define RESULT_MAX_THREADS 65536 /* lockbench --threads' limit (bench/cli.c) */
/* An --exec run's program (results/README.md, "--exec runs"): its name's
 * bytes, and the metrics (metric_NAME) a reader takes of it. */
#define RESULT_PROGRAM_LEN 64
#define RESULT_METRICS_MAX 8
#define RESULT_METRIC_NAME_LEN 31

struct result_kv {
	char key[RESULT_KEY_LEN];
	char value[RESULT_VALUE_LEN];
};

/* kernel-hist.csv's lock-type columns (lockbench writes 9) and
 * kernel-locks.csv's rows (it writes at most 20) a reader takes. */
#define RESULT_KERNEL_TYPES 16
#define RESULT_KERNEL_ROWS 64

/* One row of kernel-locks.csv: a lock and one of its callers. */
struct result_kernel_row {
	char lock[24];                      /* 0x... */
	char type[RESULT_KEY_LEN];
	bool has_lock;                      /* the lock_* columns (files before them: every wait had a stack) */
	uint64_t lock_count, lock_sum, lock_max, lock_stacks;  /* every wait for the lock; those with a stack */
	uint64_t count, sum, max;           /* the caller's waits among those with a stack */
	char caller[64];                    /* truncated where longer */
};

/* Who ran it, from meta.csv: lbcompare tells hosts apart by these. */
struct result_host {
	char name[64];                      /* hostname */
	char kernel[64];                    /* kernel_release */
	char cpu[128];                      /* cpu_brand, trailing blanks dropped */
	unsigned int packages, numa_nodes, cores, pus;  /* topology_*: pus = topology_pus_usable */
	/* meta.csv's `simulated` (runs written before it: real) and, for a
	 * simulated run, its machine: `sim_profile` and `sim_cpus` as
	 * "PROFILE CPUS".  A simulated run is a machine of its own, never
	 * pooled with a real one nor with another profile's or CPU count's. */
	bool simulated;
	char sim[96];
};

/* What decides the kernel mutex's behaviour, from meta.csv where it has
 * the keys (kernel_mutex_spin_on_owner, kernel_preempt,
 * kernel_vcpu_is_preempted); "" where it has not. */
struct result_kernel_env {
	char spin_on_owner[16], preempt[16], vcpu_preempted[16];
};

/* A file's lines as written, each "key,value" split at its first comma
 * (pointers into text, which it owns): meta.csv's every key, checks.csv's
 * rows (key the check, value "status,detail"), for the report to show. */
struct result_pair {
	const char *key, *value;
};
struct result_lines {
	char *text;
	struct result_pair *pair;
	size_t n;
};

/* One run directory: its summary.csv, hist.csv and, when it has one (runs
 * written before it existed have not), hist_contended.csv, and with
 * --kernel-locks, kernel-hist.csv and kernel-locks.csv, and its meta.csv's
 * host. */
struct result_run {
	char dir[1024];
	struct result_kv kv[RESULT_MAX_KEYS];
	size_t nkv;
	uint64_t hist[RESULT_BINS];
	uint64_t hist_total;
	bool has_contended;                 /* hist_contended.csv was read */
	uint64_t hist_contended[RESULT_BINS];
	uint64_t hist_contended_total;
	bool has_kernel;                    /* kernel-hist.csv was read */
	uint64_t kernel_hist[RESULT_BINS];  /* every type's waits */
	uint64_t kernel_total;
	unsigned int kernel_ntypes;
	char kernel_type[RESULT_KERNEL_TYPES][RESULT_KEY_LEN];
	uint64_t kernel_type_total[RESULT_KERNEL_TYPES];
	bool has_kernel_locks;              /* kernel-locks.csv was read */
	struct result_kernel_row kernel_row[RESULT_KERNEL_ROWS];
	unsigned int kernel_nrows;
	bool has_meta;                      /* meta.csv was read (runs without one: host unknown) */
	struct result_host host;
	struct result_kernel_env kernel_env;
	struct result_lines meta;           /* meta.csv's lines (none without one) */
	bool has_checks;                    /* checks.csv was read (runs without self-checks have none) */
	struct result_lines checks;         /* its rows: check, "status,detail" */
};

/* Parse summary.csv / hist.csv contents (len bytes, need not be NUL-terminated).
 * 0, or -1 with a one-line message naming `what` (the file) in err.  The
 * summary's figures are checked as well as its lines: counts whole and >= 0,
 * rates and means >= 0 and agreeing with the counts they come from, phases
 * adding up (results/README.md, "What a reader rejects"). */
int result_parse_summary(struct result_run *run, const char *buf, size_t len, const char *what,
			 char *err, size_t errlen);
int result_parse_hist(struct result_run *run, const char *buf, size_t len, const char *what,
		      char *err, size_t errlen);
/* hist_contended.csv (the same format): fills hist_contended and sets
 * has_contended. */
int result_parse_hist_contended(struct result_run *run, const char *buf, size_t len, const char *what,
				char *err, size_t errlen);

/* kernel-hist.csv (hist.csv's columns, then one count column per lock type
 * that add up to `count`) and kernel-locks.csv (the top locks, by total wait). */
int result_parse_kernel_hist(struct result_run *run, const char *buf, size_t len, const char *what,
			     char *err, size_t errlen);
int result_parse_kernel_locks(struct result_run *run, const char *buf, size_t len, const char *what,
			      char *err, size_t errlen);

/* meta.csv: every line a 'key,value' line, no key twice, and the host's
 * keys (struct result_host) present and well formed; fills run->host, keeps
 * every line in run->meta (the report's machine table) and sets has_meta. */
int result_parse_meta(struct result_run *run, const char *buf, size_t len, const char *what,
		      char *err, size_t errlen);

/* checks.csv: the header `check,status,detail`, then rows of a check's
 * name, a status word and a detail; kept in run->checks, has_checks set. */
int result_parse_checks(struct result_run *run, const char *buf, size_t len, const char *what,
			char *err, size_t errlen);

/* With the files parsed: the histogram's total equals `acquisitions`, and
 * acq_bin_p50 / acq_bin_p99 name the bins its quantiles fall in; the
 * contended histogram and the summary's contended_* keys come together or
 * not at all, its total equals `contentions`, no bin of it exceeds the same
 * bin of hist.csv, and contended_acq_bin_p50 / _p99 name its quantiles; the
 * kernel files and the kernel_* keys come together or not at all, and agree
 * (results/README.md, "What a reader rejects").  Messages name run->dir. */
int result_check_hist(const struct result_run *run, char *err, size_t errlen);

/* Loads DIR/summary.csv, DIR/hist.csv and, where there are, DIR/hist_contended.csv,
 * DIR/kernel-hist.csv, DIR/kernel-locks.csv, DIR/meta.csv and DIR/checks.csv, each checked,
 * and checks they agree (result_check_hist).  Each file is read through
 * safefile.h: one that is a link, a FIFO or another non-regular file, or
 * larger than RESULT_FILE_MAX, is refused (a missing optional one is not). */
int result_load(struct result_run *run, const struct sf_dir *dir, char *err, size_t errlen);
/* What a loaded (or parsed) run holds besides itself: its files' kept
 * lines.  A run is freed, or loaded again, only after this. */
/* The run's host called LABEL (a run-all directory's, where one hostname
 * recurs: rundir_host_labels), never pooled with another label's runs. */
void result_set_host(struct result_run *run, const char *label);
void result_free(struct result_run *run);

/* The value of `key`, or NULL. */
const char *result_get(const struct result_run *run, const char *key);
/* The value of meta.csv's `key`, or NULL (no such key, or no meta.csv). */
const char *result_meta_get(const struct result_run *run, const char *key);
/* An --exec run's program: summary.csv's `program`, or "exec" for runs
 * written before it (NULL: not an --exec run); and the threads asked of it
 * (`program_threads_asked`, 0 where absent). */
const char *result_program(const struct result_run *run);
unsigned int result_threads_asked(const struct result_run *run);
/* One of a program's own figures: metric_NAME, and which way it is better
 * (metric_better_NAME; runs written before it: higher, --metric's meaning). */
struct result_metric {
	char name[RESULT_METRIC_NAME_LEN + 1];
	bool lower;
};
/* The run's declared metrics (every metric_better_NAME; runs written before
 * them: every metric_NAME), at most RESULT_METRICS_MAX (the reader refuses
 * more); returns how many. */
unsigned int result_metrics(const struct result_run *run, struct result_metric *m);

/* One of a workload's own metrics, as its summary.csv declares it
 * (common/metric.def: sense_of_KEY, unit_of_KEY, title_of_KEY). */
enum result_sense {
#define RESULT_SENSE(name, word) RESULT_SENSE_##name,
	METRIC_SENSES(RESULT_SENSE)
#undef RESULT_SENSE
};
struct result_workload_metric {
	char key[RESULT_KEY_LEN];
	char unit[METRIC_UNIT_MAX + 1];
	char title[METRIC_TITLE_MAX + 1];
	enum result_sense sense;
};
/* The run's declared workload metrics in the file's order, at most
 * RESULT_METRICS_MAX (the reader refuses more): how many.  Runs written
 * before the declarations have none: their workload's keys are read (and
 * ignored) as any other key the reader does not know. */
unsigned int result_workload_metrics(const struct result_run *run, struct result_workload_metric *m);
/* The key of the run's rate where it is per minute (rate_unit "UNIT/min":
 * UNIT_per_min) into buf: false where it is per second (ops_per_s). */
bool result_rate_key(const struct result_run *run, char *buf, size_t len);

/* The value of `key` as a finite number: 0, or -1 with a message when it is
 * missing or not a number. */
int result_number(const struct result_run *run, const char *key, double *out, char *err, size_t errlen);

#endif
