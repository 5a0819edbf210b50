/*
 * exec_sites.h — how --exec's mutexes.csv names a call site's function
 * (bench/exec_run.c writes the table, libdwfl finds the symbol): a C++
 * name demangled, a stripped object's site said to be one, and whether
 * this lockbench may dlopen() its helpers at all.
 */
#ifndef LOCKBENCH_EXEC_SITES_H
#define LOCKBENCH_EXEC_SITES_H

#include <stdbool.h>
#include <stddef.h>

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
