/*
 * kernel_locks.h — `lockbench --kernel-locks`: the kernel's own lock
 * contention of this process's threads over the measured interval, seen
 * through the lock:contention_begin / contention_end tracepoints by a BPF
 * program (bpf/kernel_locks.bpf.c, maps in bpf/klock_maps.h).
 *
 * Waits are timed in the kernel with bpf_ktime_get_ns() and converted to TSC
 * cycles there with the run's calibrated rate (BPF cannot read the TSC), so
 * the histograms have the bins of the userspace ones (hist.h).
 *
 * Life of a capture, all from the main thread: klock_open() before the
 * workers start (loads and attaches, filtering on this tgid; nothing is
 * recorded yet), klock_start() / klock_stop() at the measured interval's
 * start and end (one store each), klock_collect() after the join (sums the
 * per-CPU maps, names callers from /proc/kallsyms), klock_close().
 */
#ifndef LOCKBENCH_KERNEL_LOCKS_H
#define LOCKBENCH_KERNEL_LOCKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "bpf/klock_maps.h"
#include "ksyms.h"
#include "../platform/hist.h"

/* Rows of the top-locks table (kernel-locks.csv). */
#define KLOCK_TOP 20

/* One lock (of one type): every wait for it, exactly. */
struct klock_lock {
	uint64_t lock;            /* the lock's kernel address */
	unsigned int type;        /* enum klock_type */
	uint64_t count, sum, max; /* its waits; their cycles */
	uint64_t stacks;          /* of them, the waits with a stack taken (its pairs' counts) */
};

/* One row of the top-locks table: a lock, and one caller of the waits for
 * it that took a stack (count, sum, max: those waits only). */
struct klock_row {
	struct klock_lock of;     /* the lock's own figures, repeated on each of its rows */
	uint64_t count, sum, max; /* its waits with a stack from this caller; their cycles */
	int32_t stack_id;         /* in the program's stack map (< 0: none): for naming */
	char caller[64];          /* the first frame outside lock code, "do_unlinkat" */
	char stack[320];          /* the frames from the lock code up, "a+0x1c;b+0x2f;..." */
};

struct kernel_locks {
	bool captured;                      /* the capture ran: the rest is valid */
	char release[65];                   /* uname -r */
	struct hist all;                    /* every wait, cycles */
	struct hist type[KLOCK_TYPES];      /* the same, by lock type */
	struct klock_stats mutex[KLOCK_MUTEX_CLASSES];  /* the mutex waits by how they ended */
	struct klock_row top[KLOCK_TOP];    /* the locks by total wait, longest first, each lock's
					       callers by their sampled wait, longest first */
	unsigned int ntop;
	uint64_t locks;                     /* distinct (lock, type) seen */
	uint64_t locks_count;               /* their waits: all but the unpaired */
	uint64_t pairs;                     /* distinct (lock, caller) pairs among the waits with a stack */
	uint64_t stacks;                    /* stacks taken (at most KLOCK_STACKS_MAX) */
	uint64_t untimed;                   /* begins that could not be timed */
	uint64_t unpaired;                  /* waits timed but not in the per-lock table (full) */
	char callers_note[160];             /* "" or why callers are bare addresses */
};

/* summary.csv's and kernel-hist.csv's names: rwsem_write, spinlock, ... */
extern const char *const klock_type_name[KLOCK_TYPES];
/* summary.csv's names of enum klock_mutex_class: spin, spin_sleep, sleep */
extern const char *const klock_mutex_class_name[KLOCK_MUTEX_CLASSES];

/* 0, or -errno with one line in `why` saying what is missing (privileges,
 * BTF, the tracepoints, BPF at build time).  `threads`: the run's workers.
 * Cheap enough to ask before anything else of a run. */
int klock_open(unsigned int threads, char *why, size_t whylen);
/* The same for another process (`lockbench --exec`'s program, forked and
 * waiting to exec): its tasks only, `threads` of them tracked at most. */
int klock_open_tgid(pid_t tgid, unsigned int threads, char *why, size_t whylen);
/* Records from now on, converting ns to cycles at `tsc_hz`; until stop. */
void klock_start(double tsc_hz);
void klock_stop(void);
/* After the workers are joined: 0, or -1 with one line in err. */
int klock_collect(struct kernel_locks *out, char *err, size_t errlen);
void klock_close(void);

/* The caller of a stack's lock code and the frames from the lock code up
 * (`frames` innermost first, 0-terminated or n long), named by `ks`. */
void klock_name_caller(const struct ksyms *ks, const uint64_t *frames, size_t n, struct klock_row *row);

#endif
