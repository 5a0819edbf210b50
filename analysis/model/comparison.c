/*
 * comparison.c — the comparison model (comparison.h): the runs grouped by
 * host, workload and thread count into variants and their repetitions, and
 * each variant named as the tables and CSV files call it.
 */
#include "comparison.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The comparison being built and where its error goes. */
struct builder {
	struct comparison *c;
	char *err;
	size_t errlen;
};

__attribute__((format(printf, 2, 3))) static int fail(struct builder *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(b->err, b->errlen, fmt, ap);
	va_end(ap);
	return -1;
}

/* ---- hosts: which machine each run came from ---- */

static bool same_host(const struct result_host *a, const struct result_host *b)
{
	if (!a || !b)
		return a == b;
	return strcmp(a->name, b->name) == 0 && strcmp(a->kernel, b->kernel) == 0 && strcmp(a->cpu, b->cpu) == 0 &&
	       a->packages == b->packages && a->numa_nodes == b->numa_nodes && a->cores == b->cores &&
	       a->pus == b->pus && a->simulated == b->simulated && strcmp(a->sim, b->sim) == 0;
}

/* A simulated host's label: simulated, simulated#2, ... */
static void sim_label(const struct comparison *c, char *label, size_t len)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < c->nhosts; i++)
		n += c->hosts[i].id && c->hosts[i].id->simulated;
	if (n)
		snprintf(label, len, "simulated#%u", n + 1);
	else
		snprintf(label, len, "simulated");
}

/* The index of a run's host, a new one the first time it is met; -1 with
 * the error set when there are too many. */
static int host_of(struct builder *b, const struct result_run *run)
{
	struct comparison *c = b->c;
	const struct result_host *id = run->has_meta ? &run->host : NULL;
	unsigned int same_name = 0;
	struct host *h;

	for (unsigned int i = 0; i < c->nhosts; i++) {
		if (same_host(c->hosts[i].id, id))
			return (int)i;
		same_name += c->hosts[i].id && id && strcmp(c->hosts[i].id->name, id->name) == 0;
	}
	if (c->nhosts >= MAX_HOSTS)
		return fail(b, "runs from more than %d hosts", MAX_HOSTS);
	h = &c->hosts[c->nhosts];
	h->id = id;
	if (!id)
		snprintf(h->label, sizeof(h->label), "unknown");
	else if (id->simulated)  /* no host of its own: the simulation's, one label a profile and CPU count */
		sim_label(c, h->label, sizeof(h->label));
	else if (same_name)  /* one name, another machine (or kernel): vm, vm#2 */
		snprintf(h->label, sizeof(h->label), "%.40s#%u", id->name, same_name + 1);
	else
		snprintf(h->label, sizeof(h->label), "%.40s", id->name);
	/* It names CSV files: nothing but [A-Za-z0-9._#-] in it. */
	for (char *p = h->label; *p; p++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._#-", *p))
			*p = '_';
	return (int)c->nhosts++;
}

/* ---- grouping ---- */

/* A run's --timing; runs written before it timed every acquisition. */
static const char *run_timing(const struct result_run *run)
{
	const char *t = result_get(run, "timing");

	return t ? t : "all";
}

/* A run's --sched; runs written before it ran as the process did. */
static const char *run_sched(const struct result_run *run)
{
	const char *s = result_get(run, "sched");

	return s ? s : "other";
}

/* Whether the runs mix --timing modes (then compared only with a note). */
static bool runs_mix_timing(const struct result_run *const *runs, size_t nruns)
{
	for (size_t i = 1; i < nruns; i++)
		if (strcmp(run_timing(runs[i]), run_timing(runs[0])) != 0)
			return true;
	return false;
}

/* The rate of a run's workload: summary.csv's rate_unit, "UNIT/s" or
 * "UNIT/min" (runs written before it: per second). */
static struct rate rate_of(const struct result_run *run, const char *unit)
{
	const char *rate_unit = result_get(run, "rate_unit"), *slash = rate_unit ? strchr(rate_unit, '/') : NULL;
	bool per_min = slash && strcmp(slash, "/min") == 0;
	struct rate r = { .scale = per_min ? 60 : 1 };
	int len = slash ? (int)(slash - rate_unit) : (int)strlen(unit);
	const char *what = slash ? rate_unit : unit;

	snprintf(r.words, sizeof(r.words), "%.*s/%s", len, what, per_min ? "min" : "sec");
	snprintf(r.title, sizeof(r.title), "%s", r.words);
	if (r.title[0] >= 'a' && r.title[0] <= 'z')
		r.title[0] = (char)(r.title[0] - 'a' + 'A');
	if (!result_rate_key(run, r.name, sizeof(r.name)))
		snprintf(r.name, sizeof(r.name), "ops_per_s");
	return r;
}

/* The run's group, a new one the first time it is met; NULL with the error set. */
static struct group *group_for(struct builder *b, unsigned int host, const struct result_run *run,
			       const char *workload, const char *unit, unsigned int threads)
{
	struct comparison *c = b->c;
	const char *program = result_program(run);
	char name[sizeof(c->groups[0].name)];
	struct group *g;

	/* An --exec run's experiment is its program at the threads asked of it. */
	if (program) {
		snprintf(name, sizeof(name), "exec-%s", program);
		workload = name;
		threads = result_threads_asked(run);
	}
	for (unsigned int i = 0; i < c->ngroups; i++)
		if (c->groups[i].host == host && strcmp(c->groups[i].workload, workload) == 0 &&
		    c->groups[i].threads == threads)
			return &c->groups[i];
	if (c->ngroups >= MAX_GROUPS) {
		fail(b, "too many host/workload/thread groups");
		return NULL;
	}
	g = &c->groups[c->ngroups++];
	*g = (struct group){ .host = host, .workload = workload, .unit = unit, .rate = rate_of(run, unit),
			     .threads = threads, .program = program };
	if (program) {
		memcpy(g->name, name, sizeof(name));
		g->workload = g->name;
	}
	return g;
}

/* The run's metrics into its --exec group's: each the way every run of the
 * group says it is better (-1 with the error set where two disagree). */
static int group_metrics(struct builder *b, struct group *g, const struct result_run *run)
{
	struct result_metric m[RESULT_METRICS_MAX];
	unsigned int n = g->program ? result_metrics(run, m) : 0;

	for (unsigned int i = 0; i < n; i++) {
		char key[RESULT_KEY_LEN];
		unsigned int k = 0;

		snprintf(key, sizeof(key), "metric_%.31s", m[i].name);
		while (k < g->nmetrics && strcmp(g->metric[k].key, key) != 0)
			k++;
		if (k < g->nmetrics && g->metric[k].lower != m[i].lower)
			return fail(b, "%s/summary.csv: metric_better_%s is %s, but other runs of program %s say %s",
				    run->dir, m[i].name, m[i].lower ? "lower" : "higher", g->program,
				    m[i].lower ? "higher" : "lower");
		if (k < g->nmetrics)
			continue;
		if (g->nmetrics >= RESULT_METRICS_MAX)
			return fail(b, "runs of program %s declare more than %d metrics", g->program, RESULT_METRICS_MAX);
		memcpy(g->metric[g->nmetrics].key, key, sizeof(key));
		g->metric[g->nmetrics++].lower = m[i].lower;
	}
	return 0;
}

/* The run's workload metrics into its group's: each with the sense and unit
 * every run that declares it gives (-1 with the error set where two differ:
 * their figures could not be compared). */
static int group_wmetrics(struct builder *b, struct group *g, const struct result_run *run)
{
	struct result_workload_metric m[RESULT_METRICS_MAX];
	unsigned int n = result_workload_metrics(run, m);

	for (unsigned int i = 0; i < n; i++) {
		unsigned int k = 0;

		while (k < g->nwmetrics && strcmp(g->wmetric[k].key, m[i].key) != 0)
			k++;
		if (k < g->nwmetrics && (g->wmetric[k].sense != m[i].sense || strcmp(g->wmetric[k].unit, m[i].unit)))
			return fail(b, "%s/summary.csv: metric %s is declared otherwise (sense, unit) than by other runs of %s",
				    run->dir, m[i].key, g->workload);
		if (k < g->nwmetrics)
			continue;
		if (g->nwmetrics >= RESULT_METRICS_MAX)
			return fail(b, "runs of %s declare more than %d metrics", g->workload, RESULT_METRICS_MAX);
		memcpy(g->wmetric[g->nwmetrics].key, m[i].key, sizeof(m[i].key));
		memcpy(g->wmetric[g->nwmetrics].unit, m[i].unit, sizeof(m[i].unit));
		memcpy(g->wmetric[g->nwmetrics].title, m[i].title, sizeof(m[i].title));
		g->wmetric[g->nwmetrics++].sense = m[i].sense;
	}
	return 0;
}

/* The run's variant in group g, a new one the first time it is met; NULL with the error set. */
static struct variant *variant_for(struct builder *b, struct group *g, const struct result_run *run, const char *lock)
{
	struct variant *v;

	for (unsigned int i = 0; i < g->nv; i++)
		if (strcmp(g->v[i].lock, lock) == 0 && strcmp(g->v[i].timing, run_timing(run)) == 0 &&
		    strcmp(g->v[i].sched, run_sched(run)) == 0)
			return &g->v[i];
	if (g->nv >= MAX_VARIANTS) {
		fail(b, "too many locks in one group");
		return NULL;
	}
	v = &g->v[g->nv++];
	v->lock = lock;
	v->timing = run_timing(run);
	v->sched = run_sched(run);
	snprintf(v->label, sizeof(v->label), "%s", lock);
	snprintf(v->series, sizeof(v->series), "%s", lock);
	return v;
}

/* A repetition of v: its histograms added to the variant's pooled ones. */
static void add_rep(struct variant *v, const struct result_run *run)
{
	v->contended_ok = (v->nreps == 0 || v->contended_ok) && run->has_contended;
	v->kernel_ok = (v->nreps == 0 || v->kernel_ok) && run->has_kernel;
	v->reps[v->nreps++] = run;
	for (int bin = 0; bin < RESULT_BINS; bin++) {
		v->hist[bin] += run->hist[bin];
		v->hist_contended[bin] += run->hist_contended[bin];
		v->kernel_hist[bin] += run->kernel_hist[bin];
	}
	v->hist_total += run->hist_total;
	v->hist_contended_total += run->hist_contended_total;
	v->kernel_total += run->kernel_total;
}

static int group_run(struct builder *b, const struct result_run *run)
{
	const char *workload = result_get(run, "workload"), *lock = result_get(run, "lock");
	const char *unit = result_get(run, "unit");
	double threads;
	struct group *g;
	struct variant *v;
	int host = host_of(b, run);

	if (host < 0)
		return -1;
	if (!workload || !lock || !unit)
		return fail(b, "%s/summary.csv: lacks lock, workload or unit", run->dir);
	if (result_number(run, "threads", &threads, b->err, b->errlen))
		return -1;
	if (!(g = group_for(b, (unsigned int)host, run, workload, unit, (unsigned int)threads)) ||
	    group_metrics(b, g, run) || group_wmetrics(b, g, run) || !(v = variant_for(b, g, run, lock)))
		return -1;
	if (v->nreps >= MAX_REPS)
		return fail(b, "too many repetitions of %s", lock);
	add_rep(v, run);
	return 0;
}

/* ---- names ---- */

/* With several hosts, each variant's series (its name in the CSV files that
 * span groups, the sweeps) says its host: lock@host.  Its label stays the
 * lock: a table is one host's. */
static void name_host(const struct comparison *c, struct group *g)
{
	char host[sizeof(c->hosts[0].label)];

	memcpy(host, c->hosts[g->host].label, sizeof(host));
	for (unsigned int i = 0; c->nhosts > 1 && i < g->nv; i++) {
		struct variant *v = &g->v[i];
		size_t n = strlen(v->series);

		snprintf(v->series + n, sizeof(v->series) - n, "@%s", host);
	}
}

/* A variant whose threads ran under another --sched than the default says
 * so in its name, the kernel row's too: lock@fifo. */
static void name_sched(struct group *g)
{
	for (unsigned int i = 0; i < g->nv; i++) {
		struct variant *v = &g->v[i];
		size_t n = strlen(v->label), m = strlen(v->series);

		if (strcmp(v->sched, "other") == 0)
			continue;
		snprintf(v->label + n, sizeof(v->label) - n, "@%s", v->sched);
		snprintf(v->series + m, sizeof(v->series) - m, "@%s", v->sched);
	}
}

/* With mixed modes, each variant's name says its mode: lock@timing. */
static void name_timing(const struct comparison *c, struct group *g)
{
	for (unsigned int i = 0; c->mixed_timing && i < g->nv; i++) {
		struct variant *v = &g->v[i];
		size_t n = strlen(v->label);
		char series[sizeof(v->series)];

		snprintf(v->label + n, sizeof(v->label) - n, "@%s", v->timing);
		snprintf(series, sizeof(series), "%s@%s", v->lock, v->timing);
		memcpy(v->series, series, sizeof(series));
	}
}

/* The lock type with the longest total wait in a run ("" without any). */
static const char *top_kernel_type(const struct result_run *run)
{
	const char *best = "";
	double most = 0, sum;
	char key[RESULT_KEY_LEN * 2], ignored[256];

	for (unsigned int t = 0; t < run->kernel_ntypes; t++) {
		snprintf(key, sizeof(key), "kernel_wait_cycles_sum_%s", run->kernel_type[t]);
		if (result_number(run, key, &sum, ignored, sizeof(ignored)) == 0 && sum > most) {
			most = sum;
			best = run->kernel_type[t];
		}
	}
	return best;
}

/* Whether every repetition says KEY is VALUE in its summary.csv. */
static bool reps_say(const struct variant *v, const char *key, const char *value)
{
	for (unsigned int r = 0; r < v->nreps; r++) {
		const char *got = result_get(v->reps[r], key);
		if (!got || strcmp(got, value) != 0)
			return false;
	}
	return v->nreps > 0;
}

/*
 * The real kernel's row: a lock that excludes nothing (summary.csv's
 * lock_excludes 0: `none`) on a workload whose threads meet in the kernel
 * (meets_in_kernel 1: creat and fserver on a directory's lock, fpos on a
 * file's f_pos_lock), with kernel capture.  Named for the kernel and the
 * lock type it waited on most, "kernel 6.18 rwsem_write" (kernel_release's
 * first two numbers).
 */
static void name_kernel_rows(struct group *g)
{
	for (unsigned int i = 0; i < g->nv; i++) {
		struct variant *v = &g->v[i];
		const char *release = result_get(v->reps[0], "kernel_release"), *type;
		int major = 0, minor = 0;

		if (!reps_say(v, "meets_in_kernel", "1") || !reps_say(v, "lock_excludes", "0") || !v->kernel_ok)
			continue;
		v->kernel_row = true;
		type = top_kernel_type(v->reps[0]);
		if (!release || sscanf(release, "%d.%d", &major, &minor) != 2)
			snprintf(v->label, sizeof(v->label), "kernel%s%s", type[0] ? " " : "", type);
		else
			snprintf(v->label, sizeof(v->label), "kernel %d.%d%s%s", major, minor, type[0] ? " " : "", type);
	}
}

struct comparison *comparison_build(const struct result_run *const *runs, size_t nruns, char *err, size_t errlen)
{
	struct builder b = { calloc(1, sizeof(struct comparison)), err, errlen };

	if (!b.c) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	for (size_t i = 0; i < nruns; i++)
		if (group_run(&b, runs[i]) != 0) {
			free(b.c);
			return NULL;
		}
	b.c->mixed_timing = runs_mix_timing(runs, nruns);
	for (unsigned int i = 0; i < b.c->ngroups; i++) {
		name_kernel_rows(&b.c->groups[i]);
		name_timing(b.c, &b.c->groups[i]);
		name_sched(&b.c->groups[i]);
		name_host(b.c, &b.c->groups[i]);
	}
	return b.c;
}

void comparison_free(struct comparison *c)
{
	free(c);
}

const struct variant *find_variant(const struct group *g, const char *lock)
{
	for (unsigned int i = 0; i < g->nv; i++)
		if (strcmp(g->v[i].lock, lock) == 0 && strcmp(g->v[i].sched, "other") == 0)
			return &g->v[i];
	return NULL;
}

unsigned int group_max_reps(const struct group *g)
{
	unsigned int nreps = 0;

	for (unsigned int i = 0; i < g->nv; i++)
		nreps = g->v[i].nreps > nreps ? g->v[i].nreps : nreps;
	return nreps;
}

bool kernel_baseline(const struct group *g)
{
	return g->nv > 0 && g->v[0].kernel_row;
}

bool first_of_workload(const struct comparison *c, const struct group *g)
{
	for (const struct group *o = c->groups; o < g; o++)
		if (strcmp(o->workload, g->workload) == 0)
			return false;
	return true;
}

/* ---- sweeps ---- */

static int cmp_group_threads(const void *a, const void *b)
{
	const struct group *x = *(const struct group *const *)a, *y = *(const struct group *const *)b;

	return (x->threads > y->threads) - (x->threads < y->threads);
}

void sweep_of(const struct comparison *c, const char *workload, struct sweep *s)
{
	s->nseries = s->nrows = 0;
	for (unsigned int gi = 0; gi < c->ngroups; gi++) {
		const struct group *g = &c->groups[gi];
		bool seen = false;

		if (strcmp(g->workload, workload) != 0)
			continue;
		for (unsigned int i = 0; i < g->nv; i++) {
			unsigned int k = 0;

			while (k < s->nseries && strcmp(s->series[k], g->v[i].series) != 0)
				k++;
			if (k == s->nseries && s->nseries < MAX_VARIANTS)
				s->series[s->nseries++] = g->v[i].series;
		}
		for (unsigned int r = 0; r < s->nrows; r++)
			seen |= s->rows[r]->threads == g->threads;
		if (!seen)
			s->rows[s->nrows++] = g;
	}
	qsort(s->rows, s->nrows, sizeof(s->rows[0]), cmp_group_threads);
}

const struct variant *sweep_variant(const struct comparison *c, const char *workload, unsigned int threads,
				    const char *series)
{
	for (unsigned int gi = 0; gi < c->ngroups; gi++) {
		const struct group *g = &c->groups[gi];

		if (strcmp(g->workload, workload) != 0 || g->threads != threads)
			continue;
		for (unsigned int i = 0; i < g->nv; i++)
			if (strcmp(g->v[i].series, series) == 0)
				return &g->v[i];
	}
	return NULL;
}
