/* plan_variants.c — `lockbench --plan variants OPTIONS`: every variant of a
 * plain run-all once, in the order of the tables (each group's baseline
 * first), from the registries themselves (locks/locks.def's columns and
 * roles, workloads.def, programs.def): run-all's make_variants, moved here
 * by issue 43.  run-all gives what it measured and was asked as options;
 * the simulated section's lines (run-all probes the machine for them) come
 * on stdin and go between the sweep and the programs (--sim-only: they
 * are the plan, --sim's experiment).  --why WHAT says instead what
 * run-all says of that plan, by the same rules (bench/plan_why.c), so
 * that each rule is written once. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan.h"
#include "plan_variants.h"
#include "core/config.h"
#include "exec/launcher/programs.h"
#include "workloads/workload.h"
#include "../common/text.h"
#include "../locks/lock.h"

/* A program's runs time one acquisition in 64 (--timing sample:64): every
 * timed one puts lfence/rdtsc, rdtscp and the histogram around and inside
 * the program's critical section, which in sysbench's tests holds little
 * else — timing all of them ran `sysbench mutex` at 0.48x [0.42..0.54] of
 * no library, sample:64 at 0.92x [0.80..1.11] (make bench, docs/exec.md).
 * The counts stay exact; lbcompare reads sampled histograms as such. */
#define PROGRAM_TIMING "sample:64"

/* WORD is one of LIST's words (blanks or commas part them): in_list. */
bool pv_in_words(const char *word, const char *list)
{
	size_t n = strlen(word);

	for (const char *p = list ? list : ""; *(p += strspn(p, ", \t\n"));) {
		size_t len = strcspn(p, ", \t\n");

		if (len == n && !strncmp(p, word, n))
			return true;
		p += len;
	}
	return false;
}

bool pv_wanted_lock(const struct vopts *o, const char *lock)
{
	return !o->locks || pv_in_words(lock, o->locks);
}

bool pv_wanted(const struct vopts *o, const char *name)
{
	return !o->workloads || pv_in_words(name, o->workloads);
}

/* --quick is a first look (issue 42: within 5 minutes on an idle 2-CPU
 * machine): unless --locks names locks, its sweep leaves out Concurrency
 * Kit's and the patch table's locks (the patch experiment runs those), the
 * programs run their baseline and the patch pair, the simulated section the
 * pair; the kernel experiment runs at 4x the CPUs alone. */
static bool quick_cut(const struct vopts *o)
{
	return o->quick && !o->locks;
}

/* The patch table's locks in column order (1 up to the first column no lock
 * has), as registry indexes; *n of them. */
static size_t patch_table(size_t *out)
{
	size_t n = 0;

	for (unsigned int column = 1;; column++) {
		size_t i = 0;

		while (i < lock_registry_len && lock_plans[i].column != column)
			i++;
		if (i == lock_registry_len)
			return n;
		out[n++] = i;
	}
}

static bool kernel_row(size_t i)
{
	return lock_plans[i].roles & LOCK_R_KERNEL_BASE;
}

/* The patch table's every-run lock (not the kernel's row) i is at least
 * the from-th of them (1 all, 3 those past the patch pair). */
static bool patch_lock_from(size_t lock, unsigned int from)
{
	size_t table[lock_registry_len], n = patch_table(table);
	unsigned int k = 0;

	for (size_t j = 0; j < n; j++)
		if (!kernel_row(table[j]) && ++k >= from && table[j] == lock)
			return true;
	return false;
}

/* --duration's seconds for NAME (its own, else every workload's), or NULL:
 * run-all's duration_of, items parted by commas, the last one winning. */
const char *pv_duration_of(const struct vopts *o, const char *name, char *buf, size_t size)
{
	const char *own = NULL, *all = NULL, *p = o->duration;
	size_t own_len = 0, all_len = 0, n = strlen(name);

	while (p && *p) {
		size_t len = strcspn(p, ",\n");
		const char *eq = memchr(p, '=', len);

		if (!eq && len)
			all = p, all_len = len;
		else if (eq && !memchr(eq + 1, '=', len - (size_t)(eq + 1 - p)) && (size_t)(eq - p) == n &&
			 !strncmp(p, name, n))
			own = eq + 1, own_len = len - n - 1;
		p += len + (p[len] != '\0');
	}
	if (!own && !all)
		return NULL;
	snprintf(buf, size, "%.*s", (int)(own ? own_len : all_len), own ? own : all);
	return buf;
}

/* NAME's -d: --duration's, else the registry's full or --quick seconds. */
static const char *seconds_of(const struct vopts *o, const char *name, double full, double quick, char *buf,
			      size_t size)
{
	if (pv_duration_of(o, name, buf, size))
		return buf;
	snprintf(buf, size, "%g", o->quick ? quick : full);
	return buf;
}

/* Workload w's -d where it is of ROLE and wanted, else NULL. */
static const char *planned_seconds(const struct vopts *o, size_t w, enum workload_role role, char *buf, size_t size)
{
	const struct workload_plan *p = &workload_plans[w];

	if (p->role != role || !pv_wanted(o, workload_registry[w]->name))
		return NULL;
	return seconds_of(o, workload_registry[w]->name, p->seconds_full, p->seconds_quick, buf, size);
}

/* The words of --threads, else the default counts; *n of them. */
static size_t thread_words(const struct vopts *o, char words[][24], const unsigned long *dflt, size_t ndflt)
{
	size_t n = 0;

	if (!o->threads) {
		for (; n < ndflt; n++)
			snprintf(words[n], sizeof(words[n]), "%lu", dflt[n]);
		return n;
	}
	for (const char *p = o->threads; *(p += strspn(p, ", \t\n")) && n < MAX_THREAD_WORDS; n++) {
		size_t len = strcspn(p, ", \t\n");

		snprintf(words[n], sizeof(words[n]), "%.*s", (int)len, p);
		p += len;
	}
	return n;
}

/* The sweep's: 1, 2, 4, ... up to 2x the CPUs (or --threads), less
 * --budget's SWEEP_DROP counts after the first (never the first or last). */
size_t pv_sweep_threads(const struct vopts *o, char words[][24])
{
	unsigned long dflt[MAX_THREAD_WORDS];
	size_t nd = 0, n, k = 0;

	for (unsigned long t = 1; t < 2 * o->ncpu && nd < MAX_THREAD_WORDS - 1; t *= 2)
		dflt[nd++] = t;
	dflt[nd++] = 2 * o->ncpu;
	n = thread_words(o, words, dflt, nd);
	for (size_t i = 0; i < n; i++)
		if (i == 0 || i == n - 1 || i > o->sweep_drop)
			memmove(words[k++], words[i], sizeof(words[i]));
	return k;
}

/* The patch experiment's: the seed ran 256 threads on 64 cores. */
static size_t patch_threads(const struct vopts *o, char words[][24])
{
	unsigned long dflt[] = { 4 * o->ncpu };

	return thread_words(o, words, dflt, 1);
}

/* Models vs the kernel: 1x, 2x and 4x the CPUs (--quick 4x alone), or
 * --threads; with --budget's KERNEL_DROP the first and the last only. */
size_t pv_kernel_threads(const struct vopts *o, char words[][24])
{
	unsigned long dflt[] = { o->ncpu, 2 * o->ncpu, 4 * o->ncpu }, quick[] = { 4 * o->ncpu };
	size_t n = o->quick ? thread_words(o, words, quick, 1) : thread_words(o, words, dflt, 3);

	if (o->kernel_drop && n > 2) {
		memmove(words[1], words[n - 1], sizeof(words[0]));
		n = 2;
	}
	return n;
}

/* One variant: NAME-W-tT-LOCK, its lock, workload, threads, seconds and
 * warm-up, kernel capture, and --dir for a workload that makes files. */
static void print_run(const struct vopts *o, const char *group, size_t w, const char *t, size_t lock,
		      const char *d)
{
	const struct workload_ops *wl = workload_registry[w];
	const char *l = lock_registry[lock]->name;

	fprintf(o->out, "%s-%s-t%s-%s -l %s -w %s -t %s -d %s --warmup %s%s", group, wl->name, t, l, l, wl->name, t, d,
	       o->warmup, o->kl ? " --kernel-locks" : "");
	if (o->dir && wl->takes_dir)
		fprintf(o->out, " --dir %s", o->dir);
	putc('\n', o->out);
}

/* The patch experiment and the models-vs-kernel one: the patch table's
 * locks, the kernel's row with kernel capture only; the kernel experiment
 * has its row (its baseline) first, and nothing without kernel capture. */
size_t pv_table_order(const struct vopts *o, enum workload_role role, size_t *order)
{
	size_t table[lock_registry_len], n = patch_table(table), k = 0;

	if (role == WL_PATCH) {
		for (size_t j = 0; j < n; j++)
			if (!kernel_row(table[j]) || o->kl)
				order[k++] = table[j];
	} else if (o->kl) {
		for (size_t pass = 0; pass < 2; pass++)
			for (size_t j = 0; j < n; j++)
				if (kernel_row(table[j]) == !pass)
					order[k++] = table[j];
	}
	return k;
}

static void table_variants(const struct vopts *o, enum workload_role role, const char *group)
{
	size_t order[lock_registry_len], k = pv_table_order(o, role, order);
	char words[MAX_THREAD_WORDS][24], buf[64];

	for (size_t w = 0; w < workload_registry_len; w++) {
		const char *d = planned_seconds(o, w, role, buf, sizeof(buf));

		if (!d)
			continue;
		size_t nt = role == WL_PATCH ? patch_threads(o, words) : pv_kernel_threads(o, words);

		for (size_t t = 0; t < nt; t++)
			for (size_t j = 0; j < k; j++)
				if (pv_wanted_lock(o, lock_registry[order[j]]->name))
					print_run(o, group, w, words[t], order[j], d);
	}
}

/* A sweep point leaves lock out: one that excludes nothing beyond one
 * thread (it loses updates by design), a NUMA-only one on fewer than two
 * nodes unless --locks names it, --quick's cut. */
static bool sweep_skips(const struct vopts *o, size_t lock, const char *t)
{
	const struct lock_plan *p = &lock_plans[lock];

	if ((lock_registry[lock]->flags & LOCK_F_NO_EXCLUSION) && strtoul(t, NULL, 10) > 1)
		return true;
	if ((p->roles & LOCK_R_NUMA_ONLY) && o->numa_nodes < 2 && !o->locks)
		return true;
	return quick_cut(o) && ((p->roles & LOCK_R_CK) || patch_lock_from(lock, 1));
}

static void sweep_variants(const struct vopts *o)
{
	char words[MAX_THREAD_WORDS][24], buf[64];

	for (size_t w = 0; w < workload_registry_len; w++) {
		const char *d = planned_seconds(o, w, WL_SWEEP, buf, sizeof(buf));

		if (!d)
			continue;
		size_t nt = pv_sweep_threads(o, words);

		for (size_t t = 0; t < nt; t++)
			for (size_t l = 0; l < lock_registry_len; l++)
				if (pv_wanted_lock(o, lock_registry[l]->name) && !sweep_skips(o, l, words[t]))
					print_run(o, "sweep", w, words[t], l, d);
	}
}

/* The simulated section's lines from in, less --quick's: a plain run's
 * section runs the patch pair alone. */
static void sim_variants(const struct vopts *o, FILE *in)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;

	while ((len = getline(&line, &cap, in)) > 0) {
		const char *l = strstr(line, " -l "), *lock = l ? l + 4 : NULL;
		bool skip = false;

		if (quick_cut(o) && lock) {
			size_t n = strcspn(lock, " \n");

			for (size_t i = 0; i < lock_registry_len && !skip; i++)
				skip = strlen(lock_registry[i]->name) == n && !strncmp(lock_registry[i]->name, lock, n) &&
				       patch_lock_from(i, 3);
		}
		if (!skip)
			fputs(line, o->out);
	}
	free(line);
}

size_t pv_program_base(void)
{
	for (size_t i = 0; i < lock_registry_len; i++)
		if (lock_plans[i].roles & LOCK_R_PROGRAM_BASE)
			return i;
	return lock_registry_len;
}

char *pv_printable(char *s)
{
	text_one_line(s);
	return s;
}

/* The locks a program runs under: the programs' baseline (glibc's own
 * mutex) first (a comparison's baseline is its first lock), then the patch
 * table's that exclude (a program must not run unprotected, and --exec
 * refuses a lock that excludes nothing); --quick: the first three. */
size_t pv_program_locks(const struct vopts *o, size_t *out)
{
	size_t table[lock_registry_len], n = patch_table(table), k = 0, base = pv_program_base();

	if (base < lock_registry_len)
		out[k++] = base;
	for (size_t j = 0; j < n; j++)
		if (!kernel_row(table[j]) && table[j] != base && !(lock_registry[table[j]]->flags & LOCK_F_NO_EXCLUSION))
			out[k++] = table[j];
	return quick_cut(o) && k > 3 ? 3 : k;
}

static void program_variants(const struct vopts *o)
{
	size_t locks[lock_registry_len + 1], nl = pv_program_locks(o, locks);
	char words[MAX_THREAD_WORDS][24], buf[64];

	for (size_t i = 0; i < exec_program_registry_len; i++) {
		const struct exec_program *p = &exec_program_registry[i];

		if (p->role != PG_PATCH || !pv_wanted(o, p->name) || pv_in_words(p->name, o->skip))
			continue;
		const char *d = seconds_of(o, p->name, p->seconds_full, p->seconds_quick, buf, sizeof(buf));
		size_t nt = patch_threads(o, words);

		for (size_t t = 0; t < nt; t++)
			for (size_t j = 0; j < nl; j++) {
				const char *l = lock_registry[locks[j]]->name;

				if (pv_wanted_lock(o, l))
					fprintf(o->out, "program-%s-t%s-%s --exec --program %s -l %s -t %s -d %s --timing %s%s\n",
					       p->name, words[t], l, p->name, l, words[t], d, PROGRAM_TIMING,
					       o->kl ? " --kernel-locks" : "");
			}
	}
}

/* ---- the command line ---- */

static int bad(const char *option, const char *value, const char *want)
{
	fprintf(stderr, "lockbench: --plan variants: %s '%s' is not %s\n", option, value, want);
	return EXIT_USAGE;
}

static bool whole(const char *text, unsigned long max, unsigned long *out)
{
	char *end;

	if (!*text || strspn(text, "0123456789") != strlen(text))
		return false;
	errno = 0;
	*out = strtoul(text, &end, 10);
	return !errno && *out <= max;
}

/* A valued option's place in o, or NULL. */
static const char **string_opt(struct vopts *o, const char *name)
{
	static const struct { const char *name; size_t off; } s[] = {
		{ "--locks", offsetof(struct vopts, locks) },       { "--workloads", offsetof(struct vopts, workloads) },
		{ "--threads", offsetof(struct vopts, threads) },   { "--duration", offsetof(struct vopts, duration) },
		{ "--dir", offsetof(struct vopts, dir) },           { "--skip", offsetof(struct vopts, skip) },
		{ "--warmup", offsetof(struct vopts, warmup) },     { "--why", offsetof(struct vopts, why) },
		{ "--kl-why", offsetof(struct vopts, kl_why) },
	};

	for (size_t i = 0; i < sizeof(s) / sizeof(s[0]); i++)
		if (!strcmp(name, s[i].name))
			return (const char **)((char *)o + s[i].off);
	return NULL;
}

static unsigned long *number_opt(struct vopts *o, const char *name, unsigned long *max)
{
	*max = !strcmp(name, "--kernel-drop") ? 1 : 65536;
	if (!strcmp(name, "--cpus"))
		return &o->ncpu;
	if (!strcmp(name, "--numa-nodes"))
		return &o->numa_nodes;
	if (!strcmp(name, "--sweep-drop"))
		return &o->sweep_drop;
	return !strcmp(name, "--kernel-drop") ? &o->kernel_drop : NULL;
}

/* argv: OPTIONS..., NULL-ended; a value given empty is as if not given. */
int pv_parse(struct vopts *o, char **argv)
{
	*o = (struct vopts){ .numa_nodes = 1, .warmup = "0.5", .out = stdout };
	for (; *argv; argv++) {
		const char **s = string_opt(o, *argv);
		unsigned long max, *n = number_opt(o, *argv, &max);

		if (!strcmp(*argv, "--quick") || !strcmp(*argv, "--kernel-locks") || !strcmp(*argv, "--sim-only")) {
			*(!strcmp(*argv, "--quick") ? &o->quick : !strcmp(*argv, "--kernel-locks") ? &o->kl : &o->sim_only) = true;
			continue;
		}
		if (!s && !n)
			return bad("option", *argv, "one of --quick --kernel-locks --sim-only --locks --workloads --threads "
						    "--duration --dir --skip --warmup --cpus --numa-nodes --sweep-drop --kernel-drop --why --kl-why");
		if (!argv[1])
			return bad(*argv, "", "followed by a value");
		if (s) {
			/* Empty: the default stays (--warmup's 0.5, NULL for the rest). */
			if (*argv[1])
				*s = argv[1];
			argv++;
		} else if (!whole(*++argv, max, n))
			return bad(argv[-1], *argv, "a whole number in range");
	}
	if (!o->ncpu)
		return bad("--cpus", "0", "given, from 1");
	if (o->why && strcmp(o->why, "dropped") && strcmp(o->why, "kernel") && strcmp(o->why, "budget"))
		return bad("--why", o->why, "dropped, kernel or budget");
	return EXIT_OK;
}

/* Every variant, in the order of the tables, to o->out. */
void pv_all_variants(const struct vopts *o)
{
	if (o->sim_only) { /* --sim's experiment: stdin's lines alone */
		struct vopts all = *o;

		all.quick = false;
		sim_variants(&all, o->in ? o->in : stdin);
		return;
	}
	table_variants(o, WL_PATCH, "patch");
	table_variants(o, WL_KERNEL, "kernel");
	sweep_variants(o);
	sim_variants(o, o->in ? o->in : stdin);
	program_variants(o);
}
