/* plan.c — `lockbench --plan`: the order of a plan's runs and what it costs
 * (run-all's make_plan and plan_seconds, scripts/plan.sh, until issue 43). */
#define _GNU_SOURCE
#include "plan.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/config.h"
#include "../locks/lock.h"
#include "plan_variants.h"

/* Each run's own cost beyond its -d and --warmup (start, machine probe,
 * result files): 400 quick runs took 5:08 on a 2-core VM where their -d and
 * --warmup add up to 3:16; estimated 5:16. */
#define PLAN_RUN_OVERHEAD_S 0.3
/* A simulated run's CPU seconds per simulated second and thread: the six
 * kmutex models' mean on nehalem-ex-64 at 256 threads on 128 CPUs, fserver,
 * 0.2 simulated s after 0.05 of warm-up, seed 1, user CPU on the 2-vCPU VM
 * under a load average of 11-14, 7 Dec 2026: 5.28 s kmutex-spin, 0.47
 * kmutex-fix, 0.10 kmutex-sleep, 0.68 kmutex-mcs, 0.74 kmutex-osq, 1.11
 * kmutex-handoff, a mean of 1.40 for 64 thread-seconds; kmutex-spin alone
 * about 0.08 (docs/sim.md). */
#define PLAN_SIM_CPU_S_PER_S_THREAD 0.022
/* Park-Miller's modulus, 2^31 - 1, and the largest --order-seed. */
#define PLAN_MOD 2147483647u
#define PLAN_MAX_REPS 1000u

/* The next of the Park-Miller generator (16807 x mod 2^31-1). */
static uint32_t rand31(uint32_t *state)
{
	*state = (uint32_t)((uint64_t)*state * 16807u % PLAN_MOD);
	return *state;
}

/* Variant line's run in round r: `NAME-rR ARGS... --seed R`. */
static void print_run(FILE *out, const char *line, unsigned int r)
{
	const char *space = strchr(line, ' '), *args = space ? space + 1 : line;
	/* The name: the line's first blank-separated word. */
	size_t skip = strspn(line, " \t"), len = strcspn(line + skip, " \t"), n = strlen(args);
	bool sim = false;

	/* " ARGS " holds " --sim ": a simulated run takes its seed so. */
	for (const char *p = strstr(args, "--sim"); p && !sim; p = strstr(p + 1, "--sim"))
		sim = (p == args || p[-1] == ' ') && (p[5] == ' ' || p + 5 == args + n);
	fprintf(out, "%.*s-r%u %s%s%u\n", (int)len, line + skip, r, args, sim ? " --sim-seed " : " --seed ", r);
}

/* Round r's order: slow drift of the machine (other tenants, heat, a
 * neighbour's job) lands on every variant alike instead of on whichever ran
 * last.  Fisher-Yates driven by Park-Miller from seed and the round: the
 * same seed makes the same plan. */
static void shuffle_round(size_t *order, size_t n, uint32_t seed, unsigned int r)
{
	uint32_t state = (uint32_t)(((uint64_t)seed + (uint64_t)r * 48271u) % PLAN_MOD);

	if (state == 0)
		state = 1;
	for (int i = 0; i < 8; i++)
		rand31(&state);
	for (size_t i = 0; i < n; i++)
		order[i] = i;
	for (size_t i = n; i > 1; i--) {
		size_t j = rand31(&state) % i, t = order[i - 1];

		order[i - 1] = order[j];
		order[j] = t;
	}
}

void plan_rounds(FILE *out, char *const *variants, size_t n, unsigned int reps, uint32_t seed)
{
	size_t *order = calloc(n ? n : 1, sizeof(*order));

	if (!order) {
		perror("lockbench: --plan rounds");
		exit(EXIT_RUNTIME);
	}
	for (unsigned int r = 1; r <= reps; r++) {
		shuffle_round(order, n, seed, r);
		for (size_t i = 0; i < n; i++)
			print_run(out, variants[order[i]], r);
	}
	free(order);
}

double plan_line_seconds(const char *line, unsigned int lanes, bool *sim)
{
	char *copy = strdup(line), *save = NULL, *w[2] = { NULL, NULL };
	double d = 0, t = 1;

	*sim = false;
	if (!copy)
		return 0;
	/* Each word after the first but the last, with the word after it. */
	strtok_r(copy, " \t", &save);
	for (w[0] = strtok_r(NULL, " \t", &save); w[0] && (w[1] = strtok_r(NULL, " \t", &save)); w[0] = w[1]) {
		if (!strcmp(w[0], "-d") || !strcmp(w[0], "--warmup"))
			d += strtod(w[1], NULL);
		if (!strcmp(w[0], "-t"))
			t = strtod(w[1], NULL);
		*sim |= !strcmp(w[0], "--sim");
	}
	free(copy);
	if (*sim)
		return (d * t * PLAN_SIM_CPU_S_PER_S_THREAD + PLAN_RUN_OVERHEAD_S) / lanes;
	return d + PLAN_RUN_OVERHEAD_S;
}

/* ---- the command line ---- */

static int plan_usage(const char *what, const char *text, const char *want)
{
	fprintf(stderr, "lockbench: --plan %s: '%s' is not %s\n", what, text, want);
	return EXIT_USAGE;
}

/* A whole decimal number in [min, max] as run-all's whole() takes it: the
 * options' parser (lock_parse_u64), less a leading zero. */
static bool plan_whole(const char *text, uint64_t min, uint64_t max, uint64_t *out)
{
	return *text != '0' && lock_parse_u64(text, min, max, out);
}

/* FILE's lines, their newlines dropped, into *lines (*n of them); false with
 * errno when it cannot be read. */
static bool read_lines(const char *path, char ***lines, size_t *n)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0, room = 0;
	ssize_t len;

	*lines = NULL, *n = 0;
	if (!f)
		return false;
	while ((len = getline(&line, &cap, f)) >= 0) {
		if (len > 0 && line[len - 1] == '\n')
			line[len - 1] = '\0';
		if (*n == room) {
			char **more = realloc(*lines, (room = room ? 2 * room : 64) * sizeof(*more));

			if (!more) {
				errno = ENOMEM;
				break;
			}
			*lines = more;
		}
		(*lines)[(*n)++] = line;
		line = NULL, cap = 0;
	}
	bool ok = len < 0 && !ferror(f);

	free(line);
	fclose(f);
	return ok;
}

static void free_lines(char **lines, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(lines[i]);
	free(lines);
}

static int unreadable(const char *what, const char *path)
{
	fprintf(stderr, "lockbench: --plan %s: cannot read '%s': %s\n", what, path, strerror(errno));
	return EXIT_USAGE;
}

/* rounds VARIANTS REPS SEED */
static int plan_rounds_main(char **argv)
{
	uint64_t reps, seed;
	char **lines;
	size_t n;

	if (!plan_whole(argv[1], 1, PLAN_MAX_REPS, &reps))
		return plan_usage("rounds", argv[1], "a whole number of rounds from 1 to 1000");
	if (!plan_whole(argv[2], 1, PLAN_MOD - 1, &seed))
		return plan_usage("rounds", argv[2], "a whole seed from 1 to 2147483646");
	if (!read_lines(argv[0], &lines, &n))
		return unreadable("rounds", argv[0]);
	plan_rounds(stdout, lines, n, (unsigned int)reps, (uint32_t)seed);
	free_lines(lines, n);
	return EXIT_OK;
}

/* seconds FILE TIMES LANES: the real runs' cost and the simulated runs'
 * (they run LANES at a time), summed apart as scripts/plan.sh's awk did,
 * TIMES over, to the nearest second. */
static int plan_seconds_main(char **argv)
{
	uint64_t times, lanes;
	double real = 0, simulated = 0;
	char **lines;
	size_t n;

	if (!plan_whole(argv[1], 1, PLAN_MAX_REPS, &times))
		return plan_usage("seconds", argv[1], "a whole number of times from 1 to 1000");
	if (!plan_whole(argv[2], 1, 65536, &lanes))
		return plan_usage("seconds", argv[2], "a whole number of lanes from 1 to 65536");
	if (!read_lines(argv[0], &lines, &n))
		return unreadable("seconds", argv[0]);
	for (size_t i = 0; i < n; i++) {
		bool sim;
		double s = plan_line_seconds(lines[i], (unsigned int)lanes, &sim);

		*(sim ? &simulated : &real) += s;
	}
	free_lines(lines, n);
	printf("%lld\n", (long long)((real + simulated) * (double)times + 0.5));
	return EXIT_OK;
}

/* `variants`: the variants (bench/plan_variants.c), or with --why what
 * run-all says of them (bench/plan_why.c). */
int plan_variants_main(char **argv)
{
	struct vopts o;
	int rc = pv_parse(&o, argv);

	if (rc != EXIT_OK)
		return rc;
	if (o.why)
		rc = plan_why(&o);
	else
		pv_all_variants(&o);
	return rc == EXIT_OK && fflush(stdout) ? EXIT_RUNTIME : rc;
}

int plan_main(int argc, char **argv)
{
	static const struct {
		const char *what;
		int (*main)(char **argv);
		int nargs;
	} whats[] = {
		{ "rounds", plan_rounds_main, 3 },   /* VARIANTS REPS SEED */
		{ "seconds", plan_seconds_main, 3 }, /* FILE TIMES LANES */
		{ "check", plan_check_main, 2 },     /* OPTION VALUE */
		{ "variants", plan_variants_main, -1 }, /* OPTIONS...: any number */
		{ "sim", plan_sim_main, -1 },           /* variants' OPTIONS, --sim...: any number */
	};

	for (size_t i = 0; argc >= 2 && i < sizeof(whats) / sizeof(whats[0]); i++)
		if (!strcmp(argv[1], whats[i].what)) {
			int want = whats[i].nargs;

			if (want >= 0 && argc != want + 2) {
				fprintf(stderr, "lockbench: --plan %s: takes %d arguments, not %d\n", argv[1], want, argc - 2);
				return EXIT_USAGE;
			}
			return whats[i].main(argv + 2);
		}
	fprintf(stderr, "lockbench: --plan: '%s' is not rounds, seconds, check, variants or sim\n", argc >= 2 ? argv[1] : "");
	return EXIT_USAGE;
}
