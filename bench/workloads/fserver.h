/*
 * fserver.h — fserver's private header, shared by its two files: fserver.c
 * (the harness: jobs, per-thread state, setup, verify, teardown, figures)
 * and fserver_mix.c (the tests and the weighted mix table, fserver's data).
 * Nothing outside these two files includes it.
 */
#ifndef LOCKBENCH_BENCH_FSERVER_H
#define LOCKBENCH_BENCH_FSERVER_H

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "fileutil.h"
#include "workload.h"
#include "../../common/splitmix64.h"

/* Per-call loop counts of the scaled mix (AIM runs each far longer). */
#define IO_BLOCK          1024u  /* bytes per pread/pwrite */
#define ARITH_LOOPS       2000u  /* add_*: two dependent additions each */
#define MUL_LOOPS         1000u  /* mul_*: one dependent multiply-add each */
#define DIV_LOOPS          200u  /* div_*: one dependent division each */
#define JMP_LOOPS          100u  /* jmp_test: longjmp()s */
#define MALLOC_LOOPS        32u  /* mem_rtns_1: malloc/free pairs, 16..2063 bytes */
#define MEMBLOCK_LOOPS       4u  /* mem_rtns_2: memset+memcpy+memcmp of MEM_BYTES */
#define MEM_BYTES         4096u
#define RAM_COPY_BYTES   16384u  /* ram_copy: word-by-word copy */
#define SORT_INTS          256u  /* sort_rtns_1: qsort() of that many ints */
#define STRING_LOOPS        32u  /* string_rtns: format, copy, append, measure, compare, search */
#define MISC_LOOPS           8u  /* misc_rtns_1: getppid()+getuid() pairs */
#define SIGNAL_LOOPS         4u  /* signal_test: SIGUSR1 raised and caught */
#define MSG_LOOPS            4u  /* tcp_test, udp_test: round trips */
#define STREAM_BYTES       512u
#define DGRAM_BYTES        256u
#define CREAT_CLO_FILES      2u  /* creat-clo: create+close+unlink */
#define LINK_PAIRS           2u  /* link_test: link+unlink */
#define LOOKUPS              4u  /* disk_src: present + absent name lookups */
/* The pool may take at most this share of the free space under --dir. */
#define POOL_FREE_SHARE      2u

struct fs_thread;
typedef int (*fs_test_fn)(struct bench_thread *t, struct fs_thread *ft);

/* One line of workfile.fserver. */
struct fs_test {
	const char *name;       /* AIM7's */
	unsigned int weight;    /* AIM7's: calls per job */
	fs_test_fn run;
	bool locked;            /* its file-system calls take the lock under test */
	unsigned int names;     /* names it makes and removes per call (verify) */
};

struct fserver_shared {
	struct wdir dir;
	uint64_t file_size;
	unsigned int pool_size;
	unsigned int slots;             /* calls per job: the weights' sum */
	unsigned int names_per_job;
	bool handler_installed;
	struct sigaction old_usr1;
	/* Names made and removed, summed by thread_teardown, read after the join. */
	uint64_t made, removed;                     /* by the jobs done */
	uint64_t abandoned_made, abandoned_removed; /* by jobs abandoned at the stop */
};

/* Written only by its thread; read by figures() after the join. */
struct fs_thread {
	uint64_t rng;
	const struct fserver_shared *fs;
	unsigned char *order;           /* the job: test indices, shuffled per job */
	char *io, *mem_a, *mem_b;
	int *ints;
	DIR *dir;                       /* dir_rtns_1's own stream over the directory */
	int dirfd;
	int stream[2], dgram[2];
	unsigned int blocks;            /* IO_BLOCK blocks per pool file */
	uint64_t made, removed;         /* by jobs done, whole run: for verify() */
	uint64_t abandoned_made, abandoned_removed;  /* by the job abandoned at the stop */
	uint64_t job_made, job_removed; /* by the job in progress */
	uint64_t timed_jobs, job_cycles, job_acq;  /* jobs done in the measured interval */
	uint64_t sink;                  /* compute results land here */
	const char *test;               /* the test running: for messages */
	char file[24], link[24], subdir[24], absent[24];
};

/* ---- helpers ---- */

/* Uniform in [0, n), n < 2^32, from the thread's splitmix64 stream (a small,
 * well-mixed stream per thread, reproducible from --seed; multiply-shift: no
 * modulo bias worth naming). */
static inline unsigned int rng_below(uint64_t *state, unsigned int n)
{
	return (unsigned int)(((splitmix64(state) >> 32) * n) >> 32);
}

static inline int fs_fail(struct bench_thread *t, struct fs_thread *ft, int err, const char *what,
		   const char *name)
{
	return bench_fail(t, err, "fserver %s: %s %s: %s (in %s)", ft->test, what, name,
			  strerror(err), ft->fs->dir.path);
}

/* Where a test may give its job up: nothing it made is left, nothing but a
 * disk test's descriptors (closed by disk_test()) is open. */
static inline int stop_point(const struct bench_thread *t)
{
	return bench_stopping(t) ? WL_OP_ABANDONED : WL_OP_DONE;
}

/* One system call inside the lock under test; errno survives the unlock. */
#define LOCKED(t, call) ({                                   \
	bench_lock(t);                                       \
	busy_loops((t)->cs_loops);                           \
	__typeof__(call) locked_ret_ = (call);               \
	int locked_errno_ = errno;                           \
	bench_unlock(t);                                     \
	errno = locked_errno_;                               \
	locked_ret_;                                         \
})

static inline void pool_name(char *buf, size_t len, unsigned int i)
{
	snprintf(buf, len, "pool-%u", i);
}

/* The mix (fserver_mix.c): workfile.fserver's tests with their weights. */
extern const struct fs_test fserver_mix[];
extern const unsigned int fserver_mix_len;

/* signal_test's SIGUSR1 handler, installed by the harness's setup. */
void fserver_on_usr1(int sig);

#endif
