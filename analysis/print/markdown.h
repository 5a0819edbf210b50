/*
 * markdown.h — `lbcompare --markdown DIR`: run-all's report.md, on stdout,
 * from a run-all directory (results/README.md, "run-all's directory").
 *
 * It assembles; it measures and compares nothing itself.  The tables are
 * lbcompare's own text and CSV files, which run-all has written into
 * DIR/data (data/<kind>-<workload>.txt for every workload of the plan, and
 * lbcompare --csv's files) before it calls this, and the charts are the
 * gnuplot output in DIR/plots (a chart is linked only where its file is).
 * The rest comes from the runs' own files: summary.csv (timing, oracle),
 * meta.csv (machine, noise), checks.csv, and logs/NAME.err and .status.
 */
#ifndef LOCKBENCH_MARKDOWN_H
#define LOCKBENCH_MARKDOWN_H

#include <stdio.h>

#include "../../common/safefile.h"

/* The report of the run-all directory open at DIR: 0, or 2 after one line
 * on stderr naming what could not be read.  Everything in DIR is read
 * through safefile.h: a link is never followed, a FIFO never opened, a file
 * over its bound never read; a run whose result files cannot be read is a
 * failed run, and a comparison that failed says so in its section. */
int markdown_report(const struct sf_dir *dir, FILE *out);

/* `lbcompare --markdown-hosts OUTDIR DIR...`: the report of several run-all
 * directories side by side (markdown_hosts.c), from OUTDIR/data/KIND-W.txt,
 * lbcompare's text of every directory's runs of each workload together. */
int markdown_hosts_report(const struct sf_dir *out_dir, char *const *dirs, int ndirs, FILE *out);

#endif
