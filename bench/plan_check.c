/* plan_check.c — `lockbench --plan check OPTION VALUE`: run-all's --locks,
 * --workloads and --duration, checked against the registries themselves
 * (locks/locks.def, workloads.def, programs.def), and --threads against -t's
 * own range (MAX_THREADS), in run-all's words. */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan.h"
#include "core/config.h"
#include "exec/launcher/programs.h"
#include "workloads/workload.h"
#include "../locks/lock.h"

#define NAME_CHARS "abcdefghijklmnopqrstuvwxyz0123456789-"

/* What --workloads takes: the workloads, then the programs. */
static const char *workload_or_program_at(size_t i)
{
	if (i < workload_registry_len)
		return workload_registry[i]->name;
	return exec_program_registry[i - workload_registry_len].name;
}

/* One line on stderr, run-all's refusal; EXIT_USAGE. */
static int refuse(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int refuse(const char *fmt, ...)
{
	va_list ap;

	fputs("lockbench: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return EXIT_USAGE;
}

/* WORD (len bytes) one of the count names of name_at, else run-all's one
 * line: the nearest name (lock_unknown_name's rule) and the valid ones. */
static int check_name(const char *option, const char *word, size_t len, size_t count,
		      const char *(*name_at)(size_t i))
{
	size_t size = 2 * len + 4096;
	char what[64], *name, *err;
	int rc;

	for (size_t i = 0; i < count; i++)
		if (strlen(name_at(i)) == len && !strncmp(name_at(i), word, len))
			return EXIT_OK;
	name = strndup(word, len), err = malloc(size);
	if (!name || !err)
		rc = refuse("%s: out of memory", option);
	else {
		snprintf(what, sizeof(what), "%s: unknown name", option);
		lock_unknown_name(err, size, what, name, count, name_at);
		rc = refuse("%s", err);
	}
	free(name);
	free(err);
	return rc;
}

/* A comma list of names: not empty, no empty item, only [a-z0-9-]. */
static bool comma_list(const char *v)
{
	size_t n = strlen(v);

	return n && strspn(v, NAME_CHARS ",") == n && v[0] != ',' && v[n - 1] != ',' && !strstr(v, ",,");
}

static int check_names(const char *option, const char *v, size_t count, const char *(*name_at)(size_t i))
{
	if (!comma_list(v))
		return refuse("%s: '%s' is not a comma-separated list of names", option, v);
	for (const char *w = v; *w; w += *w == ',') {
		size_t len = strcspn(w, ",");
		int rc = check_name(option, w, len, count, name_at);

		if (rc != EXIT_OK)
			return rc;
		w += len;
	}
	return EXIT_OK;
}

/* SECONDS as lockbench's -d takes it: decimal, no sign or exponent (a plan
 * line is plain words), 0.01 to 86400, at most 16 characters. */
static bool seconds_ok(const char *s, size_t len)
{
	char copy[17];
	double v;

	if (!len || len > 16 || s[0] == '.' || s[len - 1] == '.')
		return false;
	for (size_t i = 0, dots = 0; i < len; i++)
		if ((s[i] == '.' && ++dots > 1) || (s[i] != '.' && (s[i] < '0' || s[i] > '9')))
			return false;
	memcpy(copy, s, len);
	copy[len] = '\0';
	v = strtod(copy, NULL);
	return v >= 0.01 && v <= 86400;
}

/* The comma- or newline-separated items of v that begin "NAME=". */
static size_t items_of(const char *v, const char *name, size_t len)
{
	size_t n = 0;

	for (const char *p = v; p; p = strpbrk(p, ",\n") ? strpbrk(p, ",\n") + 1 : NULL)
		n += !strncmp(p, name, len) && p[len] == '=';
	return n;
}

/* One --duration item (len bytes at item): WORKLOAD=SECONDS, or SECONDS for
 * every workload (*every counts them: one at most). */
static int check_duration_item(const char *v, const char *item, size_t len, unsigned int *every)
{
	const char *eq = memchr(item, '=', len);
	size_t nlen = eq ? (size_t)(eq - item) : 0;
	int rc;

	if (!eq && !seconds_ok(item, len))
		return refuse("--duration: '%.*s' is not a number of seconds from 0.01 to 86400", (int)len, item);
	if (!eq && ++*every > 1)
		return refuse("--duration: two durations for every workload ('%s'); one, and WORKLOAD=SECONDS for others",
			      v);
	if (!eq)
		return EXIT_OK;
	if (!nlen || strspn(item, NAME_CHARS) < nlen)
		return refuse("--duration: '%.*s' is not WORKLOAD=SECONDS", (int)len, item);
	rc = check_name("--duration", item, nlen, workload_registry_len + exec_program_registry_len,
			workload_or_program_at);
	if (rc != EXIT_OK)
		return rc;
	if (!seconds_ok(eq + 1, len - nlen - 1))
		return refuse("--duration: '%.*s' (for %.*s) is not a number of seconds from 0.01 to 86400",
			      (int)(len - nlen - 1), eq + 1, (int)nlen, item);
	if (items_of(v, item, nlen) != 1)
		return refuse("--duration: %.*s is given twice", (int)nlen, item);
	return EXIT_OK;
}

/* --duration: SECONDS, WORKLOAD=SECONDS, comma-separated (blanks part
 * items too, as run-all's word splitting did). */
static int check_duration(const char *v)
{
	size_t n = strlen(v);
	unsigned int every = 0;

	if (!n || v[0] == ',' || v[n - 1] == ',' || strstr(v, ",,"))
		return refuse("--duration: '%s' is not SECONDS or a comma-separated list of WORKLOAD=SECONDS", v);
	for (const char *p = v + strspn(v, ", \t\n"); *p; p += strspn(p, ", \t\n")) {
		size_t len = strcspn(p, ", \t\n");
		int rc = check_duration_item(v, p, len, &every);

		if (rc != EXIT_OK)
			return rc;
		p += len;
	}
	return EXIT_OK;
}

/* --threads: a comma-separated list of whole counts from 1 to -t's largest,
 * each written as run-all's whole() takes it (no sign, no leading zero). */
static int check_threads(const char *v)
{
	char max[24];
	size_t n = strlen(v);

	if (v[strspn(v, "0123456789,")] || strstr(v, ",,") || *v == ',' || (n && v[n - 1] == ','))
		return refuse("--threads: '%s' is not a comma-separated list of thread counts", v);
	snprintf(max, sizeof(max), "%u", MAX_THREADS);
	for (const char *t = v; *t; t += strcspn(t, ",") + (t[strcspn(t, ",")] == ',')) {
		size_t len = strcspn(t, ",");
		char word[24];
		uint64_t count;

		snprintf(word, sizeof(word), "%.*s", (int)(len < sizeof(word) - 1 ? len : sizeof(word) - 1), t);
		if (len >= sizeof(word) || *t == '0' || !lock_parse_u64(word, 1, MAX_THREADS, &count))
			return refuse("--threads: '%.*s' is not a thread count: whole numbers from 1 to %s, comma-separated",
				      (int)len, t, max);
	}
	return EXIT_OK;
}

int plan_check_main(char **argv)
{
	if (!strcmp(argv[0], "--locks"))
		return check_names("--locks", argv[1], lock_registry_len, lock_registry_name);
	if (!strcmp(argv[0], "--workloads"))
		return check_names("--workloads", argv[1], workload_registry_len + exec_program_registry_len,
				   workload_or_program_at);
	if (!strcmp(argv[0], "--duration"))
		return check_duration(argv[1]);
	if (!strcmp(argv[0], "--threads"))
		return check_threads(argv[1]);
	fprintf(stderr, "lockbench: --plan check: '%s' is not --locks, --workloads, --duration or --threads\n", argv[0]);
	return EXIT_USAGE;
}
