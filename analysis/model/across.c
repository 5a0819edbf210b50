/*
 * across.c — a host's groups paired with another host's, variant by
 * variant (across.h).
 */
#include <string.h>

#include "across.h"

/* One experiment: the same workload (an --exec group's program) at the same threads. */
static bool same_experiment(const struct group *a, const struct group *b)
{
	return strcmp(a->workload, b->workload) == 0 && a->threads == b->threads;
}

/* The same variant: its lock, --timing and --sched. */
static bool same_variant(const struct variant *a, const struct variant *b)
{
	return strcmp(a->lock, b->lock) == 0 && strcmp(a->timing, b->timing) == 0 && strcmp(a->sched, b->sched) == 0;
}

/* HOST's group of G's experiment, or NULL. */
static const struct group *experiment_on(const struct comparison *c, unsigned int host, const struct group *g)
{
	for (unsigned int i = 0; i < c->ngroups; i++)
		if (c->groups[i].host == host && same_experiment(&c->groups[i], g))
			return &c->groups[i];
	return NULL;
}

static void pair_variants(struct across *a)
{
	a->npairs = 0;
	for (unsigned int i = 0; i < a->from->nv; i++) {
		unsigned int k = 0;

		while (k < a->to->nv && !same_variant(&a->from->v[i], &a->to->v[k]))
			k++;
		if (k == a->to->nv)
			continue;
		a->pair[a->npairs][0] = i;
		a->pair[a->npairs++][1] = k;
	}
	a->only_from = a->from->nv - a->npairs;
	a->only_to = a->to->nv - a->npairs;
}

size_t across_groups(const struct comparison *c, unsigned int from, unsigned int to, struct across *a, size_t max,
		     unsigned int *unmatched)
{
	size_t n = 0;
	unsigned int lone = 0;

	for (unsigned int i = 0; i < c->ngroups; i++) {
		const struct group *g = &c->groups[i], *other;

		if (g->host != from && g->host != to)
			continue;
		other = experiment_on(c, g->host == from ? to : from, g);
		if (!other)
			lone++;
		else if (g->host == from && n < max) {
			a[n] = (struct across){ .from = g, .to = other };
			pair_variants(&a[n++]);
		}
	}
	if (unmatched)
		*unmatched = lone;
	return n;
}
