/*
 * saved.h — the checks of a run-all directory's own files, one rule in one
 * place: settings, plan.txt and variants.txt of a run being resumed or
 * reported, and its run-env (results/README.md, "run-all's directory").
 * run-all asks them through `lbcompare --saved` and `--saved-env` (their
 * KEY=VALUE lines: lbcompare --help), so a file it refuses is refused with
 * the same line wherever it is read.
 */
#ifndef LOCKBENCH_SAVED_H
#define LOCKBENCH_SAVED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "../../common/safefile.h"

/* The most plan.txt or variants.txt may hold: 1000 repetitions of a big
 * box's variants fit many times over. */
#define SAVED_PLAN_MAX (64u << 20)
/* settings' and run-env's most, and a run's meta.csv's. */
#define SAVED_KV_MAX 65536u
#define SAVED_META_MAX 1048576u

/* The next line of TEXT (LEN bytes) from *POS as run-all's `IFS='=' read
 * -r KEY VALUE` takes it, split in place: true and KEY and VALUE, false at
 * the end (a last line without its newline is no line). */
bool saved_next_assignment(char *text, size_t len, size_t *pos, const char **key, const char **value);
/* What a settings line KEY=VALUE is: 0 a key and value run-all takes,
 * 1 a key it knows with a bad value, -1 no key it knows. */
int saved_setting_check(const char *key, const char *value);
/* The same for a run-env line. */
int saved_env_check(const char *key, const char *value);
/* Whether LINE (LEN bytes, no newline) is a plan line: a run name and plain
 * lockbench arguments, a path only as --dir's or --sim's absolute one with
 * no `.` or `..` component. */
bool saved_plan_line_ok(const char *line, size_t len);

/* DIR's settings, plan.txt and variants.txt (run-all's copies of the
 * directory's, made through its read_file), checked: 0 and each settings
 * line as KEY=VALUE on OUT, or -1 and the one line why in ERR, FROM (the
 * option: --resume, --report) first. */
int saved_settings(const struct sf_dir *dir, const char *from, FILE *out, char *err, size_t errlen);
/* DIR's run-env checked (0, nothing printed), or for a directory from
 * before run-env what run-all records of it, as KEY=VALUE on OUT: NCPU and
 * NUMA_NODES from the first runs/NAME/meta.csv, KL from PLAN (the checked
 * plan.txt's text), the names NAMES[0..2] (ALL_LOCKS, ALL_WORKLOADS,
 * NUMA_ONLY_LOCKS, as the lockbench at hand lists them) or, NAMES NULL, the
 * locks and workloads PLAN has.  -1 and the one line why in ERR. */
int saved_env(const struct sf_dir *dir, const char *plan, const char *const *names, const char *from, FILE *out,
	      char *err, size_t errlen);

#endif
