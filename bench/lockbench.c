/* lockbench.c — main(): parse, run, report.  Exit statuses in harness.h. */
#include <stdio.h>
#include <unistd.h>

#include "cli.h"
#include "report.h"
#include "run.h"
#include "topology.h"

static int fail_usage(const char *msg)
{
	fprintf(stderr, "lockbench: %s\n", msg);
	return EXIT_USAGE;
}

static int run_and_report(const struct bench_config *cfg)
{
	struct bench_result res;
	struct outdir od;
	char err[1024];
	int status;

	bench_catch_stop_signals();
	if (cfg->out_dir && outdir_open(&od, cfg->out_dir, err, sizeof(err)) != 0)
		return fail_usage(err);
	status = bench_run(cfg, &res, err, sizeof(err));
	/* A failed invariant still shows its figures: they say how badly. */
	if ((status == EXIT_OK || status == EXIT_INVARIANT) && !cfg->quiet)
		report_print(&res, stdout);
	if (status == EXIT_OK) {
		if (cfg->out_dir && (report_write(&res, &od, err, sizeof(err)) != 0 ||
				     outdir_commit(&od, err, sizeof(err)) != 0))
			status = EXIT_RUNTIME;
		else if (cfg->out_dir && !cfg->quiet)
			printf("results: %s\n", od.final);
	}
	if (status != EXIT_OK)
		fprintf(stderr, "lockbench: %s\n", err);
	if (cfg->out_dir)
		outdir_abort(&od);
	bench_result_free(&res);
	return status;
}

/* A run that left threads inside a stuck lock: exit handlers must not run
 * under them (LeakSanitizer's among them: what the threads still hold lives
 * in NUMA-placed pages it does not scan, so it would call it leaked). */
static int finish(int status)
{
	if (!bench_run_abandoned())
		return status;
	fflush(stdout);
	fflush(stderr);
	_exit(status);
}

int main(int argc, char **argv)
{
	struct bench_config cfg;
	char err[1024];

	switch (cli_parse(argc, argv, &cfg, err, sizeof(err))) {
	case CLI_HELP:
		cli_usage(stdout);
		return EXIT_OK;
	case CLI_LIST:
		cli_list(stdout);
		return EXIT_OK;
	case CLI_TOPOLOGY:
		return topology_report(stdout);
	case CLI_RUN:
		return finish(run_and_report(&cfg));
	default:
		return fail_usage(err);
	}
}
