/* resultfile.c — see resultfile.h.  Formats: results/README.md. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

int result_parse_summary(struct result_run *run, const char *buf, size_t len, const char *what,
			 char *err, size_t errlen)
{
	size_t pos = 0, n, lineno = 0;
	const char *line, *fmt;

	run->nkv = 0;
	while (next_line(buf, len, &pos, &line, &n)) {
		const char *comma = memchr(line, ',', n);
		size_t klen = comma ? (size_t)(comma - line) : 0, vlen = comma ? n - klen - 1 : 0;

		if (++lineno == 1) {
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
	return 0;
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

int result_parse_hist(struct result_run *run, const char *buf, size_t len, const char *what,
		      char *err, size_t errlen)
{
	static const char header[] = "bin,lower_cycles,count,percent";
	size_t pos = 0, n;
	const char *line;
	unsigned int rows = 0;

	if (!next_line(buf, len, &pos, &line, &n) || n != sizeof(header) - 1 ||
	    memcmp(line, header, n) != 0) {
		snprintf(err, errlen, "%s: line 1: expected header '%s'", what, header);
		return -1;
	}
	run->hist_total = 0;
	while (next_line(buf, len, &pos, &line, &n)) {
		uint64_t count;

		if (rows >= RESULT_BINS || !parse_hist_row(line, n, rows, &count)) {
			snprintf(err, errlen, "%s: line %u: not row %u of %d 'bin,lower_cycles,count,percent'",
				 what, rows + 2, rows, RESULT_BINS);
			return -1;
		}
		if (run->hist_total + count < run->hist_total) {
			snprintf(err, errlen, "%s: counts overflow", what);
			return -1;
		}
		run->hist[rows++] = count;
		run->hist_total += count;
	}
	if (rows != RESULT_BINS) {
		snprintf(err, errlen, "%s: %u bins, expected %d", what, rows, RESULT_BINS);
		return -1;
	}
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

int result_load(struct result_run *run, const char *dir, char *err, size_t errlen)
{
	double acquisitions;

	memset(run, 0, sizeof(*run));
	if (strlen(dir) >= sizeof(run->dir)) {
		snprintf(err, errlen, "%.64s...: path too long", dir);
		return -1;
	}
	strcpy(run->dir, dir);
	if (load_one(run, dir, "summary.csv", result_parse_summary, err, errlen) ||
	    load_one(run, dir, "hist.csv", result_parse_hist, err, errlen) ||
	    result_number(run, "acquisitions", &acquisitions, err, errlen))
		return -1;
	if (acquisitions != (double)run->hist_total) {
		snprintf(err, errlen, "%s: hist.csv holds %llu acquisitions, summary.csv says %.0f",
			 dir, (unsigned long long)run->hist_total, acquisitions);
		return -1;
	}
	return 0;
}
