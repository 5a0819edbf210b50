/*
 * report.h — a run's figures as a human summary on stdout and as the result
 * files documented in results/README.md.
 */
#ifndef LOCKBENCH_REPORT_H
#define LOCKBENCH_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include "result.h"

void report_print(const struct bench_result *res, FILE *out);
/* --timing as typed and as summary.csv's `timing` holds it: all, sample:N, off. */
const char *report_timing_name(const struct bench_config *cfg, char *buf, size_t len);
/* The bpftrace-style log2 histogram with bars. */
void report_print_hist(const struct hist *h, const char *name, FILE *out);

/*
 * Result directories appear whole or not at all: files are written into a
 * staging directory beside the target and renamed into place at the end.
 */
struct outdir {
	char target[4000];   /* what -o named */
	char staging[4096];  /* where files are written until commit */
	char final[4096];    /* where they ended up */
};

/* Creates the staging directory (and target's parents): fails early, before a
 * run, when -o is unusable.  0, or -1 with a message. */
int outdir_open(struct outdir *od, const char *target, char *err, size_t errlen);
/* Writes every result file into staging.  0, or -1 with a message. */
int report_write(const struct bench_result *res, const struct outdir *od, char *err, size_t errlen);
/* Renames staging into place: target, or target-2, -3, ... when target
 * already holds results.  0, or -1 with a message. */
int outdir_commit(struct outdir *od, char *err, size_t errlen);
/* Removes staging and everything in it. */
void outdir_abort(struct outdir *od);

#endif
