/*
 * private.c — the private directory of an --exec run (launcher_internal.h):
 * stamped and swept as the file workloads' is (fileutil.h), with an inner
 * one, writable by all, for the library's files; each of its files opened
 * as a regular file only; and whether its file system is full.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "launcher_internal.h"

/* A regular file of the private directory, read: never a link or a FIFO
 * the program may have left there. */
FILE *exec_open_private(const struct exec_run *x, const char *name)
{
	int fd = openat(x->dir_fd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	FILE *f;

	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || !(f = fdopen(fd, "r"))) {
		close(fd);
		return NULL;
	}
	return f;
}

/* The private directory's file system has no block (or no inode) left for
 * an unprivileged writer: the program's output was cut where it filled, and
 * a process's figures were not written.  A file system that counts no
 * blocks or inodes (btrfs's inodes) is never called full. */
bool exec_private_full(const struct exec_run *x)
{
	struct statvfs sv;

	return fstatvfs(x->dir_fd, &sv) == 0 &&
	       ((sv.f_blocks && !sv.f_bavail) || (sv.f_files && !sv.f_favail));
}

/*
 * The private directory goes under --dir, else $TMPDIR, else /tmp, as the
 * file workloads' does (wdir_create(): stamped with this process, stale ones
 * swept first), so a caller (a test) can keep it apart and see it gone.  Its
 * path is made absolute: the program may chdir().  Inside, the library's
 * directory has a name no one can guess (128 random bits) and is writable by
 * all (sticky): a process that drops its privileges (a daemon's -u nobody)
 * still writes its figures there; the outer one, 0711, cannot be listed.
 */
int exec_private_dir(struct exec_run *x, char *err, size_t errlen)
{
	char why[PATH_MAX + 200], inner[48];
	unsigned char bits[16];
	int st = wdir_create(&x->wd, x->cfg, "exec", why, sizeof(why));

	if (st != WL_SETUP_OK)
		return fail(err, errlen, st == WL_SETUP_USAGE ? EXIT_USAGE : EXIT_RUNTIME, "--exec: private directory: %s",
			    why);
	if (!realpath(x->wd.path, x->outer))
		return fail(err, errlen, EXIT_RUNTIME, "--exec: private directory %s: %s", x->wd.path, strerror(errno));
	if (getrandom(bits, sizeof(bits), 0) != (ssize_t)sizeof(bits))
		return fail(err, errlen, EXIT_RUNTIME, "--exec: getrandom: %s", strerror(errno));
	snprintf(inner, sizeof(inner), "figures-");
	for (size_t i = 0; i < sizeof(bits); i++)
		snprintf(inner + 8 + 2 * i, sizeof(inner) - 8 - 2 * i, "%02x", bits[i]);
	if (snprintf(x->dir, sizeof(x->dir), "%s/%s", x->outer, inner) >= (int)sizeof(x->dir))
		return fail(err, errlen, EXIT_USAGE, "--exec: private directory %s: %s (the library takes %zu bytes)",
			    x->outer, strerror(ENAMETOOLONG), sizeof(x->dir) - 1);
	/* Modes set by fchmod: the umask would take the others' bits. */
	if (fchmod(x->wd.fd, 0711) != 0 || mkdirat(x->wd.fd, inner, 0700) != 0 ||
	    fchmodat(x->wd.fd, inner, 01733, 0) != 0 ||
	    (x->dir_fd = openat(x->wd.fd, inner, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0)
		return fail(err, errlen, EXIT_RUNTIME, "--exec: private directory %s: %s", x->dir, strerror(errno));
	return 0;
}
