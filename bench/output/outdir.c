/*
 * outdir.c — a result directory appears whole or not at all: the files are
 * written into a staging directory beside the target (made relative to the
 * target's parent's descriptor, as the workloads' own is: fileutil.h),
 * stamped as its owner's until then, and renamed into place at the end;
 * what a killed run left is swept by the next.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "outdir.h"
#include "../workloads/fileutil.h"

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

/* The directory that holds the target, and the target's name in it. */
static int split_target(struct outdir *od, char *parent, size_t len)
{
	const char *slash = strrchr(od->target, '/');
	const char *base = slash ? slash + 1 : od->target;

	if (!slash)
		snprintf(parent, len, ".");
	else if (slash == od->target)
		snprintf(parent, len, "/");
	else
		snprintf(parent, len, "%.*s", (int)(slash - od->target), od->target);
	/* Room for ".partial-XXXXXX" and "-999" after it. */
	if (!*base || strcmp(base, ".") == 0 || strcmp(base, "..") == 0 || strlen(base) + 16 > NAME_MAX)
		return -1;
	snprintf(od->base, sizeof(od->base), "%s", base);
	return 0;
}

int outdir_open(struct outdir *od, const char *target, char *err, size_t errlen)
{
	size_t len = strlen(target);
	char parent[PATH_MAX], prefix[NAME_MAX + 1];
	struct wdir *st = &od->staging;

	memset(od, 0, sizeof(*od));
	st->parent_fd = st->fd = od->files.fd = -1;
	while (len > 1 && target[len - 1] == '/')
		len--;
	if (len == 0 || len + 32 >= sizeof(od->target)) {
		snprintf(err, errlen, "--out: '%s' is not a usable directory name", target);
		errno = EINVAL;
		return -1;
	}
	memcpy(od->target, target, len);
	if (split_target(od, parent, sizeof(parent)) != 0) {
		snprintf(err, errlen, "--out: '%s' is not a usable directory name", target);
		errno = EINVAL;
		return -1;
	}
	if (mkdir_parents(od->target) != 0 ||
	    (st->parent_fd = open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0) {
		int e = errno;

		snprintf(err, errlen, "--out: cannot create a directory beside '%s': %s", od->target, strerror(e));
		errno = e;
		return -1;
	}
	/* What a killed or crashed lockbench left beside it (its own and its
	 * siblings'): the pattern matches all that wdir_make_at() makes here. */
	fu_sweep_orphans_at(st->parent_fd, "*.partial-??????");
	snprintf(prefix, sizeof(prefix), "%.*s.partial-", NAME_MAX - 16, od->base);
	if (wdir_make_at(st, parent, prefix) != 0) {
		int e = errno;

		snprintf(err, errlen, "--out: cannot create a directory beside '%s': %s", od->target, strerror(e));
		wdir_remove(st);
		errno = e;  /* the caller tells a full disk from a bad name by it */
		return -1;
	}
	/* The result files are written through safefile.h, relative to it. */
	od->files.fd = st->fd;
	snprintf(od->files.path, sizeof(od->files.path), "%s", st->path);
	return 0;
}

void outdir_abort(struct outdir *od)
{
	wdir_remove(&od->staging);
	od->files.fd = -1;
}

int outdir_commit(struct outdir *od, char *err, size_t errlen)
{
	struct wdir *st = &od->staging;
	char name[NAME_MAX + 1];

	/* The stamp marks a directory still being written: not a result file.
	 * Dying between here and the rename leaves a staging directory without
	 * it, which no sweep removes: a leftover, never a loss. */
	if (unlinkat(st->fd, FU_OWNER_FILE, 0) != 0 && errno != ENOENT) {
		snprintf(err, errlen, "cannot remove %s/%s: %s", st->path, FU_OWNER_FILE, strerror(errno));
		return -1;
	}
	for (int n = 1; n < 1000; n++) {
		if (n == 1)
			snprintf(name, sizeof(name), "%s", od->base);
		else
			snprintf(name, sizeof(name), "%.*s-%d", NAME_MAX - 16, od->base, n);
		/* rename() replaces an empty directory and refuses a non-empty one:
		 * a directory that holds results is never overwritten. */
		if (renameat(st->parent_fd, st->name, st->parent_fd, name) == 0) {
			snprintf(od->final, sizeof(od->final), "%s%s", od->target, name + strlen(od->base));
			/* Committed: outdir_abort() only closes what is open. */
			close(st->fd);
			st->fd = od->files.fd = -1;
			st->name[0] = '\0';
			return 0;
		}
		if (errno != ENOTEMPTY && errno != EEXIST && errno != ENOTDIR)
			break;
	}
	snprintf(err, errlen, "cannot move results into '%s': %s", od->target, strerror(errno));
	return -1;
}
