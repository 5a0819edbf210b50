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
static bool plan_read_lines(const char *path, char ***lines, size_t *n)
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

static void plan_free_lines(char **lines, size_t n)
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
	if (!plan_read_lines(argv[0], &lines, &n))
		return unreadable("rounds", argv[0]);
	plan_rounds(stdout, lines, n, (unsigned int)reps, (uint32_t)seed);
	plan_free_lines(lines, n);
	return EXIT_OK;
}

/* seconds FILE TIMES LANES: the real runs' cost and the simulated runs'
 * (they run LANES at a time), summed apart as scripts/plan.sh's awk did,
 * TIMES over, to the nearest second. */
static int plan_seconds_main(char **argv)
{
	uint64_t times, lanes;
	char **lines;
	size_t n;

	if (!plan_whole(argv[1], 1, PLAN_MAX_REPS, &times))
		return plan_usage("seconds", argv[1], "a whole number of times from 1 to 1000");
	if (!plan_whole(argv[2], 1, 65536, &lanes))
		return plan_usage("seconds", argv[2], "a whole number of lanes from 1 to 65536");
	if (!plan_read_lines(argv[0], &lines, &n))
		return unreadable("seconds", argv[0]);
	long long s = plan_cost(lines, n, (unsigned int)lanes, (unsigned int)times);

	plan_free_lines(lines, n);
	printf("%lld\n", s);
	return EXIT_OK;
}

/* ---- cost PLAN REPS LANES SIM DIR DIR_WHY SIM_WHY KERNEL_WHY ---- */

/* PATH's last byte is not a newline: wc -l, which run-all counted a plan's
 * runs with, does not count such a last line. */
static bool unterminated(const char *path)
{
	FILE *f = fopen(path, "r");
	bool open_end = f && !fseek(f, -1, SEEK_END) && getc(f) != '\n';

	if (f)
		fclose(f);
	return open_end;
}

/* One of SIM_WHY's ';'-separated reasons, its leading blanks dropped: "NAME:
 * WHY" (NAME of [a-z0-9-]) as "run-all: NAME is not simulated: WHY", any
 * other as it is. */
static void print_sim_why(const char *why, size_t len)
{
	size_t lead = strspn(why, " "), name;

	lead = lead < len ? lead : len;
	why += lead, len -= lead;
	name = strspn(why, "abcdefghijklmnopqrstuvwxyz0123456789-");
	if (name + 2 <= len && why[name] == ':' && why[name + 1] == ' ')
		printf("run-all: %.*s is not simulated: %.*s\n", (int)name, why, (int)(len - name - 2), why + name + 2);
	else
		printf("%.*s\n", (int)len, why);
}

/* Seconds as run-all's M:SS. */
static void print_minutes(long long s)
{
	printf("%lld:%02lld\n", s / 60, s % 60);
}

/* What PLAN's runs cost, before they start, as run-all says it for a new
 * and a resumed run: the runs and rounds, why the kernel experiment is not
 * planned, the simulated runs' share (they run LANES at a time, after the
 * real ones), why a variant is not simulated, and where the file workloads
 * make their files. */
static void print_cost(char **lines, size_t n, size_t total, char **argv, unsigned int lanes)
{
	char **sims = calloc(n + 1, sizeof(*sims));
	size_t k = 0;

	if (!sims) {
		perror("lockbench: --plan cost");
		exit(EXIT_RUNTIME);
	}
	printf("run-all: %zu runs in %s round(s), each round every variant once in its own order (plan.txt): about ",
	       total, argv[1]);
	print_minutes(plan_cost(lines, n, lanes, 1));
	if (*argv[7])
		printf("run-all: %s\n", argv[7]);
	for (size_t i = 0; i < n; i++)
		if (strstr(lines[i], " --sim "))
			sims[k++] = lines[i];
	if (k) {
		printf("run-all: of which %zu simulated on %s, after the real runs, %s at a time: about ", k, argv[3],
		       argv[2]);
		print_minutes(plan_cost(sims, k, lanes, 1));
	}
	/* Each of the reasons, an empty one too, as echo | tr ';' '\n' made them lines. */
	for (const char *why = argv[6], *end = why; *argv[6] && *end; why = end + 1) {
		end = why + strcspn(why, ";\n");
		print_sim_why(why, (size_t)(end - why));
	}
	for (size_t i = 0; i < n; i++)
		if (strstr(lines[i], " --dir ")) {
			printf("run-all: the file workloads make their files in %s (%s)\n", argv[4], argv[5]);
			break;
		}
	free(sims);
}

static int plan_cost_main(char **argv)
{
	uint64_t lanes;
	char **lines;
	size_t n;

	if (!plan_whole(argv[2], 1, 65536, &lanes))
		return plan_usage("cost", argv[2], "a whole number of lanes from 1 to 65536");
	if (!plan_read_lines(argv[0], &lines, &n))
		return unreadable("cost", argv[0]);
	print_cost(lines, n, n - (n && unterminated(argv[0])), argv, (unsigned int)lanes);
	plan_free_lines(lines, n);
	return fflush(stdout) ? EXIT_RUNTIME : EXIT_OK;
}

/* ---- preflight PLAN BOUND: an instant run per workload ---- */

/* The next blank-separated word of *p (p moves past it), NULL at the end;
 * *len its length. */
static const char *next_word(const char **p, size_t *len)
{
	*p += strspn(*p, " \t");
	*len = strcspn(*p, " \t");
	if (!*len)
		return NULL;
	const char *w = *p;

	*p += *len;
	return w;
}

/* WORD (len letters) is text. */
static bool word_is(const char *word, size_t len, const char *text)
{
	return strlen(text) == len && !strncmp(word, text, len);
}

/* The workload a line checks (its last -w or --program) into key, and its
 * threads (the last -t), from the words after the first but the last: a
 * simulated line is checked apart from the real ones of its workload. */
static char *preflight_key(const char *line, double *threads)
{
	const char *p = line, *w, *prev = NULL, *key = "";
	size_t len, plen = 0, klen = 0;
	char *out;

	*threads = 0;
	for (size_t i = 0; (w = next_word(&p, &len)); prev = w, plen = len, i++) {
		if (i < 2) /* prev is the name, or none */
			continue;
		if (word_is(prev, plen, "-t"))
			*threads = strtod(w, NULL);
		if (word_is(prev, plen, "-w") || word_is(prev, plen, "--program"))
			key = w, klen = len;
	}
	if (asprintf(&out, "%.*s%s", (int)klen, key, strstr(line, " --sim ") ? " sim" : "") < 0)
		return NULL;
	return out;
}

/* A program's bound in seconds: BOUND (RUNALL_PREFLIGHT_S) if given, else
 * 20 times its last -d and at least 120 (a program cannot be cut short). */
static long long preflight_bound(const char *args, const char *bound)
{
	const char *p = args, *w, *prev = NULL;
	size_t len, plen = 0;
	double d = 0;

	if (*bound)
		return strtoll(bound, NULL, 10);
	for (; (w = next_word(&p, &len)); prev = w, plen = len)
		if (prev && word_is(prev, plen, "-d"))
			d = strtod(w, NULL);
	return (long long)(20 * d > 120 ? 20 * d : 120);
}

/* One chosen line, tab-separated: its name; the exit statuses that stop
 * run-all (lockbench's runtime error and bad usage; a program's own
 * failure may be one lock's: bad usage alone); the program's bound or -;
 * the instant run's options (a program cannot be cut short: -; --sim takes
 * no --max-ops: a thousandth of a simulated second); the line's args. */
static void preflight_print(const char *line, const char *bound)
{
	const char *p = line, *args;
	size_t len, alen;
	const char *name = next_word(&p, &len);
	char *padded;

	args = p + strspn(p, " \t");
	for (alen = strlen(args); alen && (args[alen - 1] == ' ' || args[alen - 1] == '\t'); alen--)
		;
	if (!name || asprintf(&padded, " %.*s ", (int)alen, args) < 0)
		return;
	printf("%.*s\t", (int)len, name);
	if (strstr(padded, " --program "))
		printf("2\t%lld\t-", preflight_bound(args, bound));
	else if (strstr(padded, " --sim "))
		printf("1 2\t-\t-d 0.001 --warmup 0");
	else
		printf("1 2\t-\t-d 0.01 --warmup 0 --max-ops 1");
	printf("\t%.*s\n", (int)alen, args);
	free(padded);
}

static int by_text(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Of each workload's lines the one with the most threads (the first of
 * equals) into chosen; how many, or (size_t)-1 out of memory. */
static size_t preflight_choose(char **lines, size_t n, char **chosen)
{
	char **keys = calloc(n + 1, sizeof(*keys));
	double *most = calloc(n + 1, sizeof(*most));
	size_t k = 0;
	bool ok = keys && most;

	for (size_t i = 0; ok && i < n; i++) {
		double t;
		char *key = preflight_key(lines[i], &t);
		size_t j = 0;

		while (key && j < k && strcmp(keys[j], key))
			j++;
		ok = key != NULL;
		if (ok && j == k)
			keys[k++] = key, chosen[j] = lines[i], most[j] = t;
		else if (ok && t > most[j])
			chosen[j] = lines[i], most[j] = t;
		if (ok && keys[j] != key)
			free(key);
	}
	for (size_t j = 0; keys && j < k; j++)
		free(keys[j]);
	free(keys), free(most);
	return ok ? k : (size_t)-1;
}

/* preflight PLAN BOUND: run-all's instant run per workload before the
 * first run, in the C locale's order (run-all sorted them so). */
static int plan_preflight_main(char **argv)
{
	uint64_t b;
	char **lines, **chosen;
	size_t n, k;

	if (*argv[1] && !plan_whole(argv[1], 1, 9999, &b))
		return plan_usage("preflight", argv[1], "whole seconds from 1 to 9999");
	if (!plan_read_lines(argv[0], &lines, &n))
		return unreadable("preflight", argv[0]);
	chosen = calloc(n + 1, sizeof(*chosen));
	k = chosen ? preflight_choose(lines, n, chosen) : (size_t)-1;
	if (k != (size_t)-1) {
		qsort(chosen, k, sizeof(*chosen), by_text);
		for (size_t j = 0; j < k; j++)
			preflight_print(chosen[j], argv[1]);
	}
	free(chosen);
	plan_free_lines(lines, n);
	if (k == (size_t)-1) {
		perror("lockbench: --plan preflight");
		return EXIT_RUNTIME;
	}
	return fflush(stdout) ? EXIT_RUNTIME : EXIT_OK;
}

/* budget MINUTES REPS LANES SECTION OPTIONS...: --budget's trimming
 * (bench/plan_budget.c). */
static int plan_budget_main(char **argv)
{
	uint64_t minutes, reps, lanes;

	for (int i = 0; i < 4; i++)
		if (!argv[i]) {
			fprintf(stderr, "lockbench: --plan budget: takes MINUTES REPS LANES SECTION OPTIONS..., not %d\n", i);
			return EXIT_USAGE;
		}
	if (!plan_whole(argv[0], 1, 100000, &minutes))
		return plan_usage("budget", argv[0], "a whole number of minutes from 1 to 100000");
	if (!plan_whole(argv[1], 1, PLAN_MAX_REPS, &reps))
		return plan_usage("budget", argv[1], "a whole number of repetitions from 1 to 1000");
	if (!plan_whole(argv[2], 1, 65536, &lanes))
		return plan_usage("budget", argv[2], "a whole number of lanes from 1 to 65536");
	if (strcmp(argv[3], "sim") && strcmp(argv[3], "-"))
		return plan_usage("budget", argv[3], "sim or -");
	return plan_budget((unsigned long)minutes, (unsigned long)reps, (unsigned long)lanes, !strcmp(argv[3], "sim"),
			   argv + 4);
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
		{ "cost", plan_cost_main, 8 }, /* PLAN REPS LANES SIM DIR DIR_WHY SIM_WHY KERNEL_WHY */
		{ "check", plan_check_main, 2 },     /* OPTION VALUE */
		{ "variants", plan_variants_main, -1 }, /* OPTIONS...: any number */
		{ "sim", plan_sim_main, -1 },           /* variants' OPTIONS, --sim...: any number */
		{ "budget", plan_budget_main, -1 },     /* MINUTES REPS LANES OPTIONS... */
		{ "preflight", plan_preflight_main, 2 }, /* PLAN BOUND */
		{ "programs", plan_programs_main, -1 }, /* variants' OPTIONS...: any number */
		{ "run-env", plan_run_env_main, 0 },    /* this machine's run-env */
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
	fprintf(stderr, "lockbench: --plan: '%s' is not rounds, seconds, cost, check, variants, sim, budget, preflight, programs or run-env\n", argc >= 2 ? argv[1] : "");
	return EXIT_USAGE;
}
