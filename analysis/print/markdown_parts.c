/*
 * markdown_parts.c — the comparisons the report prints (markdown_int.h):
 * the directory's model (model/dirmodel.h: its finished runs loaded once,
 * each experiment's runs of each workload compared once) and every part's
 * text (print_part_texts), in memory.  The report reads nothing lbcompare
 * printed.
 */
#define _GNU_SOURCE  /* open_memstream */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "markdown_int.h"
#include "print.h"
#include "../../common/text.h"

/* The first real run: a simulated one's meta.csv tells no machine. */
const struct result_run *md_first_run(const struct md *m)
{
	for (size_t i = 0; i < m->d->ndone; i++)
		if (!dir_run_simulated(m->run[i]))
			return m->run[i];
	return NULL;
}

size_t md_real_runs(const struct md *m)
{
	size_t n = 0;

	for (size_t i = 0; i < m->d->ndone; i++)
		n += !dir_run_simulated(m->run[i]);
	return n;
}

int md_part_compare(struct dir_part *p, bool hosts_only, char *err, size_t errlen)
{
	dir_part_compare(p);
	return print_part_text(p, hosts_only, err, errlen);
}

const struct dir_part *md_part(const struct md *m, const char *kind, const char *w)
{
	return dir_model_part(m->model, kind, w);
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
	/* Run-env's PATCH_PAIR, or in a directory from before it the first two
	 * locks its plan's patch table ran (planned, not finished: a failed
	 * run does not move the pair). */
	const char *p = rundir_env(m->d, "PATCH_PAIR");

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
