/*
 * programs.h — the registry of programs (bench/exec/programs.def) that
 * `lockbench --exec --program NAME` runs and run-all plans: each one's
 * command template, the metric read from its output, its run-all role and
 * durations (docs/exec.md).
 */
#ifndef LOCKBENCH_EXEC_PROGRAMS_H
#define LOCKBENCH_EXEC_PROGRAMS_H

#include <stddef.h>

/* What run-all does with a program (`--list`'s `program` plan lines). */
enum program_role {
	PG_UNPLANNED,   /* runs with --program, run-all plans nothing of it */
	PG_PATCH,       /* the patch table's locks and pthread, at 4x the CPUs */
};

struct exec_program {
	const char *name;
	enum program_role role;
	double seconds_full, seconds_quick;   /* {seconds} of a full and a --quick run-all */
	const char *metric;                   /* summary.csv's metric_NAME */
	const char *better;                   /* "higher" or "lower" */
	const char *regex;                    /* its first group is the metric */
	const char *argv_template;            /* words, single spaces; {threads}, {seconds} */
};

extern const struct exec_program exec_program_registry[];
extern const size_t exec_program_registry_len;
extern const char *const program_role_names[];

const struct exec_program *exec_program_find(const char *name);

/* A template made into argv: every word of it, {threads} and {seconds}
 * replaced by the numbers, in `buf`; and the metric as --metric spells it. */
#define EXEC_PROGRAM_ARGS_MAX 64
struct exec_program_argv {
	char *argv[EXEC_PROGRAM_ARGS_MAX + 1];
	char buf[4096];
	char metric[512];     /* NAME:BETTER=REGEX */
};

/* 0, or -1 with a one-line message in err (a template too long for `out`). */
int exec_program_expand(const struct exec_program *p, unsigned int threads, double seconds,
			struct exec_program_argv *out, char *err, size_t errlen);

#endif
