/* sysfile.c — see sysfile.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "sysfile.h"

char *sysfile_read_from(long (*next)(void *src, char *buf, size_t n), void *src, size_t max, size_t *len)
{
	size_t cap = 1 << 16, n = 0;
	char *buf = malloc(cap);
	long got = 0;

	errno = 0;
	/* One byte beyond max is room to see that the text is too long. */
	while (buf && n <= max && (got = next(src, buf + n, cap - 1 - n)) > 0) {
		n += (size_t)got;
		if (n == cap - 1) {
			char *more = realloc(buf, cap * 2);

			if (!more) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = more;
			cap *= 2;
		}
	}
	if (!buf) {
		errno = ENOMEM;
		return NULL;
	}
	if (got < 0 || n > max) {
		int e = got < 0 ? (errno ? errno : EIO) : EFBIG;

		free(buf);
		errno = e;
		return NULL;
	}
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
}

static long next_stdio(void *src, char *buf, size_t n)
{
	size_t got = fread(buf, 1, n, src);

	return ferror((FILE *)src) ? -1 : (long)got;
}

char *sysfile_read(const char *path, size_t max, size_t *len)
{
	FILE *f = fopen(path, "re");
	char *text;
	int e;

	if (!f)
		return NULL;
	text = sysfile_read_from(next_stdio, f, max, len);
	e = errno;
	fclose(f);
	errno = e;
	return text;
}
