/*
 * test_workloads.c — the file workloads (creat, fserver; fpos's faults here,
 * the rest in test_fpos.c) through bench_run():
 * under several locks with more threads than CPUs every operation made and
 * removed its names and the directory is gone afterwards; injected ENOSPC,
 * EMFILE and EACCES end the run with one line and leave nothing behind; a
 * bad --dir is a usage error; verify() catches what it is there to catch.
 * Each run gets a fresh parent directory, which must be empty at the end
 * (tests/workload_util.h).  A stop part-way through an operation:
 * test_workloads_stop.c.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "workload_util.h"
#include "../bench/run/run.h"
#include "../bench/workloads/fileutil.h"
#include "../bench/workloads/workload.h"

struct run_case {
	const char *lock;
	const char *workload;
};

/* ---- fixtures ---- */

static uint64_t figure_u64(const struct bench_result *res, const char *key)
{
	for (unsigned int i = 0; i < res->extra.n; i++)
		if (strcmp(res->extra.f[i].key, key) == 0)
			return strtoull(res->extra.f[i].value, NULL, 10);
	fail_msg("no figure '%s'", key);
	return 0;
}

static double figure_double(const struct bench_result *res, const char *key)
{
	for (unsigned int i = 0; i < res->extra.n; i++)
		if (strcmp(res->extra.f[i].key, key) == 0)
			return strtod(res->extra.f[i].value, NULL);
	fail_msg("no figure '%s'", key);
	return 0;
}

/* ---- fault injection through fileutil's seam ---- */

static enum fu_call fault_call;
static unsigned long fault_after;   /* calls that succeed before the first failure */
static int fault_errno;
static unsigned long fault_seen;    /* matching calls so far, from any thread */

/* Like a file system that fills up: once failing, every later call fails. */
static int fault_hook(enum fu_call call)
{
	if (call != fault_call)
		return 0;
	/* Relaxed: a count; the test reads it after the join. */
	return __atomic_add_fetch(&fault_seen, 1, __ATOMIC_RELAXED) > fault_after ? fault_errno : 0;
}

static void fault_arm(enum fu_call call, unsigned long after, int err)
{
	fault_call = call;
	fault_after = after;
	fault_errno = err;
	fault_seen = 0;
	fileutil_fault = fault_hook;
}

/* Runs cfg with the fault armed: it must fail with `status`, one line naming `want`. */
static void expect_failure(struct bench_config *cfg, int status, const char *want)
{
	struct bench_result res;
	char err[1024] = "";
	int got = bench_run(cfg, &res, err, sizeof(err));

	fileutil_fault = NULL;
	print_message("# %s/%s: status %d: %s\n", cfg->workload->name, cfg->lock->name, got, err);
	assert_int_equal(got, status);
	assert_non_null(strstr(err, want));
	assert_null(strchr(err, '\n'));
	bench_result_free(&res);
}

/* ---- runs under several locks ---- */

static void run_cleanly(void **state)
{
	const struct run_case *rc = *state;
	struct bench_config cfg;
	struct bench_result res;
	char err[1024] = "";
	int status;

	if (!lock_find(rc->lock)) {
		print_message("# lock %s is not registered: skipped\n", rc->lock);
		skip();
	}
	parent_make();
	cfg = config_for(rc->lock, rc->workload);
	status = bench_run(&cfg, &res, err, sizeof(err));
	if (status != EXIT_OK)
		print_error("%s/%s: %s\n", rc->workload, rc->lock, err);
	assert_int_equal(status, EXIT_OK);
	print_message("# %s/%s, %u threads: %" PRIu64 " %s, %" PRIu64 " acquisitions\n", rc->workload,
		      rc->lock, cfg.threads, res.ops_all, cfg.workload->unit, res.acq.count);
	/* A slow lock may finish no fserver job in the interval: each thread
	 * gives up the one it is in at the stop, at most one per thread. */
	assert_true(res.ops_all + res.ops_abandoned > 0);
	assert_true(res.ops_abandoned <= cfg.threads);
	if (strcmp(rc->workload, "creat") == 0) {
		/* Each operation: one file created, one removed, two acquisitions;
		 * one abandoned at the stop: at most one acquisition, no file. */
		assert_int_equal(figure_u64(&res, "files_created"), res.ops_all);
		assert_int_equal(figure_u64(&res, "files_removed"), res.ops_all);
		assert_true(res.acq.count >= 2 * res.ops);
		assert_true(res.acq.count <= 2 * res.ops + res.ops_abandoned);
		assert_true(figure_double(&res, "op_cost_us_mean") > 0);
	} else {
		uint64_t names = figure_u64(&res, "names_per_job");

		assert_true(names > 0);
		assert_int_equal(figure_u64(&res, "files_created"), res.ops_all * names);
		assert_int_equal(figure_u64(&res, "files_removed"), res.ops_all * names);
		assert_true(figure_double(&res, "jobs_per_min") > 0 || res.ops == 0);
	}
	/* Every metric it declares, figures() gave (else summary.csv lacks it). */
	for (const struct workload_metric *m = cfg.workload->metrics; m && m->key; m++)
		assert_true(figure_double(&res, m->key) >= 0);
	bench_result_free(&res);
	parent_check_empty_and_remove();
}

/* ---- injected errors ---- */

/* One injected failure: the run must stop with EXIT_RUNTIME and one line
 * naming `want` (NULL: the errno's own text). */
struct fault_case {
	const char *lock, *workload;
	enum fu_call call;
	unsigned long after; /* calls that succeed first */
	int err;
	const char *want;
};

#define FAULT_RUN_SECONDS 60.0

static const struct fault_case fault_cases[] = {
	{ "futex", "creat", FU_CREATE, 200, ENOSPC, "creat: create c" },
	{ "futex", "creat", FU_CREATE, 200, ENOSPC, NULL },
	/* The file stays behind when unlink fails: teardown must remove it. */
	{ "pthread", "creat", FU_UNLINK, 100, EACCES, "unlink" },
	/* The pool takes 16 writes at setup; the job's writes come after. */
	{ "futex", "fserver", FU_WRITE, 300, ENOSPC, NULL },
	{ "futex", "fserver", FU_WRITE, 3, ENOSPC, "cannot create pool-3" },
	{ "pthread", "fserver", FU_OPEN, 50, EMFILE, NULL },
	{ "futex", "fserver", FU_LINK, 20, EMLINK, "link_test" },
	{ "futex", "fserver", FU_MKDIR, 20, EDQUOT, "dir_rtns_1" },
	/* fpos makes its one file at setup: 64 writes of 16 KiB. */
	{ "futex", "fpos", FU_CREATE, 0, ENOSPC, "fpos: cannot make the 1048576-byte fpos-data in " },
	{ "futex", "fpos", FU_WRITE, 10, ENOSPC, NULL },
	{ "pthread", "fpos", FU_OPEN, 0, EMFILE, "fpos-data" },
};

static void injected_faults_fail_cleanly(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(fault_cases) / sizeof(fault_cases[0]); i++) {
		const struct fault_case *fc = &fault_cases[i];
		struct bench_config cfg;

		parent_make();
		cfg = config_for(fc->lock, fc->workload);
		/* The fault, not the clock, must end the run: on a loaded machine
		 * (or under TSan) RUN_SECONDS can pass before the call that fails,
		 * and max_ops still bounds a run in which it never comes. */
		cfg.duration_s = FAULT_RUN_SECONDS;
		fault_arm(fc->call, fc->after, fc->err);
		expect_failure(&cfg, EXIT_RUNTIME, fc->want ? fc->want : strerror(fc->err));
		assert_true(fault_seen > fc->after);
		parent_check_empty_and_remove();
	}
}

/* ---- --dir ---- */

static void dir_missing_is_usage(void **state)
{
	struct bench_config cfg;

	(void)state;
	parent_make();
	cfg = config_for("pthread", "creat");
	cfg.dir = "/nonexistent-lockbench-dir/below";
	expect_failure(&cfg, EXIT_USAGE, "--dir: '/nonexistent-lockbench-dir/below'");
	cfg = config_for("pthread", "fserver");
	cfg.dir = "/nonexistent-lockbench-dir";
	expect_failure(&cfg, EXIT_USAGE, strerror(ENOENT));
	parent_check_empty_and_remove();
}

static void dir_not_a_directory_is_usage(void **state)
{
	struct bench_config cfg;
	char file[4200];
	int fd;

	(void)state;
	parent_make();
	snprintf(file, sizeof(file), "%s/plain-file", parent);
	fd = open(file, O_WRONLY | O_CREAT | O_EXCL, 0600);
	assert_true(fd >= 0);
	close(fd);
	cfg = config_for("pthread", "creat");
	cfg.dir = file;
	expect_failure(&cfg, EXIT_USAGE, strerror(ENOTDIR));
	assert_int_equal(unlink(file), 0);
	parent_check_empty_and_remove();
}

static void dir_unwritable_is_usage(void **state)
{
	struct bench_config cfg;

	(void)state;
	parent_make();
	/* Root writes anywhere: the seam stands in for a read-only directory. */
	cfg = config_for("pthread", "creat");
	fault_arm(FU_MKDTEMP, 0, EACCES);
	expect_failure(&cfg, EXIT_USAGE, strerror(EACCES));
	cfg = config_for("pthread", "fserver");
	fault_arm(FU_MKDTEMP, 0, EROFS);
	expect_failure(&cfg, EXIT_USAGE, strerror(EROFS));
	if (geteuid() != 0) {
		assert_int_equal(chmod(parent, 0500), 0);
		cfg = config_for("pthread", "creat");
		expect_failure(&cfg, EXIT_USAGE, strerror(EACCES));
		assert_int_equal(chmod(parent, 0700), 0);
	}
	parent_check_empty_and_remove();
}

static void fserver_pool_too_big_is_usage(void **state)
{
	struct bench_config cfg;

	(void)state;
	parent_make();
	cfg = config_for("pthread", "fserver");
	config_option(&cfg, "pool-size", "65536");
	config_option(&cfg, "file-size", "1073741824");
	expect_failure(&cfg, EXIT_USAGE, "--pool-size x --file-size");
	parent_check_empty_and_remove();
}

/* ---- verify() can fail ---- */

static void creat_verify_catches_leftovers(void **state)
{
	const struct workload_ops *wl = workload_find("creat");
	struct bench_config cfg;
	void *shared = shared_new(wl);
	char err[1024] = "", dir[4200], path[4300];
	int fd;

	(void)state;
	parent_make();
	cfg = config_for("pthread", "creat");
	assert_int_equal(wl->setup(shared, &cfg, err, sizeof(err)), WL_SETUP_OK);
	assert_int_equal(wl->verify(shared, 0, err, sizeof(err)), 0);
	assert_int_equal(wl->verify(shared, 3, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "3 operations"));
	private_dir(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/stray", dir);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
	assert_true(fd >= 0);
	close(fd);
	snprintf(path, sizeof(path), "%s/stray-dir", dir);
	assert_int_equal(mkdir(path, 0700), 0);
	snprintf(path, sizeof(path), "%s/stray-dir/inner", dir);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(wl->verify(shared, 0, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "2 entries left"));
	/* Teardown removes what the run left, a subdirectory included. */
	wl->teardown(shared, &cfg);
	free(shared);
	parent_check_empty_and_remove();
}

static void fserver_verify_catches_damaged_pool(void **state)
{
	const struct workload_ops *wl = workload_find("fserver");
	struct bench_config cfg;
	void *shared = shared_new(wl);
	char err[1024] = "", dir[4200], path[4300];

	(void)state;
	parent_make();
	cfg = config_for("pthread", "fserver");
	assert_int_equal(wl->setup(shared, &cfg, err, sizeof(err)), WL_SETUP_OK);
	assert_int_equal(wl->verify(shared, 0, err, sizeof(err)), 0);
	assert_int_equal(wl->verify(shared, 1, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "1 jobs should make and remove"));
	private_dir(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/pool-7", dir);
	assert_int_equal(truncate(path, 100), 0);
	assert_int_equal(wl->verify(shared, 0, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "pool-7"));
	wl->teardown(shared, &cfg);
	free(shared);
	parent_check_empty_and_remove();
}

/* A text of 1 to max bytes, none of them a comma or a control character: a
 * summary.csv value (common/metric.def). */
static bool csv_text(const char *s, size_t max)
{
	size_t n = s ? strlen(s) : 0;

	return n >= 1 && n <= max && !strpbrk(s, ",\n\r\t");
}

/* Every registered workload's metrics are declared as the reader accepts
 * them (results/README.md, "A workload's own metrics"). */
static void metrics_declared_as_read(void **state)
{
	(void)state;
	for (size_t w = 0; w < workload_registry_len; w++) {
		const struct workload_metric *metrics = workload_registry[w]->metrics;

		for (const struct workload_metric *m = metrics; m && m->key; m++) {
			print_message("# %s: metric %s\n", workload_registry[w]->name, m->key);
			assert_true(strlen(m->key) > 0 && strspn(m->key, "abcdefghijklmnopqrstuvwxyz0123456789_") == strlen(m->key));
			assert_true(csv_text(m->unit, METRIC_UNIT_MAX));
			assert_true(csv_text(m->title, METRIC_TITLE_MAX));
			assert_true(m->sense >= WM_COUNT && m->sense <= WM_LOWER);
			assert_non_null(m->how);
			for (const struct workload_metric *o = metrics; o < m; o++)
				assert_string_not_equal(o->key, m->key);
			assert_true(m - metrics < 8);   /* the reader's RESULT_METRICS_MAX */
		}
	}
}

int main(void)
{
	static const struct run_case cases[] = {
		{ "pthread", "creat" }, { "futex", "creat" }, { "tas", "creat" }, { "kmutex-fix", "creat" },
		{ "pthread", "fserver" }, { "futex", "fserver" }, { "tas", "fserver" }, { "kmutex-fix", "fserver" },
	};
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_prestate(run_cleanly, (void *)&cases[0]),
		cmocka_unit_test_prestate(run_cleanly, (void *)&cases[1]),
		cmocka_unit_test_prestate(run_cleanly, (void *)&cases[2]),
		cmocka_unit_test_prestate(run_cleanly, (void *)&cases[3]),
		cmocka_unit_test_prestate(run_cleanly, (void *)&cases[4]),
		cmocka_unit_test_prestate(run_cleanly, (void *)&cases[5]),
		cmocka_unit_test_prestate(run_cleanly, (void *)&cases[6]),
		cmocka_unit_test_prestate(run_cleanly, (void *)&cases[7]),
		cmocka_unit_test(metrics_declared_as_read),
		cmocka_unit_test(injected_faults_fail_cleanly),
		cmocka_unit_test(dir_missing_is_usage),
		cmocka_unit_test(dir_not_a_directory_is_usage),
		cmocka_unit_test(dir_unwritable_is_usage),
		cmocka_unit_test(fserver_pool_too_big_is_usage),
		cmocka_unit_test(creat_verify_catches_leftovers),
		cmocka_unit_test(fserver_verify_catches_damaged_pool),
	};

	return cmocka_run_group_tests_name("workloads", tests, NULL, NULL);
}
