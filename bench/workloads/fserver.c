/*
 * fserver — an AIM7 "fserver"-like mix (workfile.fserver 1.3, "Fileserver
 * Mix"), the seed patch's second workload, reported in jobs per minute.
 *
 * A job is one pass over the weighted mix: every test of the table (in
 * fserver_mix.c, fserver's data) as many times as its AIM7 weight (595
 * calls in all), in an order shuffled
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
 *    written in IO_BLOCK-byte blocks; every loop count (fserver.h) is ours, far
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
#include "fserver.h"
#include "workload.h"

/* ---- settings: --file-size BYTES, --pool-size N ---- */

#define FILE_SIZE_DEFAULT 4096u
#define FILE_SIZE_MAX (UINT64_C(1) << 30)
#define POOL_SIZE_DEFAULT 16u
#define POOL_SIZE_MAX 65536u

/* In struct workload_settings' bytes; a field left 0: its default. */
struct fserver_settings {
	uint64_t file_size;
	uint64_t pool_size;
};
_Static_assert(sizeof(struct fserver_settings) <= WORKLOAD_SETTINGS_SIZE,
	       "fserver settings outgrow workload_settings");

/* Copied in and out: the bytes are unsigned char, never read as another type. */
static struct fserver_settings settings_given(const unsigned char *bytes)
{
	struct fserver_settings f;

	memcpy(&f, bytes, sizeof(f));
	return f;
}

/* What a run uses: the settings given, the defaults for the rest. */
static struct fserver_settings settings_of(const struct workload_settings *s)
{
	struct fserver_settings f = settings_given(s->bytes);

	f.file_size = f.file_size ? f.file_size : FILE_SIZE_DEFAULT;
	f.pool_size = f.pool_size ? f.pool_size : POOL_SIZE_DEFAULT;
	return f;
}

static int set_file_size(unsigned char *bytes, const char *value, char *err, size_t errlen)
{
	struct fserver_settings f = settings_given(bytes);

	if (option_u64(value, 1, FILE_SIZE_MAX, &f.file_size, err, errlen))
		return -1;
	memcpy(bytes, &f, sizeof(f));
	return 0;
}

static int set_pool_size(unsigned char *bytes, const char *value, char *err, size_t errlen)
{
	struct fserver_settings f = settings_given(bytes);

	if (option_u64(value, 1, POOL_SIZE_MAX, &f.pool_size, err, errlen))
		return -1;
	memcpy(bytes, &f, sizeof(f));
	return 0;
}

static const struct option_def fserver_options[] = {
	{ "file-size", "BYTES", "bytes of each pool file, 1 to 1073741824 (default 4096)", set_file_size, NULL },
	{ "pool-size", "N", "files in the shared pool, 1 to 65536 (default 16)", set_pool_size, NULL },
	{ NULL, NULL, NULL, NULL, NULL },
};

static void fserver_settings_figures(const struct workload_settings *s, lock_put_fn *put, void *ctx)
{
	struct fserver_settings f = settings_of(s);
	char text[32];

	snprintf(text, sizeof(text), "%" PRIu64, f.file_size);
	put(ctx, "file_size_bytes", text);
	snprintf(text, sizeof(text), "%" PRIu64, f.pool_size);
	put(ctx, "pool_size_files", text);
}

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
		const struct fs_test *test = &fserver_mix[ft->order[i]];
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

	for (unsigned int i = 0; i < fserver_mix_len; i++)
		for (unsigned int w = 0; w < fserver_mix[i].weight; w++)
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
	splitmix64(&ft->rng);
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
	for (unsigned int i = 0; i < fserver_mix_len; i++) {
		fs->slots += fserver_mix[i].weight;
		fs->names_per_job += fserver_mix[i].weight * fserver_mix[i].names;
	}
}

static int signal_install(struct fserver_shared *fs, char *err, size_t errlen)
{
	struct sigaction sa = { .sa_handler = fserver_on_usr1, .sa_flags = SA_RESTART };

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
	struct fserver_settings given = settings_of(&cfg->wl_settings);
	int rc;

	fs->file_size = given.file_size;
	fs->pool_size = (unsigned int)given.pool_size;
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

/* Its metrics, which lbcompare compares between locks (workload.h); figures()
 * fills them, titled as its summary labels them. */
enum { FS_JOBS_PER_MIN, FS_JOB_MS_MEAN, FS_ACQ_PER_JOB };
static const struct workload_metric fserver_metrics[] = {
	[FS_JOBS_PER_MIN] = { "jobs_per_min", "jobs/min", WM_RATE, "jobs/min",
			      "60 x ops_per_s: its rate, as AIM7 states it" },
	[FS_JOB_MS_MEAN] = { "job_ms_mean", "ms", WM_TIME, "avg job ms",
			     "mean wall-clock ms of one job (595 tests), measured" },
	/* more or fewer calls per job: neither better as such */
	[FS_ACQ_PER_JOB] = { "acq_per_job", "acquisitions", WM_COUNT, "acq per job",
			     "acquisitions of the jobs done in the measured interval / those jobs" },
	{ NULL, NULL, 0, NULL, NULL },
};

static void metric_add(struct figures *out, unsigned int m, double value)
{
	static const char *const fmt[] = { [FS_JOBS_PER_MIN] = "%.1f", [FS_JOB_MS_MEAN] = "%.3f",
					   [FS_ACQ_PER_JOB] = "%.1f" };

	figure_add(out, fserver_metrics[m].key, fserver_metrics[m].title, fmt[m], value);
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
	metric_add(out, FS_JOBS_PER_MIN, res->ops_per_s * 60.0);
	metric_add(out, FS_JOB_MS_MEAN, jobs && res->tsc_hz > 0 ? (double)cycles / (double)jobs / res->tsc_hz * 1e3 : 0);
	/* Jobs done only: `acquisitions` also holds the abandoned jobs' calls. */
	metric_add(out, FS_ACQ_PER_JOB, jobs ? (double)acq / (double)jobs : 0);
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
	.per_minute = true,
	.meets_in_kernel = true,
	.shared_size = sizeof(struct fserver_shared),
	.thread_size = sizeof(struct fs_thread),
	.fds_shared = WDIR_FDS,
	/* Its directory stream and two socketpairs, and a disk test's two files. */
	.fds_per_thread = 7,
	.takes_dir = true,
	.options = fserver_options,
	.settings_figures = fserver_settings_figures,
	.setup = fserver_setup,
	.thread_setup = fs_thread_setup,
	.op = fserver_op,
	.thread_teardown = fs_thread_teardown,
	.verify = fserver_verify,
	.teardown = fserver_teardown,
	.figures = fserver_figures,
	.metrics = fserver_metrics,
};
