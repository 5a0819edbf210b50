/*
 * dirmodel.c — a run-all directory's comparisons, built once (dirmodel.h):
 * the finished runs loaded, and for each experiment and workload the plan
 * ran, its runs in the directory's order, compared.
 */
#include "dirmodel.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builds.h"
#include "../../common/text.h"

/* run-all's experiments, in the order it keeps them in data/; "sim" is its
 * simulated runs (run-all --sim), the only part that takes a simulated run
 * and that takes nothing else. */
static const char *const kinds[] = { "patch", "kernel", "sweep", "program", "sim" };

bool dir_run_of(const char *name, const char *kind, const char *w)
{
	size_t k = strlen(kind), n = strlen(w);

	return strncmp(name, kind, k) == 0 && name[k] == '-' && strncmp(name + k + 1, w, n) == 0 &&
	       name[k + 1 + n] == '-';
}

bool dir_run_simulated(const struct result_run *run)
{
	return run->has_meta && run->host.simulated;
}

static int no_memory(char *err, size_t errlen)
{
	snprintf(err, errlen, "out of memory");
	return -1;
}

/* Finished run I of the directory, loaded as run-all names it: runs/NAME. */
static int load_run(const struct dir_model *m, size_t i, struct result_run *run, char *err, size_t errlen)
{
	static struct sf_dir top, dir;  /* static: two paths of PATH_MAX, not on the stack */
	char rel[320];
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
 * longer does was changed under us, and the model is not built). */
static int load_runs(struct dir_model *m, char *err, size_t errlen)
{
	if (!(m->run = calloc(m->d->ndone + 1, sizeof(*m->run))))
		return no_memory(err, errlen);
	for (size_t i = 0; i < m->d->ndone; i++) {
		if (!(m->run[i] = malloc(sizeof(*m->run[i]))))
			return no_memory(err, errlen);
		if (load_run(m, i, m->run[i], err, errlen) != 0) {
			free(m->run[i]);
			m->run[i] = NULL;
			return -1;
		}
	}
	return 0;
}

void plan_workload(const struct plan_run *r, char *w, size_t len)
{
	const char *p = strstr(r->args, "--program ");

	if (strcmp(r->kind, "program") == 0 && p && (p == r->args || p[-1] == ' '))
		snprintf(w, len, "%.*s", (int)strcspn(p + 10, " "), p + 10);
	else
		snprintf(w, len, "%s", r->workload);
}

void dir_part_fail(struct dir_part *p, const char *why)
{
	snprintf(p->failed, sizeof(p->failed), "lbcompare: %s", why);
	comparison_free(p->c);
	p->c = NULL;
}

void dir_part_compare(struct dir_part *p)
{
	char why[ERR_LEN];

	p->c = comparison_build(p->runs, p->nruns, why, sizeof(why));
	if (!p->c || comparison_mixes_builds(p->c, why, sizeof(why))) {
		text_one_line(why);
		dir_part_fail(p, why);
	}
}

/* A new part KIND of W; NULL out of memory. */
static struct dir_part *new_part(struct dir_model *m, const char *kind, const char *w)
{
	struct dir_part *p = &m->part[m->nparts];

	if (!(p->runs = calloc(m->d->ndone + 1, sizeof(*p->runs))))
		return NULL;
	snprintf(p->kind, sizeof(p->kind), "%s", kind);
	snprintf(p->workload, sizeof(p->workload), "%s", w);
	m->nparts++;
	return p;
}

/* The part's runs: the finished ones named KIND-W-, simulated (meta.csv)
 * for the "sim" part and real for every other: whatever a run is named,
 * a simulated one never enters a real table, nor a real one the
 * simulated section. */
static void part_runs(struct dir_model *m, struct dir_part *p)
{
	bool sim = strcmp(p->kind, "sim") == 0;

	for (size_t i = 0; i < m->d->ndone; i++)
		if (dir_run_of(m->d->plan[m->d->done[i]].name, p->kind, p->workload) && dir_run_simulated(m->run[i]) == sim)
			p->runs[p->nruns++] = m->run[i];
}

/* Whether finished run I is a real --exec run (lockbench --exec: workload exec). */
static bool exec_run(const struct dir_model *m, size_t i)
{
	return result_program(m->run[i]) != NULL && !dir_run_simulated(m->run[i]);
}

/* The programs' baseline into LOCK: run-env's PROGRAM_BASE, or in a
 * directory from before it the first lock its plan ran under a program
 * (run-all has always put the baseline first: rundir.h); "" in one with
 * neither, whose groups keep the directory's order. */
static void program_base(const struct dir_model *m, char *lock, size_t len)
{
	snprintf(lock, len, "%s", rundir_env(m->d, "PROGRAM_BASE"));
}

/* The --exec runs, whatever run-all named them: one part, kind and workload
 * "exec", its comparison's groups each a program at its threads asked
 * (comparison.h).  The programs' baseline (the interposer's pthread)
 * is each group's baseline: its runs first, then the others in the
 * directory's order. */
static int exec_part(struct dir_model *m, char *err, size_t errlen)
{
	struct dir_part *p = NULL;
	char base[64];

	program_base(m, base, sizeof(base));
	for (int base_first = 1; base_first >= 0; base_first--)
		for (size_t i = 0; i < m->d->ndone; i++) {
			const char *lock = result_get(m->run[i], "lock");

			if (!exec_run(m, i) || (lock && strcmp(lock, base) == 0) != base_first)
				continue;
			if (!p && !(p = new_part(m, "exec", "exec")))
				return no_memory(err, errlen);
			p->runs[p->nruns++] = m->run[i];
		}
	if (p)
		dir_part_compare(p);
	return 0;
}

int dir_model_build(struct dir_model *m, const struct rundir *d, char *err, size_t errlen)
{
	memset(m, 0, sizeof(*m));
	m->d = d;
	if (load_runs(m, err, errlen) != 0)
		return -1;
	/* At most a part per plan line, and the exec part. */
	if (!(m->part = calloc(d->nplan + 2, sizeof(*m->part))))
		return no_memory(err, errlen);
	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++)
		for (size_t i = 0; i < d->nplan; i++) {
			const struct plan_run *r = &d->plan[i];
			struct dir_part *p;
			char w[64];

			plan_workload(r, w, sizeof(w));
			if (!r->finished || strcmp(r->kind, kinds[k]) != 0 || !dir_run_of(r->name, kinds[k], w) ||
			    dir_model_part(m, kinds[k], w))
				continue;
			if (!(p = new_part(m, kinds[k], w)))
				return no_memory(err, errlen);
			part_runs(m, p);
			dir_part_compare(p);
		}
	return exec_part(m, err, errlen);
}

void dir_model_free(struct dir_model *m)
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

struct dir_part *dir_model_part(const struct dir_model *m, const char *kind, const char *w)
{
	for (size_t i = 0; i < m->nparts; i++)
		if (strcmp(m->part[i].kind, kind) == 0 && strcmp(m->part[i].workload, w) == 0)
			return &m->part[i];
	return NULL;
}

/* One directory's runs of P, loaded from runs/NAME below it (named
 * DIR/runs/NAME), each LABEL's host where LABEL is not "". */
static bool load_dir_runs(struct dir_part *p, const struct rundir *d, const char *label, bool sim_apart)
{
	static struct sf_dir dir;  /* static: a path of PATH_MAX, not on the stack */
	char rel[320], err[ERR_LEN];

	for (size_t k = 0; k < d->ndone && !p->failed[0]; k++) {
		const char *name = d->plan[d->done[k]].name;
		struct result_run *run;

		if (!dir_run_of(name, p->kind, p->workload))
			continue;
		snprintf(rel, sizeof(rel), "runs/%s", name);
		if (!(run = malloc(sizeof(*run))))
			return false;
		if (sf_dir_at(&dir, &d->dir, rel, err, sizeof(err)) != 0 || result_load(run, &dir, err, sizeof(err)) != 0) {
			snprintf(p->failed, sizeof(p->failed), "lbcompare: %s", err);
			sf_dir_close(&dir);
			free(run);
			return true;
		}
		sf_dir_close(&dir);
		if (sim_apart && dir_run_simulated(run) != (strcmp(p->kind, "sim") == 0)) {
			result_free(run);
			free(run);
			continue;
		}
		if (*label)
			result_set_host(run, label);
		p->runs[p->nruns++] = run;
	}
	return true;
}

bool dir_hosts_part_load(struct dir_part *p, const struct rundir *dirs, size_t ndirs,
			 const char (*label)[RUNDIR_LABEL], bool sim_apart)
{
	size_t total = 0;

	for (size_t i = 0; i < ndirs; i++)
		total += dirs[i].ndone;
	if (!(p->runs = calloc(total + 1, sizeof(*p->runs))))
		return false;
	for (size_t i = 0; i < ndirs && !p->failed[0]; i++)
		if (!load_dir_runs(p, &dirs[i], label[i], sim_apart))
			return false;
	return true;
}

void dir_hosts_part_free(struct dir_part *p)
{
	comparison_free(p->c);
	free(p->text);
	for (size_t r = 0; r < p->nruns; r++) {
		result_free((struct result_run *)p->runs[r]);
		free((struct result_run *)p->runs[r]);
	}
	free(p->runs);
	memset(p, 0, sizeof(*p));
}
