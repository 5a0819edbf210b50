/*
 * comparison.h — the comparison model: runs grouped by host, workload and
 * thread count; within a group each lock (and --timing, --sched) a variant,
 * the first one met the baseline, and repeated runs of a variant its
 * repetitions, their histograms pooled.  Built by one function from runs the
 * caller owns (files/runs.h, files/resultfile.h); read, never changed, by
 * the figures (figures/figures.h) and the printers (print/print.h).
 */
#ifndef LOCKBENCH_ANALYSIS_COMPARISON_H
#define LOCKBENCH_ANALYSIS_COMPARISON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../files/resultfile.h"

#define MAX_VARIANTS 64
#define MAX_GROUPS 256
#define MAX_REPS 64          /* repetitions of one variant (the statistics take STATS_MAX_REPS) */
#define MAX_HOSTS 16
#define ERR_LEN 1024         /* an error line's buffer, as main() gives it */

struct variant {
	const char *lock;
	const char *timing;      /* --timing of its runs: all, sample:N, off ("all" before --timing) */
	const char *sched;       /* --sched of its runs: other ("other" before --sched), fifo */
	char series[128];        /* its name in the sweep and phase CSVs: lock, lock@timing (mixed_timing), +@host */
	char label[48];          /* what its rows are called: the lock, or the kernel row's name */
	bool kernel_row;         /* a lock that excludes nothing, with kernel capture, on a workload
				  * whose threads meet in the kernel (summary.csv): the real kernel */
	bool kernel_ok;          /* every repetition has kernel-hist.csv */
	uint64_t kernel_hist[RESULT_BINS];
	uint64_t kernel_total;
	const struct result_run *reps[MAX_REPS];
	unsigned int nreps;
	uint64_t hist[RESULT_BINS];
	uint64_t hist_total;
	bool contended_ok;       /* every repetition has hist_contended.csv */
	uint64_t hist_contended[RESULT_BINS];
	uint64_t hist_contended_total;
};

/* How the workload counts its throughput, from its runs' summary.csv
 * (`unit`, `rate_unit`: ops per second, jobs per minute): the analysis
 * names no workload. */
struct rate {
	double scale;            /* ops_per_s times this: 1, or 60 for a rate per minute */
	char title[32];          /* its column's title: Ops/sec, Jobs/min */
	char words[32];          /* in a sentence: ops/sec, jobs/min */
	char name[48];           /* its name in the CSV files: ops_per_s, UNIT_per_min */
};

/* One of an --exec group's metrics (metric_NAME), the way every run of
 * it says it is better. */
struct group_metric {
	char key[RESULT_KEY_LEN];   /* metric_NAME */
	bool lower;
};

/* One of a workload's own metrics (result_workload_metrics), the way every
 * run of the group that declares it does. */
struct group_wmetric {
	char key[RESULT_KEY_LEN];
	char unit[METRIC_UNIT_MAX + 1];
	char title[METRIC_TITLE_MAX + 1];
	enum result_sense sense;
};

struct group {
	unsigned int host;       /* the comparison's hosts[]: a group never mixes machines */
	/* The workload; for --exec runs "exec-PROGRAM" (name), so that runs of
	 * different programs are never one group, nor one sweep. */
	const char *workload;
	const char *unit;
	struct rate rate;
	unsigned int threads;    /* --exec runs: the threads asked of the program (0: not said) */
	/* An --exec run's experiment: its program and the threads asked of it
	 * (result_program, result_threads_asked), and its metrics. */
	const char *program;     /* NULL: not an --exec group */
	char name[RESULT_PROGRAM_LEN + 8];
	struct group_metric metric[RESULT_METRICS_MAX];
	unsigned int nmetrics;
	/* The workload's own metrics, as its runs declare them (none in runs
	 * written before the declarations). */
	struct group_wmetric wmetric[RESULT_METRICS_MAX];
	unsigned int nwmetrics;
	struct variant v[MAX_VARIANTS];
	unsigned int nv;
};

/* The machines the runs came from, told apart by their meta.csv (name,
 * kernel, CPU, topology); runs without one (written before meta.csv) are
 * one unknown host.  With two or more, every group is one host's, and the
 * text opens with the hosts and a table of each workload across them. */
struct host {
	const struct result_host *id;   /* NULL: runs without meta.csv */
	char label[48];                 /* hostname, made unique: vm, vm#2; only [A-Za-z0-9._#-] */
};

struct comparison {
	struct group groups[MAX_GROUPS];
	unsigned int ngroups;
	struct host hosts[MAX_HOSTS];
	unsigned int nhosts;
	/* The runs do not all share one --timing: every variant is then named
	 * lock@timing, and a note says what that does to the figures. */
	bool mixed_timing;
};

/* The comparison of NRUNS runs (which must outlive it), grouped in the
 * order given: NULL with one line in err when they cannot be grouped (a
 * run without lock, workload or unit; too many hosts, groups, variants or
 * repetitions; out of memory).  comparison_free() releases it. */
struct comparison *comparison_build(const struct result_run *const *runs, size_t nruns, char *err, size_t errlen);
void comparison_free(struct comparison *c);

/* The group's variant of `lock` under the default --sched (the first,
 * whatever its --timing), or NULL. */
const struct variant *find_variant(const struct group *g, const char *lock);
/* The most repetitions of any variant of the group. */
unsigned int group_max_reps(const struct group *g);
/* Whether the group's baseline is the kernel's row: the models-vs-kernel table. */
bool kernel_baseline(const struct group *g);
/* Whether the group is the first of its workload in the comparison. */
bool first_of_workload(const struct comparison *c, const struct group *g);

/* A workload's groups as a sweep over thread counts: its variants' series
 * in the order first met, and a row (the first group met) per thread count,
 * fewest threads first.  With several hosts each host's variants are their
 * own series (lock@host), found in that host's group (sweep_variant). */
struct sweep {
	const char *series[MAX_VARIANTS];
	unsigned int nseries;
	const struct group *rows[MAX_GROUPS];
	unsigned int nrows;
};
void sweep_of(const struct comparison *c, const char *workload, struct sweep *s);
/* The variant called SERIES among the workload's groups at THREADS, or NULL. */
const struct variant *sweep_variant(const struct comparison *c, const char *workload, unsigned int threads,
				    const char *series);

#endif
