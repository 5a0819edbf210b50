/* resultfile.c — see resultfile.h: a run's keys, and the run-directory
 * loader.  The readers of each file kind are in resultfile_*.c, their shared
 * helpers in resultfile_parse.h.  Formats: results/README.md. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "resultfile_parse.h"

const char *result_get(const struct result_run *run, const char *key)
{
	for (size_t i = 0; i < run->nkv; i++)
		if (strcmp(run->kv[i].key, key) == 0)
			return run->kv[i].value;
	return NULL;
}

int result_number(const struct result_run *run, const char *key, double *out, char *err, size_t errlen)
{
	const char *v = result_get(run, key);
	char *end;

	if (!v) {
		snprintf(err, errlen, "%s/summary.csv: no '%s'", run->dir, key);
		return -1;
	}
	errno = 0;
	*out = strtod(v, &end);
	if (v[0] == '\0' || *end != '\0' || errno || !isfinite(*out)) {
		snprintf(err, errlen, "%s/summary.csv: '%s' is not a number: '%s'", run->dir, key, v);
		return -1;
	}
	return 0;
}

/* The first summary.csv key starting with `prefix`, or NULL. */
const char *rf_key_with_prefix(const struct result_run *run, const char *prefix)
{
	for (size_t i = 0; i < run->nkv; i++)
		if (strncmp(run->kv[i].key, prefix, strlen(prefix)) == 0)
			return run->kv[i].key;
	return NULL;
}

/* What a histogram's total must equal: its timed count where the run wrote
 * one (--timing sample:N or off time some or none of the acquisitions), else,
 * for runs written before --timing existed, the exact count. */
const char *rf_timed_key(const struct result_run *run, const char *timed, const char *exact)
{
	return result_get(run, timed) ? timed : exact;
}

/* Loads DIR/NAME with PARSE.  OPTIONAL: a file that is not there loads as
 * nothing (runs written before it existed, or, for the kernel files,
 * without --kernel-locks, have none; result_check_hist then asks whether it
 * should have been there).  Read through safefile.h: a link, a FIFO or a
 * file over RESULT_FILE_MAX is refused, never followed or waited on. */
static int load_file(struct result_run *run, const struct sf_dir *dir, const char *name, bool optional,
		     int (*parse)(struct result_run *, const char *, size_t, const char *, char *, size_t),
		     char *err, size_t errlen)
{
	char path[sizeof(run->dir) + 32];
	size_t len;
	char *buf;
	int rc;

	snprintf(path, sizeof(path), "%s/%s", run->dir, name);
	buf = sf_read_all(dir, name, RESULT_FILE_MAX, &len, err, errlen);
	if (!buf)
		return optional && errno == ENOENT ? 0 : -1;
	rc = parse(run, buf, len, path, err, errlen);
	free(buf);
	return rc;
}

int result_load(struct result_run *run, const struct sf_dir *dir, char *err, size_t errlen)
{
	memset(run, 0, sizeof(*run));
	if (strlen(dir->path) >= sizeof(run->dir)) {
		snprintf(err, errlen, "%.64s...: path too long", dir->path);
		return -1;
	}
	strcpy(run->dir, dir->path);
	if (load_file(run, dir, "summary.csv", false, result_parse_summary, err, errlen) ||
	    load_file(run, dir, "hist.csv", false, result_parse_hist, err, errlen) ||
	    load_file(run, dir, "hist_contended.csv", true, result_parse_hist_contended, err, errlen) ||
	    load_file(run, dir, "kernel-hist.csv", true, result_parse_kernel_hist, err, errlen) ||
	    load_file(run, dir, "kernel-locks.csv", true, result_parse_kernel_locks, err, errlen) ||
	    load_file(run, dir, "meta.csv", true, result_parse_meta, err, errlen))
		return -1;
	return result_check_hist(run, err, errlen);
}
