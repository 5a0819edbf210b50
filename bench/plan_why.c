/* plan_why.c — `lockbench --plan variants OPTIONS --why WHAT`: what run-all
 * says of the plan that bench/plan_variants.c makes, by the same rules (each
 * written once, there): a name of --locks or --workloads in no run and why,
 * the kernel experiment's absence, --budget's next thread count to drop and
 * what it dropped (issue 43); and what the simulated section may take, for
 * bench/plan_sim.c (pv_sim_locks, pv_sim_workloads). */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan_variants.h"
#include "core/config.h"
#include "exec/launcher/programs.h"
#include "workloads/workload.h"
#include "../locks/lock.h"

/* A line being said: pieces appended, cut at its size. */
struct text {
	char s[8192];
	size_t n;
};

static void say(struct text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(struct text *t, const char *fmt, ...)
{
	va_list ap;
	int len;

	va_start(ap, fmt);
	len = vsnprintf(t->s + t->n, sizeof(t->s) - t->n, fmt, ap);
	va_end(ap);
	if (len > 0)
		t->n = t->n + (size_t)len < sizeof(t->s) ? t->n + (size_t)len : sizeof(t->s) - 1;
}

/* The n locks' names, parted by blanks. */
static void say_locks(struct text *t, const size_t *locks, size_t n)
{
	for (size_t i = 0; i < n; i++)
		say(t, "%s%s", i ? " " : "", lock_registry[locks[i]]->name);
}

/* A workload of ROLE is wanted (run-all's wanted_sweep, wanted_kernel). */
static bool wanted_role(const struct vopts *o, enum workload_role role)
{
	for (size_t w = 0; w < workload_registry_len; w++)
		if (workload_plans[w].role == role && pv_wanted(o, workload_registry[w]->name))
			return true;
	return false;
}

static size_t lock_index(const char *name)
{
	size_t i = 0;

	while (i < lock_registry_len && strcmp(lock_registry[i]->name, name))
		i++;
	return i;
}

/* The sweep leaves a NUMA-only lock out on one node, unless --locks names it. */
static bool numa_skipped(const struct vopts *o, size_t lock)
{
	return (lock_plans[lock].roles & LOCK_R_NUMA_ONLY) && o->numa_nodes < 2 &&
	       !(o->locks && pv_wanted_lock(o, lock_registry[lock]->name));
}

/* Why lock (of --locks) has no run, wanted workload by wanted workload:
 * run-all's lock_why. */
static void lock_why(const struct vopts *o, const char *name, struct text *t)
{
	size_t lock = lock_index(name), order[lock_registry_len], n, locks[lock_registry_len + 1], base;
	bool any = lock < lock_registry_len;

	for (size_t w = 0; w < workload_registry_len; w++) {
		const char *wl = workload_registry[w]->name;

		if (!pv_wanted(o, wl))
			continue;
		if (workload_plans[w].role == WL_PATCH) {
			n = pv_table_order(o, WL_PATCH, order);
			say(t, "; %s runs only the patch table's locks (", wl), say_locks(t, order, n), say(t, ")");
		} else if (workload_plans[w].role == WL_KERNEL && (n = pv_table_order(o, WL_KERNEL, order))) {
			say(t, "; %s runs only the models-vs-kernel experiment's (", wl);
			say_locks(t, order, n), say(t, ")");
		} else if (workload_plans[w].role == WL_SWEEP && any && (lock_registry[lock]->flags & LOCK_F_NO_EXCLUSION)) {
			say(t, "; %s sweeps %s (it excludes nothing) only at 1 thread", wl, name);
		} else if (workload_plans[w].role == WL_SWEEP && any && numa_skipped(o, lock)) {
			say(t, "; %s sweeps %s only on a machine of two or more NUMA nodes", wl, name);
		}
	}
	n = pv_program_locks(o, locks);
	base = pv_program_base();
	for (size_t i = 0; i < exec_program_registry_len; i++) {
		const struct exec_program *p = &exec_program_registry[i];

		if (p->role != PG_PATCH || !pv_wanted(o, p->name) || pv_in_words(p->name, o->skip))
			continue;
		say(t, "; %s runs only the patch table's locks that exclude, and %s (", p->name,
		    base < lock_registry_len ? lock_registry[base]->name : "");
		say_locks(t, locks, n), say(t, ")");
	}
}

static const struct exec_program *program_named(const char *name)
{
	for (size_t i = 0; i < exec_program_registry_len; i++)
		if (!strcmp(exec_program_registry[i].name, name))
			return &exec_program_registry[i];
	return NULL;
}

/* Why workload (of --workloads, in no run and not skipped) has no run:
 * run-all's dropped_names, its second half. */
static void workload_why(const struct vopts *o, const char *name, struct text *t)
{
	const struct exec_program *p = program_named(name);
	size_t locks[lock_registry_len + 1], n, w = 0;

	if (p && p->role == PG_PATCH) {
		n = pv_program_locks(o, locks);
		say(t, "none of --locks is a lock it runs under ("), say_locks(t, locks, n), say(t, ")");
		return;
	}
	if (p) {
		say(t, "run-all plans nothing of it (run it with bench/lockbench --exec --program %s)", name);
		return;
	}
	while (w < workload_registry_len && strcmp(workload_registry[w]->name, name))
		w++;
	enum workload_role role = w < workload_registry_len ? workload_plans[w].role : WL_UNPLANNED;

	if (role == WL_KERNEL && (n = pv_table_order(o, WL_KERNEL, locks))) {
		say(t, "none of --locks is in the models-vs-kernel experiment ("), say_locks(t, locks, n), say(t, ")");
	} else if (role == WL_PATCH) {
		n = pv_table_order(o, WL_PATCH, locks);
		say(t, "none of --locks is in the patch table ("), say_locks(t, locks, n), say(t, ")");
	} else if (role == WL_SWEEP) {
		say(t, "--locks names only locks the sweep leaves out");
	} else if (role != WL_KERNEL) {
		say(t, "run-all plans nothing of it (its role is %s: run it with bench/lockbench -w %s)",
		    w < workload_registry_len ? workload_role_names[role] : "", name);
	}
}

/* The next word of list from *p into word (size), or false at the end. */
static bool next_word(const char **p, char *word, size_t size)
{
	size_t len;

	if (!*p || !*(*p += strspn(*p, ", \t\n")))
		return false;
	len = strcspn(*p, ", \t\n");
	snprintf(word, size, "%.*s", (int)len, *p);
	*p += len;
	return true;
}

/* A line for each lock of --locks and workload of --workloads that no
 * planned variant has, saying why: nothing asked for disappears unsaid. */
static int why_dropped(struct vopts *o)
{
	char *planned = NULL, word[256], needle[300];
	size_t size = 0;
	const char *p;

	o->out = open_memstream(&planned, &size);
	if (!o->out)
		return EXIT_RUNTIME;
	pv_all_variants(o);
	if (fclose(o->out))
		return EXIT_RUNTIME;
	for (p = o->locks; next_word(&p, word, sizeof(word));) {
		struct text t = { .n = 0 };

		snprintf(needle, sizeof(needle), " -l %s ", word);
		if (!strstr(planned, needle) && (lock_why(o, word, &t), t.n))
			printf("--locks: %s is in no run: %s\n", word, t.s + 2);
	}
	for (p = o->workloads; next_word(&p, word, sizeof(word));) {
		struct text t = { .n = 0 };
		char program[300];

		snprintf(needle, sizeof(needle), " -w %s ", word);
		snprintf(program, sizeof(program), " --program %s ", word);
		if (strstr(planned, needle) || strstr(planned, program) || pv_in_words(word, o->skip))
			continue;
		workload_why(o, word, &t);
		if (t.n)
			printf("--workloads: %s is in no run: %s\n", word, t.s);
	}
	free(planned);
	return EXIT_OK;
}

/* Why the models-vs-kernel experiment has no runs, where one of its
 * workloads is wanted and kernel capture (--kl-why: why not) is unavailable. */
static void why_kernel(const struct vopts *o)
{
	size_t order[lock_registry_len];
	const char *sep = "";

	if (pv_table_order(o, WL_KERNEL, order) || !wanted_role(o, WL_KERNEL))
		return;
	printf("models vs the running kernel's mutex (");
	for (size_t w = 0; w < workload_registry_len; w++)
		if (workload_plans[w].role == WL_KERNEL)
			printf("%s%s", sep, workload_registry[w]->name), sep = " ";
	printf(") not planned: kernel lock capture is unavailable here (%s)\n", o->kl_why ? o->kl_why : "");
}

/* "WHAT A B": all's words that are not in kept's, to out. */
static void say_minus(FILE *out, const char *what, char all[][24], size_t na, char kept[][24], size_t nk)
{
	const char *sep = "";

	fprintf(out, "%s ", what);
	for (size_t i = 0; i < na; i++) {
		bool in = false;

		for (size_t j = 0; j < nk && !in; j++)
			in = !strcmp(all[i], kept[j]);
		if (!in)
			fprintf(out, "%s%s", sep, all[i]), sep = " ";
	}
	fputc('\n', out);
}

/* --budget's thread counts: first line what it may drop next (sweep: one
 * more sweep point; kernel: the kernel experiment's middle count; none),
 * then a line for each it has dropped (--sweep-drop, --kernel-drop).
 * `--plan budget` (bench/plan_budget.c) reads them too. */
void pv_why_budget(struct vopts *o, FILE *out)
{
	char now[MAX_THREAD_WORDS][24], all[MAX_THREAD_WORDS][24];
	size_t order[lock_registry_len];
	bool sweep = wanted_role(o, WL_SWEEP), kernel = pv_table_order(o, WL_KERNEL, order) && wanted_role(o, WL_KERNEL);
	unsigned long sd = o->sweep_drop, kd = o->kernel_drop;

	if (sweep && pv_sweep_threads(o, now) > 2)
		fputs("sweep\n", out);
	else
		fputs(!kd && kernel && pv_kernel_threads(o, now) > 2 ? "kernel\n" : "none\n", out);
	if (sweep && sd) {
		size_t nk = pv_sweep_threads(o, now), na = (o->sweep_drop = 0, pv_sweep_threads(o, all));

		say_minus(out, "sweep points", all, na, now, nk), o->sweep_drop = sd;
	}
	if (kd) {
		size_t nk = pv_kernel_threads(o, now), na = (o->kernel_drop = 0, pv_kernel_threads(o, all));

		say_minus(out, "kernel experiment threads", all, na, now, nk), o->kernel_drop = kd;
	}
}

size_t pv_sim_locks(const struct vopts *o, bool wants, const char **names)
{
	size_t order[lock_registry_len], n = pv_table_order(o, WL_PATCH, order), k = 0;

	for (size_t j = 0; j < n; j++) {
		const char *l = lock_registry[order[j]]->name;

		if (!(lock_registry[order[j]]->flags & LOCK_F_NO_EXCLUSION) && (!wants || pv_wanted_lock(o, l)))
			names[k++] = l;
	}
	return k;
}

size_t pv_sim_workloads(const struct vopts *o, const char **names)
{
	size_t k = 0;

	for (size_t w = 0; w < workload_registry_len; w++)
		if (workload_plans[w].role == WL_PATCH && pv_wanted(o, workload_registry[w]->name))
			names[k++] = workload_registry[w]->name;
	return k;
}

int plan_why(struct vopts *o)
{
	if (!strcmp(o->why, "dropped"))
		return why_dropped(o);
	if (!strcmp(o->why, "kernel"))
		why_kernel(o);
	else
		pv_why_budget(o, stdout);
	return EXIT_OK;
}
