/*
 * outdir.c — a result directory appears whole or not at all: the files are
 * written into a staging directory beside the target, stamped as its
 * owner's until then, and renamed into place at the end; what a killed run
 * left is swept by the next.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fileutil.h"
#include "outdir.h"

static int mkdir_parents(const char *path)
{
	char buf[PATH_MAX];
	size_t len = strlen(path);

	if (len >= sizeof(buf))
		return -1;
	memcpy(buf, path, len + 1);
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0777) != 0 && errno != EEXIST)
			return -1;
		*p = '/';
	}
	return 0;
}

/* The staging directories beside `target` (its own and its siblings') that
 * a killed or crashed lockbench left: what the glob matches is all mkdtemp
 * ever makes from "<target>.partial-XXXXXX". */
static void sweep_partials(const char *target)
{
	char parent[PATH_MAX];
	const char *slash = strrchr(target, '/');

	if (!slash)
		snprintf(parent, sizeof(parent), ".");
	else if (slash == target)
		snprintf(parent, sizeof(parent), "/");
	else
		snprintf(parent, sizeof(parent), "%.*s", (int)(slash - target), target);
	fu_sweep_orphans(parent, "*.partial-??????");
}

/* The owner stamp (fileutil.h) that makes an abandoned staging directory
 * recognisable to the next run's sweep. */
static void stamp_staging(const char *staging)
{
	int fd = open(staging, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

	if (fd < 0)
		return;
	fu_owner_stamp(fd);
	close(fd);
}

int outdir_open(struct outdir *od, const char *target, char *err, size_t errlen)
{
	size_t len = strlen(target);

	memset(od, 0, sizeof(*od));
	while (len > 1 && target[len - 1] == '/')
		len--;
	if (len == 0 || len + 32 >= sizeof(od->target)) {
		snprintf(err, errlen, "--out: '%s' is not a usable directory name", target);
		return -1;
	}
	memcpy(od->target, target, len);
	snprintf(od->staging, sizeof(od->staging), "%s.partial-XXXXXX", od->target);
	if (mkdir_parents(od->staging) != 0) {
		snprintf(err, errlen, "--out: cannot create a directory beside '%s': %s", od->target,
			 strerror(errno));
		od->staging[0] = '\0';
		return -1;
	}
	sweep_partials(od->target);
	if (!mkdtemp(od->staging)) {
		snprintf(err, errlen, "--out: cannot create a directory beside '%s': %s", od->target,
			 strerror(errno));
		od->staging[0] = '\0';
		return -1;
	}
	/* Best effort: without it (a full disk), a staging directory that a
	 * SIGKILL leaves is never swept, and the result files' own writes
	 * report the disk. */
	stamp_staging(od->staging);
	return 0;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

void outdir_abort(struct outdir *od)
{
	if (od->staging[0])
		nftw(od->staging, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
	od->staging[0] = '\0';
}

int outdir_commit(struct outdir *od, char *err, size_t errlen)
{
	char stamp[sizeof(od->staging) + sizeof(FU_OWNER_FILE) + 1];

	/* The stamp marks a directory still being written: not a result file.
	 * Dying between here and the rename leaves a staging directory without
	 * it, which no sweep removes: a leftover, never a loss. */
	snprintf(stamp, sizeof(stamp), "%s/%s", od->staging, FU_OWNER_FILE);
	if (unlink(stamp) != 0 && errno != ENOENT) {
		snprintf(err, errlen, "cannot remove %s: %s", stamp, strerror(errno));
		return -1;
	}
	for (int n = 1; n < 1000; n++) {
		if (n == 1)
			snprintf(od->final, sizeof(od->final), "%s", od->target);
		else
			snprintf(od->final, sizeof(od->final), "%s-%d", od->target, n);
		/* rename() replaces an empty directory and refuses a non-empty one:
		 * a directory that holds results is never overwritten. */
		if (rename(od->staging, od->final) == 0) {
			od->staging[0] = '\0';
			return 0;
		}
		if (errno != ENOTEMPTY && errno != EEXIST && errno != ENOTDIR)
			break;
	}
	snprintf(err, errlen, "cannot move results into '%s': %s", od->target, strerror(errno));
	return -1;
}
