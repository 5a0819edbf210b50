/*
 * report.h — a run's figures as a human summary on stdout and as the result
 * files documented in results/README.md.
 */
#ifndef LOCKBENCH_REPORT_H
#define LOCKBENCH_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include "outdir.h"
#include "../core/result.h"

void report_print(const struct bench_result *res, FILE *out);
/* --timing as typed and as summary.csv's `timing` holds it: all, sample:N, off. */
const char *report_timing_name(const struct bench_config *cfg, char *buf, size_t len);
/* The bpftrace-style log2 histogram with bars. */
void report_print_hist(const struct hist *h, const char *name, FILE *out);

/* Writes every result file into od's staging directory (outdir.h).  0, or
 * -1 with a message. */
int report_write(const struct bench_result *res, const struct outdir *od, char *err, size_t errlen);

#endif
