/*
 * markdown_int.h — internal to `lbcompare --markdown` and --hosts:
 * the report being written — the run-all directory and the comparisons of
 * its runs, built once (markdown_parts.c) and read by every section — and
 * the small helpers the sections share (markdown_util.c, below every
 * section's file).
 */
#ifndef LOCKBENCH_MARKDOWN_INT_H
#define LOCKBENCH_MARKDOWN_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "../files/rundir.h"
#include "../figures/figures.h"
#include "../model/comparison.h"
#include "../model/dirmodel.h"

/* A path relative to the run-all directory (runs/NAME/FILE, plots/FILE...). */
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
	FILE *out;
	struct dir_model *model;         /* the runs and their comparisons, built once */
	bool charts_planned;             /* gnuplot draws the model's charts (print_chart_planned)
					  * after this report is written: they are linked as drawn */
	struct result_run **run;         /* the model's finished runs: d->done's order (rundir.h) */
	struct tally failed;     /* the comparisons that failed: "file\tline" */
	char pair[2][64];        /* the patch pair, before and after: md_pair_read */
};

/* The patch pair into m->pair: run-env's PATCH_PAIR (the patch table's
 * columns 1 and 2 in locks/locks.def, as run-all wrote them). */
void md_pair_read(struct md *m);
/* Whether finished run I is the kernel's baseline (the kernel row's lock):
 * run-env's KERNEL_BASE, or in a directory from before it, a run whose
 * summary.csv says its lock excludes nothing (lock_excludes 0). */
bool md_kernel_base_run(const struct md *m, size_t i);

/* ---- the comparisons (markdown_parts.c) ---- */

/* M's model (dirmodel.h) and every part's text (print_part_texts); 0, or
 * -1 with one line in err (out of memory; a run that no longer loads). */
/* KIND's part of W, or NULL (no finished run of it). */
const struct dir_part *md_part(const struct md *m, const char *kind, const char *w);
/* The groups of W in comparison C, fewest threads first, into g (at most
 * MAX_GROUPS); with WANT, only those it accepts.  Returns how many. */
size_t md_groups_of(const struct comparison *c, const char *w, bool (*want)(const struct group *g),
		    const struct group **g);
/* P's comparison of its runs and its text (HOSTS_ONLY: only the hosts and
 * across-hosts tables, text_print_hosts), or in p->failed the line saying
 * why there is none; 0, or -1 out of memory (said in err). */
int md_part_compare(struct dir_part *p, bool hosts_only, char *err, size_t errlen);
/* The first finished real run, whose meta.csv tells the machine (NULL: none). */
const struct result_run *md_first_run(const struct md *m);
/* How many finished runs are real. */
size_t md_real_runs(const struct md *m);

/* ---- shared helpers (markdown_util.c) ---- */

/* The next blank-separated word of *P into W (false at the end). */
bool md_next_word(const char **p, char *w, size_t len);
/* plots/NAME.png's link, where gnuplot drew it. */
void md_print_plot(struct md *m, const char *alt, const char *name);
void md_print_phases_plot(struct md *m, const struct group *g, const char *prefix, const char *what);
/* Whether PART's comparison failed: then its line stands in the section
 * (naming data/KIND-W.txt, where run-all keeps it), and the failed section
 * counts it. */
bool md_failed_comparison(struct md *m, const struct dir_part *part);
/* A failed comparison, said in place of its tables. */
void md_print_failed_comparison(FILE *out, const char *rel, const char *line);
/* TEXT fenced as code. */
void md_fenced(FILE *out, const char *text);
/* Variant i's cell of COL in a markdown table row: median [CI], ratio and
 * verdict against the group's first variant. */
void md_figure_cell(FILE *out, const struct group *g, unsigned int i, const struct column *col);
/* Group G's figures COLS as a markdown table, a row per variant (its first
 * column titled HEAD), each cell md_figure_cell's. */
void md_figure_table(FILE *out, const struct group *g, const char *head, const struct column *cols, unsigned int ncols);
/* Under a table: how many verdicts it tested and what chance alone makes of them (chance_note). */
void md_chance_note(FILE *out, const struct group *g, const struct column *cols, unsigned int ncols);
/* How many of ratio_columns() the headline tables give. */
#define MD_HEADLINE_COLUMNS 4
/* Group G's headline figures as a markdown table, a row per variant (the
 * full text, every figure: data/KIND-W.txt). */
void md_headline_table(FILE *out, const struct group *g);

/* The throughput figure of variant V of group G over its repetitions, as
 * the tables' first column gives it (ratio_columns); 0, or -1. */
int md_rate_figure(const struct group *g, const struct variant *v, struct stat3 *s);
/* S against BASE on G's throughput, bold ratio, its interval and verdict. */
void md_rate_change(FILE *out, const struct group *g, const struct stat3 *s, const struct stat3 *base);

/* ---- two hosts, each variant against itself (markdown_across.c) ---- */
struct across;
/* A's table: each variant before (host FROM) and after (host TO), the
 * after / before ratio with its interval and verdict, then the table's notes. */
void md_across_table(FILE *out, const struct across *a, const char *from, const char *to);

/* ---- the sections ---- */
/* One verdict line per experiment, the small-machine caveat (markdown_answer.c). */
void md_answer_section(struct md *m);
/* Every chart, before the tables. */
void md_charts_section(struct md *m);

/* The answer's line of each program (markdown_programs.c), and its section. */
void md_programs_answer(struct md *m);
void md_programs_section(struct md *m);

void md_kernel_section(struct md *m);
/* "Simulated: the seed's machine" (markdown_sim.c): run-all's simulated
 * runs (the "sim" part, meta.csv's simulated), the seed's figures beside;
 * and its one line of the answer. */
void md_sim_section(struct md *m);
void md_sim_answer(struct md *m);
void md_noise_section(struct md *m);
void md_sweep_verdicts(struct md *m, const struct comparison *c, const char *workload);
void md_machine_section(struct md *m);
void md_failed_section(struct md *m);
void md_checks_section(struct md *m);
void md_warnings_section(struct md *m);

#endif
