/*
 * fuzz_results.c — libFuzzer target for the result-file readers that
 * analysis/lbcompare and run-all --resume rely on.  The first input byte
 * picks the reader; every rejection must be a one-line message.
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct result_run run;
	char err[512] = "";
	double v;
	int rc;

	if (size < 1)
		return 0;
	memset(&run, 0, sizeof(run));
	strcpy(run.dir, "fuzz");
	if (data[0] & 1)
		rc = result_parse_hist(&run, (const char *)data + 1, size - 1, "hist.csv", err, sizeof(err));
	else
		rc = result_parse_summary(&run, (const char *)data + 1, size - 1, "summary.csv", err, sizeof(err));
	if (rc != 0) {
		one_line(err);
		return 0;
	}
	err[0] = '\0';
	if (result_number(&run, "ops_per_s", &v, err, sizeof(err)) != 0)
		one_line(err);
	return 0;
}
