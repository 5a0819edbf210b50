/*
 * compare_hist.c — lbcompare's histograms: each variant's pooled
 * acquisition-time histogram, and how far each variant's lies from the
 * baseline's, repetition by repetition (stats.h).
 */
#include <stdio.h>
#include <string.h>

#include "compare.h"

/* ---- histograms ---- */

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

/* Under the histogram's title: which variants' counts are a sample. */
static void print_sampled_note(const struct group *g)
{
	for (unsigned int i = 0; i < g->nv; i++)
		if (strncmp(g->v[i].timing, "sample:", 7) == 0) {
			printf("(--timing sample:N runs: counts are the timed acquisitions, about 1 in N, as sampled,"
			       " not scaled;\n off runs: n/a)\n");
			return;
		}
}

void print_hist(const struct group *g, bool contended)
{
	int first = -1, last = -1;
	bool any = false;

	for (unsigned int i = 0; i < g->nv; i++) {
		struct hist_view h = hist_of(&g->v[i], contended);

		any |= h.ok;
		for (int b = 0; h.ok && b < RESULT_BINS; b++)
			if (h.bins[b]) {
				first = first < 0 || b < first ? b : first;
				last = b > last ? b : last;
			}
	}
	if (contended)
		printf("Mutex acquisition time distribution, contended acquisitions only, as the patch counted\n"
		       "(acq time = 2^bin cycles):\n");
	else
		printf("Mutex acquisition time distribution, all acquisitions, fast path included (acq time = 2^bin cycles):\n");
	if (!any) {
		printf("n/a: these runs have no hist_contended.csv (written by a lockbench that did not record it),\n"
		       "or timed no acquisition (--timing off)\n\n");
		return;
	}
	print_sampled_note(g);
	printf("      ");
	for (unsigned int i = 0; i < g->nv; i++)
		printf("  %-26s", g->v[i].label);
	printf("\nbin   ");
	for (unsigned int i = 0; i < g->nv; i++)
		printf("  %-14s %-11s", "#occurrence", "%");
	printf("\n");
	for (int b = first; first >= 0 && b <= last; b++) {
		printf("%-6d", b);
		for (unsigned int i = 0; i < g->nv; i++) {
			struct hist_view h = hist_of(&g->v[i], contended);
			double pct = h.total ? 100.0 * (double)h.bins[b] / (double)h.total : 0;

			if (h.ok)
				printf("  %-14llu %6.2f%%    ", (unsigned long long)h.bins[b], pct);
			else
				printf("  %-14s %7s    ", "n/a", "");
		}
		printf("\n");
	}
	printf("\n");
}

/* ---- two variants' histograms, repetition by repetition ---- */

#define HIST_RELABELLINGS 20000  /* every way to deal the runs up to this many, else this many drawn */
#define HIST_RESAMPLES 1000      /* bootstrap resamples of the per-bin share differences */
#define HIST_SEED 1              /* fixed: the same runs give the same report */

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
	const uint64_t *x[64], *y[64];

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

/* The distance of each variant's distribution from the baseline's, then
 * where the mass moved: per bin, the share's change with its interval. */
void print_hist_differences(const struct group *g, bool contended)
{
	static struct hist_comparison c[MAX_VARIANTS];
	bool ok[MAX_VARIANTS] = { false }, any = false, few = false;
	int width = label_width(g), first = -1, last = -1;

	for (unsigned int i = 1; i < g->nv; i++) {
		ok[i] = compare_hists(g, i, contended, &c[i]);
		any |= ok[i];
		for (int b = 0; ok[i] && b < RESULT_BINS; b++)
			if (c[i].lo[b] != 0 || c[i].hi[b] != 0 || c[i].diff[b] != 0) {
				first = first < 0 || b < first ? b : first;
				last = b > last ? b : last;
			}
	}
	if (!any)
		return;
	printf("Distribution of %s against %s's: earth mover's distance between the pooled\n"
	       "histograms (EMD, in bins: 1.0 = all the mass moved by a factor of 2); p: the share of the ways of\n"
	       "dealing the runs anew between the two that put them as far apart; mean shift: of the log2 bin,\n"
	       "- = shorter:\n", contended ? "contended acquisitions" : "all acquisitions", g->v[0].label);
	printf("%-*s  %7s %6s %10s %7s  %s\n", width, "variant", "runs", "EMD", "mean shift", "p", "verdict");
	for (unsigned int i = 1; i < g->nv; i++) {
		char runs[16], p[16];

		if (!ok[i])
			continue;
		snprintf(runs, sizeof(runs), "%u:%u", g->v[i].nreps, g->v[0].nreps);
		p_text(c[i].test.p, p, sizeof(p));
		printf("%-*s  %7s %6.2f %+10.2f %7s  %s\n", width, g->v[i].label, runs, c[i].test.emd,
		       c[i].mean_shift, p, hist_verdict(&c[i]));
		few |= c[i].test.p_min > 1 - STATS_LEVEL;
	}
	if (few)
		printf("(\"no difference\" is all that so few repetitions can show: 4 or more a side can show one)\n");
	printf("Share of acquisitions in each bin, variant minus %s, percentage points, with a 95%% bootstrap\n"
	       "interval (%d resamples of each side's runs, seed %d):\n", g->v[0].label, HIST_RESAMPLES, HIST_SEED);
	printf("bin   ");
	for (unsigned int i = 1; i < g->nv; i++)
		if (ok[i])
			printf("  %-24s", g->v[i].label);
	printf("\n");
	for (int b = first; first >= 0 && b <= last; b++) {
		printf("%-6d", b);
		for (unsigned int i = 1; i < g->nv; i++) {
			char cell[64];

			if (!ok[i])
				continue;
			snprintf(cell, sizeof(cell), "%+.2f [%+.2f..%+.2f]", c[i].diff[b], c[i].lo[b], c[i].hi[b]);
			printf("  %-24s", cell);
		}
		printf("\n");
	}
	printf("\n");
}
