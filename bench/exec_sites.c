/*
 * exec_sites.c — mutexes.csv's site_function (exec_sites.h).  C++ names
 * are demangled by libstdc++'s own __cxa_demangle (the Itanium ABI's,
 * every C++ program's on Linux), loaded with dlopen() as libdw is, so that
 * lockbench links nothing of C++ and its static build is unchanged.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/auxv.h>

#include "exec_sites.h"

bool exec_sites_can_dlopen(void)
{
	/* AT_BASE: where the program interpreter was loaded; 0 without one. */
	return getauxval(AT_BASE) != 0;
}

typedef char *(*demangle_fn)(const char *mangled, char *buf, size_t *len, int *status);

/* __cxa_demangle, or NULL where libstdc++ is not installed.  Loaded once
 * and kept: the launcher writes one table and exits. */
static demangle_fn demangler(void)
{
	static demangle_fn fn;
	static bool tried;
	void *so;

	if (!tried) {
		tried = true;
		so = exec_sites_can_dlopen() ? dlopen("libstdc++.so.6", RTLD_NOW | RTLD_LOCAL) : NULL;
		if (so)
			*(void **)&fn = dlsym(so, "__cxa_demangle");
	}
	return fn;
}

void exec_site_function(const char *name, int symtab, char *out, size_t len)
{
	demangle_fn demangle = name && name[0] == '_' && name[1] == 'Z' ? demangler() : NULL;
	int status = -1;
	char *plain = demangle ? demangle(name, NULL, NULL, &status) : NULL;
	const char *shown = plain && status == 0 ? plain : name;

	if (!name)
		snprintf(out, len, "%s", symtab == 0 ? "stripped" : "-");
	else if (symtab == 0)
		snprintf(out, len, "%s (stripped: dynamic symbols only)", shown);
	else
		snprintf(out, len, "%s", shown);
	free(plain);
}
