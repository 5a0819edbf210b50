/*
 * metric.h — --metric NAME=REGEX (docs/exec.md "How to run a program"):
 * one metric as parsed, and the bounds of the scan of the program's output
 * (metric.c): a regex whose match time has no bound is refused, and the
 * scan itself is bounded in line length, bytes and time, saying when it
 * stopped short.
 */
#ifndef LOCKBENCH_EXEC_METRIC_H
#define LOCKBENCH_EXEC_METRIC_H

#include <regex.h>
#include <stdbool.h>
#include <stddef.h>

struct exec_metric {
	char name[32];
	regex_t re;
	bool compiled, found;
	bool lower;                     /* NAME:lower=: lower is better */
	char value[40];
};

#define EXEC_METRIC_LINE_MAX 4096        /* bytes of each output line matched */
#define EXEC_OUTPUT_MAX (64u << 20)      /* bytes of each output file scanned */
#define EXEC_METRIC_SCAN_S 10.0          /* seconds of matching, all files */

/* Whether the extended regex RE has a backreference (\1..\9 outside a
 * bracket expression): glibc matches those by backtracking, in time
 * exponential in the line (`(a*)*\1c([0-9])`: 17 s on 200 bytes). */
bool exec_metric_backref(const char *re);

/* One scan of the program's output files, stdout then stderr. */
struct exec_metric_scan {
	double start;           /* CLOCK_MONOTONIC seconds at the first line */
	size_t bytes;           /* of the current file */
	const char *file;       /* the current file */
	bool out_of_time;       /* EXEC_METRIC_SCAN_S spent: no file scanned further */
	char cut[160];          /* "" or why the scan stopped short (the first stop) */
};

/* A new file of the scan (started when S->start is 0). */
void exec_metric_scan_file(struct exec_metric_scan *s, const char *file);

/* LINE (N bytes, NUL-terminated) cut to EXEC_METRIC_LINE_MAX bytes to be
 * matched; false (S->cut says why) once the file's bytes, or the scan's
 * seconds, are spent. */
bool exec_metric_scan_line(struct exec_metric_scan *s, char *line, size_t n);

#endif
