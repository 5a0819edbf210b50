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
 * on creat, fserver and fpos the `none` lock's runs with it are the real
 * kernel's row ("kernel 6.18 rwsem_write"): no userspace lock, so its contentions,
 * their mean and its contended histogram are the kernel's waits for its own
 * locks.  Each group's heading states its --timing mode; runs of different
 * modes are never silently merged: every variant is then a lock and a mode,
 * named lock@mode, under a note, and the cycle figures and histograms of
 * `off` runs (which time nothing) show n/a.  Reads only the files documented
 * in results/README.md.
 *
 * This file holds main(), the command line, loading and grouping; the
 * tables, histograms, seed figures, hosts and CSV files are in the other
 * analysis/compare_*.c, which share compare.h.
 */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compare.h"
#include "markdown.h"

/* The runs as loaded, then grouped (compare.h: what the other files read). */
static struct result_run *runs[MAX_RUNS];
bool mixed_timing;
static unsigned int nruns;
struct group groups[MAX_GROUPS];
unsigned int ngroups;
char err[ERR_LEN];

int set_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, sizeof(err), fmt, ap);
	va_end(ap);
	return -1;
}

/* ---- loading ---- */

/* --within ROOT: the directories named on the command line are below ROOT
 * and walked without following a link (safefile.h); else each is opened as
 * the user named it.  What lbcompare finds inside them is never followed. */
static struct sf_dir root = { .fd = -1 };

static int open_named_dir(struct sf_dir *d, const char *path)
{
	if (root.fd >= 0)
		return sf_dir_at(d, &root, path, err, sizeof(err));
	return sf_dir_open(d, path, err, sizeof(err));
}

/* A run directory: it holds a summary.csv (of whatever kind: one that is a
 * link or a FIFO is then refused by name, not taken for a missing run). */
static bool is_run_dir(const struct sf_dir *dir)
{
	struct stat st;

	return sf_stat(dir, "summary.csv", &st) == 0;
}

static int add_run(const struct sf_dir *dir)
{
	struct result_run *run;

	if (nruns >= MAX_RUNS)
		return set_err("more than %d runs", MAX_RUNS);
	run = malloc(sizeof(*run));
	if (!run)
		return set_err("out of memory");
	if (result_load(run, dir, err, sizeof(err)) != 0) {
		free(run);
		return -1;
	}
	runs[nruns++] = run;
	return 0;
}

/* A directory of runs: its subdirectories that hold a summary.csv, in
 * name order; an entry that is a link is not followed (not a run here). */
static int add_parent(const struct sf_dir *parent)
{
	char **names = sf_names(parent, "*");
	unsigned int found = 0;
	int rc = 0;

	if (!names)
		return set_err("%s: %s", parent->path, strerror(errno));
	for (size_t i = 0; rc == 0 && names[i]; i++) {
		struct sf_dir sub;
		char ignored[ERR_LEN];

		if (sf_dir_at(&sub, parent, names[i], ignored, sizeof(ignored)) != 0)
			continue;
		if (is_run_dir(&sub)) {
			found++;
			rc = add_run(&sub);
		}
		sf_dir_close(&sub);
	}
	sf_names_free(names);
	if (rc == 0 && found == 0)
		return set_err("%s: no summary.csv in it or in its subdirectories", parent->path);
	return rc;
}

static int add_named(const char *path)
{
	struct sf_dir d;
	int rc;

	if (open_named_dir(&d, path) != 0)
		return -1;
	rc = is_run_dir(&d) ? add_run(&d) : add_parent(&d);
	sf_dir_close(&d);
	return rc;
}

/* ---- hosts: which machine each run came from ---- */

struct host hosts[MAX_HOSTS];
unsigned int nhosts;

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

/* ---- grouping ---- */

/* A run's --timing; runs written before it timed every acquisition. */
static const char *run_timing(const struct result_run *run)
{
	const char *t = result_get(run, "timing");

	return t ? t : "all";
}

/* A run's --sched; runs written before it ran as the process did. */
static const char *run_sched(const struct result_run *run)
{
	const char *s = result_get(run, "sched");

	return s ? s : "other";
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

/* A variant whose threads ran under another --sched than the default says
 * so in its name, the kernel row's too: lock@fifo. */
static void name_sched(struct group *g)
{
	for (unsigned int i = 0; i < g->nv; i++) {
		struct variant *v = &g->v[i];
		size_t n = strlen(v->label), m = strlen(v->series);

		if (strcmp(v->sched, "other") == 0)
			continue;
		snprintf(v->label + n, sizeof(v->label) - n, "@%s", v->sched);
		snprintf(v->series + m, sizeof(v->series) - m, "@%s", v->sched);
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
		if (strcmp(g->v[i].lock, lock) == 0 && strcmp(g->v[i].timing, run_timing(run)) == 0 &&
		    strcmp(g->v[i].sched, run_sched(run)) == 0)
			v = &g->v[i];
	if (!v) {
		if (g->nv >= MAX_VARIANTS)
			return set_err("too many locks in one group");
		v = &g->v[g->nv++];
		v->lock = lock;
		v->timing = run_timing(run);
		v->sched = run_sched(run);
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
 * workload whose threads meet in the kernel (creat and fserver on a
 * directory's lock, fpos on a file's f_pos_lock), with kernel capture.
 * Named for the kernel and the lock type it waited on most, "kernel 6.18
 * rwsem_write" (kernel_release's first two numbers).
 */
static void name_kernel_rows(struct group *g)
{
	bool files = strcmp(g->workload, "creat") == 0 || strcmp(g->workload, "fserver") == 0 ||
		     strcmp(g->workload, "fpos") == 0;

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

const struct variant *find_variant(const struct group *g, const char *lock)
{
	for (unsigned int i = 0; i < g->nv; i++)
		if (strcmp(g->v[i].lock, lock) == 0 && strcmp(g->v[i].sched, "other") == 0)
			return &g->v[i];
	return NULL;
}

/* ---- output ---- */

/* lbcompare's exit statuses (docs/run-all.md, "lbcompare"). */
enum {
	CMP_OK = 0,
	CMP_RUNS = 1,     /* the runs could not be read, or compared */
	CMP_USAGE = 2,    /* the command line; --markdown: the directory */
	CMP_WRITE = 3,    /* the output (standard output, --output, --csv) could not be written */
};

/* --output FILE: standard output goes into FILE's temporary file
 * (safefile.h) and is renamed into place at the end; a link or FIFO at
 * FILE is replaced, never written through. */
static const char *output_name;
static struct sf_out output = { .dirfd = -1 };
static int saved_stdout = -1;

/* FILE's directory (below --within's ROOT; else as the user named it) and
 * its name there. */
static int output_begin(struct sf_out *o)
{
	const char *slash = strrchr(output_name, '/');
	struct sf_dir dir;
	char dirname[PATH_MAX];
	FILE *f;

	if (root.fd >= 0)
		return sf_out_open(o, &root, output_name, err, sizeof(err)) ? 0 : -1;
	if (!slash)
		snprintf(dirname, sizeof(dirname), ".");
	else if (slash == output_name)
		snprintf(dirname, sizeof(dirname), "/");
	else
		snprintf(dirname, sizeof(dirname), "%.*s", (int)(slash - output_name), output_name);
	if (sf_dir_open(&dir, dirname, err, sizeof(err)) != 0)
		return -1;
	f = sf_out_open(o, &dir, slash ? slash + 1 : output_name, err, sizeof(err));
	sf_dir_close(&dir);
	return f ? 0 : -1;
}

static int output_start(void)
{
	if (!output_name)
		return 0;
	if (output_begin(&output) != 0)
		return -1;
	fflush(stdout);
	saved_stdout = dup(STDOUT_FILENO);
	if (dup2(fileno(output.f), STDOUT_FILENO) < 0) {
		set_err("%s: %s", output.path, strerror(errno));
		sf_out_abort(&output);
		return -1;
	}
	return 0;
}

/* Standard output back where it was; FILE renamed into place (KEEP), or
 * given up.  0, or -1 with err set when FILE could not be written. */
static int output_end(bool keep)
{
	int e = 0;

	if (!output_name || output.dirfd < 0)
		return 0;
	errno = 0;
	if (fflush(stdout) != 0 || ferror(stdout))
		e = errno ? errno : EIO;
	if (saved_stdout >= 0) {
		dup2(saved_stdout, STDOUT_FILENO);
		close(saved_stdout);
	} else {
		close(STDOUT_FILENO);
	}
	saved_stdout = -1;
	clearerr(stdout);
	if (!keep || e) {
		sf_out_abort(&output);
		return e ? set_err("cannot write %s: %s", output.path, strerror(e)) : 0;
	}
	return sf_out_commit(&output, err, sizeof(err));
}

/* MSG as one line: paths in messages come from the user. */
static void one_line(char *msg)
{
	for (char *p = msg; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
}

/* err as the one line on stderr, after WHAT ("--csv"; NULL: nothing). */
static void say_err(const char *what)
{
	one_line(err);
	fprintf(stderr, "lbcompare: %s%s%s\n", what ? what : "", what ? ": " : "", err);
}

/* The comparison failed: its one line, on stderr and, with --output, as
 * FILE's whole text (what run-all's report shows in its place). */
static int die(char *msg)
{
	char line[ERR_LEN];
	struct sf_out o;

	one_line(msg);
	snprintf(line, sizeof(line), "%s", msg);
	output_end(false);
	if (output_name && output_begin(&o) == 0) {
		fprintf(o.f, "lbcompare: %s\n", line);
		if (sf_out_commit(&o, err, sizeof(err)) != 0) {
			say_err(NULL);
			return CMP_WRITE;
		}
	} else if (output_name) {
		say_err(NULL);
		return CMP_WRITE;
	}
	fprintf(stderr, "lbcompare: %s\n", line);
	return CMP_RUNS;
}

/* Every path's end: the output kept, and standard output's every write
 * checked (a full disk under it is an error, not exit 0). */
static int finish(int status)
{
	if (output_end(status == CMP_OK) != 0) {
		say_err(NULL);
		status = CMP_WRITE;
	}
	if (sf_close_stdout("lbcompare", status != CMP_OK) != 0 && status == CMP_OK)
		status = CMP_WRITE;
	sf_dir_close(&root);
	return status;
}

static int usage(const char *msg)
{
	fprintf(stderr, "lbcompare: %s\n", msg);
	return finish(CMP_USAGE);
}

/* What could not be opened, written or read before anything was: its
 * line, and the exit STATUS.  DIR (open, or fd -1) is closed. */
static int cannot(struct sf_dir *dir, const char *what, int status)
{
	sf_dir_close(dir);
	say_err(what);
	return finish(status);
}

/* The tables of the runs named in argv[first..], and with csv_dir the CSV files. */
static int compare(char **argv, int first, int argc, const char *csv_dir)
{
	struct sf_dir csv = { .fd = -1 };

	if (csv_dir && open_named_dir(&csv, csv_dir) != 0)
		return cannot(&csv, "--csv", CMP_WRITE);
	if (output_start() != 0)
		return cannot(&csv, NULL, CMP_WRITE);
	for (int i = first; i < argc; i++)
		if (add_named(argv[i]) != 0)
			return finish(die(err));
	for (unsigned int i = 0; i < nruns; i++)
		if (group_run(runs[i]) != 0)
			return finish(die(err));
	mixed_timing = runs_mix_timing();
	for (unsigned int i = 0; i < ngroups; i++) {
		name_kernel_rows(&groups[i]);
		name_timing(&groups[i]);
		name_sched(&groups[i]);
		name_host(&groups[i]);
	}
	if (nhosts > 1) {
		print_hosts();
		if (print_across_hosts() != 0)
			return finish(die(err));
	}
	if (mixed_timing)
		printf("NOTE: these runs mix --timing modes, so each variant is named lock@timing.  Ops/sec and CPU us/op\n"
		       "of `all` runs include timing every acquisition; cycle figures and histograms cover the timed\n"
		       "acquisitions only (sample:N: about 1 in N, counts as sampled; off: none, n/a).  Compare across\n"
		       "modes with that in mind.\n\n");
	for (unsigned int i = 0; i < ngroups; i++)
		if (print_group(&groups[i]) != 0)
			return finish(die(err));
	if (csv_dir && write_csvs(&csv) != 0) {
		output_end(false);
		return cannot(&csv, NULL, CMP_WRITE);
	}
	sf_dir_close(&csv);
	for (unsigned int i = 0; i < nruns; i++)
		free(runs[i]);
	return finish(CMP_OK);
}

/* --markdown DIR and --markdown-hosts OUTDIR DIR...: 0, or 2 after their
 * one line (markdown.h). */
static int markdown(bool hosts, char **argv, int argc)
{
	struct sf_dir dir;
	int rc;

	if (open_named_dir(&dir, argv[0]) != 0)
		return cannot(&dir, hosts ? "--markdown-hosts" : "--markdown", CMP_USAGE);
	if (output_start() != 0)
		return cannot(&dir, NULL, CMP_WRITE);
	rc = hosts ? markdown_hosts_report(&dir, argv + 1, argc - 1, stdout) : markdown_report(&dir, stdout);
	sf_dir_close(&dir);
	return finish(rc == 0 ? CMP_OK : CMP_USAGE);
}

int main(int argc, char **argv)
{
	const char *csv_dir = NULL;
	int i = 1;

	if (argc >= 2 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)) {
		printf("usage: lbcompare [--within ROOT] [--output FILE] [--csv OUTDIR] DIR...  (runs, or directories of runs)\n"
		       "       lbcompare [--within ROOT] [--output FILE] --markdown RUNALLDIR  (run-all's report.md)\n"
		       "       lbcompare [--within ROOT] [--output FILE] --markdown-hosts OUTDIR RUNALLDIR...\n"
		       "--within ROOT: DIR, OUTDIR, FILE and RUNALLDIR are below ROOT, no link in them followed.\n"
		       "--output FILE: what goes to standard output goes into FILE instead, replacing it whole.\n"
		       "Exit status: 0; 1 a run could not be read or compared; 2 usage; 3 the output could not be written.\n");
		return finish(CMP_OK);
	}
	for (; i + 1 < argc; i += 2) {
		if (strcmp(argv[i], "--within") == 0 && root.fd < 0) {
			if (sf_dir_open(&root, argv[i + 1], err, sizeof(err)) != 0) {
				one_line(err);
				return usage(err);
			}
			root.path[0] = '\0';  /* messages name what is below it as given: runs/NAME/hist.csv */
		} else if (strcmp(argv[i], "--output") == 0 && !output_name) {
			output_name = argv[i + 1];
		} else if (strcmp(argv[i], "--csv") == 0 && !csv_dir) {
			csv_dir = argv[i + 1];
		} else {
			break;  /* a mode, the first DIR, or an option given twice (usage, below) */
		}
	}
	if (i + 1 < argc && strcmp(argv[i], "--markdown") == 0 && !csv_dir)
		return i + 2 == argc ? markdown(false, argv + i + 1, 1) : usage("--markdown takes one directory");
	if (i + 2 < argc && strcmp(argv[i], "--markdown-hosts") == 0 && !csv_dir)
		return markdown(true, argv + i + 1, argc - i - 1);
	if (i >= argc || strncmp(argv[i], "--", 2) == 0)
		return usage("usage: lbcompare [--within ROOT] [--output FILE] [--csv OUTDIR] DIR...");
	return compare(argv, i, argc, csv_dir);
}
