/*
 * write.c — an --exec run's result (launcher_internal.h): printed, and
 * with -o written by the same report code as a benchmark's (summary.csv,
 * hist*.csv, checks.csv, meta.csv...), plus mutexes.csv (the most
 * contended mutexes, their call sites named by sites.c) and the program's
 * output (program-stdout.txt, program-stderr.txt); without -o the output
 * is shown.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>

#include "launcher_internal.h"
#include "sites.h"
#include "../../output/report.h"
#include "../../../common/safefile.h"

#define EXEC_MUTEX_ROWS 20            /* mutexes.csv: the most contended */

/* A CSV field as written: its commas and line ends become ';'. */
static void csv_field(char *s)
{
	for (; *s; s++)
		if (*s == ',' || *s == '\n' || *s == '\r')
			*s = ';';
}

static int by_contention(const void *a, const void *b)
{
	const struct exec_mutex *x = a, *y = b;

	if (x->contentions != y->contentions)
		return x->contentions < y->contentions ? 1 : -1;
	return x->acquisitions < y->acquisitions ? 1 : x->acquisitions > y->acquisitions ? -1 : 0;
}

static void write_mutexes(struct exec_run *x, FILE *f)
{
	struct dw dw;
	bool have_dw = exec_dw_open(&dw);

	qsort(x->mutexes, x->nmutexes, sizeof(*x->mutexes), by_contention);
	fprintf(f, "rank,pid,mutex,destroyed,acquisitions,contentions,contended_timed,contended_cycles_mean,"
		   "site_object,site_address,site_function,site_source,wrapper_object,wrapper_address,"
		   "wrapper_function\n");
	for (unsigned int i = 0; i < x->nmutexes && i < EXEC_MUTEX_ROWS; i++) {
		struct exec_mutex *m = &x->mutexes[i];
		char fn[256], src[512], wfn[256], wsrc[512];

		exec_symbolize(&dw, m->object, m->address, fn, sizeof(fn), src, sizeof(src));
		exec_symbolize(&dw, m->wrapper_object, m->wrapper_address, wfn, sizeof(wfn), wsrc, sizeof(wsrc));
		csv_field(fn);
		csv_field(src);
		csv_field(wfn);
		csv_field(m->object);
		csv_field(m->wrapper_object);
		fprintf(f, "%u,%d,%s,%d,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%.1f,%s,%s,%s,%s,%s,%s,%s\n", i + 1,
			m->pid, m->mutex, m->destroyed, m->acquisitions, m->contentions, m->contended_timed,
			m->contended_timed ? (double)m->contended_cycles / (double)m->contended_timed : 0.0,
			m->object, m->address, have_dw ? fn : "-", have_dw ? src : "-", m->wrapper_object,
			m->wrapper_address, have_dw ? wfn : "-");
	}
	if (dw.so)
		dlclose(dw.so);
}

/* A file of the private directory copied into the result directory. */
static int copy_output(struct exec_run *x, const struct outdir *od, const char *name, char *err, size_t errlen)
{
	FILE *in = exec_open_private(x, name);
	struct sf_out out;
	char buf[65536];
	size_t n;

	if (!sf_out_open(&out, &od->files, name, err, errlen)) {
		if (in)
			fclose(in);
		return -1;
	}
	while (in && (n = fread(buf, 1, sizeof(buf), in)) > 0)
		fwrite(buf, 1, n, out.f);
	if (in)
		fclose(in);
	return sf_out_commit(&out, err, errlen);
}

static int write_exec_files(struct exec_run *x, const struct outdir *od, char *err, size_t errlen)
{
	struct sf_out out;

	if (!sf_out_open(&out, &od->files, "mutexes.csv", err, errlen))
		return -1;
	write_mutexes(x, out.f);
	if (sf_out_commit(&out, err, errlen) ||
	    copy_output(x, od, "program-stdout.txt", err, errlen) ||
	    copy_output(x, od, "program-stderr.txt", err, errlen))
		return -1;
	return 0;
}

/* Without -o the program's output is shown after it ends. */
static void show_output(struct exec_run *x, const char *name, FILE *to)
{
	FILE *in = exec_open_private(x, name);
	char buf[65536];
	size_t n;

	while (in && (n = fread(buf, 1, sizeof(buf), in)) > 0)
		fwrite(buf, 1, n, to);
	if (in)
		fclose(in);
}

int exec_report(struct exec_run *x, struct outdir *od, int verdict, char *err, size_t errlen)
{
	struct bench_result res;
	int status = verdict;

	exec_build_result(x, &res);
	if (!x->cfg->quiet) {
		report_print(&res, stdout);
		printf("program         %s: exit %d, signal %d, wall %.3f s, user %.3f s, sys %.3f s\n",
		       x->cfg->exec_argv[0], WIFEXITED(x->status) ? WEXITSTATUS(x->status) : -1,
		       WIFSIGNALED(x->status) ? WTERMSIG(x->status) : 0, x->wall_s, res.usage.user_s, res.usage.sys_s);
		for (unsigned int i = 0; i < x->nmetrics; i++)
			printf("metric          %s = %s\n", x->metric[i].name, x->metric[i].found ? x->metric[i].value : "(none)");
	}
	if (!x->cfg->out_dir) {
		show_output(x, "program-stdout.txt", stdout);
		show_output(x, "program-stderr.txt", stderr);
	} else if (report_write(&res, od, err, errlen) || write_exec_files(x, od, err, errlen) ||
		   outdir_commit(od, err, errlen)) {
		status = bench_write_status(errno, EXIT_RUNTIME);
	} else if (!x->cfg->quiet) {
		printf("results: %s\n", od->final);
	}
	/* Nothing of res is allocated: its one thread is x's (launcher.c's cleanup()). */
	return status;
}
