/*
 * runs.h — the runs lbcompare is given: each named directory is one run
 * (it holds a summary.csv) or a directory whose immediate subdirectories
 * are runs, loaded in name order through resultfile.h.  The list owns them.
 */
#ifndef LOCKBENCH_ANALYSIS_RUNS_H
#define LOCKBENCH_ANALYSIS_RUNS_H

#include "resultfile.h"

#define MAX_RUNS 4096

struct run_list {
	struct result_run *run[MAX_RUNS];
	size_t n;
};

/* The run, or the runs below it, at PATH: below ROOT (no link in PATH
 * followed: safefile.h) where ROOT is open (fd >= 0), else as the user
 * named it.  Nothing found inside is followed.  0, or -1 with one line in
 * err (what could not be opened or read; every run found before it stays
 * in the list). */
int runs_add_named(struct run_list *l, const struct sf_dir *root, const char *path, char *err, size_t errlen);
/* A run directory already open: 0, or -1 with one line in err. */
int runs_add_dir(struct run_list *l, const struct sf_dir *dir, char *err, size_t errlen);
void runs_free(struct run_list *l);

/* Whether DIR is a run's directory: it holds a summary.csv (of whatever
 * kind: one that is a link or a FIFO is then refused by name when it is
 * loaded, not taken for a missing run). */
bool runs_is_run_dir(const struct sf_dir *dir);

#endif
