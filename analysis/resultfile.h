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

struct result_kv {
	char key[RESULT_KEY_LEN];
	char value[RESULT_VALUE_LEN];
};

/* One run directory: its summary.csv and hist.csv. */
struct result_run {
	char dir[1024];
	struct result_kv kv[RESULT_MAX_KEYS];
	size_t nkv;
	uint64_t hist[RESULT_BINS];
	uint64_t hist_total;
};

/* Parse summary.csv / hist.csv contents (len bytes, need not be NUL-terminated).
 * 0, or -1 with a message naming `what` (the file) in err. */
int result_parse_summary(struct result_run *run, const char *buf, size_t len, const char *what,
			 char *err, size_t errlen);
int result_parse_hist(struct result_run *run, const char *buf, size_t len, const char *what,
		      char *err, size_t errlen);

/* Loads DIR/summary.csv and DIR/hist.csv and checks they agree (the
 * histogram's total equals `acquisitions`). */
int result_load(struct result_run *run, const char *dir, char *err, size_t errlen);

/* The value of `key`, or NULL. */
const char *result_get(const struct result_run *run, const char *key);
/* The value of `key` as a finite number: 0, or -1 with a message when it is
 * missing or not a number. */
int result_number(const struct result_run *run, const char *key, double *out, char *err, size_t errlen);

#endif
