/* lockbench.c — main(): parse, run, report.  Exit statuses in config.h. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "plan.h"
#include "exec/launcher/launcher.h"
#include "output/outdir.h"
#include "output/report.h"
#include "platform/placement.h"
#include "platform/topology.h"
#include "run/run.h"
#include "run/runctl.h"
#include "run/simrun.h"
#include "../common/safefile.h"

static int fail_usage(const char *msg)
{
	fprintf(stderr, "lockbench: %s\n", msg);
	return EXIT_USAGE;
}

static int stopped(char *err, size_t errlen)
{
	return bench_stopped(err, errlen, "nothing written");
}

/* The result files, whole or not at all: a stop signal that comes while
 * they are written means none (the rename is the last step). */
static int write_results(const struct bench_result *res, struct outdir *od, char *err, size_t errlen)
{
	if (report_write(res, od, err, errlen) != 0)
		return bench_write_status(errno, EXIT_RUNTIME);
	bench_test_point("write", 0);
	if (bench_stop_signal())
		return stopped(err, errlen);
	return outdir_commit(od, err, errlen) != 0 ? bench_write_status(errno, EXIT_RUNTIME) : EXIT_OK;
}

static int run_and_report(const struct bench_config *cfg)
{
	struct bench_result res;
	struct outdir od;
	char err[1024];
	int status;

	bench_catch_stop_signals();
	if (cfg->out_dir && outdir_open(&od, cfg->out_dir, err, sizeof(err)) != 0) {
		if (bench_write_status(errno, EXIT_USAGE) == EXIT_OUT_FULL) {
			fprintf(stderr, "lockbench: %s\n", err);
			return EXIT_OUT_FULL;
		}
		return fail_usage(err);
	}
	status = cfg->sim_profile ? bench_simrun(cfg, &res, err, sizeof(err)) : bench_run(cfg, &res, err, sizeof(err));
	/* A failed invariant still shows its figures: they say how badly. */
	if ((status == EXIT_OK || status == EXIT_INVARIANT) && !cfg->quiet)
		report_print(&res, stdout);
	/* A stop that came while the summary was printed. */
	if (status == EXIT_OK && bench_stop_signal())
		status = stopped(err, sizeof(err));
	if (status == EXIT_OK && cfg->out_dir)
		status = write_results(&res, &od, err, sizeof(err));
	if (status == EXIT_OK && cfg->out_dir && !cfg->quiet)
		printf("results: %s\n", od.final);
	if (status != EXIT_OK)
		fprintf(stderr, "lockbench: %s\n", err);
	if (cfg->out_dir)
		outdir_abort(&od);
	bench_result_free(&res);
	return status;
}

/* Every exit: standard output's writes checked, as a result file's are (a
 * full disk under `> file` is an error, not exit 0; one line says so).  The
 * results of a run stay written. */
static int end(int status)
{
	if (sf_close_stdout("lockbench", status != EXIT_OK) != 0 && status == EXIT_OK)
		return EXIT_RUNTIME;
	return status;
}

/* A run that left threads inside a stuck lock: exit handlers must not run
 * under them (LeakSanitizer's among them: what the threads still hold lives
 * in NUMA-placed pages it does not scan, so it would call it leaked). */
static int finish(int status)
{
	status = end(status);
	if (!bench_run_abandoned())
		return status;
	fflush(stderr);
	_exit(status);
}

/* After --list's sections, `simulated:`: the locks --sim runs (sim/locks_sim.def), a name a line. */
static void list_sim_locks(void)
{
	printf("simulated:\n");
	for (size_t i = 0; i < lock_registry_len; i++)
		if (bench_sim_lock(lock_registry[i]->name))
			printf("  %s\n", lock_registry[i]->name);
}

/* --topology: what hwloc sees, then where each placement policy puts threads. */
static int report_topology(void)
{
	if (topology_report(stdout) != 0)
		return EXIT_RUNTIME;
	placement_print_orders(stdout);
	return EXIT_OK;
}

int main(int argc, char **argv)
{
	struct bench_config cfg;
	char err[1024];

	if (argc > 1 && !strcmp(argv[1], "--plan"))
		return end(plan_main(argc - 1, argv + 1));
	switch (cli_parse(argc, argv, &cfg, err, sizeof(err))) {
	case CLI_HELP:
		cli_usage(stdout);
		return end(EXIT_OK);
	case CLI_LIST:
		cli_list(stdout);
		list_sim_locks();
		return end(EXIT_OK);
	case CLI_TOPOLOGY:
		return end(report_topology());
	case CLI_RUN:
		if (cfg.exec_argv)
			return end(exec_run_and_report(&cfg));
		return finish(run_and_report(&cfg));
	default:
		return end(fail_usage(err));
	}
}
