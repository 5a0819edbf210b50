/*
 * text_hist.c — lbcompare's histograms: each variant's pooled
 * acquisition-time histogram, and how far each variant's lies from the
 * baseline's, repetition by repetition (stats.h).
 */
#include <stdio.h>
#include <string.h>

#include "text_int.h"

/* ---- histograms ---- */

/* Under the histogram's title: which variants' counts are a sample. */
static void print_sampled_note(struct text *t, const struct group *g)
{
	for (unsigned int i = 0; i < g->nv; i++)
		if (strncmp(g->v[i].timing, "sample:", 7) == 0) {
			fprintf(t->out, "(--timing sample:N runs: counts are the timed acquisitions, about 1 in N, as sampled,"
			       " not scaled;\n off runs: n/a)\n");
			return;
		}
}

void print_hist(struct text *t, const struct group *g, bool contended)
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
		fprintf(t->out, "Mutex acquisition time distribution, contended acquisitions only, as the patch counted\n"
		       "(acq time = 2^bin cycles):\n");
	else
		fprintf(t->out, "Mutex acquisition time distribution, all acquisitions, fast path included (acq time = 2^bin cycles):\n");
	if (!any) {
		fprintf(t->out, "n/a: these runs have no hist_contended.csv (written by a lockbench that did not record it),\n"
		       "or timed no acquisition (--timing off)\n\n");
		return;
	}
	print_sampled_note(t, g);
	fprintf(t->out, "      ");
	for (unsigned int i = 0; i < g->nv; i++)
		fprintf(t->out, "  %-26s", g->v[i].label);
	fprintf(t->out, "\nbin   ");
	for (unsigned int i = 0; i < g->nv; i++)
		fprintf(t->out, "  %-14s %-11s", "#occurrence", "%");
	fprintf(t->out, "\n");
	for (int b = first; first >= 0 && b <= last; b++) {
		fprintf(t->out, "%-6d", b);
		for (unsigned int i = 0; i < g->nv; i++) {
			struct hist_view h = hist_of(&g->v[i], contended);
			double pct = h.total ? 100.0 * (double)h.bins[b] / (double)h.total : 0;

			if (h.ok)
				fprintf(t->out, "  %-14llu %6.2f%%    ", (unsigned long long)h.bins[b], pct);
			else
				fprintf(t->out, "  %-14s %7s    ", "n/a", "");
		}
		fprintf(t->out, "\n");
	}
	fprintf(t->out, "\n");
}

/* The distance of each variant's distribution from the baseline's, then
 * where the mass moved: per bin, the share's change with its interval. */
void print_hist_differences(struct text *t, const struct group *g, bool contended)
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
	fprintf(t->out, "Distribution of %s against %s's: earth mover's distance between the pooled\n"
	       "histograms (EMD, in bins: 1.0 = all the mass moved by a factor of 2); p: the share of the ways of\n"
	       "dealing the runs anew between the two that put them as far apart; mean shift: of the log2 bin,\n"
	       "- = shorter:\n", contended ? "contended acquisitions" : "all acquisitions", g->v[0].label);
	fprintf(t->out, "%-*s  %7s %6s %10s %7s  %s\n", width, "variant", "runs", "EMD", "mean shift", "p", "verdict");
	for (unsigned int i = 1; i < g->nv; i++) {
		char runs[16], p[16];

		if (!ok[i])
			continue;
		snprintf(runs, sizeof(runs), "%u:%u", g->v[i].nreps, g->v[0].nreps);
		p_text(c[i].test.p, p, sizeof(p));
		fprintf(t->out, "%-*s  %7s %6.2f %+10.2f %7s  %s\n", width, g->v[i].label, runs, c[i].test.emd,
		       c[i].mean_shift, p, hist_verdict(&c[i]));
		few |= c[i].test.p_min > 1 - STATS_LEVEL;
	}
	if (few)
		fprintf(t->out, "(\"no difference\" is all that so few repetitions can show: 4 or more a side can show one)\n");
	fprintf(t->out, "Share of acquisitions in each bin, variant minus %s, percentage points, with a 95%% interval\n"
	       "(t on bootstrap standard errors, the smaller side's degrees of freedom: %d resamples of each side's runs, seed %d):\n", g->v[0].label, HIST_RESAMPLES, HIST_SEED);
	fprintf(t->out, "bin   ");
	for (unsigned int i = 1; i < g->nv; i++)
		if (ok[i])
			fprintf(t->out, "  %-24s", g->v[i].label);
	fprintf(t->out, "\n");
	for (int b = first; first >= 0 && b <= last; b++) {
		fprintf(t->out, "%-6d", b);
		for (unsigned int i = 1; i < g->nv; i++) {
			char cell[64];

			if (!ok[i])
				continue;
			snprintf(cell, sizeof(cell), "%+.2f [%+.2f..%+.2f]", c[i].diff[b], c[i].lo[b], c[i].hi[b]);
			fprintf(t->out, "  %-24s", cell);
		}
		fprintf(t->out, "\n");
	}
	fprintf(t->out, "\n");
}
