/*
 * lbcompare.c — analysis/lbcompare: the seed patch's table from lockbench
 * result directories.
 *
 *   analysis/lbcompare [--csv OUTDIR] [--dir RUNALLDIR]... [--pool-builds] DIR...
 *   analysis/lbcompare --markdown RUNALLDIR   (run-all's report: markdown.h)
 *   analysis/lbcompare --data RUNALLDIR CHARTSDIR   (run-all's data/: print.h)
 *   analysis/lbcompare --hosts OUTDIR RUNALLDIR...   (the hosts' data/ and report.md: each directory loaded once)
 *   analysis/lbcompare [--no-charts] --report RUNALLDIR CHARTSDIR   (--data, report.md, plots.csv, counts.txt: one model)
 *   analysis/lbcompare --saved DIR OPTION, --saved-env DIR COPYDIR OPTION [LOCKS WORKLOADS NUMA-ONLY]
 *                      (run-all's checks of a directory it resumes or reports: files/saved.h)
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
 *   charts.csv                         the histogram and phase charts to draw, with the runs' TSC rate
 *
 * Each DIR is one run (summary.csv + hist.csv [+ hist_contended.csv]), or a
 * directory whose immediate subdirectories are runs.  Runs group by
 * (workload, threads); within a group, each lock is a variant, the first one
 * met the baseline for ratios, and repeated runs of a variant are
 * repetitions: figures are their median with its 95% CI, every ratio has a
 * verdict (Mann-Whitney U over the repetitions: analysis/figures/stats.h), and
 * histograms are summed, then compared run by run.  The patch counted contended acquisitions only, so
 * the patch-shaped figures (#contentions, their mean acquisition time, the
 * "acq time = 2^bin cycles" table) are the contended ones; the
 * all-acquisitions figures follow them.  Where a group holds both of the patch
 * pair (2.6.34 and the fix) on a workload the seed measured, the seed's own
 * published figures are printed beside this machine's.  Runs with kernel
 * lock capture (--kernel-locks) add a block of the kernel's own waits; and
 * on a workload whose threads meet in the kernel (summary.csv's
 * meets_in_kernel) a lock that excludes nothing (lock_excludes 0: `none`)
 * with it is the real kernel's row ("kernel 6.18 rwsem_write"): its contentions,
 * their mean and its contended histogram are the kernel's waits for its own
 * locks.  Each group's heading states its --timing mode; runs of different
 * modes are never silently merged: every variant is then a lock and a mode,
 * named lock@mode, under a note, and the cycle figures and histograms of
 * `off` runs (which time nothing) show n/a.  Reads only the files documented
 * in results/README.md.  Repetitions of two builds of lockbench (meta.csv's
 * lockbench_commit, lockbench_build_id) are never pooled as one variant's
 * unless --pool-builds (model/builds.h); runs of two hosts (two machines, or
 * a before and an after named by --dir) add each variant against itself,
 * before -> after (print/text_across.c).
 *
 * This file is main(): the command line, the output and the exit status.
 * The work is done by the layers below it, each using only those below it:
 *   files/    the result files (resultfile.h, the one validated reader), the
 *             runs named on the command line (runs.h), run-all's directory (rundir.h)
 *   model/    the comparison: runs -> groups -> variants, hosts (comparison.h)
 *   figures/  figures, verdicts, histogram comparison (figures.h), statistics (stats.h)
 *   print/    the printers, each over the comparison: text, CSV (print.h), markdown (markdown.h)
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "files/rundir.h"
#include "files/runs.h"
#include "files/saved.h"
#include "model/builds.h"
#include "model/comparison.h"
#include "model/dirmodel.h"
#include "print/markdown.h"
#include "print/print.h"
#include "../common/text.h"

/* The one line of what failed, as main() prints it. */
static char err[ERR_LEN];

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

__attribute__((format(printf, 1, 2))) static int set_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, sizeof(err), fmt, ap);
	va_end(ap);
	return -1;
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

/* err as the one line on stderr, after WHAT ("--csv"; NULL: nothing). */
static void say_err(const char *what)
{
	text_one_line(err);
	fprintf(stderr, "lbcompare: %s%s%s\n", what ? what : "", what ? ": " : "", err);
}

/* The comparison failed: its one line, on stderr and, with --output, as
 * FILE's whole text (what run-all's report shows in its place). */
static int die(char *msg)
{
	char line[ERR_LEN];
	struct sf_out o;

	text_one_line(msg);
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

/* --dir RUNALLDIR, each run-all directory the runs come from, in order
 * (run-all --report DIR1 DIR2 --out OUT): where two share a hostname, each
 * one's runs are keyed by the directory (HOSTNAME-dirN, rundir.h), as
 * --hosts keys them, never pooled as one host's repetitions. */
#define DIRS_MAX 64
static const char *dir_arg[DIRS_MAX];
static size_t ndir_args;
static char dir_label[DIRS_MAX][RUNDIR_LABEL];

/* dir_label of every --dir; 0, or -1 with err set. */
static int label_dirs(void)
{
	static struct rundir dirs[DIRS_MAX];
	static struct sf_dir named;  /* static: a path of PATH_MAX, not on the stack */
	size_t loaded = 0;
	int rc = 0;

	for (; rc == 0 && loaded < ndir_args; loaded++) {
		if (open_named_dir(&named, dir_arg[loaded]) != 0 ||
		    rundir_load(&dirs[loaded], &named, err, sizeof(err)) != 0)
			rc = -1;
		sf_dir_close(&named);
	}
	if (rc == 0)
		rundir_host_labels(dirs, ndir_args, dir_label);
	for (size_t i = 0; i < loaded; i++)
		rundir_free(&dirs[i]);
	return rc;
}

/* The label of run PATH's --dir ("" where none is labelled). */
static const char *label_of(const char *path)
{
	for (size_t i = 0; i < ndir_args; i++) {
		size_t len = strlen(dir_arg[i]);
		if (strncmp(path, dir_arg[i], len) == 0 && path[len] == '/')
			return dir_label[i];
	}
	return "";
}

/* --pool-builds: repetitions of two builds of lockbench (meta.csv) may be
 * one variant's; else such runs are refused (model/builds.h). */
static bool pool_builds;

/* The tables of the runs named in argv[first..], and with csv_dir the CSV files. */
static int compare(char **argv, int first, int argc, const char *csv_dir)
{
	static struct run_list runs;
	struct sf_dir csv = { .fd = -1 };
	struct comparison *c;
	int status = CMP_OK;

	if (csv_dir && open_named_dir(&csv, csv_dir) != 0)
		return cannot(&csv, "--csv", CMP_WRITE);
	if (output_start() != 0)
		return cannot(&csv, NULL, CMP_WRITE);
	if (ndir_args && label_dirs() != 0) {
		sf_dir_close(&csv);
		return finish(die(err));
	}
	for (int i = first; i < argc; i++) {
		size_t before = runs.n;
		if (runs_add_named(&runs, &root, argv[i], err, sizeof(err)) != 0) {
			sf_dir_close(&csv);
			return finish(die(err));
		}
		for (size_t r = before; *label_of(argv[i]) && r < runs.n; r++)
			result_set_host(runs.run[r], label_of(argv[i]));
	}
	if (!(c = comparison_build((const struct result_run *const *)runs.run, runs.n, err, sizeof(err))) ||
	    (!pool_builds && comparison_mixes_builds(c, err, sizeof(err))) || text_print(c, stdout, err, sizeof(err)) != 0) {
		status = die(err);
	} else if (csv_dir && csv_write(c, &csv, true, err, sizeof(err)) != 0) {
		output_end(false);
		comparison_free(c);
		runs_free(&runs);
		return cannot(&csv, NULL, CMP_WRITE);
	}
	sf_dir_close(&csv);
	comparison_free(c);
	runs_free(&runs);
	return finish(status);
}

/* --markdown DIR: its report.md on stdout, printed (markdown.h) from the
 * model built here as --report builds it; 0, or 2 after one line naming
 * what could not be read. */
static int markdown(char **argv)
{
	static struct sf_dir dir;  /* static: a path of PATH_MAX, not on the stack */
	static struct dir_model m;
	struct rundir d;
	bool built;

	if (open_named_dir(&dir, argv[0]) != 0)
		return cannot(&dir, "--markdown", CMP_USAGE);
	if (output_start() != 0)
		return cannot(&dir, NULL, CMP_WRITE);
	if (rundir_load(&d, &dir, err, sizeof(err)) != 0) {
		rundir_free(&d);  /* what it read before the line it refused */
		return cannot(&dir, "--markdown", CMP_USAGE);
	}
	built = dir_model_build(&m, &d, err, sizeof(err)) == 0 && print_part_texts(&m, err, sizeof(err)) == 0;
	if (built)
		markdown_report_model(&d, &m, false, stdout);
	dir_model_free(&m);
	rundir_free(&d);
	if (!built)
		return cannot(&dir, "--markdown", CMP_USAGE);
	sf_dir_close(&dir);
	return finish(CMP_OK);
}

/* --no-charts: gnuplot draws none of --report's charts (not installed):
 * its report links only those already in plots/. */
static bool no_charts;

/* The directory's report.md from model M (markdown_report_model) into
 * DIR (CHARTSDIR: run-all puts it in place once the charts it links are
 * drawn), written whole or not at all; 0, or -1 with err set. */
static int write_report(const struct sf_dir *dir, const struct rundir *d, struct dir_model *m)
{
	struct sf_out o;

	if (!sf_out_open(&o, dir, "report.md", err, sizeof(err)))
		return -1;
	markdown_report_model(d, m, !no_charts, o.f);
	return sf_out_commit(&o, err, sizeof(err));
}

/* --data RUNALLDIR CHARTSDIR: the directory's model, built once, and
 * every part's files in its data/ and CHARTSDIR (print_dir_data); with
 * REPORT (--report) its report.md too, from the same model, into
 * CHARTSDIR: 0; 1 some
 * comparison failed (its text says why); 2 the directory could not be
 * read; 3 a file could not be written. */
static int data(char **argv, bool report)
{
	static struct sf_dir dir, charts;  /* static: paths of PATH_MAX, not on the stack */
	static struct dir_model m;
	struct rundir d;
	int rc;

	if (open_named_dir(&dir, argv[0]) != 0)
		return cannot(&dir, report ? "--report" : "--data", CMP_USAGE);
	if (open_named_dir(&charts, argv[1]) != 0) {
		sf_dir_close(&dir);
		return cannot(&charts, report ? "--report" : "--data", CMP_USAGE);
	}
	if (rundir_load(&d, &dir, err, sizeof(err)) != 0) {
		rundir_free(&d);  /* what it read before the line it refused */
		sf_dir_close(&charts);
		return cannot(&dir, report ? "--report" : "--data", CMP_USAGE);
	}
	rc = dir_model_build(&m, &d, err, sizeof(err)) != 0 || print_part_texts(&m, err, sizeof(err)) != 0
		     ? -2 : print_dir_data(&m, &dir, &charts, err, sizeof(err));
	if (rc >= 0 && report &&
	    (print_run_counts(&d, &dir, &charts, err, sizeof(err)) != 0 || print_plots(&m, &charts, err, sizeof(err)) != 0 ||
	     write_report(&charts, &d, &m) != 0))
		rc = -1;
	dir_model_free(&m);
	rundir_free(&d);
	sf_dir_close(&charts);
	if (rc < 0)
		return cannot(&dir, report ? "--report" : "--data", rc == -2 ? CMP_USAGE : CMP_WRITE);
	sf_dir_close(&dir);
	return finish(rc == 0 ? CMP_OK : CMP_RUNS);
}

/* OUTDIR/report.md of the N directories (markdown_hosts_report), written
 * whole or not at all: CMP_OK; CMP_WRITE; CMP_USAGE out of memory (err set). */
static int write_hosts_report(const struct sf_dir *dir, const struct rundir *dirs, size_t n)
{
	struct sf_out o;

	if (!sf_out_open(&o, dir, "report.md", err, sizeof(err)))
		return CMP_WRITE;
	if (markdown_hosts_report(dirs, n, o.f) != 0) {
		sf_out_abort(&o);
		set_err("out of memory");
		return CMP_USAGE;
	}
	return sf_out_commit(&o, err, sizeof(err)) == 0 ? CMP_OK : CMP_WRITE;
}

/* OUTDIR/data of the N directories (print_hosts_data), and its "KIND W
 * STATUS" lines on standard output once data/ is whole: none where a file
 * of it was not written (run-all names data/ then, else OUTDIR).  CMP_OK;
 * CMP_RUNS some comparison failed; CMP_WRITE; CMP_USAGE out of memory. */
static int write_hosts_data(const struct sf_dir *dir, const struct rundir *dirs, size_t n)
{
	char *parts = NULL;
	size_t len;
	FILE *list = open_memstream(&parts, &len);
	int written;

	if (!list) {
		set_err("out of memory");
		return CMP_USAGE;
	}
	rundir_host_labels(dirs, n, dir_label);
	written = print_hosts_data(dirs, n, (const char (*)[RUNDIR_LABEL])dir_label, dir, list, err, sizeof(err));
	if (fclose(list) != 0 || !parts) {
		free(parts);
		set_err("out of memory");
		return CMP_USAGE;
	}
	if (written >= 0)
		fputs(parts, stdout);
	free(parts);
	return written < 0 ? CMP_WRITE : written ? CMP_RUNS : CMP_OK;
}

/* --hosts OUTDIR DIR...: several run-all directories side by side (run-all
 * --report DIR1 DIR2 ... --out OUTDIR), each loaded once, by its absolute
 * path (links in it resolved: the report names it so): every KIND-W's runs
 * of all of them compared into OUTDIR/data, then OUTDIR/report.md from the
 * same directories.  0; 1 some comparison failed (report.md written); 2 a
 * directory could not be read; 3 a file could not be written. */
static int hosts(char **argv, int argc)
{
	static struct rundir dirs[DIRS_MAX];
	static struct sf_dir out;  /* static: a path of PATH_MAX, not on the stack */
	int n = 0, rc = CMP_OK;

	if (argc - 1 > DIRS_MAX)
		return usage("--hosts: more than 64 directories");
	if (open_named_dir(&out, argv[0]) != 0)
		return cannot(&out, "--hosts", CMP_USAGE);
	for (; n < argc - 1; n++)
		if (rundir_load_path(&dirs[n], argv[n + 1], err, sizeof(err)) != 0) {
			rc = CMP_USAGE;
			break;
		}
	if (rc == CMP_OK)
		rc = write_hosts_data(&out, dirs, (size_t)n);
	if (rc == CMP_OK || rc == CMP_RUNS) {
		int report = write_hosts_report(&out, dirs, (size_t)n);

		rc = report == CMP_OK ? rc : report;
	}
	for (int i = 0; i <= n && i < argc - 1; i++)
		rundir_free(&dirs[i]);
	if (rc == CMP_USAGE || rc == CMP_WRITE)
		return cannot(&out, "--hosts", rc);
	sf_dir_close(&out);
	return finish(rc);
}

/* --saved DIR OPTION and --saved-env DIR COPYDIR OPTION [LOCKS WORKLOADS
 * NUMA-ONLY]: run-all's questions of a directory it resumes or reports
 * (saved.h), answered in KEY=VALUE lines; a refused one's answer is the
 * one line "die=WHY", exit 2.  OPTION names the directory in the line. */
static int saved(bool env, char **argv, int argc)
{
	static char why[SAVED_KV_MAX + 256];  /* a whole settings line fits: run-all's message held all of it */
	struct sf_dir dir, copy = { .fd = -1 };
	const char *opt = argv[env ? 2 : 1];
	char *text = NULL, *plan = NULL;
	size_t len = 0, plen;
	FILE *mem;
	int rc = -1;

	if (strcmp(opt, "--resume") != 0 && strcmp(opt, "--report") != 0)
		return usage("--saved, --saved-env: OPTION is --resume or --report");
	if (open_named_dir(&dir, argv[0]) != 0)
		return cannot(&dir, env ? "--saved-env" : "--saved", CMP_USAGE);
	if ((mem = open_memstream(&text, &len))) {
		if (!env)
			rc = saved_settings(&dir, opt, mem, why, sizeof(why));
		else if (open_named_dir(&copy, argv[1]) == 0 &&
			 (plan = sf_read_all(&copy, "plan.txt", SAVED_PLAN_MAX, &plen, why, sizeof(why))))
			rc = saved_env(&dir, plan, argc == 6 ? (const char *const *)argv + 3 : NULL, opt, mem, why,
				       sizeof(why));
		fclose(mem);
	}
	if (rc == 0)
		fwrite(text, 1, len, stdout);
	else
		printf("die=%s\n", mem ? why : strerror(errno));
	free(text);
	free(plan);
	sf_dir_close(&copy);
	sf_dir_close(&dir);
	return finish(rc == 0 ? CMP_OK : CMP_USAGE);
}

int main(int argc, char **argv)
{
	const char *csv_dir = NULL;
	int i = 1;

	if (argc >= 2 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)) {
		printf("usage: lbcompare [--within ROOT] [--output FILE] [--csv OUTDIR] [--dir RUNALLDIR]... [--pool-builds] DIR...\n"
		       "       lbcompare [--within ROOT] [--output FILE] --markdown RUNALLDIR  (run-all's report.md)\n"
		       "       lbcompare [--within ROOT] --data RUNALLDIR CHARTSDIR  (run-all's data/, and the charts' files)\n"
		       "       lbcompare [--within ROOT] [--no-charts] --report RUNALLDIR CHARTSDIR  (--data, and CHARTSDIR/report.md\n"
		       "         from the same runs, linking the charts run-all draws from CHARTSDIR/plots.csv; the runs left\n"
		       "         out in CHARTSDIR/counts.txt: results/README.md; --no-charts: none drawn)\n"
		       "       lbcompare --hosts OUTDIR RUNALLDIR...  (the hosts' report: OUTDIR/data/ and OUTDIR/report.md)\n"
		       "       lbcompare --saved DIR OPTION  (run-all --resume/--report: DIR's settings, plan.txt and variants.txt)\n"
		       "       lbcompare --saved-env DIR COPYDIR OPTION [LOCKS WORKLOADS NUMA-ONLY]  (DIR's run-env)\n"
		       "DIR...: runs, or directories of runs; the first run named is each table's baseline.\n"
		       "--dir RUNALLDIR: each run-all directory the runs are from, in order: where two share a hostname,\n"
		       "  each one's runs are a host of their own, HOSTNAME-dirN.  With two hosts, each variant is also\n"
		       "  compared with itself from the first to the second (before -> after).\n"
		       "--pool-builds: pool repetitions of two builds of lockbench (meta.csv's lockbench_commit and\n"
		       "  lockbench_build_id) as one variant's; without it such runs are refused, naming the two builds.\n"
		       "--within ROOT: DIR, OUTDIR, FILE and RUNALLDIR are below ROOT, no link in them followed.\n"
		       "--output FILE: what goes to standard output goes into FILE instead, replacing it whole.\n"
		       "--saved: checks the files as run-all reads them and prints each settings line KEY=VALUE (DIR holds\n"
		       "  run-all's copies); --saved-env: checks DIR/run-env (nothing printed), or for a directory from\n"
		       "  before run-env prints NCPU, NUMA_NODES (its first runs/NAME/meta.csv), ALL_LOCKS, ALL_WORKLOADS,\n"
		       "  NUMA_ONLY_LOCKS (the lists given, else COPYDIR/plan.txt's -l and -w words), KL, KL_WHY,\n"
		       "  KERNEL_WORKLOADS as KEY=VALUE.  A refused directory: one line die=WHY (OPTION names it), exit 2.\n"
		       "Exit status: 0; 1 a run could not be read or compared; 2 usage; 3 the output could not be written.\n");
		return finish(CMP_OK);
	}
	for (; i < argc; i += 2) {
		if (strcmp(argv[i], "--pool-builds") == 0 && !pool_builds) {
			pool_builds = true;
			i--;  /* a flag: no value */
		} else if (strcmp(argv[i], "--no-charts") == 0 && !no_charts) {
			no_charts = true;
			i--;
		} else if (i + 1 >= argc) {
			break;
		} else if (strcmp(argv[i], "--within") == 0 && root.fd < 0) {
			if (sf_dir_open(&root, argv[i + 1], err, sizeof(err)) != 0) {
				text_one_line(err);
				return usage(err);
			}
			root.path[0] = '\0';  /* messages name what is below it as given: runs/NAME/hist.csv */
		} else if (strcmp(argv[i], "--output") == 0 && !output_name) {
			output_name = argv[i + 1];
		} else if (strcmp(argv[i], "--csv") == 0 && !csv_dir) {
			csv_dir = argv[i + 1];
		} else if (strcmp(argv[i], "--dir") == 0 && ndir_args < DIRS_MAX) {
			dir_arg[ndir_args++] = argv[i + 1];
		} else {
			break;  /* a mode, the first DIR, or an option given twice (usage, below) */
		}
	}
	if (i + 1 < argc && strcmp(argv[i], "--markdown") == 0 && !csv_dir)
		return i + 2 == argc ? markdown(argv + i + 1) : usage("--markdown takes one directory");
	if (i + 1 < argc && (strcmp(argv[i], "--data") == 0 || strcmp(argv[i], "--report") == 0) && !csv_dir)
		return i + 3 == argc ? data(argv + i + 1, strcmp(argv[i], "--report") == 0)
				     : usage("--data and --report take a directory and a directory for the charts");
	if (i + 2 < argc && strcmp(argv[i], "--hosts") == 0 && !csv_dir)
		return hosts(argv + i + 1, argc - i - 1);
	if (i + 2 < argc && strcmp(argv[i], "--saved") == 0 && !csv_dir)
		return i + 3 == argc ? saved(false, argv + i + 1, 2) : usage("--saved takes a directory and an option");
	if (i + 3 < argc && strcmp(argv[i], "--saved-env") == 0 && !csv_dir)
		return i + 4 == argc || i + 7 == argc ? saved(true, argv + i + 1, argc - i - 1)
						      : usage("--saved-env takes two directories, an option, and three lists or none");
	if (i >= argc || strncmp(argv[i], "--", 2) == 0)
		return usage("usage: lbcompare [--within ROOT] [--output FILE] [--csv OUTDIR] [--dir RUNALLDIR]... [--pool-builds] DIR...");
	return compare(argv, i, argc, csv_dir);
}
