/*
 * options.c — what the options' set() functions share, lock's and
 * workload's (lock.h): a value read whole, a bad name refused with the valid
 * ones.  Apart from registry.c, which refers to every lock: a lock that
 * called into it would make the two files call each other.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "lock.h"

bool lock_parse_u64(const char *text, uint64_t min, uint64_t max, uint64_t *out)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(text, &end, 10);
	if (text[0] < '0' || text[0] > '9' || *end != '\0' || errno || v < min || v > max)
		return false;
	*out = v;
	return true;
}

int option_u64(const char *text, uint64_t min, uint64_t max, uint64_t *out, char *err, size_t errlen)
{
	if (lock_parse_u64(text, min, max, out))
		return 0;
	snprintf(err, errlen, "'%s' is not an integer in [%" PRIu64 ", %" PRIu64 "]", text, min, max);
	return -1;
}

int lock_unknown_name(char *err, size_t errlen, const char *what, const char *name, size_t count,
		      const char *(*name_at)(size_t i))
{
	int n = snprintf(err, errlen, "%s '%s' (valid:", what, name);

	for (size_t i = 0; i < count && n > 0 && (size_t)n < errlen; i++)
		n += snprintf(err + n, errlen - (size_t)n, " %s", name_at(i));
	if (n > 0 && (size_t)n < errlen)
		snprintf(err + n, errlen - (size_t)n, ")");
	return -1;
}
