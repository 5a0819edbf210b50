/*
 * fileutil.c — the file workloads' private directory: made with mkdirat()
 * relative to --dir's descriptor, used only through its own, emptied and removed at the
 * end (the guarantees are listed in fileutil.h).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fileutil.h"
#include "../../common/safefile.h"

/* Subdirectory depth wdir_remove() descends to: the workloads make one level. */
#define REMOVE_DEPTH 2
/* Passes over a directory while entries keep disappearing under readdir. */
#define REMOVE_PASSES 8

int (*fileutil_fault)(enum fu_call call);

const char *wdir_parent(const struct bench_config *cfg, const char **which)
{
	const char *tmpdir = getenv("TMPDIR");

	if (cfg->dir) {
		*which = "--dir";
		return cfg->dir;
	}
	if (tmpdir && tmpdir[0]) {
		*which = "$TMPDIR";
		return tmpdir;
	}
	*which = "/tmp";
	return "/tmp";
}

/* The parent is the user's mistake (exit 2) when it is missing, not a
 * directory, or cannot be written; anything else is the run's. */
static int parent_errno_status(int err)
{
	switch (err) {
	case ENOENT: case ENOTDIR: case EACCES: case EPERM: case EROFS:
	case ENAMETOOLONG: case ELOOP:
		return WL_SETUP_USAGE;
	}
	return WL_SETUP_ERROR;
}

static void wdir_clear(struct wdir *d)
{
	memset(d, 0, sizeof(*d));
	d->parent_fd = -1;
	d->fd = -1;
}

/* Undoes a partial wdir_create(); the message is already in err. */
static int wdir_fail(struct wdir *d, int err)
{
	wdir_remove(d);
	return parent_errno_status(err);
}

/* "lockbench-<tag>-XXXXXX", whatever the tag: what wdir_create() makes. */
#define WDIR_PATTERN "lockbench-*-??????"

/* Tries for a fresh name this many times when another process has it. */
#define MKDIR_TRIES 100

int wdir_make_at(struct wdir *d, const char *parent, const char *prefix)
{
	int rc = -1;

	for (int i = 0; rc != 0 && i < MKDIR_TRIES; i++) {
		sf_random_name(d->name, sizeof(d->name), prefix);
		/* Relative to the descriptor: the directory is made in the parent
		 * that was opened, whatever its path names now. */
		rc = mkdirat(d->parent_fd, d->name, 0700);
		if (rc != 0 && errno != EEXIST)
			break;
	}
	if (rc != 0) {
		d->name[0] = '\0';
		return -1;
	}
	if (snprintf(d->path, sizeof(d->path), "%s/%s", parent, d->name) >= (int)sizeof(d->path))
		snprintf(d->path, sizeof(d->path), "%s", d->name);  /* for messages: its own name at least */
	/* O_NOFOLLOW: the name must still be the directory just made. */
	d->fd = openat(d->parent_fd, d->name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (d->fd < 0)
		return -1;
	/* Best effort: without it (a full disk), only the sweep after a
	 * SIGKILL misses the directory; the writes into it report the disk. */
	fu_owner_stamp(d->fd);
	return 0;
}

int wdir_create(struct wdir *d, const struct bench_config *cfg, const char *tag,
		char *err, size_t errlen)
{
	const char *which, *parent = wdir_parent(cfg, &which);
	char prefix[64];
	int e;

	wdir_clear(d);
	snprintf(prefix, sizeof(prefix), "lockbench-%.40s-", tag);
	if (strlen(parent) + strlen(prefix) + 8 >= sizeof(d->path)) {
		snprintf(err, errlen, "%s: '%s': %s", which, parent, strerror(ENAMETOOLONG));
		return wdir_fail(d, ENAMETOOLONG);
	}
	d->parent_fd = open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (d->parent_fd < 0) {
		e = errno;
		snprintf(err, errlen, "%s: '%s': %s", which, parent, strerror(e));
		return wdir_fail(d, e);
	}
	fu_sweep_orphans_at(d->parent_fd, WDIR_PATTERN);
	if (fu_injected(FU_MKDTEMP) || wdir_make_at(d, parent, prefix) != 0) {
		e = errno;
		if (d->name[0])
			snprintf(err, errlen, "%s: cannot open '%s': %s", which, d->path, strerror(e));
		else
			snprintf(err, errlen, "%s: cannot make a directory in '%s': %s", which, parent, strerror(e));
		return wdir_fail(d, e);
	}
	return WL_SETUP_OK;
}

static void remove_tree(int dirfd, int depth);

/* Removes one entry of dirfd: a file or link directly, a directory emptied first. */
static int remove_entry(int dirfd, const char *name, int depth)
{
	int sub;

	if (unlinkat(dirfd, name, 0) == 0)
		return 1;
	if ((errno != EISDIR && errno != EPERM) || depth <= 0)
		return 0;
	/* O_NOFOLLOW|O_DIRECTORY: a link is never followed out of our tree. */
	sub = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (sub < 0)
		return 0;
	remove_tree(sub, depth - 1);
	close(sub);
	return unlinkat(dirfd, name, AT_REMOVEDIR) == 0;
}

/* One readdir pass removing what it meets; returns how many it removed. */
static int remove_pass(DIR *dir, int dirfd, int depth)
{
	struct dirent *e;
	int removed = 0;

	rewinddir(dir);
	while ((e = readdir(dir)) != NULL)
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			removed += remove_entry(dirfd, e->d_name, depth);
	return removed;
}

/* Empties the directory open at dirfd (the descriptor stays the caller's). */
static void remove_tree(int dirfd, int depth)
{
	int fd = dup(dirfd);
	DIR *dir = fd >= 0 ? fdopendir(fd) : NULL;

	if (!dir) {
		if (fd >= 0)
			close(fd);
		return;
	}
	for (int pass = 0; pass < REMOVE_PASSES && remove_pass(dir, dirfd, depth) > 0; pass++)
		;
	closedir(dir);
}

void wdir_remove(struct wdir *d)
{
	if (d->fd >= 0) {
		remove_tree(d->fd, REMOVE_DEPTH);
		close(d->fd);
		d->fd = -1;
	}
	if (d->parent_fd >= 0 && d->name[0])
		unlinkat(d->parent_fd, d->name, AT_REMOVEDIR);
	d->name[0] = '\0';
	if (d->parent_fd >= 0)
		close(d->parent_fd);
	d->parent_fd = -1;
}

long wdir_entries(const struct wdir *d)
{
	int fd = dup(d->fd);
	DIR *dir = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *e;
	long n = 0;

	if (!dir) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	rewinddir(dir);
	while ((e = readdir(dir)) != NULL)
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..") && strcmp(e->d_name, FU_OWNER_FILE);
	closedir(dir);
	return n;
}

/* ---- owner stamps and orphans ---- */

/* Field 22 of /proc/PID/stat ("self" for ours): 0, or -1 with errno. */
static int proc_start_time(const char *pid, unsigned long long *start)
{
	char path[64], buf[1024], *p;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%s/stat", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0) {
		errno = n < 0 ? errno : EIO;
		return -1;
	}
	buf[n] = '\0';
	/* The command name, field 2, may hold spaces and parentheses: fields 3
	 * on follow the last ')'.  Field 22 is the 20th of them. */
	p = strrchr(buf, ')');
	if (!p || sscanf(p + 1, "%*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s "
			 "%*s %*s %llu", start) != 1) {
		errno = EIO;
		return -1;
	}
	return 0;
}

static void boot_id(char *buf, size_t len)
{
	int fd = open("/proc/sys/kernel/random/boot_id", O_RDONLY | O_CLOEXEC);
	ssize_t n = fd >= 0 ? read(fd, buf, len - 1) : -1;

	if (fd >= 0)
		close(fd);
	if (n <= 0) {
		snprintf(buf, len, "-");
		return;
	}
	buf[n] = '\0';
	buf[strcspn(buf, " \n")] = '\0';
}

int fu_owner_stamp(int dirfd)
{
	char line[160], boot[64];
	unsigned long long start;
	ssize_t written;
	int fd, n, e;

	if (proc_start_time("self", &start) != 0)
		start = 0;      /* no /proc: nobody will ever read the stamp as gone */
	boot_id(boot, sizeof(boot));
	n = snprintf(line, sizeof(line), "%ld %llu %s\n", (long)getpid(), start, boot);
	/* Not through the fault-injection seam: the tests' counts of the
	 * workloads' own calls stay as they were. */
	fd = openat(dirfd, FU_OWNER_FILE, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return -1;
	written = write(fd, line, (size_t)n);
	if (written != n) {
		e = written < 0 ? errno : ENOSPC;
		close(fd);
		unlinkat(dirfd, FU_OWNER_FILE, 0);
		errno = e;
		return -1;
	}
	return close(fd);
}

/* True only when the stamp's process is certainly gone. */
static bool owner_gone(const char *stamp)
{
	char pid[24], boot[64], now_boot[64];
	unsigned long long start, now_start;

	if (sscanf(stamp, "%23[0-9] %llu %63s", pid, &start, boot) != 3)
		return false;
	boot_id(now_boot, sizeof(now_boot));
	if (strcmp(boot, "-") && strcmp(now_boot, "-") && strcmp(boot, now_boot))
		return true;
	if (start == 0)
		return false;
	/* Our own /proc entry unreadable: no /proc, nothing can be told. */
	if (proc_start_time("self", &now_start) != 0)
		return false;
	if (proc_start_time(pid, &now_start) != 0)
		return errno == ENOENT;
	return now_start != start;
}

/* The stamp inside the directory open at fd: true when its owner is gone. */
static bool orphaned(int fd)
{
	char stamp[160];
	int sfd = openat(fd, FU_OWNER_FILE, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	ssize_t n = sfd >= 0 ? read(sfd, stamp, sizeof(stamp) - 1) : -1;

	if (sfd >= 0)
		close(sfd);
	if (n <= 0)
		return false;
	stamp[n] = '\0';
	return owner_gone(stamp);
}

/* One candidate: ours, a real directory, and orphaned; then removed. */
static int sweep_one(int parent_fd, const char *name)
{
	struct stat st, opened;
	int fd, removed = 0;

	if (fstatat(parent_fd, name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISDIR(st.st_mode) ||
	    st.st_uid != geteuid())
		return 0;
	fd = openat(parent_fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return 0;
	/* Still the directory looked at above, not one swapped in since. */
	if (fstat(fd, &opened) == 0 && opened.st_dev == st.st_dev && opened.st_ino == st.st_ino &&
	    orphaned(fd)) {
		remove_tree(fd, REMOVE_DEPTH);
		removed = unlinkat(parent_fd, name, AT_REMOVEDIR) == 0;
	}
	close(fd);
	return removed;
}

int fu_sweep_orphans_at(int parent_fd, const char *pattern)
{
	int fd = dup(parent_fd);
	DIR *dir = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *e;
	int removed = 0;

	if (!dir) {
		if (fd >= 0)
			close(fd);
		return 0;
	}
	rewinddir(dir);
	while ((e = readdir(dir)) != NULL)
		if (fnmatch(pattern, e->d_name, 0) == 0)
			removed += sweep_one(parent_fd, e->d_name);
	closedir(dir);
	return removed;
}

int fu_sweep_orphans(const char *parent, const char *pattern)
{
	int fd = open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int removed;

	if (fd < 0)
		return 0;
	removed = fu_sweep_orphans_at(fd, pattern);
	close(fd);
	return removed;
}

int fu_pwrite_all(int fd, const void *buf, size_t len, off_t off)
{
	const char *p = buf;

	if (fu_injected(FU_WRITE))
		return -1;
	while (len) {
		ssize_t n = pwrite(fd, p, len, off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0) {
			errno = ENOSPC;
			return -1;
		}
		p += n;
		off += n;
		len -= (size_t)n;
	}
	return 0;
}

unsigned int fu_cpus_allowed(void)
{
	cpu_set_t set;
	long online;

	if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 0)
		return (unsigned int)CPU_COUNT(&set);
	online = sysconf(_SC_NPROCESSORS_ONLN);
	return online > 0 ? (unsigned int)online : 1;
}
