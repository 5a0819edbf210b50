/*
 * nearest.c — the model nearest the kernel's mutex (figures.h), on the
 * figures together: the distance of each model's contended histogram from
 * the kernel's (EMD) and its distance on each contention figure of the
 * models-vs-kernel table.  Each distance is an interval made from the
 * intervals the report prints, so a gap inside them is noise: a model
 * stands out only where, against each other model, it is nearer beyond
 * both intervals on more figures than the other is.  Picking
 * the smallest EMD alone named a different model at each thread count on
 * gaps of a tenth of a bin while every contention figure favoured one
 * (issue 42).
 */
#include <string.h>

#include "figures.h"

/* Variant i's distance from the kernel's row on a contention figure of the
 * models-vs-kernel table: its ratio's Moses interval, as the table's cell. */
static struct nearness figure_distance(const struct group *g, unsigned int i, const struct column *col)
{
	struct stat3 s, base;
	struct verdict vd;
	bool base_ok;
	char err[ERR_LEN];

	if (figure_missing(&g->v[i], col) != FIGURE_OK ||
	    figure_pair(g, i, col, &s, &base, &base_ok, err, sizeof(err)) != 0 || !base_ok || s.n < 2 || base.n < 2)
		return (struct nearness){ 0, 0, false };
	judge(&s, &base, &vd);
	return vd.ratio_ok ? near_ratio(vd.ratio.lo, vd.ratio.hi) : (struct nearness){ 0, 0, false };
}

/* Variant i's distances, the EMD's first, into d[NEAR_FIGURES]; whether
 * any figure has one. */
static bool model_distances(const struct group *g, unsigned int i, struct nearness *d, double *emd)
{
	static struct hist_comparison hc;
	unsigned int ncols, f = 1;
	const struct column *cols = kernel_columns(&ncols);
	bool any;

	memset(d, 0, NEAR_FIGURES * sizeof(*d));
	*emd = -1;
	if (group_max_reps(g) >= 2 && compare_hists(g, i, true, &hc)) {
		d[0] = near_emd(&hc);
		*emd = hc.test.emd;
	}
	/* The contention figures: every column but the throughput table's. */
	for (unsigned int c = 0; c < ncols && f < NEAR_FIGURES; c++)
		if (!(column_tables(&cols[c]) & TABLE_THROUGHPUT))
			d[f++] = figure_distance(g, i, &cols[c]);
	any = false;
	for (f = 0; f < NEAR_FIGURES; f++)
		any |= d[f].ok;
	return any;
}

void nearest_model(const struct group *g, struct nearest *out)
{
	static struct nearness d[MAX_VARIANTS * NEAR_FIGURES];
	unsigned int idx[MAX_VARIANTS], n = 0;
	double emd;

	memset(out, 0, sizeof(*out));
	out->model = out->nearest_emd = -1;
	if (!kernel_baseline(g))
		return;
	for (unsigned int i = 1; i < g->nv; i++) {
		if (!model_distances(g, i, &d[n * NEAR_FIGURES], &emd))
			continue;
		if (emd >= 0 && (out->nearest_emd < 0 || emd < out->emd)) {
			out->nearest_emd = (int)i;
			out->emd = emd;
		}
		idx[n++] = i;
	}
	out->compared = n;
	if (n > 0) {
		int a = near_stands_out(d, n, NEAR_FIGURES);

		out->model = a < 0 ? -1 : (int)idx[a];
	}
}
