/*
 * markdown_parts.c — the comparisons the report prints (markdown_int.h):
 * the directory's finished runs loaded once through the one validated
 * reader (resultfile.h), and for each experiment (patch, kernel, sweep) and
 * workload the plan ran, its runs in the directory's order, compared
 * (model/comparison.h) and put in words (print.h) once, in memory.  The
 * report reads nothing lbcompare printed.
 */
#define _GNU_SOURCE  /* open_memstream */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "markdown_int.h"
#include "../model/builds.h"
#include "print.h"
#include "../../common/text.h"

/* run-all's experiments; "sim" is its simulated runs (run-all --sim), the
 * only part that takes a simulated run and that takes nothing else. */
static const char *const kinds[] = { "patch", "kernel", "sweep", "sim" };

bool md_run_of(const char *name, const char *kind, const char *w)
{
	size_t k = strlen(kind), n = strlen(w);

	return strncmp(name, kind, k) == 0 && name[k] == '-' && strncmp(name + k + 1, w, n) == 0 &&
	       name[k + 1 + n] == '-';
}

/* Finished run I of the directory, loaded as run-all names it: runs/NAME. */
static int load_run(const struct md *m, size_t i, struct result_run *run, char *err, size_t errlen)
{
	static struct sf_dir top, dir;  /* static: two paths of PATH_MAX, not on the stack */
	char rel[MD_PATH];
	int rc;

	top.fd = m->d->dir.fd;
	snprintf(rel, sizeof(rel), "runs/%s", m->d->plan[m->d->done[i]].name);
	if (sf_dir_at(&dir, &top, rel, err, errlen) != 0)
		return -1;
	rc = result_load(run, &dir, err, errlen);
	sf_dir_close(&dir);
	return rc;
}

/* Every finished run (each loaded a moment ago, in rundir_load: one that no
 * longer does was changed under us, and the report stops). */
static int load_runs(struct md *m, char *err, size_t errlen)
{
	if (!(m->run = calloc(m->d->ndone + 1, sizeof(*m->run)))) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < m->d->ndone; i++) {
		if (!(m->run[i] = malloc(sizeof(*m->run[i])))) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		if (load_run(m, i, m->run[i], err, errlen) != 0) {
			free(m->run[i]);
			m->run[i] = NULL;
			return -1;
		}
	}
	return 0;
}

bool md_simulated(const struct result_run *run)
{
	return run->has_meta && run->host.simulated;
}

/* The first real run: a simulated one's meta.csv tells no machine. */
const struct result_run *md_first_run(const struct md *m)
{
	for (size_t i = 0; i < m->d->ndone; i++)
		if (!md_simulated(m->run[i]))
			return m->run[i];
	return NULL;
}

size_t md_real_runs(const struct md *m)
{
	size_t n = 0;

	for (size_t i = 0; i < m->d->ndone; i++)
		n += !md_simulated(m->run[i]);
	return n;
}

/* The part's runs: the finished ones named KIND-W-, simulated (meta.csv)
 * for the "sim" part and real for every other: whatever a run is named,
 * a simulated one never enters a real table, nor a real one the
 * simulated section. */
static bool part_runs(struct md *m, struct md_part *p)
{
	bool sim = strcmp(p->kind, "sim") == 0;

	if (!(p->runs = calloc(m->d->ndone + 1, sizeof(*p->runs))))
		return false;
	for (size_t i = 0; i < m->d->ndone; i++)
		if (md_run_of(m->d->plan[m->d->done[i]].name, p->kind, p->workload) && md_simulated(m->run[i]) == sim)
			p->runs[p->nruns++] = m->run[i];
	return true;
}

/* Whether finished run I is a real --exec run (lockbench --exec: workload exec). */
static bool exec_run(const struct md *m, size_t i)
{
	return result_program(m->run[i]) != NULL && !md_simulated(m->run[i]);
}

/* The programs' baseline into LOCK: run-env's PROGRAM_BASE; in a directory
 * from before it, the lock of variants.txt's first --exec variant (run-all
 * has always put the baseline first under each program).  One with neither
 * (made by hand, or before variants.txt) has no name-free answer: it keeps
 * the baseline those reports always had, glibc's mutex (old directories
 * only). */
static void program_base(const struct md *m, char *lock, size_t len)
{
	struct kv_file f;
	char err[256];

	snprintf(lock, len, "%s", rundir_env(m->d, "PROGRAM_BASE"));
	if (*lock)
		return;
	if (kv_file_read(&f, &m->d->dir, "variants.txt", ' ', err, sizeof(err)) == 0) {
		for (size_t v = 0; v < f.n && !*lock; v++) {
			const char *l = strstr(f.pair[v].value, " -l ");

			if (l && strstr(f.pair[v].value, "--exec"))
				snprintf(lock, len, "%.*s", (int)strcspn(l + 4, " "), l + 4);
		}
		kv_file_free(&f);
	}
	if (!*lock)
		snprintf(lock, len, "pthread");
}

/* The --exec runs, whatever run-all named them: one part, kind and workload
 * "exec", its comparison's groups each a program at its threads asked
 * (model/comparison.h).  The programs' baseline (the interposer's pthread)
 * is each group's baseline: its runs first, then the others in the
 * directory's order. */
static int exec_part(struct md *m, char *err, size_t errlen)
{
	struct md_part *p = &m->part[m->nparts];
	char base[64];

	program_base(m, base, sizeof(base));
	for (int base_first = 1; base_first >= 0; base_first--)
		for (size_t i = 0; i < m->d->ndone; i++) {
			const char *lock = result_get(m->run[i], "lock");

			if (!exec_run(m, i) || (lock && strcmp(lock, base) == 0) != base_first)
				continue;
			if (!p->runs && !(p->runs = calloc(m->d->ndone + 1, sizeof(*p->runs)))) {
				snprintf(err, errlen, "out of memory");
				return -1;
			}
			p->runs[p->nruns++] = m->run[i];
		}
	if (!p->nruns)
		return 0;
	snprintf(p->kind, sizeof(p->kind), "exec");
	snprintf(p->workload, sizeof(p->workload), "exec");
	m->nparts++;
	return md_part_compare(p, false, err, errlen);
}

int md_part_compare(struct md_part *p, bool hosts_only, char *err, size_t errlen)
{
	char why[ERR_LEN];
	size_t len;
	FILE *f;

	if (!(f = open_memstream(&p->text, &len))) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	/* Repetitions of two builds (a run resumed with another lockbench) are
	 * refused, as the plain lbcompare that writes data/ refuses them. */
	p->c = comparison_build(p->runs, p->nruns, why, sizeof(why));
	if (!p->c || comparison_mixes_builds(p->c, why, sizeof(why)) ||
	    (hosts_only ? text_print_hosts : text_print)(p->c, f, why, sizeof(why)) != 0) {
		text_one_line(why);
		snprintf(p->failed, sizeof(p->failed), "lbcompare: %s", why);
		comparison_free(p->c);
		p->c = NULL;
	}
	if (fclose(f) != 0 || !p->text) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	return 0;
}

int md_parts_build(struct md *m, char *err, size_t errlen)
{
	if (load_runs(m, err, errlen) != 0)
		return -1;
	if (!(m->part = calloc(m->d->ndone + 1, sizeof(*m->part)))) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++)
		for (size_t i = 0; i < m->d->ndone; i++) {
			const struct plan_run *r = &m->d->plan[m->d->done[i]];
			struct md_part *p = &m->part[m->nparts];

			if (strcmp(r->kind, kinds[k]) != 0 || !md_run_of(r->name, kinds[k], r->workload) ||
			    md_part(m, kinds[k], r->workload))
				continue;
			snprintf(p->kind, sizeof(p->kind), "%s", kinds[k]);
			snprintf(p->workload, sizeof(p->workload), "%s", r->workload);
			m->nparts++;
			if (!part_runs(m, p)) {
				snprintf(err, errlen, "out of memory");
				return -1;
			}
			if (md_part_compare(p, false, err, errlen) != 0)
				return -1;
		}
	return exec_part(m, err, errlen);
}

void md_parts_free(struct md *m)
{
	for (size_t i = 0; i < m->nparts; i++) {
		comparison_free(m->part[i].c);
		free(m->part[i].text);
		free(m->part[i].runs);
	}
	for (size_t i = 0; m->run && i < m->d->ndone && m->run[i]; i++) {
		result_free(m->run[i]);
		free(m->run[i]);
	}
	free(m->run);
	free(m->part);
	m->run = NULL;
	m->part = NULL;
	m->nparts = 0;
}

const struct md_part *md_part(const struct md *m, const char *kind, const char *w)
{
	for (size_t i = 0; i < m->nparts; i++)
		if (strcmp(m->part[i].kind, kind) == 0 && strcmp(m->part[i].workload, w) == 0)
			return &m->part[i];
	return NULL;
}

static int cmp_threads(const void *a, const void *b)
{
	const struct group *x = *(const struct group *const *)a, *y = *(const struct group *const *)b;

	return (x->threads > y->threads) - (x->threads < y->threads);
}

size_t md_groups_of(const struct comparison *c, const char *w, bool (*want)(const struct group *g),
		    const struct group **g)
{
	size_t n = 0;

	for (unsigned int i = 0; c && i < c->ngroups; i++)
		if (strcmp(c->groups[i].workload, w) == 0 && (!want || want(&c->groups[i])))
			g[n++] = &c->groups[i];
	qsort(g, n, sizeof(*g), cmp_threads);
	return n;
}

void md_pair_read(struct md *m)
{
	const char *p = rundir_env(m->d, "PATCH_PAIR");

	/* A directory from before run-env's PATCH_PAIR names no pair, and
	 * nothing in it does without a name: its runs may have failed, so the
	 * first two patch variants that finished need not be the pair.  Its
	 * report keeps the pair run-all always planned then (old directories
	 * only). */
	if (!*p)
		p = "kmutex-spin kmutex-fix";
	for (int i = 0; i < 2; i++)
		if (!md_next_word(&p, m->pair[i], sizeof(m->pair[i])))
			snprintf(m->pair[i], sizeof(m->pair[i]), "-");
}

bool md_kernel_base_run(const struct md *m, size_t i)
{
	const char *base = rundir_env(m->d, "KERNEL_BASE"), *lock = result_get(m->run[i], "lock");
	const char *excludes = result_get(m->run[i], "lock_excludes");

	if (*base)
		return lock && strcmp(lock, base) == 0;
	return excludes && strcmp(excludes, "0") == 0;
}
