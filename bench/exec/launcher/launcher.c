/*
 * launcher.c — `lockbench -l LOCK --exec [-o DIR] [--metric NAME=REGEX]...
 * -- PROGRAM ARGS...` (docs/exec.md), launcher.h's one entry: the run's
 * checks, setup and steps in order, each job in its file
 * (launcher_internal.h lists them).
 *
 * The program runs with liblockbench-exec.so (bench/exec/) preloaded, told
 * the lock, its settings, --timing and --seed through the environment, its
 * standard output and error captured to files in a private directory where
 * each of its processes also leaves exec-PID.csv and mutexes-PID.csv at its
 * exit (exec_file.h).  Once it has exited those are merged into one struct
 * bench_result — the program's figures as one "thread" — and written by
 * the same report code as a benchmark's (summary.csv, hist*.csv, checks.csv,
 * meta.csv...), with the program's own figures among summary.csv's keys
 * (program_*, metric_*), its output (program-stdout.txt,
 * program-stderr.txt) and mutexes.csv (the most contended mutexes, their
 * call sites symbolized with elfutils' libdwfl where it is installed).
 *
 * The program's life is the launcher's (docs/exec.md, "The program's
 * life"): every process it starts is waited for, a daemon's too (this
 * process is their subreaper); a stop signal to lockbench is the
 * benchmark's (runctl.h), passed on to them, and what they gathered is
 * written; the private directory is stamped and swept as the file
 * workloads' is (fileutil.h), and its inner directory takes the figures of a
 * process that has dropped its privileges.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "launcher.h"
#include "launcher_internal.h"
#include "../../platform/hist.h"
#include "../../platform/placement.h"
#include "../../run/runctl.h"
#include "../../../common/text.h"
#include "../../../locks/bpfload.h"

static int exec_check(struct exec_run *x, char *err, size_t errlen)
{
	const struct bench_config *cfg = x->cfg;

	if (cfg->lock->flags & LOCK_F_NO_EXCLUSION)
		return fail(err, errlen, EXIT_USAGE, "--exec: lock %s takes no lock: the program would run "
			    "unprotected", cfg->lock->name);
	if (cfg->lock->flags & LOCK_F_PER_LOCK_THREAD)
		return fail(err, errlen, EXIT_USAGE, "--exec: lock %s sizes its state for a fixed set of threads, "
			    "which a program does not announce", cfg->lock->name);
	if (cfg->kernel_locks) {
		char why[400];

		/* Asked before the program is started; the load itself must wait
		 * for its pid (exec_run_program). */
		if (bpfload_check(why, sizeof(why)) != 0)
			return fail(err, errlen, EXIT_USAGE, "--kernel-locks: %s", why);
	}
	for (unsigned int i = 0; i < cfg->exec_metrics_n; i++) {
		size_t len = exec_metric_name_len(cfg->exec_metrics[i]);

		for (unsigned int j = 0; j < i; j++)
			if (exec_metric_name_len(cfg->exec_metrics[j]) == len &&
			    strncmp(cfg->exec_metrics[j], cfg->exec_metrics[i], len) == 0)
				return fail(err, errlen, EXIT_USAGE, "--metric: '%.*s' given twice%s",
					    (int)len, cfg->exec_metrics[i],
					    cfg->exec_program && i == cfg->exec_metrics_n - 1 ? " (--program's own)" : "");
		x->nmetrics++;
		if (exec_metric_parse(&x->metric[i], cfg->exec_metrics[i], err, errlen))
			return EXIT_USAGE;
	}
	return 0;
}

/* The private directory and everything the program and library left in it. */
static void cleanup(struct exec_run *x)
{
	if (x->dir_fd >= 0)
		close(x->dir_fd);
	wdir_remove(&x->wd);
	for (unsigned int i = 0; i < x->nmetrics; i++)
		if (x->metric[i].compiled)
			regfree(&x->metric[i].re);
	free(x->mutexes);
	free(x->pin_order);
	free(x->pin_env);
	free(x->preload);
	free(x->prog);
	free(x->prog_lt);
}

static int exec_setup(struct exec_run *x, char *err, size_t errlen)
{
	int status = exec_private_dir(x, err, errlen);

	if (status)
		return status;
	x->prog = aligned_alloc(CACHELINE, sizeof(*x->prog));
	x->prog_lt = aligned_alloc(CACHELINE, ALIGN_UP(sizeof(*x->prog_lt), CACHELINE));
	x->mutexes = calloc(EXEC_MAX_MUTEXES, sizeof(*x->mutexes));
	if (!x->prog || !x->prog_lt || !x->mutexes)
		return fail(err, errlen, EXIT_RUNTIME, "--exec: out of memory");
	memset(x->prog, 0, sizeof(*x->prog));
	memset(x->prog_lt, 0, sizeof(*x->prog_lt));
	hist_reset(&x->prog->acq);
	hist_reset(&x->prog->acq_contended);
	return 0;
}

/* --pin: the policy's CPU order, as a benchmark's (placement.h), passed
 * to the library as LOCKBENCH_EXEC_PIN "CPU,CPU,...", which places thread
 * i (creation order, the main thread first) on CPU i mod n.  Then the
 * machine probed as a benchmark's is, on those CPUs (every usable one
 * unpinned): before the program, so that the kernel lock capture has the
 * TSC rate from its start. */
static int exec_place(struct exec_run *x, char *err, size_t errlen)
{
	static const int cpu_unpinned = -1;
	size_t len = 0, cap;

	x->pin_order_n = placement_order(exec_pin(x->cfg), &x->pin_order, err, errlen);
	if (x->pin_order_n < 0) {
		x->pin_order_n = 0;
		return EXIT_USAGE;
	}
	if (x->pin_order_n > 0) {
		cap = (size_t)x->pin_order_n * 12 + 1;
		x->pin_env = malloc(cap);
		if (!x->pin_env)
			return fail(err, errlen, EXIT_RUNTIME, "--exec: out of memory");
		x->pin_env[0] = '\0';
		for (int i = 0; i < x->pin_order_n; i++)
			len += (size_t)snprintf(x->pin_env + len, cap - len, "%s%d", i ? "," : "", x->pin_order[i]);
	}
	if (x->pin_order_n > 0)
		machine_probe(&x->machine, x->pin_order, (unsigned int)x->pin_order_n);
	else
		machine_probe(&x->machine, &cpu_unpinned, 1);
	return 0;
}

/* The program run and its figures read and reported; the verdict in err. */
static int exec_program(struct exec_run *x, const char *so, struct outdir *od, char *err, size_t errlen)
{
	char verdict_err[1024], metric_err[1024];
	int status = exec_setup(x, err, errlen), verdict, metrics;

	if (!status)
		status = exec_preload_list(x, so, err, errlen);
	if (!status)
		status = exec_place(x, err, errlen);
	if (!status)
		status = exec_run_program(x, err, errlen);
	if (!status && exec_read_library_files(x) != 0)
		status = fail(err, errlen, EXIT_RUNTIME, "--exec: %s: %s", x->dir, strerror(errno));
	if (status)
		return status;
	/* Metrics are read from a failed program's output too. */
	metrics = exec_metrics_match(x, metric_err, sizeof(metric_err));
	verdict = exec_program_verdict(x, verdict_err, sizeof(verdict_err));
	if (!verdict && metrics) {
		verdict = metrics;
		snprintf(verdict_err, sizeof(verdict_err), "%s", metric_err);
	}
	if (x->stop_sig)
		verdict = exec_stop_verdict(x, verdict_err, sizeof(verdict_err));
	status = exec_report(x, od, verdict, err, errlen);
	if (status == verdict && verdict)
		snprintf(err, errlen, "%s", verdict_err);
	return status;
}

int exec_run_and_report(const struct bench_config *cfg)
{
	/* Aligned as its members ask (a cache line): calloc() promises 16 bytes. */
	struct exec_run *x = aligned_alloc(_Alignof(struct exec_run), sizeof(*x));
	struct outdir od;
	char err[1024] = "";
	const char *so;
	int status;

	if (!x) {
		fprintf(stderr, "lockbench: --exec: out of memory\n");
		return EXIT_RUNTIME;
	}
	memset(x, 0, sizeof(*x));
	x->cfg = cfg;
	x->dir_fd = x->wd.fd = x->wd.parent_fd = -1;
	bench_catch_stop_signals();
	status = exec_check(x, err, sizeof(err));
	/* The program's orphans (a daemon's child) become ours to wait for. */
	if (!status && prctl(PR_SET_CHILD_SUBREAPER, 1) != 0)
		status = fail(err, sizeof(err), EXIT_RUNTIME, "--exec: PR_SET_CHILD_SUBREAPER: %s", strerror(errno));
	so = status ? NULL : exec_so(err, sizeof(err));
	if (!status && !so)
		status = EXIT_USAGE;
	if (!status && cfg->out_dir && outdir_open(&od, cfg->out_dir, err, sizeof(err)) != 0)
		status = bench_write_status(errno, EXIT_USAGE);
	else if (!status) {
		status = exec_program(x, so, &od, err, sizeof(err));
		if (cfg->out_dir)
			outdir_abort(&od);
	}
	text_one_line(err);
	if (status)
		fprintf(stderr, "lockbench: %s\n", err);
	cleanup(x);
	free(x);
	return status;
}
