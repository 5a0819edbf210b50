/*
 * compare_csv.c — lbcompare --csv: the derived files the gnuplot scripts
 * read (results/README.md, "Derived files"; listed in compare.c).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"

/* ---- derived CSV files for gnuplot ---- */

/* A derived file, written whole or not at all (safefile.h): a link or FIFO
 * in its place in DIR is replaced, never written through. */
static FILE *csv_open(const struct sf_dir *dir, const char *name, struct sf_out *o)
{
	return sf_out_open(o, dir, name, err, sizeof(err));
}

static int csv_close(struct sf_out *o)
{
	return sf_out_commit(o, err, sizeof(err));
}

/* The median TSC rate of the group's runs, for the ns axis. */
static double group_tsc_hz(const struct group *g)
{
	double v[MAX_RUNS];
	unsigned int n = 0;

	for (unsigned int i = 0; i < g->nv; i++)
		for (unsigned int r = 0; r < g->v[i].nreps && n < MAX_RUNS; r++)
			if (result_number(g->v[i].reps[r], "tsc_hz", &v[n], err, sizeof(err)) == 0 && v[n] > 0)
				n++;
	err[0] = '\0';
	if (!n)
		return 0;
	qsort(v, n, sizeof(v[0]), cmp_double);
	return v[n / 2];
}

/* The group's histograms in % of each variant's acquisitions (all of them,
 * or the contended ones: hist-contended-*.csv, written only when every
 * variant's runs have them and some contended at all, so that a chart of it
 * has something to show).  The kernel row has a column in the contended
 * one only: its waits are its contended acquisitions. */
/* A group's CSV file: STEM-<workload>-t<threads>.csv, and with several
 * hosts STEM-<workload>-t<threads>@<host>.csv. */
static void group_file(char *name, size_t len, const char *stem, const struct group *g)
{
	snprintf(name, len, "%s-%s-t%u%s%s.csv", stem, g->workload, g->threads, nhosts > 1 ? "@" : "",
		 nhosts > 1 ? hosts[g->host].label : "");
}

static int csv_hist(const struct group *g, const struct sf_dir *dir, bool contended)
{
	char name[256];
	double hz = group_tsc_hz(g);
	uint64_t total = 0;
	struct sf_out o;
	FILE *f;

	for (unsigned int i = 0; i < g->nv; i++) {
		struct hist_view h = hist_of(&g->v[i], contended);

		if (!h.ok && !g->v[i].kernel_row)
			return 0;
		total += h.ok ? h.total : 0;
	}
	if (!total)
		return 0;
	group_file(name, sizeof(name), contended ? "hist-contended" : "hist", g);
	if (!(f = csv_open(dir, name, &o)))
		return -1;
	fprintf(f, "bin,lower_cycles,lower_ns");
	for (unsigned int i = 0; i < g->nv; i++)
		if (hist_of(&g->v[i], contended).ok)
			fprintf(f, ",%s", g->v[i].label);
	fprintf(f, "\n");
	for (int b = 0; b < RESULT_BINS; b++) {
		double lower = b ? ldexp(1.0, b) : 0;

		fprintf(f, "%d,%.0f,%.3f", b, lower, hz > 0 ? lower * 1e9 / hz : 0);
		for (unsigned int i = 0; i < g->nv; i++) {
			struct hist_view h = hist_of(&g->v[i], contended);

			if (h.ok)
				fprintf(f, ",%.4f", h.total ? 100.0 * (double)h.bins[b] / (double)h.total : 0);
		}
		fprintf(f, "\n");
	}
	return csv_close(&o);
}

/* The median of a phase count; 0 where the runs predate the phase (their
 * other phases add up to the acquisitions without it). */
static int phase_median(const struct variant *v, const char *key, double *out)
{
	struct stat3 s;

	*out = 0;
	if (!has_key(v, key))
		return 0;
	if (figure(v, key, 1, &s))
		return -1;
	*out = s.median;
	return 0;
}

static int csv_phases(const struct group *g, const struct sf_dir *dir)
{
	static const char *const phases[] = { "acq_fast", "acq_spin", "acq_nosleep", "acq_sleep" };
	enum { NPHASES = sizeof(phases) / sizeof(phases[0]) };
	char name[256];
	struct sf_out o;
	FILE *f;

	group_file(name, sizeof(name), "phases", g);
	if (!(f = csv_open(dir, name, &o)))
		return -1;
	fprintf(f, "lock,fast_pct,spin_pct,nosleep_pct,sleep_pct\n");
	for (unsigned int i = 0; i < g->nv; i++) {
		double n[NPHASES], total = 0;

		if (g->v[i].kernel_row)
			continue;  /* no userspace lock, so no phases */
		for (int k = 0; k < NPHASES; k++) {
			if (phase_median(&g->v[i], phases[k], &n[k])) {
				sf_out_abort(&o);
				return -1;
			}
			total += n[k];
		}
		fprintf(f, "%s", g->v[i].series);
		for (int k = 0; k < NPHASES; k++)
			fprintf(f, ",%.3f", total ? 100 * n[k] / total : 0);
		fprintf(f, "\n");
	}
	return csv_close(&o);
}

/* Locks in order of first appearance across the groups of one workload. */
static unsigned int workload_locks(const char *workload, const char **locks, unsigned int max)
{
	unsigned int n = 0;

	for (unsigned int gi = 0; gi < ngroups; gi++) {
		if (strcmp(groups[gi].workload, workload) != 0)
			continue;
		for (unsigned int i = 0; i < groups[gi].nv; i++) {
			unsigned int k = 0;

			while (k < n && strcmp(locks[k], groups[gi].v[i].series) != 0)
				k++;
			if (k == n && n < max)
				locks[n++] = groups[gi].v[i].series;
		}
	}
	return n;
}

static const struct variant *find_series(const struct group *g, const char *series)
{
	for (unsigned int i = 0; i < g->nv; i++)
		if (strcmp(g->v[i].series, series) == 0)
			return &g->v[i];
	return NULL;
}

/* The variant called `series` among the workload's groups at `threads`
 * (one per host). */
static const struct variant *find_series_at(const char *workload, unsigned int threads, const char *series)
{
	for (unsigned int gi = 0; gi < ngroups; gi++) {
		const struct variant *v = NULL;

		if (strcmp(groups[gi].workload, workload) == 0 && groups[gi].threads == threads &&
		    (v = find_series(&groups[gi], series)))
			return v;
	}
	return NULL;
}

static int cmp_group_threads(const void *a, const void *b)
{
	const struct group *x = *(const struct group *const *)a, *y = *(const struct group *const *)b;

	return (x->threads > y->threads) - (x->threads < y->threads);
}

/* One row per thread count, one column per lock; empty where not run.
 * With `ci`, three columns per lock: the median, then its 95% interval's
 * ends (`<lock> lo`, `<lock> hi`), for error bars. */
static int csv_sweep(const char *workload, const char *key, const struct sf_dir *dir, bool ci)
{
	const char *locks[MAX_VARIANTS];
	const struct group *rows[MAX_GROUPS];
	unsigned int nlocks = workload_locks(workload, locks, MAX_VARIANTS), nrows = 0;
	char name[256];
	struct sf_out o;
	FILE *f;

	/* One row per thread count: with several hosts, each host's variants
	 * are their own series (lock@host), found in that host's group. */
	for (unsigned int gi = 0; gi < ngroups; gi++) {
		bool seen = false;

		for (unsigned int r = 0; r < nrows; r++)
			seen |= rows[r]->threads == groups[gi].threads;
		if (strcmp(groups[gi].workload, workload) == 0 && !seen)
			rows[nrows++] = &groups[gi];
	}
	qsort(rows, nrows, sizeof(rows[0]), cmp_group_threads);
	snprintf(name, sizeof(name), "sweep-%s-%s%s.csv", workload, key, ci ? "-ci" : "");
	if (!(f = csv_open(dir, name, &o)))
		return -1;
	fprintf(f, "threads");
	for (unsigned int k = 0; k < nlocks; k++)
		if (ci)
			fprintf(f, ",%s,%s lo,%s hi", locks[k], locks[k], locks[k]);
		else
			fprintf(f, ",%s", locks[k]);
	fprintf(f, "\n");
	for (unsigned int r = 0; r < nrows; r++) {
		fprintf(f, "%u", rows[r]->threads);
		for (unsigned int k = 0; k < nlocks; k++) {
			const struct variant *v = find_series_at(workload, rows[r]->threads, locks[k]);
			struct stat3 s;

			if (!v) {
				fprintf(f, ci ? ",,," : ",");
				continue;
			}
			if (figure(v, key, 1, &s)) {
				sf_out_abort(&o);
				return -1;
			}
			fprintf(f, ",%.6g", s.median);
			if (ci)
				fprintf(f, ",%.6g,%.6g", s.ci.lo, s.ci.hi);
		}
		fprintf(f, "\n");
	}
	return csv_close(&o);
}

/* One row of stats-*.csv or kernel-*.csv: variant i's figure, and against
 * the baseline's. */
static int csv_stats_row(FILE *f, const struct group *g, unsigned int i, const struct column *col)
{
	struct stat3 s, base;
	struct verdict vd;
	bool base_ok;

	if (figure_missing(&g->v[i], col) != FIGURE_OK)
		return 0;
	if (figure_pair(g, i, col, &s, &base, &base_ok))
		return -1;
	fprintf(f, "%s,%s,%u,%.6g,%.6g,%.6g,%.4f,%d", g->v[i].series, figure_name(col), s.n,
		s.median, s.ci.lo,
		s.ci.hi, s.ci.coverage, s.n >= 2 && stats_spread_large(s.median, &s.ci, STATS_SPREAD));
	if (!base_ok || i == 0) {
		fprintf(f, ",%u,%s,,,,%s\n", base_ok ? base.n : 0, i == 0 ? "1" : "", i == 0 ? "baseline" : "-");
		return 0;
	}
	judge(&s, &base, &vd);
	fprintf(f, ",%u,", base.n);
	if (base.median != 0)
		fprintf(f, "%.6g", s.median / base.median);
	if (vd.ratio_ok && vd.ratio.reached)
		fprintf(f, ",%.6g,%.6g", vd.ratio.lo, vd.ratio.hi);
	else
		fprintf(f, ",,");
	if (vd.tested)
		fprintf(f, ",%.6g", vd.mwu.p);
	else
		fprintf(f, ",");
	fprintf(f, ",%s\n", verdict_word(&vd, column_sense(col)));
	return 0;
}

/* STEM-<workload>-t<threads>.csv: the figures of `cols`, every variant: the
 * median and its interval, the ratio and its, the verdict. */
static int csv_figures(const struct group *g, const struct sf_dir *dir, const char *stem, const struct column *cols,
		       unsigned int ncols)
{
	char name[256];
	struct sf_out o;
	FILE *f;

	group_file(name, sizeof(name), stem, g);
	if (!(f = csv_open(dir, name, &o)))
		return -1;
	fprintf(f, "variant,figure,runs,median,ci_lo,ci_hi,ci_coverage,spread_large,baseline_runs,ratio,"
		   "ratio_ci_lo,ratio_ci_hi,p,verdict\n");
	for (unsigned int i = 0; i < g->nv; i++)
		for (unsigned int c = 0; c < ncols; c++)
			if (csv_stats_row(f, g, i, &cols[c])) {
				sf_out_abort(&o);
				return -1;
			}
	return csv_close(&o);
}

/* stats-<workload>-t<threads>.csv: every figure with a ratio. */
static int csv_stats(const struct group *g, const struct sf_dir *dir)
{
	struct column cols[6];
	unsigned int ncols = ratio_columns(g, cols);

	return csv_figures(g, dir, "stats", cols, ncols);
}

/* kernel-<workload>-t<threads>.csv: the models beside the running kernel's
 * mutex, where it is the group's baseline, its first rows (kernel_columns()). */
static int csv_kernel(const struct group *g, const struct sf_dir *dir)
{
	unsigned int ncols;
	const struct column *cols = kernel_columns(&ncols);

	return kernel_baseline(g) ? csv_figures(g, dir, "kernel", cols, ncols) : 0;
}

/* histcmp-<workload>-t<threads>.csv (each variant's distance from the
 * baseline's histogram) and histdiff-<workload>-t<threads>.csv (per bin, the
 * change of share): written when some variant has two runs or more. */
static int csv_histcmp(const struct group *g, const struct sf_dir *dir)
{
	static struct hist_comparison c;
	char name[256];
	struct sf_out o, o2;
	FILE *f, *d;

	if (group_max_reps(g) < 2 || g->nv < 2)
		return 0;
	group_file(name, sizeof(name), "histcmp", g);
	if (!(f = csv_open(dir, name, &o)))
		return -1;
	group_file(name, sizeof(name), "histdiff", g);
	if (!(d = csv_open(dir, name, &o2))) {
		sf_out_abort(&o);
		return -1;
	}
	fprintf(f, "histogram,variant,runs,baseline_runs,emd_bins,mean_shift_bins,p,relabellings,verdict\n");
	fprintf(d, "histogram,variant,bin,diff_pp,diff_lo_pp,diff_hi_pp\n");
	for (int contended = 1; contended >= 0; contended--)
		for (unsigned int i = 1; i < g->nv; i++) {
			const char *kind = contended ? "contended" : "all";

			if (!compare_hists(g, i, contended, &c))
				continue;
			fprintf(f, "%s,%s,%u,%u,%.4f,%.4f,%.6g,%lu,%s\n", kind, g->v[i].series, g->v[i].nreps,
				g->v[0].nreps, c.test.emd, c.mean_shift, c.test.p, c.test.relabellings,
				hist_verdict(&c));
			for (int b = 0; b < RESULT_BINS; b++)
				fprintf(d, "%s,%s,%d,%.4f,%.4f,%.4f\n", kind, g->v[i].series, b, c.diff[b], c.lo[b],
					c.hi[b]);
		}
	if (csv_close(&o2)) {
		sf_out_abort(&o);
		return -1;
	}
	return csv_close(&o);
}

int write_csvs(const struct sf_dir *dir)
{
	for (unsigned int i = 0; i < ngroups; i++) {
		bool first_of_workload = true;

		if (csv_hist(&groups[i], dir, false) || csv_hist(&groups[i], dir, true) ||
		    csv_phases(&groups[i], dir) || csv_stats(&groups[i], dir) || csv_kernel(&groups[i], dir) ||
		    csv_histcmp(&groups[i], dir))
			return -1;
		for (unsigned int j = 0; j < i; j++)
			if (strcmp(groups[j].workload, groups[i].workload) == 0)
				first_of_workload = false;
		for (int ci = 0; first_of_workload && ci <= 1; ci++)
			if (csv_sweep(groups[i].workload, "ops_per_s", dir, ci) ||
			    csv_sweep(groups[i].workload, "cpu_us_per_op", dir, ci))
				return -1;
	}
	return 0;
}
