/* resultfile_hist.c — the histogram files (hist.csv, hist_contended.csv,
 * kernel-hist.csv).  Formats: results/README.md. */
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
