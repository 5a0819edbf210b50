/*
 * csv.c — lbcompare --csv: the derived files the gnuplot scripts read
 * (results/README.md, "Derived files"; listed in lbcompare.c).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../figures/figures.h"
#include "print.h"

/* The files being written: of which comparison, into which directory, and
 * where what could not be written is said. */
struct csv {
	const struct comparison *c;
	const struct sf_dir *dir;
	char *err;
	size_t errlen;
};

/* A derived file, written whole or not at all (safefile.h): a link or FIFO
 * in its place in DIR is replaced, never written through. */
static FILE *csv_open(struct csv *t, const char *name, struct sf_out *o)
{
	return sf_out_open(o, t->dir, name, t->err, t->errlen);
}

static int csv_close(struct csv *t, struct sf_out *o)
{
	return sf_out_commit(o, t->err, t->errlen);
}

/* The median TSC rate of the group's runs, for the ns axis. */
static double group_tsc_hz(const struct group *g)
{
	double v[MAX_VARIANTS * MAX_REPS];
	unsigned int n = 0;
	char ignored[256];

	for (unsigned int i = 0; i < g->nv; i++)
		for (unsigned int r = 0; r < g->v[i].nreps; r++)
			if (result_number(g->v[i].reps[r], "tsc_hz", &v[n], ignored, sizeof(ignored)) == 0 && v[n] > 0)
				n++;
	if (!n)
		return 0;
	qsort(v, n, sizeof(v[0]), stats_cmp_double);
	return v[n / 2];
}

/* A group's CSV file: STEM-<workload>-t<threads>.csv, and with several
 * hosts STEM-<workload>-t<threads>@<host>.csv. */
static void group_file(struct csv *t, char *name, size_t len, const char *stem, const struct group *g)
{
	snprintf(name, len, "%s-%s-t%u%s%s.csv", stem, g->workload, g->threads, t->c->nhosts > 1 ? "@" : "",
		 t->c->nhosts > 1 ? t->c->hosts[g->host].label : "");
}

/* The group's histograms in % of each variant's acquisitions (all of them,
 * or the contended ones: hist-contended-*.csv), written only where they
 * make a chart (hist_charted).  The kernel row has a column in the
 * contended one only: its waits are its contended acquisitions. */
static int csv_hist(struct csv *t, const struct group *g, bool contended)
{
	char name[256];
	double hz = group_tsc_hz(g);
	struct sf_out o;
	FILE *f;

	if (!hist_charted(g, contended))
		return 0;
	group_file(t, name, sizeof(name), contended ? "hist-contended" : "hist", g);
	if (!(f = csv_open(t, name, &o)))
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
	return csv_close(t, &o);
}

/* The median of a phase count; 0 where the runs predate the phase (their
 * other phases add up to the acquisitions without it). */
static int phase_median(struct csv *t, const struct variant *v, const char *key, double *out)
{
	struct stat3 s;

	*out = 0;
	if (!has_key(v, key))
		return 0;
	if (figure(v, key, 1, &s, t->err, t->errlen))
		return -1;
	*out = s.median;
	return 0;
}

static int csv_phases(struct csv *t, const struct group *g)
{
	char name[256];
	struct sf_out o;
	FILE *f;

	group_file(t, name, sizeof(name), "phases", g);
	if (!(f = csv_open(t, name, &o)))
		return -1;
	/* A phase's column: its key less "acq_" (acq_fast: fast_pct). */
	fprintf(f, "lock");
	for (size_t k = 0; k < NPHASE_KEYS; k++)
		fprintf(f, ",%s_pct", phase_keys[k] + strlen("acq_"));
	fprintf(f, "\n");
	for (unsigned int i = 0; i < g->nv; i++) {
		double n[NPHASE_KEYS], total = 0;

		if (g->v[i].kernel_row)
			continue;  /* no userspace lock, so no phases */
		for (size_t k = 0; k < NPHASE_KEYS; k++) {
			if (phase_median(t, &g->v[i], phase_keys[k], &n[k])) {
				sf_out_abort(&o);
				return -1;
			}
			total += n[k];
		}
		fprintf(f, "%s", g->v[i].series);
		for (size_t k = 0; k < NPHASE_KEYS; k++)
			fprintf(f, ",%.3f", total ? 100 * n[k] / total : 0);
		fprintf(f, "\n");
	}
	return csv_close(t, &o);
}

/* One row per thread count, one column per lock; empty where not run.
 * With `ci`, three columns per lock: the median, then its 95% interval's
 * ends (`<lock> lo`, `<lock> hi`), for error bars. */
static int csv_sweep(struct csv *t, const char *workload, const struct column *col, bool ci)
{
	static struct sweep sw;
	char name[256];
	struct sf_out o;
	FILE *f;
	const char *key = col->key;

	sweep_of(t->c, workload, &sw);
	/* Named by its key (sweep-W-ops_per_s.csv, whatever the rate's unit:
	 * the scripts' name); a sum of keys by its column's name. */
	snprintf(name, sizeof(name), "sweep-%s-%s%s.csv", workload, strpbrk(key, "+-") ? figure_name(col) : key,
		 ci ? "-ci" : "");
	if (!(f = csv_open(t, name, &o)))
		return -1;
	fprintf(f, "threads");
	for (unsigned int k = 0; k < sw.nseries; k++)
		if (ci)
			fprintf(f, ",%s,%s lo,%s hi", sw.series[k], sw.series[k], sw.series[k]);
		else
			fprintf(f, ",%s", sw.series[k]);
	fprintf(f, "\n");
	for (unsigned int r = 0; r < sw.nrows; r++) {
		fprintf(f, "%u", sw.rows[r]->threads);
		for (unsigned int k = 0; k < sw.nseries; k++) {
			const struct variant *v = sweep_variant(t->c, workload, sw.rows[r]->threads, sw.series[k]);
			struct stat3 s;

			/* Not run, or a figure it lacks (a metric its output did not
			 * give, a figure not measured): an empty cell, as the tables'
			 * n/a. */
			if (!v || figure_missing(v, col) != FIGURE_OK) {
				fprintf(f, ci ? ",,," : ",");
				continue;
			}
			if (figure(v, key, 1, &s, t->err, t->errlen)) {
				sf_out_abort(&o);
				return -1;
			}
			fprintf(f, ",%.6g", s.median);
			if (ci)
				fprintf(f, ",%.6g,%.6g", s.ci.lo, s.ci.hi);
		}
		fprintf(f, "\n");
	}
	return csv_close(t, &o);
}

/* One row of stats-*.csv or kernel-*.csv: variant i's figure, and against
 * the baseline's. */
static int csv_stats_row(struct csv *t, FILE *f, const struct group *g, unsigned int i, const struct column *col)
{
	struct stat3 s, base;
	struct verdict vd;
	bool base_ok;

	if (figure_missing(&g->v[i], col) != FIGURE_OK)
		return 0;
	if (figure_pair(g, i, col, &s, &base, &base_ok, t->err, t->errlen))
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
	if (vd.ratio_ok || base.median != 0)
		fprintf(f, "%.6g", verdict_ratio(&vd, &s, &base));
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
static int csv_figures(struct csv *t, const struct group *g, const char *stem, const struct column *cols,
		       unsigned int ncols)
{
	char name[256];
	struct sf_out o;
	FILE *f;

	group_file(t, name, sizeof(name), stem, g);
	if (!(f = csv_open(t, name, &o)))
		return -1;
	fprintf(f, "variant,figure,runs,median,ci_lo,ci_hi,ci_coverage,spread_large,baseline_runs,ratio,"
		   "ratio_ci_lo,ratio_ci_hi,p,verdict\n");
	for (unsigned int i = 0; i < g->nv; i++)
		for (unsigned int c = 0; c < ncols; c++)
			if (csv_stats_row(t, f, g, i, &cols[c])) {
				sf_out_abort(&o);
				return -1;
			}
	return csv_close(t, &o);
}

/* stats-<workload>-t<threads>.csv: every figure with a ratio. */
static int csv_stats(struct csv *t, const struct group *g)
{
	struct column cols[RATIO_COLUMNS_MAX];
	unsigned int ncols = ratio_columns(g, cols);

	return csv_figures(t, g, "stats", cols, ncols);
}

/* kernel-<workload>-t<threads>.csv: the models beside the running kernel's
 * mutex, where it is the group's baseline, its first rows (kernel_columns()). */
static int csv_kernel(struct csv *t, const struct group *g)
{
	unsigned int ncols;
	const struct column *cols = kernel_columns(&ncols);

	return kernel_baseline(g) ? csv_figures(t, g, "kernel", cols, ncols) : 0;
}

/* histcmp-<workload>-t<threads>.csv (each variant's distance from the
 * baseline's histogram) and histdiff-<workload>-t<threads>.csv (per bin, the
 * change of share): written when some variant has two runs or more. */
static int csv_histcmp(struct csv *t, const struct group *g)
{
	static struct hist_comparison c;
	char name[256];
	struct sf_out o, o2;
	FILE *f, *d;

	if (group_max_reps(g) < 2 || g->nv < 2)
		return 0;
	group_file(t, name, sizeof(name), "histcmp", g);
	if (!(f = csv_open(t, name, &o)))
		return -1;
	group_file(t, name, sizeof(name), "histdiff", g);
	if (!(d = csv_open(t, name, &o2))) {
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
	if (csv_close(t, &o2)) {
		sf_out_abort(&o);
		return -1;
	}
	return csv_close(t, &o);
}

/* The column (1 the first) of variant VI in the group's histogram CSV, or 0
 * where it has no such histogram (csv_hist's columns: bin, lower_cycles,
 * lower_ns, then each variant that has the histogram). */
static unsigned int hist_column(const struct group *g, unsigned int vi, bool contended)
{
	unsigned int col = 3;

	for (unsigned int i = 0; i <= vi && i < g->nv; i++)
		col += hist_of(&g->v[i], contended).ok;
	return vi < g->nv && hist_of(&g->v[vi], contended).ok ? col : 0;
}

/* The column of the kernel's row, or 0. */
static unsigned int kernel_column(const struct group *g)
{
	for (unsigned int i = 0; i < g->nv; i++)
		if (g->v[i].kernel_row)
			return hist_column(g, i, true);
	return 0;
}

/* Whether the group is of simulated runs of a workload whose contended
 * histogram the seed published (text_seed.c): its chart draws the seed's
 * beside the simulated ones, as report.md's section sets their tables. */
static bool seed_charted(const struct comparison *c, const struct group *g, struct seed_figures *s)
{
	const struct result_host *id = c->hosts[g->host].id;

	return id && id->simulated && seed_figures_of(g->workload, s) && s->nbins > 0;
}

/* seed-hist-contended-W-tN.csv (NAME, csv_chart_plan's; empty: none): the
 * seed's 2.6.34 and fix columns, % of contended acquisitions by bin, as
 * published. */
static int csv_seed_hist(struct csv *t, const struct group *g, const char *name)
{
	struct seed_figures s;
	struct sf_out o;
	FILE *f;

	if (!name[0] || !seed_charted(t->c, g, &s))
		return 0;
	if (!(f = csv_open(t, name, &o)))
		return -1;
	fprintf(f, "bin,seed 2.6.34,seed fix\n");
	for (int b = 0; b < s.nbins; b++)
		fprintf(f, "%d,%.2f,%.2f\n", s.first_bin + b, s.pct[0][b], s.pct[1][b]);
	return csv_close(t, &o);
}

/* charts.csv's rows of a group (csv_chart_plan): its histogram chart and
 * its phases chart. */
static int chart_rows(struct csv *t, FILE *f, const struct group *g)
{
	struct chart_plan p;

	if (!csv_chart_plan(t->c, g, &p))
		return 0;
	if (csv_seed_hist(t, g, p.seed))
		return -1;
	if (!f)  /* no charts.csv: the files only */
		return 0;
	fprintf(f, "hist.gp,%s,%s.csv,%s,%u,%.6f,%d,%u,%u,%s\n", p.hist, p.hist, g->workload, g->threads, p.ghz,
		p.contended, p.kernel_col, p.base_col, p.seed);
	fprintf(f, "phases.gp,%s,%s.csv,%s,%u,,,,,\n", p.phases, p.phases, g->workload, g->threads);
	return 0;
}

/* The workload's sweep-*.csv files, a figure of TABLE_SWEEP each (its
 * median, then with its interval). */
static int csv_sweeps(struct csv *t, const struct group *g)
{
	struct column cols[RATIO_COLUMNS_MAX];
	unsigned int ncols = table_columns(g, TABLE_SWEEP, cols);

	for (int ci = 0; ci <= 1; ci++)
		for (unsigned int k = 0; k < ncols; k++)
			if (csv_sweep(t, g->workload, &cols[k], ci))
				return -1;
	return 0;
}

/* A group's charts: where its histogram makes one, the histogram chart (of
 * its contended acquisitions where every variant has them, as the patch
 * counted; else of all) and the phases chart, with what the gnuplot scripts
 * are told: the TSC rate of the runs (summary.csv's tsc_hz, their median),
 * the kernel's column and the baseline's: the group's first variant, as
 * every table of it takes (md_figure_cell), so a chart names the baseline
 * its table does. */
bool csv_chart_plan(const struct comparison *c, const struct group *g, struct chart_plan *p)
{
	struct csv t = { .c = c };
	struct seed_figures s;

	if (!hist_charted(g, false))
		return false;
	p->contended = hist_charted(g, true);
	group_file(&t, p->hist, sizeof(p->hist), p->contended ? "hist-contended" : "hist", g);
	group_file(&t, p->phases, sizeof(p->phases), "phases", g);
	p->hist[strlen(p->hist) - 4] = p->phases[strlen(p->phases) - 4] = '\0';  /* the charts' names: no .csv */
	p->seed[0] = '\0';
	if (p->contended && seed_charted(c, g, &s))
		group_file(&t, p->seed, sizeof(p->seed), "seed-hist-contended", g);
	p->ghz = group_tsc_hz(g) / 1e9;
	p->kernel_col = p->contended ? kernel_column(g) : 0;
	p->base_col = hist_column(g, 0, p->contended);
	return true;
}

/* Every derived file, and with CHARTS (a charts.csv being written) its rows. */
static int csv_files(struct csv *t, FILE *charts)
{
	const struct comparison *c = t->c;

	for (unsigned int i = 0; i < c->ngroups; i++) {
		const struct group *g = &c->groups[i];

		if (chart_rows(t, charts, g) || csv_hist(t, g, false) || csv_hist(t, g, true) || csv_phases(t, g) || csv_stats(t, g) ||
		    csv_kernel(t, g) || csv_histcmp(t, g))
			return -1;
		if (first_of_workload(c, g) && csv_sweeps(t, g))
			return -1;
	}
	return 0;
}

int csv_write(const struct comparison *c, const struct sf_dir *dir, bool charts, char *err, size_t errlen)
{
	struct csv csv = { c, dir, err, errlen }, *t = &csv;
	struct sf_out o;
	FILE *f = NULL;

	if (!charts)
		return csv_files(t, NULL);
	if (!(f = csv_open(t, "charts.csv", &o)))
		return -1;
	fprintf(f, "script,chart,csv,workload,threads,tsc_ghz,contended,kernel_col,base_col,seed_csv\n");
	if (csv_files(t, f) != 0) {
		sf_out_abort(&o);
		return -1;
	}
	return csv_close(t, &o);
}
