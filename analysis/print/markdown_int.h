/*
 * markdown_int.h — internal to `lbcompare --markdown` and --markdown-hosts:
 * the report being written, and the small readers and counters its
 * sections share (markdown_util.c, below every section's file).
 */
#ifndef LOCKBENCH_MARKDOWN_INT_H
#define LOCKBENCH_MARKDOWN_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "../files/rundir.h"

/* A path relative to the run-all directory (runs/NAME/FILE, data/FILE...). */
#define MD_PATH 512

/* Distinct lines with how often each was met, in the order first met. */
struct tally_item {
	char *key;
	unsigned int count;
};
struct tally {
	struct tally_item *item;
	size_t n, cap;
};
void tally_add(struct tally *t, const char *key);
/* By key (as `sort | uniq -c`), or BY_COUNT most first, ties by key. */
void tally_sort(struct tally *t, bool by_count);
void tally_free(struct tally *t);

struct md {
	const struct rundir *d;
	struct sf_dir top;       /* the directory again, its files named relative to it in the report */
	FILE *out;
	struct kv_file meta;     /* the first finished run's meta.csv: the machine (empty: none) */
	struct tally failed;     /* the comparisons (data/KIND-W.txt) that failed: "file\tline" */
};

/* A whole CSV file as cells, row-major; every row as wide as the header. */
struct md_csv {
	char *text;
	char **cell;
	size_t nrows, ncols;
};
int md_csv_read(struct md_csv *csv, const struct sf_dir *dir, const char *rel);
/* Column NAME of the header, or -1. */
int md_csv_col(const struct md_csv *csv, const char *name);
void md_csv_free(struct md_csv *csv);

/* The names in the directory's SUB (data, plots, logs) matching the
 * fnmatch() PATTERN, sorted (sf_names_free); NULL when SUB cannot be opened
 * (a link there is never followed). */
char **md_names(const struct md *m, const char *sub, const char *pattern);
/* The next blank-separated word of *P into W (false at the end). */
bool md_next_word(const char **p, char *w, size_t len);
/* lbcompare's text at REL under DIR fenced as code; ACROSS_ONLY: only its
 * hosts and across-hosts tables.  A text that cannot be read says so in one
 * line instead. */
void md_fenced_text(FILE *out, const struct sf_dir *dir, const char *rel, bool across_only);
/* Whether lbcompare's text at REL under DIR is its one-line error (the
 * comparison failed: docs/run-all.md, "lbcompare"); then the line is in LINE. */
bool md_comparison_failed(const struct sf_dir *dir, const char *rel, char *line, size_t len);
/* The failed comparison at REL, said in place of its tables. */
void md_print_failed_comparison(FILE *out, const char *rel, const char *line);

/* Whether data/KIND-W.txt (REL) is lbcompare's one-line error: then the line
 * stands in the section, and the failed section counts it. */
bool md_failed_comparison(struct md *m, const char *rel);
/* plots/NAME.png's link, where gnuplot drew it. */
void md_print_plot(struct md *m, const char *alt, const char *name);
/* N of data/STEM-W-tN.csv; qsort's order of such names by N. */
long md_threads_of(const char *path);
int md_cmp_threads(const void *a, const void *b);

void md_kernel_section(struct md *m);
void md_noise_section(struct md *m);
void md_sweep_verdicts(struct md *m, const char *workload);
void md_machine_section(struct md *m);
void md_failed_section(struct md *m);
void md_checks_section(struct md *m);
void md_warnings_section(struct md *m);

#endif
