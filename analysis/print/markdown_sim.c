/*
 * markdown_sim.c — report.md's "Simulated: the seed's machine" and its line
 * of the answer (markdown_int.h): run-all's simulated runs of the patch
 * experiment (`run-all --sim PROFILE`: each run `lockbench --sim`, its
 * repetitions other --sim-seed's), the "sim" part, which takes only runs
 * whose meta.csv says `simulated,1` (markdown_parts.c).  Each workload's
 * table has the CIs and verdicts of the real patch table (md_headline_table),
 * then the seed's published figures beside the simulated patch pair (2.6.34
 * -> the fix), and the contended histograms in % beside the seed's columns.
 * Every figure here is the simulator's, in virtual time: never a
 * measurement of this host, and said so wherever it is printed.
 */
#include <stdlib.h>
#include <string.h>

#include "../figures/figures.h"
#include "markdown_int.h"
#include "print.h"

/* The workloads run-all simulates, the patch table's: run-env's
 * PATCH_WORKLOADS (their role in bench/workloads/workloads.def), or in a
 * directory from before the key the patch workloads its plan ran. */
static const char *sim_workloads(const struct md *m)
{
	return rundir_env(m->d, "PATCH_WORKLOADS");
}

/* The simulated group of W (the first: run-all plans one thread count). */
static const struct group *sim_group(const struct md *m, const char *w)
{
	static const struct group *g[MAX_GROUPS];
	const struct dir_part *part = md_part(m, "sim", w);

	return part && part->c && md_groups_of(part->c, w, NULL, g) ? g[0] : NULL;
}

/* "nehalem-ex-64, 128 CPUs, kernel semantics": the simulated machine, from
 * the meta.csv of the group's baseline's first run. */
static void print_machine(FILE *out, const struct group *g)
{
	const struct result_run *run = g->v[0].reps[0];
	const char *profile = result_meta_get(run, "sim_profile"), *cpus = result_meta_get(run, "sim_cpus");
	const char *sem = result_meta_get(run, "sim_semantics");

	fprintf(out, "`%s`, %s simulated CPUs, %u threads, %s semantics for the baseline", profile ? profile : "?",
		cpus ? cpus : "?", g->threads, sem ? sem : "?");
}

/* The column of ratio_columns whose key is KEY, or NULL. */
static const struct column *column_of(const struct column *cols, unsigned int n, const char *key)
{
	for (unsigned int i = 0; i < n; i++)
		if (strcmp(cols[i].key, key) == 0)
			return &cols[i];
	return NULL;
}

/* The real patch table's headline figures less the CPU time (a simulated
 * run's is its threads' virtual time: in data/sim-W.txt, not set beside a
 * machine's): throughput, #contentions, mean contended cycles, a row per
 * simulated model, each with its CI, ratio to the pair's baseline and verdict. */
static void print_headline(FILE *out, const struct group *g)
{
	static const char *const keys[] = { "contentions", "contended_acq_cycles_mean" };
	struct column cols[RATIO_COLUMNS_MAX], pick[3];
	unsigned int n = ratio_columns(g, cols), k = 0;

	pick[k++] = cols[0];
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (column_of(cols, n, keys[i]))
			pick[k++] = *column_of(cols, n, keys[i]);
	md_figure_table(out, g, "simulated variant", pick, k);
}

/* One row of the seed's table: the seed's two figures and their change,
 * then the simulated pair's cells, its baseline (2.6.34) first. */
static void seed_row(FILE *out, const struct group *g, unsigned int fix, const char *title, const double *seed,
		     bool percent, const struct column *col)
{
	fprintf(out, "| %s (simulated) |", title);
	if (seed && percent)
		fprintf(out, " %.0f | %.0f | %+.0f%% |", seed[0], seed[1], 100 * (seed[1] / seed[0] - 1));
	else if (seed)
		fprintf(out, " %.0f | %.0f | %.2fx |", seed[0], seed[1], seed[1] / seed[0]);
	else
		fprintf(out, " – | – | – |");
	if (!col) {
		fprintf(out, " n/a | n/a |\n");
		return;
	}
	md_figure_cell(out, g, 0, col);
	md_figure_cell(out, g, fix, col);
	fprintf(out, "\n");
}

/* The contended histograms of the simulated patch pair in %
 * beside the seed's columns (–: a bin the seed's table has not). */
static void seed_hist(FILE *out, const struct group *g, unsigned int fix, const struct seed_figures *s)
{
	const struct variant *v[2] = { &g->v[0], &g->v[fix] };
	int first = s->nbins ? s->first_bin : RESULT_BINS, last = s->nbins ? s->first_bin + s->nbins - 1 : -1;

	if (!v[0]->contended_ok || !v[1]->contended_ok) {
		fprintf(out, "Contended histogram: n/a (runs without hist_contended.csv).\n\n");
		return;
	}
	seed_hist_bins(v[0], v[1], &first, &last);
	fprintf(out, "%% of contended acquisitions by acquisition time (2^bin cycles), the seed's%s beside the simulation's, every repetition pooled:\n\n",
		s->nbins ? " (AIM7 fserver)" : " (none published for this workload: –)");
	fprintf(out, "| bin | seed 2.6.34 | simulated %s | seed fix | simulated %s |\n|---|---|---|---|---|\n",
		v[0]->label, v[1]->label);
	for (int b = first; b <= last; b++) {
		fprintf(out, "| %d |", b);
		for (int k = 0; k < 2; k++) {
			int sb = b - s->first_bin;

			if (s->nbins && sb >= 0 && sb < s->nbins)
				fprintf(out, " %.2f%% |", s->pct[k][sb]);
			else
				fprintf(out, " – |");
			fprintf(out, " %.2f%% |", v[k]->hist_contended_total ?
				100.0 * (double)v[k]->hist_contended[b] / (double)v[k]->hist_contended_total : 0);
		}
		fprintf(out, "\n");
	}
	fprintf(out, "\n");
}

/* Whether V's median rate is 0: the job mix's op is a job of acq_per_op
 * acquisitions a thread, and a short simulation may finish none. */
static bool no_rate(const struct group *g, const struct variant *v)
{
	struct stat3 r;

	return md_rate_figure(g, v, &r) == 0 && r.median <= 0;
}

/* The seed's figures beside the simulated patch pair of G. */
static void print_seed(const struct md *m, FILE *out, const struct group *g)
{
	const struct variant *spin = find_variant(g, m->pair[0]), *fix = find_variant(g, m->pair[1]);
	struct column cols[RATIO_COLUMNS_MAX];
	unsigned int n = ratio_columns(g, cols);
	struct seed_figures s;

	if (!seed_figures_of(g->workload, &s))
		return;
	if (!spin || spin != &g->v[0] || !fix) {
		fprintf(out, "No seed table: it needs simulated `%s` (the baseline) and `%s` runs.\n\n", m->pair[0], m->pair[1]);
		return;
	}
	fprintf(out, "Beside the seed (Tim Chen's 2.6.34 → 2.6.36 on 8 sockets × 8 cores × 2 threads, %s; its figures cited from the patch, not measured): the simulated cells are medians [95%% CI], the fix's with its ratio to `%s` and verdict.\n\n",
		s.what, m->pair[0]);
	fprintf(out, "| figure | seed 2.6.34 | seed fix | seed change | simulated %s | simulated %s |\n|---|---|---|---|---|---|\n", m->pair[0], m->pair[1]);
	seed_row(out, g, (unsigned int)(fix - g->v), g->rate.title, s.rate, false, &cols[0]);
	seed_row(out, g, (unsigned int)(fix - g->v), "#contentions", s.contentions, true,
		 column_of(cols, n, "contentions"));
	seed_row(out, g, (unsigned int)(fix - g->v), "mean acq cycles, contended", s.acq_cycles, true,
		 column_of(cols, n, "contended_acq_cycles_mean"));
	fprintf(out, "\n");
	if (no_rate(g, spin) || no_rate(g, fix))
		fprintf(out, "(No %s finished in these simulated seconds: the %s row is no figure, the others are; `--duration` in `--sim` mode runs longer.)\n\n",
			g->unit ? g->unit : "operation", g->rate.title);
	if (!s.contentions)
		fprintf(out, "(The seed gave #contentions, acquisition cycles and the histogram for fserver only.)\n\n");
	seed_hist(out, g, (unsigned int)(fix - g->v), &s);
}

/* The simulated group's charts, as run-all draws them (sim- before the real
 * ones' names): its contended histogram beside the seed's, then how its
 * acquisitions were obtained. */
static void print_sim_charts(struct md *m, const struct group *g)
{
	bool contended = hist_charted(g, true);
	char alt[192], name[160];

	if (!hist_charted(g, false))
		return;
	snprintf(name, sizeof(name), "sim-hist-%s%s-t%u", contended ? "contended-" : "", g->workload, g->threads);
	snprintf(alt, sizeof(alt), "simulated %sacquisition-time histogram, %s, %u threads%s", contended ? "contended " : "",
		 g->workload, g->threads, contended ? ", the seed's beside where it published one" : "");
	md_print_plot(m, alt, name);
	snprintf(alt, sizeof(alt), "simulated, %s, %u threads", g->workload, g->threads);
	md_print_phases_plot(m, g, "sim-", alt);
}

/* Why W has no simulated runs, from settings' SIM_WHY ("W: why; ..."):
 * true when it says. */
static bool print_why(struct md *m, const char *w)
{
	const char *why = rundir_setting(m->d, "SIM_WHY");
	size_t n = strlen(w);

	for (const char *p = why; *p; p += strcspn(p, ";"), p += *p == ';') {
		p += strspn(p, " ");
		if (strncmp(p, w, n) == 0 && p[n] == ':') {
			fprintf(m->out, "- `%s`: not simulated:%.*s.\n\n", w, (int)strcspn(p + n + 1, ";"), p + n + 1);
			return true;
		}
	}
	return false;
}

static void print_workload(struct md *m, const char *w)
{
	const struct dir_part *part = md_part(m, "sim", w);
	const struct group *g = sim_group(m, w);

	if (print_why(m, w) || !rundir_plans(m->d, "sim", w, NULL, false))
		return;
	fprintf(m->out, "### %s, simulated\n\n", w);
	if (!rundir_plans(m->d, "sim", w, NULL, true)) {
		fprintf(m->out, "No simulated `%s` run finished (see [Failed runs](#failed-runs)).\n\n", w);
		return;
	}
	if (!part || md_failed_comparison(m, part) || !g)
		return;
	fprintf(m->out, "On ");
	print_machine(m->out, g);
	fprintf(m->out, "; %u repetition(s), each its own `--sim-seed`:\n\n", group_max_reps(g));
	print_headline(m->out, g);
	print_seed(m, m->out, g);
	print_sim_charts(m, g);
	fprintf(m->out, "Every figure of these runs (lbcompare's text, simulated runs only): `data/sim-%s.txt`.\n\n", w);
}

void md_sim_section(struct md *m)
{
	bool any = rundir_plans(m->d, "sim", NULL, NULL, false) || *rundir_setting(m->d, "SIM_WHY");

	if (!any)
		return;
	fprintf(m->out, "## Simulated: the seed's machine\n\n");
	fprintf(m->out, "The patch experiment run by the simulator (`lockbench --sim`, docs/sim.md), not on this machine: the very source of the kmutex models on a simulated many-core machine, in virtual time, each repetition another seed. **Every figure in this section is simulated**: nothing of this host is measured, these runs are kept out of every table above and below (meta.csv's `simulated`), and their ratios answer what the models do on the profile's machine, not what a kernel did. A simulated operation is one acquisition (a hold and a gap drawn from the profile's times for the workload), or, where the profile gives the workload's `acq_per_op` (fserver: a job's locked calls), that many acquisitions of one thread: set the ratios beside the seed's, not the figures, and where no job finished in the simulated seconds the rate says so instead of a ratio (`--duration` in `--sim` mode runs longer). The profile's constants and their sources: docs/sim.md, \"The seed's machine\".\n\n");
	if (*rundir_setting(m->d, "SIM"))
		fprintf(m->out, "Profile: `%s`.\n\n", rundir_setting(m->d, "SIM"));
	char w[64];

	for (const char *p = sim_workloads(m); md_next_word(&p, w, sizeof(w));)
		print_workload(m, w);
}

/* One workload's part of the answer's line: the pair's baseline -> its fix. */
static void answer_workload(struct md *m, const struct group *g)
{
	const struct variant *spin = find_variant(g, m->pair[0]), *fix = find_variant(g, m->pair[1]);
	struct stat3 base, s;
	double seed;

	fprintf(m->out, "`%s` ", g->workload);
	if (!spin || !fix || md_rate_figure(g, spin, &base) || md_rate_figure(g, fix, &s)) {
		fprintf(m->out, "n/a (no simulated `%s` and `%s` both)", m->pair[0], m->pair[1]);
		return;
	}
	/* The job mix's op is a job of acq_per_op acquisitions a thread: a short
	 * run may finish none, and 0 -> 0 is no ratio. */
	if (base.median <= 0 || s.median <= 0) {
		fprintf(m->out, "n/a: `%s` %.0f, `%s` %.0f %s (no %s finished in the simulated seconds: run longer)",
			m->pair[0], base.median, m->pair[1], s.median, g->rate.words, g->unit ? g->unit : "operation");
		return;
	}
	fprintf(m->out, "`%s` → `%s` %.0f → %.0f %s, ", m->pair[0], m->pair[1], base.median, s.median, g->rate.words);
	md_rate_change(m->out, g, &s, &base);
	if (seed_rate_ratio(g->workload, &seed))
		fprintf(m->out, " (the seed's: %.2fx)", seed);
}

void md_sim_answer(struct md *m)
{
	static const struct group *g[MAX_GROUPS];
	size_t n = 0, missing = 0, said = 0;
	char w[64];

	for (const char *p = sim_workloads(m); n < MAX_GROUPS && md_next_word(&p, w, sizeof(w));)
		if ((g[n] = sim_group(m, w)) != NULL)
			n++;
		else
			missing++;
	if (!n)
		return;
	fprintf(m->out, "- **Simulated, not measured — the seed's machine (");
	print_machine(m->out, g[0]);
	fprintf(m->out, "):** ");
	for (size_t i = 0; i < n; i++) {
		fprintf(m->out, "%s", i ? "; " : "");
		answer_workload(m, g[i]);
	}
	for (const char *p = sim_workloads(m); missing && md_next_word(&p, w, sizeof(w));)
		if (!sim_group(m, w)) {
			fprintf(m->out, "%s`%s`", said++ ? ", " : "; ", w);
			if (--missing == 0)
				fprintf(m->out, " not simulated (see its section)");
		}
	fprintf(m->out, ".\n");
}
