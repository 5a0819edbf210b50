/*
 * options.c — what the options (common/option.h) share, lock's and
 * workload's (lock.h): finding one by its key, and for their set()
 * functions a value read whole, a bad name refused with the valid ones.  Apart from registry.c, which refers to every lock: a lock that
 * called into it would make the two files call each other.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lock.h"

const struct option_def *option_find(const struct option_def *opts, const char *key, size_t klen)
{
	for (const struct option_def *o = opts; o && o->key; o++)
		if (strlen(o->key) == klen && memcmp(o->key, key, klen) == 0)
			return o;
	return NULL;
}

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

int option_pick(const char *text, size_t count, const char *(*name_at)(size_t i), const char *what,
		char *err, size_t errlen)
{
	for (size_t i = 0; i < count; i++)
		if (strcmp(text, name_at(i)) == 0)
			return (int)i;
	return lock_unknown_name(err, errlen, what, text, count, name_at);
}

/* Levenshtein distance, letters compared without case: how far a mistyped
 * name is from a valid one.  Names are short; longer ones count as far. */
static size_t name_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), row[65];

	if (la > 64 || lb > 64)
		return SIZE_MAX;
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t diag = row[0];

		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t up = row[j];
			size_t sub = diag + (tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]));

			row[j] = sub < up + 1 ? sub : up + 1;
			if (row[j - 1] + 1 < row[j])
				row[j] = row[j - 1] + 1;
			diag = up;
		}
	}
	return row[lb];
}

/* The valid name nearest NAME, when it is near enough to be what was meant:
 * at most two edits, and fewer than NAME has letters (no guess for '' or 'x'). */
static const char *nearest_name(const char *name, size_t count, const char *(*name_at)(size_t i))
{
	const char *best = NULL;
	size_t best_d = 3;

	for (size_t i = 0; i < count; i++) {
		size_t d = name_distance(name, name_at(i));

		if (d < best_d && d < strlen(name)) {
			best = name_at(i);
			best_d = d;
		}
	}
	return best;
}

int lock_unknown_name(char *err, size_t errlen, const char *what, const char *name, size_t count,
		      const char *(*name_at)(size_t i))
{
	const char *near = nearest_name(name, count, name_at);
	int n = snprintf(err, errlen, "%s '%s'", what, name);

	if (near && n > 0 && (size_t)n < errlen)
		n += snprintf(err + n, errlen - (size_t)n, ": did you mean '%s'?", near);
	if (n > 0 && (size_t)n < errlen)
		n += snprintf(err + n, errlen - (size_t)n, " (valid:");
	for (size_t i = 0; i < count && n > 0 && (size_t)n < errlen; i++)
		n += snprintf(err + n, errlen - (size_t)n, " %s", name_at(i));
	if (n > 0 && (size_t)n < errlen)
		snprintf(err + n, errlen - (size_t)n, ")");
	return -1;
}
