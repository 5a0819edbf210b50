/*
 * elfdeps.c — a shared object's DT_NEEDED names, read with pread() from its
 * program headers and dynamic section (elfdeps.h).  The file is named by
 * the user's environment, so it is read as untrusted: every offset and
 * count is checked against the file's size and a bound before use, and it
 * is opened non-blocking, so a FIFO in its place is refused, not waited on.
 */
#define _GNU_SOURCE
#include <elf.h>
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "elfdeps.h"

#define ELFDEPS_MAX_PHDRS 64        /* shared objects have about ten */
#define ELFDEPS_MAX_DYN 4096        /* entries of the dynamic section read */
#define ELFDEPS_NAME_MAX 256        /* bytes of one needed name */
#define ELFDEPS_MAX_SHDRS 4096      /* sections looked at for a symbol table */

#if __BYTE_ORDER == __LITTLE_ENDIAN
#define ELFDEPS_DATA ELFDATA2LSB
#else
#define ELFDEPS_DATA ELFDATA2MSB
#endif

struct elf_file {
	int fd;
	uint64_t size;
	Elf64_Phdr ph[ELFDEPS_MAX_PHDRS];
	unsigned int phnum;
};

static int bad(char *err, size_t errlen, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int bad(char *err, size_t errlen, const char *path, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(err, errlen, "%s: ", path);

	va_start(ap, fmt);
	if (n >= 0 && (size_t)n < errlen)
		vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

/* The len bytes at off, all inside the file. */
static bool read_at(const struct elf_file *f, void *buf, uint64_t len, uint64_t off)
{
	return off <= f->size && len <= f->size - off && pread(f->fd, buf, len, (off_t)off) == (ssize_t)len;
}

static int read_headers(struct elf_file *f, const char *path, char *err, size_t errlen)
{
	Elf64_Ehdr eh;

	if (!read_at(f, &eh, sizeof(eh), 0) || memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0)
		return bad(err, errlen, path, "not an ELF file");
	if (eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_ident[EI_DATA] != ELFDEPS_DATA)
		return bad(err, errlen, path, "not a 64-bit ELF object of this machine's byte order");
	if (eh.e_type != ET_DYN)
		return bad(err, errlen, path, "not a shared object (ELF type %u)", (unsigned int)eh.e_type);
	if (eh.e_phentsize != sizeof(Elf64_Phdr) || eh.e_phnum == 0 || eh.e_phnum > ELFDEPS_MAX_PHDRS ||
	    !read_at(f, f->ph, (uint64_t)eh.e_phnum * sizeof(Elf64_Phdr), eh.e_phoff))
		return bad(err, errlen, path, "its program headers are not inside the file");
	f->phnum = eh.e_phnum;
	return 0;
}

/* The file offset of virtual address vaddr, through the PT_LOAD holding
 * it; 0 (never a string table's) when none does. */
static uint64_t file_offset(const struct elf_file *f, uint64_t vaddr)
{
	for (unsigned int i = 0; i < f->phnum; i++) {
		const Elf64_Phdr *p = &f->ph[i];

		if (p->p_type == PT_LOAD && vaddr >= p->p_vaddr && vaddr - p->p_vaddr < p->p_filesz)
			return p->p_offset + (vaddr - p->p_vaddr);
	}
	return 0;
}

/* fn on each needed name: its offset in the string table (strtab, strsz
 * bytes at that file offset) must leave the name's NUL inside both. */
static int each_name(const struct elf_file *f, const Elf64_Dyn *dyn, size_t n, uint64_t strtab, uint64_t strsz,
		     int (*fn)(const char *, void *), void *ctx, const char *path, char *err, size_t errlen)
{
	for (size_t i = 0; i < n && dyn[i].d_tag != DT_NULL; i++) {
		char name[ELFDEPS_NAME_MAX];
		uint64_t off = dyn[i].d_un.d_val, len;
		int rc;

		if (dyn[i].d_tag != DT_NEEDED)
			continue;
		if (off >= strsz)
			return bad(err, errlen, path, "a needed library's name is outside its string table");
		len = strsz - off < sizeof(name) ? strsz - off : sizeof(name);
		if (!read_at(f, name, len, strtab + off) || !memchr(name, '\0', len))
			return bad(err, errlen, path, "a needed library's name is not a string inside the file");
		rc = fn(name, ctx);
		if (rc)
			return rc;
	}
	return 0;
}

static int read_needed(struct elf_file *f, int (*fn)(const char *, void *), void *ctx, const char *path,
		       char *err, size_t errlen)
{
	const Elf64_Phdr *dp = NULL;
	uint64_t strtab = 0, strsz = 0;
	bool pie = false;
	Elf64_Dyn *dyn;
	size_t n;
	int rc;

	for (unsigned int i = 0; i < f->phnum; i++)
		if (f->ph[i].p_type == PT_DYNAMIC)
			dp = &f->ph[i];
	if (!dp)
		return bad(err, errlen, path, "no dynamic section: a static object, not a shared library");
	n = dp->p_filesz / sizeof(Elf64_Dyn);
	if (n > ELFDEPS_MAX_DYN)
		n = ELFDEPS_MAX_DYN;
	dyn = malloc(n ? n * sizeof(Elf64_Dyn) : 1);
	if (!dyn)
		return bad(err, errlen, path, "out of memory");
	if (!read_at(f, dyn, n * sizeof(Elf64_Dyn), dp->p_offset)) {
		free(dyn);
		return bad(err, errlen, path, "its dynamic section is not inside the file");
	}
	for (size_t i = 0; i < n && dyn[i].d_tag != DT_NULL; i++) {
		if (dyn[i].d_tag == DT_STRTAB)
			strtab = file_offset(f, dyn[i].d_un.d_ptr);
		else if (dyn[i].d_tag == DT_STRSZ)
			strsz = dyn[i].d_un.d_val;
		else if (dyn[i].d_tag == DT_FLAGS_1)
			pie = dyn[i].d_un.d_val & DF_1_PIE;
	}
	if (pie)
		rc = bad(err, errlen, path, "a program (a position-independent executable), not a shared library");
	else if (strtab == 0 || strtab > f->size || strsz > f->size - strtab)
		rc = bad(err, errlen, path, "its dynamic string table is not inside the file");
	else
		rc = each_name(f, dyn, n, strtab, strsz, fn, ctx, path, err, errlen);
	free(dyn);
	return rc;
}

int elf_needed_each(const char *path, int (*fn)(const char *needed, void *ctx), void *ctx, char *err,
		    size_t errlen)
{
	struct elf_file f = { .fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK) };
	struct stat st;
	int rc;

	if (f.fd < 0)
		return bad(err, errlen, path, "%s", strerror(errno));
	if (fstat(f.fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		close(f.fd);
		return bad(err, errlen, path, "not a regular file");
	}
	f.size = (uint64_t)st.st_size;
	rc = read_headers(&f, path, err, errlen);
	if (rc == 0)
		rc = read_needed(&f, fn, ctx, path, err, errlen);
	close(f.fd);
	return rc;
}

int elf_has_symtab(const char *path)
{
	struct elf_file f = { .fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK) };
	struct stat st;
	Elf64_Ehdr eh;
	Elf64_Shdr sh;
	int rc = -1;

	if (f.fd < 0)
		return -1;
	if (fstat(f.fd, &st) == 0 && S_ISREG(st.st_mode)) {
		f.size = (uint64_t)st.st_size;
		if (read_at(&f, &eh, sizeof(eh), 0) && memcmp(eh.e_ident, ELFMAG, SELFMAG) == 0 &&
		    eh.e_ident[EI_CLASS] == ELFCLASS64 && eh.e_ident[EI_DATA] == ELFDEPS_DATA &&
		    eh.e_shentsize == sizeof(Elf64_Shdr) && eh.e_shnum <= ELFDEPS_MAX_SHDRS) {
			rc = 0;
			for (unsigned int i = 0; rc == 0 && i < eh.e_shnum; i++) {
				if (!read_at(&f, &sh, sizeof(sh), eh.e_shoff + (uint64_t)i * sizeof(sh)))
					rc = -1;
				else if (sh.sh_type == SHT_SYMTAB)
					rc = 1;
			}
		}
	}
	close(f.fd);
	return rc;
}
