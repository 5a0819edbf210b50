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

/* 0, or 2 after one line on stderr naming what could not be read. */
int markdown_report(const char *dir, FILE *out);

/* `lbcompare --markdown-hosts OUTDIR DIR...`: the report of several run-all
 * directories side by side (markdown_hosts.c), from OUTDIR/data/KIND-W.txt,
 * lbcompare's text of every directory's runs of each workload together. */
int markdown_hosts_report(const char *out_dir, char *const *dirs, int ndirs, FILE *out);

#endif
