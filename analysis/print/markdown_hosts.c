/*
 * markdown_hosts.c — `lbcompare --hosts OUTDIR DIR...`'s report.md: several
 * run-all directories side by side (markdown.h).  Each workload's runs
 * from every directory are compared together, as --hosts compares them
 * for OUTDIR/data/KIND-W.txt (print_hosts_data): lbcompare keys its groups by
 * meta.csv's host, so each host keeps its tables and baseline apart and the
 * "across hosts" tables are added; this prints them in order under a header
 * naming the directories.  The simulated runs (run-all --sim, the "sim"
 * part) get their own section, each directory's compared apart: they
 * measure no host, and two directories' seeds are two experiments.
 */
#include <string.h>

#include "../model/across.h"
#include "markdown.h"
#include "markdown_int.h"

#define HOSTS_MAX 64

/* Every workload some directory ran as KIND, in its registry's order. */
static size_t workloads_of(const struct rundir *dirs, size_t ndirs, const char *kind, char (*w)[64], size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < ndirs; i++) {
		char word[64];
		for (const char *p = rundir_env(&dirs[i], "ALL_WORKLOADS"); n < max && md_next_word(&p, word, sizeof(word));) {
			bool seen = false;
			for (size_t k = 0; k < n && !seen; k++)
				seen = strcmp(w[k], word) == 0;
			if (!seen && rundir_plans(&dirs[i], kind, word, NULL, true))
				snprintf(w[n++], sizeof(w[0]), "%s", word);
		}
	}
	return n;
}

/* Per directory, the label its runs' host takes in the comparisons ("":
 * meta.csv's own), set where a hostname repeats: then every directory is
 * its own "host" (vm-dir1, vm-dir2), so a before and an after on one
 * machine are compared side by side, never pooled as repetitions. */
static char dir_label[HOSTS_MAX][RUNDIR_LABEL];

/* The labels of the directories' runs in KIND's comparison: their host
 * labels, and for a simulated run always its directory's ("sim-dir2"):
 * every simulated run's meta.csv says host "unknown". */
static const char (*run_labels(const char *kind))[RUNDIR_LABEL]
{
	static char sim[HOSTS_MAX][RUNDIR_LABEL];

	if (strcmp(kind, "sim") != 0)
		return (const char (*)[RUNDIR_LABEL])dir_label;
	for (unsigned int i = 0; i < HOSTS_MAX; i++)
		snprintf(sim[i], sizeof(sim[i]), "sim-dir%u", i + 1);
	return (const char (*)[RUNDIR_LABEL])sim;
}

/* KIND's runs of W in every directory, in the order given (model/dirmodel.h),
 * a simulated run only in the simulated part, a real one only in the
 * others (meta.csv's simulated, not the name). */
static bool load_part(struct dir_part *p, const struct rundir *dirs, size_t ndirs)
{
	return dir_hosts_part_load(p, dirs, ndirs, run_labels(p->kind), true);
}

/* Each host's headline figures of C, a table per host and thread count,
 * and where the full comparison is (REL). */
static void print_headlines(FILE *out, const struct comparison *c, const char *rel)
{
	for (unsigned int i = 0; i < c->ngroups; i++) {
		const struct group *g = &c->groups[i];

		fprintf(out, "`%s`, %u threads:\n\n", c->hosts[g->host].label, g->threads);
		md_headline_table(out, g);
	}
	fprintf(out, "Every figure, and each workload across the hosts side by side: `%s`.\n\n", rel);
}

/* KIND's comparison of W across the directories, as run-all makes it for
 * OUTDIR/data/KIND-W.txt: in full, or (the sweeps) only its hosts and
 * across-hosts tables; 0, or -1 out of memory. */
static int print_workload(FILE *out, const struct rundir *dirs, size_t ndirs, const char *kind, const char *w)
{
	static struct dir_part p;
	bool sweep = strcmp(kind, "sweep") == 0;
	char rel[MD_PATH], err[256];
	int rc = 0;

	memset(&p, 0, sizeof(p));
	snprintf(p.kind, sizeof(p.kind), "%s", kind);
	snprintf(p.workload, sizeof(p.workload), "%.63s", w);
	snprintf(rel, sizeof(rel), "data/%s-%.63s.txt", kind, w);
	if (!load_part(&p, dirs, ndirs) || (!p.failed[0] && md_part_compare(&p, sweep, err, sizeof(err)) != 0))
		rc = -1;
	else if (p.failed[0])
		md_print_failed_comparison(out, rel, p.failed);
	else if (!sweep)
		print_headlines(out, p.c, rel);
	else {
		md_fenced(out, p.text);
		fprintf(out, "Each host's tables, thread count by thread count: `%s`; the figures as CSV: `data/`.\n\n", rel);
	}
	dir_hosts_part_free(&p);
	return rc;
}

/* What the simulated section is, and which directory each label is. */
static void print_sim_intro(FILE *out, const struct rundir *dirs, size_t ndirs)
{
	unsigned int k = 0;

	fprintf(out, "**Every figure in this section is simulated** (`lockbench --sim`, docs/sim.md): nothing of a host is measured, and each directory's simulated runs are compared apart, as a host of their own, never pooled with another's (the same seeds on the same profile are the same runs); the tables name them in the directories' order:\n\n");
	for (size_t i = 0; i < ndirs; i++)
		if (rundir_plans(&dirs[i], "sim", NULL, NULL, true) && ++k == 1)
			fprintf(out, "- `simulated`: `%s`\n", dirs[i].dir.path);
		else if (rundir_plans(&dirs[i], "sim", NULL, NULL, true))
			fprintf(out, "- `simulated#%u`: `%s`\n", k, dirs[i].dir.path);
	fprintf(out, "\n");
}

static int print_kind(FILE *out, const struct rundir *dirs, size_t ndirs, const char *kind)
{
	char w[32][64];
	size_t n = workloads_of(dirs, ndirs, kind, w, 32);
	bool sweep = strcmp(kind, "sweep") == 0;

	if (!sweep && n > 0)
		fprintf(out, "## %s\n\n", strcmp(kind, "kernel") == 0 ? "Models against the running kernel's mutex"
					 : strcmp(kind, "sim") == 0 ? "Simulated: the seed's machine"
								    : "The patch's table");
	if (strcmp(kind, "sim") == 0 && n > 0)
		print_sim_intro(out, dirs, ndirs);
	for (size_t i = 0; i < n; i++) {
		if (strcmp(kind, "sim") == 0)
			fprintf(out, "### %s, simulated\n\n", w[i]);
		else if (sweep)
			fprintf(out, "## %c%s sweep\n\n", w[i][0] >= 'a' && w[i][0] <= 'z' ? w[i][0] - 'a' + 'A' : w[i][0],
				w[i] + 1);
		else
			fprintf(out, "### %s\n\n", w[i]);
		if (print_workload(out, dirs, ndirs, kind, w[i]) != 0)
			return -1;
	}
	return 0;
}

/* ---- before -> after: two directories of one plan ---- */

/* Whether A and B hold one plan: the same runs with the same lockbench
 * arguments, in whatever order (--order-seed keeps the order, and need not). */
static bool same_plan(const struct rundir *a, const struct rundir *b)
{
	if (a->nplan != b->nplan)
		return false;
	for (size_t i = 0; i < a->nplan; i++) {
		size_t k = 0;

		while (k < b->nplan && (strcmp(a->plan[i].name, b->plan[k].name) != 0 ||
					strcmp(a->plan[i].args, b->plan[k].args) != 0))
			k++;
		if (k == b->nplan)
			return false;
	}
	return true;
}

/* Plan run R's experiment: its kind and workload, or an --exec run's
 * program (the word after --program, as run-all names it: program-P-...). */
static bool experiment_of(const struct plan_run *r, char *w, size_t len)
{
	const char *p;

	if (strcmp(r->kind, "program") == 0 && (p = strstr(r->args, "--program ")) != NULL) {
		p += strlen("--program ");
		snprintf(w, len, "%.*s", (int)strcspn(p, " "), p);
		return true;
	}
	snprintf(w, len, "%s", r->workload);
	return *w && (strcmp(r->kind, "patch") == 0 || strcmp(r->kind, "kernel") == 0 || strcmp(r->kind, "sweep") == 0);
}

/* KIND's runs of W from both directories, each variant against itself. */
static int print_across_part(FILE *out, const struct rundir *dirs, const char *kind, const char *w)
{
	static struct dir_part p;
	static struct across a[MAX_GROUPS];
	char err[256];
	int rc = 0;

	memset(&p, 0, sizeof(p));
	snprintf(p.kind, sizeof(p.kind), "%s", kind);
	snprintf(p.workload, sizeof(p.workload), "%.63s", w);
	fprintf(out, "### %s: %s\n\n", kind, w);
	if (!load_part(&p, dirs, 2) || (!p.failed[0] && md_part_compare(&p, true, err, sizeof(err)) != 0))
		rc = -1;
	else if (p.failed[0])
		fprintf(out, "```text\n%s\n```\n\n", p.failed);
	else if (p.c->nhosts != 2)
		fprintf(out, "Only one directory has finished runs of it: nothing to compare.\n\n");
	else
		for (size_t i = 0, n = across_groups(p.c, 0, 1, a, MAX_GROUPS, NULL); i < n; i++)
			md_across_table(out, &a[i], p.c->hosts[0].label, p.c->hosts[1].label);
	dir_hosts_part_free(&p);
	return rc;
}

/* The report's first section where two directories hold one plan; one
 * line saying why there is none where they do not. */
static int print_before_after(FILE *out, const struct rundir *dirs, size_t ndirs)
{
	char seen[64][96];
	size_t nseen = 0;

	if (ndirs != 2)
		return 0;
	if (!same_plan(&dirs[0], &dirs[1])) {
		fprintf(out, "The two directories hold different plans (%zu runs and %zu, not the same runs with the same arguments), so there is no before → after section: the hosts side by side below, as for any two directories.\n\n",
			dirs[0].nplan, dirs[1].nplan);
		return 0;
	}
	fprintf(out, "## Before → after: each variant against itself\n\n`%s` (before) → `%s` (after), one plan. Each variant's runs after against its own runs before, on the figure its tables lead with: the after / before ratio (Hodges–Lehmann's, inside its 95%% Moses interval) and Mann–Whitney's verdict, as every table of the report judges.\n\n",
		dirs[0].dir.path, dirs[1].dir.path);
	for (size_t i = 0; i < dirs[0].nplan; i++) {
		const struct plan_run *r = &dirs[0].plan[i];
		char w[64], key[96];
		bool again = false;

		if (!experiment_of(r, w, sizeof(w)))
			continue;
		snprintf(key, sizeof(key), "%s %s", r->kind, w);
		for (size_t k = 0; k < nseen && !again; k++)
			again = strcmp(seen[k], key) == 0;
		if (again || nseen == 64)
			continue;
		snprintf(seen[nseen++], sizeof(seen[0]), "%s", key);
		if (print_across_part(out, dirs, r->kind, w) != 0)
			return -1;
	}
	return 0;
}

static int print_hosts_report(FILE *out, const struct rundir *dirs, size_t ndirs)
{
	fprintf(out, "# lockbench report: hosts side by side\n\nRun directories, each with its own full report (machine, noise, checks, failed runs):\n\n");
	for (size_t i = 0; i < ndirs; i++)
		fprintf(out, "- `%s` (its `report.md`)\n", dirs[i].dir.path);
	if (rundir_host_labels(dirs, ndirs, dir_label)) {
		fprintf(out, "\nA hostname repeats: these are runs of one machine (a before and an after), so each directory is compared as a host of its own, never pooled with another's repetitions, the first the baseline:\n\n");
		for (size_t i = 0; i < ndirs; i++)
			fprintf(out, "- `%s`: `%s`%s\n", dir_label[i], dirs[i].dir.path, i == 0 ? " (the baseline)" : "");
	}
	fprintf(out, "\n");
	if (print_before_after(out, dirs, ndirs) != 0)
		return -1;
	fprintf(out, "Each host's runs are grouped apart: its own tables, against its own first variant, with its own confidence intervals and verdicts; the \"across hosts\" tables put each host's figure and ratio side by side (each at the largest thread count it ran). The header names each host's CPU, cores, NUMA nodes and kernel (meta.csv).\n\n");
	if (print_kind(out, dirs, ndirs, "patch") || print_kind(out, dirs, ndirs, "kernel") ||
	    print_kind(out, dirs, ndirs, "sweep") || print_kind(out, dirs, ndirs, "sim"))
		return -1;
	fprintf(out, "No plots here: each directory's own report has its hosts' plots.\n");
	return 0;
}

int markdown_hosts_report(const struct rundir *dirs, size_t ndirs, FILE *out)
{
	return ndirs > HOSTS_MAX ? -1 : print_hosts_report(out, dirs, ndirs);
}
