/*
 * workload_util.h — fixtures for the file-workload tests (test_workloads.c,
 * test_workloads_stop.c): each run's fresh parent directory (its --dir),
 * which must be empty at the end; a config that runs a workload in it; a
 * workload's shared state and the private directory it made there.
 */
#ifndef LOCKBENCH_TESTS_WORKLOAD_UTIL_H
#define LOCKBENCH_TESTS_WORKLOAD_UTIL_H

#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "../bench/run/run.h"
#include "../bench/workloads/workload.h"

/* Bounded in time and in operations: spinlocks crawl when oversubscribed. */
#define RUN_SECONDS 0.25
#define WARMUP_SECONDS 0.05
#define CREAT_MAX_OPS 5000u
#define FSERVER_MAX_JOBS 10u

/* Each test binary gets its own (static): this test's --dir. */
static char parent[4096];

static inline unsigned int more_threads_than_cpus(void)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	return cpus > 2 ? (unsigned int)cpus + 2 : 4;
}

static inline void parent_make(void)
{
	const char *tmp = getenv("TMPDIR");

	snprintf(parent, sizeof(parent), "%s/lbtest-workloads-XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
	assert_non_null(mkdtemp(parent));
}

static inline long parent_entries(void)
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
static inline void parent_check_empty_and_remove(void)
{
	assert_int_equal(parent_entries(), 0);
	assert_int_equal(rmdir(parent), 0);
}

static inline struct bench_config config_for(const char *lock, const char *workload)
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
		.seed = 1,
		.quiet = true,
	};

	assert_non_null(cfg.workload);
	cfg.max_ops = strcmp(workload, "fserver") ? CREAT_MAX_OPS : FSERVER_MAX_JOBS;
	return cfg;
}

/* A workload option set as `--KEY VALUE` sets it (cfg's workload has it). */
static inline void config_option(struct bench_config *cfg, const char *key, const char *value)
{
	const struct option_def *o = workload_option_find(cfg->workload, key);
	char err[256];

	assert_non_null(o);
	assert_int_equal(o->set(cfg->wl_settings.bytes, value, err, sizeof(err)), 0);
}

static inline void *shared_new(const struct workload_ops *wl)
{
	void *shared = aligned_alloc(CACHELINE_PAIR, ALIGN_UP(wl->shared_size, CACHELINE_PAIR));

	assert_non_null(shared);
	memset(shared, 0, wl->shared_size);
	return shared;
}

/* The workload's private directory: the one entry of the parent. */
static inline void private_dir(char *buf, size_t len)
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

#endif
