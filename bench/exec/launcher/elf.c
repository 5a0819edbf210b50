/*
 * elf.c — the library `lockbench --exec` preloads (launcher_internal.h):
 * $LOCKBENCH_EXEC_SO, else the one this build made, and checked against
 * this lockbench's own sanitizer by reading its ELF's DT_NEEDED and this
 * process's loaded objects.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "launcher_internal.h"
#include "../../platform/elfdeps.h"

#ifndef LOCKBENCH_EXEC_SO
#define LOCKBENCH_EXEC_SO "build/liblockbench-exec.so"
#endif

static const char *const sanitizer_libs[SAN_NONE] = { "libasan.so", "libtsan.so" };
static const char *const sanitizer_names[SAN_NONE] = { "AddressSanitizer", "ThreadSanitizer" };

/* Which sanitizer's runtime a library's file name (a DT_NEEDED soname, or
 * a path's last part) is. */
static enum sanitizer sanitizer_of(const char *file)
{
	for (int i = 0; i < SAN_NONE; i++)
		if (!strncmp(file, sanitizer_libs[i], strlen(sanitizer_libs[i])))
			return (enum sanitizer)i;
	return SAN_NONE;
}

static int find_sanitizer(struct dl_phdr_info *info, size_t size, void *data)
{
	const char *base = info->dlpi_name ? strrchr(info->dlpi_name, '/') : NULL;

	(void)size;
	if (base && sanitizer_of(base + 1) != SAN_NONE) {
		snprintf(data, PATH_MAX, "%s", info->dlpi_name);
		return 1;
	}
	return 0;
}

/* This process's sanitizer, its runtime's path in path[PATH_MAX] ("" for
 * none): the first loaded object that is one. */
enum sanitizer exec_own_sanitizer(char *path)
{
	path[0] = '\0';
	dl_iterate_phdr(find_sanitizer, path);
	return *path ? sanitizer_of(strrchr(path, '/') + 1) : SAN_NONE;
}

/* elf_needed_each()'s fn: 1 + the sanitizer a needed name is, else 0. */
static int needs_sanitizer(const char *needed, void *ctx)
{
	enum sanitizer san = sanitizer_of(needed);

	(void)ctx;
	return san == SAN_NONE ? 0 : 1 + (int)san;
}

/* The library must be built for this lockbench's sanitizer, if any: a
 * sanitizer build of it needs the runtime loaded before libc, which only
 * a launcher running that runtime puts there (start.c's child_env()), and
 * a plain build under ThreadSanitizer's runtime would leave every lock's
 * atomics unseen by it.  (A plain library under AddressSanitizer works.) */
static int exec_so_matches(const char *so, char *err, size_t errlen)
{
	char own[PATH_MAX], why[PATH_MAX + 200];
	int needed;
	enum sanitizer lib_san, own_san = exec_own_sanitizer(own);

	needed = elf_needed_each(so, needs_sanitizer, NULL, why, sizeof(why));
	if (needed < 0)
		return fail(err, errlen, EXIT_USAGE, "--exec: the preloaded library %s", why);
	lib_san = needed ? (enum sanitizer)(needed - 1) : SAN_NONE;
	if (lib_san != SAN_NONE && lib_san != own_san)
		return fail(err, errlen, EXIT_USAGE, "--exec: the preloaded library %s is a %s build and this "
			    "lockbench is not: run the lockbench of its build", so, sanitizer_names[lib_san]);
	if (own_san == SAN_TSAN && lib_san != own_san)
		return fail(err, errlen, EXIT_USAGE, "--exec: this lockbench is a %s build and the preloaded "
			    "library %s is not: give it the library of its build ($LOCKBENCH_EXEC_SO)",
			    sanitizer_names[own_san], so);
	return 0;
}

/* The library: $LOCKBENCH_EXEC_SO, else the one this build made. */
const char *exec_so(char *err, size_t errlen)
{
	const char *so = getenv("LOCKBENCH_EXEC_SO");

	if (!so || !*so)
		so = LOCKBENCH_EXEC_SO;
	for (const char *c = so; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f) {
			/* The path is in every message below: one line each. */
			fail(err, errlen, EXIT_USAGE, "--exec: $LOCKBENCH_EXEC_SO holds a control character");
			return NULL;
		}
	if (access(so, R_OK) != 0) {
		fail(err, errlen, EXIT_USAGE, "--exec: the preloaded library %s: %s (make builds it; "
		     "$LOCKBENCH_EXEC_SO names another)", so, strerror(errno));
		return NULL;
	}
	return exec_so_matches(so, err, errlen) ? NULL : so;
}
