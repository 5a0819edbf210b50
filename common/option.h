/*
 * option.h — one setting a lock or a workload offers, declared in its own
 * file as one entry of a table (stress-ng's per-stressor option table): the
 * CLI (bench/cli.c), --help, --list, tests/options.t's bad values and
 * docs/workloads.md's options table all follow from these entries, and
 * nothing else names them.  A lock's are typed `--lock-opt KEY=VALUE` (and
 * `--ALIAS VALUE` where it has one); a workload's `--KEY VALUE`.
 */
#ifndef LOCKBENCH_OPTION_H
#define LOCKBENCH_OPTION_H

#include <stddef.h>

struct option_def {
	const char *key;     /* as typed: [a-z-]+ */
	const char *value;   /* what VALUE may be, for --help and --list: "BYTES", "auto|sched|..." */
	const char *help;    /* one line, with the default */
	/*
	 * Checks VALUE whole and stores it into `bytes`, the owner's settings
	 * (struct lock_settings' or struct workload_settings' bytes, which only
	 * the owner's file interprets): 0, or -1 with a one-line message in
	 * err that quotes VALUE ('VALUE') and says what is wrong with it (the
	 * caller names the option; tests/options.t checks both).
	 */
	int (*set)(unsigned char *bytes, const char *value, char *err, size_t errlen);
	/* A lock's option: also a long option of lockbench's own, `--ALIAS
	 * VALUE` (an older spelling kept for scripts: kmutex's --oracle); NULL
	 * for none.  A workload's options are long options already. */
	const char *alias;
};

#endif
