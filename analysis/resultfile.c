/* resultfile.c — see resultfile.h.  Formats: results/README.md. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../locks/spin_exit.h"
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

/* The 'key,value' header line (1), or a 'key,value' line after it: the
 * key's length and the value's span.  false: one line in err. */
static bool kv_line(const char *line, size_t n, size_t lineno, const char *what, size_t *klen,
		    const char **value, size_t *vlen, char *err, size_t errlen)
{
	const char *comma = memchr(line, ',', n);

	if (crlf(line, n, what, lineno, err, errlen))
		return false;
	if (lineno == 1) {
		if (n != 9 || memcmp(line, "key,value", 9) != 0) {
			snprintf(err, errlen, "%s: line 1: expected header 'key,value'", what);
			return false;
		}
		return true;
	}
	if (!comma) {
		snprintf(err, errlen, "%s: line %zu: not a 'key,value' line", what, lineno);
		return false;
	}
	*klen = (size_t)(comma - line);
	*value = comma + 1;
	*vlen = n - *klen - 1;
	if ( !valid_key(line, *klen) || !printable(*value, *vlen)) {
		snprintf(err, errlen, "%s: line %zu: not a 'key,value' line", what, lineno);
		return false;
	}
	return true;
}

int result_parse_summary(struct result_run *run, const char *buf, size_t len, const char *what,
			 char *err, size_t errlen)
{
	size_t pos = 0, n, lineno = 0, klen = 0, vlen = 0;
	const char *line, *fmt, *value = NULL;

	run->nkv = 0;
	while (next_line(buf, len, &pos, &line, &n)) {
		if (!kv_line(line, n, ++lineno, what, &klen, &value, &vlen, err, errlen))
			return -1;
		if (lineno == 1)
			continue;
		if (vlen >= RESULT_VALUE_LEN) {
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
		memcpy(run->kv[run->nkv].value, value, vlen);
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

/* Splits a CSV line into fields; how many (max + 1: more than max). */
static size_t split_fields(const char *line, size_t n, const char **f, size_t *flen, size_t max)
{
	size_t k = 0, start = 0;

	for (size_t i = 0; i <= n; i++)
		if (i == n || line[i] == ',') {
			if (k == max)
				return max + 1;
			f[k] = line + start;
			flen[k++] = i - start;
			start = i + 1;
		}
	return k;
}

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

	if (!parse_u64_span(f[0], flen[0], &bin) || bin != b)
		return false;
	if (!parse_u64_span(f[1], flen[1], &lower) || lower != (b ? UINT64_C(1) << b : 0))
		return false;
	return parse_u64_span(f[2], flen[2], count) && percent_shape(f[3], flen[3]);
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
	size_t flen[RESULT_KERNEL_TYPES], k = split_fields(s, n, f, flen, RESULT_KERNEL_TYPES);

	if (k == 0 || k > RESULT_KERNEL_TYPES)
		return false;
	for (size_t i = 0; i < k; i++) {
		if (!valid_key(f[i], flen[i]))
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

	if (split_fields(line, n, f, flen, want) != want || !parse_hist_fields(f, flen, b, count))
		return false;
	for (size_t i = HIST_FIELDS; i < want; i++) {
		if (!parse_u64_span(f[i], flen[i], &v) || sum + v < sum ||
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
	bool have_header = next_line(buf, len, &pos, &line, &n);

	if (have_header && crlf(line, n, what, 1, err, errlen))
		return -1;
	if (!have_header || !hist_header(line, n, cols)) {
		snprintf(err, errlen, "%s: line 1: expected header '%s%s'", what, HIST_HEADER,
			 cols ? ",TYPE,..." : "");
		return -1;
	}
	*total = 0;
	while (next_line(buf, len, &pos, &line, &n)) {
		uint64_t count;

		if (crlf(line, n, what, rows + 2, err, errlen))
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
/* ---- meta.csv: only who the host is ---- */

#define META_FORMAT "lockbench-meta-1"

/* The meta.csv keys lbcompare reads (results/README.md, "meta.csv"):
 * text ones land in struct result_host's fields, numbers in its counts. */
enum meta_field { META_FORMAT_KEY, META_HOSTNAME, META_KERNEL, META_CPU, META_PACKAGES, META_NUMA, META_CORES,
		  META_PUS, META_NR };
static const char *const meta_key[META_NR] = {
	[META_FORMAT_KEY] = "format", [META_HOSTNAME] = "hostname", [META_KERNEL] = "kernel_release",
	[META_CPU] = "cpu_brand", [META_PACKAGES] = "topology_packages", [META_NUMA] = "topology_numa_nodes",
	[META_CORES] = "topology_cores", [META_PUS] = "topology_pus_usable",
};

static int meta_field_of(const char *key, size_t klen)
{
	for (int f = 0; f < META_NR; f++)
		if (strlen(meta_key[f]) == klen && memcmp(meta_key[f], key, klen) == 0)
			return f;
	return -1;
}

/* A value of meta.csv as the host's text: trailing blanks dropped (libcpuid
 * pads brand strings); false when it does not fit. */
static bool meta_text(char *out, size_t outlen, const char *value, size_t vlen)
{
	while (vlen > 0 && value[vlen - 1] == ' ')
		vlen--;
	if (vlen == 0 || vlen >= outlen)
		return false;
	memcpy(out, value, vlen);
	out[vlen] = '\0';
	return true;
}

static bool meta_store(struct result_host *h, int field, const char *value, size_t vlen)
{
	unsigned int *count[META_NR] = {
		[META_PACKAGES] = &h->packages, [META_NUMA] = &h->numa_nodes,
		[META_CORES] = &h->cores, [META_PUS] = &h->pus,
	};
	uint64_t v;

	switch (field) {
	case META_FORMAT_KEY:
		return vlen == strlen(META_FORMAT) && memcmp(value, META_FORMAT, vlen) == 0;
	case META_HOSTNAME:
		return meta_text(h->name, sizeof(h->name), value, vlen);
	case META_KERNEL:
		return meta_text(h->kernel, sizeof(h->kernel), value, vlen);
	case META_CPU:
		return meta_text(h->cpu, sizeof(h->cpu), value, vlen);
	}
	if (!parse_u64_span(value, vlen, &v) || v > RESULT_MAX_THREADS)
		return false;
	*count[field] = (unsigned int)v;
	return true;
}

/* Every line a 'key,value' line, no key twice; the host's keys present and
 * well formed.  The other keys' values are not read (a long --pin order or
 * command line may exceed RESULT_VALUE_LEN). */
int result_parse_meta(struct result_run *run, const char *buf, size_t len, const char *what, char *err,
		      size_t errlen)
{
	size_t pos = 0, n, lineno = 0, klen = 0, vlen = 0, nkeys = 0;
	const char *line, *value = NULL;
	char keys[RESULT_MAX_KEYS][RESULT_KEY_LEN];
	bool seen[META_NR] = { false };

	run->host = (struct result_host){ 0 };
	while (next_line(buf, len, &pos, &line, &n)) {
		int field;

		if (!kv_line(line, n, ++lineno, what, &klen, &value, &vlen, err, errlen))
			return -1;
		if (lineno == 1)
			continue;
		for (size_t i = 0; i < nkeys; i++)
			if (strlen(keys[i]) == klen && memcmp(keys[i], line, klen) == 0) {
				snprintf(err, errlen, "%s: line %zu: key '%s' repeated", what, lineno, keys[i]);
				return -1;
			}
		if (nkeys >= RESULT_MAX_KEYS) {
			snprintf(err, errlen, "%s: more than %d keys", what, RESULT_MAX_KEYS);
			return -1;
		}
		memcpy(keys[nkeys], line, klen);
		keys[nkeys++][klen] = '\0';
		field = meta_field_of(line, klen);
		if (field < 0)
			continue;
		if (!meta_store(&run->host, field, value, vlen)) {
			snprintf(err, errlen, "%s: line %zu: bad %s", what, lineno, meta_key[field]);
			return -1;
		}
		seen[field] = true;
	}
	for (int f = 0; f < META_NR; f++)
		if (!seen[f]) {
			snprintf(err, errlen, lineno ? "%s: no %s" : "%s: empty file", what, meta_key[f]);
			return -1;
		}
	run->has_meta = true;
	return 0;
}

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

/* summary.csv's p50 and p99 keys (`stem`p50, `stem`p99: acq_bin_p50, ...)
 * name the bins where `file`'s quantiles fall, where the keys are present. */
static int check_quantiles(const struct result_run *run, const char *stem, const uint64_t *bins,
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
		if (v && (!parse_u64_span(v, strlen(v), &bin) || bin != want)) {
			snprintf(err, errlen, "%s/summary.csv: %s is %s, but %s puts the %s percentile in bin %u",
				 run->dir, key, v, file, quantiles[i].name, want);
			return -1;
		}
	}
	return 0;
}

/* The first summary.csv key starting with `prefix`, or NULL. */
static const char *key_with_prefix(const struct result_run *run, const char *prefix)
{
	for (size_t i = 0; i < run->nkv; i++)
		if (strncmp(run->kv[i].key, prefix, strlen(prefix)) == 0)
			return run->kv[i].key;
	return NULL;
}

/* hist_contended.csv and summary.csv's contended_* keys are written together
 * (a run from before either has neither); its total is `contentions`, and
 * each contended acquisition is also counted, in the same bin, in hist.csv. */
/* What a histogram's total must equal: its timed count where the run wrote
 * one (--timing sample:N or off time some or none of the acquisitions), else,
 * for runs written before --timing existed, the exact count. */
static const char *timed_key(const struct result_run *run, const char *timed, const char *exact)
{
	return result_get(run, timed) ? timed : exact;
}

static int check_contended(const struct result_run *run, char *err, size_t errlen)
{
	const char *count_key = timed_key(run, "timed_contentions", "contentions");
	const char *key = key_with_prefix(run, "contended_"), *cont = result_get(run, count_key);
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
	return check_quantiles(run, "contended_acq_bin_", run->hist_contended, run->hist_contended_total,
			       "hist_contended.csv", err, errlen);
}

static int check_kernel(const struct result_run *run, char *err, size_t errlen);

int result_check_hist(const struct result_run *run, char *err, size_t errlen)
{
	const char *count_key = timed_key(run, "timed_acquisitions", "acquisitions");
	const char *acq = result_get(run, count_key);
	uint64_t acquisitions;

	if (!acq || !parse_u64_span(acq, strlen(acq), &acquisitions)) {
		snprintf(err, errlen, "%s/summary.csv: no '%s' count", run->dir, count_key);
		return -1;
	}
	if (acquisitions != run->hist_total) {
		snprintf(err, errlen, "%s: hist.csv holds %" PRIu64 " acquisitions, summary.csv's %s is %s",
			 run->dir, run->hist_total, count_key, acq);
		return -1;
	}
	if (check_quantiles(run, "acq_bin_", run->hist, run->hist_total, "hist.csv", err, errlen))
		return -1;
	return check_contended(run, err, errlen) || check_kernel(run, err, errlen) ? -1 : 0;
}

/* Loads DIR/NAME where there is one: runs written before it existed (or,
 * for the kernel files, without --kernel-locks) have none, and load as they
 * did; result_check_hist then asks whether it should have been there. */
static int load_optional(struct result_run *run, const char *dir, const char *name,
			 int (*parse)(struct result_run *, const char *, size_t, const char *, char *, size_t),
			 char *err, size_t errlen)
{
	char path[1200];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (access(path, F_OK) != 0 && errno == ENOENT)
		return 0;
	return load_one(run, dir, name, parse, err, errlen);
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
	    load_optional(run, dir, "hist_contended.csv", result_parse_hist_contended, err, errlen) ||
	    load_optional(run, dir, "kernel-hist.csv", result_parse_kernel_hist, err, errlen) ||
	    load_optional(run, dir, "kernel-locks.csv", result_parse_kernel_locks, err, errlen) ||
	    load_optional(run, dir, "meta.csv", result_parse_meta, err, errlen))
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
	{ "timed_acquisitions", FIG_COUNT }, { "timed_contentions", FIG_COUNT },
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
	{ "kernel_contentions", FIG_COUNT }, { "kernel_wait_cycles_sum", FIG_COUNT },
	{ "kernel_wait_cycles_min", FIG_COUNT }, { "kernel_wait_cycles_max", FIG_COUNT },
	{ "kernel_wait_bin_p50", FIG_COUNT }, { "kernel_wait_bin_p99", FIG_COUNT },
	{ "kernel_untimed", FIG_COUNT }, { "kernel_unpaired", FIG_COUNT }, { "kernel_lock_pairs", FIG_COUNT },
	{ "kernel_wait_cycles_mean", FIG_AMOUNT },
};

/* Families of count keys: `spin_exit_<reason>` (locks/spin_exit.h), and the kernel lock
 * capture's per-type figures, one `<prefix><type>` per lock type. */
static const char *const count_prefixes[] = {
	SPIN_EXIT_KEY_PREFIX, "kernel_contentions_", "kernel_wait_cycles_sum_", "kernel_wait_cycles_max_",
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
	if (phase_key(key))
		return FIG_COUNT;
	for (size_t i = 0; i < sizeof(count_prefixes) / sizeof(count_prefixes[0]); i++)
		if (strncmp(key, count_prefixes[i], strlen(count_prefixes[i])) == 0)
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
	{ "kernel_wait_cycles_mean", "kernel_wait_cycles_sum", NULL, "kernel_contentions", 1, NULL },
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

/* The cycle figures cover the timed acquisitions (--timing): their means
 * divide by the timed counts, where the run wrote them. */
static const char *denominator(const struct result_run *run, const char *den)
{
	if (strcmp(den, "acquisitions") == 0)
		return timed_key(run, "timed_acquisitions", den);
	if (strcmp(den, "contentions") == 0)
		return timed_key(run, "timed_contentions", den);
	return den;
}

static int check_derived(const struct result_run *run, const struct derived *d, const char *what,
			 char *err, size_t errlen)
{
	struct figure f, num, num2 = { "0", 0, 0 }, den;
	char expr[160];
	const char *den_key = denominator(run, d->den);

	if (!figure_of(run, d->key, &f) || !figure_of(run, d->num, &num) || !figure_of(run, den_key, &den) ||
	    (d->num2 && !figure_of(run, d->num2, &num2)))
		return 0;
	/* num + num2 as one figure: the slack of a sum is the sum of slacks */
	num.value += num2.value;
	num.slack += num2.slack;
	if (derived_fits(&f, &num, &den, d->scale))
		return 0;
	if (d->num2)
		snprintf(expr, sizeof(expr), "%s * (%s + %s) / %s is %s * (%s + %s) / %s", d->scale_text,
			 d->num, d->num2, den_key, d->scale_text, num.text, num2.text, den.text);
	else if (d->scale_text)
		snprintf(expr, sizeof(expr), "%s * %s / %s is %s * %s / %s", d->scale_text, d->num, den_key,
			 d->scale_text, num.text, den.text);
	else
		snprintf(expr, sizeof(expr), "%s / %s is %s / %s", d->num, den_key, num.text, den.text);
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

static int check_kernel_types(const struct result_run *run, const char *what, char *err, size_t errlen);

/* `timing` (--timing) is all, off or sample:N (N >= 2); a run that wrote it
 * wrote its timed counts, which `all` makes equal to the exact ones and `off`
 * makes 0 (results/README.md).  Runs written before --timing have neither. */
static int check_timing(const struct result_run *run, const char *what, char *err, size_t errlen)
{
	static const char *const pairs[][2] = {
		{ "timed_acquisitions", "acquisitions" }, { "timed_contentions", "contentions" },
	};
	const char *mode = result_get(run, "timing");
	uint64_t n;

	if (!mode)
		return 0;
	if (strcmp(mode, "all") != 0 && strcmp(mode, "off") != 0 &&
	    (strncmp(mode, "sample:", 7) != 0 || !parse_u64_span(mode + 7, strlen(mode + 7), &n) || n < 2)) {
		snprintf(err, errlen, "%s: timing is '%s', not all, off or sample:N (N >= 2)", what, mode);
		return -1;
	}
	for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
		const char *timed = result_get(run, pairs[i][0]), *exact = result_get(run, pairs[i][1]);
		uint64_t t, e;

		/* Counts already: check_kind has seen them. */
		if (!timed || !parse_u64_span(timed, strlen(timed), &t)) {
			snprintf(err, errlen, "%s: timing is %s but there is no %s", what, mode, pairs[i][0]);
			return -1;
		}
		if (strcmp(mode, "all") == 0 && exact && parse_u64_span(exact, strlen(exact), &e) && t != e) {
			snprintf(err, errlen, "%s: timing is all, but %s is %s and %s %s", what, pairs[i][0], timed,
				 pairs[i][1], exact);
			return -1;
		}
		if (strcmp(mode, "off") == 0 && t != 0) {
			snprintf(err, errlen, "%s: timing is off, but %s is %s", what, pairs[i][0], timed);
			return -1;
		}
	}
	return 0;
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
		/* --timing: the timed acquisitions are some of all of them */
		{ "timed_acquisitions", "acquisitions" }, { "timed_contentions", "contentions" },
		{ "timed_contentions", "timed_acquisitions" },
		{ "kernel_wait_cycles_min", "kernel_wait_cycles_max" }, { "kernel_wait_bin_p50", "kernel_wait_bin_p99" },
		{ "kernel_wait_cycles_max", "kernel_wait_cycles_sum" },
	};
	static const char *const bins[] = {
		"acq_bin_p50", "acq_bin_p99", "contended_acq_bin_p50", "contended_acq_bin_p99",
		"kernel_wait_bin_p50", "kernel_wait_bin_p99",
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
	if (check_timing(run, what, err, errlen))
		return -1;
	for (size_t i = 0; i < sizeof(derived_figures) / sizeof(derived_figures[0]); i++)
		if (check_derived(run, &derived_figures[i], what, err, errlen))
			return -1;
	return check_phases(run, what, err, errlen) || check_kernel_types(run, what, err, errlen) ? -1 : 0;
}

/* ---- the kernel lock capture's files (lockbench --kernel-locks) ---- */

/* A family of per-type keys and the total it splits: counts and sums add up
 * to it, maxima reach it. */
static const struct {
	const char *prefix, *total;
	bool is_max;
} kernel_splits[] = {
	{ "kernel_contentions_", "kernel_contentions", false },
	{ "kernel_wait_cycles_sum_", "kernel_wait_cycles_sum", false },
	{ "kernel_wait_cycles_max_", "kernel_wait_cycles_max", true },
};

/* The per-type values of one family: their sum (or max); false when the
 * sum overflows.  *n counts them. */
static bool split_total(const struct result_run *run, const char *prefix, bool is_max, uint64_t *out,
			unsigned int *n)
{
	uint64_t v;

	*out = 0;
	*n = 0;
	for (size_t i = 0; i < run->nkv; i++) {
		const char *val = run->kv[i].value;

		if (strncmp(run->kv[i].key, prefix, strlen(prefix)) != 0 || !parse_u64_span(val, strlen(val), &v))
			continue;
		if (!is_max && *out + v < v)
			return false;
		*out = is_max ? (v > *out ? v : *out) : *out + v;
		(*n)++;
	}
	return true;
}

static int check_kernel_types(const struct result_run *run, const char *what, char *err, size_t errlen)
{
	for (size_t i = 0; i < sizeof(kernel_splits) / sizeof(kernel_splits[0]); i++) {
		const char *tv = result_get(run, kernel_splits[i].total);
		uint64_t total, parts;
		unsigned int n;
		bool fits = split_total(run, kernel_splits[i].prefix, kernel_splits[i].is_max, &parts, &n);

		if (n == 0 && !tv)
			continue;
		if (!tv || !parse_u64_span(tv, strlen(tv), &total) || !fits || parts != total) {
			snprintf(err, errlen, "%s: the %u %s* keys %s %s%" PRIu64 ", but %s is %s", what, n,
				 kernel_splits[i].prefix, kernel_splits[i].is_max ? "reach" : "add up to",
				 fits ? "" : "more than ", fits ? parts : UINT64_MAX, kernel_splits[i].total,
				 tv ? tv : "missing");
			return -1;
		}
	}
	return 0;
}

#define KERNEL_LOCKS_HEADER "rank,lock,type,count,wait_cycles_sum,wait_cycles_mean,wait_cycles_max,caller,stack"
enum { KL_RANK, KL_LOCK, KL_TYPE, KL_COUNT, KL_SUM, KL_MEAN, KL_MAX, KL_CALLER, KL_STACK, KL_FIELDS };

/* "0x" and 1 to 16 lowercase hex digits: a kernel address. */
static bool hex_address(const char *s, size_t n)
{
	if (n < 3 || n > 18 || s[0] != '0' || s[1] != 'x')
		return false;
	for (size_t i = 2; i < n; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return false;
	return true;
}

/* A numeric field as a NUL-terminated figure; false when not a decimal. */
static bool field_figure(const char *s, size_t n, char *buf, size_t len, struct figure *f)
{
	if (n >= len)
		return false;
	memcpy(buf, s, n);
	buf[n] = '\0';
	return decimal(buf, f);
}

/* Rank, address, type, the counts (count >= 1, max <= sum) and the mean
 * they give, of one row; false when any is off. */
static bool kernel_row_fields(const char *const *f, const size_t *flen, unsigned int rank,
			      struct result_kernel_row *row)
{
	char text[3][32];
	struct figure sum, count, mean;
	uint64_t r;

	if (!parse_u64_span(f[KL_RANK], flen[KL_RANK], &r) || r != rank || !hex_address(f[KL_LOCK], flen[KL_LOCK]) ||
	    !valid_key(f[KL_TYPE], flen[KL_TYPE]) || !parse_u64_span(f[KL_COUNT], flen[KL_COUNT], &row->count) ||
	    !parse_u64_span(f[KL_SUM], flen[KL_SUM], &row->sum) || !parse_u64_span(f[KL_MAX], flen[KL_MAX], &row->max) ||
	    row->count == 0 || row->max > row->sum || flen[KL_CALLER] == 0 || flen[KL_STACK] == 0)
		return false;
	if (!field_figure(f[KL_SUM], flen[KL_SUM], text[0], sizeof(text[0]), &sum) ||
	    !field_figure(f[KL_COUNT], flen[KL_COUNT], text[1], sizeof(text[1]), &count) ||
	    !field_figure(f[KL_MEAN], flen[KL_MEAN], text[2], sizeof(text[2]), &mean) ||
	    !derived_fits(&mean, &sum, &count, 1))
		return false;
	snprintf(row->lock, sizeof(row->lock), "%.*s", (int)flen[KL_LOCK], f[KL_LOCK]);
	snprintf(row->type, sizeof(row->type), "%.*s", (int)flen[KL_TYPE], f[KL_TYPE]);
	snprintf(row->caller, sizeof(row->caller), "%.*s", (int)flen[KL_CALLER], f[KL_CALLER]);
	return true;
}

int result_parse_kernel_locks(struct result_run *run, const char *buf, size_t len, const char *what,
			      char *err, size_t errlen)
{
	size_t pos = 0, n;
	const char *line, *f[KL_FIELDS];
	size_t flen[KL_FIELDS];
	unsigned int rows = 0;
	bool have_header = next_line(buf, len, &pos, &line, &n);

	if (have_header && crlf(line, n, what, 1, err, errlen))
		return -1;
	if (!have_header || n != sizeof(KERNEL_LOCKS_HEADER) - 1 || memcmp(line, KERNEL_LOCKS_HEADER, n) != 0) {
		snprintf(err, errlen, "%s: line 1: expected header '%s'", what, KERNEL_LOCKS_HEADER);
		return -1;
	}
	while (next_line(buf, len, &pos, &line, &n)) {
		struct result_kernel_row *row = &run->kernel_row[rows];

		if (crlf(line, n, what, rows + 2, err, errlen))
			return -1;
		if (rows >= RESULT_KERNEL_ROWS || !printable(line, n) || split_fields(line, n, f, flen, KL_FIELDS) != KL_FIELDS ||
		    !kernel_row_fields(f, flen, rows + 1, row)) {
			snprintf(err, errlen, "%s: line %u: not row %u of at most %d '%s' (count >= 1, max <= sum, "
				 "mean = sum / count)", what, rows + 2, rows + 1, RESULT_KERNEL_ROWS, KERNEL_LOCKS_HEADER);
			return -1;
		}
		if (rows > 0 && row->sum > run->kernel_row[rows - 1].sum) {
			snprintf(err, errlen, "%s: line %u: wait_cycles_sum %" PRIu64 " above the row before's %" PRIu64
				 " (rows go by total wait, longest first)", what, rows + 2, row->sum,
				 run->kernel_row[rows - 1].sum);
			return -1;
		}
		rows++;
	}
	run->kernel_nrows = rows;
	run->has_kernel_locks = true;
	return 0;
}

/* summary.csv's figure `<prefix><type>` as a count; false when absent. */
static bool type_figure(const struct result_run *run, const char *prefix, const char *type, uint64_t *out)
{
	char key[RESULT_KEY_LEN * 2];
	const char *v;

	snprintf(key, sizeof(key), "%s%s", prefix, type);
	v = result_get(run, key);
	return v && parse_u64_span(v, strlen(v), out);
}

/* kernel-hist.csv against summary.csv: its total is kernel_contentions, each
 * type column's total that type's kernel_contentions_<type>, and its
 * quantiles the kernel_wait_bin_ keys. */
static int check_kernel_hist(const struct result_run *run, uint64_t contentions, char *err, size_t errlen)
{
	uint64_t v;

	if (run->kernel_total != contentions) {
		snprintf(err, errlen, "%s: kernel-hist.csv holds %" PRIu64 " waits, summary.csv's kernel_contentions is %"
			 PRIu64, run->dir, run->kernel_total, contentions);
		return -1;
	}
	for (unsigned int t = 0; t < run->kernel_ntypes; t++)
		if (!type_figure(run, "kernel_contentions_", run->kernel_type[t], &v) || v != run->kernel_type_total[t]) {
			snprintf(err, errlen, "%s: kernel-hist.csv's %s column holds %" PRIu64
				 ", but summary.csv has no kernel_contentions_%s of that value", run->dir,
				 run->kernel_type[t], run->kernel_type_total[t], run->kernel_type[t]);
			return -1;
		}
	return check_quantiles(run, "kernel_wait_bin_", run->kernel_hist, run->kernel_total, "kernel-hist.csv",
			       err, errlen);
}

/* Each kernel-locks.csv row is some of its type's waits: count, sum and max
 * within the type's, and the rows' counts within kernel_contentions. */
static int check_kernel_rows(const struct result_run *run, uint64_t contentions, char *err, size_t errlen)
{
	uint64_t seen = 0, count, sum, max;

	for (unsigned int i = 0; i < run->kernel_nrows; i++) {
		const struct result_kernel_row *r = &run->kernel_row[i];

		if (!type_figure(run, "kernel_contentions_", r->type, &count) ||
		    !type_figure(run, "kernel_wait_cycles_sum_", r->type, &sum) ||
		    !type_figure(run, "kernel_wait_cycles_max_", r->type, &max) ||
		    r->count > count || r->sum > sum || r->max > max) {
			snprintf(err, errlen, "%s: kernel-locks.csv rank %u (%s: %" PRIu64 " waits, %" PRIu64 " cycles, max %"
				 PRIu64 ") is more than summary.csv's %s figures", run->dir, i + 1, r->type, r->count,
				 r->sum, r->max, r->type);
			return -1;
		}
		seen += r->count;
	}
	if (seen > contentions) {
		snprintf(err, errlen, "%s: kernel-locks.csv's rows hold %" PRIu64 " waits, summary.csv's kernel_contentions "
			 "only %" PRIu64, run->dir, seen, contentions);
		return -1;
	}
	return 0;
}

/* The kernel files and summary.csv's kernel_* keys come together (a run
 * without --kernel-locks, or written before it, has none of them). */
static int check_kernel(const struct result_run *run, char *err, size_t errlen)
{
	const char *key = key_with_prefix(run, "kernel_"), *cont = result_get(run, "kernel_contentions");
	uint64_t contentions;

	if (!key && !run->has_kernel && !run->has_kernel_locks)
		return 0;
	if (!cont || !run->has_kernel || !run->has_kernel_locks || !parse_u64_span(cont, strlen(cont), &contentions)) {
		snprintf(err, errlen, "%s: kernel-hist.csv, kernel-locks.csv and summary.csv's kernel_contentions come "
			 "together, but this run has %s%s%s", run->dir, run->has_kernel ? "kernel-hist.csv " : "",
			 run->has_kernel_locks ? "kernel-locks.csv " : "", cont ? "kernel_contentions" :
			 key ? key : "");
		return -1;
	}
	return check_kernel_hist(run, contentions, err, errlen) || check_kernel_rows(run, contentions, err, errlen)
		? -1 : 0;
}
