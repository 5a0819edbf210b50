/*
 * exec_metric.c — the bounds of --metric's scan (exec_metric.h).  Without
 * backreferences glibc's regexec is polynomial in the line; with each line
 * cut to 4096 bytes the worst of the nested-quantifier patterns tried
 * (`((a|aa)*)*((a|aa)*)*((a|aa)*)*c([0-9])`) took 0.055 s a line here, so
 * the time bound stops a scan within one such line of EXEC_METRIC_SCAN_S.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "exec_metric.h"

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
