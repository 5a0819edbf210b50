/*
 * sites.c — mutexes.csv's call sites named (sites.h): libdwfl's function
 * and file:line for a return address, and its site_function.  C++ names
 * are demangled by libstdc++'s own __cxa_demangle (the Itanium ABI's,
 * every C++ program's on Linux), loaded with dlopen() as libdw is, so that
 * lockbench links nothing of C++ and its static build is unchanged.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>

#include "sites.h"
#include "../../platform/elfdeps.h"

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

/* ---- libdwfl ---- */

bool exec_dw_open(struct dw *dw)
{
	memset(dw, 0, sizeof(*dw));
#ifdef EXEC_LIBDW
	dw->so = exec_sites_can_dlopen() ? dlopen("libdw.so.1", RTLD_NOW | RTLD_LOCAL) : NULL;
	if (!dw->so)
		return false;
	*(void **)&dw->begin = dlsym(dw->so, "dwfl_begin");
	*(void **)&dw->report_offline = dlsym(dw->so, "dwfl_report_offline");
	*(void **)&dw->report_end = dlsym(dw->so, "dwfl_report_end");
	*(void **)&dw->getelf = dlsym(dw->so, "dwfl_module_getelf");
	*(void **)&dw->addrname = dlsym(dw->so, "dwfl_module_addrname");
	*(void **)&dw->getsrc = dlsym(dw->so, "dwfl_module_getsrc");
	*(void **)&dw->lineinfo = dlsym(dw->so, "dwfl_lineinfo");
	*(void **)&dw->end = dlsym(dw->so, "dwfl_end");
	*(void **)&dw->cb.find_debuginfo = dlsym(dw->so, "dwfl_standard_find_debuginfo");
	*(void **)&dw->cb.section_address = dlsym(dw->so, "dwfl_offline_section_address");
	if (dw->begin && dw->report_offline && dw->report_end && dw->getelf && dw->addrname && dw->getsrc &&
	    dw->lineinfo && dw->end && dw->cb.find_debuginfo && dw->cb.section_address)
		return true;
	dlclose(dw->so);
	dw->so = NULL;
#endif
	return false;
}

/* The function and file:line of a return address (hex) in `object` (its
 * own ELF addresses): the call before it, so the address less one. */
void exec_symbolize(struct dw *dw, const char *object, const char *address, char *fn, size_t fnlen, char *src,
		    size_t srclen)
{
	snprintf(fn, fnlen, "-");
	snprintf(src, srclen, "-");
#ifdef EXEC_LIBDW
	uint64_t addr = strtoull(address, NULL, 16);
	Dwfl *d;
	Dwfl_Module *mod;
	GElf_Addr bias = 0;

	if (!dw->so || !addr || object[0] != '/' || !(d = dw->begin(&dw->cb)))
		return;
	mod = dw->report_offline(d, "", object, -1);
	dw->report_end(d, NULL, NULL);
	if (mod && dw->getelf(mod, &bias)) {
		const char *name = dw->addrname(mod, addr - 1 + bias);
		Dwfl_Line *line = dw->getsrc(mod, addr - 1 + bias);
		int lineno = 0;
		const char *file = line ? dw->lineinfo(line, NULL, &lineno, NULL, NULL, NULL) : NULL;

		exec_site_function(name, elf_has_symtab(object), fn, fnlen);
		if (file)
			snprintf(src, srclen, "%s:%d", file, lineno);
	}
	dw->end(d);
#else
	(void)dw;
	(void)object;
	(void)address;
#endif
}
