/*
 * markdown_answer.c — the top of report.md (markdown_int.h): one verdict
 * line per experiment that ran, then every chart,
 * so the answer is on the first screen and the tables follow.  Each figure
 * is the one the tables print: the group's throughput column
 * (md_rate_figure, markdown_util.c: the sweep's table too), its verdict from judge(), the
 * histograms' distance from compare_hists() as the kernel table gives it.
 */
#include <stdlib.h>
#include <string.h>

#include "../figures/figures.h"
#include "markdown_int.h"
#include "print.h"

/* The patch experiment's group: its baseline -> the pair's fix, and the kernel's row. */
static void print_patch_answer(struct md *m, const struct group *g)
{
	const struct variant *fix = find_variant(g, m->pair[1]);
	struct stat3 base, s;
	double seed;

	fprintf(m->out, "- **The patch, `%s`, %u threads:** ", g->workload, g->threads);
	if (!fix || fix == &g->v[0] || md_rate_figure(g, &g->v[0], &base) || md_rate_figure(g, fix, &s)) {
		fprintf(m->out, "no `%s` beside `%s` with its %s: no before/after.\n", m->pair[1], g->nv ? g->v[0].label : "-",
			g->rate.words);
		return;
	}
	fprintf(m->out, "`%s` → `%s` %.0f → %.0f %s, ", g->v[0].label, m->pair[1], base.median, s.median, g->rate.words);
	md_rate_change(m->out, g, &s, &base);
	if (seed_rate_ratio(g->workload, &seed))
		fprintf(m->out, " (the seed's 64 cores: %.2fx)", seed);
	for (unsigned int i = 1; i < g->nv; i++)
		if (g->v[i].kernel_row && md_rate_figure(g, &g->v[i], &s) == 0) {
			fprintf(m->out, "; the kernel's own row (`%s`) %.0f, ", g->v[i].label, s.median);
			md_rate_change(m->out, g, &s, &base);
		}
	fprintf(m->out, ".\n");
}

/* The models-vs-kernel group: the model that stands out as nearest the
 * kernel's on the table's figures together (nearest_model: its contended
 * histogram's EMD and the contention figures, each gap judged against the
 * intervals the table prints), or that none does, with the smallest EMD. */
static void print_kernel_answer(struct md *m, const struct group *g, bool first)
{
	static struct hist_comparison hc;
	struct nearest near;

	nearest_model(g, &near);
	fprintf(m->out, "%s%u threads ", first ? "" : "; ", g->threads);
	if (near.compared == 0 || near.nearest_emd < 0) {
		fprintf(m->out, "n/a (no histograms to compare)");
		return;
	}
	if (near.model >= 0 && compare_hists(g, (unsigned int)near.model, true, &hc))
		fprintf(m->out, "`%s` (EMD %.2f bins, %s)", g->v[near.model].label, hc.test.emd, hist_verdict(&hc));
	else if (near.model >= 0)
		fprintf(m->out, "`%s`", g->v[near.model].label);
	else
		fprintf(m->out, "no model stands out (smallest EMD: `%s`, %.2f bins)", g->v[near.nearest_emd].label,
			near.emd);
}

/* The sweep's group: the lock of the highest median throughput, against the next. */
static void print_sweep_answer(struct md *m, const struct group *g, bool first)
{
	struct stat3 s, top[2];
	int best[2] = { -1, -1 };

	for (unsigned int i = 0; i < g->nv; i++) {
		if (md_rate_figure(g, &g->v[i], &s) != 0)
			continue;
		if (best[0] < 0 || s.median > top[0].median) {
			best[1] = best[0];
			top[1] = top[0];
			best[0] = (int)i;
			top[0] = s;
		} else if (best[1] < 0 || s.median > top[1].median) {
			best[1] = (int)i;
			top[1] = s;
		}
	}
	fprintf(m->out, "%s%u: ", first ? "" : "; ", g->threads);
	if (best[0] < 0) {
		fprintf(m->out, "n/a");
		return;
	}
	fprintf(m->out, "`%s` %.0f", g->v[best[0]].label, top[0].median);
	if (best[1] >= 0) {
		fprintf(m->out, ", then `%s` ", g->v[best[1]].label);
		md_rate_change(m->out, g, &top[1], &top[0]);
	}
}

/* KIND's line of W: each group of W through EACH (nothing when it failed:
 * its section says why). */
static void print_experiment(struct md *m, const char *kind, const char *w, const char *title,
			     bool (*want)(const struct group *g),
			     void (*each)(struct md *m, const struct group *g, bool first))
{
	static const struct group *g[MAX_GROUPS];
	const struct dir_part *part = md_part(m, kind, w);
	size_t n;

	if (!part || !part->c || (n = md_groups_of(part->c, w, want, g)) == 0)
		return;
	fprintf(m->out, "- **%s, `%s`:** ", title, w);
	for (size_t i = 0; i < n; i++)
		each(m, g[i], i == 0);
	fprintf(m->out, ".\n");
}

void md_answer_section(struct md *m)
{
	static const struct group *g[MAX_GROUPS];
	const char *all = rundir_env(m->d, "ALL_WORKLOADS");
	char w[64];

	fprintf(m->out, "## The answer\n\n");
	for (const char *p = all; md_next_word(&p, w, sizeof(w));) {
		const struct dir_part *part = md_part(m, "patch", w);
		size_t n = part && part->c ? md_groups_of(part->c, w, NULL, g) : 0;

		for (size_t i = 0; i < n; i++)
			print_patch_answer(m, g[i]);
	}
	md_sim_answer(m);
	for (const char *p = rundir_env(m->d, "KERNEL_WORKLOADS"); md_next_word(&p, w, sizeof(w));)
		print_experiment(m, "kernel", w, "The model nearest the kernel's mutex (contended histograms and contention figures together)",
				 kernel_baseline, print_kernel_answer);
	for (const char *p = all; md_next_word(&p, w, sizeof(w));)
		print_experiment(m, "sweep", w, "Highest median throughput by thread count", NULL, print_sweep_answer);
	md_programs_answer(m);
	if (!m->model->nparts)
		fprintf(m->out, "- No experiment finished a run (see [Failed runs](#failed-runs)).\n");
	/* The ratio printed is Hodges-Lehmann's (ratio_text()), not the
	 * medians' quotient; each line is judged on its own (issue 42). */
	fprintf(m->out, "\nRatios are Hodges–Lehmann's (the median of the runs' pairwise ratios), [their 95%% interval] "
		"(Moses'), and the verdict of the repetitions (Mann–Whitney, at 95%%, each line on its own: no correction "
		"for the several lines here; each table says what chance alone would make of its verdicts); how to read "
		"them: [Reading the figures](#reading-the-figures).  The tables follow the charts.\n\n");
}

/* ---- the charts ---- */

static bool hist_chart(const struct group *g)
{
	return hist_charted(g, false);
}

/* The histogram and phase charts of the patch's W, one pair per thread
 * count (each group whose histograms make a chart: hist_charted): the
 * contended histogram where every run recorded one (as the patch counted),
 * else all acquisitions'. */
static void print_patch_plots(struct md *m, const char *w)
{
	static const struct group *g[MAX_GROUPS];
	const struct dir_part *part = md_part(m, "patch", w);
	size_t n = part && part->c ? md_groups_of(part->c, w, hist_chart, g) : 0;
	char alt[192], name[160];

	for (size_t i = 0; i < n; i++) {
		bool contended = hist_charted(g[i], true);

		snprintf(alt, sizeof(alt), "%sacquisition-time histogram, %s, %u threads", contended ? "contended " : "",
			 w, g[i]->threads);
		snprintf(name, sizeof(name), "hist-%s%s-t%u", contended ? "contended-" : "", w, g[i]->threads);
		md_print_plot(m, alt, name);
		snprintf(alt, sizeof(alt), "%s, %u threads", w, g[i]->threads);
		md_print_phases_plot(m, g[i], "", alt);
	}
}

/* The models-vs-kernel charts of W at each thread count of its table: the
 * contended histograms, then how the models' acquisitions were obtained. */
static void print_kernel_plots(struct md *m, const char *w)
{
	static const struct group *g[MAX_GROUPS];
	const struct dir_part *part = md_part(m, "kernel", w);
	size_t n = part && part->c ? md_groups_of(part->c, w, kernel_baseline, g) : 0;
	char alt[192], name[128];

	for (size_t i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "hist-contended-%s-t%u", w, g[i]->threads);
		snprintf(alt, sizeof(alt), "contended acquisition times of the models and the kernel's mutex waits, %s, %u threads",
			 w, g[i]->threads);
		md_print_plot(m, alt, name);
		snprintf(alt, sizeof(alt), "the models, %s, %u threads", w, g[i]->threads);
		md_print_phases_plot(m, g[i], "", alt);
	}
}

static void print_sweep_plots(struct md *m, const char *w)
{
	char alt[160], name[128];

	if (!md_part(m, "sweep", w) || !md_part(m, "sweep", w)->c)
		return;
	snprintf(name, sizeof(name), "sweep-%s-ops_per_s", w);
	snprintf(alt, sizeof(alt), "throughput against threads, %s", w);
	md_print_plot(m, alt, name);
	snprintf(name, sizeof(name), "sweep-%s-cpu_us_per_op", w);
	snprintf(alt, sizeof(alt), "CPU cost per operation against threads, %s", w);
	md_print_plot(m, alt, name);
}

static bool any_plot(const struct md *m)
{
	return m->d->any_png || (m->charts_planned && print_chart_planned(m->model, NULL));
}

void md_charts_section(struct md *m)
{
	const char *all = rundir_env(m->d, "ALL_WORKLOADS");
	char w[64];

	fprintf(m->out, "## Charts\n\n");
	if (!any_plot(m)) {
		fprintf(m->out, "No plots: gnuplot was not found where this report was written (`./run-all --report DIR` draws them where it is).\n\n");
		return;
	}
	for (const char *p = all; md_next_word(&p, w, sizeof(w));)
		print_patch_plots(m, w);
	for (const char *p = rundir_env(m->d, "KERNEL_WORKLOADS"); md_next_word(&p, w, sizeof(w));)
		print_kernel_plots(m, w);
	for (const char *p = all; md_next_word(&p, w, sizeof(w));)
		print_sweep_plots(m, w);
}
