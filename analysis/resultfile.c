/* resultfile.c — see resultfile.h: a run's keys, and the run-directory
 * loader.  The readers of each file kind are in resultfile_*.c, their shared
 * helpers in resultfile_parse.h.  Formats: results/README.md. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* Reads a whole (small) file into a malloc'd buffer. */
static char *slurp(const char *path, size_t *len, char *err, size_t errlen)
{
	FILE *f = fopen(path, "rb");
	char *buf;

	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	buf = malloc(RESULT_FILE_MAX + 1);
	*len = buf ? fread(buf, 1, RESULT_FILE_MAX + 1, f) : 0;
	if (!buf || ferror(f) || *len > RESULT_FILE_MAX) {
		snprintf(err, errlen, "%s: %s", path, !buf ? "out of memory" : ferror(f) ? "read error" : "too large");
		free(buf);
		fclose(f);
		return NULL;
	}
	fclose(f);
	return buf;
}

static int load_one(struct result_run *run, const char *dir, const char *name,
		    int (*parse)(struct result_run *, const char *, size_t, const char *, char *, size_t),
		    char *err, size_t errlen)
{
	char path[1200];
	size_t len;
	char *buf;
	int rc;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	buf = slurp(path, &len, err, errlen);
	if (!buf)
		return -1;
	rc = parse(run, buf, len, path, err, errlen);
	free(buf);
	return rc;
}

/* Loads DIR/NAME where there is one: runs written before it existed (or,
 * for the kernel files, without --kernel-locks) have none, and load as they
 * did; result_check_hist then asks whether it should have been there. */
static int load_optional(struct result_run *run, const char *dir, const char *name,
			 int (*parse)(struct result_run *, const char *, size_t, const char *, char *, size_t),
			 char *err, size_t errlen)
{
	char path[1200];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (access(path, F_OK) != 0 && errno == ENOENT)
		return 0;
	return load_one(run, dir, name, parse, err, errlen);
}

int result_load(struct result_run *run, const char *dir, char *err, size_t errlen)
{
	memset(run, 0, sizeof(*run));
	if (strlen(dir) >= sizeof(run->dir)) {
		snprintf(err, errlen, "%.64s...: path too long", dir);
		return -1;
	}
	strcpy(run->dir, dir);
	if (load_one(run, dir, "summary.csv", result_parse_summary, err, errlen) ||
	    load_one(run, dir, "hist.csv", result_parse_hist, err, errlen) ||
	    load_optional(run, dir, "hist_contended.csv", result_parse_hist_contended, err, errlen) ||
	    load_optional(run, dir, "kernel-hist.csv", result_parse_kernel_hist, err, errlen) ||
	    load_optional(run, dir, "kernel-locks.csv", result_parse_kernel_locks, err, errlen) ||
	    load_optional(run, dir, "meta.csv", result_parse_meta, err, errlen))
		return -1;
	return result_check_hist(run, err, errlen);
}
