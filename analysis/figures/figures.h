/*
 * figures.h — the figures of a comparison (model/comparison.h): a variant's
 * figure over its repetitions with its interval, the columns the tables
 * show, a variant against the baseline (the verdict), and two variants'
 * histograms against each other.  Computed, never printed: the printers
 * (print/print.h) put them in words.  Statistics: stats.h.
 *
 *   figures.c   figures, columns and verdicts
 *   histcmp.c   pooled histograms and their comparison
 */
#ifndef LOCKBENCH_ANALYSIS_FIGURES_H
#define LOCKBENCH_ANALYSIS_FIGURES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../../common/summary.def"
#include "../model/comparison.h"
#include "stats.h"

/* One figure of one variant over its repetitions (stats.h). */
struct stat3 {
	double median, min, max;
	struct stats_interval ci;   /* the median's 95% interval (order statistics) */
	double vals[MAX_REPS];      /* each repetition's figure */
	unsigned int n;
};

/* Which way a figure is better, and what a difference in it is called. */
enum sense {
	SENSE_COUNT,      /* more / fewer (events: neither is better as such) */
	SENSE_RATE,       /* higher is faster: operations per second */
	SENSE_TIME,       /* lower is faster: cycles per acquisition */
	SENSE_COST,       /* lower is cheaper: CPU time per operation */
	SENSE_HIGHER,     /* higher is better: a program's metric (metric_better_NAME) */
	SENSE_LOWER,      /* lower is better: a program's metric */
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
	int sense;        /* 1 + its enum sense where the column says it (a program's own
			   * figures); 0: the contract's (column_sense) */
};
#define KERNEL_NA "-"

/* The tables that show a summary figure with a ratio to the baseline, as
 * common/summary.def's `shown` names them; each one's figures in the
 * contract's order.  Every figure of the first three is a row of
 * stats-*.csv and of the differences table (ratio_columns). */
enum table {
	TABLE_THROUGHPUT = 1 << 0,  /* throughput and CPU cost */
	TABLE_CONTENDED = 1 << 1,   /* the patch's: contended acquisitions only */
	TABLE_ALL = 1 << 2,         /* every acquisition, fast path included */
	TABLE_SWEEP = 1 << 3,       /* a sweep-<workload>-<key>.csv across thread counts */
	/* The workload's own metrics, as its runs declare them (workload_columns):
	 * after the throughput table's figures, and last in ratio_columns. */
	TABLE_WORKLOAD = 1 << 4,
};

/* The most columns ratio_columns gives: every figure of the contract, and
 * a workload's own metrics. */
#define SUMMARY_COUNT_ONE(...) +1
enum { RATIO_COLUMNS_MAX = 0 SUMMARY_FIGURES(SUMMARY_COUNT_ONE) + RESULT_METRICS_MAX };
#undef SUMMARY_COUNT_ONE

/* The acquisition-phase counts (the contract's SUMMARY_LOCK_FIGURES), in order. */
#define SUMMARY_COUNT_ONE(...) +1
enum { NPHASE_KEYS = 0 SUMMARY_LOCK_FIGURES(SUMMARY_COUNT_ONE) };
#undef SUMMARY_COUNT_ONE
extern const char *const phase_keys[NPHASE_KEYS];

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
	FIGURE_UNMATCHED, /* a program's metric its output did not give (--exec: metric_NAME absent) */
	FIGURE_MODEL,     /* only the kernel row has the figure */
	FIGURE_NO_PHASES, /* a phase figure of a lock without phases (pthread) */
	FIGURE_UNMEASURED, /* a cycle figure of runs that timed none of its acquisitions (a mean of none: 0) */
};

/* ---- figures, columns and verdicts (figures.c) ---- */

/* Variant v's figure `key` times `scale` over its repetitions; 0, or -1 with err set. */
int figure(const struct variant *v, const char *key, double scale, struct stat3 *out, char *err, size_t errlen);
/* Whether every repetition of v wrote `key`. */
bool has_key(const struct variant *v, const char *key);
/* The verdict's words for a column with a ratio. */
enum sense column_sense(const struct column *col);
/* Variant s against the baseline, repetition by repetition. */
void judge(const struct stat3 *s, const struct stat3 *base, struct verdict *vd);
/* The ratio printed beside a verdict: the Hodges–Lehmann estimate, inside
 * Moses' interval and on the verdict's side of 1; the ratio of the medians
 * where there is no interval (a figure <= 0); 0 where the baseline's is 0. */
double verdict_ratio(const struct verdict *vd, const struct stat3 *s, const struct stat3 *base);
/* The decimals (2 or more) that print r as still above 1 (side +1) or
 * below it (-1), so that "1.00x" never stands beside "faster"; 2 for side 0. */
int ratio_decimals(double r, int side);
/* verdict_ratio() as "1.23x", with ratio_decimals(): true when there is a
 * ratio (Moses' estimate, or a baseline median other than 0), else "0.00x". */
bool ratio_text(const struct verdict *vd, const struct stat3 *s, const struct stat3 *base, char *buf, size_t len);
/* Moses' interval as "[lo..hi]", 3 significant digits or as many more as
 * keep the end nearest 1 visibly on the verdict's side of it; "-" where
 * there is none. */
void interval_text(const struct verdict *vd, char *buf, size_t len);
/* Whether a smaller figure is the better one (times, costs, a program's lower-is-better metric). */
bool lower_is_better(enum sense sense);
/* "faster", "slower", "no difference", ... ("-": too few repetitions to test). */
const char *verdict_word(const struct verdict *vd, enum sense sense);
/* Whether nx repetitions against ny (variant, baseline) cannot show a
 * difference at 95% whatever they hold: then true, with a sentence into buf
 * giving the smallest p these sizes allow and sizes that could show one;
 * false (buf untouched) when they can, or when a side has fewer than 2
 * (no verdict at all). */
bool reach_note(unsigned int nx, unsigned int ny, char *buf, size_t len);
/* reach_note for the group's variant against the baseline whose sizes allow
 * the largest smallest p (every pair the tables give a verdict). */
bool group_reach_note(const struct group *g, char *buf, size_t len);
/* The verdicts a table of these columns tests (every variant past the
 * baseline, every column with a ratio, two runs a side or more), and how
 * many of them are a difference. */
void table_verdicts(const struct group *g, const struct column *cols, unsigned int ncols, unsigned int *tested,
		    unsigned int *shown);
/* The fewest repetitions of the group's variants. */
unsigned int group_min_reps(const struct group *g);
/* Where the fewest repetitions (2 to 5) cannot reach a 95% interval of the
 * median: a sentence into buf saying the [min..max] interval's own
 * confidence; false (buf untouched) otherwise. */
bool coverage_note(const struct group *g, char *buf, size_t len);
/* What chance alone makes of a table's `tested` verdicts, as a sentence
 * into buf; false (buf untouched) under 2 tested. */
bool chance_note(unsigned int tested, unsigned int shown, char *buf, size_t len);
/* Why variant v's cell of `col` has no figure, or FIGURE_OK. */
enum missing figure_missing(const struct variant *v, const struct column *col);
/* Variant i's figure and the baseline's (*base_ok false when it lacks it); 0, or -1 with err set. */
int figure_pair(const struct group *g, unsigned int i, const struct column *col, struct stat3 *s,
		struct stat3 *base, bool *base_ok, char *err, size_t errlen);
/* Variant v's figure of COL over its repetitions, as its cell gives it (the
 * kernel row's key in its place, a `per` divided repetition by repetition);
 * 0, or -1 with err set. */
int variant_figure(const struct variant *v, const struct column *col, struct stat3 *s, char *err, size_t errlen);
/* The figures the tables of `tables` (enum table, or'd) show with a ratio to
 * the baseline, table by table, into cols[RATIO_COLUMNS_MAX]; returns how many.
 * An --exec group's TABLE_THROUGHPUT and TABLE_SWEEP are the program's own
 * figures (program_columns) in the place of its meaningless runs/sec. */
unsigned int table_columns(const struct group *g, unsigned int tables, struct column *cols);
/* The tables (enum table, or'd) the contract shows a column's figure in; 0
 * for a column that is no summary figure. */
unsigned int column_tables(const struct column *col);
/* An --exec group's own figures: each metric the way its runs say it is
 * better, then the program's wall time and CPU time; into
 * cols[RATIO_COLUMNS_MAX], returns how many (0: not an --exec group). */
unsigned int program_columns(const struct group *g, struct column *cols);
/* The workload's own metrics (the group's wmetric, TABLE_WORKLOAD) but the
 * one that is its rate (shown as the rate column), into cols; returns how
 * many.  A run older than the declarations lacks them: "n/a" there. */
unsigned int workload_columns(const struct group *g, struct column *cols);
/* Every figure with a ratio (TABLE_THROUGHPUT, _CONTENDED, _ALL, _WORKLOAD),
 * into cols[RATIO_COLUMNS_MAX]; returns how many. */
unsigned int ratio_columns(const struct group *g, struct column *cols);
/* The figures of the models beside the running kernel's mutex (the kernel
 * row the baseline): returns the table and its length in *n. */
const struct column *kernel_columns(unsigned int *n);
/* A figure's name in the CSV files: its `name`, or its key. */
const char *figure_name(const struct column *col);

/* ---- histograms (histcmp.c) ---- */

#define HIST_RELABELLINGS 20000  /* every way to deal the runs up to this many, else this many drawn */
#define HIST_RESAMPLES 1000      /* bootstrap resamples of the per-bin share differences */
#define HIST_SEED 1              /* fixed: the same runs give the same report */

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
/* Whether the group's histograms of the kind make a chart: every variant
 * has one (the kernel row has only the contended one), and some counted
 * something.  The CSV file and the report's chart of it go by this. */
bool hist_charted(const struct group *g, bool contended);

/* ---- the model nearest the kernel's mutex (nearest.c) ---- */

#define NEAR_FIGURES 8  /* the contended histogram's EMD, then the table's contention figures */

/* A model's distance from the kernel's row on one figure, as an interval:
 * |ln ratio| over its ratio's interval, or the EMD's bounds from the per-bin
 * share intervals (ok false: no such figure for it). */
struct nearness {
	double lo, hi;
	bool ok;
};

/* Of n candidates' distances d[i * nfig + f], the one that against each
 * other is nearer beyond both intervals on more figures than the other is
 * on; -1 where none is (the gaps are within the intervals, or split). */
int near_stands_out(const struct nearness *d, unsigned int n, unsigned int nfig);
/* |ln r| over a ratio's interval [lo, hi]: from 0 where it holds 1. */
struct nearness near_ratio(double lo, double hi);
/* The bounds of the EMD of two histograms from their per-bin share
 * differences' intervals (hc's lo and hi, percentage points). */
struct nearness near_emd(const struct hist_comparison *hc);

struct nearest {
	int model;             /* the model that stands out (near_stands_out), or -1 */
	int nearest_emd;       /* the model of the smallest EMD, or -1 */
	double emd;            /* its EMD, bins */
	unsigned int compared; /* the models with a figure to compare */
};

/* The models of a models-vs-kernel group (the kernel's row its baseline)
 * against each other, on their EMD and contention figures together. */
void nearest_model(const struct group *g, struct nearest *out);

#endif
