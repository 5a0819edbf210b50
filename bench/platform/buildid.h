/*
 * buildid.h — the lockbench binary's own identity: the GNU build ID the
 * linker wrote into it (`-Wl,--build-id`: a hash of its contents, so two
 * builds of different code differ even at one commit, and a copy of one
 * binary keeps its build's), for meta.csv's `lockbench_build_id`.
 */
#ifndef LOCKBENCH_BUILDID_H
#define LOCKBENCH_BUILDID_H

#include <stddef.h>

/* The running program's build ID as lowercase hex into hex (LEN bytes);
 * "unknown" when it has none.  Read from its loaded notes: no file opened. */
void build_id_self(char *hex, size_t len);

#endif
