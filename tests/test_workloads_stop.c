/*
 * test_workloads_stop.c — a stop that lands anywhere in an fserver job
 * abandons it within one locked call, with nothing left made or open, and a
 * creat op whose first lock() returns after the stop makes nothing.  Each
 * test gets a fresh parent directory, which must be empty at the end
 * (tests/workload_util.h).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "workload_util.h"
#include "../bench/run/run.h"
#include "../bench/workloads/fileutil.h"
#include "../bench/workloads/workload.h"

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
#define STOP_POOL_FILES 7         /* --pool-size: a pool not the default's */
#define STOP_POOL_FILES_TEXT "7"
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
	assert_int_equal(dir_entries(dir), STOP_POOL_FILES);
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
	config_option(&cfg, "pool-size", STOP_POOL_FILES_TEXT);
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
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(fserver_stop_abandons_cleanly),
		cmocka_unit_test(creat_stop_abandons_cleanly),
	};

	return cmocka_run_group_tests_name("workloads-stop", tests, NULL, NULL);
}
