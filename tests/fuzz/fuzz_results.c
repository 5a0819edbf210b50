/*
 * fuzz_results.c — libFuzzer target for the result-file readers that
 * analysis/lbcompare and run-all --resume rely on.  The first input byte
 * picks what is read: bit 1 clear, one file (bit 0: hist.csv, else
 * summary.csv); bit 1 set, both, summary.csv then hist.csv after the first NUL
 * byte (and hist_contended.csv after a second one), and then the check that
 * they agree.  Every rejection must be a one-line message.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../analysis/resultfile.h"

static void one_line(const char *err)
{
	if (err[0] == '\0' || strchr(err, '\n'))
		abort();
}

/* Parses summary.csv + NUL + hist.csv [+ NUL + hist_contended.csv] and
 * checks them against each other. */
static int both(struct result_run *run, const char *data, size_t size, char *err, size_t errlen)
{
	const char *nul = memchr(data, '\0', size), *hist, *nul2;
	size_t slen = nul ? (size_t)(nul - data) : size, rest, hlen;

	if (result_parse_summary(run, data, slen, "summary.csv", err, errlen) != 0)
		return -1;
	if (!nul)
		return 0;
	hist = nul + 1;
	rest = size - slen - 1;
	nul2 = memchr(hist, '\0', rest);
	hlen = nul2 ? (size_t)(nul2 - hist) : rest;
	if (result_parse_hist(run, hist, hlen, "hist.csv", err, errlen) != 0)
		return -1;
	if (nul2 && result_parse_hist_contended(run, nul2 + 1, rest - hlen - 1, "hist_contended.csv", err,
						errlen) != 0)
		return -1;
	return result_check_hist(run, err, errlen);
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
	else if (data[0] & 1)
		rc = result_parse_hist(&run, text, size - 1, "hist.csv", err, sizeof(err));
	else
		rc = result_parse_summary(&run, text, size - 1, "summary.csv", err, sizeof(err));
	if (rc != 0) {
		one_line(err);
		return 0;
	}
	err[0] = '\0';
	if (result_number(&run, "ops_per_s", &v, err, sizeof(err)) != 0)
		one_line(err);
	return 0;
}
