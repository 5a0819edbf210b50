/*
 * safefile.h — the one way lockbench's C code opens a file to read and the
 * one way it writes one, shared by bench/ (lockbench) and analysis/
 * (lbcompare), which link nothing else of each other: this directory is
 * compiled into both.
 *
 * A result directory is untrusted input: it is copied between hosts, and a
 * benchmark runs as root.  So, below a directory the user named (its own
 * path may go through links: the user chose them):
 * - every path is walked one component at a time (openat), and no component
 *   is followed when it is a symbolic link, nor may one be "..";
 * - a file is read only when it is a regular file within a size bound: a
 *   FIFO, device, socket or directory is refused before it is opened (no
 *   read ever blocks), and so is a link;
 * - a file is written as a fresh temporary file beside its name (created
 *   O_EXCL|O_NOFOLLOW: it cannot be anything else), then renamed over the
 *   name: a link, FIFO or other file already there is replaced, never
 *   written through; a directory there is refused.
 * Every refusal is one line naming the path and why.
 */
#ifndef LOCKBENCH_SAFEFILE_H
#define LOCKBENCH_SAFEFILE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/stat.h>

/* A directory open for the calls below, and its path for messages. */
struct sf_dir {
	int fd;
	char path[PATH_MAX];
};

/* Opens PATH as the user named it (links in it followed: the user typed
 * them).  0, or -1 with errno and a one-line message; d->fd is then -1. */
int sf_dir_open(struct sf_dir *d, const char *path, char *err, size_t errlen);
/* Opens REL under PARENT, no component followed (see above). */
int sf_dir_at(struct sf_dir *d, const struct sf_dir *parent, const char *rel, char *err, size_t errlen);
/* Closes it; harmless on a closed or never-opened one (fd -1). */
void sf_dir_close(struct sf_dir *d);

/* The file REL under DIR, for reading: a regular file of at most MAX bytes.
 * The descriptor, or -1 with errno (ENOENT: it, or a directory on its way,
 * does not exist) and a one-line message "DIR/REL: why". */
int sf_open_read(const struct sf_dir *dir, const char *rel, off_t max, char *err, size_t errlen);
/* The same, as a stdio stream (for reading line by line). */
FILE *sf_fopen_read(const struct sf_dir *dir, const char *rel, off_t max, char *err, size_t errlen);
/* The whole of it, NUL-terminated (*len bytes before the NUL), malloc'd. */
char *sf_read_all(const struct sf_dir *dir, const char *rel, size_t max, size_t *len, char *err, size_t errlen);
/* What REL under DIR is, without following it or any component: 0 and
 * *st, or -1 with errno. */
int sf_stat(const struct sf_dir *dir, const char *rel, struct stat *st);
/* Whether REL under DIR is a regular file (a link to one is not). */
bool sf_is_file(const struct sf_dir *dir, const char *rel);

/* Each name in DIR matching the fnmatch() PATTERN, sorted (strcmp), in a
 * malloc'd NULL-terminated array (sf_names_free): no glob() of a path, so
 * nothing in DIR's own path is read as a pattern.  NULL when DIR cannot be
 * listed (errno), an empty array when nothing matches. */
char **sf_names(const struct sf_dir *dir, const char *pattern);
void sf_names_free(char **names);

/* A file being written: f, then sf_out_commit() or sf_out_abort(). */
struct sf_out {
	FILE *f;
	int dirfd;                 /* the directory it goes into (owned) */
	char name[NAME_MAX + 1];   /* its name there */
	char tmp[NAME_MAX + 1];    /* the temporary file's, until the rename */
	char path[PATH_MAX];       /* for messages */
};

/* Starts writing REL under DIR (REL's directories walked as above; it may
 * be "NAME" alone).  The stream, or NULL with a one-line message. */
FILE *sf_out_open(struct sf_out *o, const struct sf_dir *dir, const char *rel, char *err, size_t errlen);
/* Flushes, checks every write, closes and renames the file into place: 0,
 * or -1 with a one-line message and nothing left (the temporary file is
 * removed; what was at the name before is as it was). */
int sf_out_commit(struct sf_out *o, char *err, size_t errlen);
/* Gives the file up: closed and removed. */
void sf_out_abort(struct sf_out *o);

/* A name no one can guess: PREFIX then 6 characters of [A-Za-z0-9]
 * (mkstemp()'s XXXXXX), into out (at most len bytes). */
void sf_random_name(char *out, size_t len, const char *prefix);

/* At the end of main(): standard output flushed and closed, every write to
 * it checked.  0, or -1 after one line "PROG: cannot write standard output:
 * why" on stderr (with QUIET, no line: the caller already gave one). */
int sf_close_stdout(const char *prog, bool quiet);

#endif
