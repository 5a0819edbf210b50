/* plan_budget.c — what a plan costs (`lockbench --plan seconds`), and
 * `lockbench --plan budget MINUTES REPS LANES SECTION OPTIONS...`: run-all's
 * --budget MINUTES, the plan trimmed to fit a time slot (issue 42), in C
 * (issue 43).  OPTIONS are `--plan variants`' (what run-all measured and
 * was asked); stdin holds the simulated section's lines as for `--plan
 * variants`.  SECTION is "sim" where those lines are a plain run's
 * simulated section, which --budget may drop (not --sim's: that is the
 * plan), else "-".
 *
 * Trimmed in this order, each step only while the plan is still too long:
 * the simulated section; then the sweep's thread counts, the smallest above
 * 1 first (1 thread, the uncontended cost, and the largest stay); then the
 * models-vs-kernel experiment's middle thread count, 2x the CPUs (1x and 4x
 * stay); then repetitions, down to 4, the fewest with which a verdict can
 * show a difference (or to REPS, if fewer).  Never a lock or a workload.
 *
 * Prints what run-all keeps, a line each: `reps N`, `sweep-drop N`,
 * `kernel-drop N`, `sim kept|dropped`, then `say TEXT` (what was dropped:
 * run-all says it) or `die TEXT` (even the most trimmed plan overruns the
 * slot: run-all refuses it), or neither (the plan fits untrimmed); TEXT
 * without run-all's "run-all: ". */
#define _GNU_SOURCE
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan.h"
#include "plan_variants.h"
#include "core/config.h"

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

long long plan_cost(char *const *lines, size_t n, unsigned int lanes, unsigned int times)
{
	double real = 0, simulated = 0;

	/* The real runs' cost and the simulated runs' summed apart, as
	 * scripts/plan.sh's awk did. */
	for (size_t i = 0; i < n; i++) {
		bool sim;
		double s = plan_line_seconds(lines[i], lanes, &sim);

		*(sim ? &simulated : &real) += s;
	}
	return (long long)((real + simulated) * (double)times + 0.5);
}

/* The trimming's state: the options, the simulated section's lines (a
 * copy of stdin, read anew for each plan), whether it was dropped. */
struct budget {
	struct vopts o;
	unsigned long reps, reps0, lanes;
	FILE *sims, *none;
	bool droppable, dropped;
};

/* What the plan costs now (`--plan seconds variants.txt REPS LANES`), or -1
 * out of memory. */
static long long budget_cost(struct budget *b)
{
	char *text = NULL, **lines = NULL, *p;
	size_t size = 0, n = 0;
	long long cost = -1;

	b->o.out = open_memstream(&text, &size);
	b->o.in = b->dropped ? b->none : b->sims;
	if (!b->o.out || fseek(b->o.in, 0, SEEK_SET))
		return -1;
	pv_all_variants(&b->o);
	if (fclose(b->o.out) == 0)
		lines = calloc(size + 1, sizeof(*lines));
	/* Its lines as getline reads them: each up to a newline, the last
	 * without one if not empty. */
	for (p = text; lines && *p; n++) {
		lines[n] = p;
		p += strcspn(p, "\n");
		if (*p)
			*p++ = '\0';
	}
	if (lines)
		cost = plan_cost(lines, n, (unsigned int)b->lanes, (unsigned int)b->reps);
	free(lines);
	free(text);
	return cost;
}

/* --why budget's first line: what may go next of the thread counts (sweep,
 * kernel, none); with all set, the rest: what went, joined by ", ". */
static bool budget_why(struct budget *b, char *step, size_t size, char **all)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return false;
	pv_why_budget(&b->o, f);
	if (fclose(f))
		return free(text), false;
	size_t first = strcspn(text, "\n");

	snprintf(step, size, "%.*s", (int)first, text);
	*all = text;
	return true;
}

/* What was dropped so far, in one phrase (run-all's budget_dropped). */
static char *budget_dropped(struct budget *b)
{
	char step[32], *why, *out = NULL;
	size_t size = 0;
	FILE *f;

	if (!budget_why(b, step, sizeof(step), &why))
		return NULL;
	if (!(f = open_memstream(&out, &size)))
		return free(why), NULL;
	const char *sep = "", *p = why + strcspn(why, "\n");

	if (b->droppable && b->dropped)
		fputs("the simulated section", f), sep = ", ";
	for (p += *p == '\n'; *p; sep = ", ") {
		size_t n = strcspn(p, "\n");

		fprintf(f, "%s%.*s", sep, (int)n, p);
		p += n + (p[n] == '\n');
	}
	if (b->reps != b->reps0)
		fprintf(f, "%srepetitions %lu to %lu", sep, b->reps0, b->reps), sep = ", ";
	if (!*sep)
		fputs("nothing", f);
	free(why);
	return fclose(f) ? free(out), NULL : out;
}

/* One more step of the trimming: false when nothing is left to drop. */
static bool budget_step(struct budget *b, unsigned long floor)
{
	char step[32], *why;

	if (b->droppable && !b->dropped)
		return b->dropped = true;
	if (!budget_why(b, step, sizeof(step), &why))
		return false;
	free(why);
	if (!strcmp(step, "sweep"))
		b->o.sweep_drop++;
	else if (!strcmp(step, "kernel"))
		b->o.kernel_drop = 1;
	else if (b->reps > floor)
		b->reps--;
	else
		return false;
	return true;
}

/* "M:SS" */
static char *fmt_time(long long s, char *buf, size_t size)
{
	snprintf(buf, size, "%lld:%02lld", s / 60, s % 60);
	return buf;
}

/* The trimming, from the full plan; its lines to stdout. */
static int budget_fit(struct budget *b, unsigned long minutes)
{
	long long limit = (long long)minutes * 60, full = budget_cost(b), cost = full;
	unsigned long floor = b->reps < 4 ? b->reps : 4;
	char t1[32], t2[32], *bd = NULL;
	bool stuck = false;

	while (cost >= 0 && cost > limit && !(stuck = !budget_step(b, floor)))
		cost = budget_cost(b);
	if (cost >= 0 && (stuck || cost < full) && !(bd = budget_dropped(b)))
		cost = -1;
	if (cost < 0) {
		perror("lockbench: --plan budget");
		return EXIT_RUNTIME;
	}
	printf("reps %lu\nsweep-drop %lu\nkernel-drop %lu\nsim %s\n", b->reps, b->o.sweep_drop, b->o.kernel_drop,
	       b->dropped ? "dropped" : "kept");
	if (stuck && !strcmp(bd, "nothing"))
		printf("die --budget %lu: the plan needs about %s and has nothing --budget may drop: give it more minutes, "
		       "or fewer --locks or --workloads\n", minutes, fmt_time(full, t1, sizeof(t1)));
	else if (stuck)
		printf("die --budget %lu: the plan needs about %s; even with %s dropped it takes about %s: give it more "
		       "minutes, or fewer --locks or --workloads\n", minutes, fmt_time(full, t1, sizeof(t1)), bd,
		       fmt_time(cost, t2, sizeof(t2)));
	else if (bd)
		printf("say --budget %lu: the plan needs about %s; dropped %s to fit (about %s)\n", minutes,
		       fmt_time(full, t1, sizeof(t1)), bd, fmt_time(cost, t2, sizeof(t2)));
	free(bd);
	return fflush(stdout) ? EXIT_RUNTIME : EXIT_OK;
}

/* stdin's lines into a file read anew for each plan. */
static FILE *copy_stdin(void)
{
	FILE *f = tmpfile();
	char buf[4096];
	size_t n;

	while (f && (n = fread(buf, 1, sizeof(buf), stdin)) > 0)
		if (fwrite(buf, 1, n, f) != n)
			return fclose(f), NULL;
	return f && !ferror(stdin) ? f : (f ? fclose(f) : 0, NULL);
}

int plan_budget(unsigned long minutes, unsigned long reps, unsigned long lanes, bool droppable, char **options)
{
	struct budget b = { .reps = reps, .reps0 = reps, .lanes = lanes, .droppable = droppable };
	int rc = pv_parse(&b.o, options);

	if (rc != EXIT_OK)
		return rc;
	if (!(b.sims = copy_stdin()) || !(b.none = fopen("/dev/null", "r"))) {
		perror("lockbench: --plan budget: stdin");
		rc = EXIT_RUNTIME;
	} else
		rc = budget_fit(&b, minutes);
	if (b.sims)
		fclose(b.sims);
	if (b.none)
		fclose(b.none);
	return rc;
}
