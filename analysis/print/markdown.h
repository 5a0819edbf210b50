/*
 * markdown.h — `lbcompare --markdown DIR`: run-all's report.md, on stdout,
 * from a run-all directory (results/README.md, "run-all's directory").
 *
 * It prints; it reads nothing lbcompare printed.  The directory's model
 * (model/dirmodel.h: every finished run loaded through the one validated
 * reader, each experiment's runs of each workload compared once) is the one
 * lbcompare --report writes data/ from (for people and gnuplot), and every
 * section is printed from those comparisons and the
 * runs: their summary.csv (timing, oracle), meta.csv (machine, noise),
 * checks.csv, and logs/NAME.err and .status (quoted).  The charts are
 * gnuplot's in DIR/plots, linked only where their file is (--report:
 * also where run-all is to draw it).
 */
#ifndef LOCKBENCH_MARKDOWN_H
#define LOCKBENCH_MARKDOWN_H

#include <stdbool.h>
#include <stdio.h>

/* The report of directory D (loaded by rundir_load: everything in it read
 * through safefile.h -- a link never followed, a FIFO never opened, a file
 * over its bound never read) from its model, built (dirmodel.h) with every
 * part's text (print_part_texts) by the caller: lbcompare --markdown, and
 * --report, which wrote data/ from the same model.  A run whose result
 * files cannot be read is a failed run, and a comparison that failed says
 * so in its section.  With CHARTS_PLANNED, the charts gnuplot is to draw
 * of the model (print_chart_planned) are linked as drawn. */
struct rundir;
struct dir_model;
void markdown_report_model(const struct rundir *d, struct dir_model *model, bool charts_planned, FILE *out);

/* `lbcompare --hosts OUTDIR DIR...`'s report.md: the NDIRS run-all
 * directories (at most 64, loaded by rundir_load_path: the report names
 * them by their absolute paths) side by side (markdown_hosts.c), each
 * workload's runs of every directory compared together, as --hosts
 * compares them into OUTDIR/data/KIND-W.txt for people (which it never
 * reads).  0, or -1 out of memory. */
int markdown_hosts_report(const struct rundir *dirs, size_t ndirs, FILE *out);

#endif
