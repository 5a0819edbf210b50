/*
 * compare.h — lbcompare's internal interface: the structures the files of
 * analysis/lbcompare share (its runs grouped into variants, the figures
 * and verdicts read from them) and the few functions one file calls in
 * another.  Not a library: only analysis/compare*.c include it.
 *
 *   compare.c          main(), the command line, loading and grouping runs
 *   compare_figures.c  a variant's figures over its repetitions; verdicts
 *   compare_print.c    the text tables of a group
 *   compare_hist.c     the histograms and their comparison
 *   compare_seed.c     the seed patch's published figures beside ours
 *   compare_hosts.c    runs from several hosts, side by side
 *   compare_csv.c      --csv: the derived files for gnuplot
 */
#ifndef LOCKBENCH_ANALYSIS_COMPARE_H
#define LOCKBENCH_ANALYSIS_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "resultfile.h"
#include "stats.h"

#define MAX_RUNS 4096
#define MAX_VARIANTS 64
#define MAX_GROUPS 256

#define ERR_LEN 1024

struct variant {
	const char *lock;
	const char *timing;      /* --timing of its runs: all, sample:N, off ("all" before --timing) */
	const char *sched;       /* --sched of its runs: other ("other" before --sched), fifo */
	char series[128];        /* its name in the sweep and phase CSVs: lock, lock@timing (mixed_timing), +@host */
	char label[48];          /* what its rows are called: the lock, or the kernel row's name */
	bool kernel_row;         /* `none` with kernel capture on creat/fserver: the real kernel */
	bool kernel_ok;          /* every repetition has kernel-hist.csv */
	uint64_t kernel_hist[RESULT_BINS];
	uint64_t kernel_total;
	struct result_run *reps[64];
	unsigned int nreps;
	uint64_t hist[RESULT_BINS];
	uint64_t hist_total;
	bool contended_ok;       /* every repetition has hist_contended.csv */
	uint64_t hist_contended[RESULT_BINS];
	uint64_t hist_contended_total;
};

struct group {
	unsigned int host;       /* hosts[]: a group never mixes machines */
	const char *workload;
	const char *unit;
	unsigned int threads;
	struct variant v[MAX_VARIANTS];
	unsigned int nv;
};

/* The machines the runs came from, told apart by their meta.csv (name,
 * kernel, CPU, topology); runs without one (written before meta.csv) are
 * one unknown host.  With two or more, every group is one host's, and the
 * report opens with the hosts and a table of each workload across them. */
#define MAX_HOSTS 16
struct host {
	const struct result_host *id;   /* NULL: runs without meta.csv */
	char label[48];                 /* hostname, made unique: vm, vm#2 */
};

/* ---- the runs, grouped (compare.c) ---- */

extern struct group groups[MAX_GROUPS];
extern unsigned int ngroups;
extern struct host hosts[MAX_HOSTS];
extern unsigned int nhosts;
/* The runs do not all share one --timing: every variant is then named
 * lock@timing, and a note says what that does to the figures. */
extern bool mixed_timing;
/* The error of the last call that failed: main() prints it as the one line. */
extern char err[ERR_LEN];

/* Formats the message into err; returns -1. */
int set_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The group's variant of `lock` (the first, whatever its --timing), or NULL. */
const struct variant *find_variant(const struct group *g, const char *lock);

/* ---- figures and verdicts (compare_figures.c) ---- */

/* One figure of one variant over its repetitions (stats.h). */
struct stat3 {
	double median, min, max;
	struct stats_interval ci;   /* the median's 95% interval (order statistics) */
	double vals[64];            /* each repetition's figure */
	unsigned int n;
};

/* Which way a figure is better, and what a difference in it is called. */
enum sense {
	SENSE_COUNT,      /* more / fewer (events: neither is better as such) */
	SENSE_RATE,       /* higher is faster: operations per second */
	SENSE_TIME,       /* lower is faster: cycles per acquisition */
	SENSE_COST,       /* lower is cheaper: CPU time per operation */
};

/*
 * A figure as a column of a table (and a row of stats-*.csv or kernel-*.csv).
 * A key is a summary.csv key or a sum of them, each term added or taken away
 * ("acq_nosleep+acq_sleep-nosleep_unqueued"): keys never hold '+' or '-'.
 */
struct column {
	const char *title;
	const char *key;  /* KERNEL_NA: only the kernel row has the figure */
	double scale;
	const char *fmt;
	bool no_ratio;    /* event counts: a ratio between locks means little */
	bool optional;    /* a key older runs lack: "n/a" there, not an error */
	/* The kernel row's key in its place (NULL: the same; KERNEL_NA: none,
	 * "n/a"): the kernel's waits are its contended acquisitions. */
	const char *kernel_key;
	const char *per;  /* the figure is key / per, repetition by repetition */
	const char *kernel_per;  /* the kernel row's per in its place (NULL: per) */
	const char *name;        /* its name in the CSV files (NULL: the key) */
	bool phases;      /* a figure of acquisition phases: "n/a" for a lock without them */
};
#define KERNEL_NA "-"

/* A variant against the baseline, over repetitions (judge). */
struct verdict {
	bool tested;              /* both sides have two repetitions or more */
	struct stats_mwu mwu;
	int direction;            /* +1: the variant's figure is higher, -1 lower, 0 no difference shown */
	bool ratio_ok;            /* the ratio's interval exists (figures > 0 on both sides) */
	struct stats_ratio ratio; /* Moses' interval of variant / baseline */
};

/* Why a variant's cell has no figure. */
enum missing {
	FIGURE_OK,
	FIGURE_UNTIMED,   /* a cycle figure of a --timing off run */
	FIGURE_KERNEL,    /* the kernel row has no such figure */
	FIGURE_OLD,       /* runs written before the figure existed */
	FIGURE_MODEL,     /* only the kernel row has the figure */
	FIGURE_NO_PHASES, /* a phase figure of a lock without phases (pthread) */
};

/* qsort's order of doubles, ascending. */
int cmp_double(const void *a, const void *b);
/* Variant v's figure `key` times `scale` over its repetitions; 0, or -1 with err set. */
int figure(const struct variant *v, const char *key, double scale, struct stat3 *out);
/* Whether every repetition of v wrote `key`. */
bool has_key(const struct variant *v, const char *key);
/* The verdict's words for a column with a ratio. */
enum sense column_sense(const struct column *col);
/* Variant s against the baseline, repetition by repetition. */
void judge(const struct stat3 *s, const struct stat3 *base, struct verdict *vd);
/* "faster", "slower", "no difference", ... ("-": too few repetitions to test). */
const char *verdict_word(const struct verdict *vd, enum sense sense);
/* Why variant v's cell of `col` has no figure, or FIGURE_OK. */
enum missing figure_missing(const struct variant *v, const struct column *col);
/* Variant i's figure and the baseline's (*base_ok false when it lacks it); 0, or -1 with err set. */
int figure_pair(const struct group *g, unsigned int i, const struct column *col, struct stat3 *s,
		struct stat3 *base, bool *base_ok);
/* The most repetitions of any variant of the group. */
unsigned int group_max_reps(const struct group *g);
/* The figures with a ratio to the baseline, into cols[6]; returns how many. */
unsigned int ratio_columns(const struct group *g, struct column *cols);
/* The figures of the models beside the running kernel's mutex (the kernel
 * row the baseline): returns the table and its length in *n. */
const struct column *kernel_columns(unsigned int *n);
/* Whether the group's baseline is the kernel's row: the models-vs-kernel table. */
bool kernel_baseline(const struct group *g);
/* A figure's name in the CSV files: its `name`, its key, or jobs_per_min. */
const char *figure_name(const struct column *col);

/* ---- text tables (compare_print.c) ---- */

/* " 1.23x": value / base in the ratio column (" -" where base is 0). */
void print_ratio(double value, double base);
/* The width of the variants' name column. */
int label_width(const struct group *g);
/* A p-value in three decimals, "<0.001" below. */
void p_text(double p, char *buf, size_t len);
/* Every table of one group; 0, or -1 with err set. */
int print_group(const struct group *g);

/* ---- histograms (compare_hist.c) ---- */

/* One of a variant's two histograms: every acquisition, or the contended ones. */
struct hist_view {
	const uint64_t *bins;
	uint64_t total;
	bool ok;                 /* false: the runs have no such histogram */
};

/* Variant i's histograms against the baseline's (compare_hists). */
struct hist_comparison {
	struct stats_hist_test test;
	double mean_shift;            /* mean log2 bin, variant minus baseline: < 0, shorter */
	double diff[RESULT_BINS], lo[RESULT_BINS], hi[RESULT_BINS];  /* share, percentage points */
};

/* One of variant v's two pooled histograms (ok false: none of that kind). */
struct hist_view hist_of(const struct variant *v, bool contended);
/* Variant i's histogram against the baseline's; false when they cannot be compared. */
bool compare_hists(const struct group *g, unsigned int i, bool contended, struct hist_comparison *c);
/* "differs" or "no difference", at 95%. */
const char *hist_verdict(const struct hist_comparison *c);
/* The group's histogram table, then how each variant's differs from the baseline's. */
void print_hist(const struct group *g, bool contended);
void print_hist_differences(const struct group *g, bool contended);

/* ---- the rest: one entry point each ---- */

/* The seed patch's figures beside kmutex-spin -> kmutex-fix (compare_seed.c); 0, or -1 with err set. */
int print_seed(const struct group *g);
/* The hosts, and each workload across them (compare_hosts.c); print_across_hosts: 0, or -1 with err set. */
void print_hosts(void);
int print_across_hosts(void);
/* --csv DIR: every derived file (compare_csv.c); 0, or -1 with err set. */
int write_csvs(const struct sf_dir *dir);

#endif
