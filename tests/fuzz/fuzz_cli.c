/*
 * fuzz_cli.c — libFuzzer target for lockbench's option parser: the input,
 * split at NUL bytes, is argv[1..].  Every rejection must be a one-line
 * message; every accepted configuration must be in range.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../bench/cli.h"
#include "../../bench/workloads/workload.h"

#define MAX_ARGS 32

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size + 1), *argv[MAX_ARGS + 2];
	struct bench_config cfg;
	char err[1024] = "";
	int argc = 1, action;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';
	argv[0] = "lockbench";
	for (size_t i = 0; i <= size && argc <= MAX_ARGS; i++) {
		argv[argc++] = buf + i;
		i += strlen(buf + i);
	}
	argv[argc] = NULL;
	action = cli_parse(argc, argv, &cfg, err, sizeof(err));
	if (action < 0) {
		if (err[0] == '\0' || strchr(err, '\n'))
			abort();
	} else if (action == CLI_RUN) {
		if (!cfg.lock || !cfg.workload || cfg.threads < 1 || !(cfg.duration_s > 0) || !cfg.pin)
			abort();
	}
	free(buf);
	return 0;
}
