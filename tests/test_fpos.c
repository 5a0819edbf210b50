/*
 * test_fpos.c — the fpos workload (bench/workloads/fpos.c): through bench_run() under
 * several locks, `none` included, with more threads than CPUs, its invariant
 * holds and --dir is left empty; and each part of the invariant can fail: a
 * lock that claims to exclude but does not is caught by the lock's order, a
 * block skipped on the shared offset by the kernel's order, a damaged block
 * by the whole-block check.  The planted faults go through the file system
 * (the workload's own descriptor, found in /proc/self/fd, and its file):
 * the shipped workload has no test hook.  Each test gets a fresh parent
 * directory, which must be empty at the end (tests/workload_util.h).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "workload_util.h"
#include "../bench/run/run.h"
#include "../bench/workloads/workload.h"

#define BLOCKS 64u          /* bench/workloads/fpos.c's FPOS_BLOCKS: the file's length in reads */
#define STAMP UINT64_C(0x66706f735f6f6666)

/* ---- runs ---- */

static const char *figure(const struct bench_result *res, const char *key)
{
	for (unsigned int i = 0; i < res->extra.n; i++)
		if (strcmp(res->extra.f[i].key, key) == 0)
			return res->extra.f[i].value;
	fail_msg("no figure '%s'", key);
	return NULL;
}

/* One run of fpos under `lock`: its exit status, the message in err. */
static int run_fpos(struct bench_config *cfg, struct bench_result *res, char *err, size_t errlen)
{
	int status = bench_run(cfg, res, err, errlen);

	print_message("# fpos/%s, %u threads, --cs %" PRIu64 ": status %d, %" PRIu64 " ops%s%s\n", cfg->lock->name,
		      cfg->threads, cfg->cs_cycles, status, res->ops_all, err[0] ? ": " : "", err);
	return status;
}

static void runs_cleanly(void **state)
{
	const char *lock = *state;
	struct bench_config cfg;
	struct bench_result res;
	char err[1024] = "";

	parent_make();
	cfg = config_for(lock, "fpos");
	/* Odd sizes too: a block of 8 bytes is one word, first and last. */
	config_option(&cfg, "read-size", strcmp(lock, "tas") == 0 ? "8" : "4096");
	assert_int_equal(run_fpos(&cfg, &res, err, sizeof(err)), EXIT_OK);
	/* Several passes over the file: rewinds were made, and checked. */
	assert_true(res.ops_all > 3 * BLOCKS);
	assert_int_equal(res.ops_abandoned, 0);
	assert_int_equal(res.acquisitions, res.ops);
	assert_string_equal(figure(&res, "sequence_checked"), strcmp(lock, "none") ? "1" : "0");
	bench_result_free(&res);
	parent_check_empty_and_remove();
}

/* ---- the lock's order: a lock that claims to exclude and does not ---- */

/* `none` without LOCK_F_NO_EXCLUSION: what a lock that fails to exclude
 * looks like to the workload. */
static struct lock_ops open_door_ops;

static void broken_lock_is_caught(void **state)
{
	struct bench_config cfg;
	struct bench_result res;
	char err[1024] = "";

	(void)state;
	parent_make();
	cfg = config_for("none", "fpos");
	open_door_ops = *cfg.lock;
	open_door_ops.name = "open-door";
	open_door_ops.flags &= ~(unsigned int)LOCK_F_NO_EXCLUSION;
	cfg.lock = &open_door_ops;
	/* Work between the read and the check: a wide window for a second
	 * thread inside, as counter's --cs is. */
	cfg.cs_cycles = 20000;
	cfg.max_ops = 0;
	assert_int_equal(run_fpos(&cfg, &res, err, sizeof(err)), EXIT_INVARIANT);
	assert_non_null(strstr(err, "the lock did not exclude"));
	assert_null(strchr(err, '\n'));
	bench_result_free(&res);
	/* The same run under `none`, which says it excludes nothing: only the
	 * kernel's order is checked, and f_pos_lock keeps it. */
	cfg.lock = lock_find("none");
	err[0] = '\0';
	assert_int_equal(run_fpos(&cfg, &res, err, sizeof(err)), EXIT_OK);
	bench_result_free(&res);
	parent_check_empty_and_remove();
}

/* ---- the kernel's order and whole blocks: faults planted in the file ---- */

/* A workload thread outside the harness, over `none`. */
struct fpos_rig {
	const struct workload_ops *wl;
	struct bench_config cfg;
	void *shared;
	struct bench_thread *t;
	char dir[4200], file[4300];
	uint64_t ops;
};

static void rig_open(struct fpos_rig *r, const char *read_size)
{
	char err[1024] = "";

	memset(r, 0, sizeof(*r));
	parent_make();
	r->wl = workload_find("fpos");
	/* `none`: the lock's order is not checked (broken_lock_is_caught does
	 * that), so each fault below meets the kernel order's checks alone. */
	r->cfg = config_for("none", "fpos");
	config_option(&r->cfg, "read-size", read_size);
	r->shared = shared_new(r->wl);
	assert_int_equal(r->wl->setup(r->shared, &r->cfg, err, sizeof(err)), WL_SETUP_OK);
	private_dir(r->dir, sizeof(r->dir));
	snprintf(r->file, sizeof(r->file), "%s/fpos-data", r->dir);
	r->t = aligned_alloc(CACHELINE_PAIR, ALIGN_UP(sizeof(*r->t), CACHELINE_PAIR));
	assert_non_null(r->t);
	memset(r->t, 0, sizeof(*r->t));
	r->t->wl = calloc(1, r->wl->thread_size);
	assert_non_null(r->t->wl);
	r->t->wl_shared = r->shared;
	r->t->cfg = &r->cfg;
	r->t->lock_ops = lock_find("none");
	hist_reset(&r->t->acq);
	hist_reset(&r->t->acq_contended);
	assert_int_equal(r->wl->thread_setup(r->t), 0);
}

static void rig_ops(struct fpos_rig *r, uint64_t n)
{
	for (uint64_t i = 0; i < n; i++)
		assert_int_equal(r->wl->op(r->t), WL_OP_DONE);
	r->ops += n;
}

/* Ends the thread, then verify() over the ops done: its status, message in err. */
static int rig_verify(struct fpos_rig *r, char *err, size_t errlen)
{
	r->wl->thread_teardown(r->t);
	return r->wl->verify(r->shared, r->ops, err, errlen);
}

static void rig_close(struct fpos_rig *r)
{
	r->wl->teardown(r->shared, &r->cfg);
	free(r->t->wl);
	free(r->t);
	free(r->shared);
	parent_check_empty_and_remove();
}

/* The workload's descriptor of its file: the one open on that path. */
static int rig_shared_fd(const struct fpos_rig *r)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int found = -1;

	assert_non_null(d);
	while ((e = readdir(d)) != NULL) {
		char link[300], target[4300];
		ssize_t n;

		snprintf(link, sizeof(link), "/proc/self/fd/%s", e->d_name);
		n = readlink(link, target, sizeof(target) - 1);
		if (n <= 0)
			continue;
		target[n] = '\0';
		if (strcmp(target, r->file) == 0)
			found = atoi(e->d_name);
	}
	closedir(d);
	assert_true(found >= 0);
	return found;
}

/* Whole passes and the offset at the end of one: the counts, the offset and
 * the rewinds agree with reads in order. */
static void passes_verify(void **state)
{
	struct fpos_rig r;
	char err[1024] = "";

	(void)state;
	rig_open(&r, "64");
	rig_ops(&r, 2 * BLOCKS);        /* ends exactly at the end: not rewound yet */
	assert_int_equal(rig_verify(&r, err, sizeof(err)), 0);
	/* verify() over the same counts with one op more or fewer fails. */
	assert_int_equal(r.wl->verify(r.shared, r.ops + 1, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "repeated or skipped"));
	assert_int_equal(r.wl->verify(r.shared, r.ops - 1, err, sizeof(err)), -1);
	rig_close(&r);
}

static void skipped_block_is_caught(void **state)
{
	struct fpos_rig r;
	char err[1024] = "";

	(void)state;
	rig_open(&r, "4096");
	rig_ops(&r, BLOCKS + 10);
	/* What a lost f_pos update does: the shared offset moves on a block
	 * that no read returned. */
	assert_true(lseek(rig_shared_fd(&r), 4096, SEEK_CUR) > 0);
	rig_ops(&r, 100);
	assert_int_equal(rig_verify(&r, err, sizeof(err)), -1);
	print_message("# %s\n", err);
	assert_non_null(strstr(err, "fpos invariant FAILED: block "));
	assert_non_null(strstr(err, "repeated or skipped"));
	rig_close(&r);
}

/* The offset alone: a rewind nobody counted leaves the block counts right
 * after whole passes, but not the offset and the rewinds. */
static void stray_rewind_is_caught(void **state)
{
	struct fpos_rig r;
	char err[1024] = "";

	(void)state;
	rig_open(&r, "64");
	rig_ops(&r, 2 * BLOCKS);
	assert_int_equal(lseek(rig_shared_fd(&r), 0, SEEK_SET), 0);
	assert_int_equal(rig_verify(&r, err, sizeof(err)), -1);
	print_message("# %s\n", err);
	assert_non_null(strstr(err, "the offset is 0 after 1 rewinds"));
	rig_close(&r);
}

/* A block whose first word stamps another offset. */
static void damaged_block_is_caught(void **state)
{
	struct fpos_rig r;
	char err[1024] = "";
	uint64_t wrong = (7 * 256) ^ STAMP;
	int fd;

	(void)state;
	rig_open(&r, "256");
	fd = open(r.file, O_WRONLY | O_CLOEXEC);
	assert_true(fd >= 0);
	assert_int_equal(pwrite(fd, &wrong, sizeof(wrong), 3 * 256), (ssize_t)sizeof(wrong));
	close(fd);
	rig_ops(&r, 10);
	assert_int_equal(rig_verify(&r, err, sizeof(err)), -1);
	print_message("# %s\n", err);
	assert_non_null(strstr(err, "1 of 10 reads returned something other than one whole 256-byte block"));
	rig_close(&r);
}

/* ---- the option ---- */

static void read_size_values(void **state)
{
	const struct option_def *o = workload_option_find(workload_find("fpos"), "read-size");
	static const char *const bad[] = { "0", "7", "12", "262152", "-8", "", "16k", "0x100", " 64" };
	struct workload_settings s;
	char err[256];

	(void)state;
	assert_non_null(o);
	assert_null(workload_option_find(workload_find("counter"), "read-size"));
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		memset(&s, 0, sizeof(s));
		assert_int_equal(o->set(s.bytes, bad[i], err, sizeof(err)), -1);
		assert_non_null(strstr(err, "is not a multiple of 8 in [8, 262144]"));
	}
	assert_int_equal(o->set(s.bytes, "8", err, sizeof(err)), 0);
	assert_int_equal(o->set(s.bytes, "262144", err, sizeof(err)), 0);
}

int main(void)
{
	static const char *const locks[] = { "pthread", "futex", "tas", "kmutex-handoff", "none" };
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_prestate(runs_cleanly, (void *)locks[0]),
		cmocka_unit_test_prestate(runs_cleanly, (void *)locks[1]),
		cmocka_unit_test_prestate(runs_cleanly, (void *)locks[2]),
		cmocka_unit_test_prestate(runs_cleanly, (void *)locks[3]),
		cmocka_unit_test_prestate(runs_cleanly, (void *)locks[4]),
		cmocka_unit_test(broken_lock_is_caught),
		cmocka_unit_test(passes_verify),
		cmocka_unit_test(skipped_block_is_caught),
		cmocka_unit_test(stray_rewind_is_caught),
		cmocka_unit_test(damaged_block_is_caught),
		cmocka_unit_test(read_size_values),
	};

	return cmocka_run_group_tests_name("fpos", tests, NULL, NULL);
}
