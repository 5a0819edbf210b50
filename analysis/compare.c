/*
 * compare.c — analysis/lbcompare: the seed patch's table from lockbench
 * result directories.
 *
 *   analysis/lbcompare [--csv OUTDIR] DIR...
 *
 * With --csv, also writes into OUTDIR the files the gnuplot scripts read
 * (documented in results/README.md, "Derived files"):
 *   hist-<workload>-t<threads>.csv     bin,lower_cycles,lower_ns,<lock>...  (% of acquisitions)
 *   phases-<workload>-t<threads>.csv   lock,fast_pct,spin_pct,sleep_pct
 *   sweep-<workload>-<figure>.csv      threads,<lock>...  (medians; figure ops_per_s or cpu_us_per_op)
 *
 * Each DIR is one run (summary.csv + hist.csv), or a directory whose
 * immediate subdirectories are runs.  Runs group by (workload, threads);
 * within a group, each lock is a variant, the first one met the baseline for
 * ratios, and repeated runs of a variant are repetitions: figures are their
 * median, with min..max beside it, and histograms are summed.  Reads only the
 * files documented in results/README.md.
 */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "resultfile.h"

#define MAX_RUNS 4096
#define MAX_VARIANTS 64
#define MAX_GROUPS 256

struct variant {
	const char *lock;
	struct result_run *reps[64];
	unsigned int nreps;
	uint64_t hist[RESULT_BINS];
	uint64_t hist_total;
};

struct group {
	const char *workload;
	const char *unit;
	unsigned int threads;
	struct variant v[MAX_VARIANTS];
	unsigned int nv;
};

static struct result_run *runs[MAX_RUNS];
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

/* ---- grouping ---- */

static int group_run(struct result_run *run)
{
	const char *workload = result_get(run, "workload"), *lock = result_get(run, "lock");
	const char *unit = result_get(run, "unit");
	double threads;
	struct group *g = NULL;
	struct variant *v = NULL;

	if (!workload || !lock || !unit || result_number(run, "threads", &threads, err, sizeof(err))) {
		if (!workload || !lock || !unit)
			return set_err("%s/summary.csv: lacks lock, workload or unit", run->dir);
		return -1;
	}
	for (unsigned int i = 0; i < ngroups && !g; i++)
		if (strcmp(groups[i].workload, workload) == 0 && groups[i].threads == (unsigned int)threads)
			g = &groups[i];
	if (!g) {
		if (ngroups >= MAX_GROUPS)
			return set_err("too many workload/thread groups");
		g = &groups[ngroups++];
		*g = (struct group){ .workload = workload, .unit = unit, .threads = (unsigned int)threads };
	}
	for (unsigned int i = 0; i < g->nv && !v; i++)
		if (strcmp(g->v[i].lock, lock) == 0)
			v = &g->v[i];
	if (!v) {
		if (g->nv >= MAX_VARIANTS)
			return set_err("too many locks in one group");
		v = &g->v[g->nv++];
		v->lock = lock;
	}
	if (v->nreps >= sizeof(v->reps) / sizeof(v->reps[0]))
		return set_err("too many repetitions of %s", lock);
	v->reps[v->nreps++] = run;
	for (int b = 0; b < RESULT_BINS; b++)
		v->hist[b] += run->hist[b];
	v->hist_total += run->hist_total;
	return 0;
}

/* ---- figures: median and spread over repetitions ---- */

struct stat3 {
	double median, min, max;
};

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* `scale` converts units (60: per second -> per minute). */
static int figure(const struct variant *v, const char *key, double scale, struct stat3 *out)
{
	double vals[64];

	for (unsigned int i = 0; i < v->nreps; i++) {
		if (result_number(v->reps[i], key, &vals[i], err, sizeof(err)))
			return -1;
		vals[i] *= scale;
	}
	qsort(vals, v->nreps, sizeof(vals[0]), cmp_double);
	out->min = vals[0];
	out->max = vals[v->nreps - 1];
	out->median = v->nreps % 2 ? vals[v->nreps / 2]
				   : (vals[v->nreps / 2 - 1] + vals[v->nreps / 2]) / 2;
	return 0;
}

struct column {
	const char *title;
	const char *key;
	double scale;
	const char *fmt;
	bool no_ratio;    /* event counts: a ratio between locks means little */
};

static void print_stat(const struct stat3 *s, const struct stat3 *base, unsigned int nreps,
		       const struct column *col)
{
	const char *fmt = col->fmt;
	char buf[64];

	snprintf(buf, sizeof(buf), fmt, s->median);
	printf("  %14s", buf);
	if (nreps > 1) {
		char lo[32], hi[32], range[72];

		snprintf(lo, sizeof(lo), fmt, s->min);
		snprintf(hi, sizeof(hi), fmt, s->max);
		snprintf(range, sizeof(range), "[%s..%s]", lo, hi);
		printf(" %-24s", range);
	}
	if (col->no_ratio)
		return;
	if (base->median != 0)
		printf(" %6.2fx", s->median / base->median);
	else
		printf(" %7s", "-");
}


static int print_block(const struct group *g, const struct column *cols, unsigned int ncols)
{
	unsigned int nreps = 0;

	for (unsigned int i = 0; i < g->nv; i++)
		nreps = g->v[i].nreps > nreps ? g->v[i].nreps : nreps;
	printf("%-18s", "");
	for (unsigned int c = 0; c < ncols; c++) {
		printf("  %14s", cols[c].title);
		if (nreps > 1)
			printf(" %-24s", "[min..max]");
		if (!cols[c].no_ratio)
			printf(" %7s", "ratio");
	}
	printf("\n");
	for (unsigned int i = 0; i < g->nv; i++) {
		printf("%-18s", g->v[i].lock);
		for (unsigned int c = 0; c < ncols; c++) {
			struct stat3 s, base;

			if (figure(&g->v[i], cols[c].key, cols[c].scale, &s) ||
			    figure(&g->v[0], cols[c].key, cols[c].scale, &base))
				return -1;
			print_stat(&s, &base, nreps, &cols[c]);
		}
		printf("\n");
	}
	printf("\n");
	return 0;
}

static int print_throughput(const struct group *g)
{
	bool jobs = strcmp(g->unit, "jobs") == 0;
	struct column col = { jobs ? "Jobs/min" : "Ops/sec", "ops_per_s", jobs ? 60 : 1, "%.0f", false };

	return print_block(g, &col, 1);
}

static int print_contention(const struct group *g)
{
	static const struct column cols[] = {
		{ "#contentions", "contentions", 1, "%.0f", false },
		{ "acq cycles", "acq_cycles_mean", 1, "%.0f", false },
		{ "CPU us/op", "cpu_us_per_op", 1, "%.3f", false },
	};

	return print_block(g, cols, 3);
}

/* True when some run of the group recorded spin/sleep events. */
static bool group_has_phases(const struct group *g)
{
	for (unsigned int i = 0; i < g->nv; i++)
		for (unsigned int r = 0; r < g->v[i].nreps; r++) {
			double fast = 0, spin = 0, sleep = 0;

			result_number(g->v[i].reps[r], "acq_fast", &fast, err, sizeof(err));
			result_number(g->v[i].reps[r], "acq_spin", &spin, err, sizeof(err));
			result_number(g->v[i].reps[r], "acq_sleep", &sleep, err, sizeof(err));
			if (fast + spin + sleep > 0)
				return true;
		}
	err[0] = '\0';
	return false;
}

static int print_phases(const struct group *g)
{
	static const struct column cols[] = {
		{ "acq fast", "acq_fast", 1, "%.0f", true },
		{ "acq spin", "acq_spin", 1, "%.0f", true },
		{ "acq sleep", "acq_sleep", 1, "%.0f", true },
		{ "futex waits", "futex_waits", 1, "%.0f", true },
		{ "spin cycles", "spin_cycles", 1, "%.3g", true },
	};
	static const struct column exits[] = {
		{ "acquired", "spin_exit_acquired", 1, "%.0f", true },
		{ "owner changed", "spin_exit_owner_changed", 1, "%.0f", true },
		{ "owner asleep", "spin_exit_owner_not_running", 1, "%.0f", true },
		{ "budget spent", "spin_exit_budget", 1, "%.0f", true },
		{ "left queue", "spin_exit_queue_gave_up", 1, "%.0f", true },
	};

	if (!group_has_phases(g))
		return 0;
	printf("How acquisitions were obtained (locks without spin/sleep phases show 0):\n");
	if (print_block(g, cols, 5))
		return -1;
	printf("Why spin phases ended:\n");
	return print_block(g, exits, 5);
}

static void print_hist(const struct group *g)
{
	int first = -1, last = -1;

	for (int b = 0; b < RESULT_BINS; b++)
		for (unsigned int i = 0; i < g->nv; i++)
			if (g->v[i].hist[b]) {
				first = first < 0 ? b : first;
				last = b;
			}
	printf("Mutex acquisition time distribution (acq time = 2^bin cycles):\n");
	printf("      ");
	for (unsigned int i = 0; i < g->nv; i++)
		printf("  %-26s", g->v[i].lock);
	printf("\nbin   ");
	for (unsigned int i = 0; i < g->nv; i++)
		printf("  %-14s %-11s", "#occurrence", "%");
	printf("\n");
	for (int b = first; first >= 0 && b <= last; b++) {
		printf("%-6d", b);
		for (unsigned int i = 0; i < g->nv; i++) {
			const struct variant *v = &g->v[i];
			double pct = v->hist_total ? 100.0 * (double)v->hist[b] / (double)v->hist_total : 0;

			printf("  %-14llu %6.2f%%    ", (unsigned long long)v->hist[b], pct);
		}
		printf("\n");
	}
	printf("\n");
}

static int print_group(const struct group *g)
{
	printf("== workload %s, %u threads: %u variant%s, baseline %s ==\n\n", g->workload, g->threads,
	       g->nv, g->nv == 1 ? "" : "s", g->v[0].lock);
	if (print_throughput(g) || print_contention(g) || print_phases(g))
		return -1;
	print_hist(g);
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

static int csv_hist(const struct group *g, const char *dir)
{
	char name[256], path[1400];
	double hz = group_tsc_hz(g);
	FILE *f;

	snprintf(name, sizeof(name), "hist-%s-t%u.csv", g->workload, g->threads);
	if (!(f = csv_open(dir, name, path, sizeof(path))))
		return -1;
	fprintf(f, "bin,lower_cycles,lower_ns");
	for (unsigned int i = 0; i < g->nv; i++)
		fprintf(f, ",%s", g->v[i].lock);
	fprintf(f, "\n");
	for (int b = 0; b < RESULT_BINS; b++) {
		double lower = b ? ldexp(1.0, b) : 0;

		fprintf(f, "%d,%.0f,%.3f", b, lower, hz > 0 ? lower * 1e9 / hz : 0);
		for (unsigned int i = 0; i < g->nv; i++)
			fprintf(f, ",%.4f", g->v[i].hist_total ?
				100.0 * (double)g->v[i].hist[b] / (double)g->v[i].hist_total : 0);
		fprintf(f, "\n");
	}
	return csv_close(f, path);
}

static int csv_phases(const struct group *g, const char *dir)
{
	char name[256], path[1400];
	FILE *f;

	snprintf(name, sizeof(name), "phases-%s-t%u.csv", g->workload, g->threads);
	if (!(f = csv_open(dir, name, path, sizeof(path))))
		return -1;
	fprintf(f, "lock,fast_pct,spin_pct,sleep_pct\n");
	for (unsigned int i = 0; i < g->nv; i++) {
		struct stat3 fast, spin, sleep;
		double total;

		if (figure(&g->v[i], "acq_fast", 1, &fast) || figure(&g->v[i], "acq_spin", 1, &spin) ||
		    figure(&g->v[i], "acq_sleep", 1, &sleep)) {
			fclose(f);
			return -1;
		}
		total = fast.median + spin.median + sleep.median;
		fprintf(f, "%s,%.3f,%.3f,%.3f\n", g->v[i].lock, total ? 100 * fast.median / total : 0,
			total ? 100 * spin.median / total : 0, total ? 100 * sleep.median / total : 0);
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

			while (k < n && strcmp(locks[k], groups[gi].v[i].lock) != 0)
				k++;
			if (k == n && n < max)
				locks[n++] = groups[gi].v[i].lock;
		}
	}
	return n;
}

static const struct variant *find_variant(const struct group *g, const char *lock)
{
	for (unsigned int i = 0; i < g->nv; i++)
		if (strcmp(g->v[i].lock, lock) == 0)
			return &g->v[i];
	return NULL;
}

static int cmp_group_threads(const void *a, const void *b)
{
	const struct group *x = *(const struct group *const *)a, *y = *(const struct group *const *)b;

	return (x->threads > y->threads) - (x->threads < y->threads);
}

/* One row per thread count, one column per lock; empty where not run. */
static int csv_sweep(const char *workload, const char *key, const char *dir)
{
	const char *locks[MAX_VARIANTS];
	const struct group *rows[MAX_GROUPS];
	unsigned int nlocks = workload_locks(workload, locks, MAX_VARIANTS), nrows = 0;
	char name[256], path[1400];
	FILE *f;

	for (unsigned int gi = 0; gi < ngroups; gi++)
		if (strcmp(groups[gi].workload, workload) == 0)
			rows[nrows++] = &groups[gi];
	qsort(rows, nrows, sizeof(rows[0]), cmp_group_threads);
	snprintf(name, sizeof(name), "sweep-%s-%s.csv", workload, key);
	if (!(f = csv_open(dir, name, path, sizeof(path))))
		return -1;
	fprintf(f, "threads");
	for (unsigned int k = 0; k < nlocks; k++)
		fprintf(f, ",%s", locks[k]);
	fprintf(f, "\n");
	for (unsigned int r = 0; r < nrows; r++) {
		fprintf(f, "%u", rows[r]->threads);
		for (unsigned int k = 0; k < nlocks; k++) {
			const struct variant *v = find_variant(rows[r], locks[k]);
			struct stat3 s;

			if (!v) {
				fprintf(f, ",");
				continue;
			}
			if (figure(v, key, 1, &s)) {
				fclose(f);
				return -1;
			}
			fprintf(f, ",%.6g", s.median);
		}
		fprintf(f, "\n");
	}
	return csv_close(f, path);
}

static int write_csvs(const char *dir)
{
	for (unsigned int i = 0; i < ngroups; i++) {
		bool first_of_workload = true;

		if (csv_hist(&groups[i], dir) || csv_phases(&groups[i], dir))
			return -1;
		for (unsigned int j = 0; j < i; j++)
			if (strcmp(groups[j].workload, groups[i].workload) == 0)
				first_of_workload = false;
		if (first_of_workload && (csv_sweep(groups[i].workload, "ops_per_s", dir) ||
					  csv_sweep(groups[i].workload, "cpu_us_per_op", dir)))
			return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	const char *csv_dir = NULL;
	int first = 1;

	if (argc >= 2 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)) {
		printf("usage: lbcompare [--csv OUTDIR] DIR...  (run directories, or directories of runs)\n");
		return 0;
	}
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
	for (unsigned int i = 0; i < ngroups; i++)
		if (print_group(&groups[i]) != 0)
			return die(err);
	if (csv_dir && write_csvs(csv_dir) != 0)
		return die(err);
	for (unsigned int i = 0; i < nruns; i++)
		free(runs[i]);
	return 0;
}
