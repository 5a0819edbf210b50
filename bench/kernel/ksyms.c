/* ksyms.c — see ksyms.h. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ksyms.h"
#include "../platform/sysfile.h"

/* /proc/kallsyms: 5.4 MB on the development VM's 6.18 kernel; room for far more. */
#define KSYMS_TEXT_MAX (256u << 20)

static int by_addr(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	return (x->addr > y->addr) - (x->addr < y->addr);
}

/* The section bounds the lock-code test needs, from their marker symbols. */
static void note_marker(struct ksyms *ks, uint64_t addr, const char *name)
{
	static const struct {
		const char *name;
		size_t range, end;
	} markers[] = {
		{ "__lock_text_start", 0, 0 }, { "__lock_text_end", 0, 1 },
		{ "__sched_text_start", 1, 0 }, { "__sched_text_end", 1, 1 },
	};

	for (size_t i = 0; i < sizeof(markers) / sizeof(markers[0]); i++)
		if (strcmp(name, markers[i].name) == 0)
			(markers[i].range ? ks->sched_text : ks->lock_text)[markers[i].end] = addr;
}

/* One "ADDR TYPE NAME[\t[MODULE]]" line, cut in place; true for a text symbol. */
static bool parse_line(char *line, uint64_t *addr, const char **name)
{
	char *type, *end, *p;

	*addr = strtoull(line, &end, 16);
	if (end == line || *end != ' ')
		return false;
	type = end + 1;
	if (!strchr("tTwW", *type) || type[0] == '\0' || type[1] != ' ')
		return false;
	*name = type + 2;
	p = type + 2 + strcspn(type + 2, " \t");
	*p = '\0';
	return **name != '\0';
}

int ksyms_load(struct ksyms *ks, const char *path, char *err, size_t errlen)
{
	size_t cap = 0, nonzero = 0;
	char *line, *next;

	memset(ks, 0, sizeof(*ks));
	ks->text = sysfile_read(path, KSYMS_TEXT_MAX, NULL);
	if (!ks->text) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	for (line = ks->text; *line; line = next) {
		uint64_t addr;
		const char *name;

		next = line + strcspn(line, "\n");
		if (*next)
			*next++ = '\0';
		if (!parse_line(line, &addr, &name))
			continue;
		if (ks->n == cap) {
			struct ksym *bigger = realloc(ks->sym, (cap = cap ? cap * 2 : 4096) * sizeof(*bigger));

			if (!bigger) {
				snprintf(err, errlen, "%s: out of memory", path);
				ksyms_free(ks);
				return -1;
			}
			ks->sym = bigger;
		}
		ks->sym[ks->n++] = (struct ksym){ addr, name };
		nonzero += addr != 0;
		note_marker(ks, addr, name);
	}
	ks->hidden = ks->n > 0 && nonzero == 0;
	qsort(ks->sym, ks->n, sizeof(*ks->sym), by_addr);
	return 0;
}

void ksyms_free(struct ksyms *ks)
{
	free(ks->sym);
	free(ks->text);
	memset(ks, 0, sizeof(*ks));
}

const struct ksym *ksyms_find(const struct ksyms *ks, uint64_t addr)
{
	size_t lo = 0, hi = ks->n;

	if (ks->hidden || ks->n == 0 || addr < ks->sym[0].addr)
		return NULL;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (ks->sym[mid].addr <= addr)
			lo = mid;
		else
			hi = mid;
	}
	return &ks->sym[lo];
}

static bool in_range(const uint64_t range[2], uint64_t addr)
{
	return range[0] && range[1] && addr >= range[0] && addr < range[1];
}

bool ksyms_in_lock_code(const struct ksyms *ks, uint64_t addr)
{
	return !ks->hidden && (in_range(ks->lock_text, addr) || in_range(ks->sched_text, addr));
}

void ksyms_describe(const struct ksyms *ks, uint64_t addr, bool with_offset, char *buf, size_t len)
{
	const struct ksym *s = ksyms_find(ks, addr);

	if (!s)
		snprintf(buf, len, "0x%" PRIx64, addr);
	else if (with_offset)
		snprintf(buf, len, "%s+0x%" PRIx64, s->name, addr - s->addr);
	else
		snprintf(buf, len, "%s", s->name);
}
