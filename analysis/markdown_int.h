/*
 * markdown_int.h — internal to `lbcompare --markdown` (markdown.c,
 * markdown_runs.c): the report being written, and the small readers and
 * counters its sections share.
 */
#ifndef LOCKBENCH_MARKDOWN_INT_H
#define LOCKBENCH_MARKDOWN_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "rundir.h"

/* A path under the run-all directory: its own (rundir.h) and a file name. */
#define MD_PATH (sizeof(((struct rundir *)0)->path) + 512)

struct md {
	const struct rundir *d;
	FILE *out;
	struct kv_file meta;     /* the first finished run's meta.csv: the machine (empty: none) */
};

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

/* A whole CSV file as cells, row-major; every row as wide as the header. */
struct md_csv {
	char *text;
	char **cell;
	size_t nrows, ncols;
};
int md_csv_read(struct md_csv *csv, const char *path);
/* Column NAME of the header, or -1. */
int md_csv_col(const struct md_csv *csv, const char *name);
void md_csv_free(struct md_csv *csv);

/* The next blank-separated word of *P into W (false at the end). */
bool md_next_word(const char **p, char *w, size_t len);
bool md_exists(const char *path);
bool md_copy_file(FILE *out, const char *path);
/* lbcompare's text at PATH fenced as code; ACROSS_ONLY: only its hosts and
 * across-hosts tables. */
void md_fenced_text(FILE *out, const char *path, bool across_only);

void md_noise_section(struct md *m);
void md_sweep_verdicts(struct md *m, const char *workload);
void md_machine_section(struct md *m);
void md_failed_section(struct md *m);
void md_checks_section(struct md *m);
void md_warnings_section(struct md *m);

#endif
