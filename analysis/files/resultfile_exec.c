/*
 * resultfile_exec.c — an --exec run's own summary.csv keys (rf_check_exec):
 * the program's name, the threads asked of it, and its metrics with the
 * way each is better (results/README.md, "--exec runs").  They come from an
 * untrusted directory and name a table's rows and the derived CSV files, so
 * their names are bounded and of a few bytes only.
 */
#include <stdio.h>
#include <string.h>

#include "resultfile_parse.h"

/* Whether S (N bytes, 1..MAX) is of the bytes in SET only. */
static bool name_of(const char *s, size_t n, size_t max, const char *set)
{
	if (n == 0 || n > max)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!s[i] || !strchr(set, s[i]))
			return false;
	return true;
}

#define PROGRAM_BYTES "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._+-"
#define METRIC_BYTES "abcdefghijklmnopqrstuvwxyz0123456789_"

static int check_program(const struct result_run *run, const char *what, char *err, size_t errlen)
{
	const char *program = result_get(run, "program"), *asked = result_get(run, "program_threads_asked");
	uint64_t n;

	if (program && !name_of(program, strlen(program), RESULT_PROGRAM_LEN, PROGRAM_BYTES)) {
		snprintf(err, errlen, "%s: program is '%.80s', not a name of 1 to %d bytes of [A-Za-z0-9._+-]", what,
			 program, RESULT_PROGRAM_LEN);
		return -1;
	}
	if (asked && (!rf_parse_u64_span(asked, strlen(asked), &n) || n > RESULT_MAX_THREADS)) {
		snprintf(err, errlen, "%s: program_threads_asked is '%.80s', not a count from 0 to %d", what, asked,
			 RESULT_MAX_THREADS);
		return -1;
	}
	return 0;
}

/* metric_better_NAME: a name, and higher or lower. */
static int check_direction(const char *key, const char *value, const char *what, char *err, size_t errlen)
{
	const char *name = key + strlen(METRIC_BETTER_PREFIX);

	if (!name_of(name, strlen(name), RESULT_METRIC_NAME_LEN, METRIC_BYTES)) {
		snprintf(err, errlen, "%s: %s: the metric's name is not 1 to %d bytes of [a-z0-9_]", what, key,
			 RESULT_METRIC_NAME_LEN);
		return -1;
	}
	if (strcmp(value, "higher") != 0 && strcmp(value, "lower") != 0) {
		snprintf(err, errlen, "%s: %s is '%.80s', not higher or lower", what, key, value);
		return -1;
	}
	return 0;
}

/* metric_NAME: a name, a decimal number not below 0 (runs are compared by
 * the ratio of their metrics, which a negative one turns into nonsense, and
 * lockbench --exec writes none), and (a run that names its program: written
 * since metric_better_NAME exists) its direction. */
static int check_metric(const struct result_run *run, const char *key, const char *value, const char *what,
			char *err, size_t errlen)
{
	const char *name = key + strlen(METRIC_PREFIX);
	char better[RESULT_KEY_LEN + 16];
	struct figure f;

	if (!name_of(name, strlen(name), RESULT_METRIC_NAME_LEN, METRIC_BYTES)) {
		snprintf(err, errlen, "%s: %s: the metric's name is not 1 to %d bytes of [a-z0-9_]", what, key,
			 RESULT_METRIC_NAME_LEN);
		return -1;
	}
	if (!rf_decimal(value, &f) || value[0] == '-') {
		snprintf(err, errlen, "%s: %s is '%.80s', not a decimal number of 0 or more", what, key, value);
		return -1;
	}
	snprintf(better, sizeof(better), METRIC_BETTER_PREFIX "%s", name);
	if (result_get(run, "program") && !result_get(run, better)) {
		snprintf(err, errlen, "%s: %s has no %s (higher or lower): which way it is better is unknown", what,
			 key, better);
		return -1;
	}
	return 0;
}

int rf_check_exec(const struct result_run *run, const char *what, char *err, size_t errlen)
{
	unsigned int declared = 0, found = 0;

	if (check_program(run, what, err, errlen))
		return -1;
	for (size_t i = 0; i < run->nkv; i++) {
		const char *key = run->kv[i].key, *value = run->kv[i].value;
		bool direction = strncmp(key, METRIC_BETTER_PREFIX, strlen(METRIC_BETTER_PREFIX)) == 0;

		if (!direction && strncmp(key, METRIC_PREFIX, strlen(METRIC_PREFIX)) != 0)
			continue;
		if (direction ? check_direction(key, value, what, err, errlen)
			      : check_metric(run, key, value, what, err, errlen))
			return -1;
		*(direction ? &declared : &found) += 1;
		if (declared > RESULT_METRICS_MAX || found > RESULT_METRICS_MAX) {
			snprintf(err, errlen, "%s: more than %d metrics (%s)", what, RESULT_METRICS_MAX, key);
			return -1;
		}
	}
	return 0;
}
