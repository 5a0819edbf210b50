/*
 * fileutil.h — the file-system side of the file workloads (creat, fserver):
 * a private working directory and the few system calls they make in it.
 *
 * Safety, in one place:
 * - every file lives in a fresh directory made under --dir (default
 *   $TMPDIR, else /tmp) with a random name, by mkdirat() relative to --dir's
 *   descriptor, opened once; every later call is relative to that
 *   directory's descriptor, so nothing outside it is ever created, opened for
 *   writing or unlinked, even if a path component at or above --dir is
 *   renamed or swapped for a link meanwhile;
 * - files are created with O_EXCL|O_NOFOLLOW and opened with O_NOFOLLOW;
 * - wdir_remove() empties the directory (one level of subdirectories, never
 *   following a link) and removes it: the workloads' teardown calls it on
 *   success, error and SIGINT/SIGTERM alike;
 * - a process that dies by SIGKILL or a crash cannot do that, so the
 *   directory carries an owner stamp, and the next run sweeps --dir for the
 *   directories of owners that are gone (orphans, below).
 *
 * The fu_*() wrappers are the calls that can fail for lack of space,
 * descriptors or permission (ENOSPC, EMFILE, EACCES...).  They pass through a
 * fault-injection seam so tests can make them fail on demand; lockbench never
 * sets it, and the seam costs one load and a predicted branch per call,
 * beside a system call.
 */
#ifndef LOCKBENCH_FILEUTIL_H
#define LOCKBENCH_FILEUTIL_H

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "workload.h"

/* The calls the seam can fail. */
enum fu_call {
	FU_MKDTEMP,  /* making the private directory (setup; mkdirat, as mkdtemp() would) */
	FU_CREATE,   /* creating a file */
	FU_OPEN,     /* opening an existing file */
	FU_WRITE,    /* writing a file */
	FU_SYNC,     /* fdatasync */
	FU_LINK,     /* making a hard link */
	FU_MKDIR,    /* making a subdirectory */
	FU_UNLINK,   /* removing a name */
	FU_NR
};

/*
 * Tests only: when set, called before each fu_*() call (from any worker
 * thread); a non-zero return is the errno that call fails with.  Set it
 * before bench_run() and clear it after: thread creation and join order the
 * accesses.
 */
extern int (*fileutil_fault)(enum fu_call call);

static inline int fu_injected(enum fu_call call)
{
	int err = fileutil_fault ? fileutil_fault(call) : 0;

	if (err)
		errno = err;
	return err;
}

/* The workload's private directory.  WDIR_FDS: the descriptors it holds. */
#define WDIR_FDS 2
struct wdir {
	int parent_fd;           /* --dir: the directory ours is removed from */
	int fd;                  /* ours: every call is relative to it */
	char name[NAME_MAX + 1]; /* ours, inside --dir */
	char path[PATH_MAX];     /* ours, whole: for messages */
};

/* The directory wdir_create() makes its directory in: cfg->dir, else
 * $TMPDIR, else /tmp; *which names where it came from ("--dir", "$TMPDIR",
 * "/tmp"), for messages. */
const char *wdir_parent(const struct bench_config *cfg, const char **which);

/*
 * Makes "lockbench-<tag>-XXXXXX" under cfg->dir (else $TMPDIR, else /tmp),
 * with an owner stamp in it if one can be written, after sweeping that
 * parent of orphans.
 * Returns 0; WL_SETUP_USAGE when that parent is missing, not a directory or
 * not writable; WL_SETUP_ERROR on other failures.  On failure a one-line
 * message is in err and nothing is left behind.
 */
int wdir_create(struct wdir *d, const struct bench_config *cfg, const char *tag,
		char *err, size_t errlen);
/* Makes PREFIX + 6 random characters ([A-Za-z0-9], mkdtemp()'s XXXXXX) with
 * mkdirat() in the directory open at d->parent_fd, PARENT its path (for
 * d->path), opens it into d->fd and stamps it as this process's: 0, or -1
 * with errno (d->name empty when nothing was made).  The workloads' and
 * -o's staging directory (outdir.c) are both made so. */
int wdir_make_at(struct wdir *d, const char *parent, const char *prefix);
/* Empties and removes the directory and closes its descriptors; harmless
 * after a failed wdir_create() or a previous wdir_remove(). */
void wdir_remove(struct wdir *d);
/* Entries in the directory, ".", ".." and the owner stamp aside; -1 with
 * errno on failure. */
long wdir_entries(const struct wdir *d);

/* Creates `name` for writing: O_EXCL|O_NOFOLLOW, mode 0600. */
static inline int fu_create(int dirfd, const char *name)
{
	if (fu_injected(FU_CREATE))
		return -1;
	return openat(dirfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
}

/* Opens an existing `name` (O_RDONLY, O_WRONLY or O_RDWR) without following a link. */
static inline int fu_open(int dirfd, const char *name, int access)
{
	if (fu_injected(FU_OPEN))
		return -1;
	return openat(dirfd, name, access | O_NOFOLLOW | O_CLOEXEC);
}

/* Writes all `len` bytes at `off`: 0, or -1 with errno (a write that makes no
 * progress is ENOSPC, what a full file system gives a regular file). */
int fu_pwrite_all(int fd, const void *buf, size_t len, off_t off);

static inline int fu_fdatasync(int fd)
{
	if (fu_injected(FU_SYNC))
		return -1;
	return fdatasync(fd);
}

static inline int fu_link(int dirfd, const char *from, const char *to)
{
	if (fu_injected(FU_LINK))
		return -1;
	return linkat(dirfd, from, dirfd, to, 0);
}

static inline int fu_mkdir(int dirfd, const char *name)
{
	if (fu_injected(FU_MKDIR))
		return -1;
	return mkdirat(dirfd, name, 0700);
}

/* flags: 0 for a file, AT_REMOVEDIR for a directory. */
static inline int fu_unlink(int dirfd, const char *name, int flags)
{
	if (fu_injected(FU_UNLINK))
		return -1;
	return unlinkat(dirfd, name, flags);
}

/*
 * Orphans.  A directory lockbench makes for a run (the workload's, and the
 * staging directory of -o) holds FU_OWNER_FILE, one line naming the process
 * that made it: "PID START BOOT", START its start time in clock ticks after
 * boot (/proc/PID/stat field 22: a pid reused later has another) and BOOT
 * the boot it ran in (/proc/sys/kernel/random/boot_id, "-" if unknown).
 */
#define FU_OWNER_FILE ".lockbench-owner"

/* Writes this process's stamp into the directory open at dirfd: 0, or -1
 * with errno. */
int fu_owner_stamp(int dirfd);
/*
 * Removes every directory of `parent` (open at parent_fd, or named by
 * parent) whose name matches the fnmatch() `pattern` and that is this user's,
 * not a link, and stamped by a process that is gone: dead, or its pid now
 * another process's, or of an earlier boot.  Never a directory without a
 * readable stamp, another user's, or a live process's.  Best effort: returns
 * how many it removed.
 */
int fu_sweep_orphans_at(int parent_fd, const char *pattern);
int fu_sweep_orphans(const char *parent, const char *pattern);

/* CPUs this process may run on: the denominator of "CPU utilisation". */
unsigned int fu_cpus_allowed(void);

#endif
