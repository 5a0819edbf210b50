/*
 * safefile.c — reading and writing files below a directory without
 * following a link, blocking on a FIFO or reading without bound
 * (safefile.h says what is guaranteed).
 */
#define _GNU_SOURCE
#include "safefile.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

/* Why a name could not be used, in words: the errno of a refusal. */
static const char *why(int e)
{
	switch (e) {
	case ELOOP:
		return "a symbolic link: not followed";
	case ENOTDIR:
		return "not a directory";
	default:
		return strerror(e);
	}
}

/* "DIR/REL" into out, for messages: a longer one is cut short. */
static void join(char *out, size_t len, const char *dir, const char *rel)
{
	if (snprintf(out, len, "%s%s%s", dir, dir[0] ? "/" : "", rel) >= (int)len && len > 4)
		memcpy(out + len - 4, "...", 4);
}

/* "DIR/REL: what" as the one-line message; errno E is kept for the caller. */
static int fail(int e, const struct sf_dir *dir, const char *rel, const char *what, char *err, size_t errlen)
{
	snprintf(err, errlen, "%s%s%s: %s", dir->path, dir->path[0] ? "/" : "", rel, what ? what : why(e));
	errno = e;
	return -1;
}

/* A file type, for the message that refuses it. */
static const char *kind_of(mode_t mode)
{
	if (S_ISDIR(mode))
		return "a directory";
	if (S_ISFIFO(mode))
		return "a FIFO";
	if (S_ISSOCK(mode))
		return "a socket";
	if (S_ISCHR(mode) || S_ISBLK(mode))
		return "a device";
	if (S_ISLNK(mode))
		return "a symbolic link";
	return "not a regular file";
}

/* NAME under FD as a directory, never through a link: its descriptor, or
 * -1 with errno (ELOOP for a link: O_DIRECTORY says ENOTDIR first). */
static int open_subdir(int fd, const char *name)
{
	int sub = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;

	if (sub < 0 && errno == ENOTDIR && fstatat(fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode))
		errno = ELOOP;
	return sub;
}

/* The directory that holds REL's last component, opened component by
 * component under DIR with O_NOFOLLOW: its descriptor (the caller's to
 * close), the component in last; or -1 with the message. */
static int walk(const struct sf_dir *dir, const char *rel, char *last, size_t lastlen, char *err, size_t errlen)
{
	const char *p = rel, *slash;
	int fd = dup(dir->fd);

	if (fd < 0)
		return fail(errno, dir, rel, NULL, err, errlen);
	if (rel[0] == '/' || rel[0] == '\0') {
		close(fd);
		return fail(EINVAL, dir, rel, "not a name below the directory", err, errlen);
	}
	for (; (slash = strchr(p, '/')) != NULL; p = slash + 1) {
		char comp[NAME_MAX + 1];
		size_t n = (size_t)(slash - p);
		int next;

		if (n == 0 || (n == 1 && p[0] == '.'))
			continue;
		if (n > NAME_MAX || (n == 2 && p[0] == '.' && p[1] == '.')) {
			close(fd);
			return fail(n > NAME_MAX ? ENAMETOOLONG : EINVAL, dir, rel,
				    n > NAME_MAX ? NULL : "'..' in it: refused", err, errlen);
		}
		memcpy(comp, p, n);
		comp[n] = '\0';
		next = open_subdir(fd, comp);
		if (next < 0) {
			char what[NAME_MAX + 64];
			int e = errno;

			close(fd);
			snprintf(what, sizeof(what), "'%s': %s", comp, why(e));
			return fail(e, dir, rel, what, err, errlen);
		}
		close(fd);
		fd = next;
	}
	if (strlen(p) >= lastlen || strcmp(p, "..") == 0 || p[0] == '\0') {
		close(fd);
		return fail(p[0] && strcmp(p, "..") ? ENAMETOOLONG : EINVAL, dir, rel,
			    p[0] && strcmp(p, "..") ? NULL : "not a file name", err, errlen);
	}
	snprintf(last, lastlen, "%s", p);
	return fd;
}

static void set_path(struct sf_dir *d, const char *path, size_t len)
{
	snprintf(d->path, sizeof(d->path), "%.*s", (int)len, path);
}

int sf_dir_open(struct sf_dir *d, const char *path, char *err, size_t errlen)
{
	size_t len = strlen(path);
	char buf[PATH_MAX];

	while (len > 1 && path[len - 1] == '/')  /* "dir/" in messages: "dir/file" */
		len--;
	d->fd = -1;
	set_path(d, path, len);
	if (len >= sizeof(buf)) {
		snprintf(err, errlen, "%.64s...: %s", path, strerror(ENAMETOOLONG));
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(buf, path, len);
	buf[len] = '\0';
	d->fd = open(buf, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (d->fd < 0) {
		int e = errno;

		snprintf(err, errlen, "%s: %s", d->path, why(e));
		errno = e;
		return -1;
	}
	return 0;
}

int sf_dir_at(struct sf_dir *d, const struct sf_dir *parent, const char *rel, char *err, size_t errlen)
{
	char last[NAME_MAX + 1];
	int at = walk(parent, rel, last, sizeof(last), err, errlen);

	d->fd = -1;
	join(d->path, sizeof(d->path), parent->path, rel);
	if (at < 0)
		return -1;
	d->fd = strcmp(last, ".") == 0 ? dup(at) : open_subdir(at, last);
	if (d->fd < 0) {
		int e = errno;

		close(at);
		return fail(e, parent, rel, NULL, err, errlen);
	}
	close(at);
	return 0;
}

void sf_dir_close(struct sf_dir *d)
{
	if (d->fd >= 0)
		close(d->fd);
	d->fd = -1;
}

int sf_open_read(const struct sf_dir *dir, const char *rel, off_t max, char *err, size_t errlen)
{
	char last[NAME_MAX + 1], what[128];
	struct stat st, opened;
	int at = walk(dir, rel, last, sizeof(last), err, errlen), fd;

	if (at < 0)
		return -1;
	/* Looked at before it is opened: opening a FIFO or a device can block
	 * or do something; neither is ever opened. */
	if (fstatat(at, last, &st, AT_SYMLINK_NOFOLLOW) != 0) {
		close(at);
		return fail(errno, dir, rel, NULL, err, errlen);
	}
	if (!S_ISREG(st.st_mode)) {
		close(at);
		snprintf(what, sizeof(what), "%s, not a regular file: not read", kind_of(st.st_mode));
		return fail(S_ISLNK(st.st_mode) ? ELOOP : S_ISDIR(st.st_mode) ? EISDIR : EINVAL, dir, rel,
			    S_ISLNK(st.st_mode) ? NULL : what, err, errlen);
	}
	/* O_NONBLOCK|O_NOFOLLOW: whatever took its place since, it cannot block or be followed. */
	fd = openat(at, last, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	close(at);
	if (fd < 0)
		return fail(errno, dir, rel, NULL, err, errlen);
	if (fstat(fd, &opened) != 0 || !S_ISREG(opened.st_mode) || opened.st_ino != st.st_ino ||
	    opened.st_dev != st.st_dev) {
		close(fd);
		return fail(EAGAIN, dir, rel, "replaced while it was opened: not read", err, errlen);
	}
	if (opened.st_size > max) {
		close(fd);
		snprintf(what, sizeof(what), "too large: %lld bytes (at most %lld)", (long long)opened.st_size,
			 (long long)max);
		return fail(EFBIG, dir, rel, what, err, errlen);
	}
	return fd;
}

FILE *sf_fopen_read(const struct sf_dir *dir, const char *rel, off_t max, char *err, size_t errlen)
{
	int fd = sf_open_read(dir, rel, max, err, errlen);
	FILE *f = fd >= 0 ? fdopen(fd, "r") : NULL;

	if (fd >= 0 && !f) {
		int e = errno;

		close(fd);
		fail(e, dir, rel, NULL, err, errlen);
	}
	return f;
}

char *sf_read_all(const struct sf_dir *dir, const char *rel, size_t max, size_t *len, char *err, size_t errlen)
{
	int fd = sf_open_read(dir, rel, (off_t)max, err, errlen);
	size_t cap, n = 0;
	struct stat st;
	char *buf;

	if (fd < 0)
		return NULL;
	/* The size it has now, and room to see that it grew past the bound. */
	cap = fstat(fd, &st) == 0 && (size_t)st.st_size < max ? (size_t)st.st_size + 2 : max + 2;
	buf = malloc(cap);
	while (buf) {
		ssize_t got = read(fd, buf + n, cap - 1 - n);

		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0) {
			if (got < 0) {
				free(buf);
				buf = NULL;
				fail(errno, dir, rel, NULL, err, errlen);
			}
			break;
		}
		n += (size_t)got;
		if (n > max) {
			free(buf);
			buf = NULL;
			fail(EFBIG, dir, rel, "grew too large while it was read: not read", err, errlen);
		} else if (n == cap - 1) {
			char *more = realloc(buf, cap = cap * 2 < max + 2 ? cap * 2 : max + 2);

			if (!more)
				free(buf);
			buf = more;
		}
	}
	if (!buf && errno == ENOMEM)
		fail(ENOMEM, dir, rel, "out of memory", err, errlen);
	close(fd);
	if (buf) {
		buf[n] = '\0';
		*len = n;
	}
	return buf;
}

int sf_stat(const struct sf_dir *dir, const char *rel, struct stat *st)
{
	char last[NAME_MAX + 1], err[8];
	int at = walk(dir, rel, last, sizeof(last), err, sizeof(err)), rc, e;

	if (at < 0)
		return -1;
	rc = fstatat(at, last, st, AT_SYMLINK_NOFOLLOW);
	e = errno;
	close(at);
	errno = e;
	return rc;
}

bool sf_is_file(const struct sf_dir *dir, const char *rel)
{
	struct stat st;

	return sf_stat(dir, rel, &st) == 0 && S_ISREG(st.st_mode);
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

char **sf_names(const struct sf_dir *dir, const char *pattern)
{
	int fd = dup(dir->fd);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	size_t n = 0, cap = 16;
	char **names = d ? malloc(cap * sizeof(*names)) : NULL;
	struct dirent *e;

	if (!d) {
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	rewinddir(d);
	/* FNM_PERIOD: a hidden name (a temporary file being written) never matches. */
	while (names && (e = readdir(d)) != NULL) {
		if (fnmatch(pattern, e->d_name, FNM_PERIOD) != 0)
			continue;
		if (n + 1 == cap) {
			char **more = realloc(names, (cap *= 2) * sizeof(*names));
			if (!more)
				break;
			names = more;
		}
		if ((names[n] = strdup(e->d_name)) != NULL)
			n++;
	}
	closedir(d);
	if (!names)
		return NULL;
	names[n] = NULL;
	qsort(names, n, sizeof(*names), cmp_names);
	return names;
}

void sf_names_free(char **names)
{
	for (size_t i = 0; names && names[i]; i++)
		free(names[i]);
	free(names);
}

void sf_random_name(char *out, size_t len, const char *prefix)
{
	static const char chars[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
	static unsigned int calls;
	unsigned char r[6];
	char suffix[7];

	/* Without the kernel's randomness (a very old kernel): the clock, the
	 * pid and a count, which the O_EXCL / EEXIST retry makes enough. */
	if (getrandom(r, sizeof(r), GRND_NONBLOCK) != (ssize_t)sizeof(r)) {
		struct timespec ts;
		uint64_t x;

		clock_gettime(CLOCK_MONOTONIC, &ts);
		x = (uint64_t)ts.tv_nsec * 2654435761u ^ (uint64_t)getpid() << 20 ^ ++calls;
		for (size_t i = 0; i < sizeof(r); i++, x >>= 8)
			r[i] = (unsigned char)(x ^ (x >> 29));
	}
	for (size_t i = 0; i < sizeof(r); i++)
		suffix[i] = chars[r[i] % (sizeof(chars) - 1)];
	suffix[6] = '\0';
	snprintf(out, len, "%s%s", prefix, suffix);
}

/* Tries for a temporary name this many times when someone else has it. */
#define TMP_TRIES 100

FILE *sf_out_open(struct sf_out *o, const struct sf_dir *dir, const char *rel, char *err, size_t errlen)
{
	char prefix[NAME_MAX + 1];
	int fd = -1;

	memset(o, 0, sizeof(*o));
	join(o->path, sizeof(o->path), dir->path, rel);
	o->dirfd = walk(dir, rel, o->name, sizeof(o->name), err, errlen);
	if (o->dirfd < 0)
		return NULL;
	/* ".NAME." + 6: hidden, and within NAME_MAX however long NAME is. */
	snprintf(prefix, sizeof(prefix), ".%.*s.", NAME_MAX - 8, o->name);
	for (int i = 0; fd < 0 && i < TMP_TRIES; i++) {
		sf_random_name(o->tmp, sizeof(o->tmp), prefix);
		fd = openat(o->dirfd, o->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
		if (fd < 0 && errno != EEXIST)
			break;
	}
	if (fd < 0 || !(o->f = fdopen(fd, "w"))) {
		int e = errno;

		if (fd >= 0) {
			close(fd);
			unlinkat(o->dirfd, o->tmp, 0);
		}
		close(o->dirfd);
		o->dirfd = -1;
		snprintf(err, errlen, "cannot create %s: %s", o->path, strerror(e));
		errno = e;
		return NULL;
	}
	return o->f;
}

int sf_out_commit(struct sf_out *o, char *err, size_t errlen)
{
	int e = 0;

	errno = 0;
	if (fflush(o->f) != 0 || ferror(o->f))
		e = errno ? errno : EIO;
	if (fclose(o->f) != 0 && !e)
		e = errno ? errno : EIO;
	o->f = NULL;
	if (!e && renameat(o->dirfd, o->tmp, o->dirfd, o->name) != 0)
		e = errno;
	if (e) {
		unlinkat(o->dirfd, o->tmp, 0);
		snprintf(err, errlen, "cannot write %s: %s", o->path,
			 e == EISDIR ? "a directory is there: not replaced" : strerror(e));
	}
	close(o->dirfd);
	o->dirfd = -1;
	errno = e;
	return e ? -1 : 0;
}

void sf_out_abort(struct sf_out *o)
{
	if (o->f)
		fclose(o->f);
	o->f = NULL;
	if (o->dirfd >= 0) {
		unlinkat(o->dirfd, o->tmp, 0);
		close(o->dirfd);
	}
	o->dirfd = -1;
}

int sf_close_stdout(const char *prog, bool quiet)
{
	int e = 0;

	errno = 0;
	if (fflush(stdout) != 0 || ferror(stdout))
		e = errno ? errno : EIO;
	/* EBADF: started with stdout closed, and nothing was written to it. */
	errno = 0;
	if (fclose(stdout) != 0 && !e && errno != EBADF)
		e = errno ? errno : EIO;
	if (e && !quiet)
		fprintf(stderr, "%s: cannot write standard output: %s\n", prog, strerror(e));
	return e ? -1 : 0;
}
