/*
 * rundir.h — a run-all directory as results/README.md ("run-all's
 * directory") documents it: run-all's own files (settings, run-env,
 * plan.txt, variants.txt), read for `lbcompare --markdown`, and which of
 * the planned runs finished: their result files load through resultfile.h,
 * the one reader of a run's files (the report loads them again there).
 */
#ifndef LOCKBENCH_RUNDIR_H
#define LOCKBENCH_RUNDIR_H

#include <stdbool.h>
#include <stddef.h>

#include "../../common/safefile.h"

/* The most a file of the directory may hold (plan.txt of a long sweep on a
 * big box is well under 1 MiB; a run's stderr log with a watchdog report of
 * 20,000 threads about 2 MiB): a larger one is refused, not read. */
#define RUNDIR_TEXT_MAX (16u << 20)

/* A "KEY<sep>value" file of run-all's (settings, run-env: '='; variants.txt:
 * ' '), pointers into its own text. */
struct kv_pair {
	const char *key, *value;
};
struct kv_file {
	char *text;
	struct kv_pair *pair;
	size_t n;
};

/* REL under DIR (safefile.h: no link followed, only a regular file read):
 * 0; 1 when it does not exist (F empty); -1 with a one-line message when it
 * cannot be read, is refused, is over RUNDIR_TEXT_MAX, or a line has no
 * separator. */
int kv_file_read(struct kv_file *f, const struct sf_dir *dir, const char *rel, char sep, char *err, size_t errlen);
/* KEY's value, or NULL. */
const char *kv_get(const struct kv_file *f, const char *key);
void kv_file_free(struct kv_file *f);

/* One plan.txt line: a run name and its lockbench arguments. */
struct plan_run {
	char *name;
	char *args;
	char kind[16];         /* "patch", "sweep": the name up to its first '-' */
	char workload[64];     /* the word after -w */
	bool finished;         /* runs/NAME's result files load (resultfile.h) */
	char *why;             /* not finished though it has runs/NAME/summary.csv (or
				* runs/NAME is not a directory): lbcompare's one line */
	/* An unfinished run's logs, as run-all left them: logs/NAME.status a
	 * regular file (the run failed; without one it was never made), its
	 * first line, and logs/NAME.err's last line -- each "(WHY)" where the
	 * file is there but cannot be read (a link, a FIFO, too large), NULL
	 * where it is absent or empty. */
	bool has_status;
	char *status, *err_last;
};

struct rundir {
	struct sf_dir dir;     /* the directory, and its path as named */
	struct kv_file settings, env;
	struct plan_run *plan;
	size_t nplan;
	/* The finished runs in the report's order, as indexes into plan:
	 * variant by variant in variants.txt's order (each group's baseline
	 * first), each variant's in round order; plan order without variants.txt. */
	size_t *done;
	size_t ndone;
	unsigned int reps;
	bool quick, has_variants;
	/* What a directory from before run-env's role keys (PATCH_PAIR,
	 * PATCH_WORKLOADS, PROGRAM_BASE) planned in those roles, read off its
	 * plan in the tables' order (variants.txt, else plan.txt): the patch
	 * table's first two locks, its workloads, the first lock under a
	 * program.  rundir_env answers with them where run-env has no key. */
	char plan_pair[136], plan_patch_workloads[256], plan_program_base[64];
	/* plots/: whether it names any *.png at all, and those that are
	 * regular files (sorted), the charts a report may link. */
	bool any_png;
	char **png_files;
};

/* The run-all directory open at DIR (its descriptor is duplicated): 0, or
 * -1 with a one-line message naming what in it is missing or malformed.
 * Everything in it is read through safefile.h. */
int rundir_load(struct rundir *d, const struct sf_dir *dir, char *err, size_t errlen);
/* The run-all directory at PATH, the user's own (links in it resolved: the
 * directory is named by its absolute path, as several hosts' reports name
 * it), loaded as rundir_load loads it: 0, or -1 with a one-line message. */
int rundir_load_path(struct rundir *d, const char *path, char *err, size_t errlen);
void rundir_free(struct rundir *d);
/* settings' or run-env's KEY, "" when absent (a role key: the plan's, above). */
const char *rundir_setting(const struct rundir *d, const char *key);
const char *rundir_env(const struct rundir *d, const char *key);
/* Whether the plan has a run of KIND ("patch", "sweep"; NULL: any) on
 * WORKLOAD (NULL: any) whose arguments hold WORD (NULL: any); with FINISHED,
 * a finished one. */
bool rundir_plans(const struct rundir *d, const char *kind, const char *workload, const char *word, bool finished);
/* A directory's label where hostnames recur: "HOSTNAME-dirN". */
#define RUNDIR_LABEL 48
/* Where two of the N directories share a hostname (a before and an after
 * on one machine): true, and each directory's label "HOSTNAME-dirI" (I from
 * 1, in the order given: the first the baseline), so that each is compared
 * as a host of its own, never pooled as one host's repetitions; else false
 * and every label "".  The hostname is the directory's first finished run's
 * (meta.csv; "unknown" without one). */
bool rundir_host_labels(const struct rundir *dirs, size_t n, char (*label)[RUNDIR_LABEL]);
/* Whether plots/NAME.png is a regular file (png_files). */
bool rundir_has_png(const struct rundir *d, const char *name);
/* WORD in a list of words separated by blanks or commas. */
bool word_in(const char *word, const char *list);

#endif
