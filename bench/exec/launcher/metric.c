/*
 * metric.c — --metric NAME=REGEX: parsed, and each metric's first match
 * found in the program's output, within the scan's bounds (metric.h).
 * Without backreferences glibc's regexec is polynomial in the line; with each line
 * cut to 4096 bytes the worst of the nested-quantifier patterns tried
 * (`((a|aa)*)*((a|aa)*)*((a|aa)*)*c([0-9])`) took 0.055 s a line here, so
 * the time bound stops a scan within one such line of EXEC_METRIC_SCAN_S.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <time.h>

#include "launcher_internal.h"
#include "../../../common/text.h"

/* The end of the bracket expression that starts at P ('['): POSIX lets a
 * ']' first (after an optional '^') stand for itself, and [:class:],
 * [.coll.] and [=equiv=] hold ']'s of their own.  Inside it a backslash is
 * an ordinary character. */
static const char *bracket_end(const char *p)
{
	p++;
	if (*p == '^')
		p++;
	if (*p == ']')
		p++;
	for (; *p && *p != ']'; p++)
		if (*p == '[' && (p[1] == ':' || p[1] == '.' || p[1] == '=')) {
			const char *close = strchr(p + 2, p[1]);

			while (close && close[1] != ']')
				close = strchr(close + 1, p[1]);
			if (!close)
				return p + strlen(p);
			p = close + 1;
		}
	return p;
}

bool exec_metric_backref(const char *re)
{
	for (const char *p = re; *p; p++) {
		if (*p == '[') {
			p = bracket_end(p);
			if (!*p)
				return false;
		} else if (*p == '\\') {
			if (p[1] >= '1' && p[1] <= '9')
				return true;
			if (p[1])
				p++;
		}
	}
	return false;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void exec_metric_scan_file(struct exec_metric_scan *s, const char *file)
{
	if (s->start == 0)
		s->start = now_s();
	s->bytes = 0;
	s->file = file;
}

bool exec_metric_scan_line(struct exec_metric_scan *s, char *line, size_t n)
{
	if (s->out_of_time)
		return false;
	if (s->bytes >= EXEC_OUTPUT_MAX) {
		/* This file only: stderr is scanned after stdout's first 64 MiB. */
		if (!s->cut[0])
			snprintf(s->cut, sizeof(s->cut), "only the first %u MiB of %s were scanned",
				 EXEC_OUTPUT_MAX >> 20, s->file);
		return false;
	}
	if (now_s() - s->start > EXEC_METRIC_SCAN_S) {
		s->out_of_time = true;
		snprintf(s->cut, sizeof(s->cut), "the scan stopped after %.0f s, at byte %zu of %s",
			 EXEC_METRIC_SCAN_S, s->bytes, s->file);
		return false;
	}
	s->bytes += n;
	if (n > EXEC_METRIC_LINE_MAX)
		line[EXEC_METRIC_LINE_MAX] = '\0';
	return true;
}

/* ---- --metric parsed, and matched in the output ---- */

size_t exec_metric_name_len(const char *text)
{
	return strcspn(text, ":=");
}

/* NAME[:higher|:lower]=REGEX: NAME [a-z0-9_], REGEX an extended regex
 * with a group; higher is better unless it says lower. */
int exec_metric_parse(struct exec_metric *m, const char *text, char *err, size_t errlen)
{
	const char *eq = strchr(text, '=');
	size_t len = exec_metric_name_len(text);
	const char *better = text + len;
	char why[160];
	int rc;

	if (!eq || len == 0 || len >= sizeof(m->name) || strspn(text, "abcdefghijklmnopqrstuvwxyz0123456789_") != len ||
	    !(better == eq || (better + 6 == eq && !strncmp(better, ":lower", 6)) ||
	      (better + 7 == eq && !strncmp(better, ":higher", 7))))
		return fail(err, errlen, EXIT_USAGE, "--metric '%s': not NAME=REGEX or NAME:lower=REGEX (or :higher) "
			    "with NAME of [a-z0-9_], at most %zu characters", text, sizeof(m->name) - 1);
	memcpy(m->name, text, len);
	m->name[len] = '\0';
	m->lower = better[0] == ':' && better[1] == 'l';
	rc = regcomp(&m->re, eq + 1, REG_EXTENDED | REG_NEWLINE);
	if (rc) {
		regerror(rc, &m->re, why, sizeof(why));
		return fail(err, errlen, EXIT_USAGE, "--metric %s: bad regex '%s': %s", m->name, eq + 1, why);
	}
	m->compiled = true;
	if (m->re.re_nsub < 1)
		return fail(err, errlen, EXIT_USAGE, "--metric %s: the regex has no (group) to capture the value",
			    m->name);
	if (exec_metric_backref(eq + 1))
		return fail(err, errlen, EXIT_USAGE, "--metric %s: the regex has a backreference (\\N): its "
			    "match time has no bound", m->name);
	return 0;
}

static void metric_scan_file(struct exec_run *x, const char *name)
{
	FILE *f = exec_open_private(x, name);
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;

	if (!f)
		return;
	exec_metric_scan_file(&x->scan, name);
	while ((n = getline(&line, &cap, f)) > 0 && exec_metric_scan_line(&x->scan, line, (size_t)n)) {
		for (unsigned int i = 0; i < x->nmetrics; i++) {
			struct exec_metric *m = &x->metric[i];
			regmatch_t g[2];

			if (m->found || regexec(&m->re, line, 2, g, 0) != 0 || g[1].rm_so < 0)
				continue;
			snprintf(m->value, sizeof(m->value), "%.*s", (int)(g[1].rm_eo - g[1].rm_so), line + g[1].rm_so);
			m->found = true;
		}
	}
	free(line);
	fclose(f);
}

/* Each metric's first match, stdout first; a match that is not a number
 * is not a figure.  0, or EXIT_RUNTIME with the first missing one named. */
int exec_metrics_match(struct exec_run *x, char *err, size_t errlen)
{
	int status = 0;

	metric_scan_file(x, "program-stdout.txt");
	metric_scan_file(x, "program-stderr.txt");
	for (unsigned int i = 0; i < x->nmetrics; i++) {
		struct exec_metric *m = &x->metric[i];

		if (m->found) {
			if (!text_unsigned_decimal(m->value)) {
				if (!status)
					status = fail(err, errlen, EXIT_RUNTIME, "--metric %s: matched '%s', not a number "
						      "as lbcompare reads one (digits[.digits]: no sign, exponent, hex, "
						      "nan or inf)", m->name, m->value);
				m->found = false;
			}
		} else if (!status) {
			status = fail(err, errlen, EXIT_RUNTIME, "--metric %s: no match in the program's output%s%s%s",
				      m->name, x->scan.cut[0] ? " (" : "", x->scan.cut, x->scan.cut[0] ? ")" : "");
		}
	}
	return status;
}
