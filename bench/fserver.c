/*
 * fserver — an AIM7 "fserver"-like mix (workfile.fserver 1.3, "Fileserver
 * Mix"), the seed patch's second workload, reported in jobs per minute.
 *
 * A job is one pass over the weighted mix: every test of the table below, as
 * many times as its AIM7 weight (595 calls in all), in an order shuffled
 * afresh for every job from the thread's own random stream (seeded from
 * --seed and the thread id: the same seed gives every thread the same
 * sequence of orders).  The tests that take shared file-system locks in the
 * kernel (creat-clo, dir_rtns_1, link_test, disk_*, sync_*) make each of
 * their system calls inside the lock under test, one acquisition per call,
 * close() excepted, the way the kernel takes the directory's or the file's
 * inode mutex per call; the compute, memory, signal and socket tests run
 * outside it.  --cs adds busy work inside every one of those critical
 * sections, --think between jobs.
 *
 * Substitutions (AIM7 is a multi-process suite with long fixed loops; this is
 * one thread per task, scaled to finish a job in milliseconds):
 *  - sizes: the shared pool is --pool-size files (default 16) of --file-size
 *    bytes (default 4096) instead of FILESIZE 10M / POOLSIZE 20M, read and
 *    written in IO_BLOCK-byte blocks; every loop count below is ours, far
 *    smaller than AIM's; the job time grows with --file-size.
 *  - disk_* and sync_* work on the shared pool in place (pread/pwrite, sizes
 *    never change) instead of private temporary files; sync_* end with
 *    fdatasync() inside the lock instead of writing through O_SYNC.
 *  - disk_src looks names up with fstatat() (half of them absent);
 *    dir_rtns_1 makes and removes a subdirectory and reads the whole shared
 *    directory; creat-clo creates (O_EXCL) and unlinks instead of re-creating
 *    one file with O_TRUNC; link_test links a pool file to a private name.
 *  - add/mul/div_* use unsigned types so that overflow stays defined, in
 *    dependent chains the compiler cannot fold.
 *  - tcp_test and udp_test exchange messages over an AF_UNIX socketpair
 *    (stream / datagram) instead of loopback TCP/UDP: nothing leaves the
 *    process; signal_test raises SIGUSR1 at the calling thread.
 *
 * Stop: a job is ~1,500 locked calls, which an oversubscribed FIFO spinlock
 * can stretch to minutes, so a job does not run to its end after the run has
 * stopped.  It checks bench_stopping() before every test and after every
 * locked call that leaves nothing made: a test that made a name removes it
 * first (one more locked call, like closing what it opened), a disk test
 * closes its descriptors, and the job returns WL_OP_ABANDONED, uncounted.
 * Pool writes need no undoing: they never change a file's size.
 *
 * Invariant (verify): every name a job makes (files, links, directories) is
 * removed again: made == removed == jobs x names per job for the jobs done,
 * abandoned jobs removed every name they made, and afterwards the directory
 * holds exactly the pool, every pool file still --file-size long.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <inttypes.h>
#include <setjmp.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "fileutil.h"
#include "workload.h"

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

/* splitmix64: a small, well-mixed stream per thread, reproducible from --seed. */
static uint64_t rng_next(uint64_t *state)
{
	uint64_t z = (*state += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

/* Uniform in [0, n), n < 2^32 (multiply-shift: no modulo bias worth naming). */
static unsigned int rng_below(uint64_t *state, unsigned int n)
{
	return (unsigned int)(((rng_next(state) >> 32) * n) >> 32);
}

static int fs_fail(struct bench_thread *t, struct fs_thread *ft, int err, const char *what,
		   const char *name)
{
	return bench_fail(t, err, "fserver %s: %s %s: %s (in %s)", ft->test, what, name,
			  strerror(err), ft->fs->dir.path);
}

/* Where a test may give its job up: nothing it made is left, nothing but a
 * disk test's descriptors (closed by disk_test()) is open. */
static int stop_point(const struct bench_thread *t)
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

static void pool_name(char *buf, size_t len, unsigned int i)
{
	snprintf(buf, len, "pool-%u", i);
}

/* ---- compute tests (outside the lock) ---- */

/* Dependent chains: each step needs the last, so nothing folds or vectorises. */
#define ARITH_CHAIN(fn, type, step)                                         \
	static uint64_t fn(uint64_t seed, unsigned int loops)               \
	{                                                                   \
		type a = (type)seed, b = (type)((seed >> 17) | 1), c = (type)(seed >> 40); \
		for (unsigned int i = 0; i < loops; i++)                    \
			step;                                               \
		return (uint64_t)a + (uint64_t)b + (uint64_t)c;             \
	}

ARITH_CHAIN(add_int_chain, unsigned int, (a = (unsigned int)(a + b), b = (unsigned int)(b + a)))
ARITH_CHAIN(add_long_chain, unsigned long, (a += b, b += a))
ARITH_CHAIN(add_short_chain, unsigned short, (a = (unsigned short)(a + b), b = (unsigned short)(b + a)))
ARITH_CHAIN(mul_int_chain, unsigned int, (a = a * b + c))
ARITH_CHAIN(mul_long_chain, unsigned long, (a = a * b + c))
ARITH_CHAIN(mul_short_chain, unsigned short, (a = (unsigned short)(a * b + c)))
ARITH_CHAIN(div_int_chain, unsigned int, (a = a / b + c, c += a))
ARITH_CHAIN(div_long_chain, unsigned long, (a = a / b + c, c += a))
ARITH_CHAIN(div_short_chain, unsigned short, (a = (unsigned short)(a / b + c), c = (unsigned short)(c + a)))

#define COMPUTE_TEST(fn, chain, loops)                                      \
	static int fn(struct bench_thread *t, struct fs_thread *ft)         \
	{                                                                   \
		(void)t;                                                    \
		ft->sink += chain(rng_next(&ft->rng), loops);               \
		return 0;                                                   \
	}

COMPUTE_TEST(t_add_int, add_int_chain, ARITH_LOOPS)
COMPUTE_TEST(t_add_long, add_long_chain, ARITH_LOOPS)
COMPUTE_TEST(t_add_short, add_short_chain, ARITH_LOOPS)
COMPUTE_TEST(t_mul_int, mul_int_chain, MUL_LOOPS)
COMPUTE_TEST(t_mul_long, mul_long_chain, MUL_LOOPS)
COMPUTE_TEST(t_mul_short, mul_short_chain, MUL_LOOPS)
COMPUTE_TEST(t_div_int, div_int_chain, DIV_LOOPS)
COMPUTE_TEST(t_div_long, div_long_chain, DIV_LOOPS)
COMPUTE_TEST(t_div_short, div_short_chain, DIV_LOOPS)

static __attribute__((noinline)) void jump_back(jmp_buf env)
{
	longjmp(env, 1);
}

static int t_jmp_test(struct bench_thread *t, struct fs_thread *ft)
{
	jmp_buf env;
	volatile unsigned int jumps = 0;

	(void)t;
	if (setjmp(env) != 0)
		jumps++;
	if (jumps < JMP_LOOPS)
		jump_back(env);
	ft->sink += jumps;
	return 0;
}

static int t_mem_rtns_1(struct bench_thread *t, struct fs_thread *ft)
{
	for (unsigned int i = 0; i < MALLOC_LOOPS; i++) {
		size_t size = 16 + rng_below(&ft->rng, 2048);
		unsigned char *p = malloc(size);

		if (!p)
			return fs_fail(t, ft, ENOMEM, "malloc", "a block");
		p[0] = (unsigned char)i;
		p[size - 1] = (unsigned char)size;
		ft->sink += p[0] + p[size - 1];
		free(p);
	}
	return 0;
}

static int t_mem_rtns_2(struct bench_thread *t, struct fs_thread *ft)
{
	(void)t;
	for (unsigned int i = 0; i < MEMBLOCK_LOOPS; i++) {
		memset(ft->mem_a, (int)(ft->sink + i) & 0xff, MEM_BYTES);
		memcpy(ft->mem_b, ft->mem_a, MEM_BYTES);
		ft->sink += (uint64_t)memcmp(ft->mem_a, ft->mem_b, MEM_BYTES) + (unsigned char)ft->mem_b[i];
	}
	return 0;
}

static int t_ram_copy(struct bench_thread *t, struct fs_thread *ft)
{
	uint64_t *dst = (uint64_t *)(void *)ft->mem_b;
	const uint64_t *src = (const uint64_t *)(void *)ft->mem_a;

	(void)t;
	for (size_t i = 0; i < RAM_COPY_BYTES / sizeof(uint64_t); i++)
		dst[i] = src[i];
	ft->sink += dst[ft->sink % (RAM_COPY_BYTES / sizeof(uint64_t))];
	return 0;
}

static int int_order(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

static int t_sort_rtns_1(struct bench_thread *t, struct fs_thread *ft)
{
	(void)t;
	for (unsigned int i = 0; i < SORT_INTS; i++)
		ft->ints[i] = (int)rng_next(&ft->rng);
	qsort(ft->ints, SORT_INTS, sizeof(int), int_order);
	ft->sink += (uint64_t)ft->ints[0];
	return 0;
}

static int t_string_rtns(struct bench_thread *t, struct fs_thread *ft)
{
	char *a = ft->mem_a, *b = ft->mem_b;

	(void)t;
	for (unsigned int i = 0; i < STRING_LOOPS; i++) {
		snprintf(a, 64, "fserver-%u-%" PRIu64, i, ft->sink);
		strcpy(b, a);
		strcat(b, a);
		ft->sink += strlen(b) + (uint64_t)(strcmp(a, b) != 0);
		ft->sink += (uint64_t)(strchr(b, '-') - b);
	}
	return 0;
}

static int t_misc_rtns_1(struct bench_thread *t, struct fs_thread *ft)
{
	(void)t;
	for (unsigned int i = 0; i < MISC_LOOPS; i++)
		ft->sink += (uint64_t)getppid() + getuid();
	return 0;
}

/* signal_test: raise() targets the calling thread, which catches it before
 * raise() returns; the count is per thread. */
static _Thread_local volatile sig_atomic_t usr1_caught;

static void on_usr1(int sig)
{
	(void)sig;
	usr1_caught = usr1_caught + 1;
}

static int t_signal_test(struct bench_thread *t, struct fs_thread *ft)
{
	sig_atomic_t before = usr1_caught;

	for (unsigned int i = 0; i < SIGNAL_LOOPS; i++)
		if (raise(SIGUSR1) != 0)
			return fs_fail(t, ft, errno, "raise", "SIGUSR1");
	if (usr1_caught - before != (sig_atomic_t)SIGNAL_LOOPS)
		return fs_fail(t, ft, EINTR, "catch", "SIGUSR1");
	ft->sink += (uint64_t)usr1_caught;
	return 0;
}

/* ---- message tests (outside the lock) ---- */

static int send_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = send(fd, buf, len, MSG_NOSIGNAL);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

static int recv_all(int fd, char *buf, size_t len)
{
	while (len) {
		ssize_t n = recv(fd, buf, len, 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n == 0)
			errno = EPIPE;
		if (n <= 0)
			return -1;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

/* A message from end 0 to end 1 and back: a stream, or one datagram each way. */
static int round_trips(struct bench_thread *t, struct fs_thread *ft, const int *pair, size_t len)
{
	for (unsigned int i = 0; i < MSG_LOOPS; i++) {
		ft->mem_a[0] = (char)i;
		if (send_all(pair[0], ft->mem_a, len) || recv_all(pair[1], ft->mem_b, len) ||
		    send_all(pair[1], ft->mem_b, len) || recv_all(pair[0], ft->mem_a, len))
			return fs_fail(t, ft, errno, "exchange", "socketpair");
		if (ft->mem_a[0] != (char)i)
			return fs_fail(t, ft, EBADMSG, "exchange", "socketpair");
	}
	return 0;
}

static int t_tcp_test(struct bench_thread *t, struct fs_thread *ft)
{
	return round_trips(t, ft, ft->stream, STREAM_BYTES);
}

static int t_udp_test(struct bench_thread *t, struct fs_thread *ft)
{
	return round_trips(t, ft, ft->dgram, DGRAM_BYTES);
}

/* ---- file-system tests (each call inside the lock) ---- */

static int close_checked(struct bench_thread *t, struct fs_thread *ft, int fd, const char *name)
{
	if (fd >= 0 && close(fd) != 0)
		return fs_fail(t, ft, errno, "close", name);
	return 0;
}

static int t_creat_clo(struct bench_thread *t, struct fs_thread *ft)
{
	for (unsigned int i = 0; i < CREAT_CLO_FILES; i++) {
		int fd = LOCKED(t, fu_create(ft->dirfd, ft->file));

		if (fd < 0)
			return fs_fail(t, ft, errno, "create", ft->file);
		ft->job_made++;
		if (close_checked(t, ft, fd, ft->file))
			return -1;
		/* No stop point before: the unlink is what a stop would do. */
		if (LOCKED(t, fu_unlink(ft->dirfd, ft->file, 0)) != 0)
			return fs_fail(t, ft, errno, "unlink", ft->file);
		ft->job_removed++;
		if (stop_point(t))
			return WL_OP_ABANDONED;
	}
	return 0;
}

/* Reads the whole directory through the thread's own stream: its entries,
 * or -1 with errno. */
static long read_whole_dir(DIR *dir)
{
	long n = 0;

	rewinddir(dir);
	errno = 0;
	while (readdir(dir))
		n++;
	return errno ? -1 : n;
}

static int t_dir_rtns_1(struct bench_thread *t, struct fs_thread *ft)
{
	long seen;

	if (LOCKED(t, fu_mkdir(ft->dirfd, ft->subdir)) != 0)
		return fs_fail(t, ft, errno, "mkdir", ft->subdir);
	ft->job_made++;
	/* Stopped: straight to the rmdir, which removes what the test made. */
	if (!bench_stopping(t)) {
		seen = LOCKED(t, read_whole_dir(ft->dir));
		if (seen < 0)
			return fs_fail(t, ft, errno, "readdir", ".");
		/* The pool, ".", ".." and our subdirectory are always there. */
		if (seen < (long)ft->fs->pool_size + 3)
			return fs_fail(t, ft, ENOENT, "readdir (pool files missing)", ".");
	}
	if (LOCKED(t, fu_unlink(ft->dirfd, ft->subdir, AT_REMOVEDIR)) != 0)
		return fs_fail(t, ft, errno, "rmdir", ft->subdir);
	ft->job_removed++;
	return stop_point(t);
}

static int t_link_test(struct bench_thread *t, struct fs_thread *ft)
{
	char pool[24];

	for (unsigned int i = 0; i < LINK_PAIRS; i++) {
		pool_name(pool, sizeof(pool), rng_below(&ft->rng, ft->fs->pool_size));
		if (LOCKED(t, fu_link(ft->dirfd, pool, ft->link)) != 0)
			return fs_fail(t, ft, errno, "link to", pool);
		ft->job_made++;
		if (LOCKED(t, fu_unlink(ft->dirfd, ft->link, 0)) != 0)
			return fs_fail(t, ft, errno, "unlink", ft->link);
		ft->job_removed++;
		if (stop_point(t))
			return WL_OP_ABANDONED;
	}
	return 0;
}

static int t_disk_src(struct bench_thread *t, struct fs_thread *ft)
{
	struct stat st;
	char pool[24];

	for (unsigned int i = 0; i < LOOKUPS; i++) {
		pool_name(pool, sizeof(pool), rng_below(&ft->rng, ft->fs->pool_size));
		if (LOCKED(t, fstatat(ft->dirfd, pool, &st, AT_SYMLINK_NOFOLLOW)) != 0)
			return fs_fail(t, ft, errno, "look up", pool);
		if (stop_point(t))
			return WL_OP_ABANDONED;
		if (LOCKED(t, fstatat(ft->dirfd, ft->absent, &st, AT_SYMLINK_NOFOLLOW)) == 0)
			return fs_fail(t, ft, EEXIST, "look up", ft->absent);
		if (errno != ENOENT)
			return fs_fail(t, ft, errno, "look up", ft->absent);
		if (stop_point(t))
			return WL_OP_ABANDONED;
	}
	return 0;
}

/* How a disk test walks the pool file(s) it opened. */
enum disk_kind { DISK_READ, DISK_WRITE, DISK_COPY };

struct disk_pass {
	enum disk_kind kind;
	bool random;        /* random blocks instead of in order */
	bool sync;          /* fdatasync() at the end (sync_*) */
	int src, dst;       /* descriptors; -1 when unused */
	char src_name[24], dst_name[24];
};

static size_t block_len(const struct fs_thread *ft, unsigned int block)
{
	uint64_t off = (uint64_t)block * IO_BLOCK, left = ft->fs->file_size - off;

	return left < IO_BLOCK ? (size_t)left : IO_BLOCK;
}

static int disk_block(struct bench_thread *t, struct fs_thread *ft, struct disk_pass *p,
		      unsigned int block)
{
	size_t len = block_len(ft, block);
	off_t off = (off_t)block * IO_BLOCK;

	if (p->kind != DISK_WRITE) {
		ssize_t n = LOCKED(t, pread(p->src, ft->io, len, off));

		if (n != (ssize_t)len)
			return fs_fail(t, ft, n < 0 ? errno : EIO, "read", p->src_name);
		if (stop_point(t))
			return WL_OP_ABANDONED;
	} else {
		ft->io[0] = (char)block;
	}
	if (p->kind != DISK_READ && LOCKED(t, fu_pwrite_all(p->dst, ft->io, len, off)) != 0)
		return fs_fail(t, ft, errno, "write", p->dst_name);
	return stop_point(t);
}

static int disk_open(struct bench_thread *t, struct fs_thread *ft, struct disk_pass *p)
{
	unsigned int pool = ft->fs->pool_size, a = rng_below(&ft->rng, pool);
	unsigned int b = pool > 1 ? (a + 1 + rng_below(&ft->rng, pool - 1)) % pool : a;

	pool_name(p->src_name, sizeof(p->src_name), a);
	pool_name(p->dst_name, sizeof(p->dst_name), p->kind == DISK_COPY ? b : a);
	if (p->kind != DISK_WRITE) {
		p->src = LOCKED(t, fu_open(ft->dirfd, p->src_name, O_RDONLY));
		if (p->src < 0)
			return fs_fail(t, ft, errno, "open", p->src_name);
		if (stop_point(t))
			return WL_OP_ABANDONED;
	}
	if (p->kind != DISK_READ) {
		p->dst = LOCKED(t, fu_open(ft->dirfd, p->dst_name, O_WRONLY));
		if (p->dst < 0)
			return fs_fail(t, ft, errno, "open", p->dst_name);
	}
	return stop_point(t);
}

static int disk_walk(struct bench_thread *t, struct fs_thread *ft, struct disk_pass *p)
{
	for (unsigned int i = 0; i < ft->blocks; i++) {
		unsigned int block = p->random ? rng_below(&ft->rng, ft->blocks) : i;
		int rc = disk_block(t, ft, p, block);

		if (rc != 0)
			return rc;  /* failed, or abandoned: no fdatasync either */
	}
	if (p->sync && LOCKED(t, fu_fdatasync(p->dst)) != 0)
		return fs_fail(t, ft, errno, "fdatasync", p->dst_name);
	return 0;
}

static int disk_test(struct bench_thread *t, struct fs_thread *ft, enum disk_kind kind,
		     bool random, bool sync)
{
	struct disk_pass p = { .kind = kind, .random = random, .sync = sync, .src = -1, .dst = -1 };
	int rc = disk_open(t, ft, &p);

	if (rc == 0)
		rc = disk_walk(t, ft, &p);
	/* Close both whatever happened, abandoned too; the first failure's
	 * message stays. */
	if (p.src >= 0 && close(p.src) != 0 && rc != WL_OP_FAILED)
		rc = fs_fail(t, ft, errno, "close", p.src_name);
	if (p.dst >= 0 && close(p.dst) != 0 && rc != WL_OP_FAILED)
		rc = fs_fail(t, ft, errno, "close", p.dst_name);
	return rc;
}

#define DISK_TEST(fn, kind, random, sync)                                  \
	static int fn(struct bench_thread *t, struct fs_thread *ft)        \
	{                                                                  \
		return disk_test(t, ft, kind, random, sync);               \
	}

DISK_TEST(t_disk_cp, DISK_COPY, false, false)
DISK_TEST(t_disk_rd, DISK_READ, false, false)
DISK_TEST(t_disk_rr, DISK_READ, true, false)
DISK_TEST(t_disk_rw, DISK_WRITE, true, false)
DISK_TEST(t_disk_wrt, DISK_WRITE, false, false)
DISK_TEST(t_sync_disk_cp, DISK_COPY, false, true)
DISK_TEST(t_sync_disk_rw, DISK_WRITE, true, true)
DISK_TEST(t_sync_disk_wrt, DISK_WRITE, false, true)

/*
 * The mix: workfile.fserver 1.3 line by line, in its order, with its weights
 * (sum 595).  `locked`: the test's file-system calls take the lock under test.
 */
static const struct fs_test mix[] = {
	/* name            weight run               locked names */
	{ "add_int",       20,    t_add_int,        false, 0 },
	{ "add_long",      20,    t_add_long,       false, 0 },
	{ "add_short",     20,    t_add_short,      false, 0 },
	{ "creat-clo",     20,    t_creat_clo,      true,  CREAT_CLO_FILES },
	{ "dir_rtns_1",    20,    t_dir_rtns_1,     true,  1 },
	{ "disk_cp",       30,    t_disk_cp,        true,  0 },
	{ "disk_rd",       30,    t_disk_rd,        true,  0 },
	{ "disk_rr",       30,    t_disk_rr,        true,  0 },
	{ "disk_rw",       30,    t_disk_rw,        true,  0 },
	{ "disk_src",      30,    t_disk_src,       true,  0 },
	{ "disk_wrt",      30,    t_disk_wrt,       true,  0 },
	{ "div_int",       10,    t_div_int,        false, 0 },
	{ "div_long",      10,    t_div_long,       false, 0 },
	{ "div_short",     10,    t_div_short,      false, 0 },
	{ "jmp_test",      10,    t_jmp_test,       false, 0 },
	{ "link_test",     20,    t_link_test,      true,  LINK_PAIRS },
	{ "mem_rtns_1",    40,    t_mem_rtns_1,     false, 0 },
	{ "mem_rtns_2",    10,    t_mem_rtns_2,     false, 0 },
	{ "misc_rtns_1",   20,    t_misc_rtns_1,    false, 0 },
	{ "mul_int",       10,    t_mul_int,        false, 0 },
	{ "mul_long",      10,    t_mul_long,       false, 0 },
	{ "mul_short",     10,    t_mul_short,      false, 0 },
	{ "ram_copy",      20,    t_ram_copy,       false, 0 },
	{ "signal_test",   10,    t_signal_test,    false, 0 },
	{ "sort_rtns_1",   30,    t_sort_rtns_1,    false, 0 },
	{ "string_rtns",   30,    t_string_rtns,    false, 0 },
	{ "sync_disk_cp",   5,    t_sync_disk_cp,   true,  0 },
	{ "sync_disk_rw",   5,    t_sync_disk_rw,   true,  0 },
	{ "sync_disk_wrt",  5,    t_sync_disk_wrt,  true,  0 },
	{ "tcp_test",      10,    t_tcp_test,       false, 0 },
	{ "udp_test",      40,    t_udp_test,       false, 0 },
};

#define MIX_TESTS (sizeof(mix) / sizeof(mix[0]))
_Static_assert(MIX_TESTS <= 256, "job slots hold a test index in one byte");

/* ---- the job ---- */

/* Fisher-Yates over the job's slots, from the thread's stream. */
static void mix_shuffle(struct fs_thread *ft, unsigned int slots)
{
	for (unsigned int i = slots - 1; i > 0; i--) {
		unsigned int j = rng_below(&ft->rng, i + 1);
		unsigned char tmp = ft->order[i];

		ft->order[i] = ft->order[j];
		ft->order[j] = tmp;
	}
}

/* The harness zeroes t->ops when the measured interval starts; the job time
 * and acquisition figures follow it, so they cover exactly the jobs counted. */
static void job_window_follow(struct fs_thread *ft, const struct bench_thread *t)
{
	if (ft->timed_jobs != t->ops)
		ft->timed_jobs = ft->job_cycles = ft->job_acq = 0;
}

/* The run stopped mid-job: its names (all removed again) are kept apart from
 * the jobs done, which the invariant counts. */
static int job_abandon(struct fs_thread *ft)
{
	ft->abandoned_made += ft->job_made;
	ft->abandoned_removed += ft->job_removed;
	return WL_OP_ABANDONED;
}

static int fserver_op(struct bench_thread *t)
{
	struct fs_thread *ft = t->wl;
	unsigned int slots = ft->fs->slots;
	/* The harness resets the histogram only between ops: a job's own count
	 * (timed and untimed: --timing samples only some). */
	uint64_t t0, acq0 = t->acq.count + t->untimed;

	job_window_follow(ft, t);
	ft->job_made = ft->job_removed = 0;
	t0 = tsc_begin();
	mix_shuffle(ft, slots);
	for (unsigned int i = 0; i < slots; i++) {
		const struct fs_test *test = &mix[ft->order[i]];
		int rc;

		if (bench_stopping(t))
			return job_abandon(ft);
		ft->test = test->name;
		rc = test->run(t, ft);
		if (rc == WL_OP_ABANDONED)
			return job_abandon(ft);
		if (rc != 0)
			return WL_OP_FAILED;
	}
	ft->made += ft->job_made;
	ft->removed += ft->job_removed;
	ft->job_cycles += tsc_end() - t0;
	ft->job_acq += t->acq.count + t->untimed - acq0;
	ft->timed_jobs++;
	return WL_OP_DONE;
}

/* ---- per-thread state ---- */

static void fs_thread_release(struct fs_thread *ft)
{
	if (ft->dir)
		closedir(ft->dir);
	for (int i = 0; i < 2; i++) {
		if (ft->stream[i] >= 0)
			close(ft->stream[i]);
		if (ft->dgram[i] >= 0)
			close(ft->dgram[i]);
	}
	free(ft->order);
	free(ft->io);
	free(ft->mem_a);
	free(ft->mem_b);
	free(ft->ints);
	ft->dir = NULL;
	ft->stream[0] = ft->stream[1] = ft->dgram[0] = ft->dgram[1] = -1;
	ft->order = NULL;
	ft->io = ft->mem_a = ft->mem_b = NULL;
	ft->ints = NULL;
}

static void fs_thread_names(struct fs_thread *ft, unsigned int id)
{
	snprintf(ft->file, sizeof(ft->file), "t%u-file", id);
	snprintf(ft->link, sizeof(ft->link), "t%u-link", id);
	snprintf(ft->subdir, sizeof(ft->subdir), "t%u-dir", id);
	snprintf(ft->absent, sizeof(ft->absent), "t%u-absent", id);
}

/* The job's slots, each test as often as its weight (shuffled per job). */
static void fs_thread_fill_order(struct fs_thread *ft)
{
	unsigned int slot = 0;

	for (unsigned int i = 0; i < MIX_TESTS; i++)
		for (unsigned int w = 0; w < mix[i].weight; w++)
			ft->order[slot++] = (unsigned char)i;
}

static int fs_thread_open(struct bench_thread *t, struct fs_thread *ft)
{
	/* A stream of its own: readdir positions are per open directory. */
	int fd = openat(ft->dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	ft->test = "setup";
	if (fd < 0 || !(ft->dir = fdopendir(fd))) {
		int err = errno;

		if (fd >= 0)
			close(fd);
		return fs_fail(t, ft, err, "open", ".");
	}
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ft->stream) != 0)
		return fs_fail(t, ft, errno, "socketpair", "stream");
	if (socketpair(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0, ft->dgram) != 0)
		return fs_fail(t, ft, errno, "socketpair", "dgram");
	return 0;
}

static int fs_thread_setup(struct bench_thread *t)
{
	struct fs_thread *ft = t->wl;
	const struct fserver_shared *fs = t->wl_shared;

	ft->fs = fs;
	ft->dirfd = fs->dir.fd;
	ft->stream[0] = ft->stream[1] = ft->dgram[0] = ft->dgram[1] = -1;
	ft->blocks = (unsigned int)((fs->file_size + IO_BLOCK - 1) / IO_BLOCK);
	/* Thread id in the high half: distinct, reproducible streams per thread. */
	ft->rng = t->cfg->seed ^ ((uint64_t)(t->id + 1) << 32);
	rng_next(&ft->rng);
	fs_thread_names(ft, t->id);
	ft->order = malloc(fs->slots);
	ft->io = malloc(IO_BLOCK);
	ft->mem_a = malloc(RAM_COPY_BYTES);
	ft->mem_b = malloc(RAM_COPY_BYTES);
	ft->ints = malloc(SORT_INTS * sizeof(int));
	if (!ft->order || !ft->io || !ft->mem_a || !ft->mem_b || !ft->ints) {
		fs_thread_release(ft);
		ft->test = "setup";
		return fs_fail(t, ft, ENOMEM, "allocate", "buffers");
	}
	memset(ft->io, 0x3c, IO_BLOCK);
	memset(ft->mem_a, 0x5a, RAM_COPY_BYTES);
	fs_thread_fill_order(ft);
	if (fs_thread_open(t, ft) != 0) {
		fs_thread_release(ft);
		return -1;
	}
	return 0;
}

static void fs_thread_teardown(struct bench_thread *t)
{
	struct fs_thread *ft = t->wl;
	struct fserver_shared *fs = t->wl_shared;

	/* Relaxed: verify() reads the sums after the join, which orders them. */
	__atomic_fetch_add(&fs->made, ft->made, __ATOMIC_RELAXED);
	__atomic_fetch_add(&fs->removed, ft->removed, __ATOMIC_RELAXED);
	__atomic_fetch_add(&fs->abandoned_made, ft->abandoned_made, __ATOMIC_RELAXED);
	__atomic_fetch_add(&fs->abandoned_removed, ft->abandoned_removed, __ATOMIC_RELAXED);
	fs_thread_release(ft);
}

/* ---- setup, verify, teardown ---- */

/* The pool may not take more than 1/POOL_FREE_SHARE of the free space. */
static int pool_fits(const struct fserver_shared *fs, char *err, size_t errlen)
{
	struct statvfs sv;
	unsigned __int128 need = (unsigned __int128)fs->pool_size * fs->file_size, avail;

	if (fstatvfs(fs->dir.fd, &sv) != 0) {
		snprintf(err, errlen, "fserver: cannot stat the file system of %s: %s", fs->dir.path,
			 strerror(errno));
		return WL_SETUP_ERROR;
	}
	avail = (unsigned __int128)sv.f_bavail * sv.f_frsize;
	if (need * POOL_FREE_SHARE <= avail)
		return WL_SETUP_OK;
	snprintf(err, errlen, "--pool-size x --file-size = %" PRIu64 " bytes: more than 1/%u of the %"
		 PRIu64 " bytes free under %s", (uint64_t)need, POOL_FREE_SHARE, (uint64_t)avail,
		 fs->dir.path);
	return WL_SETUP_USAGE;
}

/* Writes one pool file of file_size bytes; a non-zero pattern, so reads move data. */
static int pool_file(const struct fserver_shared *fs, unsigned int i, char *buf, size_t buflen)
{
	char name[24];
	int fd, rc = 0;

	pool_name(name, sizeof(name), i);
	fd = fu_create(fs->dir.fd, name);
	if (fd < 0)
		return -1;
	for (uint64_t off = 0; rc == 0 && off < fs->file_size; off += buflen) {
		uint64_t left = fs->file_size - off;

		rc = fu_pwrite_all(fd, buf, left < buflen ? (size_t)left : buflen, (off_t)off);
	}
	if (close(fd) != 0 && rc == 0)
		rc = -1;
	return rc;
}

static int pool_create(const struct fserver_shared *fs, char *err, size_t errlen)
{
	size_t buflen = 65536;
	char *buf = malloc(buflen);
	int rc = 0;

	if (!buf) {
		snprintf(err, errlen, "fserver: out of memory for the pool");
		return WL_SETUP_ERROR;
	}
	memset(buf, 0xa5, buflen);
	for (unsigned int i = 0; rc == 0 && i < fs->pool_size; i++)
		if (pool_file(fs, i, buf, buflen) != 0) {
			snprintf(err, errlen, "fserver: cannot create pool-%u in %s: %s", i,
				 fs->dir.path, strerror(errno));
			rc = WL_SETUP_ERROR;
		}
	free(buf);
	return rc;
}

static void mix_totals(struct fserver_shared *fs)
{
	fs->slots = fs->names_per_job = 0;
	for (unsigned int i = 0; i < MIX_TESTS; i++) {
		fs->slots += mix[i].weight;
		fs->names_per_job += mix[i].weight * mix[i].names;
	}
}

static int signal_install(struct fserver_shared *fs, char *err, size_t errlen)
{
	struct sigaction sa = { .sa_handler = on_usr1, .sa_flags = SA_RESTART };

	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGUSR1, &sa, &fs->old_usr1) != 0) {
		snprintf(err, errlen, "fserver: cannot catch SIGUSR1: %s", strerror(errno));
		return WL_SETUP_ERROR;
	}
	fs->handler_installed = true;
	return WL_SETUP_OK;
}

static int fserver_setup(void *shared, const struct bench_config *cfg, char *err, size_t errlen)
{
	struct fserver_shared *fs = shared;
	int rc;

	fs->file_size = cfg->file_size;
	fs->pool_size = cfg->pool_size;
	mix_totals(fs);
	rc = wdir_create(&fs->dir, cfg, "fserver", err, errlen);
	if (rc != WL_SETUP_OK)
		return rc;
	rc = pool_fits(fs, err, errlen);
	if (rc == WL_SETUP_OK)
		rc = pool_create(fs, err, errlen);
	if (rc == WL_SETUP_OK)
		rc = signal_install(fs, err, errlen);
	if (rc != WL_SETUP_OK)
		wdir_remove(&fs->dir);
	return rc;
}

static void fserver_teardown(void *shared, const struct bench_config *cfg)
{
	struct fserver_shared *fs = shared;

	(void)cfg;
	if (fs->handler_installed)
		sigaction(SIGUSR1, &fs->old_usr1, NULL);
	fs->handler_installed = false;
	wdir_remove(&fs->dir);
}

/* Every pool file is still there and still file_size long. */
static int pool_intact(const struct fserver_shared *fs, char *err, size_t errlen)
{
	struct stat st;
	char name[24];

	for (unsigned int i = 0; i < fs->pool_size; i++) {
		pool_name(name, sizeof(name), i);
		if (fstatat(fs->dir.fd, name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode) ||
		    (uint64_t)st.st_size != fs->file_size) {
			snprintf(err, errlen, "fserver invariant FAILED: %s in %s is not a %" PRIu64
				 "-byte file any more", name, fs->dir.path, fs->file_size);
			return -1;
		}
	}
	return 0;
}

static int fserver_verify(void *shared, uint64_t ops_all, char *err, size_t errlen)
{
	const struct fserver_shared *fs = shared;
	uint64_t expected = ops_all * fs->names_per_job;
	long entries = wdir_entries(&fs->dir);

	if (fs->made != expected || fs->removed != expected) {
		snprintf(err, errlen, "fserver invariant FAILED: %" PRIu64 " jobs should make and remove %"
			 PRIu64 " names, but %" PRIu64 " were made and %" PRIu64 " removed",
			 ops_all, expected, fs->made, fs->removed);
		return -1;
	}
	if (fs->abandoned_made != fs->abandoned_removed) {
		snprintf(err, errlen, "fserver invariant FAILED: jobs abandoned at the stop made %" PRIu64
			 " names but removed %" PRIu64, fs->abandoned_made, fs->abandoned_removed);
		return -1;
	}
	if (entries != (long)fs->pool_size) {
		snprintf(err, errlen, "fserver invariant FAILED: %ld entries in %s after the run, "
			 "the pool is %u", entries, fs->dir.path, fs->pool_size);
		return -1;
	}
	return pool_intact(fs, err, errlen);
}

static void fserver_figures(const struct bench_result *res, struct figures *out)
{
	const struct fserver_shared *fs = NULL;
	uint64_t jobs = 0, cycles = 0, acq = 0, made = 0, removed = 0;
	double cpu_s = res->usage.user_s + res->usage.sys_s;
	double capacity_s = res->measured_s * fu_cpus_allowed();

	for (unsigned int i = 0; i < res->cfg->threads; i++) {
		const struct bench_thread *t = res->threads[i];
		const struct fs_thread *ft = t->wl;

		fs = t->wl_shared;
		made += ft->made;
		removed += ft->removed;
		/* Reset by the harness after this thread's last job: none measured. */
		if (ft->timed_jobs == t->ops) {
			jobs += ft->timed_jobs;
			cycles += ft->job_cycles;
			acq += ft->job_acq;
		}
	}
	figure_add(out, "jobs_per_min", "jobs/min", "%.1f", res->ops_per_s * 60.0);
	figure_add(out, "job_ms_mean", "avg job ms", "%.3f",
		   jobs && res->tsc_hz > 0 ? (double)cycles / (double)jobs / res->tsc_hz * 1e3 : 0);
	/* Jobs done only: `acquisitions` also holds the abandoned jobs' calls. */
	figure_add(out, "acq_per_job", "acq per job", "%.1f", jobs ? (double)acq / (double)jobs : 0);
	figure_add(out, "cpu_utilisation_pct", "cpu util %", "%.1f",
		   capacity_s > 0 ? 100.0 * cpu_s / capacity_s : 0);
	figure_add(out, "names_per_job", "names per job", "%u", fs ? fs->names_per_job : 0);
	figure_add(out, "files_created", "names made", "%" PRIu64, made);
	figure_add(out, "files_removed", "names removed", "%" PRIu64, removed);
}

const struct workload_ops workload_ops_fserver = {
	.name = "fserver",
	.description = "AIM7 fserver-like mix: a job is 595 weighted tests, fs calls locked (--dir --file-size --pool-size)",
	.unit = "jobs",
	.shared_size = sizeof(struct fserver_shared),
	.thread_size = sizeof(struct fs_thread),
	.fds_shared = WDIR_FDS,
	/* Its directory stream and two socketpairs, and a disk test's two files. */
	.fds_per_thread = 7,
	.setup = fserver_setup,
	.thread_setup = fs_thread_setup,
	.op = fserver_op,
	.thread_teardown = fs_thread_teardown,
	.verify = fserver_verify,
	.teardown = fserver_teardown,
	.figures = fserver_figures,
};
