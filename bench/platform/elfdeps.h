/*
 * elfdeps.h — the libraries a shared object asks the dynamic loader for
 * (its DT_NEEDED names), read from the file without loading it: --exec
 * checks that the library it preloads was built for this lockbench's
 * sanitizer, or for none, before a program is started under it
 * (bench/exec/launcher/elf.c); and whether an object was stripped of its
 * symbol table (mutexes.csv's sites, bench/exec/launcher/sites.c).
 */
#ifndef LOCKBENCH_ELFDEPS_H
#define LOCKBENCH_ELFDEPS_H

#include <stddef.h>

/* Calls fn on each DT_NEEDED name of the 64-bit ELF shared object at path,
 * in the file's order, until fn returns non-zero (it must be positive);
 * returns that, or 0 after the last.  -1, with one line in err, when path is not a regular file
 * holding a 64-bit ELF shared object of this machine's byte order (a
 * position-independent executable is not one), or the file's tables point
 * outside it. */
int elf_needed_each(const char *path, int (*fn)(const char *needed, void *ctx), void *ctx, char *err,
		    size_t errlen);

/* Whether the 64-bit ELF file at path (a program or a library) has a symbol
 * table section (SHT_SYMTAB): 1, 0 when it has none (stripped: only its
 * dynamic symbols name anything), -1 when it cannot be read as one. */
int elf_has_symtab(const char *path);

#endif
