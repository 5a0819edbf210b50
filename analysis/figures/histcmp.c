/*
 * histcmp.c — a variant's pooled histograms, and how far its histogram lies
 * from the baseline's, repetition by repetition (figures.h, stats.h).
 */
#include "figures.h"

#include <string.h>

struct hist_view hist_of(const struct variant *v, bool contended)
{
	/* The kernel's waits are its contended acquisitions; the rest it never saw. */
	if (v->kernel_row)
		return (struct hist_view){ v->kernel_hist, v->kernel_total, contended };
	/* --timing off runs time nothing: no histogram to show. */
	if (strcmp(v->timing, "off") == 0)
		return (struct hist_view){ v->hist, 0, false };
	if (contended)
		return (struct hist_view){ v->hist_contended, v->hist_contended_total, v->contended_ok };
	return (struct hist_view){ v->hist, v->hist_total, true };
}

/* ---- two variants' histograms, repetition by repetition ---- */

/* A variant's runs' histograms of one kind (as hist_of pools them). */
static void run_hists(const struct variant *v, bool contended, const uint64_t **out)
{
	for (unsigned int r = 0; r < v->nreps; r++)
		out[r] = v->kernel_row ? v->reps[r]->kernel_hist
				       : contended ? v->reps[r]->hist_contended : v->reps[r]->hist;
}

static double mean_bin(const struct hist_view *h)
{
	double sum = 0;

	for (int b = 0; b < RESULT_BINS; b++)
		sum += b * (double)h->bins[b];
	return h->total ? sum / (double)h->total : 0;
}

/* Variant i's histogram against the baseline's: false when either has no
 * such histogram, fewer than two runs, or nothing in it. */
bool compare_hists(const struct group *g, unsigned int i, bool contended, struct hist_comparison *c)
{
	const struct variant *v = &g->v[i], *base = &g->v[0];
	struct hist_view hv = hist_of(v, contended), hb = hist_of(base, contended);
	const uint64_t *x[MAX_REPS], *y[MAX_REPS];

	if (!hv.ok || !hb.ok || !hv.total || !hb.total || v->nreps < 2 || base->nreps < 2)
		return false;
	run_hists(base, contended, x);
	run_hists(v, contended, y);
	if (stats_hist_permutation(x, base->nreps, y, v->nreps, RESULT_BINS, HIST_RELABELLINGS, HIST_SEED,
				   &c->test) != 0 ||
	    stats_share_diff(x, base->nreps, y, v->nreps, RESULT_BINS, STATS_LEVEL, HIST_RESAMPLES, HIST_SEED,
			     c->diff, c->lo, c->hi) != 0)
		return false;
	c->mean_shift = mean_bin(&hv) - mean_bin(&hb);
	return true;
}

const char *hist_verdict(const struct hist_comparison *c)
{
	return c->test.p <= 1 - STATS_LEVEL ? "differs" : "no difference";
}


bool hist_charted(const struct group *g, bool contended)
{
	uint64_t total = 0;

	for (unsigned int i = 0; i < g->nv; i++) {
		struct hist_view h = hist_of(&g->v[i], contended);

		if (!h.ok && !g->v[i].kernel_row)
			return false;
		total += h.ok ? h.total : 0;
	}
	return total > 0;
}
