/*
 * across.c — each variant against itself on another host (across.h).
 */
#include <stdio.h>

#include "across.h"

int across_figure(const struct across *a, unsigned int k, struct column *col, struct stat3 *before,
		  struct stat3 *after, struct verdict *vd, char *err, size_t errlen)
{
	struct column cols[RATIO_COLUMNS_MAX];
	const struct variant *vb = &a->from->v[a->pair[k][0]], *va = &a->to->v[a->pair[k][1]];

	ratio_columns(a->from, cols);
	*col = cols[0];
	if (figure_missing(vb, col) != FIGURE_OK || figure_missing(va, col) != FIGURE_OK) {
		snprintf(err, errlen, "%s: no %s on both sides", vb->label, col->title);
		return -1;
	}
	if (variant_figure(vb, col, before, err, errlen) != 0 || variant_figure(va, col, after, err, errlen) != 0)
		return -1;
	judge(after, before, vd);
	return 0;
}

void across_verdicts(const struct across *a, unsigned int *tested, unsigned int *shown)
{
	*tested = *shown = 0;
	for (unsigned int k = 0; k < a->npairs; k++) {
		struct column col;
		struct stat3 before, after;
		struct verdict vd;
		char err[256];

		if (across_figure(a, k, &col, &before, &after, &vd, err, sizeof(err)) != 0)
			continue;
		*tested += vd.tested;
		*shown += vd.direction != 0;
	}
}

bool across_reach_note(const struct across *a, char *buf, size_t len)
{
	unsigned int worst = a->npairs;
	double worst_p = 0;

	for (unsigned int k = 0; k < a->npairs; k++) {
		unsigned int nb = a->from->v[a->pair[k][0]].nreps, na = a->to->v[a->pair[k][1]].nreps;
		double p = stats_mwu_p_min(na, nb);

		if (na >= 2 && nb >= 2 && p > worst_p) {
			worst = k;
			worst_p = p;
		}
	}
	return worst < a->npairs &&
	       reach_note(a->to->v[a->pair[worst][1]].nreps, a->from->v[a->pair[worst][0]].nreps, buf, len);
}
