/*
 * fuzz_elf.c — libFuzzer target for the launcher's reader of a shared
 * object's needed libraries (bench/platform/elfdeps.c): the input is the
 * file, given by its /proc/self/fd path.  Every rejection must be one line;
 * every name handed out must be a string shorter than the reader's bound.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../../bench/platform/elfdeps.h"

static int each(const char *needed, void *ctx)
{
	if (strlen(needed) >= 256)
		abort();
	++*(int *)ctx;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int fd = memfd_create("fuzz-elf", MFD_CLOEXEC), names = 0;
	char path[64], err[1024] = "";

	if (fd < 0)
		return 0;
	if (write(fd, data, size) == (ssize_t)size) {
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		if (elf_needed_each(path, each, &names, err, sizeof(err)) < 0 && (err[0] == '\0' || strchr(err, '\n')))
			abort();
	}
	close(fd);
	return 0;
}
