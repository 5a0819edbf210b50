/*
 * cli.c — options of bench/lockbench.  Every number is checked whole and in
 * range; every name against its registry.  A bad value is one line on stderr
 * and exit status 2 (the caller's), before anything runs.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../locks/oracle.h"
#include "cli.h"
#include "placement.h"
#include "workload.h"

#define MAX_THREADS 65536u
#define MAX_SECONDS 86400.0
#define MAX_WORK_CYCLES UINT64_C(1000000000000)

enum {
	OPT_CS = 256, OPT_THINK, OPT_LIST, OPT_PIN, OPT_SPIN_BUDGET, OPT_LOCK_NODE,
	OPT_WATCHDOG, OPT_DIR, OPT_FILE_SIZE, OPT_POOL_SIZE, OPT_SEED, OPT_WARMUP,
	OPT_MAX_OPS, OPT_QUIET, OPT_TOPOLOGY, OPT_ORACLE, OPT_KERNEL_LOCKS,
	OPT_TIMING,
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
	{ "spin-budget", required_argument, NULL, OPT_SPIN_BUDGET },
	{ "oracle",      required_argument, NULL, OPT_ORACLE },
	{ "lock-node",   required_argument, NULL, OPT_LOCK_NODE },
	{ "watchdog",    required_argument, NULL, OPT_WATCHDOG },
	{ "dir",         required_argument, NULL, OPT_DIR },
	{ "file-size",   required_argument, NULL, OPT_FILE_SIZE },
	{ "pool-size",   required_argument, NULL, OPT_POOL_SIZE },
	{ "seed",        required_argument, NULL, OPT_SEED },
	{ "warmup",      required_argument, NULL, OPT_WARMUP },
	{ "max-ops",     required_argument, NULL, OPT_MAX_OPS },
	{ "timing",      required_argument, NULL, OPT_TIMING },
	{ "quiet",       no_argument,       NULL, OPT_QUIET },
	{ "topology",    no_argument,       NULL, OPT_TOPOLOGY },
	{ "kernel-locks", no_argument,      NULL, OPT_KERNEL_LOCKS },
	{ NULL, 0, NULL, 0 },
};

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
		"      --spin-budget CYC   kmutex optimistic-spin budget in TSC cycles (0: none with\n"
		"                          the sched oracle, 32768 without it)\n"
		"      --oracle NAME       what kmutex spinners see: sched (the kernel's view via BPF),\n"
		"                          runstate, rq-curr, or auto (default: sched where it loads)\n"
		"      --lock-node N       NUMA node of the lock and shared data (default: first thread's)\n"
		"      --watchdog SECONDS  abort (exit 4) after this long without a lock acquisition\n"
		"                          (default: the larger of 5 and --duration)\n"
		"      --dir DIR           parent of file workloads' temporary directory (default $TMPDIR or /tmp)\n"
		"      --file-size BYTES   file size for fserver (default 4096)\n"
		"      --pool-size N       shared file pool for fserver (default 16)\n"
		"      --seed N            seed of per-thread random streams (default 1)\n"
		"      --max-ops N         stop each thread after N operations (default: no limit)\n"
		"      --timing MODE       which acquisitions are timed: all (default), sample:N (one in N\n"
		"                          on average, at random gaps from --seed), or off; counts stay exact\n"
		"      --kernel-locks      also record the kernel's lock contention of this run's threads\n"
		"                          (BPF: needs root or CAP_BPF + CAP_PERFMON, and kernel BTF)\n"
		"  -o, --out DIR           write result files to DIR (a new DIR-2, -3... if it holds results)\n"
		"      --quiet             no summary on stdout\n"
		"      --list              list locks and workloads\n"
		"      --topology          print the machine and each placement policy's CPU order\n"
		"  -h, --help              this text\n"
		"exit status: 0 ok, 1 runtime error, 2 bad usage, 3 invariant failed (lost updates),\n"
		"             4 watchdog (no progress: the run was aborted), 130 interrupted\n",
		MAX_THREADS, PLACEMENT_DEFAULT, placement_help);
}

void cli_list(FILE *out)
{
	fprintf(out, "locks:\n");
	for (size_t i = 0; i < lock_registry_len; i++)
		fprintf(out, "  %-18s %s\n", lock_registry[i]->name, lock_registry[i]->description);
	fprintf(out, "workloads:\n");
	for (size_t i = 0; i < workload_registry_len; i++)
		fprintf(out, "  %-18s %s\n", workload_registry[i]->name, workload_registry[i]->description);
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
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(text, &end, 10);
	if (text[0] < '0' || text[0] > '9' || *end != '\0' || errno ||
	    v < min || v > max)
		return fail(err, errlen, "%s: '%s' is not an integer in [%" PRIu64 ", %" PRIu64 "]",
			    opt, text, min, max);
	*out = v;
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

static int parse_lock(const char *text, struct bench_config *cfg, char *err, size_t errlen)
{
	int n;

	cfg->lock = lock_find(text);
	if (cfg->lock)
		return 0;
	n = snprintf(err, errlen, "--lock: unknown lock '%s' (valid:", text);
	for (size_t i = 0; i < lock_registry_len && n > 0 && (size_t)n < errlen; i++)
		n += snprintf(err + n, errlen - (size_t)n, " %s", lock_registry[i]->name);
	if (n > 0 && (size_t)n < errlen)
		snprintf(err + n, errlen - (size_t)n, ")");
	return -1;
}

static int parse_workload(const char *text, struct bench_config *cfg, char *err, size_t errlen)
{
	int n;

	cfg->workload = workload_find(text);
	if (cfg->workload)
		return 0;
	n = snprintf(err, errlen, "--workload: unknown workload '%s' (valid:", text);
	for (size_t i = 0; i < workload_registry_len && n > 0 && (size_t)n < errlen; i++)
		n += snprintf(err + n, errlen - (size_t)n, " %s", workload_registry[i]->name);
	if (n > 0 && (size_t)n < errlen)
		snprintf(err + n, errlen - (size_t)n, ")");
	return -1;
}

static int parse_oracle(const char *text, struct bench_config *cfg, char *err, size_t errlen)
{
	int kind = oracle_find(text);
	int n;

	if (kind >= 0) {
		cfg->lock_params.oracle = kind;
		return 0;
	}
	n = snprintf(err, errlen, "--oracle: unknown oracle '%s' (valid:", text);
	for (int k = 0; k < ORACLE_NR && n > 0 && (size_t)n < errlen; k++)
		n += snprintf(err + n, errlen - (size_t)n, " %s", oracle_name[k]);
	if (n > 0 && (size_t)n < errlen)
		snprintf(err + n, errlen - (size_t)n, ")");
	return -1;
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
	cfg->file_size = 4096;
	cfg->pool_size = 16;
	cfg->seed = 1;
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

static int parse_one(int opt, const char *arg, struct bench_config *cfg, char *err, size_t errlen)
{
	uint64_t v;

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
		return 0;
	case OPT_SPIN_BUDGET:
		return parse_u64("--spin-budget", arg, 0, MAX_WORK_CYCLES,
				 &cfg->lock_params.spin_budget_cycles, err, errlen);
	case OPT_ORACLE:
		return parse_oracle(arg, cfg, err, errlen);
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
	case OPT_FILE_SIZE:
		return parse_u64("--file-size", arg, 1, UINT64_C(1) << 30, &cfg->file_size, err, errlen);
	case OPT_POOL_SIZE:
		if (parse_u64("--pool-size", arg, 1, 65536, &v, err, errlen))
			return -1;
		cfg->pool_size = (unsigned int)v;
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
	}
	return fail(err, errlen, "internal error: unhandled option %d", opt);
}

/* Messages quote what the user typed: keep them one line whatever it held. */
static void one_line(char *msg)
{
	for (; *msg; msg++)
		if ((unsigned char)*msg < 0x20 || *msg == 0x7f)
			*msg = '?';
}

static int cli_parse_args(int argc, char **argv, struct bench_config *cfg, char *err, size_t errlen);

int cli_parse(int argc, char **argv, struct bench_config *cfg, char *err, size_t errlen)
{
	int action = cli_parse_args(argc, argv, cfg, err, errlen);

	if (action < 0)
		one_line(err);
	return action;
}

static int cli_parse_args(int argc, char **argv, struct bench_config *cfg, char *err, size_t errlen)
{
	int action = CLI_RUN, opt;

	config_defaults(cfg);
	cfg->cmdline = join_cmdline(argc, argv);
	/* 0, not 1: glibc then also forgets the position inside a previous
	 * argv's grouped short options (found by tests/fuzz/fuzz_cli.c). */
	optind = 0;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":l:w:t:d:o:h", long_options, NULL)) != -1) {
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
		else if (parse_one(opt, optarg, cfg, err, errlen))
			return -1;
	}
	if (optind < argc)
		return fail(err, errlen, "unexpected argument '%s' (see --help)", argv[optind]);
	return action;
}
