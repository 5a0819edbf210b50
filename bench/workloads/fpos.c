/*
 * fpos — the running kernel's own mutex, contended from userspace: the
 * f_pos_lock of one struct file that every thread reads.
 *
 * All threads read one file through one descriptor, so they share one
 * struct file.  read() on a regular file whose struct file has more than one
 * reference (in a process with several threads, fdget() takes one) holds
 * file->f_pos_lock, a plain kernel `struct mutex`, from before it reads f_pos
 * until after it has moved it (fdget_pos() / fdput_pos(), Linux 3.14 on);
 * lseek() takes the same mutex.  One operation is one acquisition:
 *
 *     lock; read(fd, --read-size bytes) [at end of file: rewind, read again];
 *     --cs work; check the block; unlock
 *
 * With a userspace lock the kernel's mutex inside is taken by one thread at a
 * time, never contended, and the userspace lock carries the contention.  With
 * `-l none` the threads meet only in the kernel, on f_pos_lock, which
 * --kernel-locks shows as type `mutex`: the kernel's own mutex on the same
 * work as its userspace models.  The hold time is one read(): the system call
 * and a copy of --read-size bytes from the page cache (docs/workloads.md has
 * the measured costs and why 16 KiB is the default).
 *
 * The file is FPOS_BLOCKS blocks of --read-size bytes in a private directory
 * under --dir (fileutil.h lists what is guaranteed); every 8-byte word holds
 * its own offset xor FPOS_STAMP, so zeros, another file's bytes or a block
 * from the wrong place cannot pass.  On tmpfs (--dir /dev/shm) a read is a
 * copy from memory and nothing else; on a disk file system (the default
 * $TMPDIR, /tmp, is ext4 on a virtual disk on the development VM) the reads
 * are the same page-cache copies, but setup writes the file and the first
 * read stamps its atime, and that write-back and journal traffic can land in
 * the run.  A standalone run should use --dir /dev/shm (issue 25 has run-all
 * default the file workloads to tmpfs).
 *
 * Rewinding: a read at the end returns 0, and the thread moves the offset
 * back by the file's size, lseek(-size, SEEK_CUR), and reads again.  Relative
 * on purpose: under `none` several threads can find the end at once, and
 * only the first rewind may happen; a later one finds the offset no longer at
 * the end (another thread may have read from 0 since), would make it negative,
 * and fails with EINVAL, so no block is read twice in one pass.  Since reads
 * and rewinds are serialised on f_pos_lock, the offset only ever moves one
 * block forward or from the end back to 0.
 *
 * The invariant, three parts:
 *  - every read returned one whole block: --read-size bytes whose first word
 *    stamps an offset that is a multiple of --read-size inside the file and
 *    whose last word stamps that offset's block end (the words between are not
 *    checked: nothing writes the file, and a wrong offset shows at the edges);
 *  - the kernel's order, under every lock, `none` included: the shared offset
 *    went through the blocks in order, so after R reads block b was read
 *    R/FPOS_BLOCKS times, once more if b < R % FPOS_BLOCKS, and the final
 *    offset and the number of rewinds are what R reads leave.  A read that
 *    saw an offset another read was moving (the f_pos race f_pos_lock was
 *    added to close) repeats or skips a block.  Under `none` this is what f_pos_lock
 *    alone guarantees, so it proves the kernel's mutex excluded;
 *  - the lock's order, under a lock that claims to exclude (not
 *    LOCK_F_NO_EXCLUSION): each holder got the block after the previous
 *    holder's, checked against a word only the holder reads and writes.  The
 *    kernel orders the reads whatever the userspace lock does, so this is the
 *    part that proves the userspace lock excluded: two threads inside at once
 *    can each check before the other has written (--cs widens that window).
 *
 * An operation is a single locked call, so it is never abandoned at the stop
 * (WL_OP_ABANDONED is for operations of many; workload.h): the thread finishes
 * its read, and every block read is an operation counted.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fileutil.h"
#include "workload.h"

#define FPOS_BLOCKS 64u                 /* blocks in the file */
#define FPOS_WORD 8u                    /* bytes of one stamped word */
#define FPOS_READ_DEFAULT 16384u
#define FPOS_READ_MAX (256u * 1024)     /* a 16 MiB file */
#define FPOS_STAMP UINT64_C(0x66706f735f6f6666)  /* "fpos_off" */
#define FPOS_FILE "fpos-data"

/* ---- settings: --read-size BYTES ---- */

/* In struct workload_settings' bytes; zeroed: the default read size. */
struct fpos_settings {
	uint64_t read_size;
};
_Static_assert(sizeof(struct fpos_settings) <= WORKLOAD_SETTINGS_SIZE, "fpos settings outgrow workload_settings");

static uint64_t read_size_of(const struct workload_settings *s)
{
	struct fpos_settings f;

	memcpy(&f, s->bytes, sizeof(f));
	return f.read_size ? f.read_size : FPOS_READ_DEFAULT;
}

static int set_read_size(unsigned char *bytes, const char *value, char *err, size_t errlen)
{
	struct fpos_settings f = { 0 };

	if (!lock_parse_u64(value, FPOS_WORD, FPOS_READ_MAX, &f.read_size) || f.read_size % FPOS_WORD) {
		snprintf(err, errlen, "'%s' is not a multiple of %u in [%u, %u]", value, FPOS_WORD, FPOS_WORD,
			 FPOS_READ_MAX);
		return -1;
	}
	memcpy(bytes, &f, sizeof(f));
	return 0;
}

static const struct option_def fpos_options[] = {
	{ "read-size", "BYTES", "bytes per read(), the hold time: a multiple of 8 up to 262144 (default 16384)",
	  set_read_size, NULL },
	{ NULL, NULL, NULL, NULL, NULL },
};

static void fpos_settings_figures(const struct workload_settings *s, lock_put_fn *put, void *ctx)
{
	char text[32];

	snprintf(text, sizeof(text), "%" PRIu64, read_size_of(s));
	put(ctx, "read_size_bytes", text);
	snprintf(text, sizeof(text), "%" PRIu64, read_size_of(s) * FPOS_BLOCKS);
	put(ctx, "file_bytes", text);
}

/* ---- state ---- */

/* What a thread counts, whole run (warm-up included): summed by
 * thread_teardown into the shared copy, which verify() reads. */
struct fpos_counts {
	uint64_t block_reads[FPOS_BLOCKS];
	uint64_t bad_reads;          /* not one whole block of the file */
	uint64_t out_of_sequence;    /* not the block after the previous holder's */
	uint64_t rewinds;            /* lseek()s that moved the offset from the end to 0 */
};

struct fpos_shared {
	struct wdir dir;
	int fd;                      /* the one descriptor every thread reads */
	uint64_t read_size, file_size;
	bool sequence_checked;       /* the lock claims to exclude: check its order */
	struct fpos_counts sum;
	/* The block the next holder must read: the one word the critical
	 * section writes (besides the kernel's f_pos), on its own line. */
	uint64_t next_block cacheline_aligned;
};

/* Written only by its thread. */
struct fpos_thread {
	uint64_t *buf;               /* read_size bytes */
	struct fpos_counts n;
};

/* ---- one operation ---- */

/*
 * One read() at the shared offset, rewinding at the end of the file (the
 * header says why relatively): read()'s result, the bytes read or -1 with
 * errno.  Under `none` a thread may find the end again after its rewind, if
 * others read a whole pass meanwhile; each turn of the loop is such progress.
 */
static ssize_t read_block(const struct fpos_shared *fs, struct fpos_thread *ft)
{
	for (;;) {
		ssize_t n = read(fs->fd, ft->buf, fs->read_size);

		if (n != 0)
			return n;
		if (lseek(fs->fd, -(off_t)fs->file_size, SEEK_CUR) >= 0)
			ft->n.rewinds++;
		else if (errno != EINVAL)
			return -1;
	}
}

/* The index of the block in buf, or -1 when the n bytes read are not one
 * whole block of the file at a multiple of read_size. */
static int64_t block_of(const struct fpos_shared *fs, const struct fpos_thread *ft, ssize_t n)
{
	uint64_t first, last;

	if (n != (ssize_t)fs->read_size)
		return -1;
	first = ft->buf[0] ^ FPOS_STAMP;
	last = ft->buf[fs->read_size / FPOS_WORD - 1] ^ FPOS_STAMP;
	if (first % fs->read_size || first >= fs->file_size || last != first + fs->read_size - FPOS_WORD)
		return -1;
	return (int64_t)(first / fs->read_size);
}

/*
 * Under the lock: the block must be the one after the previous holder's.
 * The load and the store are separate, so two threads inside at once can
 * each check before the other stores.  Relaxed: under a lock that excludes,
 * its acquire and release order them; under one that does not, the race is
 * what this detects, and stays defined (ThreadSanitizer checks the locks'
 * ordering through counter's plain word instead).
 */
static void sequence_check(struct fpos_shared *fs, struct fpos_thread *ft, uint64_t block)
{
	if (__atomic_load_n(&fs->next_block, __ATOMIC_RELAXED) != block)
		ft->n.out_of_sequence++;
	__atomic_store_n(&fs->next_block, (block + 1) % FPOS_BLOCKS, __ATOMIC_RELAXED);
}

static int fpos_op(struct bench_thread *t)
{
	struct fpos_thread *ft = t->wl;
	struct fpos_shared *fs = t->wl_shared;
	int64_t block = -1;
	ssize_t n;
	int err;

	bench_lock(t);
	n = read_block(fs, ft);
	err = errno;
	busy_loops(t->cs_loops);
	if (n > 0)
		block = block_of(fs, ft, n);
	if (block >= 0 && fs->sequence_checked)
		sequence_check(fs, ft, (uint64_t)block);
	bench_unlock(t);
	if (n < 0)
		return bench_fail(t, err, "fpos: read %s/%s: %s", fs->dir.path, FPOS_FILE, strerror(err));
	if (block < 0)
		ft->n.bad_reads++;
	else
		ft->n.block_reads[block]++;
	return WL_OP_DONE;
}

/* ---- threads ---- */

static int fpos_thread_setup(struct bench_thread *t)
{
	struct fpos_thread *ft = t->wl;
	const struct fpos_shared *fs = t->wl_shared;

	/* Allocated by the thread itself: its pages on the thread's node. */
	ft->buf = aligned_alloc(CACHELINE, ALIGN_UP(fs->read_size, CACHELINE));
	if (!ft->buf)
		return bench_fail(t, ENOMEM, "fpos: thread %u: no memory for a %" PRIu64 "-byte buffer", t->id,
				  fs->read_size);
	return 0;
}

static void counts_add(struct fpos_counts *sum, const struct fpos_counts *n)
{
	/* Relaxed: verify() reads the sums after the join, which orders them. */
	for (unsigned int b = 0; b < FPOS_BLOCKS; b++)
		__atomic_fetch_add(&sum->block_reads[b], n->block_reads[b], __ATOMIC_RELAXED);
	__atomic_fetch_add(&sum->bad_reads, n->bad_reads, __ATOMIC_RELAXED);
	__atomic_fetch_add(&sum->out_of_sequence, n->out_of_sequence, __ATOMIC_RELAXED);
	__atomic_fetch_add(&sum->rewinds, n->rewinds, __ATOMIC_RELAXED);
}

static void fpos_thread_teardown(struct bench_thread *t)
{
	struct fpos_thread *ft = t->wl;
	struct fpos_shared *fs = t->wl_shared;

	counts_add(&fs->sum, &ft->n);
	free(ft->buf);
	ft->buf = NULL;
}

/* ---- setup and teardown ---- */

/* The file, block after block, every word stamped with its offset: 0, or
 * -1 with errno. */
static int file_write(const struct fpos_shared *fs)
{
	uint64_t *buf = malloc(fs->read_size);
	int fd, rc = 0, err = 0;

	if (!buf) {
		errno = ENOMEM;
		return -1;
	}
	fd = fu_create(fs->dir.fd, FPOS_FILE);
	if (fd < 0)
		rc = -1;
	for (uint64_t off = 0; rc == 0 && off < fs->file_size; off += fs->read_size) {
		for (uint64_t w = 0; w < fs->read_size / FPOS_WORD; w++)
			buf[w] = (off + w * FPOS_WORD) ^ FPOS_STAMP;
		rc = fu_pwrite_all(fd, buf, fs->read_size, (off_t)off);
	}
	if (rc != 0)
		err = errno;
	if (fd >= 0 && close(fd) != 0 && rc == 0) {
		rc = -1;
		err = errno;
	}
	free(buf);
	errno = err;
	return rc;
}

static void fpos_teardown(void *shared, const struct bench_config *cfg)
{
	struct fpos_shared *fs = shared;

	(void)cfg;
	if (fs->fd >= 0)
		close(fs->fd);
	fs->fd = -1;
	wdir_remove(&fs->dir);
}

static int fpos_setup(void *shared, const struct bench_config *cfg, char *err, size_t errlen)
{
	struct fpos_shared *fs = shared;
	int rc;

	fs->fd = -1;
	fs->read_size = read_size_of(&cfg->wl_settings);
	fs->file_size = fs->read_size * FPOS_BLOCKS;
	fs->sequence_checked = !(cfg->lock->flags & LOCK_F_NO_EXCLUSION);
	rc = wdir_create(&fs->dir, cfg, "fpos", err, errlen);
	if (rc != WL_SETUP_OK)
		return rc;
	if (file_write(fs) == 0)
		fs->fd = fu_open(fs->dir.fd, FPOS_FILE, O_RDONLY);
	if (fs->fd < 0) {
		snprintf(err, errlen, "fpos: cannot make the %" PRIu64 "-byte %s in %s: %s", fs->file_size,
			 FPOS_FILE, fs->dir.path, strerror(errno));
		fpos_teardown(shared, cfg);
		return WL_SETUP_ERROR;
	}
	return WL_SETUP_OK;
}

/* ---- the invariant (the header's three parts) ---- */

/* Block b was read as often as R reads through the blocks in order give. */
static int check_block_counts(const struct fpos_shared *fs, uint64_t reads, char *err, size_t errlen)
{
	for (unsigned int b = 0; b < FPOS_BLOCKS; b++) {
		uint64_t want = reads / FPOS_BLOCKS + (b < reads % FPOS_BLOCKS);

		if (fs->sum.block_reads[b] == want)
			continue;
		snprintf(err, errlen, "fpos invariant FAILED: block %u was read %" PRIu64 " times, %" PRIu64
			 " in order after %" PRIu64 " reads: the shared offset repeated or skipped a block (the"
			 " reads were not serialised on it)", b, fs->sum.block_reads[b], want, reads);
		return -1;
	}
	return 0;
}

/* The offset and the rewinds R reads in order leave: each full pass but one
 * that ends exactly at the end was followed by a rewind (and a read). */
static int check_offset(const struct fpos_shared *fs, uint64_t reads, char *err, size_t errlen)
{
	uint64_t passes = reads / FPOS_BLOCKS, rest = reads % FPOS_BLOCKS;
	uint64_t want_rewinds = rest || !passes ? passes : passes - 1;
	off_t want_off = rest || !passes ? (off_t)(rest * fs->read_size) : (off_t)fs->file_size;
	off_t off = lseek(fs->fd, 0, SEEK_CUR);

	if (off < 0) {
		snprintf(err, errlen, "fpos: cannot read the offset of %s/%s: %s", fs->dir.path, FPOS_FILE,
			 strerror(errno));
		return -1;
	}
	if (off == want_off && fs->sum.rewinds == want_rewinds)
		return 0;
	snprintf(err, errlen, "fpos invariant FAILED: after %" PRIu64 " reads the offset is %jd after %" PRIu64
		 " rewinds; reads in order leave %jd after %" PRIu64, reads, (intmax_t)off, fs->sum.rewinds,
		 (intmax_t)want_off, want_rewinds);
	return -1;
}

static int fpos_verify(void *shared, uint64_t ops_all, char *err, size_t errlen)
{
	const struct fpos_shared *fs = shared;

	if (fs->sum.bad_reads) {
		snprintf(err, errlen, "fpos invariant FAILED: %" PRIu64 " of %" PRIu64 " reads returned something"
			 " other than one whole %" PRIu64 "-byte block of the file", fs->sum.bad_reads, ops_all,
			 fs->read_size);
		return -1;
	}
	if (fs->sequence_checked && fs->sum.out_of_sequence) {
		snprintf(err, errlen, "fpos invariant FAILED: %" PRIu64 " of %" PRIu64 " reads under the lock were"
			 " not of the block after the previous holder's: the lock did not exclude",
			 fs->sum.out_of_sequence, ops_all);
		return -1;
	}
	if (check_block_counts(fs, ops_all, err, errlen))
		return -1;
	return check_offset(fs, ops_all, err, errlen);
}

/* Whether the lock's order was checked (setup() decided it the same way). */
static void fpos_figures(const struct bench_result *res, struct figures *out)
{
	figure_add(out, "sequence_checked", "lock order chk", "%d",
		   !(res->cfg->lock->flags & LOCK_F_NO_EXCLUSION));
}

const struct workload_ops workload_ops_fpos = {
	.name = "fpos",
	.description = "lock; read() --read-size bytes of one file through one shared fd (the kernel's"
		       " f_pos_lock mutex); unlock (--dir)",
	.unit = "ops",
	.meets_in_kernel = true,
	.shared_size = sizeof(struct fpos_shared),
	.thread_size = sizeof(struct fpos_thread),
	.fds_shared = WDIR_FDS + 1,  /* the file, while written and then read */
	.fds_per_thread = 0,
	.takes_dir = true,
	.options = fpos_options,
	.settings_figures = fpos_settings_figures,
	.setup = fpos_setup,
	.thread_setup = fpos_thread_setup,
	.op = fpos_op,
	.thread_teardown = fpos_thread_teardown,
	.verify = fpos_verify,
	.teardown = fpos_teardown,
	.figures = fpos_figures,
};
