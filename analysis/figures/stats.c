/*
 * stats.c — the statistics of stats.h: order-statistic intervals of the
 * median, the Mann–Whitney U test, Moses' interval of a ratio, and a
 * permutation test of histograms.  Small functions over plain arrays; no
 * state but the caller's generator.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"
#include "../../common/splitmix64.h"

/* ---- the generator: splitmix64 (Steele, Lea & Flood 2014) ---- */

void stats_rng_seed(struct stats_rng *rng, uint64_t seed)
{
	rng->state = seed;
}

uint64_t stats_rng_next(struct stats_rng *rng)
{
	return splitmix64(&rng->state);
}

double stats_rng_uniform(struct stats_rng *rng)
{
	return (double)(stats_rng_next(rng) >> 11) * 0x1p-53;  /* 53 random bits */
}

unsigned int stats_rng_below(struct stats_rng *rng, unsigned int n)
{
	/* Rejection keeps every value equally likely. */
	uint64_t limit = UINT64_MAX - UINT64_MAX % n, v;

	do
		v = stats_rng_next(rng);
	while (v >= limit);
	return (unsigned int)(v % n);
}

double stats_rng_normal(struct stats_rng *rng)
{
	/* Box–Muller; 1 - u keeps the logarithm's argument above 0. */
	double u = stats_rng_uniform(rng), v = stats_rng_uniform(rng);

	return sqrt(-2 * log(1 - u)) * cos(2 * M_PI * v);
}

/* ---- medians and their intervals ---- */

int stats_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* A sorted copy of x into buf (n <= STATS_MAX_REPS * STATS_MAX_REPS). */
static void sorted_copy(const double *x, size_t n, double *buf)
{
	memcpy(buf, x, n * sizeof(*x));
	qsort(buf, n, sizeof(*buf), stats_cmp_double);
}

static double median_sorted(const double *s, size_t n)
{
	return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

double stats_median(const double *x, size_t n)
{
	double s[STATS_MAX_REPS * STATS_MAX_REPS];

	if (n == 0 || n > sizeof(s) / sizeof(s[0]))
		return NAN;
	sorted_copy(x, n, s);
	return median_sorted(s, n);
}

double stats_binom_half_cdf(unsigned int n, int k)
{
	double term = ldexp(1.0, -(int)n), sum = 0;  /* C(n, 0) / 2^n */

	for (int i = 0; i <= k && i <= (int)n; i++) {
		sum += term;
		term = term * (double)(n - (unsigned int)i) / (double)(i + 1);
	}
	return sum > 1 ? 1 : sum;
}

/* The coverage of [x(k), x(n+1-k)]: the median lies outside it only when
 * fewer than k values fall on one side of it. */
static double order_coverage(size_t n, size_t k)
{
	return 1 - 2 * stats_binom_half_cdf((unsigned int)n, (int)k - 1);
}

void stats_median_ci(const double *x, size_t n, double level, struct stats_interval *ci)
{
	double s[STATS_MAX_REPS * STATS_MAX_REPS];
	size_t k = 1;

	if (n == 0 || n > sizeof(s) / sizeof(s[0])) {
		*ci = (struct stats_interval){ NAN, NAN, 0, false };
		return;
	}
	sorted_copy(x, n, s);
	while (k + 1 <= (n + 1) / 2 && order_coverage(n, k + 1) >= level)
		k++;
	ci->lo = s[k - 1];
	ci->hi = s[n - k];
	ci->coverage = order_coverage(n, k);
	ci->reached = ci->coverage >= level;
}

bool stats_spread_large(double median, const struct stats_interval *ci, double frac)
{
	double margin = frac * fabs(median);

	return ci->lo < median - margin || ci->hi > median + margin;
}

/* ---- Mann–Whitney U ---- */

/* ways[s]: the number of k-subsets of the n scores whose scores add up to
 * s, for s = 0..*maxsum (all scores >= 0); NULL when out of memory. */
static double *subset_sums(const unsigned int *score, size_t n, size_t k, unsigned int *maxsum)
{
	unsigned int total = 0;
	double *table, *ways;

	for (size_t i = 0; i < n; i++)
		total += score[i];
	table = calloc((k + 1) * (total + 1), sizeof(*table));
	if (!table)
		return NULL;
	table[0] = 1;  /* table[j * (total + 1) + s]: j of the items so far, sum s */
	for (size_t i = 0; i < n; i++)
		for (size_t j = (i + 1 < k ? i + 1 : k); j >= 1; j--)
			for (unsigned int s = total; s >= score[i]; s--) {
				table[j * (total + 1) + s] += table[(j - 1) * (total + 1) + s - score[i]];
				if (s == 0)
					break;
			}
	ways = malloc((total + 1) * sizeof(*ways));
	if (ways)
		memcpy(ways, table + k * (total + 1), (total + 1) * sizeof(*ways));
	free(table);
	*maxsum = total;
	return ways;
}

struct ranked {
	double v;
	bool from_x;
};

static int cmp_ranked(const void *a, const void *b)
{
	return stats_cmp_double(&((const struct ranked *)a)->v, &((const struct ranked *)b)->v);
}

/* Twice each value's midrank (whole numbers), x's first, and the ties' sum
 * of t^3 - t for the normal approximation's variance. */
static void doubled_midranks(const double *x, size_t nx, const double *y, size_t ny,
			     unsigned int *rank2, double *ties)
{
	struct ranked all[2 * STATS_MAX_REPS];
	size_t n = nx + ny, xi = 0, yi = nx;

	for (size_t i = 0; i < n; i++)
		all[i] = i < nx ? (struct ranked){ x[i], true } : (struct ranked){ y[i - nx], false };
	qsort(all, n, sizeof(all[0]), cmp_ranked);
	*ties = 0;
	for (size_t i = 0; i < n;) {
		size_t j = i;

		while (j + 1 < n && all[j + 1].v == all[i].v)
			j++;
		/* positions i..j (0-based) share the rank (i + 1 + j + 1) / 2 */
		for (size_t t = i; t <= j; t++)
			rank2[all[t].from_x ? xi++ : yi++] = (unsigned int)(i + j + 2);
		*ties += pow((double)(j - i + 1), 3) - (double)(j - i + 1);
		i = j + 1;
	}
}

static bool all_finite(const double *x, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!isfinite(x[i]))
			return false;
	return true;
}

static double choose(unsigned int n, unsigned int k)
{
	double c = 1;

	for (unsigned int i = 1; i <= k; i++)
		c = c * (double)(n - k + i) / (double)i;
	return c;
}

double stats_mwu_p_min(size_t nx, size_t ny)
{
	/* Of the C(n, nx) ways to deal the ranks, only the two extremes are as
	 * far from the mean rank sum as complete separation (the mean is midway
	 * between them, whatever the sizes). */
	return fmin(1, 2 / choose((unsigned int)(nx + ny), (unsigned int)nx));
}

size_t stats_mwu_reps_needed(size_t n, double level)
{
	for (size_t k = 1; k <= STATS_MAX_REPS; k++)
		if (stats_mwu_p_min(n, k) <= 1 - level)
			return k;
	return 0;
}

/* The exact two-sided p: the share of the ways to deal the ranks that put
 * x's rank sum at least as far from its mean as observed. */
static int exact_p(const unsigned int *rank2, size_t nx, size_t n, long w2, double *p)
{
	unsigned int maxsum;
	double *ways = subset_sums(rank2, n, nx, &maxsum), far = 0, all = 0;
	long mean2 = (long)(nx * (n + 1)), dist = labs(w2 - mean2);

	if (!ways)
		return -1;
	for (unsigned int s = 0; s <= maxsum; s++) {
		all += ways[s];
		if (labs((long)s - mean2) >= dist)
			far += ways[s];
	}
	free(ways);
	*p = far / all;
	return 0;
}

int stats_mann_whitney(const double *x, size_t nx, const double *y, size_t ny, struct stats_mwu *out)
{
	unsigned int rank2[2 * STATS_MAX_REPS];
	size_t n = nx + ny;
	double ties;
	long w2 = 0;

	if (nx < 1 || ny < 1 || nx > STATS_MAX_REPS || ny > STATS_MAX_REPS || !all_finite(x, nx) ||
	    !all_finite(y, ny))
		return -1;
	doubled_midranks(x, nx, y, ny, rank2, &ties);
	for (size_t i = 0; i < nx; i++)
		w2 += rank2[i];
	out->u = (double)w2 / 2 - (double)(nx * (nx + 1)) / 2;
	out->p_min = stats_mwu_p_min(nx, ny);
	out->exact = n <= STATS_EXACT_MAX;
	if (out->exact)
		return exact_p(rank2, nx, n, w2, &out->p);
	/* Normal approximation with the ties' correction and continuity. */
	double var = (double)(nx * ny) / 12 * ((double)(n + 1) - ties / ((double)n * (double)(n - 1)));
	double z = var > 0 ? fmax(0, fabs(out->u - (double)(nx * ny) / 2) - 0.5) / sqrt(var) : 0;

	out->p = var > 0 ? fmin(1, erfc(z / M_SQRT2)) : 1;
	return 0;
}

int stats_direction(const struct stats_mwu *t, size_t nx, size_t ny, double level)
{
	double centre = (double)(nx * ny) / 2;

	if (t->p > 1 - level || t->u == centre)
		return 0;
	return t->u > centre ? 1 : -1;
}

/* ---- Moses' interval of a ratio ---- */

/* The standard normal quantile, by bisection on erfc (called rarely). */
static double normal_quantile(double q)
{
	double lo = -40, hi = 40;

	for (int i = 0; i < 200; i++) {
		double mid = (lo + hi) / 2;

		if (0.5 * erfc(-mid / M_SQRT2) < q)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

/* The largest k with P(U <= k - 1) <= tail under no difference (no ties):
 * the Moses interval is [R(k), R(nx ny + 1 - k)]; 0 when even the extreme
 * ratios do not reach the level. */
static long moses_k(size_t nx, size_t ny, double tail)
{
	size_t n = nx + ny;

	if (n > STATS_EXACT_MAX) {
		double sd = sqrt((double)(nx * ny) * (double)(n + 1) / 12);

		return (long)floor((double)(nx * ny) / 2 - 0.5 + normal_quantile(tail) * sd) + 1;
	}
	unsigned int rank[2 * STATS_MAX_REPS], maxsum;
	double *ways, all = 0, below = 0;
	long k = 0;

	for (size_t i = 0; i < n; i++)
		rank[i] = (unsigned int)i + 1;
	ways = subset_sums(rank, n, nx, &maxsum);
	if (!ways)
		return -1;
	for (unsigned int s = 0; s <= maxsum; s++)
		all += ways[s];
	/* U = W - nx(nx+1)/2; accumulate P(U <= u) while it stays within the tail. */
	for (unsigned int s = (unsigned int)(nx * (nx + 1) / 2); s <= maxsum; s++) {
		below += ways[s];
		if (below / all > tail)
			break;
		k = (long)(s - nx * (nx + 1) / 2) + 1;
	}
	free(ways);
	return k;
}

int stats_ratio_ci(const double *x, size_t nx, const double *y, size_t ny, double level,
		   struct stats_ratio *out)
{
	static double r[STATS_MAX_REPS * STATS_MAX_REPS];
	size_t m = nx * ny;
	long k;

	if (nx < 1 || ny < 1 || nx > STATS_MAX_REPS || ny > STATS_MAX_REPS)
		return -1;
	for (size_t i = 0; i < nx; i++)
		for (size_t j = 0; j < ny; j++) {
			if (!(x[i] > 0) || !(y[j] > 0) || !isfinite(x[i]) || !isfinite(y[j]))
				return -1;
			r[i * ny + j] = x[i] / y[j];
		}
	qsort(r, m, sizeof(r[0]), stats_cmp_double);
	/* The median of the log ratios, as the interval is on their scale: with
	 * m even, the geometric mean of the middle two, so that swapping x and y
	 * gives exactly the reciprocal (their arithmetic mean would not). */
	out->estimate = m % 2 ? r[m / 2] : sqrt(r[m / 2 - 1]) * sqrt(r[m / 2]);
	k = moses_k(nx, ny, (1 - level) / 2);
	if (k < 0)
		return -1;
	out->reached = k >= 1;
	out->lo = r[k >= 1 ? k - 1 : 0];
	out->hi = r[k >= 1 ? m - (size_t)k : m - 1];
	return 0;
}

/* ---- histograms ---- */

double stats_emd_bins(const uint64_t *a, const uint64_t *b, size_t nbins)
{
	double ta = 0, tb = 0, ca = 0, cb = 0, d = 0;

	for (size_t i = 0; i < nbins; i++) {
		ta += (double)a[i];
		tb += (double)b[i];
	}
	if (ta == 0 || tb == 0)
		return 0;
	for (size_t i = 0; i < nbins; i++) {
		ca += (double)a[i];
		cb += (double)b[i];
		d += fabs(ca / ta - cb / tb);
	}
	return d;
}

#define HIST_MAX_BINS 64

/* The runs of both sides in one array, x's first. */
struct runset {
	const uint64_t *run[2 * STATS_MAX_REPS];
	size_t n, nx, nbins;
	uint64_t total[HIST_MAX_BINS];
};

static int runset_init(struct runset *rs, const uint64_t *const *x, size_t nx, const uint64_t *const *y,
		       size_t ny, size_t nbins)
{
	uint64_t tx = 0, ty = 0;

	if (nx < 1 || ny < 1 || nx > STATS_MAX_REPS || ny > STATS_MAX_REPS || nbins > HIST_MAX_BINS)
		return -1;
	rs->n = nx + ny;
	rs->nx = nx;
	rs->nbins = nbins;
	memset(rs->total, 0, sizeof(rs->total));
	for (size_t i = 0; i < rs->n; i++) {
		rs->run[i] = i < nx ? x[i] : y[i - nx];
		for (size_t b = 0; b < nbins; b++) {
			rs->total[b] += rs->run[i][b];
			*(i < nx ? &tx : &ty) += rs->run[i][b];
		}
	}
	return tx && ty ? 0 : -1;
}

/* The distance when the runs at `pick` (nx of them) are one side. */
static double split_emd(const struct runset *rs, const size_t *pick)
{
	uint64_t a[HIST_MAX_BINS] = { 0 }, b[HIST_MAX_BINS];

	for (size_t i = 0; i < rs->nx; i++)
		for (size_t k = 0; k < rs->nbins; k++)
			a[k] += rs->run[pick[i]][k];
	for (size_t k = 0; k < rs->nbins; k++)
		b[k] = rs->total[k] - a[k];
	return stats_emd_bins(a, b, rs->nbins);
}

/* The next nx-combination of 0..n-1 in lexicographic order; false after the last. */
static bool next_combination(size_t *c, size_t k, size_t n)
{
	size_t i = k;

	while (i > 0 && c[i - 1] == n - k + i - 1)
		i--;
	if (i == 0)
		return false;
	c[i - 1]++;
	for (size_t j = i; j < k; j++)
		c[j] = c[j - 1] + 1;
	return true;
}

/* A random nx-subset of 0..n-1: the head of a partial Fisher–Yates shuffle. */
static void random_combination(size_t *c, size_t k, size_t n, struct stats_rng *rng)
{
	size_t idx[2 * STATS_MAX_REPS];

	for (size_t i = 0; i < n; i++)
		idx[i] = i;
	for (size_t i = 0; i < k; i++) {
		size_t j = i + stats_rng_below(rng, (unsigned int)(n - i)), t = idx[i];

		idx[i] = idx[j];
		idx[j] = t;
		c[i] = idx[i];
	}
}

int stats_hist_permutation(const uint64_t *const *x, size_t nx, const uint64_t *const *y, size_t ny,
			   size_t nbins, unsigned long max, uint64_t seed, struct stats_hist_test *out)
{
	struct runset rs;
	size_t pick[2 * STATS_MAX_REPS] = { 0 };
	double ways, tolerance;
	unsigned long far = 0;

	if (runset_init(&rs, x, nx, y, ny, nbins) != 0 || max < 1)
		return -1;
	for (size_t i = 0; i < nx; i++)
		pick[i] = i;
	out->emd = split_emd(&rs, pick);
	tolerance = out->emd * 1e-12;  /* the same split summed in another order */
	ways = choose((unsigned int)rs.n, (unsigned int)nx);
	out->exhaustive = ways <= (double)max;
	if (out->exhaustive) {
		out->relabellings = 0;
		do {
			far += split_emd(&rs, pick) >= out->emd - tolerance;
			out->relabellings++;
		} while (next_combination(pick, nx, rs.n));
		out->p = (double)far / (double)out->relabellings;
		/* With equal sides, a split and its mirror are equally far apart. */
		out->p_min = (nx == ny ? 2 : 1) / ways;
		return 0;
	}
	struct stats_rng rng;

	stats_rng_seed(&rng, seed);
	for (unsigned long i = 0; i < max; i++) {
		random_combination(pick, nx, rs.n, &rng);
		far += split_emd(&rs, pick) >= out->emd - tolerance;
	}
	out->relabellings = max;
	/* The observed split counts as one of them (a valid p, never 0). */
	out->p = (double)(far + 1) / (double)(max + 1);
	out->p_min = 1 / (double)(max + 1);
	return 0;
}

/* Per-bin shares of the pooled runs at `pick` (n of them), into share. */
static void pooled_shares(const uint64_t *const *runs, const size_t *pick, size_t n, size_t nbins, double *share)
{
	double total = 0;

	for (size_t b = 0; b < nbins; b++)
		share[b] = 0;
	for (size_t i = 0; i < n; i++)
		for (size_t b = 0; b < nbins; b++)
			share[b] += (double)runs[pick[i]][b];
	for (size_t b = 0; b < nbins; b++)
		total += share[b];
	for (size_t b = 0; b < nbins; b++)
		share[b] = total > 0 ? 100 * share[b] / total : 0;
}

/* One resample of a side: n of its runs drawn with replacement. */
static void resample(size_t *pick, size_t n, struct stats_rng *rng)
{
	for (size_t i = 0; i < n; i++)
		pick[i] = stats_rng_below(rng, (unsigned int)n);
}

/* P(0 < T < sqrt(nu) tan(theta)) for Student's t with nu >= 1 degrees of
 * freedom: with t = sqrt(nu) tan(phi) the density becomes
 * K cos^(nu-1)(phi), bounded and smooth on [0, pi/2), which Simpson's rule
 * integrates to ~1e-10 in 400 steps. */
static double t_half_mass(double theta, double nu)
{
	const int steps = 400;
	double h = theta / steps, sum = 1 + pow(cos(theta), nu - 1);

	for (int i = 1; i < steps; i++)
		sum += (i % 2 ? 4 : 2) * pow(cos(i * h), nu - 1);
	return exp(lgamma((nu + 1) / 2) - lgamma(nu / 2)) / sqrt(M_PI) * sum * h / 3;
}

/* Newton on theta, the derivative being the integrand (the function is
 * concave in theta, so from below it never overshoots). */
double stats_t_quantile(double q, double nu)
{
	double theta = atan(normal_quantile(q) / sqrt(nu)), k = exp(lgamma((nu + 1) / 2) - lgamma(nu / 2)) / sqrt(M_PI);

	for (int i = 0; i < 50; i++) {
		double step = (t_half_mass(theta, nu) - (q - 0.5)) / (k * pow(cos(theta), nu - 1));

		theta = fmin(fmax(theta - step, 0), M_PI_2 * (1 - 1e-12));
		if (fabs(step) < 1e-13)
			break;
	}
	return sqrt(nu) * tan(theta);
}

/* Running sums of one side's resampled shares, bin by bin. */
struct share_moments {
	double sum[HIST_MAX_BINS], sumsq[HIST_MAX_BINS];
};

static void add_shares(struct share_moments *mo, const double *share, size_t nbins)
{
	for (size_t b = 0; b < nbins; b++) {
		mo->sum[b] += share[b];
		mo->sumsq[b] += share[b] * share[b];
	}
}

/* A side's share variance in bin b: the bootstrap's, times n / (n - 1),
 * which undoes its shrinkage (resampling n runs spreads them by (n - 1) / n
 * of the runs' own variance). */
static double share_variance(const struct share_moments *mo, size_t b, unsigned int resamples, size_t n)
{
	double mean = mo->sum[b] / resamples, var = mo->sumsq[b] / resamples - mean * mean;

	return (var > 0 ? var : 0) * (double)n / (double)(n - 1);
}

int stats_share_diff(const uint64_t *const *x, size_t nx, const uint64_t *const *y, size_t ny, size_t nbins,
		     double level, unsigned int resamples, uint64_t seed, double *diff, double *lo, double *hi)
{
	struct runset rs;
	struct stats_rng rng;
	struct share_moments mx = { 0 }, my = { 0 };
	size_t px[STATS_MAX_REPS], py[STATS_MAX_REPS];
	double sx[HIST_MAX_BINS], sy[HIST_MAX_BINS];

	if (runset_init(&rs, x, nx, y, ny, nbins) != 0 || nx < 2 || ny < 2 || resamples < 2)
		return -1;
	for (size_t i = 0; i < STATS_MAX_REPS; i++)
		px[i] = py[i] = i;
	pooled_shares(x, px, nx, nbins, sx);
	pooled_shares(y, py, ny, nbins, sy);
	for (size_t b = 0; b < nbins; b++)
		diff[b] = sy[b] - sx[b];
	stats_rng_seed(&rng, seed);
	for (unsigned int r = 0; r < resamples; r++) {
		resample(px, nx, &rng);
		resample(py, ny, &rng);
		pooled_shares(x, px, nx, nbins, sx);
		pooled_shares(y, py, ny, nbins, sy);
		add_shares(&mx, sx, nbins);
		add_shares(&my, sy, nbins);
	}
	for (size_t b = 0; b < nbins; b++) {
		double vx = share_variance(&mx, b, resamples, nx), vy = share_variance(&my, b, resamples, ny);
		/* The smaller side's degrees of freedom, not Welch–Satterthwaite's:
		 * with 2 or 3 runs a side its variance is itself so uncertain that
		 * Satterthwaite's estimate of them, taken from the two variances,
		 * runs high exactly when that side's variance came out small
		 * (2:8 covered 91%, 3:10 90% of 95%: scripts/share-coverage.c). */
		double nu = (double)((nx < ny ? nx : ny) - 1);
		double half = vx + vy > 0 ? stats_t_quantile(1 - (1 - level) / 2, nu) * sqrt(vx + vy) : 0;

		lo[b] = diff[b] - half;
		hi[b] = diff[b] + half;
	}
	return 0;
}
