/*
 * sites.h — how --exec's mutexes.csv names a call site (write.c writes the
 * table): its function and file:line found by libdwfl, a C++ name
 * demangled, a stripped object's site said to be one, and whether this
 * lockbench may dlopen() its helpers at all.
 */
#ifndef LOCKBENCH_EXEC_SITES_H
#define LOCKBENCH_EXEC_SITES_H

#include <stdbool.h>
#include <stddef.h>

#if __has_include(<elfutils/libdwfl.h>)
#include <elfutils/libdwfl.h>
#define EXEC_LIBDW 1
#endif

/* libdwfl, loaded when there is a table to write (dlopen: lockbench links
 * nothing of elfutils, so its static build is unchanged). */
struct dw {
	void *so;
#ifdef EXEC_LIBDW
	Dwfl *(*begin)(const Dwfl_Callbacks *);
	Dwfl_Module *(*report_offline)(Dwfl *, const char *, const char *, int);
	int (*report_end)(Dwfl *, int (*)(Dwfl_Module *, void *, const char *, Dwarf_Addr, void *), void *);
	Elf *(*getelf)(Dwfl_Module *, GElf_Addr *);
	const char *(*addrname)(Dwfl_Module *, GElf_Addr);
	Dwfl_Line *(*getsrc)(Dwfl_Module *, Dwarf_Addr);
	const char *(*lineinfo)(Dwfl_Line *, Dwarf_Addr *, int *, int *, Dwarf_Word *, Dwarf_Word *);
	void (*end)(Dwfl *);
	Dwfl_Callbacks cb;
#endif
};

/* libdwfl loaded into dw: false (dw->so NULL) where it is not installed or
 * cannot be loaded (exec_sites_can_dlopen()).  The caller dlclose()s dw->so. */
bool exec_dw_open(struct dw *dw);

/* The function and file:line of a return address (hex) in `object`, "-"
 * for each not found. */
void exec_symbolize(struct dw *dw, const char *object, const char *address, char *fn, size_t fnlen, char *src,
		    size_t srclen);

/* Whether this lockbench was started by the dynamic loader: a static one
 * (`make dist`'s) has none, and glibc's dlopen() from a static program
 * loads a second libc beside the first and crashes (exit 139 there), so it
 * loads neither libdw nor libstdc++ and its sites stay unnamed. */
bool exec_sites_can_dlopen(void);

/* site_function for NAME (the symbol libdwfl found, or NULL) in an object
 * with a symbol table (SYMTAB 1), stripped of it (0), or unreadable (-1):
 * NAME demangled where it is a C++ name; a stripped object's name marked as
 * a dynamic symbol's, or "stripped" where it has none. */
void exec_site_function(const char *name, int symtab, char *out, size_t len);

#endif
