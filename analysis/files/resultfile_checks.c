/* resultfile_checks.c — checks.csv, the run's self-checks (result_parse_checks).
 * Format: results/README.md, "checks.csv". */
#include <stdio.h>
#include <string.h>

#include "resultfile_parse.h"

#define CHECKS_HEADER "check,status,detail"

/* "NAME,STATUS,DETAIL": a key-like name, a status word of letters, a
 * detail of whatever the check said (one line). */
static bool check_row(const char *line, size_t n)
{
	const char *comma = memchr(line, ',', n), *status, *end;

	if (!comma || !rf_valid_key(line, (size_t)(comma - line)))
		return false;
	status = comma + 1;
	end = memchr(status, ',', (size_t)(line + n - status));
	if (!end || end == status)
		return false;
	for (const char *c = status; c < end; c++)
		if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z')))
			return false;
	return true;
}

int result_parse_checks(struct result_run *run, const char *buf, size_t len, const char *what,
			char *err, size_t errlen)
{
	size_t pos = 0, n, lineno = 0;
	const char *line;

	while (rf_next_line(buf, len, &pos, &line, &n)) {
		if (rf_crlf(line, n, what, ++lineno, err, errlen))
			return -1;
		if (lineno == 1 && (n != sizeof(CHECKS_HEADER) - 1 || memcmp(line, CHECKS_HEADER, n) != 0)) {
			snprintf(err, errlen, "%s: line 1: expected header '%s'", what, CHECKS_HEADER);
			return -1;
		}
		if (lineno > 1 && !check_row(line, n)) {
			snprintf(err, errlen, "%s: line %zu: not 'check,status,detail'", what, lineno);
			return -1;
		}
	}
	if (lineno == 0) {
		snprintf(err, errlen, "%s: empty file", what);
		return -1;
	}
	if (rf_keep_lines(&run->checks, buf, len, true) != 0) {
		snprintf(err, errlen, "%s: out of memory", what);
		return -1;
	}
	run->has_checks = true;
	return 0;
}
