/* resultfile_hist.c — the histogram files (hist.csv, hist_contended.csv,
 * kernel-hist.csv) and result_check_hist, which checks a run's files
 * against each other.  Formats: results/README.md. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "resultfile_parse.h"

/* digits, at most one '.', digits: a percentage, recomputed by readers, so
 * only shape-checked. */
static bool percent_shape(const char *s, size_t n)
{
	for (size_t i = 0, dots = 0; i < n; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] == '.' && ++dots == 1)))
			return false;
	return n > 0;
}

/* hist.csv's fields "bin,lower,count,percent" of bin b. */
static bool parse_hist_fields(const char *const *f, const size_t *flen, unsigned int b, uint64_t *count)
{
	uint64_t bin, lower;

	if (!rf_parse_u64_span(f[0], flen[0], &bin) || bin != b)
		return false;
	if (!rf_parse_u64_span(f[1], flen[1], &lower) || lower != (b ? UINT64_C(1) << b : 0))
		return false;
	return rf_parse_u64_span(f[2], flen[2], count) && percent_shape(f[3], flen[3]);
}

/* kernel-hist.csv's columns after `percent`: named in the header, each a
 * count per bin, adding up to the row's count.  NULL: hist.csv's four only. */
struct hist_cols {
	unsigned int n;
	char (*name)[RESULT_KEY_LEN];
	uint64_t *total;
};

#define HIST_HEADER "bin,lower_cycles,count,percent"
#define HIST_FIELDS 4

/* The header's extra column names, after HIST_HEADER ",": each a key-like
 * word, none repeated. */
static bool parse_col_names(const char *s, size_t n, struct hist_cols *cols)
{
	const char *f[RESULT_KERNEL_TYPES];
	size_t flen[RESULT_KERNEL_TYPES], k = rf_split_fields(s, n, f, flen, RESULT_KERNEL_TYPES);

	if (k == 0 || k > RESULT_KERNEL_TYPES)
		return false;
	for (size_t i = 0; i < k; i++) {
		if (!rf_valid_key(f[i], flen[i]))
			return false;
		memcpy(cols->name[i], f[i], flen[i]);
		cols->name[i][flen[i]] = '\0';
		for (size_t j = 0; j < i; j++)
			if (strcmp(cols->name[i], cols->name[j]) == 0)
				return false;
		cols->total[i] = 0;
	}
	cols->n = (unsigned int)k;
	return true;
}

static bool hist_header(const char *line, size_t n, struct hist_cols *cols)
{
	size_t fixed = sizeof(HIST_HEADER) - 1;

	if (n < fixed || memcmp(line, HIST_HEADER, fixed) != 0)
		return false;
	if (!cols)
		return n == fixed;
	return n > fixed + 1 && line[fixed] == ',' && parse_col_names(line + fixed + 1, n - fixed - 1, cols);
}

/* One row of bin b; with cols, its extra counts must add up to its count. */
static bool parse_hist_row(const char *line, size_t n, unsigned int b, struct hist_cols *cols, uint64_t *count)
{
	const char *f[HIST_FIELDS + RESULT_KERNEL_TYPES];
	size_t flen[HIST_FIELDS + RESULT_KERNEL_TYPES], want = HIST_FIELDS + (cols ? cols->n : 0);
	uint64_t sum = 0, v;

	if (rf_split_fields(line, n, f, flen, want) != want || !parse_hist_fields(f, flen, b, count))
		return false;
	for (size_t i = HIST_FIELDS; i < want; i++) {
		if (!rf_parse_u64_span(f[i], flen[i], &v) || sum + v < sum ||
		    cols->total[i - HIST_FIELDS] + v < v)
			return false;
		sum += v;
		cols->total[i - HIST_FIELDS] += v;
	}
	return !cols || sum == *count;
}

/* A histogram file (hist.csv, hist_contended.csv, kernel-hist.csv with cols)
 * into bins[] and *total. */
static int parse_bins(uint64_t *bins, uint64_t *total, struct hist_cols *cols, const char *buf, size_t len,
		      const char *what, char *err, size_t errlen)
{
	size_t pos = 0, n;
	const char *line;
	unsigned int rows = 0;
	bool have_header = rf_next_line(buf, len, &pos, &line, &n);

	if (have_header && rf_crlf(line, n, what, 1, err, errlen))
		return -1;
	if (!have_header || !hist_header(line, n, cols)) {
		snprintf(err, errlen, "%s: line 1: expected header '%s%s'", what, HIST_HEADER,
			 cols ? ",TYPE,..." : "");
		return -1;
	}
	*total = 0;
	while (rf_next_line(buf, len, &pos, &line, &n)) {
		uint64_t count;

		if (rf_crlf(line, n, what, rows + 2, err, errlen))
			return -1;
		if (rows >= RESULT_BINS || !parse_hist_row(line, n, rows, cols, &count)) {
			snprintf(err, errlen, "%s: line %u: not row %u of %d '%s%s'%s", what, rows + 2, rows,
				 RESULT_BINS, HIST_HEADER, cols ? ",TYPE,..." : "",
				 cols ? " (the type counts adding up to count)" : "");
			return -1;
		}
		if (*total + count < *total) {
			snprintf(err, errlen, "%s: counts overflow", what);
			return -1;
		}
		bins[rows++] = count;
		*total += count;
	}
	if (rows != RESULT_BINS) {
		snprintf(err, errlen, "%s: %u bins, expected %d", what, rows, RESULT_BINS);
		return -1;
	}
	return 0;
}

int result_parse_hist(struct result_run *run, const char *buf, size_t len, const char *what,
		      char *err, size_t errlen)
{
	return parse_bins(run->hist, &run->hist_total, NULL, buf, len, what, err, errlen);
}

int result_parse_hist_contended(struct result_run *run, const char *buf, size_t len, const char *what,
				char *err, size_t errlen)
{
	if (parse_bins(run->hist_contended, &run->hist_contended_total, NULL, buf, len, what, err, errlen))
		return -1;
	run->has_contended = true;
	return 0;
}

int result_parse_kernel_hist(struct result_run *run, const char *buf, size_t len, const char *what,
			     char *err, size_t errlen)
{
	struct hist_cols cols = { 0, run->kernel_type, run->kernel_type_total };

	run->kernel_ntypes = 0;
	if (parse_bins(run->kernel_hist, &run->kernel_total, &cols, buf, len, what, err, errlen))
		return -1;
	run->kernel_ntypes = cols.n;
	run->has_kernel = true;
	return 0;
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

/* hist_contended.csv and summary.csv's contended_* keys are written together
 * (a run from before either has neither); its total is `contentions`, and
 * each contended acquisition is also counted, in the same bin, in hist.csv. */
static int check_contended(const struct result_run *run, char *err, size_t errlen)
{
	const char *count_key = rf_timed_key(run, "timed_contentions", "contentions");
	const char *key = rf_key_with_prefix(run, "contended_"), *cont = result_get(run, count_key);
	uint64_t contentions;

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
	for (unsigned int b = 0; b < RESULT_BINS; b++)
		if (run->hist_contended[b] > run->hist[b]) {
			snprintf(err, errlen, "%s: hist_contended.csv holds %" PRIu64 " in bin %u, hist.csv only %" PRIu64
				 " (every contended acquisition is in both)", run->dir, run->hist_contended[b], b,
				 run->hist[b]);
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
