/*
 * outdir.h — result directories appear whole or not at all: files are
 * written into a staging directory beside the target and renamed into place
 * at the end (outdir.c).
 */
#ifndef LOCKBENCH_OUTDIR_H
#define LOCKBENCH_OUTDIR_H

#include <limits.h>
#include <stddef.h>

#include "../workloads/fileutil.h"
#include "../../common/safefile.h"

struct outdir {
	char target[4000];        /* what -o named */
	char base[NAME_MAX + 1];  /* its last component: the name in its parent */
	struct wdir staging;      /* "<base>.partial-XXXXXX", made relative to the parent's descriptor */
	struct sf_dir files;      /* the same directory, for the result files' writer (safefile.h) */
	char final[4096];         /* where they ended up */
};

/* Creates the staging directory (and target's parents): fails early, before a
 * run, when -o is unusable.  0, or -1 with a message and errno (ENOSPC,
 * EDQUOT or EROFS: the file system takes no more writes). */
int outdir_open(struct outdir *od, const char *target, char *err, size_t errlen);
/* Renames staging into place: target, or target-2, -3, ... when target
 * already holds results.  0, or -1 with a message and errno. */
int outdir_commit(struct outdir *od, char *err, size_t errlen);
/* Removes staging and everything in it. */
void outdir_abort(struct outdir *od);

#endif
