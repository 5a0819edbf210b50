/*
 * print.h — the printers of a comparison (model/comparison.h), each over the
 * same in-memory comparison and its figures (figures/figures.h): lbcompare's
 * text, the derived CSV files for gnuplot and users, and run-all's
 * markdown report.  They compute no figure of their own and read no text
 * another printer wrote.
 *
 *   text*.c      the text tables (text_int.h)
 *   csv.c        --csv: the derived files (results/README.md, "Derived files")
 *   markdown*.c  run-all's report.md (markdown.h)
 */
#ifndef LOCKBENCH_ANALYSIS_PRINT_H
#define LOCKBENCH_ANALYSIS_PRINT_H

#include <stdbool.h>
#include <stdio.h>

#include "../model/comparison.h"
#include "../model/dirmodel.h"

/* Every table of the comparison, as lbcompare prints them: with several
 * hosts the hosts and each workload across them first.  0, or -1 with one
 * line in err (a figure a run lacks); what was printed before stays. */
int text_print(const struct comparison *c, FILE *out, char *err, size_t errlen);
/* Only the hosts and the across-hosts tables (nothing with one host). */
int text_print_hosts(const struct comparison *c, FILE *out, char *err, size_t errlen);

/* --csv DIR: every derived file, each written whole or not at all
 * (safefile.h), and with CHARTS charts.csv, the charts run-all draws of
 * them.  0, or -1 with one line in err. */
int csv_write(const struct comparison *c, const struct sf_dir *dir, bool charts, char *err, size_t errlen);

/* Group G's two charts, charts.csv's rows (csv_write) and run-all's
 * (print_plots): false where its histograms make no chart. */
struct chart_plan {
	char hist[256], phases[256];  /* the charts' names: their CSV files' without .csv */
	char seed[256];               /* the seed's histogram's CSV file beside it; "": none */
	bool contended;               /* hist of the contended acquisitions, else of all */
	double ghz;                   /* the runs' median TSC rate, GHz */
	unsigned int kernel_col, base_col;  /* hist's kernel and baseline columns (0: none) */
};
bool csv_chart_plan(const struct comparison *c, const struct group *g, struct chart_plan *p);
/* Whether run-all draws chart NAME (plots/NAME.png) of M: a row of
 * print_plots's (NAME NULL: whether it draws any). */
bool print_chart_planned(const struct dir_model *m, const char *name);
/* lbcompare --report: CHARTS/plots.csv, every chart run-all draws of M, a
 * line each (results/README.md, "run-all's scratch files"): each part's
 * charts.csv rows (the simulated runs' named sim-..., their machine the
 * simulated one), a sweep's two charts; after print_dir_data (a sweep's
 * chart takes its CI file where it wrote one).  0, or -1 with one line in err. */
int print_plots(const struct dir_model *m, const struct sf_dir *charts, char *err, size_t errlen);
/* lbcompare --report: CHARTS/counts.txt, "FAILED NOT-MADE" then a line for
 * stderr of each planned run whose result files cannot be read (counted
 * failed, as a run that ended without them: logs/NAME.status; one with
 * neither never ran), and each such run's logs/NAME.check (a readable one's
 * removed).  0, or -1 with one line in err. */
int print_run_counts(const struct rundir *d, const struct sf_dir *dir, const struct sf_dir *charts, char *err,
		     size_t errlen);

/* P's text as lbcompare prints it (text_print; HOSTS_ONLY: text_print_hosts)
 * into p->text; where it cannot be printed (a figure a run lacks), P's
 * comparison is given up with that line (dir_part_fail) after what was
 * printed.  0, or -1 out of memory (said in err). */
int print_part_text(struct dir_part *p, bool hosts_only, char *err, size_t errlen);
/* Every part's text of M (print_part_text). */
int print_part_texts(struct dir_model *m, char *err, size_t errlen);
/* lbcompare --data: what run-all keeps in DIR/data of M's parts (each
 * KIND-W but the report's exec part): KIND-W.txt, its text (or its failed
 * line, last), and but for the simulated runs' (whose CSV files would take
 * the real ones' names) its CSV files; and into CHARTS, for run-all's
 * gnuplot calls, a folder KIND-W of each part's CSV files with charts.csv,
 * and parts.txt, a line "KIND W STATUS" per part in M's order (STATUS 0,
 * or 1: its comparison failed).  0; 1 some comparison failed; -1 with one
 * line in err when a file could not be written. */
int print_dir_data(struct dir_model *m, const struct sf_dir *dir, const struct sf_dir *charts, char *err, size_t errlen);
/* lbcompare --hosts: several hosts' directories (run-all --report DIR1
 * DIR2 ... --out DIR): each KIND-W's runs of every directory in order (each
 * directory's LABEL where a hostname repeats: rundir_host_labels's), one
 * comparison, into DIR/data (made where missing) as print_dir_data writes
 * one directory's (no charts: each directory's own report has them), and
 * its line "KIND W STATUS" into LIST.  0; 1 some comparison failed; -1
 * with one line in err. */
int print_hosts_data(const struct rundir *dirs, size_t ndirs, const char (*label)[RUNDIR_LABEL], const struct sf_dir *dir,
		     FILE *list, char *err, size_t errlen);

/* The seed patch's own throughput ratio, fix over 2.6.34, on W (creat:
 * mutex-test V; fserver: AIM7), cited from its text (text_seed.c); false
 * for a workload it did not measure. */
bool seed_rate_ratio(const char *workload, double *ratio);

/* The seed patch's own published figures on W, 2.6.34 ([0]) and the fix
 * ([1]), cited from its text (text_seed.c): its throughput (creat: ops/sec
 * of mutex-test V; fserver: AIM7 jobs/min) and, for fserver alone, its
 * #contentions, mean cycles to acquire and the contended histogram in % of
 * bins first_bin .. first_bin + nbins - 1 (NULL, 0 where it gave none).
 * False for a workload it did not measure. */
struct seed_figures {
	const double *rate, *contentions, *acq_cycles;
	const double *pct[2];
	int first_bin, nbins;
	const char *what;        /* the seed's benchmark */
};
bool seed_figures_of(const char *workload, struct seed_figures *f);
/* [*first, *last] widened to every bin where A's or B's contended histogram
 * counted something: the rows of a table beside the seed's. */
void seed_hist_bins(const struct variant *a, const struct variant *b, int *first, int *last);

#endif
