/* resultfile.c — see resultfile.h: the run-directory loader, over the
 * table of a run's files and their readers (resultfile_*.c, one per file
 * kind), and result_check_hist, which checks the files against each other.
 * Below the readers: resultfile_run.c (a run's keys) and resultfile_parse.c
 * (lines and fields).  Formats: results/README.md. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/hist_within.h"
#include "resultfile_parse.h"

/* The files of a run directory, in the order they are read, each with its
 * reader.  OPTIONAL: a file that is not there loads as nothing (runs
 * written before it existed, or, for the kernel files, without
 * --kernel-locks, have none; the checks below then ask whether it should
 * have been there). */
static const struct result_file {
	const char *name;
	bool optional;
	int (*parse)(struct result_run *run, const char *buf, size_t len, const char *what, char *err, size_t errlen);
} result_files[] = {
	{ "summary.csv", false, result_parse_summary },
	{ "hist.csv", false, result_parse_hist },
	{ "hist_contended.csv", true, result_parse_hist_contended },
	{ "kernel-hist.csv", true, result_parse_kernel_hist },
	{ "kernel-locks.csv", true, result_parse_kernel_locks },
	{ "meta.csv", true, result_parse_meta },
	{ "checks.csv", true, result_parse_checks },
};

/* Loads DIR's file F with its reader.  Read through safefile.h: a link, a
 * FIFO or a file over RESULT_FILE_MAX is refused, never followed or waited on. */
static int load_file(struct result_run *run, const struct sf_dir *dir, const struct result_file *f, char *err,
		     size_t errlen)
{
	char path[sizeof(run->dir) + 32];
	size_t len;
	char *buf;
	int rc;

	snprintf(path, sizeof(path), "%s/%s", run->dir, f->name);
	buf = sf_read_all(dir, f->name, RESULT_FILE_MAX, &len, err, errlen);
	if (!buf)
		return f->optional && errno == ENOENT ? 0 : -1;
	rc = f->parse(run, buf, len, path, err, errlen);
	free(buf);
	return rc;
}

/* hist_contended.csv and summary.csv's contended_* keys are written together
 * (a run from before either has neither); its total is `contentions`, and
 * each contended acquisition is also counted, in the same bin, in hist.csv. */
static int check_contended(const struct result_run *run, char *err, size_t errlen)
{
	const char *count_key = rf_timed_key(run, "timed_contentions", "contentions");
	const char *key = rf_key_with_prefix(run, "contended_"), *cont = result_get(run, count_key);
	uint64_t contentions;
	int b;

	if (!run->has_contended) {
		if (key)
			snprintf(err, errlen, "%s: summary.csv has %s but there is no hist_contended.csv", run->dir, key);
		return key ? -1 : 0;
	}
	if (!result_get(run, "contended_acq_cycles_mean")) {
		snprintf(err, errlen, "%s: hist_contended.csv, but summary.csv has no contended_acq_cycles_mean",
			 run->dir);
		return -1;
	}
	if (!cont || !rf_parse_u64_span(cont, strlen(cont), &contentions) || contentions != run->hist_contended_total) {
		snprintf(err, errlen, "%s: hist_contended.csv holds %" PRIu64 " acquisitions, summary.csv's %s is %s",
			 run->dir, run->hist_contended_total, count_key, cont ? cont : "missing");
		return -1;
	}
	if ((b = hist_first_excess(run->hist_contended, run->hist, RESULT_BINS)) >= 0) {
		snprintf(err, errlen, "%s: hist_contended.csv holds %" PRIu64 " in bin %d, hist.csv only %" PRIu64
			 " (every contended acquisition is in both)", run->dir, run->hist_contended[b], b, run->hist[b]);
		return -1;
	}
	return rf_check_quantiles(run, "contended_acq_bin_", run->hist_contended, run->hist_contended_total,
			       "hist_contended.csv", err, errlen);
}

int result_check_hist(const struct result_run *run, char *err, size_t errlen)
{
	const char *count_key = rf_timed_key(run, "timed_acquisitions", "acquisitions");
	const char *acq = result_get(run, count_key);
	uint64_t acquisitions;

	if (!acq || !rf_parse_u64_span(acq, strlen(acq), &acquisitions)) {
		snprintf(err, errlen, "%s/summary.csv: no '%s' count", run->dir, count_key);
		return -1;
	}
	if (acquisitions != run->hist_total) {
		snprintf(err, errlen, "%s: hist.csv holds %" PRIu64 " acquisitions, summary.csv's %s is %s",
			 run->dir, run->hist_total, count_key, acq);
		return -1;
	}
	if (rf_check_quantiles(run, "acq_bin_", run->hist, run->hist_total, "hist.csv", err, errlen))
		return -1;
	return check_contended(run, err, errlen) || rf_check_kernel(run, err, errlen) ? -1 : 0;
}

int result_load(struct result_run *run, const struct sf_dir *dir, char *err, size_t errlen)
{
	memset(run, 0, sizeof(*run));  /* result_free()d, or never loaded */
	if (strlen(dir->path) >= sizeof(run->dir)) {
		snprintf(err, errlen, "%.64s...: path too long", dir->path);
		return -1;
	}
	strcpy(run->dir, dir->path);
	for (size_t i = 0; i < sizeof(result_files) / sizeof(result_files[0]); i++)
		if (load_file(run, dir, &result_files[i], err, errlen) != 0) {
			result_free(run);
			return -1;
		}
	if (result_check_hist(run, err, errlen) != 0) {
		result_free(run);
		return -1;
	}
	return 0;
}
