/* resultfile.c — see resultfile.h.  Formats: results/README.md. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "resultfile.h"

#define SUMMARY_FORMAT "lockbench-summary-1"

/* Splits buf into lines one at a time (line, linelen), advancing pos. */
static bool next_line(const char *buf, size_t len, size_t *pos, const char **line, size_t *linelen)
{
	const char *nl;

	if (*pos >= len)
		return false;
	*line = buf + *pos;
	nl = memchr(*line, '\n', len - *pos);
	*linelen = nl ? (size_t)(nl - *line) : len - *pos;
	*pos += *linelen + (nl ? 1 : 0);
	return true;
}

static bool valid_key(const char *s, size_t n)
{
	if (n == 0 || n >= RESULT_KEY_LEN)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '_'))
			return false;
	return true;
}

static bool printable(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			return false;
	return true;
}

/* A line that ends in CR: the file went through a DOS/Windows tool.  Said as
 * such, since "expected header" would hide why an intact-looking file fails. */
static bool crlf(const char *line, size_t n, const char *what, size_t lineno, char *err, size_t errlen)
{
	if (n == 0 || line[n - 1] != '\r')
		return false;
	snprintf(err, errlen, "%s: line %zu: ends in CRLF (DOS line ends); result files use LF only",
		 what, lineno);
	return true;
}

static int check_summary(const struct result_run *run, const char *what, char *err, size_t errlen);

int result_parse_summary(struct result_run *run, const char *buf, size_t len, const char *what,
			 char *err, size_t errlen)
{
	size_t pos = 0, n, lineno = 0;
	const char *line, *fmt;

	run->nkv = 0;
	while (next_line(buf, len, &pos, &line, &n)) {
		const char *comma = memchr(line, ',', n);
		size_t klen = comma ? (size_t)(comma - line) : 0, vlen = comma ? n - klen - 1 : 0;

		if (crlf(line, n, what, ++lineno, err, errlen))
			return -1;
		if (lineno == 1) {
			if (n != 9 || memcmp(line, "key,value", 9) != 0) {
				snprintf(err, errlen, "%s: line 1: expected header 'key,value'", what);
				return -1;
			}
			continue;
		}
		if (!comma || !valid_key(line, klen) || vlen >= RESULT_VALUE_LEN ||
		    !printable(comma + 1, vlen)) {
			snprintf(err, errlen, "%s: line %zu: not a 'key,value' line", what, lineno);
			return -1;
		}
		if (run->nkv >= RESULT_MAX_KEYS) {
			snprintf(err, errlen, "%s: more than %d keys", what, RESULT_MAX_KEYS);
			return -1;
		}
		memcpy(run->kv[run->nkv].key, line, klen);
		run->kv[run->nkv].key[klen] = '\0';
		if (result_get(run, run->kv[run->nkv].key)) {
			snprintf(err, errlen, "%s: line %zu: key '%s' repeated", what, lineno, run->kv[run->nkv].key);
			return -1;
		}
		memcpy(run->kv[run->nkv].value, comma + 1, vlen);
		run->kv[run->nkv].value[vlen] = '\0';
		run->nkv++;
	}
	if (lineno == 0) {
		snprintf(err, errlen, "%s: empty file", what);
		return -1;
	}
	fmt = result_get(run, "format");
	if (!fmt || strcmp(fmt, SUMMARY_FORMAT) != 0) {
		snprintf(err, errlen, "%s: not a %s file", what, SUMMARY_FORMAT);
		return -1;
	}
	return check_summary(run, what, err, errlen);
}

/* A whole unsigned decimal number filling exactly [s, s+n). */
static bool parse_u64_span(const char *s, size_t n, uint64_t *out)
{
	uint64_t v = 0;

	if (n == 0 || n > 20)
		return false;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		if (v > (UINT64_MAX - (uint64_t)(s[i] - '0')) / 10)
			return false;
		v = v * 10 + (uint64_t)(s[i] - '0');
	}
	*out = v;
	return true;
}

/* One hist.csv row "bin,lower,count,percent" for bin b. */
static bool parse_hist_row(const char *line, size_t n, unsigned int b, uint64_t *count)
{
	const char *f[4];
	size_t flen[4], k = 0, start = 0;
	uint64_t bin, lower;

	for (size_t i = 0; i <= n && k < 4; i++)
		if (i == n || line[i] == ',') {
			f[k] = line + start;
			flen[k++] = i - start;
			start = i + 1;
		}
	if (k != 4 || start != n + 1)
		return false;
	if (!parse_u64_span(f[0], flen[0], &bin) || bin != b)
		return false;
	if (!parse_u64_span(f[1], flen[1], &lower) || lower != (b ? UINT64_C(1) << b : 0))
		return false;
	if (!parse_u64_span(f[2], flen[2], count))
		return false;
	/* percent: digits, one '.', digits; recomputed by readers, so only shape-checked */
	for (size_t i = 0, dots = 0; i < flen[3]; i++)
		if (!((f[3][i] >= '0' && f[3][i] <= '9') || (f[3][i] == '.' && ++dots == 1)))
			return false;
	return flen[3] > 0;
}

/* A histogram file (hist.csv or hist_contended.csv) into bins[] and *total. */
static int parse_bins(uint64_t *bins, uint64_t *total, const char *buf, size_t len, const char *what,
		      char *err, size_t errlen)
{
	static const char header[] = "bin,lower_cycles,count,percent";
	size_t pos = 0, n;
	const char *line;
	unsigned int rows = 0;
	bool have_header = next_line(buf, len, &pos, &line, &n);

	if (have_header && crlf(line, n, what, 1, err, errlen))
		return -1;
	if (!have_header || n != sizeof(header) - 1 || memcmp(line, header, n) != 0) {
		snprintf(err, errlen, "%s: line 1: expected header '%s'", what, header);
		return -1;
	}
	*total = 0;
	while (next_line(buf, len, &pos, &line, &n)) {
		uint64_t count;

		if (crlf(line, n, what, rows + 2, err, errlen))
			return -1;
		if (rows >= RESULT_BINS || !parse_hist_row(line, n, rows, &count)) {
			snprintf(err, errlen, "%s: line %u: not row %u of %d 'bin,lower_cycles,count,percent'",
				 what, rows + 2, rows, RESULT_BINS);
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
	return parse_bins(run->hist, &run->hist_total, buf, len, what, err, errlen);
}

int result_parse_hist_contended(struct result_run *run, const char *buf, size_t len, const char *what,
				char *err, size_t errlen)
{
	if (parse_bins(run->hist_contended, &run->hist_contended_total, buf, len, what, err, errlen))
		return -1;
	run->has_contended = true;
	return 0;
}

const char *result_get(const struct result_run *run, const char *key)
{
	for (size_t i = 0; i < run->nkv; i++)
		if (strcmp(run->kv[i].key, key) == 0)
			return run->kv[i].value;
	return NULL;
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

/* Reads a whole (small) file into a malloc'd buffer. */
static char *slurp(const char *path, size_t *len, char *err, size_t errlen)
{
	FILE *f = fopen(path, "rb");
	char *buf;

	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	buf = malloc(RESULT_FILE_MAX + 1);
	*len = buf ? fread(buf, 1, RESULT_FILE_MAX + 1, f) : 0;
	if (!buf || ferror(f) || *len > RESULT_FILE_MAX) {
		snprintf(err, errlen, "%s: %s", path, !buf ? "out of memory" : ferror(f) ? "read error" : "too large");
		free(buf);
		fclose(f);
		return NULL;
	}
	fclose(f);
	return buf;
}

static int load_one(struct result_run *run, const char *dir, const char *name,
		    int (*parse)(struct result_run *, const char *, size_t, const char *, char *, size_t),
		    char *err, size_t errlen)
{
	char path[1200];
	size_t len;
	char *buf;
	int rc;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	buf = slurp(path, &len, err, errlen);
	if (!buf)
		return -1;
	rc = parse(run, buf, len, path, err, errlen);
	free(buf);
	return rc;
}

/* The bin holding quantile q of a histogram, as the writer picks it
 * (bench/hist.c hist_quantile_bin: the first bin where the running count
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

/* summary.csv's p50 and p99 keys (`prefix`acq_bin_p50, ...) name the bins
 * where `file`'s quantiles fall, where the keys are present. */
static int check_quantiles(const struct result_run *run, const char *prefix, const uint64_t *bins,
			   uint64_t total, const char *file, char *err, size_t errlen)
{
	static const struct {
		const char *suffix, *name;
		double q;
	} quantiles[] = { { "acq_bin_p50", "50th", 0.5 }, { "acq_bin_p99", "99th", 0.99 } };
	uint64_t bin;

	for (size_t i = 0; i < sizeof(quantiles) / sizeof(quantiles[0]); i++) {
		char key[RESULT_KEY_LEN];
		const char *v;
		unsigned int want = quantile_bin(bins, total, quantiles[i].q);

		snprintf(key, sizeof(key), "%s%s", prefix, quantiles[i].suffix);
		v = result_get(run, key);
		if (v && (!parse_u64_span(v, strlen(v), &bin) || bin != want)) {
			snprintf(err, errlen, "%s/summary.csv: %s is %s, but %s puts the %s percentile in bin %u",
				 run->dir, key, v, file, quantiles[i].name, want);
			return -1;
		}
	}
	return 0;
}

/* The first summary.csv key of the contended figures, or NULL. */
static const char *contended_key(const struct result_run *run)
{
	for (size_t i = 0; i < run->nkv; i++)
		if (strncmp(run->kv[i].key, "contended_", 10) == 0)
			return run->kv[i].key;
	return NULL;
}

/* hist_contended.csv and summary.csv's contended_* keys are written together
 * (a run from before either has neither); its total is `contentions`, and
 * each contended acquisition is also counted, in the same bin, in hist.csv. */
static int check_contended(const struct result_run *run, char *err, size_t errlen)
{
	const char *key = contended_key(run), *cont = result_get(run, "contentions");
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
	if (!cont || !parse_u64_span(cont, strlen(cont), &contentions) || contentions != run->hist_contended_total) {
		snprintf(err, errlen, "%s: hist_contended.csv holds %" PRIu64 " acquisitions, summary.csv's contentions is %s",
			 run->dir, run->hist_contended_total, cont ? cont : "missing");
		return -1;
	}
	for (unsigned int b = 0; b < RESULT_BINS; b++)
		if (run->hist_contended[b] > run->hist[b]) {
			snprintf(err, errlen, "%s: hist_contended.csv holds %" PRIu64 " in bin %u, hist.csv only %" PRIu64
				 " (every contended acquisition is in both)", run->dir, run->hist_contended[b], b,
				 run->hist[b]);
			return -1;
		}
	return check_quantiles(run, "contended_", run->hist_contended, run->hist_contended_total,
			       "hist_contended.csv", err, errlen);
}

int result_check_hist(const struct result_run *run, char *err, size_t errlen)
{
	const char *acq = result_get(run, "acquisitions");
	uint64_t acquisitions;

	if (!acq || !parse_u64_span(acq, strlen(acq), &acquisitions)) {
		snprintf(err, errlen, "%s/summary.csv: no 'acquisitions' count", run->dir);
		return -1;
	}
	if (acquisitions != run->hist_total) {
		snprintf(err, errlen, "%s: hist.csv holds %" PRIu64 " acquisitions, summary.csv says %s",
			 run->dir, run->hist_total, acq);
		return -1;
	}
	if (check_quantiles(run, "", run->hist, run->hist_total, "hist.csv", err, errlen))
		return -1;
	return check_contended(run, err, errlen);
}

/* Loads DIR/hist_contended.csv where there is one: runs written before it
 * existed have none, and load as they did. */
static int load_contended(struct result_run *run, const char *dir, char *err, size_t errlen)
{
	char path[1200];

	snprintf(path, sizeof(path), "%s/hist_contended.csv", dir);
	if (access(path, F_OK) != 0 && errno == ENOENT)
		return 0;
	return load_one(run, dir, "hist_contended.csv", result_parse_hist_contended, err, errlen);
}

int result_load(struct result_run *run, const char *dir, char *err, size_t errlen)
{
	memset(run, 0, sizeof(*run));
	if (strlen(dir) >= sizeof(run->dir)) {
		snprintf(err, errlen, "%.64s...: path too long", dir);
		return -1;
	}
	strcpy(run->dir, dir);
	if (load_one(run, dir, "summary.csv", result_parse_summary, err, errlen) ||
	    load_one(run, dir, "hist.csv", result_parse_hist, err, errlen) ||
	    load_contended(run, dir, err, errlen))
		return -1;
	return result_check_hist(run, err, errlen);
}

/* ---- what the figures may be: results/README.md, "What a reader rejects" ----
 *
 * Every check looks only at keys that are present: a lock or workload that
 * does not write a key is not at fault, and keys this reader does not know
 * are ignored. */

enum figure_kind {
	FIG_COUNT,          /* a whole number >= 0 */
	FIG_POSITIVE,       /* a whole number >= 1 */
	FIG_AMOUNT,         /* a decimal >= 0: seconds, rates, means, percentages */
};

static const struct {
	const char *key;
	enum figure_kind kind;
} figure_kinds[] = {
	{ "threads", FIG_POSITIVE }, { "tsc_hz", FIG_POSITIVE },
	{ "cs_cycles", FIG_COUNT }, { "think_cycles", FIG_COUNT }, { "spin_budget_cycles", FIG_COUNT },
	{ "spin_budget_effective_cycles", FIG_COUNT }, { "seed", FIG_COUNT },
	{ "ops", FIG_COUNT }, { "ops_all", FIG_COUNT }, { "acquisitions", FIG_COUNT },
	{ "contentions", FIG_COUNT }, { "acq_cycles_sum", FIG_COUNT }, { "acq_cycles_min", FIG_COUNT },
	{ "acq_cycles_max", FIG_COUNT }, { "acq_bin_p50", FIG_COUNT }, { "acq_bin_p99", FIG_COUNT },
	{ "contended_acq_cycles_sum", FIG_COUNT }, { "contended_acq_cycles_min", FIG_COUNT },
	{ "contended_acq_cycles_max", FIG_COUNT }, { "contended_acq_bin_p50", FIG_COUNT },
	{ "contended_acq_bin_p99", FIG_COUNT }, { "contended_acq_cycles_mean", FIG_AMOUNT },
	{ "ops_thread_min", FIG_COUNT }, { "ops_thread_max", FIG_COUNT },
	{ "csw_voluntary", FIG_COUNT }, { "csw_involuntary", FIG_COUNT },
	{ "timer_overhead_cycles", FIG_COUNT }, { "spin_cycles", FIG_COUNT }, { "futex_waits", FIG_COUNT },
	{ "futex_wakes", FIG_COUNT }, { "handoffs", FIG_COUNT }, { "checks_warned", FIG_COUNT },
	{ "files_created", FIG_COUNT }, { "files_removed", FIG_COUNT }, { "names_per_job", FIG_COUNT },
	{ "duration_s", FIG_AMOUNT }, { "warmup_s", FIG_AMOUNT }, { "measured_s", FIG_AMOUNT },
	{ "ops_per_s", FIG_AMOUNT }, { "acq_cycles_mean", FIG_AMOUNT }, { "ops_thread_cv", FIG_AMOUNT },
	{ "cpu_user_s", FIG_AMOUNT }, { "cpu_sys_s", FIG_AMOUNT }, { "cpu_us_per_op", FIG_AMOUNT },
	{ "op_cost_us_mean", FIG_AMOUNT }, { "op_cost_us_max", FIG_AMOUNT },
	{ "op_deviance_us_mean", FIG_AMOUNT }, { "cpu_utilisation_pct", FIG_AMOUNT },
	{ "jobs_per_min", FIG_AMOUNT }, { "job_ms_mean", FIG_AMOUNT }, { "acq_per_job", FIG_AMOUNT },
};

/* An acquisition-phase count: `acq_` and one lowercase word (acq_fast,
 * acq_spin, acq_nosleep, acq_sleep, and any phase a later version adds;
 * acq_cycles_sum or acq_per_job have a second `_`).  Where a lock records
 * phases they add up to `acquisitions`. */
static bool phase_key(const char *key)
{
	size_t n = strlen(key);

	if (n <= 4 || strncmp(key, "acq_", 4) != 0)
		return false;
	for (size_t i = 4; i < n; i++)
		if (key[i] < 'a' || key[i] > 'z')
			return false;
	return true;
}

/* The kind of a key's value, or -1: text, or a key this reader does not know. */
static int figure_kind(const char *key)
{
	if (phase_key(key) || strncmp(key, "spin_exit_", 10) == 0)
		return FIG_COUNT;
	for (size_t i = 0; i < sizeof(figure_kinds) / sizeof(figure_kinds[0]); i++)
		if (strcmp(figure_kinds[i].key, key) == 0)
			return (int)figure_kinds[i].kind;
	return -1;
}

/* A figure as written, and how far the writer's rounding may have moved it:
 * half a unit of its last printed digit (0 for whole numbers). */
struct figure {
	const char *text;
	double value, slack;
};

/* -?digits[.digits] (results/README.md: "Numbers are decimal"): no exponent,
 * no nan or inf, so the printed precision is plain to see. */
static bool decimal(const char *s, struct figure *out)
{
	size_t i = s[0] == '-', digits = 0, decimals = 0;
	bool point = false;

	for (; s[i] >= '0' && s[i] <= '9'; i++)
		digits++;
	if (s[i] == '.')
		for (point = true, i++; s[i] >= '0' && s[i] <= '9'; i++)
			decimals++;
	if (digits == 0 || (point && decimals == 0) || s[i] != '\0')
		return false;
	out->text = s;
	out->value = strtod(s, NULL);
	out->slack = decimals ? 0.5 * pow(10, -(double)decimals) : 0;
	return isfinite(out->value);
}

/* One key's value against its kind. */
static int check_kind(const char *key, const char *value, enum figure_kind kind, const char *what,
		      char *err, size_t errlen)
{
	struct figure f;
	uint64_t whole;

	if (!decimal(value, &f)) {
		snprintf(err, errlen, "%s: %s is '%s', not a decimal number", what, key, value);
		return -1;
	}
	if (kind == FIG_AMOUNT && value[0] == '-') {
		snprintf(err, errlen, "%s: %s is %s, below 0", what, key, value);
		return -1;
	}
	if (kind != FIG_AMOUNT && !parse_u64_span(value, strlen(value), &whole)) {
		snprintf(err, errlen, "%s: %s is %s, not a count (a whole number from 0 to 2^64-1)",
			 what, key, value);
		return -1;
	}
	if (kind == FIG_POSITIVE && whole == 0) {
		snprintf(err, errlen, "%s: %s is %s, must be at least 1", what, key, value);
		return -1;
	}
	return 0;
}

/* The figure of a key known to be a valid decimal; false when absent. */
static bool figure_of(const struct result_run *run, const char *key, struct figure *out)
{
	const char *v = result_get(run, key);

	return v && decimal(v, out);
}

/* lesser <= greater, where both are present. */
static int check_order(const struct result_run *run, const char *lesser, const char *greater,
		       const char *what, char *err, size_t errlen)
{
	struct figure a, b;

	if (!figure_of(run, lesser, &a) || !figure_of(run, greater, &b) || a.value <= b.value)
		return 0;
	snprintf(err, errlen, "%s: %s is %s, above %s %s", what, lesser, a.text, greater, b.text);
	return -1;
}

/* A figure the writer derives from others: key = scale * (num [+ num2]) / den,
 * 0 when den is 0. */
struct derived {
	const char *key, *num, *num2, *den;
	double scale;
	const char *scale_text;
};

static const struct derived derived_figures[] = {
	{ "ops_per_s", "ops", NULL, "measured_s", 1, NULL },
	{ "jobs_per_min", "ops", NULL, "measured_s", 60, "60" },
	{ "cpu_us_per_op", "cpu_user_s", "cpu_sys_s", "ops", 1e6, "1e6" },
	{ "acq_cycles_mean", "acq_cycles_sum", NULL, "acquisitions", 1, NULL },
	{ "contended_acq_cycles_mean", "contended_acq_cycles_sum", NULL, "contentions", 1, NULL },
};

/* Whether the written figure fits scale * num / den for some values of num and
 * den within their rounding (interval arithmetic; all figures are >= 0). */
static bool derived_fits(const struct figure *f, const struct figure *num, const struct figure *den,
			 double scale)
{
	const double eps = 1e-9; /* the writer's and this reader's double arithmetic */
	double num_lo = fmax(0, num->value - num->slack) * scale, num_hi = (num->value + num->slack) * scale;
	double den_lo = den->value - den->slack, den_hi = den->value + den->slack;
	double lo, hi;

	if (den_hi <= 0) {
		lo = hi = 0;
	} else if (den_lo <= 0) {
		lo = 0; /* den may have been 0 (figure 0) or tiny (any figure) */
		hi = INFINITY;
	} else {
		lo = num_lo / den_hi;
		hi = num_hi / den_lo;
	}
	return f->value + f->slack >= lo * (1 - eps) && f->value - f->slack <= hi * (1 + eps);
}

static int check_derived(const struct result_run *run, const struct derived *d, const char *what,
			 char *err, size_t errlen)
{
	struct figure f, num, num2 = { "0", 0, 0 }, den;
	char expr[160];

	if (!figure_of(run, d->key, &f) || !figure_of(run, d->num, &num) || !figure_of(run, d->den, &den) ||
	    (d->num2 && !figure_of(run, d->num2, &num2)))
		return 0;
	/* num + num2 as one figure: the slack of a sum is the sum of slacks */
	num.value += num2.value;
	num.slack += num2.slack;
	if (derived_fits(&f, &num, &den, d->scale))
		return 0;
	if (d->num2)
		snprintf(expr, sizeof(expr), "%s * (%s + %s) / %s is %s * (%s + %s) / %s", d->scale_text,
			 d->num, d->num2, d->den, d->scale_text, num.text, num2.text, den.text);
	else if (d->scale_text)
		snprintf(expr, sizeof(expr), "%s * %s / %s is %s * %s / %s", d->scale_text, d->num, d->den,
			 d->scale_text, num.text, den.text);
	else
		snprintf(expr, sizeof(expr), "%s / %s is %s / %s", d->num, d->den, num.text, den.text);
	snprintf(err, errlen, "%s: %s is %s, but %s = %.3f", what, d->key, f.text, expr,
		 den.value > 0 ? d->scale * num.value / den.value : 0);
	return -1;
}

/* Where a lock records phases (any phase count nonzero), they add up to
 * `acquisitions`. */
static int check_phases(const struct result_run *run, const char *what, char *err, size_t errlen)
{
	char terms[RESULT_VALUE_LEN * 2] = "";
	size_t used = 0;
	uint64_t sum = 0, acquisitions, count;
	const char *acq = result_get(run, "acquisitions");
	bool overflow = false;

	if (!acq || !parse_u64_span(acq, strlen(acq), &acquisitions))
		return 0;
	for (size_t i = 0; i < run->nkv; i++) {
		const char *v = run->kv[i].value;

		if (!phase_key(run->kv[i].key) || !parse_u64_span(v, strlen(v), &count))
			continue;
		overflow |= sum + count < sum;
		sum += count;
		if (used < sizeof(terms))
			used += (size_t)snprintf(terms + used, sizeof(terms) - used, "%s%s %s", used ? " + " : "",
						 run->kv[i].key, v);
	}
	if (sum == 0 || (sum == acquisitions && !overflow))
		return 0;
	snprintf(err, errlen, "%s: phase counts %s add up to %s%" PRIu64 ", but acquisitions is %s", what,
		 terms, overflow ? "more than " : "", overflow ? UINT64_MAX : sum, acq);
	return -1;
}

static int check_summary(const struct result_run *run, const char *what, char *err, size_t errlen)
{
	static const char *const orders[][2] = {
		{ "contentions", "acquisitions" }, { "ops", "ops_all" }, { "acq_cycles_min", "acq_cycles_max" },
		{ "ops_thread_min", "ops_thread_max" }, { "acq_bin_p50", "acq_bin_p99" },
		{ "contended_acq_cycles_min", "contended_acq_cycles_max" },
		{ "contended_acq_bin_p50", "contended_acq_bin_p99" },
		/* the contended acquisitions are some of all of them */
		{ "contended_acq_cycles_sum", "acq_cycles_sum" }, { "contended_acq_cycles_max", "acq_cycles_max" },
	};
	static const char *const bins[] = {
		"acq_bin_p50", "acq_bin_p99", "contended_acq_bin_p50", "contended_acq_bin_p99",
	};
	struct figure f;

	for (size_t i = 0; i < run->nkv; i++) {
		int kind = figure_kind(run->kv[i].key);

		if (kind >= 0 && check_kind(run->kv[i].key, run->kv[i].value, (enum figure_kind)kind, what,
					    err, errlen))
			return -1;
	}
	if (figure_of(run, "threads", &f) && f.value > RESULT_MAX_THREADS) {
		snprintf(err, errlen, "%s: threads is %s, above lockbench's limit %d", what, f.text,
			 RESULT_MAX_THREADS);
		return -1;
	}
	for (size_t i = 0; i < sizeof(bins) / sizeof(bins[0]); i++)
		if (figure_of(run, bins[i], &f) && f.value >= RESULT_BINS) {
			snprintf(err, errlen, "%s: %s is %s, beyond the histogram's bins 0..%d", what, bins[i],
				 f.text, RESULT_BINS - 1);
			return -1;
		}
	for (size_t i = 0; i < sizeof(orders) / sizeof(orders[0]); i++)
		if (check_order(run, orders[i][0], orders[i][1], what, err, errlen))
			return -1;
	for (size_t i = 0; i < sizeof(derived_figures) / sizeof(derived_figures[0]); i++)
		if (check_derived(run, &derived_figures[i], what, err, errlen))
			return -1;
	return check_phases(run, what, err, errlen);
}
