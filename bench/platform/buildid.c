/*
 * buildid.c — the running binary's GNU build ID (buildid.h), found in the
 * main program's PT_NOTE segments as dl_iterate_phdr(3) shows them loaded
 * (it reports the main program first, with an empty name; a static binary
 * too).
 */
#define _GNU_SOURCE
#include <elf.h>
#include <link.h>
#include <stdio.h>
#include <string.h>

#include "buildid.h"

struct want {
	char *hex;
	size_t len;
	int found;
};

/* The notes of one PT_NOTE segment [p, end): its NT_GNU_BUILD_ID's bytes as
 * hex into w.  Names and descriptors are padded to the segment's alignment:
 * 4 bytes (ELF gABI), or 8 in a segment of 8-aligned notes (the
 * .note.gnu.property segment binutils 2.31 on writes apart). */
static void scan_notes(const unsigned char *p, const unsigned char *end, size_t align, struct want *w)
{
	while (!w->found && (size_t)(end - p) >= sizeof(ElfW(Nhdr))) {
		const ElfW(Nhdr) *n = (const void *)p;
		size_t name = (n->n_namesz + align - 1) & ~(align - 1), desc = (n->n_descsz + align - 1) & ~(align - 1);
		const unsigned char *d = p + sizeof(*n) + name;

		if ((size_t)(end - p) < sizeof(*n) + name + desc)
			return;
		if (n->n_type == NT_GNU_BUILD_ID && n->n_namesz == 4 && memcmp(p + sizeof(*n), "GNU", 4) == 0 &&
		    n->n_descsz > 0 && 2 * (size_t)n->n_descsz < w->len) {
			for (size_t i = 0; i < n->n_descsz; i++)
				snprintf(w->hex + 2 * i, 3, "%02x", d[i]);
			w->found = 1;
		}
		p += sizeof(*n) + name + desc;
	}
}

/* dl_iterate_phdr's callback: the first object only (the main program). */
static int main_program(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct want *w = arg;

	(void)size;
	for (ElfW(Half) i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		const unsigned char *p = (const unsigned char *)(info->dlpi_addr + ph->p_vaddr);

		if (ph->p_type == PT_NOTE)
			scan_notes(p, p + ph->p_memsz, ph->p_align == 8 ? 8 : 4, w);
	}
	return 1;
}

void build_id_self(char *hex, size_t len)
{
	struct want w = { hex, len, 0 };

	dl_iterate_phdr(main_program, &w);
	if (!w.found)
		snprintf(hex, len, "unknown");
}
