/*
 * sysfile.h — a whole text file the system provides (/proc, /sys, /boot),
 * read to its end, for the probes that parse one (kernel_env.c, and
 * kernel/ksyms.c's /proc/kallsyms).  /proc and /sys report their files'
 * size as 0, so the buffer grows as it fills, up to a bound.  Not for a
 * results directory, which is untrusted: common/safefile.h reads those.
 */
#ifndef LOCKBENCH_SYSFILE_H
#define LOCKBENCH_SYSFILE_H

#include <stddef.h>

/*
 * All of `src`, read by `next` (bytes read into buf, at most n; 0 at the end;
 * -1 on an error), NUL-terminated (*len bytes before the NUL, when len is not
 * NULL), malloc'd.  NULL with errno on a read error, ENOMEM, or EFBIG beyond
 * `max` bytes: no text rather than half of one.
 */
char *sysfile_read_from(long (*next)(void *src, char *buf, size_t n), void *src, size_t max, size_t *len);
/* The file at `path` so (NULL with errno also when it cannot be opened). */
char *sysfile_read(const char *path, size_t max, size_t *len);

#endif
