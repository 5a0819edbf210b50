/*
 * builds.c — a run's build, and variants that would pool two (builds.h).
 */
#include <stdio.h>
#include <string.h>

#include "builds.h"

/* meta.csv's KEY, or "unknown" (no such key; a run without meta.csv). */
static const char *meta_or_unknown(const struct result_run *run, const char *key)
{
	const char *v = result_meta_get(run, key);

	return v && *v ? v : "unknown";
}

void run_build(const struct result_run *run, char *buf, size_t len)
{
	snprintf(buf, len, "lockbench %s, build ID %s", meta_or_unknown(run, "lockbench_commit"),
		 meta_or_unknown(run, "lockbench_build_id"));
}

/* Whether runs A and B were written by one build: the same commit and the
 * same binary (a rebuild with uncommitted changes keeps the commit's name). */
static bool same_build(const struct result_run *a, const struct result_run *b)
{
	return strcmp(meta_or_unknown(a, "lockbench_commit"), meta_or_unknown(b, "lockbench_commit")) == 0 &&
	       strcmp(meta_or_unknown(a, "lockbench_build_id"), meta_or_unknown(b, "lockbench_build_id")) == 0;
}

/* The first repetition of V of another build than its first's: its index, or 0. */
static unsigned int other_build(const struct variant *v)
{
	for (unsigned int r = 1; r < v->nreps; r++)
		if (!same_build(v->reps[0], v->reps[r]))
			return r;
	return 0;
}

bool comparison_mixes_builds(const struct comparison *c, char *err, size_t errlen)
{
	for (unsigned int i = 0; i < c->ngroups; i++) {
		const struct group *g = &c->groups[i];

		for (unsigned int k = 0; k < g->nv; k++) {
			unsigned int r = other_build(&g->v[k]);
			char one[256], two[256];

			if (!r)
				continue;
			run_build(g->v[k].reps[0], one, sizeof(one));
			run_build(g->v[k].reps[r], two, sizeof(two));
			snprintf(err, errlen,
				 "%s on %s, %u threads: its runs are of two builds, %s (%s) and %s (%s): not pooled; "
				 "compare them apart (--dir BEFORE --dir AFTER; run-all --report BEFORE AFTER), "
				 "or pool them with --pool-builds",
				 g->v[k].label, g->workload, g->threads, one, g->v[k].reps[0]->dir, two, g->v[k].reps[r]->dir);
			return true;
		}
	}
	return false;
}
