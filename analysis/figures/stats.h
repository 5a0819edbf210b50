/*
 * stats.h — the statistics lbcompare puts beside its figures: how sure a
 * median over repetitions is, whether two variants differ, and by how much.
 *
 * The repetition (one lockbench run) is the unit throughout: acquisitions
 * within a run are not independent of each other, runs are (run-all
 * interleaves them in shuffled rounds so that slow drift of the machine
 * lands on every variant alike).  Everything is distribution-free — no
 * normality is assumed of throughputs that are skewed, bimodal or
 * heavy-tailed on a shared machine — and exact at the small repetition
 * counts benchmarks have:
 *
 *   - the median's confidence interval is a pair of order statistics, whose
 *     coverage follows from the binomial distribution alone (a bootstrap of
 *     5 values claims 95% and covers far less);
 *   - the verdict is the Mann–Whitney U test, its p-value the exact
 *     permutation distribution of the rank sum (ties as midranks);
 *   - the ratio's interval is Moses' interval for a scale shift, the
 *     Hodges–Lehmann estimate its centre: the ratios x_i / y_j between the
 *     ranks where that same test stops rejecting, so the interval excludes
 *     1.0 exactly when the verdict is a difference (without ties);
 *   - two histograms differ by the earth mover's distance over their log2
 *     bins, tested by permuting whole repetitions between the two sides.
 *
 * Randomness (sampled relabellings, the bootstrap of per-bin shares' errors) comes
 * from a seeded generator: the same input and seed give the same figures.
 */
#ifndef LOCKBENCH_STATS_H
#define LOCKBENCH_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define STATS_LEVEL 0.95         /* every interval and test here */
#define STATS_SPREAD 0.10        /* "large spread": the CI reaches beyond +-10% of the median */
#define STATS_MAX_REPS 64        /* values per side a test takes */
#define STATS_EXACT_MAX 40       /* exact permutation p up to this many values in all */

/* A small seeded generator (splitmix64): reproducible resampling. */
struct stats_rng {
	uint64_t state;
};
void stats_rng_seed(struct stats_rng *rng, uint64_t seed);
uint64_t stats_rng_next(struct stats_rng *rng);
double stats_rng_uniform(struct stats_rng *rng);                 /* [0, 1) */
unsigned int stats_rng_below(struct stats_rng *rng, unsigned int n); /* 0 .. n-1, n >= 1 */
double stats_rng_normal(struct stats_rng *rng);                  /* standard normal */

/* Student's t distribution's quantile at q in (1/2, 1), nu >= 1 degrees of
 * freedom (not necessarily whole). */
double stats_t_quantile(double q, double nu);

/* qsort's order of doubles, ascending. */
int stats_cmp_double(const void *a, const void *b);

/* The median of n >= 1 values (x is not changed). */
double stats_median(const double *x, size_t n);

/* P(Binomial(n, 1/2) <= k). */
double stats_binom_half_cdf(unsigned int n, int k);

struct stats_interval {
	double lo, hi;
	double coverage;    /* its exact confidence */
	bool reached;       /* coverage >= the level asked; false: too few values, [min, max] */
};

/* The distribution-free confidence interval of the median: order statistics
 * [x(k), x(n+1-k)] with the largest k whose coverage 1 - 2 P(Bin(n, 1/2) < k)
 * is at least `level`.  Fewer values than that needs (n < 6 at 95%) give
 * [min, max] with its lower coverage and reached false.  n >= 1. */
void stats_median_ci(const double *x, size_t n, double level, struct stats_interval *ci);

/* Whether an interval reaches beyond +-frac of the median (either side). */
bool stats_spread_large(double median, const struct stats_interval *ci, double frac);

struct stats_mwu {
	double u;           /* pairs with x_i > y_j, a tie counting 1/2 */
	double p;           /* two-sided */
	double p_min;       /* the smallest p these sizes allow (no ties): 2 / C(nx + ny, nx) */
	bool exact;         /* p from the exact permutation distribution; else normal, tie-corrected */
};

/* The smallest two-sided p the Mann–Whitney test gives nx values against
 * ny (complete separation, no ties): 2 / C(nx + ny, nx), at most 1.  Only
 * sizes, so it says before any run what those sizes can show. */
double stats_mwu_p_min(size_t nx, size_t ny);

/* The fewest values against n (nx or ny) whose smallest p reaches 1 - level:
 * 0 when not even STATS_MAX_REPS do. */
size_t stats_mwu_reps_needed(size_t n, double level);

/* The Mann–Whitney U test of x against y, 1 <= nx, ny <= STATS_MAX_REPS:
 * 0, or -1 when the sizes are out of range or a value is not finite. */
int stats_mann_whitney(const double *x, size_t nx, const double *y, size_t ny, struct stats_mwu *out);

struct stats_ratio {
	double estimate;    /* Hodges–Lehmann: exp of the median of log(x_i / y_j) */
	double lo, hi;      /* Moses' interval for the ratio */
	bool reached;       /* false: these sizes cannot reach the level (lo, hi: the extreme ratios) */
};

/* The ratio of x to y under a scale-shift model (x ~ ratio * y), with its
 * confidence interval: values must be > 0 (0, or -1 when not, or when the
 * sizes are out of range). */
int stats_ratio_ci(const double *x, size_t nx, const double *y, size_t ny, double level,
		   struct stats_ratio *out);

/* Which way x differs from y at the level (two-sided Mann–Whitney p below
 * 1 - level): +1 higher, -1 lower, 0 no difference shown. */
int stats_direction(const struct stats_mwu *t, size_t nx, size_t ny, double level);

/* The earth mover's distance between two histograms over the same bins, in
 * bins: sum over b of |A(b) - B(b)|, A and B their cumulative shares.  On
 * log2 bins, 1.0 = all the mass moved by a factor of two.  0 when either
 * histogram is empty. */
double stats_emd_bins(const uint64_t *a, const uint64_t *b, size_t nbins);

struct stats_hist_test {
	double emd;              /* between the two sides' pooled histograms */
	double p;                /* share of relabellings as far apart, the observed one included */
	double p_min;            /* the smallest p this test could give */
	unsigned long relabellings;
	bool exhaustive;         /* every split of the runs; else `max` sampled ones */
};

/* Permutation test of two sets of runs' histograms (nx runs x[i][nbins],
 * ny runs y[i][nbins]): the runs are dealt anew between the two sides, every
 * way when there are at most `max` ways, else `max` random ways drawn from
 * `seed`, and the pooled histograms' distance compared with the observed
 * one.  0, or -1 when a side has no runs, too many, or no counts at all. */
int stats_hist_permutation(const uint64_t *const *x, size_t nx, const uint64_t *const *y, size_t ny,
			   size_t nbins, unsigned long max, uint64_t seed, struct stats_hist_test *out);

/* Per bin: the pooled share of y minus that of x, in percentage points, and
 * its interval at `level`: a t interval over the two sides' standard errors
 * from a bootstrap (its runs resampled with replacement, `resamples` times,
 * from `seed`), each variance times n / (n - 1), with the smaller side's
 * degrees of freedom (n - 1).  A bootstrap percentile interval of 5 or 6
 * runs covered 87-89% where it claimed 95%, and Welch-Satterthwaite's
 * degrees of freedom 91% at 2 runs against 8 and 90% at 3 against 10
 * (scripts/share-coverage.c); this one covers 97-100% in every case there.  diff, lo and hi
 * hold nbins values.  0, or -1 as stats_hist_permutation, or when a side has
 * fewer than 2 runs (one run has no spread to resample). */
int stats_share_diff(const uint64_t *const *x, size_t nx, const uint64_t *const *y, size_t ny, size_t nbins,
		     double level, unsigned int resamples, uint64_t seed, double *diff, double *lo, double *hi);

#endif
