/*
 * fserver_mix.c — fserver's data: the AIM7 workfile.fserver tests and the
 * weighted table that makes a job (see fserver.c for the workload, its
 * substitutions and its harness).  Split from fserver.c only for length:
 * it is still one workload, and nothing but fserver.c uses this table.
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

#include "fserver.h"

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
		ft->sink += chain(splitmix64(&ft->rng), loops);               \
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
		ft->ints[i] = (int)splitmix64(&ft->rng);
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

void fserver_on_usr1(int sig)
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
const struct fs_test fserver_mix[] = {
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

const unsigned int fserver_mix_len = sizeof(fserver_mix) / sizeof(fserver_mix[0]);
_Static_assert(sizeof(fserver_mix) / sizeof(fserver_mix[0]) <= 256, "job slots hold a test index in one byte");
