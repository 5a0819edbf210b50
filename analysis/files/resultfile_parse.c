/* resultfile_parse.c — the reading every result file kind shares: lines,
 * 'key,value' lines, CSV fields, counts, and figures as written with the
 * rounding they carry (resultfile_parse.h).  Formats: results/README.md. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "resultfile_parse.h"
#include "../../common/text.h"

/* Splits buf into lines one at a time (line, linelen), advancing pos. */
bool rf_next_line(const char *buf, size_t len, size_t *pos, const char **line, size_t *linelen)
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

bool rf_valid_key(const char *s, size_t n)
{
	if (n == 0 || n >= RESULT_KEY_LEN)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '_'))
			return false;
	return true;
}

bool rf_printable(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			return false;
	return true;
}

/* A line that ends in CR: the file went through a DOS/Windows tool.  Said as
 * such, since "expected header" would hide why an intact-looking file fails. */
bool rf_crlf(const char *line, size_t n, const char *what, size_t lineno, char *err, size_t errlen)
{
	if (n == 0 || line[n - 1] != '\r')
		return false;
	snprintf(err, errlen, "%s: line %zu: ends in CRLF (DOS line ends); result files use LF only",
		 what, lineno);
	return true;
}

/* The 'key,value' header line (1), or a 'key,value' line after it: the
 * key's length and the value's span.  false: one line in err. */
bool rf_kv_line(const char *line, size_t n, size_t lineno, const char *what, size_t *klen,
		    const char **value, size_t *vlen, char *err, size_t errlen)
{
	const char *comma = memchr(line, ',', n);

	if (rf_crlf(line, n, what, lineno, err, errlen))
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
	if ( !rf_valid_key(line, *klen) || !rf_printable(*value, *vlen)) {
		snprintf(err, errlen, "%s: line %zu: not a 'key,value' line", what, lineno);
		return false;
	}
	return true;
}

/* A whole unsigned decimal number filling exactly [s, s+n). */
bool rf_parse_u64_span(const char *s, size_t n, uint64_t *out)
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
size_t rf_split_fields(const char *line, size_t n, const char **f, size_t *flen, size_t max)
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

/* -?digits[.digits] (results/README.md: "Numbers are decimal"): no exponent,
 * no nan or inf, so the printed precision is plain to see. */
bool rf_decimal(const char *s, struct figure *out)
{
	const char *point = strchr(s, '.');
	size_t decimals = point ? strlen(point + 1) : 0;

	if (!text_unsigned_decimal(s + (s[0] == '-')))
		return false;
	out->text = s;
	out->value = strtod(s, NULL);
	out->slack = decimals ? 0.5 * pow(10, -(double)decimals) : 0;
	return isfinite(out->value);
}

/* Whether the written figure fits scale * num / den for some values of num and
 * den within their rounding (interval arithmetic; all figures are >= 0). */
bool rf_derived_fits(const struct figure *f, const struct figure *num, const struct figure *den,
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

int rf_keep_lines(struct result_lines *l, const char *buf, size_t len, bool skip_header)
{
	size_t pos = 0, n, lines = 0;
	const char *line;

	rf_lines_free(l);
	while (rf_next_line(buf, len, &pos, &line, &n))
		lines++;
	l->text = malloc(len + 1);
	l->pair = calloc(lines + 1, sizeof(*l->pair));
	if (!l->text || !l->pair) {
		rf_lines_free(l);
		return -1;
	}
	memcpy(l->text, buf, len);
	l->text[len] = '\0';
	for (pos = 0; rf_next_line(l->text, len, &pos, &line, &n);) {
		char *key = (char *)line, *comma = memchr(key, ',', n);

		key[n] = '\0';  /* its '\n', or the text's end */
		if (skip_header) {
			skip_header = false;
			continue;
		}
		if (comma)
			*comma = '\0';
		l->pair[l->n++] = (struct result_pair){ key, comma ? comma + 1 : "" };
	}
	return 0;
}

void rf_lines_free(struct result_lines *l)
{
	free(l->text);
	free(l->pair);
	*l = (struct result_lines){ 0 };
}
