/*
 * resultfile.h — strict readers for the result files documented in
 * results/README.md.  Anything that does not match the documented format is
 * rejected with a one-line message; nothing here trusts its input.
 */
#ifndef LOCKBENCH_RESULTFILE_H
#define LOCKBENCH_RESULTFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RESULT_BINS 64
#define RESULT_MAX_KEYS 256
#define RESULT_KEY_LEN 48
#define RESULT_VALUE_LEN 256
#define RESULT_FILE_MAX (1u << 20)
#define RESULT_MAX_THREADS 65536 /* lockbench --threads' limit (bench/cli.c) */

struct result_kv {
	char key[RESULT_KEY_LEN];
	char value[RESULT_VALUE_LEN];
};

/* One run directory: its summary.csv, hist.csv and, when it has one (runs
 * written before it existed have not), hist_contended.csv. */
struct result_run {
	char dir[1024];
	struct result_kv kv[RESULT_MAX_KEYS];
	size_t nkv;
	uint64_t hist[RESULT_BINS];
	uint64_t hist_total;
	bool has_contended;                 /* hist_contended.csv was read */
	uint64_t hist_contended[RESULT_BINS];
	uint64_t hist_contended_total;
};

/* Parse summary.csv / hist.csv contents (len bytes, need not be NUL-terminated).
 * 0, or -1 with a one-line message naming `what` (the file) in err.  The
 * summary's figures are checked as well as its lines: counts whole and >= 0,
 * rates and means >= 0 and agreeing with the counts they come from, phases
 * adding up (results/README.md, "What a reader rejects"). */
int result_parse_summary(struct result_run *run, const char *buf, size_t len, const char *what,
			 char *err, size_t errlen);
int result_parse_hist(struct result_run *run, const char *buf, size_t len, const char *what,
		      char *err, size_t errlen);
/* hist_contended.csv (the same format): fills hist_contended and sets
 * has_contended. */
int result_parse_hist_contended(struct result_run *run, const char *buf, size_t len, const char *what,
				char *err, size_t errlen);

/* With the files parsed: the histogram's total equals `acquisitions`, and
 * acq_bin_p50 / acq_bin_p99 name the bins its quantiles fall in; the
 * contended histogram and the summary's contended_* keys come together or
 * not at all, its total equals `contentions`, no bin of it exceeds the same
 * bin of hist.csv, and contended_acq_bin_p50 / _p99 name its quantiles.
 * Messages name run->dir. */
int result_check_hist(const struct result_run *run, char *err, size_t errlen);

/* Loads DIR/summary.csv, DIR/hist.csv and, where there is one,
 * DIR/hist_contended.csv, each checked, and checks they agree
 * (result_check_hist). */
int result_load(struct result_run *run, const char *dir, char *err, size_t errlen);

/* The value of `key`, or NULL. */
const char *result_get(const struct result_run *run, const char *key);
/* The value of `key` as a finite number: 0, or -1 with a message when it is
 * missing or not a number. */
int result_number(const struct result_run *run, const char *key, double *out, char *err, size_t errlen);

#endif
