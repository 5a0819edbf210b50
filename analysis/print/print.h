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

/* Every table of the comparison, as lbcompare prints them: with several
 * hosts the hosts and each workload across them first.  0, or -1 with one
 * line in err (a figure a run lacks); what was printed before stays. */
int text_print(const struct comparison *c, FILE *out, char *err, size_t errlen);
/* Only the hosts and the across-hosts tables (nothing with one host). */
int text_print_hosts(const struct comparison *c, FILE *out, char *err, size_t errlen);

/* --csv DIR: every derived file, each written whole or not at all
 * (safefile.h).  0, or -1 with one line in err. */
int csv_write(const struct comparison *c, const struct sf_dir *dir, char *err, size_t errlen);

/* The seed patch's own throughput ratio, fix over 2.6.34, on W (creat:
 * mutex-test V; fserver: AIM7), cited from its text (text_seed.c); false
 * for a workload it did not measure. */
bool seed_rate_ratio(const char *workload, double *ratio);

#endif
