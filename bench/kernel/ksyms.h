/*
 * ksyms.h — kernel text symbols from /proc/kallsyms, to name the frames of a
 * kernel stack (kernel lock capture, kernel_locks.c).  Read once, after a
 * run, never on a measured path.
 *
 * Where kptr_restrict hides addresses from this process, kallsyms still lists
 * every name but with address 0: `hidden` says so, and every lookup answers
 * with the bare address.
 */
#ifndef LOCKBENCH_KSYMS_H
#define LOCKBENCH_KSYMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ksym {
	uint64_t addr;
	const char *name;       /* into ksyms.text */
};

struct ksyms {
	struct ksym *sym;       /* text symbols, by address */
	size_t n;
	char *text;             /* the file, names NUL-terminated in place */
	bool hidden;            /* every address read 0 (kptr_restrict) */
	/* The kernel's lock functions: spinlock entry points (.spinlock.text)
	 * and the sleeping locks' slow paths (__sched, .sched.text).  0: unknown. */
	uint64_t lock_text[2], sched_text[2];
};

/* Reads `path` (a kallsyms file); 0, or -1 with one line in err. */
int ksyms_load(struct ksyms *ks, const char *path, char *err, size_t errlen);
void ksyms_free(struct ksyms *ks);

/* The symbol holding `addr` (the last one at or below it), or NULL. */
const struct ksym *ksyms_find(const struct ksyms *ks, uint64_t addr);
/* True when `addr` is in the kernel's lock code (the two sections above). */
bool ksyms_in_lock_code(const struct ksyms *ks, uint64_t addr);
/* "name+0xoff" (with_offset) or "name"; "0x<addr>" when unknown or hidden. */
void ksyms_describe(const struct ksyms *ks, uint64_t addr, bool with_offset, char *buf, size_t len);

#endif
