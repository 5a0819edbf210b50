/* cli.h — the lockbench command line, parsed into a struct bench_config. */
#ifndef LOCKBENCH_CLI_H
#define LOCKBENCH_CLI_H

#include <stdio.h>

#include "core/config.h"

enum cli_action {
	CLI_RUN,       /* run the benchmark described by the config */
	CLI_LIST,      /* --list */
	CLI_HELP,      /* -h/--help */
	CLI_TOPOLOGY,  /* --topology */
};

/*
 * Parses argv into cfg (defaults first).  Returns the action, or -1 after
 * writing a one-line message to err: the caller exits with EXIT_USAGE.
 * cfg->cmdline points into a static buffer.
 */
int cli_parse(int argc, char **argv, struct bench_config *cfg, char *err, size_t errlen);

void cli_usage(FILE *out);
void cli_list(FILE *out);

#endif
