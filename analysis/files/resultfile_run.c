/*
 * resultfile_run.c — a run's summary.csv keys, as every reader of the
 * result files asks for them (resultfile.h, resultfile_parse.h), and what
 * its quantile keys must say of a histogram.  Below the file kinds'
 * readers (resultfile_*.c) and the loader (resultfile.c), which use it.
 */
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

const char *result_meta_get(const struct result_run *run, const char *key)
{
	for (size_t i = 0; i < run->meta.n; i++)
		if (strcmp(run->meta.pair[i].key, key) == 0)
			return run->meta.pair[i].value;
	return NULL;
}

void result_set_host(struct result_run *run, const char *label)
{
	run->has_meta = true;
	snprintf(run->host.name, sizeof(run->host.name), "%.47s", label);
}

void result_free(struct result_run *run)
{
	rf_lines_free(&run->meta);
	rf_lines_free(&run->checks);
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

const char *result_program(const struct result_run *run)
{
	const char *workload = result_get(run, "workload"), *program = result_get(run, "program");

	if (!workload || strcmp(workload, "exec") != 0)
		return NULL;
	return program ? program : "exec";
}

unsigned int result_threads_asked(const struct result_run *run)
{
	const char *v = result_get(run, "program_threads_asked");
	uint64_t n;

	/* The reader has checked it (rf_check_exec): a count within RESULT_MAX_THREADS. */
	return v && rf_parse_u64_span(v, strlen(v), &n) ? (unsigned int)n : 0;
}

unsigned int result_metrics(const struct result_run *run, struct result_metric *m)
{
	/* Runs written before metric_better_NAME declared their metrics by
	 * metric_NAME alone, and meant higher is better. */
	bool declared = rf_key_with_prefix(run, METRIC_BETTER_PREFIX) != NULL;
	const char *prefix = declared ? METRIC_BETTER_PREFIX : METRIC_PREFIX;
	unsigned int n = 0;

	for (size_t i = 0; i < run->nkv && n < RESULT_METRICS_MAX; i++) {
		const char *key = run->kv[i].key;

		if (strncmp(key, prefix, strlen(prefix)) != 0 ||
		    (!declared && strncmp(key, METRIC_BETTER_PREFIX, strlen(METRIC_BETTER_PREFIX)) == 0))
			continue;
		snprintf(m[n].name, sizeof(m[n].name), "%s", key + strlen(prefix));
		m[n++].lower = declared && strcmp(run->kv[i].value, "lower") == 0;
	}
	return n;
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

/* The bin holding quantile q of a histogram, as the writer picks it
 * (bench/platform/hist.c hist_quantile_bin: the first bin where the running count
 * reaches q of the total; 0 for an empty histogram). */
static unsigned int quantile_bin(const uint64_t *bins, uint64_t total, double q)
{
	uint64_t seen = 0;

	for (unsigned int b = 0; b < RESULT_BINS; b++) {
		seen += bins[b];
		if (total && (double)seen >= q * (double)total)
			return b;
	}
	return 0;
}

/* summary.csv's p50 and p99 keys (`stem`p50, `stem`p99: acq_bin_p50, ...)
 * name the bins where `file`'s quantiles fall, where the keys are present. */
int rf_check_quantiles(const struct result_run *run, const char *stem, const uint64_t *bins,
			   uint64_t total, const char *file, char *err, size_t errlen)
{
	static const struct {
		const char *suffix, *name;
		double q;
	} quantiles[] = { { "p50", "50th", 0.5 }, { "p99", "99th", 0.99 } };
	uint64_t bin;

	for (size_t i = 0; i < sizeof(quantiles) / sizeof(quantiles[0]); i++) {
		char key[RESULT_KEY_LEN];
		const char *v;
		unsigned int want = quantile_bin(bins, total, quantiles[i].q);

		snprintf(key, sizeof(key), "%s%s", stem, quantiles[i].suffix);
		v = result_get(run, key);
		if (v && (!rf_parse_u64_span(v, strlen(v), &bin) || bin != want)) {
			snprintf(err, errlen, "%s/summary.csv: %s is %s, but %s puts the %s percentile in bin %u",
				 run->dir, key, v, file, quantiles[i].name, want);
			return -1;
		}
	}
	return 0;
}
