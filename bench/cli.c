/*
 * cli.c — options of bench/lockbench.  Every number is checked whole and in
 * range; every name against its registry.  A bad value is one line on stderr
 * and exit status 2 (the caller's), before anything runs.  The options the
 * locks and workloads declare (common/option.h) are made into long options
 * here from the registries, and handed to the lock and workload chosen once
 * every argument is read: this file names no lock and no lock's option.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "../common/text.h"
#include "exec/launcher/programs.h"
#include "platform/placement.h"
#include "platform/schedmode.h"
#include "workloads/workload.h"
#include "../sim/coherence.h"

#define MAX_SECONDS 86400.0
#define MAX_WORK_CYCLES UINT64_C(1000000000000)

enum {
	OPT_CS = 256, OPT_THINK, OPT_LIST, OPT_PIN, OPT_LOCK_NODE,
	OPT_WATCHDOG, OPT_DIR, OPT_SEED, OPT_WARMUP,
	OPT_MAX_OPS, OPT_QUIET, OPT_TOPOLOGY, OPT_KERNEL_LOCKS,
	OPT_TIMING, OPT_LOCK_OPT, OPT_SCHED, OPT_EXEC, OPT_METRIC, OPT_PROGRAM,
	OPT_SIM, OPT_SIM_CPUS, OPT_SIM_SEED, OPT_SIM_SEMANTICS, OPT_SIM_SCHED,
	OPT_DECLARED_FIRST = 1024,    /* + i: declared_longs[i] */
};

static const struct option long_options[] = {
	{ "lock",        required_argument, NULL, 'l' },
	{ "workload",    required_argument, NULL, 'w' },
	{ "threads",     required_argument, NULL, 't' },
	{ "duration",    required_argument, NULL, 'd' },
	{ "out",         required_argument, NULL, 'o' },
	{ "help",        no_argument,       NULL, 'h' },
	{ "cs",          required_argument, NULL, OPT_CS },
	{ "think",       required_argument, NULL, OPT_THINK },
	{ "list",        no_argument,       NULL, OPT_LIST },
	{ "pin",         required_argument, NULL, OPT_PIN },
	{ "lock-opt",    required_argument, NULL, OPT_LOCK_OPT },
	{ "lock-node",   required_argument, NULL, OPT_LOCK_NODE },
	{ "watchdog",    required_argument, NULL, OPT_WATCHDOG },
	{ "dir",         required_argument, NULL, OPT_DIR },
	{ "seed",        required_argument, NULL, OPT_SEED },
	{ "warmup",      required_argument, NULL, OPT_WARMUP },
	{ "max-ops",     required_argument, NULL, OPT_MAX_OPS },
	{ "timing",      required_argument, NULL, OPT_TIMING },
	{ "quiet",       no_argument,       NULL, OPT_QUIET },
	{ "topology",    no_argument,       NULL, OPT_TOPOLOGY },
	{ "kernel-locks", no_argument,      NULL, OPT_KERNEL_LOCKS },
	{ "sched",       required_argument, NULL, OPT_SCHED },
	{ "exec",        no_argument,       NULL, OPT_EXEC },
	{ "metric",      required_argument, NULL, OPT_METRIC },
	{ "program",     required_argument, NULL, OPT_PROGRAM },
	{ "sim",         required_argument, NULL, OPT_SIM },
	{ "sim-cpus",    required_argument, NULL, OPT_SIM_CPUS },
	{ "sim-seed",    required_argument, NULL, OPT_SIM_SEED },
	{ "sim-semantics", required_argument, NULL, OPT_SIM_SEMANTICS },
	{ "sim-sched",   required_argument, NULL, OPT_SIM_SCHED },
	{ NULL, 0, NULL, 0 },
};
#define OWN_OPTIONS (sizeof(long_options) / sizeof(long_options[0]) - 1)

/*
 * Whose option: the lock's or the workload's.  A message names the owner
 * (what) and its options as they are typed (key_prefix); a lock's names the
 * key it was not given (typed inside --lock-opt's value, or an alias's), a
 * workload's was typed as the option itself.
 */
enum option_owner { OWNER_LOCK, OWNER_WORKLOAD, OWNER_NR };
static const struct {
	const char *what;
	const char *key_prefix;
	bool names_key;
} owners[OWNER_NR] = {
	[OWNER_LOCK] = { "lock", "", true },
	[OWNER_WORKLOAD] = { "workload", "--", false },
};

/* The long options made from declarations: each workload option's --KEY and
 * each lock option's --ALIAS, once each, as getopt's OPT_DECLARED_FIRST + i. */
#define MAX_DECLARED_LONGS 32
static struct declared_long {
	enum option_owner owner;
	const char *name;    /* typed after "--" */
	const char *key;     /* the option's key */
} declared_longs[MAX_DECLARED_LONGS];
static size_t ndeclared_longs;
/* lockbench's own options, then the declared ones. */
static struct option all_options[OWN_OPTIONS + MAX_DECLARED_LONGS + 1];

static bool own_option(const char *name)
{
	for (size_t i = 0; i < OWN_OPTIONS; i++)
		if (strcmp(long_options[i].name, name) == 0)
			return true;
	return false;
}

/* OWNER's option `key`, typed --NAME, among the long options: 0 (added, or
 * there already), or -1 with what is wrong with the declaration in err. */
static int declare_long(enum option_owner owner, const char *owner_name, const char *name, const char *key,
			char *err, size_t errlen)
{
	const char *why = own_option(name) ? "is one of lockbench's own" : NULL;

	for (size_t i = 0; i < ndeclared_longs && !why; i++) {
		if (strcmp(declared_longs[i].name, name) != 0)
			continue;
		if (declared_longs[i].owner == owner && strcmp(declared_longs[i].key, key) == 0)
			return 0;
		why = "is another option's already";
	}
	if (!why && ndeclared_longs == MAX_DECLARED_LONGS)
		why = "is one long option too many";
	if (why) {
		snprintf(err, errlen, "internal error: %s %s's option --%s %s", owners[owner].what, owner_name, name,
			 why);
		return -1;
	}
	declared_longs[ndeclared_longs++] = (struct declared_long){ owner, name, key };
	return 0;
}

/* Every workload option's --KEY and every lock option's --ALIAS. */
static int declare_longs(char *err, size_t errlen)
{
	for (size_t w = 0; w < workload_registry_len; w++)
		for (const struct option_def *o = workload_registry[w]->options; o && o->key; o++)
			if (declare_long(OWNER_WORKLOAD, workload_registry[w]->name, o->key, o->key, err, errlen))
				return -1;
	for (size_t l = 0; l < lock_registry_len; l++)
		for (const struct option_def *o = lock_registry[l]->options; o && o->key; o++)
			if (o->alias && declare_long(OWNER_LOCK, lock_registry[l]->name, o->alias, o->key, err, errlen))
				return -1;
	return 0;
}

/*
 * all_options, once: a declared option that is also one of lockbench's own,
 * or another owner's, is a mistake in the declaring file's table, named in
 * `err`.  The registries are constant, so tables right once stay right.
 */
static int options_build(char *err, size_t errlen)
{
	static bool built;

	if (built)
		return 0;
	ndeclared_longs = 0;
	if (declare_longs(err, errlen))
		return -1;
	memcpy(all_options, long_options, sizeof(long_options[0]) * OWN_OPTIONS);
	for (size_t i = 0; i < ndeclared_longs; i++)
		all_options[OWN_OPTIONS + i] = (struct option){
			declared_longs[i].name, required_argument, NULL, OPT_DECLARED_FIRST + (int)i };
	all_options[OWN_OPTIONS + ndeclared_longs] = (struct option){ NULL, 0, NULL, 0 };
	built = true;
	return 0;
}

/* Whether getopt's `opt` is a declared long option of OWNER's. */
static bool declared_by(int opt, enum option_owner owner)
{
	return opt >= OPT_DECLARED_FIRST && declared_longs[opt - OPT_DECLARED_FIRST].owner == owner;
}

/* Lock i is the first whose options are table opts. */
static bool first_with_table(size_t i)
{
	for (size_t j = 0; j < i; j++)
		if (lock_registry[j]->options == lock_registry[i]->options)
			return false;
	return true;
}

/* " a b c": the locks whose options are table opts. */
static void print_table_locks(FILE *out, const struct option_def *opts)
{
	for (size_t j = 0; j < lock_registry_len; j++)
		if (lock_registry[j]->options == opts)
			fprintf(out, " %s", lock_registry[j]->name);
}

/* Each lock option's alias: "--ALIAS VALUE       KEY= of LOCKS". */
static void usage_lock_aliases(FILE *out)
{
	char spelling[64];

	for (size_t i = 0; i < lock_registry_len; i++) {
		if (!first_with_table(i))
			continue;
		for (const struct option_def *o = lock_registry[i]->options; o && o->key; o++) {
			if (!o->alias)
				continue;
			snprintf(spelling, sizeof(spelling), "--%s VALUE", o->alias);
			fprintf(out, "      %-19s %s= of", spelling, o->key);
			print_table_locks(out, lock_registry[i]->options);
			fprintf(out, "\n");
		}
	}
}

/* Each workload's options, one line each: "--KEY VALUE   workload: help". */
static void usage_workload_options(FILE *out)
{
	char spelling[64];
	bool any = false;

	for (size_t w = 0; w < workload_registry_len; w++)
		for (const struct option_def *o = workload_registry[w]->options; o && o->key; o++) {
			if (!any)
				fprintf(out, "workload options (given with -w of a workload that has them):\n");
			any = true;
			snprintf(spelling, sizeof(spelling), "--%s %s", o->key, o->value);
			fprintf(out, "      %-19s %s: %s\n", spelling, workload_registry[w]->name, o->help);
		}
}

void cli_usage(FILE *out)
{
	fprintf(out,
		"usage: lockbench [options]\n"
		"  -l, --lock NAME         lock under test (default pthread; --list shows all)\n"
		"  -w, --workload NAME     workload (default counter)\n"
		"  -t, --threads N         worker threads, 1..%u (default: CPUs available)\n"
		"  -d, --duration SECONDS  measured interval, fractions allowed (default 1)\n"
		"      --warmup SECONDS    run before measuring, excluded from statistics (default 0.2)\n"
		"      --cs CYCLES         busy work inside the critical section (default 0)\n"
		"      --think CYCLES      busy work between operations (default 0)\n"
		"      --pin POLICY        thread placement (default %s; --topology shows each order):\n%s"
		"      --lock-opt KEY=VALUE  a setting of the lock under test (--list shows each lock's);\n"
		"                          some have a spelling of their own, --ALIAS VALUE for KEY=VALUE:\n",
		MAX_THREADS, PLACEMENT_DEFAULT, placement_help);
	usage_lock_aliases(out);
	fprintf(out,
		"      --lock-node N       NUMA node of the lock and shared data (default: first thread's)\n"
		"      --watchdog SECONDS  abort (exit 4) after this long without a lock acquisition\n"
		"                          (default: the larger of 5 and --duration)\n"
		"      --dir DIR           parent of file workloads' temporary directory (default $TMPDIR or /tmp)\n"
		"      --seed N            seed of per-thread random streams (default 1)\n"
		"      --max-ops N         stop each thread after N operations (default: no limit)\n"
		"      --timing MODE       which acquisitions are timed: all (default), sample:N (one in N\n"
		"                          on average, at random gaps from --seed), or off; counts stay exact\n"
		"      --kernel-locks      also record the kernel's lock contention of this run's threads\n"
		"                          (BPF: needs root or CAP_BPF + CAP_PERFMON, and kernel BTF)\n"
		"      --sched POLICY      the worker threads' scheduling: other (default) or fifo (all\n"
		"                          SCHED_FIFO at one priority: none preempts another; a lock that\n"
		"                          sleeps only; needs root or CAP_SYS_NICE)\n"
		"      --exec -- PROGRAM ARGS...  run PROGRAM with every normal pthread mutex made the lock\n"
		"                          under test (a preloaded library; docs/exec.md); a benchmark\n"
		"                          run's -w, -t, -d, --warmup, --watchdog... are refused\n"
		"      --exec --program NAME  run a program of the registry (--list shows them) instead:\n"
		"                          -t is its threads (default: CPUs available), -d its seconds\n"
		"                          (default: the registry's, a full run-all's), its metric declared\n"
		"      --metric NAME[:higher|:lower]=REGEX  with --exec: a figure read from the program's\n"
		"                          output, the first match's first group (up to %d; higher is\n"
		"                          better unless :lower says otherwise)\n"
		"      --sim PROFILE       simulate the run on PROFILE's machine (a name or a path; docs/sim.md):\n"
		"                          -d and --warmup are simulated seconds; --list shows the locks that can\n"
		"      --sim-cpus N        simulated CPUs, 1..%d (default: the profile's)\n"
		"      --sim-seed S        the simulation's seed (default 1): one seed, one result\n"
		"      --sim-semantics kernel|user  the lock's code runs as the kernel's (not preempted,\n"
		"                          need_resched seen) or as today's harness (default: kernel for\n"
		"                          kmutex-*, user for the others)\n"
		"      --sim-sched MODEL   the simulated scheduler, cfs-2.6.34 or eevdf-6.x (default: the\n"
		"                          profile's sched.model)\n"
		"  -o, --out DIR           write result files to DIR (a new DIR-2, -3... if it holds results)\n"
		"      --quiet             no summary on stdout (with -o DIR or --exec only)\n"
		"      --list              list locks, workloads and programs\n"
		"      --topology          print the machine and each placement policy's CPU order\n"
		"  -h, --help              this text\n",
		EXEC_METRICS_MAX, SIM_MAX_CPUS);
	usage_workload_options(out);
	fprintf(out,
		"exit status: 0 ok, 1 runtime error, 2 bad usage, 3 invariant failed (lost updates),\n"
		"             4 watchdog (no progress: the run was aborted), 130 interrupted\n");
}

/* Each table of lock options once, with the locks that have it. */
static void list_lock_options(FILE *out)
{
	fprintf(out, "options:\n");
	for (size_t i = 0; i < lock_registry_len; i++) {
		const struct option_def *opts = lock_registry[i]->options;

		if (!opts || !first_with_table(i))
			continue;
		fprintf(out, "  of");
		print_table_locks(out, opts);
		fprintf(out, " (--lock-opt KEY=VALUE):\n");
		for (const struct option_def *o = opts; o->key; o++)
			fprintf(out, "    %s=%s\n        %s\n", o->key, o->value, o->help);
	}
}

/* Each workload's options, under the same options: heading. */
static void list_workload_options(FILE *out)
{
	for (size_t w = 0; w < workload_registry_len; w++) {
		const struct option_def *o = workload_registry[w]->options;

		if (!o)
			continue;
		fprintf(out, "  of workload %s (--KEY VALUE):\n", workload_registry[w]->name);
		for (; o->key; o++)
			fprintf(out, "    --%s %s\n        %s\n", o->key, o->value, o->help);
	}
}

/* Each lock role's `ROLE NAME` line (enum lock_role), in registry order. */
static void list_lock_roles(FILE *out)
{
	static const struct { unsigned int role; const char *word; } roles[] = {
		{ LOCK_R_NUMA_ONLY, "numa-only" },
		{ LOCK_R_PROGRAM_BASE, "program-baseline" },
		{ LOCK_R_KERNEL_BASE, "kernel-baseline" },
		{ LOCK_R_CK, "concurrency-kit" },
	};

	for (size_t r = 0; r < sizeof(roles) / sizeof(roles[0]); r++)
		for (size_t i = 0; i < lock_registry_len; i++)
			if (lock_plans[i].roles & roles[r].role)
				fprintf(out, "  %s %s\n", roles[r].word, lock_registry[i]->name);
}

/* The patch table's column COLUMN's `patch-lock NAME always` (or
 * `kernel-locks` for the kernel's baseline); false when no lock has it. */
static bool list_patch_column(FILE *out, unsigned int column)
{
	for (size_t i = 0; i < lock_registry_len; i++)
		if (lock_plans[i].column == column) {
			fprintf(out, "  patch-lock %s %s\n", lock_registry[i]->name,
				lock_plans[i].roles & LOCK_R_KERNEL_BASE ? "kernel-locks" : "always");
			return true;
		}
	return false;
}

/* The patch table's columns in order, 1 up to the first that no lock has. */
static void list_patch_locks(FILE *out)
{
	for (unsigned int column = 1; list_patch_column(out, column); column++)
		;
}

/* Every declared option, one line each, for tests/options.t and
 * scripts/options-doc.sh: `option lock LOCK KEY VALUE TYPED HELP...` for
 * each lock that has it (given --lock-opt KEY=VALUE), `option workload
 * WORKLOAD KEY VALUE TYPED HELP...`; TYPED is the long option that also
 * gives it (a workload's --KEY, a lock's --ALIAS), or `-`; its help is the
 * rest of the line. */
static void list_declared(FILE *out)
{
	for (size_t i = 0; i < lock_registry_len; i++)
		for (const struct option_def *o = lock_registry[i]->options; o && o->key; o++)
			fprintf(out, "  option lock %s %s %s %s%s %s\n", lock_registry[i]->name, o->key, o->value,
				o->alias ? "--" : "-", o->alias ? o->alias : "", o->help);
	for (size_t i = 0; i < workload_registry_len; i++)
		for (const struct option_def *o = workload_registry[i]->options; o && o->key; o++)
			fprintf(out, "  option workload %s %s %s --%s %s\n", workload_registry[i]->name, o->key,
				o->value, o->key, o->help);
}

/* What run-all plans, for scripts/registry.sh: one line each, words only
 * (an option line's help aside).  `workload NAME ROLE FULL QUICK` (-d seconds), `takes-dir NAME` for each
 * workload that makes its files under --dir, `unit NAME UNIT s|min` (its
 * operation's name, its throughput per second or per minute),
 * `meets-in-kernel NAME` for each workload whose threads also meet on a
 * kernel lock, `no-exclusion NAME` for each lock that excludes nothing (with
 * --kernel-locks, the kernel's own lock alone), `numa-only NAME`,
 * `program-baseline NAME`, `kernel-baseline NAME` and `concurrency-kit
 * NAME` (a lock's roles,
 * locks/locks.def), `patch-lock NAME always|kernel-locks`, the patch table's
 * columns in order (the first two the patch pair), `program NAME ROLE FULL
 * QUICK` (bench/exec/programs.def: its {seconds}), and list_declared()'s
 * `option` lines (words, then the option's help). */
static void list_plan(FILE *out)
{
	fprintf(out, "plan:\n");
	for (size_t i = 0; i < workload_registry_len; i++)
		fprintf(out, "  workload %s %s %g %g\n", workload_registry[i]->name,
			workload_role_names[workload_plans[i].role],
			workload_plans[i].seconds_full, workload_plans[i].seconds_quick);
	for (size_t i = 0; i < workload_registry_len; i++)
		if (workload_registry[i]->takes_dir)
			fprintf(out, "  takes-dir %s\n", workload_registry[i]->name);
	for (size_t i = 0; i < workload_registry_len; i++)
		fprintf(out, "  unit %s %s %s\n", workload_registry[i]->name, workload_registry[i]->unit,
			workload_registry[i]->per_minute ? "min" : "s");
	for (size_t i = 0; i < workload_registry_len; i++)
		if (workload_registry[i]->meets_in_kernel)
			fprintf(out, "  meets-in-kernel %s\n", workload_registry[i]->name);
	for (size_t i = 0; i < lock_registry_len; i++)
		if (lock_registry[i]->flags & LOCK_F_NO_EXCLUSION)
			fprintf(out, "  no-exclusion %s\n", lock_registry[i]->name);
	list_lock_roles(out);
	list_patch_locks(out);
	for (size_t i = 0; i < exec_program_registry_len; i++)
		fprintf(out, "  program %s %s %g %g\n", exec_program_registry[i].name,
			program_role_names[exec_program_registry[i].role], exec_program_registry[i].seconds_full,
			exec_program_registry[i].seconds_quick);
	list_declared(out);
}

void cli_list(FILE *out)
{
	fprintf(out, "locks:\n");
	for (size_t i = 0; i < lock_registry_len; i++)
		fprintf(out, "  %-18s %s\n", lock_registry[i]->name, lock_registry[i]->description);
	fprintf(out, "workloads:\n");
	for (size_t i = 0; i < workload_registry_len; i++)
		fprintf(out, "  %-18s %s\n", workload_registry[i]->name, workload_registry[i]->description);
	fprintf(out, "programs:\n");
	for (size_t i = 0; i < exec_program_registry_len; i++)
		fprintf(out, "  %-18s %s\n", exec_program_registry[i].name, exec_program_registry[i].argv_template);
	list_lock_options(out);
	list_workload_options(out);
	list_plan(out);
}

static int fail(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

/* A whole decimal integer in [min, max]. */
static int parse_u64(const char *opt, const char *text, uint64_t min, uint64_t max, uint64_t *out,
		     char *err, size_t errlen)
{
	char why[1024];

	if (option_u64(text, min, max, out, why, sizeof(why)))
		return fail(err, errlen, "%s: %s", opt, why);
	return 0;
}

/* A finite decimal number of seconds in [min, max]. */
static int parse_seconds(const char *opt, const char *text, double min, double max, double *out,
			 char *err, size_t errlen)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(text, &end);
	if (text[0] == '\0' || text[strspn(text, "+-.0123456789eE")] != '\0' || *end != '\0' || errno ||
	    !isfinite(v) || v < min || v > max)
		return fail(err, errlen, "%s: '%s' is not a number of seconds in [%g, %g]",
			    opt, text, min, max);
	*out = v;
	return 0;
}

static const char *workload_name_at(size_t i)
{
	return workload_registry[i]->name;
}

static int parse_lock(const char *text, struct bench_config *cfg, char *err, size_t errlen)
{
	cfg->lock = lock_find(text);
	if (cfg->lock)
		return 0;
	return lock_unknown_name(err, errlen, "--lock: unknown lock", text, lock_registry_len, lock_registry_name);
}

static const char *program_name_at(size_t i)
{
	return exec_program_registry[i].name;
}

static int parse_workload(const char *text, struct bench_config *cfg, char *err, size_t errlen)
{
	cfg->workload = workload_find(text);
	if (cfg->workload)
		return 0;
	return lock_unknown_name(err, errlen, "--workload: unknown workload", text, workload_registry_len,
				 workload_name_at);
}

/*
 * The declared options as typed: --lock-opt KEY=VALUE and a lock option's
 * --ALIAS VALUE (the lock's), a workload option's --KEY VALUE.  Each is kept
 * as given and handed to its owner once every argument is read, since -l and
 * -w may come after them; the owner's set() checks the value.
 */
#define MAX_OWNER_ARGS 16     /* of each owner */
static struct option_arg {
	enum option_owner owner;
	char spelling[48];        /* how messages name it: "--lock-opt KEY", "--ALIAS", "--KEY" */
	const char *key, *value;
	size_t klen;
} option_args[OWNER_NR * MAX_OWNER_ARGS];
static unsigned int noption_args, nowner_args[OWNER_NR];

/* One more of OWNER's settings, typed --TYPED: the option's key is klen bytes at key. */
static int add_option_arg(enum option_owner owner, const char *typed, const char *key, size_t klen,
			  const char *value, char *err, size_t errlen)
{
	struct option_arg *a = &option_args[noption_args];

	if (nowner_args[owner] >= MAX_OWNER_ARGS)
		return fail(err, errlen, "--%s: more than %d %s settings", typed, MAX_OWNER_ARGS,
			    owners[owner].what);
	*a = (struct option_arg){ .owner = owner, .key = key, .klen = klen, .value = value };
	if (strcmp(typed, "lock-opt") == 0)
		snprintf(a->spelling, sizeof(a->spelling), "--lock-opt %.*s", (int)(klen > 32 ? 32 : klen), key);
	else
		snprintf(a->spelling, sizeof(a->spelling), "--%s", typed);
	nowner_args[owner]++;
	noption_args++;
	return 0;
}

/* --lock-opt KEY=VALUE */
static int add_lock_opt(const char *arg, char *err, size_t errlen)
{
	const char *eq = strchr(arg, '=');

	if (!eq || eq == arg)
		return fail(err, errlen, "--lock-opt: '%s' is not KEY=VALUE", arg);
	return add_option_arg(OWNER_LOCK, "lock-opt", arg, (size_t)(eq - arg), eq + 1, err, errlen);
}

/* A declared long option: a workload's --KEY or a lock's --ALIAS. */
static int add_declared(int opt, const char *value, char *err, size_t errlen)
{
	const struct declared_long *d = &declared_longs[opt - OPT_DECLARED_FIRST];

	return add_option_arg(d->owner, d->name, d->key, strlen(d->key), value, err, errlen);
}

/* The owner's name, options and settings' bytes, in the configuration. */
struct owner_view {
	const char *name;
	const struct option_def *opts;
	unsigned char *bytes;
};

static struct owner_view owner_view(struct bench_config *cfg, enum option_owner owner)
{
	if (owner == OWNER_LOCK)
		return (struct owner_view){ cfg->lock->name, cfg->lock->options, cfg->lock_params.settings.bytes };
	return (struct owner_view){ cfg->workload->name, cfg->workload->options, cfg->wl_settings.bytes };
}

/* The owner's options, named in a message: " KEY KEY" (a lock's), " --KEY" (a workload's), or " none". */
static void option_names(const struct option_def *opts, const char *prefix, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (const struct option_def *o = opts; o && o->key && n < len; o++)
		n += (size_t)snprintf(buf + n, len - n, " %s%s", prefix, o->key);
	if (n == 0)
		snprintf(buf, len, " none");
}

/* "SPELLING: lock L has no option 'KEY' (its options: ...)", or a
 * workload's "SPELLING: workload W has no such option (...)". */
static int no_such_option(const struct option_arg *a, const struct owner_view *v, char *err, size_t errlen)
{
	char names[256], which[80];

	option_names(v->opts, owners[a->owner].key_prefix, names, sizeof(names));
	if (owners[a->owner].names_key)
		snprintf(which, sizeof(which), "option '%.*s'", (int)(a->klen > 64 ? 64 : a->klen), a->key);
	else
		snprintf(which, sizeof(which), "such option");
	return fail(err, errlen, "%s: %s %s has no %s (its options:%s)", a->spelling, owners[a->owner].what,
		    v->name, which, names);
}

/* Every setting given, the lock's first, each handed to its owner's option. */
static int apply_options(struct bench_config *cfg, char *err, size_t errlen)
{
	for (int owner = 0; owner < OWNER_NR; owner++) {
		struct owner_view v = owner_view(cfg, (enum option_owner)owner);

		for (unsigned int i = 0; i < noption_args; i++) {
			const struct option_arg *a = &option_args[i];
			const struct option_def *o = option_find(v.opts, a->key, a->klen);
			char why[256];

			if (a->owner != (enum option_owner)owner)
				continue;
			if (!o)
				return no_such_option(a, &v, err, errlen);
			if (o->set(v.bytes, a->value, why, sizeof(why)) != 0)
				return fail(err, errlen, "%s: %s", a->spelling, why);
		}
	}
	return 0;
}

/* all | sample:N | off; N from 2 (sample:1 is all) to 2^32. */
static int parse_timing(const char *text, struct bench_config *cfg, char *err, size_t errlen)
{
	if (strcmp(text, "all") == 0 || strcmp(text, "off") == 0) {
		cfg->timing = text[0] == 'a' ? TIMING_ALL : TIMING_OFF;
		return 0;
	}
	if (strncmp(text, "sample:", 7) != 0)
		return fail(err, errlen, "--timing: '%s' is not all, sample:N or off", text);
	if (parse_u64("--timing sample:N", text + 7, 2, UINT64_C(1) << 32, &cfg->timing_sample, err, errlen))
		return -1;
	cfg->timing = TIMING_SAMPLE;
	return 0;
}

static unsigned int default_threads(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? (unsigned int)n : 1;
}

static void config_defaults(struct bench_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->lock = lock_find("pthread");
	cfg->workload = workload_find("counter");
	cfg->threads = default_threads();
	cfg->duration_s = 1.0;
	cfg->warmup_s = 0.2;
	cfg->pin = PLACEMENT_DEFAULT;
	cfg->lock_node = -1;
	cfg->seed = 1;
	cfg->sim_seed = 1;
}

/* Shell-quoted argv, for cmdline.txt. */
static const char *join_cmdline(int argc, char **argv)
{
	static char buf[8192];
	size_t n = 0;

	buf[0] = '\0';
	for (int i = 0; i < argc && n < sizeof(buf); i++) {
		const char *a = argv[i];
		bool plain = a[0] != '\0' && strspn(a, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
						      "0123456789-_./=:,+@%") == strlen(a);

		n += (size_t)snprintf(buf + n, sizeof(buf) - n, i ? " " : "");
		if (plain) {
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s", a);
			continue;
		}
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "'");
		for (; *a && n < sizeof(buf); a++)
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, *a == '\'' ? "'\\''" : "%c", *a);
		if (n < sizeof(buf))
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, "'");
	}
	return buf;
}

/* --exec: the program follows `--`, or is --program's; the library is
 * given the lock's settings as typed (KEY=VALUE lines) and checks them again
 * itself. */
static bool exec_asked, duration_given;
static const struct exec_program *program_asked;

static int parse_program(const char *text, char *err, size_t errlen)
{
	program_asked = exec_program_find(text);
	if (program_asked)
		return 0;
	return lock_unknown_name(err, errlen, "--program: unknown program", text, exec_program_registry_len,
				 program_name_at);
}

/* --program: its template made argv with -t and -d (default: the
 * registry's full seconds), its metric declared as --metric would. */
static int program_args(int argc, struct bench_config *cfg, char *err, size_t errlen)
{
	static struct exec_program_argv pa;
	double seconds = duration_given ? cfg->duration_s : program_asked->seconds_full;

	if (optind < argc)
		return fail(err, errlen, "--program %s: and a program after --: give one or the other",
			    program_asked->name);
	if (exec_program_expand(program_asked, cfg->threads, seconds, &pa, err, errlen))
		return -1;
	if (cfg->exec_metrics_n >= EXEC_METRICS_MAX)
		return fail(err, errlen, "--metric: more than %d with --program's own", EXEC_METRICS_MAX - 1);
	cfg->exec_metrics[cfg->exec_metrics_n++] = pa.metric;
	cfg->exec_argv = pa.argv;
	cfg->exec_program = program_asked->name;
	cfg->exec_threads_asked = cfg->threads;
	return 0;
}

/* The options a benchmark run has and a program does not: its work, its
 * length and its threads are the program's own (-t and -d only fill in
 * --program's template).  Each is refused with --exec rather than ignored. */
static int exec_refused_opt, exec_sized_opt;

static bool exec_takes(int opt)
{
	switch (opt) {
	case 'l': case 'o': case 'h': case OPT_LIST: case OPT_TOPOLOGY: case OPT_PIN:
	case OPT_LOCK_OPT: case OPT_SEED: case OPT_TIMING: case OPT_QUIET:
	case OPT_KERNEL_LOCKS: case OPT_EXEC: case OPT_PROGRAM: case OPT_METRIC:
		return true;
	}
	return declared_by(opt, OWNER_LOCK);
}

/* Notes the first option given that --exec refuses, or takes only with
 * --program. */
static void exec_note_option(int opt)
{
	if ((opt == 't' || opt == 'd') && !exec_sized_opt)
		exec_sized_opt = opt;
	else if (opt != 't' && opt != 'd' && !exec_takes(opt) && !exec_refused_opt)
		exec_refused_opt = opt;
}

static const char *option_name(int opt)
{
	if (opt >= OPT_DECLARED_FIRST)
		return declared_longs[opt - OPT_DECLARED_FIRST].name;
	for (size_t i = 0; i < OWN_OPTIONS; i++)
		if (long_options[i].val == opt)
			return long_options[i].name;
	return "?";
}

static int exec_refuse_options(char *err, size_t errlen)
{
	if (exec_refused_opt)
		return fail(err, errlen, "--%s: not with --exec (a benchmark run's option: the program is "
			    "not a workload)", option_name(exec_refused_opt));
	if (exec_sized_opt && !program_asked)
		return fail(err, errlen, "--%s: not with --exec -- PROGRAM (the program's own arguments say how "
			    "long and how many threads; -t and -d fill in --exec --program NAME's)",
			    option_name(exec_sized_opt));
	return 0;
}

static int exec_args(int argc, char **argv, struct bench_config *cfg, char *err, size_t errlen)
{
	static char opts[MAX_OWNER_ARGS * 256];
	size_t n = 0;

	if (program_asked) {
		if (program_args(argc, cfg, err, errlen))
			return -1;
	} else if (optind >= argc || strcmp(argv[optind - 1], "--") != 0) {
		return fail(err, errlen, "--exec: no program (give it after --: --exec -- PROGRAM ARGS..., "
			    "or --program NAME)");
	} else {
		cfg->exec_argv = argv + optind;
	}
	opts[0] = '\0';
	for (unsigned int i = 0; i < noption_args && n < sizeof(opts); i++)
		if (option_args[i].owner == OWNER_LOCK)
			n += (size_t)snprintf(opts + n, sizeof(opts) - n, "%.*s=%s\n", (int)option_args[i].klen,
					      option_args[i].key, option_args[i].value);
	cfg->exec_lock_opts = opts;
	return 0;
}

/* --sim and its options; the first other option given that a simulated
 * run would not honour, and the first --sim-* option (for the checks after
 * the parse). */
static int sim_refused_opt, sim_sub_opt;

static bool sim_takes(int opt)
{
	switch (opt) {
	case 'l': case 'w': case 't': case 'd': case 'o': case 'h': case OPT_LIST: case OPT_TOPOLOGY:
	case OPT_WARMUP: case OPT_LOCK_OPT: case OPT_QUIET:
	case OPT_SIM: case OPT_SIM_CPUS: case OPT_SIM_SEED: case OPT_SIM_SEMANTICS: case OPT_SIM_SCHED:
		return true;
	}
	return declared_by(opt, OWNER_LOCK);
}

static void sim_note_option(int opt)
{
	if (!sim_takes(opt) && !sim_refused_opt)
		sim_refused_opt = opt;
	if ((opt == OPT_SIM_CPUS || opt == OPT_SIM_SEED || opt == OPT_SIM_SEMANTICS || opt == OPT_SIM_SCHED) &&
	    !sim_sub_opt)
		sim_sub_opt = opt;
}

static int parse_sim(int opt, const char *arg, struct bench_config *cfg, char *err, size_t errlen)
{
	uint64_t v;

	switch (opt) {
	case OPT_SIM:
		if (arg[0] == '\0')
			return fail(err, errlen, "--sim: empty profile name");
		cfg->sim_profile = arg;
		return 0;
	case OPT_SIM_CPUS:
		if (parse_u64("--sim-cpus", arg, 1, SIM_MAX_CPUS, &v, err, errlen))
			return -1;
		cfg->sim_cpus = (unsigned int)v;
		return 0;
	case OPT_SIM_SEED:
		return parse_u64("--sim-seed", arg, 0, UINT64_MAX, &cfg->sim_seed, err, errlen);
	case OPT_SIM_SCHED:
		/* whether the profile has the model's keys: simrun_find() */
		if (strcmp(arg, "cfs-2.6.34") != 0 && strcmp(arg, "eevdf-6.x") != 0)
			return fail(err, errlen, "--sim-sched: '%s' is not cfs-2.6.34 or eevdf-6.x", arg);
		cfg->sim_sched = arg;
		return 0;
	}
	if (strcmp(arg, "kernel") == 0)
		cfg->sim_semantics = BENCH_SIM_KERNEL;
	else if (strcmp(arg, "user") == 0)
		cfg->sim_semantics = BENCH_SIM_USER;
	else
		return fail(err, errlen, "--sim-semantics: '%s' is not kernel or user", arg);
	return 0;
}

/* A simulated run honours only the options sim_takes(); --sim-* need --sim. */
static int sim_check_options(const struct bench_config *cfg, char *err, size_t errlen)
{
	if (!cfg->sim_profile && sim_sub_opt)
		return fail(err, errlen, "--%s: only with --sim", option_name(sim_sub_opt));
	if (cfg->sim_profile && sim_refused_opt)
		return fail(err, errlen, "--%s: not with --sim (a simulated run takes -l, -w, -t, -d, --warmup, "
			    "--lock-opt, -o, --quiet and --sim-*)", option_name(sim_refused_opt));
	return 0;
}

static int parse_one(int opt, const char *arg, struct bench_config *cfg, char *err, size_t errlen)
{
	uint64_t v;

	if (opt >= OPT_DECLARED_FIRST)
		return add_declared(opt, arg, err, errlen);
	switch (opt) {
	case 'l':
		return parse_lock(arg, cfg, err, errlen);
	case 'w':
		return parse_workload(arg, cfg, err, errlen);
	case 't':
		if (parse_u64("--threads", arg, 1, MAX_THREADS, &v, err, errlen))
			return -1;
		cfg->threads = (unsigned int)v;
		return 0;
	case 'd':
		duration_given = true;
		return parse_seconds("--duration", arg, 0.001, MAX_SECONDS, &cfg->duration_s, err, errlen);
	case 'o':
		if (arg[0] == '\0')
			return fail(err, errlen, "--out: empty directory name");
		cfg->out_dir = arg;
		return 0;
	case OPT_WARMUP:
		return parse_seconds("--warmup", arg, 0, MAX_SECONDS, &cfg->warmup_s, err, errlen);
	case OPT_CS:
		return parse_u64("--cs", arg, 0, MAX_WORK_CYCLES, &cfg->cs_cycles, err, errlen);
	case OPT_THINK:
		return parse_u64("--think", arg, 0, MAX_WORK_CYCLES, &cfg->think_cycles, err, errlen);
	case OPT_PIN:
		cfg->pin = arg;
		cfg->pin_asked = true;
		return 0;
	case OPT_LOCK_OPT:
		return add_lock_opt(arg, err, errlen);
	case OPT_LOCK_NODE:
		if (parse_u64("--lock-node", arg, 0, 4095, &v, err, errlen))
			return -1;
		cfg->lock_node = (int)v;
		return 0;
	case OPT_WATCHDOG:
		return parse_seconds("--watchdog", arg, 0.1, MAX_SECONDS, &cfg->watchdog_s, err, errlen);
	case OPT_DIR:
		if (arg[0] == '\0')
			return fail(err, errlen, "--dir: empty directory name");
		cfg->dir = arg;
		return 0;
	case OPT_SEED:
		return parse_u64("--seed", arg, 0, UINT64_MAX, &cfg->seed, err, errlen);
	case OPT_MAX_OPS:
		return parse_u64("--max-ops", arg, 1, UINT64_MAX, &cfg->max_ops, err, errlen);
	case OPT_TIMING:
		return parse_timing(arg, cfg, err, errlen);
	case OPT_QUIET:
		cfg->quiet = true;
		return 0;
	case OPT_KERNEL_LOCKS:
		cfg->kernel_locks = true;
		return 0;
	case OPT_EXEC:
		exec_asked = true;
		return 0;
	case OPT_PROGRAM:
		return parse_program(arg, err, errlen);
	case OPT_METRIC:
		if (cfg->exec_metrics_n >= EXEC_METRICS_MAX)
			return fail(err, errlen, "--metric: more than %d", EXEC_METRICS_MAX);
		cfg->exec_metrics[cfg->exec_metrics_n++] = arg;
		return 0;
	case OPT_SIM:
	case OPT_SIM_CPUS:
	case OPT_SIM_SEED:
	case OPT_SIM_SEMANTICS:
	case OPT_SIM_SCHED:
		return parse_sim(opt, arg, cfg, err, errlen);
	case OPT_SCHED:
		cfg->sched = sched_mode_find(arg);
		if (cfg->sched < 0)
			return fail(err, errlen, "--sched: '%s' is not other or fifo", arg);
		return 0;
	}
	return fail(err, errlen, "internal error: unhandled option %d", opt);
}

static int cli_parse_args(int argc, char **argv, struct bench_config *cfg, char *err, size_t errlen);

/* getopt took the next argument as an option's value, and that argument is
 * itself an option (`-t -d 0.2`): the value was left out.  Only a separate
 * argument: `-t-d` and `--threads=-d` are values as typed.  No value of
 * lockbench's starts with `--` and a letter, or with `-` and a short
 * option's letter (a negative number does not). */
static bool value_is_an_option(int argc, char **argv, const char *value)
{
	if (!value || optind < 2 || optind > argc || value != argv[optind - 1] || value[0] != '-')
		return false;
	if (value[1] == '-')
		return isalpha((unsigned char)value[2]);
	return value[1] != '\0' && strchr("lwtdoh", value[1]) != NULL;
}

int cli_parse(int argc, char **argv, struct bench_config *cfg, char *err, size_t errlen)
{
	int action = cli_parse_args(argc, argv, cfg, err, errlen);

	if (action < 0)
		text_one_line(err);
	return action;
}

static int cli_parse_args(int argc, char **argv, struct bench_config *cfg, char *err, size_t errlen)
{
	int action = CLI_RUN, opt;

	config_defaults(cfg);
	noption_args = 0;
	memset(nowner_args, 0, sizeof(nowner_args));
	exec_asked = false;
	duration_given = false;
	program_asked = NULL;
	exec_refused_opt = exec_sized_opt = 0;
	sim_refused_opt = sim_sub_opt = 0;
	if (options_build(err, errlen))
		return -1;
	cfg->cmdline = join_cmdline(argc, argv);
	/* 0, not 1: glibc then also forgets the position inside a previous
	 * argv's grouped short options (found by tests/fuzz/fuzz_cli.c). */
	optind = 0;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":l:w:t:d:o:h", all_options, NULL)) != -1) {
		/* glibc: optopt is the option's value for a known long option given
		 * a value it does not take, 0 for an unknown one. */
		if (opt == '?' && optopt && strncmp(argv[optind - 1], "--", 2) == 0)
			return fail(err, errlen, "option '%.*s' takes no value", (int)strcspn(argv[optind - 1], "="),
				    argv[optind - 1]);
		if (opt == '?')
			return fail(err, errlen, "unknown option '%s' (see --help)", argv[optind - 1]);
		if (opt == ':')
			return fail(err, errlen, "option '%s' needs a value", argv[optind - 1]);
		if (opt == 'h')
			action = CLI_HELP;
		else if (opt == OPT_LIST)
			action = CLI_LIST;
		else if (opt == OPT_TOPOLOGY)
			action = CLI_TOPOLOGY;
		else if (value_is_an_option(argc, argv, optarg))
			return fail(err, errlen, "option '%s' needs a value (the next argument, '%s', is an option)",
				    argv[optind - 2], optarg);
		else if (parse_one(opt, optarg, cfg, err, errlen))
			return -1;
		else {
			exec_note_option(opt);
			sim_note_option(opt);
		}
	}
	if (action == CLI_RUN && sim_check_options(cfg, err, errlen))
		return -1;
	if (exec_asked && action == CLI_RUN &&
	    (exec_args(argc, argv, cfg, err, errlen) || exec_refuse_options(err, errlen)))
		return -1;
	if (optind < argc && !exec_asked)
		return fail(err, errlen, "unexpected argument '%s' (see --help)", argv[optind]);
	/* A run that shows nothing and keeps nothing is a mistake, not a probe:
	 * a script that wants the exit status alone sends stdout to /dev/null.
	 * (--exec without -o still shows the program's own output.) */
	if (action == CLI_RUN && cfg->quiet && !cfg->out_dir && !exec_asked)
		return fail(err, errlen, "--quiet without -o DIR: the run would print nothing and keep nothing "
			    "(give -o DIR, or leave --quiet out)");
	if (cfg->exec_metrics_n && !exec_asked)
		return fail(err, errlen, "--metric: only with --exec");
	if (program_asked && !exec_asked)
		return fail(err, errlen, "--program: only with --exec");
	if (action == CLI_RUN && apply_options(cfg, err, errlen))
		return -1;
	/* A waiter that spins without end never lets a SCHED_FIFO holder that
	 * shares its CPU run again. */
	if (action == CLI_RUN && cfg->sched == SCHED_MODE_FIFO &&
	    !(cfg->lock->flags & (LOCK_F_SLEEPS | LOCK_F_NO_EXCLUSION)))
		return fail(err, errlen, "--sched fifo: lock %s never sleeps: under SCHED_FIFO a waiter spinning "
			    "on the CPU of a holder that blocked would spin for ever", cfg->lock->name);
	return action;
}
