/*
 * compare.c — analysis/lbcompare: the seed patch's table from lockbench
 * result directories.
 *
 *   analysis/lbcompare [--csv OUTDIR] DIR...
 *
 * With --csv, also writes into OUTDIR the files the gnuplot scripts read
 * (documented in results/README.md, "Derived files"):
 *   hist-<workload>-t<threads>.csv            bin,lower_cycles,lower_ns,<lock>...  (% of acquisitions)
 *   hist-contended-<workload>-t<threads>.csv  the same, % of contended acquisitions (when every
 *                                             variant's runs have hist_contended.csv)
 *   phases-<workload>-t<threads>.csv   lock,fast_pct,spin_pct,nosleep_pct,sleep_pct
 *   sweep-<workload>-<figure>.csv      threads,<lock>...  (medians; figure ops_per_s or cpu_us_per_op)
 *
 * Each DIR is one run (summary.csv + hist.csv [+ hist_contended.csv]), or a
 * directory whose immediate subdirectories are runs.  Runs group by
 * (workload, threads); within a group, each lock is a variant, the first one
 * met the baseline for ratios, and repeated runs of a variant are
 * repetitions: figures are their median, with min..max beside it, and
 * histograms are summed.  The patch counted contended acquisitions only, so
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

#include "resultfile.h"

#define MAX_RUNS 4096
#define MAX_VARIANTS 64
#define MAX_GROUPS 256

struct variant {
	const char *lock;
	const char *timing;      /* --timing of its runs: all, sample:N, off ("all" before --timing) */
	char series[64];         /* its name in the sweep and phase CSVs: lock, or lock@timing (mixed_timing) */
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

struct stat3 {
	double median, min, max;
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
	if (base->median != 0)  /* whole numbers from 1000x on, to keep the column's width */
		printf(" %6.*fx", s->median / base->median >= 999.995 ? 0 : 2, s->median / base->median);
	else
		printf(" %7s", "-");
}

/* The cells of a figure the variant's runs do not have. */
static void print_unavailable(unsigned int nreps, const struct column *col)
{
	printf("  %14s", "n/a");
	if (nreps > 1)
		printf(" %-24s", "");
	if (!col->no_ratio)
		printf(" %7s", "-");
}

/* Why cells read "n/a": runs that predate a figure, or the kernel row,
 * which has only the contended (waiting) figures. */
struct unavailable {
	bool old, kernel;
	bool untimed;    /* a cycle figure of --timing off runs */
};

/* One cell: the variant's figure and its ratio to the baseline's (no ratio
 * when the baseline lacks the figure).  Where the variant's runs lack an
 * optional key, or the kernel row has no such figure, "n/a" and the reason
 * noted.  0, or -1 with err set. */
static int print_cell(const struct group *g, unsigned int i, unsigned int nreps, const struct column *col,
		      struct unavailable *na)
{
	const char *key = column_key(&g->v[i], col), *base_key = column_key(&g->v[0], col);
	struct stat3 s, base = { 0, 0, 0 };
	bool base_has = strcmp(base_key, KERNEL_NA) != 0 && (!col->optional || has_key(&g->v[0], base_key));

	if (strcmp(g->v[i].timing, "off") == 0 && strstr(key, "acq_cycles")) {
		print_unavailable(nreps, col);
		na->untimed = true;
		return 0;
	}
	if (strcmp(key, KERNEL_NA) == 0 || (col->optional && !has_key(&g->v[i], key))) {
		print_unavailable(nreps, col);
		*(strcmp(key, KERNEL_NA) == 0 ? &na->kernel : &na->old) = true;
		return 0;
	}
	if (figure_per(&g->v[i], key, col->per, col->scale, &s) ||
	    (base_has && figure_per(&g->v[0], base_key, col->per, col->scale, &base)))
		return -1;
	print_stat(&s, &base, nreps, col);
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

/* A table of `cols` by variant, the `rows` ones. */
static int print_block(const struct group *g, const struct column *cols, unsigned int ncols, enum rows rows)
{
	unsigned int nreps = 0;
	struct unavailable na = { false, false, false };
	int width = label_width(g);

	for (unsigned int i = 0; i < g->nv; i++)
		nreps = g->v[i].nreps > nreps ? g->v[i].nreps : nreps;
	printf("%-*s", width, "");
	for (unsigned int c = 0; c < ncols; c++) {
		printf("  %14s", cols[c].title);
		if (nreps > 1)
			printf(" %-24s", "[min..max]");
		if (!cols[c].no_ratio)
			printf(" %7s", "ratio");
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
	if (na.old)
		printf("(n/a: those runs were written by a lockbench that did not record the figure)\n");
	if (na.untimed)
		printf("(n/a: runs with --timing off time no acquisition)\n");
	if (na.kernel)
		printf("(n/a for the kernel row: the capture sees only the kernel's waits, not its uncontended acquisitions)\n");
	printf("\n");
	return 0;
}

static int print_throughput(const struct group *g)
{
	bool jobs = strcmp(g->unit, "jobs") == 0;
	struct column cols[] = {
		{ jobs ? "Jobs/min" : "Ops/sec", "ops_per_s", jobs ? 60 : 1, "%.0f", false, false, NULL, NULL },
		{ "CPU us/op", "cpu_us_per_op", 1, "%.3f", false, false, NULL, NULL },
	};

	return print_block(g, cols, 2, ROWS_ALL);
}

/* The patch's "#contentions" and "Time to acquire mutex": contended
 * acquisitions only; then the same over every acquisition, fast path
 * included, which is what lockbench's plain acq_cycles figures cover. */
static int print_contention(const struct group *g)
{
	static const struct column contended[] = {
		{ "#contentions", "contentions", 1, "%.0f", false, false, "kernel_contentions", NULL },
		{ "mean cycles", "contended_acq_cycles_mean", 1, "%.0f", false, true, "kernel_wait_cycles_mean", NULL },
	};
	static const struct column all[] = {
		{ "acquisitions", "acquisitions", 1, "%.0f", false, false, KERNEL_NA, NULL },
		{ "mean cycles", "acq_cycles_mean", 1, "%.0f", false, false, KERNEL_NA, NULL },
	};

	printf("Contended acquisitions only, as the patch counted (#contentions; mean acquisition cycles):\n");
	if (print_block(g, contended, 2, ROWS_ALL))
		return -1;
	printf("All acquisitions, fast path included:\n");
	return print_block(g, all, 2, ROWS_ALL);
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
	static const struct column exits[] = {
		{ "acquired", "spin_exit_acquired", 1, "%.0f", true, false, NULL, NULL },
		{ "owner changed", "spin_exit_owner_changed", 1, "%.0f", true, false, NULL, NULL },
		{ "owner asleep", "spin_exit_owner_not_running", 1, "%.0f", true, false, NULL, NULL },
		{ "need resched", "spin_exit_need_resched", 1, "%.0f", true, true, NULL, NULL },
		{ "budget spent", "spin_exit_budget", 1, "%.0f", true, false, NULL, NULL },
		{ "left queue", "spin_exit_queue_gave_up", 1, "%.0f", true, false, NULL, NULL },
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
	printf("== workload %s, %u threads: %u variant%s, baseline %s; timing %s ==\n\n", g->workload, g->threads,
	       g->nv, g->nv == 1 ? "" : "s", g->v[0].label, mixed_timing ? "mixed (lock@timing)" : g->v[0].timing);
	print_kernel_row_note(g);
	if (print_seed(g) || print_throughput(g) || print_contention(g) || print_phases(g) || print_kernel(g))
		return -1;
	print_hist(g, true);
	print_hist(g, false);
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
	snprintf(name, sizeof(name), "hist-%s%s-t%u.csv", contended ? "contended-" : "", g->workload, g->threads);
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

	snprintf(name, sizeof(name), "phases-%s-t%u.csv", g->workload, g->threads);
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
			const struct variant *v = find_series(rows[r], locks[k]);
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

		if (csv_hist(&groups[i], dir, false) || csv_hist(&groups[i], dir, true) ||
		    csv_phases(&groups[i], dir))
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
	mixed_timing = runs_mix_timing();
	for (unsigned int i = 0; i < ngroups; i++) {
		name_kernel_rows(&groups[i]);
		name_timing(&groups[i]);
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
