/*
 * text_seed.c — lbcompare's table of the seed patch's own published
 * figures beside this machine's kmutex-spin -> kmutex-fix (cited data, not
 * measurements).
 */
#include <stdio.h>
#include <string.h>

#include "print.h"
#include "text_int.h"

/* ---- the seed's own figures beside this machine's ---- */

/*
 * Published in the seed patch (shared/seeds/001-patch-mutex-prevent-
 * optimistic-spinning-from-spinning-longer-t.patch: Tim Chen, "mutex: prevent
 * optimistic spinning from spinning longer than neccessary", lkml, 18 Aug
 * 2010), 2.6.34 before and after the fix, on an 8-socket, 64-core Nehalem-EX.
 * Cited facts, not measurements of ours: printed only beside this machine's
 * kmutex-spin -> kmutex-fix, so a reader can see at once how the two compare.
 * The contentions, the acquisition time and the histogram are from AIM7
 * fserver.  "Time to acquire mutex (cycles)" is what the patch calls the
 * average acquisition time ("reduced by 48%").  Its histogram's rows add up
 * to 72,971 and 49,209 (against 72,973 and 49,210 contentions), so it covers
 * contended acquisitions only; the percentages are as published (the 2.6.34
 * column's do not all match its counts: 63,902 of 72,971 is 87.57%, printed
 * 87.69%).
 */
#define SEED_FIRST_BIN 11
#define SEED_BINS 20 /* bins 11..30 */
static const struct {
	double creat_ops[2];        /* ./mutex-test V 256 10: 256 threads, ops/sec */
	double fserver_jobs[2];     /* AIM7 fserver, jobs/min */
	double contentions[2];      /* fserver, #contentions */
	double acq_cycles[2];       /* fserver, "Time to acquire mutex (cycles)" */
	double pct[2][SEED_BINS];   /* fserver, % of contended acquisitions in bins 11..30 */
} seed = {
	.creat_ops = { 62864, 197200 },
	.fserver_jobs = { 91657, 149325 },
	.contentions = { 72973, 49210 },
	.acq_cycles = { 44765791, 23067129 },
	.pct = {
		{ 0.00, 0.01, 0.02, 0.12, 0.54, 0.97, 1.12, 1.08, 0.80, 0.59,
		  0.43, 0.35, 0.44, 0.84, 4.29, 87.69, 0.85, 0.00, 0.00, 0.00 },
		{ 0.24, 1.61, 4.18, 6.86, 9.82, 9.94, 9.48, 10.46, 12.70, 13.96,
		  3.68, 4.68, 1.86, 0.47, 0.19, 0.25, 0.58, 7.19, 1.83, 0.00 },
	},
};

bool seed_figures_of(const char *workload, struct seed_figures *f)
{
	bool creat = strcmp(workload, "creat") == 0, fserver = strcmp(workload, "fserver") == 0;

	if (!creat && !fserver)
		return false;
	*f = (struct seed_figures){ .rate = creat ? seed.creat_ops : seed.fserver_jobs,
				    .what = creat ? "mutex-test V 256 10" : "AIM7 fserver" };
	if (fserver) {
		f->contentions = seed.contentions;
		f->acq_cycles = seed.acq_cycles;
		f->pct[0] = seed.pct[0];
		f->pct[1] = seed.pct[1];
		f->first_bin = SEED_FIRST_BIN;
		f->nbins = SEED_BINS;
	}
	return true;
}

void seed_hist_bins(const struct variant *a, const struct variant *b, int *first, int *last)
{
	const struct variant *v[2] = { a, b };

	for (int k = 0; k < 2; k++)
		for (int bin = 0; bin < RESULT_BINS; bin++)
			if (v[k]->hist_contended[bin]) {
				*first = bin < *first ? bin : *first;
				*last = bin > *last ? bin : *last;
			}
}

bool seed_rate_ratio(const char *workload, double *ratio)
{
	const double *fig = strcmp(workload, "creat") == 0     ? seed.creat_ops
			    : strcmp(workload, "fserver") == 0 ? seed.fserver_jobs
							       : NULL;

	if (fig)
		*ratio = fig[1] / fig[0];
	return fig != NULL;
}

/* "before -> after, ratio" (or the change in percent). */
static void change_text(char *buf, size_t len, double before, double after, bool percent)
{
	int n = snprintf(buf, len, "%.0f -> %.0f", before, after);

	if (before <= 0 || n < 0 || (size_t)n >= len)
		return;
	if (percent)
		snprintf(buf + n, len - (size_t)n, ", %+.1f%%", 100 * (after / before - 1));
	else
		snprintf(buf + n, len - (size_t)n, ", %.2fx", after / before);
}

/* One row: the seed's change and the same figure's median change here. */
static int seed_row(struct text *t, const char *label, const double seed_fig[2], const struct variant *spin,
		    const struct variant *fix, const char *key, double scale, bool percent)
{
	char theirs[96], ours[96];
	struct stat3 before, after;

	change_text(theirs, sizeof(theirs), seed_fig[0], seed_fig[1], percent);
	if (!has_key(spin, key) || !has_key(fix, key))
		snprintf(ours, sizeof(ours), "n/a (runs without %s)", key);
	else if (figure(spin, key, scale, &before, t->err, t->errlen) || figure(fix, key, scale, &after, t->err, t->errlen))
		return -1;
	else
		change_text(ours, sizeof(ours), before.median, after.median, percent);
	fprintf(t->out, "%-27s %-36s %s\n", label, theirs, ours);
	return 0;
}

/* The seed's histogram, in %, beside this machine's contended ones. */
static void seed_hist(struct text *t, const struct variant *spin, const struct variant *fix)
{
	const struct variant *v[2] = { spin, fix };
	int first = SEED_FIRST_BIN, last = SEED_FIRST_BIN + SEED_BINS - 1;

	if (!spin->contended_ok || !fix->contended_ok) {
		fprintf(t->out, "Histogram: n/a here (runs without hist_contended.csv).\n\n");
		return;
	}
	seed_hist_bins(spin, fix, &first, &last);
	fprintf(t->out, "%% of contended acquisitions (acq time = 2^bin cycles; -: not in the patch's table):\n");
	fprintf(t->out, "%-6s %13s %13s %13s %13s\n", "bin", "seed 2.6.34", "seed fix", spin->lock, fix->lock);
	for (int b = first; b <= last; b++) {
		int sb = b - SEED_FIRST_BIN;

		fprintf(t->out, "%-6d", b);
		for (int k = 0; k < 2; k++)
			if (sb >= 0 && sb < SEED_BINS)
				fprintf(t->out, " %12.2f%%", seed.pct[k][sb]);
			else
				fprintf(t->out, " %13s", "-");
		for (int k = 0; k < 2; k++)
			fprintf(t->out, " %12.2f%%", v[k]->hist_contended_total ?
				100.0 * (double)v[k]->hist_contended[b] / (double)v[k]->hist_contended_total : 0);
		fprintf(t->out, "\n");
	}
	fprintf(t->out, "\n");
}

/* For creat and fserver groups holding both kmutex-spin (2.6.34) and
 * kmutex-fix (the patch). */
int print_seed(struct text *t, const struct group *g)
{
	const struct variant *spin = find_variant(g, "kmutex-spin"), *fix = find_variant(g, "kmutex-fix");
	bool creat = strcmp(g->workload, "creat") == 0, fserver = strcmp(g->workload, "fserver") == 0;
	/* A group never mixes real and simulated runs (comparison.h's hosts). */
	bool sim = spin && spin->nreps && spin->reps[0]->has_meta && spin->reps[0]->host.simulated;
	const char *here = sim ? "simulated" : "this machine";

	if (!spin || !fix || !(creat || fserver))
		return 0;
	fprintf(t->out, "The seed beside %s: Tim Chen's patch measured 2.6.34 -> 2.6.36 (the fix) on 64 cores%s;\n"
	       "here kmutex-spin -> kmutex-fix, %u threads%s (medians):\n", sim ? "the simulation" : "this machine",
	       creat ? ", 256 threads" : "", g->threads, sim ? ", simulated (lockbench --sim), not measured" : "");
	fprintf(t->out, "%-27s %-36s %s\n", "", creat ? "seed (mutex-test V 256 10)" : "seed (AIM7 fserver)", here);
	if (creat) {
		if (seed_row(t, "Ops/sec", seed.creat_ops, spin, fix, "ops_per_s", 1, false))
			return -1;
		fprintf(t->out, "(#contentions, acquisition time and histogram: the seed gave them for fserver only)\n\n");
		return 0;
	}
	if (seed_row(t, "Jobs/min", seed.fserver_jobs, spin, fix, "ops_per_s", 60, false) ||
	    seed_row(t, "#contentions", seed.contentions, spin, fix, "contentions", 1, true) ||
	    seed_row(t, "mean acq cycles, contended", seed.acq_cycles, spin, fix, "contended_acq_cycles_mean", 1, true))
		return -1;
	seed_hist(t, spin, fix);
	return 0;
}
