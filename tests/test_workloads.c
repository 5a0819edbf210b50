/*
 * test_workloads.c — the file workloads (creat, fserver) through bench_run():
 * under several locks with more threads than CPUs every operation made and
 * removed its names and the directory is gone afterwards; injected ENOSPC,
 * EMFILE and EACCES end the run with one line and leave nothing behind; a
 * bad --dir is a usage error; verify() catches what it is there to catch; a
 * stop that lands anywhere in an fserver job abandons it within one locked
 * call, with nothing left made or open, and a creat op whose first lock()
 * returns after the stop makes nothing.  Each run gets a fresh parent
 * directory, which must be empty at the end.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "../bench/fileutil.h"
#include "../bench/run.h"
#include "../bench/workload.h"

/* Bounded in time and in operations: spinlocks crawl when oversubscribed. */
#define RUN_SECONDS 0.25
#define WARMUP_SECONDS 0.05
#define CREAT_MAX_OPS 5000u
#define FSERVER_MAX_JOBS 10u

struct run_case {
	const char *lock;
	const char *workload;
};

/* ---- fixtures ---- */

static char parent[4096];  /* this test's --dir */

static unsigned int more_threads_than_cpus(void)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	return cpus > 2 ? (unsigned int)cpus + 2 : 4;
}

static void parent_make(void)
{
	const char *tmp = getenv("TMPDIR");

	snprintf(parent, sizeof(parent), "%s/lbtest-workloads-XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
	assert_non_null(mkdtemp(parent));
}

static long parent_entries(void)
{
	DIR *dir = opendir(parent);
	struct dirent *e;
	long n = 0;

	assert_non_null(dir);
	while ((e = readdir(dir)) != NULL)
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			n++;
	closedir(dir);
	return n;
}

/* The workload left nothing in --dir; then --dir itself goes. */
static void parent_check_empty_and_remove(void)
{
	assert_int_equal(parent_entries(), 0);
	assert_int_equal(rmdir(parent), 0);
}

static struct bench_config config_for(const char *lock, const char *workload)
{
	struct bench_config cfg = {
		.lock = lock_find(lock),
		.workload = workload_find(workload),
		.threads = more_threads_than_cpus(),
		.duration_s = RUN_SECONDS,
		.warmup_s = WARMUP_SECONDS,
		.pin = "rr",
		.lock_node = -1,
		.dir = parent,
		.file_size = 4096,
		.pool_size = 16,
		.seed = 1,
		.quiet = true,
	};

	assert_non_null(cfg.workload);
	cfg.max_ops = strcmp(workload, "fserver") ? CREAT_MAX_OPS : FSERVER_MAX_JOBS;
	return cfg;
}

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
};

static void injected_faults_fail_cleanly(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(fault_cases) / sizeof(fault_cases[0]); i++) {
		const struct fault_case *fc = &fault_cases[i];
		struct bench_config cfg;

		parent_make();
		cfg = config_for(fc->lock, fc->workload);
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
	cfg.pool_size = 65536;
	cfg.file_size = UINT64_C(1) << 30;
	expect_failure(&cfg, EXIT_USAGE, "--pool-size x --file-size");
	parent_check_empty_and_remove();
}

/* ---- verify() can fail ---- */

static void *shared_new(const struct workload_ops *wl)
{
	void *shared = aligned_alloc(CACHELINE_PAIR, ALIGN_UP(wl->shared_size, CACHELINE_PAIR));

	assert_non_null(shared);
	memset(shared, 0, wl->shared_size);
	return shared;
}

/* The workload's private directory: the one entry of the parent. */
static void private_dir(char *buf, size_t len)
{
	DIR *dir = opendir(parent);
	struct dirent *e;

	assert_non_null(dir);
	buf[0] = '\0';
	while ((e = readdir(dir)) != NULL)
		if (strncmp(e->d_name, "lockbench-", 10) == 0) {
			int n = snprintf(buf, len, "%s/%s", parent, e->d_name);

			assert_true(n > 0 && (size_t)n < len);
		}
	closedir(dir);
	assert_true(buf[0] != '\0');
}

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

/* ---- the stop abandons an fserver job cleanly ---- */

/*
 * One thread runs fserver_op() directly over a stand-in lock that only counts
 * acquisitions; the run "stops" (the phase word bench_stopping() reads turns
 * PHASE_STOP) at the N-th acquisition, or inside the first call of a given
 * kind through fileutil's seam: while a file, link or directory is made, a
 * pool file opened or written.  Wherever it lands the job must give up after
 * at most one more locked call (the one that removes what it made), leave no
 * name and no descriptor behind, and the next job must run as usual.
 */
static int stop_phase;            /* what bench_thread.phase points at */
static uint64_t stop_acquisitions;
static uint64_t stop_at_acquisition; /* 0: not by count */
static enum fu_call stop_at_call;    /* FU_NR: not by call */
static uint64_t acquisitions_at_stop;

static void stop_now(void)
{
	if (stop_phase == PHASE_STOP)
		return;
	stop_phase = PHASE_STOP;
	acquisitions_at_stop = stop_acquisitions;
}

static bool counting_lock(void *lock, struct lock_thread *self)
{
	(void)lock;
	(void)self;
	if (++stop_acquisitions == stop_at_acquisition)
		stop_now();
	return false;
}

static void counting_unlock(void *lock, struct lock_thread *self)
{
	(void)lock;
	(void)self;
}

static const struct lock_ops counting_lock_ops = {
	.name = "counting", .lock = counting_lock, .unlock = counting_unlock,
};

/* Called before each fileutil call; injects nothing, only stops the run. */
static int stop_hook(enum fu_call call)
{
	if (call == stop_at_call)
		stop_now();
	return 0;
}

static long open_descriptors(void)
{
	DIR *dir = opendir("/proc/self/fd");
	long n = 0;

	assert_non_null(dir);
	while (readdir(dir))
		n++;
	closedir(dir);
	return n;
}

static long dir_entries(const char *path)
{
	DIR *dir = opendir(path);
	struct dirent *e;
	long n = 0;

	assert_non_null(dir);
	while ((e = readdir(dir)) != NULL)
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") && strcmp(e->d_name, FU_OWNER_FILE))
			n++;
	closedir(dir);
	return n;
}

/* One job with a stop armed; returns what op() returned, after the checks. */
static int job_with_stop(struct bench_thread *t, const char *dir, uint64_t at_acquisition,
			 enum fu_call at_call, uint64_t job_len)
{
	long fds = open_descriptors();
	int rc;

	stop_phase = PHASE_MEASURE;
	stop_acquisitions = 0;
	stop_at_acquisition = at_acquisition;
	stop_at_call = at_call;
	rc = t->cfg->workload->op(t);
	print_message("# stop at acquisition %" PRIu64 " / call %d: op %d after %" PRIu64
		      " acquisitions (stop at %" PRIu64 ")\n", at_acquisition, (int)at_call, rc,
		      stop_acquisitions, acquisitions_at_stop);
	if (stop_phase == PHASE_STOP) {
		/* The interrupted call, then at most the one that undoes it. */
		assert_true(stop_acquisitions <= acquisitions_at_stop + 1);
		assert_true(rc == WL_OP_ABANDONED || (rc == WL_OP_DONE && stop_acquisitions == job_len));
	} else {
		assert_int_equal(rc, WL_OP_DONE);
	}
	assert_int_equal(dir_entries(dir), t->cfg->pool_size);
	assert_int_equal(open_descriptors(), fds);
	return rc;
}

/* A workload thread outside the harness, over the counting lock and with
 * stop_phase as its run's phase; cfg is set up, dir names the private dir. */
static struct bench_thread *stop_thread_new(const struct workload_ops *wl, void *shared,
					    struct bench_config *cfg, char *dir, size_t dirlen)
{
	struct bench_thread *t = aligned_alloc(CACHELINE_PAIR, ALIGN_UP(sizeof(*t), CACHELINE_PAIR));
	char err[1024] = "";

	assert_non_null(t);
	memset(t, 0, sizeof(*t));
	assert_int_equal(wl->setup(shared, cfg, err, sizeof(err)), WL_SETUP_OK);
	private_dir(dir, dirlen);
	t->wl = calloc(1, wl->thread_size);
	assert_non_null(t->wl);
	t->wl_shared = shared;
	t->cfg = cfg;
	t->lock_ops = &counting_lock_ops;
	t->phase = &stop_phase;
	hist_reset(&t->acq);
	assert_int_equal(wl->thread_setup(t), 0);
	return t;
}

static void fserver_stop_abandons_cleanly(void **state)
{
	static const uint64_t at_acquisition[] = { 1, 2, 3, 4, 5, 10, 100, 737 };
	static const enum fu_call at_call[] = { FU_CREATE, FU_MKDIR, FU_LINK, FU_OPEN, FU_WRITE,
						FU_SYNC, FU_UNLINK };
	const struct workload_ops *wl = workload_find("fserver");
	void *shared = shared_new(wl);
	struct bench_thread *t;
	struct bench_config cfg;
	char err[1024] = "", dir[4200];
	uint64_t done = 0, job_len;

	(void)state;
	parent_make();
	cfg = config_for("pthread", "fserver");
	cfg.threads = 1;
	t = stop_thread_new(wl, shared, &cfg, dir, sizeof(dir));
	fileutil_fault = stop_hook;
	/* A whole job first: how many locked calls one takes. */
	done += job_with_stop(t, dir, 0, FU_NR, 0) == WL_OP_DONE;
	job_len = stop_acquisitions;
	assert_true(job_len > 1000);
	for (size_t i = 0; i < sizeof(at_call) / sizeof(at_call[0]); i++)
		done += job_with_stop(t, dir, 0, at_call[i], job_len) == WL_OP_DONE;
	for (size_t i = 0; i < sizeof(at_acquisition) / sizeof(at_acquisition[0]); i++)
		done += job_with_stop(t, dir, at_acquisition[i], FU_NR, job_len) == WL_OP_DONE;
	/* The very last locked call: the job may end before it looks again. */
	done += job_with_stop(t, dir, job_len, FU_NR, job_len) == WL_OP_DONE;
	fileutil_fault = NULL;
	wl->thread_teardown(t);
	/* Only the jobs done count; the abandoned ones removed what they made. */
	assert_int_equal(wl->verify(shared, done, err, sizeof(err)), 0);
	assert_int_equal(wl->verify(shared, done + 1, err, sizeof(err)), -1);
	wl->teardown(shared, &cfg);
	free(t->wl);
	free(t);
	free(shared);
	parent_check_empty_and_remove();
}

/* creat: a thread whose create lock() returns after the stop makes nothing. */
static void creat_stop_abandons_cleanly(void **state)
{
	const struct workload_ops *wl = workload_find("creat");
	void *shared = shared_new(wl);
	struct bench_thread *t;
	struct bench_config cfg;
	char err[1024] = "", dir[4200];

	(void)state;
	parent_make();
	cfg = config_for("pthread", "creat");
	t = stop_thread_new(wl, shared, &cfg, dir, sizeof(dir));
	for (uint64_t at = 1; at <= 3; at++) {
		stop_phase = PHASE_MEASURE;
		stop_acquisitions = 0;
		stop_at_acquisition = at;
		/* Stopped in the create's lock(): abandoned there; in the unlink's:
		 * the op is done; after the op: nothing to see. */
		assert_int_equal(wl->op(t), at == 1 ? WL_OP_ABANDONED : WL_OP_DONE);
		assert_int_equal(stop_acquisitions, at == 1 ? 1 : 2);
		assert_int_equal(dir_entries(dir), 0);
	}
	wl->thread_teardown(t);
	assert_int_equal(wl->verify(shared, 2, err, sizeof(err)), 0);
	wl->teardown(shared, &cfg);
	free(t->wl);
	free(t);
	free(shared);
	parent_check_empty_and_remove();
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
		cmocka_unit_test(injected_faults_fail_cleanly),
		cmocka_unit_test(dir_missing_is_usage),
		cmocka_unit_test(dir_not_a_directory_is_usage),
		cmocka_unit_test(dir_unwritable_is_usage),
		cmocka_unit_test(fserver_pool_too_big_is_usage),
		cmocka_unit_test(creat_verify_catches_leftovers),
		cmocka_unit_test(fserver_verify_catches_damaged_pool),
		cmocka_unit_test(fserver_stop_abandons_cleanly),
		cmocka_unit_test(creat_stop_abandons_cleanly),
	};

	return cmocka_run_group_tests_name("workloads", tests, NULL, NULL);
}
