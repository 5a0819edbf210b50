/*
 * compare.c — analysis/lbcompare: the seed patch's table from lockbench
 * result directories.
 *
 *   analysis/lbcompare [--csv OUTDIR] DIR...
 *   analysis/lbcompare --markdown RUNALLDIR   (run-all's report: markdown.h)
 *   analysis/lbcompare --markdown-hosts OUTDIR RUNALLDIR...
 *
 * With --csv, also writes into OUTDIR the files the gnuplot scripts read
 * (documented in results/README.md, "Derived files"):
 *   hist-<workload>-t<threads>.csv            bin,lower_cycles,lower_ns,<lock>...  (% of acquisitions)
 *   hist-contended-<workload>-t<threads>.csv  the same, % of contended acquisitions (when every
 *                                             variant's runs have hist_contended.csv)
 *   phases-<workload>-t<threads>.csv   lock,fast_pct,spin_pct,nosleep_pct,sleep_pct
 *   sweep-<workload>-<figure>.csv      threads,<lock>...  (medians; figure ops_per_s or cpu_us_per_op)
 *   sweep-<workload>-<figure>-ci.csv   threads,<lock>,<lock> lo,<lock> hi...  (medians, 95% CIs)
 *   stats-<workload>-t<threads>.csv    every ratio figure: median, CI, ratio, its CI, p, verdict
 *   histcmp-, histdiff-<workload>-t<threads>.csv  histograms against the baseline's (stats.h)
 *
 * Each DIR is one run (summary.csv + hist.csv [+ hist_contended.csv]), or a
 * directory whose immediate subdirectories are runs.  Runs group by
 * (workload, threads); within a group, each lock is a variant, the first one
 * met the baseline for ratios, and repeated runs of a variant are
 * repetitions: figures are their median with its 95% CI, every ratio has a
 * verdict (Mann-Whitney U over the repetitions: analysis/stats.h), and
 * histograms are summed, then compared run by run.  The patch counted contended acquisitions only, so
 * the patch-shaped figures (#contentions, their mean acquisition time, the
 * "acq time = 2^bin cycles" table) are the contended ones; the
 * all-acquisitions figures follow them.  Where a group holds both kmutex-spin
 * (2.6.34) and kmutex-fix (the patch) on creat or fserver, the seed's own
 * published figures are printed beside this machine's.  Runs with kernel
 * lock capture (--kernel-locks) add a block of the kernel's own waits; and
 * on creat and fserver the `none` lock's runs with it are the real kernel's
 * row ("kernel 6.18 rwsem_write"): no userspace lock, so its contentions,
 * their mean and its contended histogram are the kernel's waits for its own
 * locks.  Each group's heading states its --timing mode; runs of different
 * modes are never silently merged: every variant is then a lock and a mode,
 * named lock@mode, under a note, and the cycle figures and histograms of
 * `off` runs (which time nothing) show n/a.  Reads only the files documented
 * in results/README.md.
 */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../locks/spin_exit.h"
#include "markdown.h"
#include "resultfile.h"
#include "stats.h"

#define MAX_RUNS 4096
#define MAX_VARIANTS 64
#define MAX_GROUPS 256

struct variant {
	const char *lock;
	const char *timing;      /* --timing of its runs: all, sample:N, off ("all" before --timing) */
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

static struct result_run *runs[MAX_RUNS];
/* The runs do not all share one --timing: every variant is then named
 * lock@timing, and a note says what that does to the figures. */
static bool mixed_timing;
static unsigned int nruns;
static struct group groups[MAX_GROUPS];
static unsigned int ngroups;
static char err[1024];

static int set_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int set_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, sizeof(err), fmt, ap);
	va_end(ap);
	return -1;
}

static int die(char *msg)
{
	/* Paths in messages come from the user: keep the message one line. */
	for (char *p = msg; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
	fprintf(stderr, "lbcompare: %s\n", msg);
	return 1;
}

/* ---- loading ---- */

static bool is_run_dir(const char *dir)
{
	char path[1200];
	struct stat st;

	if (snprintf(path, sizeof(path), "%s/summary.csv", dir) >= (int)sizeof(path))
		return false;
	return stat(path, &st) == 0;
}

static int add_run(const char *dir)
{
	struct result_run *run;

	if (nruns >= MAX_RUNS) {
		set_err("more than %d runs", MAX_RUNS);
		return -1;
	}
	run = malloc(sizeof(*run));
	if (!run) {
		set_err("out of memory");
		return -1;
	}
	if (result_load(run, dir, err, sizeof(err)) != 0) {
		free(run);
		return -1;
	}
	runs[nruns++] = run;
	return 0;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A directory of runs: its subdirectories that hold a summary.csv, sorted. */
static int add_parent(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char *names[MAX_RUNS];
	unsigned int n = 0;
	int rc = 0;

	if (!d) {
		set_err("%s: %s", dir, strerror(errno));
		return -1;
	}
	while ((e = readdir(d)) && n < MAX_RUNS) {
		char path[1200];

		if (e->d_name[0] == '.')
			continue;
		if (snprintf(path, sizeof(path), "%s/%s", dir, e->d_name) >= (int)sizeof(path))
			continue;
		if (is_run_dir(path) && !(names[n++] = strdup(path)))
			rc = -1;
	}
	closedir(d);
	qsort(names, n, sizeof(names[0]), cmp_names);
	for (unsigned int i = 0; i < n; i++) {
		if (rc == 0 && names[i] && add_run(names[i]) != 0)
			rc = -1;
		free(names[i]);
	}
	if (rc == 0 && n == 0) {
		set_err("%s: no summary.csv in it or in its subdirectories", dir);
		rc = -1;
	}
	return rc;
}

/* ---- hosts: runs from several machines, side by side ---- */

/* The machines the runs came from, told apart by their meta.csv (name,
 * kernel, CPU, topology); runs without one (written before meta.csv) are
 * one unknown host.  With two or more, every group is one host's, and the
 * report opens with the hosts and a table of each workload across them. */
#define MAX_HOSTS 16
struct host {
	const struct result_host *id;   /* NULL: runs without meta.csv */
	char label[48];                 /* hostname, made unique: vm, vm#2 */
};
static struct host hosts[MAX_HOSTS];
static unsigned int nhosts;

static bool same_host(const struct result_host *a, const struct result_host *b)
{
	if (!a || !b)
		return a == b;
	return strcmp(a->name, b->name) == 0 && strcmp(a->kernel, b->kernel) == 0 && strcmp(a->cpu, b->cpu) == 0 &&
	       a->packages == b->packages && a->numa_nodes == b->numa_nodes && a->cores == b->cores &&
	       a->pus == b->pus;
}

/* The index of a run's host, a new one the first time it is met; -1 with
 * err set when there are too many. */
static int host_of(const struct result_run *run)
{
	const struct result_host *id = run->has_meta ? &run->host : NULL;
	unsigned int same_name = 0;

	for (unsigned int h = 0; h < nhosts; h++) {
		if (same_host(hosts[h].id, id))
			return (int)h;
		same_name += hosts[h].id && id && strcmp(hosts[h].id->name, id->name) == 0;
	}
	if (nhosts >= MAX_HOSTS)
		return set_err("runs from more than %d hosts", MAX_HOSTS);
	hosts[nhosts].id = id;
	if (!id)
		snprintf(hosts[nhosts].label, sizeof(hosts[nhosts].label), "unknown");
	else if (same_name)  /* one name, another machine (or kernel): vm, vm#2 */
		snprintf(hosts[nhosts].label, sizeof(hosts[nhosts].label), "%.40s#%u", id->name, same_name + 1);
	else
		snprintf(hosts[nhosts].label, sizeof(hosts[nhosts].label), "%.40s", id->name);
	/* It names CSV files (group_file): nothing but [A-Za-z0-9._#-] in it. */
	for (char *c = hosts[nhosts].label; *c; c++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._#-", *c))
			*c = '_';
	return (int)nhosts++;
}

static void print_hosts(void)
{
	printf("Hosts (each table below is one host's; \"across hosts\" tables put them side by side):\n");
	for (unsigned int h = 0; h < nhosts; h++) {
		const struct result_host *id = hosts[h].id;

		if (!id) {
			printf("  %-12s runs without meta.csv: machine not recorded\n", hosts[h].label);
			continue;
		}
		printf("  %-12s %s; %u package%s, %u cores, %u PUs usable, %u NUMA node%s; kernel %s\n", hosts[h].label,
		       id->cpu, id->packages, id->packages == 1 ? "" : "s", id->cores, id->pus, id->numa_nodes,
		       id->numa_nodes == 1 ? "" : "s", id->kernel);
	}
	printf("\n");
}

/* ---- grouping ---- */

/* A run's --timing; runs written before it timed every acquisition. */
static const char *run_timing(const struct result_run *run)
{
	const char *t = result_get(run, "timing");

	return t ? t : "all";
}

/* Whether the runs mix --timing modes (then compared only with a note). */
static bool runs_mix_timing(void)
{
	for (unsigned int i = 1; i < nruns; i++)
		if (strcmp(run_timing(runs[i]), run_timing(runs[0])) != 0)
			return true;
	return false;
}

/* With several hosts, each variant's series (its name in the CSV files that
 * span groups, the sweeps) says its host: lock@host.  Its label stays the
 * lock: a table is one host's. */
static void name_host(struct group *g)
{
	for (unsigned int i = 0; nhosts > 1 && i < g->nv; i++) {
		struct variant *v = &g->v[i];
		size_t n = strlen(v->series);

		snprintf(v->series + n, sizeof(v->series) - n, "@%s", hosts[g->host].label);
	}
}

/* With mixed modes, each variant's name says its mode: lock@timing. */
static void name_timing(struct group *g)
{
	for (unsigned int i = 0; mixed_timing && i < g->nv; i++) {
		struct variant *v = &g->v[i];
		size_t n = strlen(v->label);

		snprintf(v->label + n, sizeof(v->label) - n, "@%s", v->timing);
		snprintf(v->series, sizeof(v->series), "%s@%s", v->lock, v->timing);
	}
}

static int group_run(struct result_run *run)
{
	const char *workload = result_get(run, "workload"), *lock = result_get(run, "lock");
	const char *unit = result_get(run, "unit");
	double threads;
	struct group *g = NULL;
	struct variant *v = NULL;
	int host = host_of(run);

	if (host < 0)
		return -1;
	if (!workload || !lock || !unit || result_number(run, "threads", &threads, err, sizeof(err))) {
		if (!workload || !lock || !unit)
			return set_err("%s/summary.csv: lacks lock, workload or unit", run->dir);
		return -1;
	}
	for (unsigned int i = 0; i < ngroups && !g; i++)
		if (groups[i].host == (unsigned int)host && strcmp(groups[i].workload, workload) == 0 &&
		    groups[i].threads == (unsigned int)threads)
			g = &groups[i];
	if (!g) {
		if (ngroups >= MAX_GROUPS)
			return set_err("too many host/workload/thread groups");
		g = &groups[ngroups++];
		*g = (struct group){ .host = (unsigned int)host, .workload = workload, .unit = unit,
				     .threads = (unsigned int)threads };
	}
	for (unsigned int i = 0; i < g->nv && !v; i++)
		if (strcmp(g->v[i].lock, lock) == 0 && strcmp(g->v[i].timing, run_timing(run)) == 0)
			v = &g->v[i];
	if (!v) {
		if (g->nv >= MAX_VARIANTS)
			return set_err("too many locks in one group");
		v = &g->v[g->nv++];
		v->lock = lock;
		v->timing = run_timing(run);
		snprintf(v->label, sizeof(v->label), "%s", lock);
		snprintf(v->series, sizeof(v->series), "%s", lock);
	}
	if (v->nreps >= sizeof(v->reps) / sizeof(v->reps[0]))
		return set_err("too many repetitions of %s", lock);
	v->contended_ok = (v->nreps == 0 || v->contended_ok) && run->has_contended;
	v->kernel_ok = (v->nreps == 0 || v->kernel_ok) && run->has_kernel;
	v->reps[v->nreps++] = run;
	for (int b = 0; b < RESULT_BINS; b++) {
		v->hist[b] += run->hist[b];
		v->hist_contended[b] += run->hist_contended[b];
		v->kernel_hist[b] += run->kernel_hist[b];
	}
	v->hist_total += run->hist_total;
	v->hist_contended_total += run->hist_contended_total;
	v->kernel_total += run->kernel_total;
	return 0;
}

/* The lock type with the longest total wait in a run ("" without any). */
static const char *top_kernel_type(const struct result_run *run)
{
	const char *best = "";
	double most = 0, sum;
	char key[RESULT_KEY_LEN * 2];

	for (unsigned int t = 0; t < run->kernel_ntypes; t++) {
		snprintf(key, sizeof(key), "kernel_wait_cycles_sum_%s", run->kernel_type[t]);
		if (result_number(run, key, &sum, err, sizeof(err)) == 0 && sum > most) {
			most = sum;
			best = run->kernel_type[t];
		}
	}
	err[0] = '\0';
	return best;
}

/*
 * The real kernel's row: the `none` lock, which excludes nothing, on a
 * workload whose threads meet in the kernel (creat, fserver), with kernel
 * capture.  Named for the kernel and the lock type it waited on most,
 * "kernel 6.18 rwsem_write" (kernel_release's first two numbers).
 */
static void name_kernel_rows(struct group *g)
{
	bool files = strcmp(g->workload, "creat") == 0 || strcmp(g->workload, "fserver") == 0;

	for (unsigned int i = 0; i < g->nv; i++) {
		struct variant *v = &g->v[i];
		const char *release = result_get(v->reps[0], "kernel_release"), *type;
		int major = 0, minor = 0;

		if (!files || strcmp(v->lock, "none") != 0 || !v->kernel_ok)
			continue;
		v->kernel_row = true;
		type = top_kernel_type(v->reps[0]);
		if (!release || sscanf(release, "%d.%d", &major, &minor) != 2)
			snprintf(v->label, sizeof(v->label), "kernel%s%s", type[0] ? " " : "", type);
		else
			snprintf(v->label, sizeof(v->label), "kernel %d.%d%s%s", major, minor, type[0] ? " " : "", type);
	}
}

static const struct variant *find_variant(const struct group *g, const char *lock)
{
	for (unsigned int i = 0; i < g->nv; i++)
		if (strcmp(g->v[i].lock, lock) == 0)
			return &g->v[i];
	return NULL;
}

/* ---- figures: median and spread over repetitions ---- */

/* One figure of one variant over its repetitions (stats.h). */
struct stat3 {
	double median, min, max;
	struct stats_interval ci;   /* the median's 95% interval (order statistics) */
	double vals[64];            /* each repetition's figure */
	unsigned int n;
};

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* `scale` converts units (60: per second -> per minute); with `per`, each
 * repetition's key / per (0 where per is 0). */
static int figure_per(const struct variant *v, const char *key, const char *per, double scale, struct stat3 *out)
{
	double vals[64], den;

	for (unsigned int i = 0; i < v->nreps; i++) {
		if (result_number(v->reps[i], key, &vals[i], err, sizeof(err)) ||
		    (per && result_number(v->reps[i], per, &den, err, sizeof(err))))
			return -1;
		vals[i] *= scale;
		if (per)
			vals[i] = den > 0 ? vals[i] / den : 0;
	}
	out->n = v->nreps;
	memcpy(out->vals, vals, v->nreps * sizeof(vals[0]));
	stats_median_ci(vals, v->nreps, STATS_LEVEL, &out->ci);
	qsort(vals, v->nreps, sizeof(vals[0]), cmp_double);
	out->min = vals[0];
	out->max = vals[v->nreps - 1];
	out->median = v->nreps % 2 ? vals[v->nreps / 2]
				   : (vals[v->nreps / 2 - 1] + vals[v->nreps / 2]) / 2;
	return 0;
}

static int figure(const struct variant *v, const char *key, double scale, struct stat3 *out)
{
	return figure_per(v, key, NULL, scale, out);
}

/* Which way a figure is better, and what a difference in it is called. */
enum sense {
	SENSE_COUNT,      /* more / fewer (events: neither is better as such) */
	SENSE_RATE,       /* higher is faster: operations per second */
	SENSE_TIME,       /* lower is faster: cycles per acquisition */
	SENSE_COST,       /* lower is cheaper: CPU time per operation */
};

struct column {
	const char *title;
	const char *key;
	double scale;
	const char *fmt;
	bool no_ratio;    /* event counts: a ratio between locks means little */
	bool optional;    /* a key older runs lack: "n/a" there, not an error */
	/* The kernel row's key in its place (NULL: the same; KERNEL_NA: none,
	 * "n/a"): the kernel's waits are its contended acquisitions. */
	const char *kernel_key;
	const char *per;  /* the figure is key / per, repetition by repetition */
};
#define KERNEL_NA "-"

/* The verdict's words for a column with a ratio. */
static enum sense column_sense(const struct column *col)
{
	size_t n = strlen(col->key);

	if (strcmp(col->key, "ops_per_s") == 0)
		return SENSE_RATE;
	if (strcmp(col->key, "cpu_us_per_op") == 0)
		return SENSE_COST;
	if (n >= 11 && strcmp(col->key + n - 11, "cycles_mean") == 0)
		return SENSE_TIME;
	return SENSE_COUNT;
}

/* The key a variant's cell shows: the column's, or the kernel row's own. */
static const char *column_key(const struct variant *v, const struct column *col)
{
	return v->kernel_row && col->kernel_key ? col->kernel_key : col->key;
}

/* Whether every repetition of v wrote `key`. */
static bool has_key(const struct variant *v, const char *key)
{
	for (unsigned int i = 0; i < v->nreps; i++)
		if (!result_get(v->reps[i], key))
			return false;
	return true;
}

/* ---- the verdict: a variant against the baseline, over repetitions ---- */

struct verdict {
	bool tested;              /* both sides have two repetitions or more */
	struct stats_mwu mwu;
	int direction;            /* +1: the variant's figure is higher, -1 lower, 0 no difference shown */
	bool ratio_ok;            /* the ratio's interval exists (figures > 0 on both sides) */
	struct stats_ratio ratio; /* Moses' interval of variant / baseline */
};

static void judge(const struct stat3 *s, const struct stat3 *base, struct verdict *vd)
{
	*vd = (struct verdict){ .tested = s->n >= 2 && base->n >= 2 };
	if (!vd->tested || stats_mann_whitney(s->vals, s->n, base->vals, base->n, &vd->mwu) != 0) {
		vd->tested = false;
		return;
	}
	vd->direction = stats_direction(&vd->mwu, s->n, base->n, STATS_LEVEL);
	vd->ratio_ok = stats_ratio_ci(s->vals, s->n, base->vals, base->n, STATS_LEVEL, &vd->ratio) == 0;
}

/* "faster", "slower", "no difference", ... in the figure's own words; "-"
 * when there are too few repetitions to test. */
static const char *verdict_word(const struct verdict *vd, enum sense sense)
{
	static const char *const words[][2] = {
		[SENSE_COUNT] = { "fewer", "more" },
		[SENSE_RATE] = { "slower", "faster" },
		[SENSE_TIME] = { "faster", "slower" },
		[SENSE_COST] = { "cheaper", "costlier" },
	};

	if (!vd->tested)
		return "-";
	if (vd->direction == 0)
		return "no difference";
	return words[sense][vd->direction > 0];
}

/* What the cells of a table needed saying underneath. */
struct unavailable {
	bool old, kernel;        /* "n/a": runs that predate a figure; the kernel row's missing ones */
	bool untimed;            /* a cycle figure of --timing off runs */
	bool spread;             /* some interval reaches beyond +-10% of its median */
};

static void print_ratio(double value, double base)
{
	if (base != 0)  /* whole numbers from 1000x on, to keep the column's width */
		printf(" %6.*fx", value / base >= 999.995 ? 0 : 2, value / base);
	else
		printf(" %7s", "-");
}

/* The median's interval, "!" after it when it is wide (STATS_SPREAD). */
static void print_interval(const struct stat3 *s, const char *fmt, struct unavailable *na)
{
	char lo[32], hi[32], text[72];
	bool wide;

	if (s->n < 2) {
		printf(" %-24s", "(1 run)");
		return;
	}
	wide = stats_spread_large(s->median, &s->ci, STATS_SPREAD);
	snprintf(lo, sizeof(lo), fmt, s->ci.lo);
	snprintf(hi, sizeof(hi), fmt, s->ci.hi);
	snprintf(text, sizeof(text), "[%s..%s]%s", lo, hi, wide ? "!" : "");
	printf(" %-24s", text);
	na->spread |= wide;
}

/* A cell: median, its interval, the ratio to the baseline's median and the
 * verdict (`base` NULL: the baseline lacks the figure; `self`: this is the
 * baseline's own row). */
static void print_stat(const struct stat3 *s, const struct stat3 *base, bool self, unsigned int nreps,
		       const struct column *col, struct unavailable *na)
{
	char buf[64];
	struct verdict vd;

	snprintf(buf, sizeof(buf), col->fmt, s->median);
	printf("  %14s", buf);
	if (nreps > 1)
		print_interval(s, col->fmt, na);
	if (col->no_ratio)
		return;
	print_ratio(s->median, base ? base->median : 0);
	if (nreps < 2)
		return;
	if (self || !base) {
		printf(" %-13s", self ? "" : "-");
		return;
	}
	judge(s, base, &vd);
	printf(" %-13s", verdict_word(&vd, column_sense(col)));
}

/* The cells of a figure the variant's runs do not have. */
static void print_unavailable(unsigned int nreps, const struct column *col)
{
	printf("  %14s", "n/a");
	if (nreps > 1)
		printf(" %-24s", "");
	if (!col->no_ratio)
		printf(" %7s", "-");
	if (!col->no_ratio && nreps > 1)
		printf(" %-13s", "-");
}

/* Why a variant's cell has no figure. */
enum missing {
	FIGURE_OK,
	FIGURE_UNTIMED,   /* a cycle figure of a --timing off run */
	FIGURE_KERNEL,    /* the kernel row has no such figure */
	FIGURE_OLD,       /* runs written before the figure existed */
};

static enum missing figure_missing(const struct variant *v, const struct column *col)
{
	const char *key = column_key(v, col);

	if (strcmp(v->timing, "off") == 0 && strstr(key, "acq_cycles"))
		return FIGURE_UNTIMED;
	if (strcmp(key, KERNEL_NA) == 0)
		return FIGURE_KERNEL;
	if (col->optional && !has_key(v, key))
		return FIGURE_OLD;
	return FIGURE_OK;
}

/* Variant i's figure and the baseline's (*base_ok false when it lacks it).
 * 0, or -1 with err set. */
static int figure_pair(const struct group *g, unsigned int i, const struct column *col, struct stat3 *s,
		       struct stat3 *base, bool *base_ok)
{
	*base_ok = figure_missing(&g->v[0], col) == FIGURE_OK;
	if (figure_per(&g->v[i], column_key(&g->v[i], col), col->per, col->scale, s) ||
	    (*base_ok && figure_per(&g->v[0], column_key(&g->v[0], col), col->per, col->scale, base)))
		return -1;
	return 0;
}

/* One cell: the variant's figure and its ratio to the baseline's (no ratio
 * when the baseline lacks the figure).  Where the variant's runs lack an
 * optional key, or the kernel row has no such figure, "n/a" and the reason
 * noted.  0, or -1 with err set. */
static int print_cell(const struct group *g, unsigned int i, unsigned int nreps, const struct column *col,
		      struct unavailable *na)
{
	struct stat3 s, base;
	enum missing why = figure_missing(&g->v[i], col);
	bool base_ok;

	if (why != FIGURE_OK) {
		print_unavailable(nreps, col);
		*(why == FIGURE_UNTIMED ? &na->untimed : why == FIGURE_KERNEL ? &na->kernel : &na->old) = true;
		return 0;
	}
	if (figure_pair(g, i, col, &s, &base, &base_ok))
		return -1;
	print_stat(&s, base_ok ? &base : NULL, i == 0, nreps, col, na);
	return 0;
}

/* The width of the variants' name column: their longest label, at least 18. */
static int label_width(const struct group *g)
{
	size_t w = 18;

	for (unsigned int i = 0; i < g->nv; i++)
		w = strlen(g->v[i].label) > w ? strlen(g->v[i].label) : w;
	return (int)w;
}

/* Which variants a table has rows for. */
enum rows {
	ROWS_ALL,
	ROWS_MODELS,      /* not the kernel row: figures of a userspace lock */
	ROWS_CAPTURED,    /* those with kernel capture */
};

static bool in_rows(const struct variant *v, enum rows rows)
{
	return rows == ROWS_ALL || (rows == ROWS_MODELS && !v->kernel_row) || (rows == ROWS_CAPTURED && v->kernel_ok);
}

static unsigned int group_max_reps(const struct group *g)
{
	unsigned int nreps = 0;

	for (unsigned int i = 0; i < g->nv; i++)
		nreps = g->v[i].nreps > nreps ? g->v[i].nreps : nreps;
	return nreps;
}

/* What the marks in a table mean, under it. */
static void print_legend(const struct unavailable *na)
{
	if (na->old)
		printf("(n/a: those runs were written by a lockbench that did not record the figure)\n");
	if (na->untimed)
		printf("(n/a: runs with --timing off time no acquisition)\n");
	if (na->kernel)
		printf("(n/a for the kernel row: the capture sees only the kernel's waits, not its uncontended acquisitions)\n");
	if (na->spread)
		printf("(!: the median's 95%% CI reaches beyond +-%.0f%% of it: a noisy figure; more repetitions narrow it)\n",
		       100 * STATS_SPREAD);
}

/* What the brackets and verdicts of the group's tables are, once above them,
 * with what the fewest repetitions of a variant can say. */
static void print_stats_note(const struct group *g)
{
	unsigned int least = g->v[0].nreps, most = group_max_reps(g);
	struct stats_interval ci;
	double one[64] = { 0 };  /* stand-in values: only the interval's coverage at `least` is wanted */

	for (unsigned int i = 1; i < g->nv; i++)
		least = g->v[i].nreps < least ? g->v[i].nreps : least;
	if (most < 2) {
		printf("One run per variant: no intervals and no verdicts (run-all --reps, or more runs, give them).\n\n");
		return;
	}
	stats_median_ci(one, least, STATS_LEVEL, &ci);
	printf("Figures: the median of %u", least);
	if (most > least)
		printf(" to %u", most);
	printf(" repetitions, [its 95%% CI] (order statistics); verdict: the variant's repetitions against\n"
	       "%s's (Mann-Whitney U, 95%%; \"no difference\": none shown).\n", g->v[0].label);
	if (!ci.reached && least >= 2)
		printf("With %u repetitions the interval is [min..max], which holds the median with %.1f%% confidence,\n"
		       "not 95%%: 6 or more reach it.\n", least, 100 * ci.coverage);
	if (least < 4)  /* the smallest two-sided p of n against n runs: 2 / C(2n, n) */
		printf("With %u a side no difference can be shown at 95%% (the smallest p is %.3f): 4 or more can.\n",
		       least, least == 1 ? 1.0 : least == 2 ? 2.0 / 6 : 2.0 / 20);
	printf("\n");
}

/* A table of `cols` by variant, the `rows` ones. */
static int print_block(const struct group *g, const struct column *cols, unsigned int ncols, enum rows rows)
{
	unsigned int nreps = group_max_reps(g);
	struct unavailable na = { 0 };
	int width = label_width(g);

	printf("%-*s", width, "");
	for (unsigned int c = 0; c < ncols; c++) {
		printf("  %14s", cols[c].title);
		if (nreps > 1)
			printf(" %-24s", "[95% CI]");
		if (!cols[c].no_ratio)
			printf(" %7s", "ratio");
		if (!cols[c].no_ratio && nreps > 1)
			printf(" %-13s", "verdict");
	}
	printf("\n");
	for (unsigned int i = 0; i < g->nv; i++) {
		if (!in_rows(&g->v[i], rows))
			continue;
		printf("%-*s", width, g->v[i].label);
		for (unsigned int c = 0; c < ncols; c++)
			if (print_cell(g, i, nreps, &cols[c], &na))
				return -1;
		printf("\n");
	}
	print_legend(&na);
	printf("\n");
	return 0;
}

/* The figures with a ratio to the baseline, in the order of the tables:
 * throughput and CPU cost, then the patch's contended figures, then those
 * of all acquisitions.  Returns how many (at most 6). */
static unsigned int ratio_columns(const struct group *g, struct column *cols)
{
	bool jobs = strcmp(g->unit, "jobs") == 0;
	const struct column all[] = {
		{ jobs ? "Jobs/min" : "Ops/sec", "ops_per_s", jobs ? 60 : 1, "%.0f", false, false, NULL, NULL },
		{ "CPU us/op", "cpu_us_per_op", 1, "%.3f", false, false, NULL, NULL },
		{ "#contentions", "contentions", 1, "%.0f", false, false, "kernel_contentions", NULL },
		{ "mean cycles", "contended_acq_cycles_mean", 1, "%.0f", false, true, "kernel_wait_cycles_mean", NULL },
		{ "acquisitions", "acquisitions", 1, "%.0f", false, false, KERNEL_NA, NULL },
		{ "mean cycles", "acq_cycles_mean", 1, "%.0f", false, false, KERNEL_NA, NULL },
	};

	memcpy(cols, all, sizeof(all));
	return sizeof(all) / sizeof(all[0]);
}

static int print_throughput(const struct group *g)
{
	struct column cols[6];

	ratio_columns(g, cols);
	return print_block(g, cols, 2, ROWS_ALL);
}

/* The patch's "#contentions" and "Time to acquire mutex": contended
 * acquisitions only; then the same over every acquisition, fast path
 * included, which is what lockbench's plain acq_cycles figures cover. */
static int print_contention(const struct group *g)
{
	struct column cols[6];

	ratio_columns(g, cols);
	printf("Contended acquisitions only, as the patch counted (#contentions; mean acquisition cycles):\n");
	if (print_block(g, cols + 2, 2, ROWS_ALL))
		return -1;
	printf("All acquisitions, fast path included:\n");
	return print_block(g, cols + 4, 2, ROWS_ALL);
}

/* The title of ratio column c in the differences table: "mean cycles"
 * says which acquisitions. */
static const char *difference_title(const struct column *col)
{
	if (strcmp(col->key, "contended_acq_cycles_mean") == 0)
		return "mean cycles, contended";
	if (strcmp(col->key, "acq_cycles_mean") == 0)
		return "mean cycles, all";
	return col->title;
}

/* A p-value in three decimals, "<0.001" below. */
static void p_text(double p, char *buf, size_t len)
{
	if (p < 0.001)
		snprintf(buf, len, "<0.001");
	else
		snprintf(buf, len, "%.3f", p);
}

/* One line of the differences table: variant i's figure against the baseline's. */
static int print_difference(const struct group *g, unsigned int i, const struct column *col, int width)
{
	struct stat3 s, base;
	struct verdict vd;
	char ci[64] = "-", p[16] = "-";
	bool base_ok;

	if (figure_missing(&g->v[i], col) != FIGURE_OK || figure_missing(&g->v[0], col) != FIGURE_OK)
		return 0;
	if (figure_pair(g, i, col, &s, &base, &base_ok))
		return -1;
	judge(&s, &base, &vd);
	if (vd.ratio_ok && vd.ratio.reached)
		snprintf(ci, sizeof(ci), "[%.3g..%.3g]", vd.ratio.lo, vd.ratio.hi);
	if (vd.tested)
		p_text(vd.mwu.p, p, sizeof(p));
	printf("%-*s  %-23s %3u:%-3u", width, g->v[i].label, difference_title(col), s.n, base.n);
	print_ratio(s.median, base.median);
	printf("  %-22s %6s  %s\n", ci, p, verdict_word(&vd, column_sense(col)));
	return 0;
}

/*
 * ministat's question for every figure with a ratio: is the variant's
 * different from the baseline's at 95% confidence, and by how much?  The
 * verdict is the Mann–Whitney U test's over the repetitions; the ratio's
 * interval is Moses' (stats.h), which excludes 1.0 exactly when the verdict
 * is a difference.
 */
static int print_differences(const struct group *g)
{
	struct column cols[6];
	unsigned int ncols = ratio_columns(g, cols);
	int width = label_width(g);

	if (g->nv < 2 || group_max_reps(g) < 2)
		return 0;
	printf("Differences from %s at 95%% confidence, repetition by repetition (ratio: of the medians;\n"
	       "its CI: Moses', the ratios variant/baseline between which the test does not reject; p: Mann-Whitney U,\n"
	       "two-sided; runs: the variant's:the baseline's):\n", g->v[0].label);
	printf("%-*s  %-23s %7s %7s  %-22s %6s  %s\n", width, "variant", "figure", "runs", "ratio", "95% CI of ratio", "p",
	       "verdict");
	for (unsigned int i = 1; i < g->nv; i++)
		for (unsigned int c = 0; c < ncols; c++)
			if (print_difference(g, i, &cols[c], width))
				return -1;
	printf("\n");
	return 0;
}

/* True when some run of the group recorded spin/sleep events. */
static bool group_has_phases(const struct group *g)
{
	static const char *const phases[] = { "acq_fast", "acq_spin", "acq_nosleep", "acq_sleep" };

	for (unsigned int i = 0; i < g->nv; i++)
		for (unsigned int r = 0; r < g->v[i].nreps; r++)
			for (size_t k = 0; k < sizeof(phases) / sizeof(phases[0]); k++) {
				double n = 0;

				result_number(g->v[i].reps[r], phases[k], &n, err, sizeof(err));
				if (n > 0) {
					err[0] = '\0';
					return true;
				}
			}
	err[0] = '\0';
	return false;
}

static int print_phases(const struct group *g)
{
	static const struct column cols[] = {
		{ "acq fast", "acq_fast", 1, "%.0f", true, false, NULL, NULL },
		{ "acq spin", "acq_spin", 1, "%.0f", true, false, NULL, NULL },
		{ "acq nosleep", "acq_nosleep", 1, "%.0f", true, true, NULL, NULL },
		{ "acq sleep", "acq_sleep", 1, "%.0f", true, false, NULL, NULL },
		{ "futex waits", "futex_waits", 1, "%.0f", true, false, NULL, NULL },
		{ "spin cycles", "spin_cycles", 1, "%.3g", true, false, NULL, NULL },
	};
	/* need_resched is optional: runs from before the sched oracle lack it. */
	static const struct column exits[] = {
#define SPIN_EXIT_COLUMN(id, name, title) \
	{ title, SPIN_EXIT_KEY_PREFIX name, 1, "%.0f", true, SPIN_EXIT_##id == SPIN_EXIT_NEED_RESCHED, NULL, NULL },
		SPIN_EXIT_REASONS(SPIN_EXIT_COLUMN)
#undef SPIN_EXIT_COLUMN
	};

	if (!group_has_phases(g))
		return 0;
	printf("How acquisitions were obtained (nosleep: on the sleep path without sleeping; locks without\n"
	       "spin/sleep phases show 0):\n");
	if (print_block(g, cols, sizeof(cols) / sizeof(cols[0]), ROWS_MODELS))
		return -1;
	printf("Why spin phases ended:\n");
	return print_block(g, exits, sizeof(exits) / sizeof(exits[0]), ROWS_MODELS);
}

/* One of a variant's two histograms: every acquisition, or the contended ones. */
struct hist_view {
	const uint64_t *bins;
	uint64_t total;
	bool ok;                 /* false: the runs have no such histogram */
};

static struct hist_view hist_of(const struct variant *v, bool contended)
{
	/* The kernel's waits are its contended acquisitions; the rest it never saw. */
	if (v->kernel_row)
		return (struct hist_view){ v->kernel_hist, v->kernel_total, contended };
	/* --timing off runs time nothing: no histogram to show. */
	if (strcmp(v->timing, "off") == 0)
		return (struct hist_view){ v->hist, 0, false };
	if (contended)
		return (struct hist_view){ v->hist_contended, v->hist_contended_total, v->contended_ok };
	return (struct hist_view){ v->hist, v->hist_total, true };
}

/* Under the histogram's title: which variants' counts are a sample. */
static void print_sampled_note(const struct group *g)
{
	for (unsigned int i = 0; i < g->nv; i++)
		if (strncmp(g->v[i].timing, "sample:", 7) == 0) {
			printf("(--timing sample:N runs: counts are the timed acquisitions, about 1 in N, as sampled,"
			       " not scaled;\n off runs: n/a)\n");
			return;
		}
}

static void print_hist(const struct group *g, bool contended)
{
	int first = -1, last = -1;
	bool any = false;

	for (unsigned int i = 0; i < g->nv; i++) {
		struct hist_view h = hist_of(&g->v[i], contended);

		any |= h.ok;
		for (int b = 0; h.ok && b < RESULT_BINS; b++)
			if (h.bins[b]) {
				first = first < 0 || b < first ? b : first;
				last = b > last ? b : last;
			}
	}
	if (contended)
		printf("Mutex acquisition time distribution, contended acquisitions only, as the patch counted\n"
		       "(acq time = 2^bin cycles):\n");
	else
		printf("Mutex acquisition time distribution, all acquisitions, fast path included (acq time = 2^bin cycles):\n");
	if (!any) {
		printf("n/a: these runs have no hist_contended.csv (written by a lockbench that did not record it),\n"
		       "or timed no acquisition (--timing off)\n\n");
		return;
	}
	print_sampled_note(g);
	printf("      ");
	for (unsigned int i = 0; i < g->nv; i++)
		printf("  %-26s", g->v[i].label);
	printf("\nbin   ");
	for (unsigned int i = 0; i < g->nv; i++)
		printf("  %-14s %-11s", "#occurrence", "%");
	printf("\n");
	for (int b = first; first >= 0 && b <= last; b++) {
		printf("%-6d", b);
		for (unsigned int i = 0; i < g->nv; i++) {
			struct hist_view h = hist_of(&g->v[i], contended);
			double pct = h.total ? 100.0 * (double)h.bins[b] / (double)h.total : 0;

			if (h.ok)
				printf("  %-14llu %6.2f%%    ", (unsigned long long)h.bins[b], pct);
			else
				printf("  %-14s %7s    ", "n/a", "");
		}
		printf("\n");
	}
	printf("\n");
}

/* ---- two variants' histograms, repetition by repetition ---- */

#define HIST_RELABELLINGS 20000  /* every way to deal the runs up to this many, else this many drawn */
#define HIST_RESAMPLES 1000      /* bootstrap resamples of the per-bin share differences */
#define HIST_SEED 1              /* fixed: the same runs give the same report */

struct hist_comparison {
	struct stats_hist_test test;
	double mean_shift;            /* mean log2 bin, variant minus baseline: < 0, shorter */
	double diff[RESULT_BINS], lo[RESULT_BINS], hi[RESULT_BINS];  /* share, percentage points */
};

/* A variant's runs' histograms of one kind (as hist_of pools them). */
static void run_hists(const struct variant *v, bool contended, const uint64_t **out)
{
	for (unsigned int r = 0; r < v->nreps; r++)
		out[r] = v->kernel_row ? v->reps[r]->kernel_hist
				       : contended ? v->reps[r]->hist_contended : v->reps[r]->hist;
}

static double mean_bin(const struct hist_view *h)
{
	double sum = 0;

	for (int b = 0; b < RESULT_BINS; b++)
		sum += b * (double)h->bins[b];
	return h->total ? sum / (double)h->total : 0;
}

/* Variant i's histogram against the baseline's: false when either has no
 * such histogram, fewer than two runs, or nothing in it. */
static bool compare_hists(const struct group *g, unsigned int i, bool contended, struct hist_comparison *c)
{
	const struct variant *v = &g->v[i], *base = &g->v[0];
	struct hist_view hv = hist_of(v, contended), hb = hist_of(base, contended);
	const uint64_t *x[64], *y[64];

	if (!hv.ok || !hb.ok || !hv.total || !hb.total || v->nreps < 2 || base->nreps < 2)
		return false;
	run_hists(base, contended, x);
	run_hists(v, contended, y);
	if (stats_hist_permutation(x, base->nreps, y, v->nreps, RESULT_BINS, HIST_RELABELLINGS, HIST_SEED,
				   &c->test) != 0 ||
	    stats_share_diff(x, base->nreps, y, v->nreps, RESULT_BINS, STATS_LEVEL, HIST_RESAMPLES, HIST_SEED,
			     c->diff, c->lo, c->hi) != 0)
		return false;
	c->mean_shift = mean_bin(&hv) - mean_bin(&hb);
	return true;
}

static const char *hist_verdict(const struct hist_comparison *c)
{
	return c->test.p <= 1 - STATS_LEVEL ? "differs" : "no difference";
}

/* The distance of each variant's distribution from the baseline's, then
 * where the mass moved: per bin, the share's change with its interval. */
static void print_hist_differences(const struct group *g, bool contended)
{
	static struct hist_comparison c[MAX_VARIANTS];
	bool ok[MAX_VARIANTS] = { false }, any = false, few = false;
	int width = label_width(g), first = -1, last = -1;

	for (unsigned int i = 1; i < g->nv; i++) {
		ok[i] = compare_hists(g, i, contended, &c[i]);
		any |= ok[i];
		for (int b = 0; ok[i] && b < RESULT_BINS; b++)
			if (c[i].lo[b] != 0 || c[i].hi[b] != 0 || c[i].diff[b] != 0) {
				first = first < 0 || b < first ? b : first;
				last = b > last ? b : last;
			}
	}
	if (!any)
		return;
	printf("Distribution of %s against %s's: earth mover's distance between the pooled\n"
	       "histograms (EMD, in bins: 1.0 = all the mass moved by a factor of 2); p: the share of the ways of\n"
	       "dealing the runs anew between the two that put them as far apart; mean shift: of the log2 bin,\n"
	       "- = shorter:\n", contended ? "contended acquisitions" : "all acquisitions", g->v[0].label);
	printf("%-*s  %7s %6s %10s %7s  %s\n", width, "variant", "runs", "EMD", "mean shift", "p", "verdict");
	for (unsigned int i = 1; i < g->nv; i++) {
		char runs[16], p[16];

		if (!ok[i])
			continue;
		snprintf(runs, sizeof(runs), "%u:%u", g->v[i].nreps, g->v[0].nreps);
		p_text(c[i].test.p, p, sizeof(p));
		printf("%-*s  %7s %6.2f %+10.2f %7s  %s\n", width, g->v[i].label, runs, c[i].test.emd,
		       c[i].mean_shift, p, hist_verdict(&c[i]));
		few |= c[i].test.p_min > 1 - STATS_LEVEL;
	}
	if (few)
		printf("(\"no difference\" is all that so few repetitions can show: 4 or more a side can show one)\n");
	printf("Share of acquisitions in each bin, variant minus %s, percentage points, with a 95%% bootstrap\n"
	       "interval (%d resamples of each side's runs, seed %d):\n", g->v[0].label, HIST_RESAMPLES, HIST_SEED);
	printf("bin   ");
	for (unsigned int i = 1; i < g->nv; i++)
		if (ok[i])
			printf("  %-24s", g->v[i].label);
	printf("\n");
	for (int b = first; first >= 0 && b <= last; b++) {
		printf("%-6d", b);
		for (unsigned int i = 1; i < g->nv; i++) {
			char cell[64];

			if (!ok[i])
				continue;
			snprintf(cell, sizeof(cell), "%+.2f [%+.2f..%+.2f]", c[i].diff[b], c[i].lo[b], c[i].hi[b]);
			printf("  %-24s", cell);
		}
		printf("\n");
	}
	printf("\n");
}

/* ---- the kernel's own lock waits (--kernel-locks) ---- */

static bool group_has_kernel(const struct group *g)
{
	for (unsigned int i = 0; i < g->nv; i++)
		if (g->v[i].kernel_ok)
			return true;
	return false;
}

/* "do_unlinkat, path_openat": the callers of the rows of lock `lock`. */
static void callers_of(const struct result_run *run, const char *lock, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (unsigned int r = 0; r < run->kernel_nrows && used < len; r++)
		if (strcmp(run->kernel_row[r].lock, lock) == 0)
			used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? ", " : "",
						 run->kernel_row[r].caller);
}

/* Each captured variant's most waited-for kernel lock, in its first run. */
static void print_kernel_tops(const struct group *g)
{
	for (unsigned int i = 0; i < g->nv; i++) {
		const struct result_run *run = g->v[i].reps[0];
		const struct result_kernel_row *top = &run->kernel_row[0];
		double all = 0, lock_sum = 0;
		char callers[200];

		if (!g->v[i].kernel_ok || run->kernel_nrows == 0)
			continue;
		result_number(run, "kernel_wait_cycles_sum", &all, err, sizeof(err));
		for (unsigned int r = 0; r < run->kernel_nrows; r++)
			lock_sum += strcmp(run->kernel_row[r].lock, top->lock) == 0 ? (double)run->kernel_row[r].sum : 0;
		callers_of(run, top->lock, callers, sizeof(callers));
		printf("  %s: most waited for: %s %s (%.1f%% of the wait), from %s\n", g->v[i].label, top->type,
		       top->lock, all > 0 ? 100 * lock_sum / all : 0, callers);
	}
	err[0] = '\0';
	printf("\n");
}

/* How much of each run's time its threads spent waiting for kernel locks. */
static int print_kernel(const struct group *g)
{
	static const struct column cols[] = {
		{ "kernel waits", "kernel_contentions", 1, "%.0f", true, false, NULL, NULL },
		{ "mean cycles", "kernel_wait_cycles_mean", 1, "%.0f", true, false, NULL, NULL },
		{ "wait cycles/op", "kernel_wait_cycles_sum", 1, "%.0f", true, false, NULL, "ops" },
	};

	if (!group_has_kernel(g))
		return 0;
	printf("The kernel's own lock waits in these runs (--kernel-locks: lock:contention_begin to _end, the\n"
	       "runs' threads only; runs without it left out):\n");
	if (print_block(g, cols, sizeof(cols) / sizeof(cols[0]), ROWS_CAPTURED))
		return -1;
	print_kernel_tops(g);
	return 0;
}

/* What the kernel row is, said once above the group's tables. */
static void print_kernel_row_note(const struct group *g)
{
	for (unsigned int i = 0; i < g->nv; i++)
		if (g->v[i].kernel_row)
			printf("%s: the `none` lock (no userspace lock: the threads meet only in the kernel) with\n"
			       "--kernel-locks; its #contentions, mean cycles and contended histogram are the running\n"
			       "kernel's own lock waits, timed from lock:contention_begin to contention_end.\n\n",
			       g->v[i].label);
}

/* ---- the seed's own figures beside this machine's ---- */

/*
 * Published in the seed patch (shared/seeds/001-patch-mutex-prevent-
 * optimistic-spinning-from-spinning-longer-t.patch: Tim Chen, "mutex: prevent
 * optimistic spinning from spinning longer than neccessary", lkml, 18 Aug
 * 2010), 2.6.34 before and after the fix, on an 8-socket, 64-core Nehalem-EX.
 * Cited facts, not measurements of ours: printed only beside this machine's
 * kmutex-spin -> kmutex-fix, so a reader can see at once how the two compare.
 * The contentions, the acquisition time and the histogram are from AIM7
 * fserver.  "Time to acquire mutex (cycles)" is what the patch calls the
 * average acquisition time ("reduced by 48%").  Its histogram's rows add up
 * to 72,971 and 49,209 (against 72,973 and 49,210 contentions), so it covers
 * contended acquisitions only; the percentages are as published (the 2.6.34
 * column's do not all match its counts: 63,902 of 72,971 is 87.57%, printed
 * 87.69%).
 */
#define SEED_FIRST_BIN 11
#define SEED_BINS 20 /* bins 11..30 */
static const struct {
	double creat_ops[2];        /* ./mutex-test V 256 10: 256 threads, ops/sec */
	double fserver_jobs[2];     /* AIM7 fserver, jobs/min */
	double contentions[2];      /* fserver, #contentions */
	double acq_cycles[2];       /* fserver, "Time to acquire mutex (cycles)" */
	double pct[2][SEED_BINS];   /* fserver, % of contended acquisitions in bins 11..30 */
} seed = {
	.creat_ops = { 62864, 197200 },
	.fserver_jobs = { 91657, 149325 },
	.contentions = { 72973, 49210 },
	.acq_cycles = { 44765791, 23067129 },
	.pct = {
		{ 0.00, 0.01, 0.02, 0.12, 0.54, 0.97, 1.12, 1.08, 0.80, 0.59,
		  0.43, 0.35, 0.44, 0.84, 4.29, 87.69, 0.85, 0.00, 0.00, 0.00 },
		{ 0.24, 1.61, 4.18, 6.86, 9.82, 9.94, 9.48, 10.46, 12.70, 13.96,
		  3.68, 4.68, 1.86, 0.47, 0.19, 0.25, 0.58, 7.19, 1.83, 0.00 },
	},
};

/* "before -> after, ratio" (or the change in percent). */
static void change_text(char *buf, size_t len, double before, double after, bool percent)
{
	int n = snprintf(buf, len, "%.0f -> %.0f", before, after);

	if (before <= 0 || n < 0 || (size_t)n >= len)
		return;
	if (percent)
		snprintf(buf + n, len - (size_t)n, ", %+.1f%%", 100 * (after / before - 1));
	else
		snprintf(buf + n, len - (size_t)n, ", %.2fx", after / before);
}

/* One row: the seed's change and the same figure's median change here. */
static int seed_row(const char *label, const double seed_fig[2], const struct variant *spin,
		    const struct variant *fix, const char *key, double scale, bool percent)
{
	char theirs[96], ours[96];
	struct stat3 before, after;

	change_text(theirs, sizeof(theirs), seed_fig[0], seed_fig[1], percent);
	if (!has_key(spin, key) || !has_key(fix, key))
		snprintf(ours, sizeof(ours), "n/a (runs without %s)", key);
	else if (figure(spin, key, scale, &before) || figure(fix, key, scale, &after))
		return -1;
	else
		change_text(ours, sizeof(ours), before.median, after.median, percent);
	printf("%-27s %-36s %s\n", label, theirs, ours);
	return 0;
}

/* The seed's histogram, in %, beside this machine's contended ones. */
static void seed_hist(const struct variant *spin, const struct variant *fix)
{
	const struct variant *v[2] = { spin, fix };
	int first = SEED_FIRST_BIN, last = SEED_FIRST_BIN + SEED_BINS - 1;

	if (!spin->contended_ok || !fix->contended_ok) {
		printf("Histogram: n/a here (runs without hist_contended.csv).\n\n");
		return;
	}
	for (int k = 0; k < 2; k++)
		for (int b = 0; b < RESULT_BINS; b++)
			if (v[k]->hist_contended[b]) {
				first = b < first ? b : first;
				last = b > last ? b : last;
			}
	printf("%% of contended acquisitions (acq time = 2^bin cycles; -: not in the patch's table):\n");
	printf("%-6s %13s %13s %13s %13s\n", "bin", "seed 2.6.34", "seed fix", spin->lock, fix->lock);
	for (int b = first; b <= last; b++) {
		int sb = b - SEED_FIRST_BIN;

		printf("%-6d", b);
		for (int k = 0; k < 2; k++)
			if (sb >= 0 && sb < SEED_BINS)
				printf(" %12.2f%%", seed.pct[k][sb]);
			else
				printf(" %13s", "-");
		for (int k = 0; k < 2; k++)
			printf(" %12.2f%%", v[k]->hist_contended_total ?
				100.0 * (double)v[k]->hist_contended[b] / (double)v[k]->hist_contended_total : 0);
		printf("\n");
	}
	printf("\n");
}

/* For creat and fserver groups holding both kmutex-spin (2.6.34) and
 * kmutex-fix (the patch). */
static int print_seed(const struct group *g)
{
	const struct variant *spin = find_variant(g, "kmutex-spin"), *fix = find_variant(g, "kmutex-fix");
	bool creat = strcmp(g->workload, "creat") == 0, fserver = strcmp(g->workload, "fserver") == 0;

	if (!spin || !fix || !(creat || fserver))
		return 0;
	printf("The seed beside this machine: Tim Chen's patch measured 2.6.34 -> 2.6.36 (the fix) on 64 cores%s;\n"
	       "here kmutex-spin -> kmutex-fix, %u threads (medians):\n", creat ? ", 256 threads" : "", g->threads);
	printf("%-27s %-36s %s\n", "", creat ? "seed (mutex-test V 256 10)" : "seed (AIM7 fserver)", "this machine");
	if (creat) {
		if (seed_row("Ops/sec", seed.creat_ops, spin, fix, "ops_per_s", 1, false))
			return -1;
		printf("(#contentions, acquisition time and histogram: the seed gave them for fserver only)\n\n");
		return 0;
	}
	if (seed_row("Jobs/min", seed.fserver_jobs, spin, fix, "ops_per_s", 60, false) ||
	    seed_row("#contentions", seed.contentions, spin, fix, "contentions", 1, true) ||
	    seed_row("mean acq cycles, contended", seed.acq_cycles, spin, fix, "contended_acq_cycles_mean", 1, true))
		return -1;
	seed_hist(spin, fix);
	return 0;
}

static int print_group(const struct group *g)
{
	if (nhosts > 1)
		printf("== host %s: ", hosts[g->host].label);
	else
		printf("== ");
	printf("workload %s, %u threads: %u variant%s, baseline %s; timing %s ==\n\n", g->workload, g->threads,
	       g->nv, g->nv == 1 ? "" : "s", g->v[0].label, mixed_timing ? "mixed (lock@timing)" : g->v[0].timing);
	print_stats_note(g);
	print_kernel_row_note(g);
	if (print_seed(g) || print_throughput(g) || print_contention(g) || print_differences(g) || print_phases(g) ||
	    print_kernel(g))
		return -1;
	print_hist(g, true);
	print_hist_differences(g, true);
	print_hist(g, false);
	print_hist_differences(g, false);
	return 0;
}

/* ---- across hosts: one table, a column per host ---- */

/* The host's group of `workload` with the most threads, or NULL. */
static const struct group *host_group(unsigned int host, const char *workload)
{
	const struct group *best = NULL;

	for (unsigned int i = 0; i < ngroups; i++)
		if (groups[i].host == host && strcmp(groups[i].workload, workload) == 0 &&
		    (!best || groups[i].threads > best->threads))
			best = &groups[i];
	return best;
}

/* The workload's locks over every host's group, in the order first met. */
static unsigned int across_locks(const struct group *const *per_host, const char **locks, unsigned int max)
{
	unsigned int n = 0;

	for (unsigned int h = 0; h < nhosts; h++)
		for (unsigned int i = 0; per_host[h] && i < per_host[h]->nv; i++) {
			unsigned int k = 0;

			while (k < n && strcmp(locks[k], per_host[h]->v[i].lock) != 0)
				k++;
			if (k == n && n < max)
				locks[n++] = per_host[h]->v[i].lock;
		}
	return n;
}

/* One host's cell: median throughput, ratio to that host's baseline and the
 * verdict against it; blank when the host did not run the lock. */
static int print_across_cell(const struct group *g, const char *lock, double scale)
{
	const struct variant *v = g ? find_variant(g, lock) : NULL;
	struct stat3 s, base;
	struct verdict vd;

	if (!v) {
		printf("  %12s %7s %-13s", "", "", "");
		return 0;
	}
	if (figure(v, "ops_per_s", scale, &s) || figure(&g->v[0], "ops_per_s", scale, &base))
		return -1;
	judge(&s, &base, &vd);
	printf("  %12.0f", s.median);
	print_ratio(s.median, base.median);
	printf(" %-13s", v == &g->v[0] ? "(baseline)" : verdict_word(&vd, SENSE_RATE));
	return 0;
}

/* Each workload's variants on every host that ran it, at that host's most
 * threads: throughput, and the ratio and verdict against that host's own
 * baseline, so hosts are compared by what the variants do on each. */
static int print_across_hosts(void)
{
	for (unsigned int i = 0; i < ngroups; i++) {
		const struct group *per_host[MAX_HOSTS];
		const char *locks[MAX_VARIANTS];
		unsigned int nlocks, present = 0;
		bool jobs = strcmp(groups[i].unit, "jobs") == 0, first = true;

		for (unsigned int j = 0; j < i; j++)
			first &= strcmp(groups[j].workload, groups[i].workload) != 0;
		for (unsigned int h = 0; h < nhosts; h++)
			present += (per_host[h] = host_group(h, groups[i].workload)) != NULL;
		if (!first || present < 2)
			continue;
		printf("== across hosts: workload %s, each host at its most threads; %s, ratio and verdict against that "
		       "host's baseline ==\n", groups[i].workload, jobs ? "jobs/min" : "ops/sec");
		printf("%-18s", "");
		for (unsigned int h = 0; h < nhosts; h++) {
			char head[64];

			if (per_host[h])
				snprintf(head, sizeof(head), "%s, %u threads", hosts[h].label, per_host[h]->threads);
			else
				snprintf(head, sizeof(head), "%s: not run", hosts[h].label);
			printf("  %-34.34s", head);
		}
		printf("\n");
		nlocks = across_locks(per_host, locks, MAX_VARIANTS);
		for (unsigned int k = 0; k < nlocks; k++) {
			printf("%-18s", locks[k]);
			for (unsigned int h = 0; h < nhosts; h++)
				if (print_across_cell(per_host[h], locks[k], jobs ? 60 : 1))
					return -1;
			printf("\n");
		}
		printf("\n");
	}
	return 0;
}

/* ---- derived CSV files for gnuplot ---- */

static FILE *csv_open(const char *dir, const char *name, char *path, size_t pathlen)
{
	FILE *f;

	if (snprintf(path, pathlen, "%s/%s", dir, name) >= (int)pathlen) {
		set_err("%s/%s: path too long", dir, name);
		return NULL;
	}
	f = fopen(path, "w");
	if (!f)
		set_err("%s: %s", path, strerror(errno));
	return f;
}

static int csv_close(FILE *f, const char *path)
{
	bool bad = ferror(f);

	if (fclose(f) != 0 || bad)
		return set_err("%s: write failed", path);
	return 0;
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

static int csv_hist(const struct group *g, const char *dir, bool contended)
{
	char name[256], path[1400];
	double hz = group_tsc_hz(g);
	uint64_t total = 0;
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
	if (!(f = csv_open(dir, name, path, sizeof(path))))
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
	return csv_close(f, path);
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

static int csv_phases(const struct group *g, const char *dir)
{
	static const char *const phases[] = { "acq_fast", "acq_spin", "acq_nosleep", "acq_sleep" };
	enum { NPHASES = sizeof(phases) / sizeof(phases[0]) };
	char name[256], path[1400];
	FILE *f;

	group_file(name, sizeof(name), "phases", g);
	if (!(f = csv_open(dir, name, path, sizeof(path))))
		return -1;
	fprintf(f, "lock,fast_pct,spin_pct,nosleep_pct,sleep_pct\n");
	for (unsigned int i = 0; i < g->nv; i++) {
		double n[NPHASES], total = 0;

		if (g->v[i].kernel_row)
			continue;  /* no userspace lock, so no phases */
		for (int k = 0; k < NPHASES; k++) {
			if (phase_median(&g->v[i], phases[k], &n[k])) {
				fclose(f);
				return -1;
			}
			total += n[k];
		}
		fprintf(f, "%s", g->v[i].series);
		for (int k = 0; k < NPHASES; k++)
			fprintf(f, ",%.3f", total ? 100 * n[k] / total : 0);
		fprintf(f, "\n");
	}
	return csv_close(f, path);
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
static int csv_sweep(const char *workload, const char *key, const char *dir, bool ci)
{
	const char *locks[MAX_VARIANTS];
	const struct group *rows[MAX_GROUPS];
	unsigned int nlocks = workload_locks(workload, locks, MAX_VARIANTS), nrows = 0;
	char name[256], path[1400];
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
	if (!(f = csv_open(dir, name, path, sizeof(path))))
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
				fclose(f);
				return -1;
			}
			fprintf(f, ",%.6g", s.median);
			if (ci)
				fprintf(f, ",%.6g,%.6g", s.ci.lo, s.ci.hi);
		}
		fprintf(f, "\n");
	}
	return csv_close(f, path);
}

/* A figure's name in stats-*.csv: its summary.csv key, or jobs_per_min. */
static const char *figure_name(const struct column *col)
{
	return col->scale == 60 ? "jobs_per_min" : col->key;
}

/* One row of stats-*.csv: variant i's figure, and against the baseline's. */
static int csv_stats_row(FILE *f, const struct group *g, unsigned int i, const struct column *col)
{
	struct stat3 s, base;
	struct verdict vd;
	bool base_ok;

	if (figure_missing(&g->v[i], col) != FIGURE_OK)
		return 0;
	if (figure_pair(g, i, col, &s, &base, &base_ok))
		return -1;
	fprintf(f, "%s,%s,%u,%.6g,%.6g,%.6g,%.4f,%d", g->v[i].series, figure_name(col), s.n, s.median, s.ci.lo,
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

/* stats-<workload>-t<threads>.csv: every figure with a ratio, every
 * variant: the median and its interval, the ratio and its, the verdict. */
static int csv_stats(const struct group *g, const char *dir)
{
	struct column cols[6];
	unsigned int ncols = ratio_columns(g, cols);
	char name[256], path[1400];
	FILE *f;

	group_file(name, sizeof(name), "stats", g);
	if (!(f = csv_open(dir, name, path, sizeof(path))))
		return -1;
	fprintf(f, "variant,figure,runs,median,ci_lo,ci_hi,ci_coverage,spread_large,baseline_runs,ratio,"
		   "ratio_ci_lo,ratio_ci_hi,p,verdict\n");
	for (unsigned int i = 0; i < g->nv; i++)
		for (unsigned int c = 0; c < ncols; c++)
			if (csv_stats_row(f, g, i, &cols[c])) {
				fclose(f);
				return -1;
			}
	return csv_close(f, path);
}

/* histcmp-<workload>-t<threads>.csv (each variant's distance from the
 * baseline's histogram) and histdiff-<workload>-t<threads>.csv (per bin, the
 * change of share): written when some variant has two runs or more. */
static int csv_histcmp(const struct group *g, const char *dir)
{
	static struct hist_comparison c;
	char name[256], path[1400], path2[1400];
	FILE *f, *d;

	if (group_max_reps(g) < 2 || g->nv < 2)
		return 0;
	group_file(name, sizeof(name), "histcmp", g);
	if (!(f = csv_open(dir, name, path, sizeof(path))))
		return -1;
	group_file(name, sizeof(name), "histdiff", g);
	if (!(d = csv_open(dir, name, path2, sizeof(path2)))) {
		fclose(f);
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
	if (csv_close(d, path2)) {
		fclose(f);
		return -1;
	}
	return csv_close(f, path);
}

static int write_csvs(const char *dir)
{
	for (unsigned int i = 0; i < ngroups; i++) {
		bool first_of_workload = true;

		if (csv_hist(&groups[i], dir, false) || csv_hist(&groups[i], dir, true) ||
		    csv_phases(&groups[i], dir) || csv_stats(&groups[i], dir) || csv_histcmp(&groups[i], dir))
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

int main(int argc, char **argv)
{
	const char *csv_dir = NULL;
	int first = 1;

	if (argc >= 2 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)) {
		printf("usage: lbcompare [--csv OUTDIR] DIR...  (run directories, or directories of runs)\n"
		       "       lbcompare --markdown RUNALLDIR    (run-all's report.md, on stdout)\n"
		       "       lbcompare --markdown-hosts OUTDIR RUNALLDIR...  (several hosts' report)\n");
		return 0;
	}
	if (argc == 3 && strcmp(argv[1], "--markdown") == 0)
		return markdown_report(argv[2], stdout);
	if (argc >= 4 && strcmp(argv[1], "--markdown-hosts") == 0)
		return markdown_hosts_report(argv[2], argv + 3, argc - 3, stdout);
	if (argc >= 3 && strcmp(argv[1], "--csv") == 0) {
		csv_dir = argv[2];
		first = 3;
	}
	if (first >= argc) {
		fprintf(stderr, "lbcompare: usage: lbcompare [--csv OUTDIR] DIR...\n");
		return 2;
	}
	for (int i = first; i < argc; i++)
		if ((is_run_dir(argv[i]) ? add_run(argv[i]) : add_parent(argv[i])) != 0)
			return die(err);
	for (unsigned int i = 0; i < nruns; i++)
		if (group_run(runs[i]) != 0)
			return die(err);
	mixed_timing = runs_mix_timing();
	for (unsigned int i = 0; i < ngroups; i++) {
		name_kernel_rows(&groups[i]);
		name_timing(&groups[i]);
		name_host(&groups[i]);
	}
	if (nhosts > 1) {
		print_hosts();
		if (print_across_hosts() != 0)
			return die(err);
	}
	if (mixed_timing)
		printf("NOTE: these runs mix --timing modes, so each variant is named lock@timing.  Ops/sec and CPU us/op\n"
		       "of `all` runs include timing every acquisition; cycle figures and histograms cover the timed\n"
		       "acquisitions only (sample:N: about 1 in N, counts as sampled; off: none, n/a).  Compare across\n"
		       "modes with that in mind.\n\n");
	for (unsigned int i = 0; i < ngroups; i++)
		if (print_group(&groups[i]) != 0)
			return die(err);
	if (csv_dir && write_csvs(csv_dir) != 0)
		return die(err);
	for (unsigned int i = 0; i < nruns; i++)
		free(runs[i]);
	return 0;
}
