/*
 * fuzz_results.c — libFuzzer target for the result-file readers that
 * analysis/lbcompare and run-all --resume rely on.  The first input byte
 * picks what is read: bit 1 clear, one file (bit 3 set: bit 0 set
 * checks.csv, else meta.csv; else bit
 * 2 clear: bit 0 set hist.csv, else summary.csv; bit 2 set: bit 0 set
 * kernel-locks.csv, else kernel-hist.csv); bit 1 set, all of a run,
 * summary.csv then hist.csv after the first NUL byte, hist_contended.csv
 * after a second one, kernel-hist.csv, kernel-locks.csv, meta.csv and
 * checks.csv after a third, fourth, fifth and sixth, and then the check that
 * they agree.  Every rejection must be a one-line message.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../analysis/files/resultfile.h"

static void one_line(const char *err)
{
	if (err[0] == '\0' || strchr(err, '\n'))
		abort();
}

typedef int (*parser)(struct result_run *, const char *, size_t, const char *, char *, size_t);

/* A run's files in the order they come, NUL-separated. */
static const struct {
	parser parse;
	const char *name;
} files[] = {
	{ result_parse_summary, "summary.csv" },
	{ result_parse_hist, "hist.csv" },
	{ result_parse_hist_contended, "hist_contended.csv" },
	{ result_parse_kernel_hist, "kernel-hist.csv" },
	{ result_parse_kernel_locks, "kernel-locks.csv" },
	{ result_parse_meta, "meta.csv" },
	{ result_parse_checks, "checks.csv" },
};

/* Parses the NUL-separated files, and with summary.csv and hist.csv at least
 * checks them against each other. */
static int both(struct result_run *run, const char *data, size_t size, char *err, size_t errlen)
{
	size_t k = 0;

	for (; k < sizeof(files) / sizeof(files[0]); k++) {
		const char *nul = memchr(data, '\0', size);
		size_t len = nul ? (size_t)(nul - data) : size;

		if (files[k].parse(run, data, len, files[k].name, err, errlen) != 0)
			return -1;
		if (!nul)
			break;
		data = nul + 1;
		size -= len + 1;
	}
	return k == 0 ? 0 : result_check_hist(run, err, errlen);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct result_run run;
	const char *text = (const char *)data + 1;
	char err[512] = "";
	double v;
	int rc;

	if (size < 1)
		return 0;
	memset(&run, 0, sizeof(run));
	strcpy(run.dir, "fuzz");
	if (data[0] & 2)
		rc = both(&run, text, size - 1, err, sizeof(err));
	else if (data[0] & 8)
		rc = files[5 + (data[0] & 1)].parse(&run, text, size - 1, files[5 + (data[0] & 1)].name, err, sizeof(err));
	else if (data[0] & 4)
		rc = files[3 + (data[0] & 1)].parse(&run, text, size - 1, files[3 + (data[0] & 1)].name, err, sizeof(err));
	else if (data[0] & 1)
		rc = result_parse_hist(&run, text, size - 1, "hist.csv", err, sizeof(err));
	else
		rc = result_parse_summary(&run, text, size - 1, "summary.csv", err, sizeof(err));
	if (rc != 0) {
		one_line(err);
		result_free(&run);
		return 0;
	}
	err[0] = '\0';
	if (result_number(&run, "ops_per_s", &v, err, sizeof(err)) != 0)
		one_line(err);
	/* An --exec run's program and metrics, as the comparison takes them. */
	if (result_program(&run)) {
		struct result_metric m[RESULT_METRICS_MAX];
		const char *program = result_program(&run);

		if (strlen(program) > RESULT_PROGRAM_LEN && strcmp(program, "exec") != 0)
			abort();
		if (result_metrics(&run, m) > RESULT_METRICS_MAX || result_threads_asked(&run) > RESULT_MAX_THREADS)
			abort();
	}
	result_free(&run);
	return 0;
}
