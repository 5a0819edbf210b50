/*
 * figures.c — a variant's figures over its repetitions with their
 * intervals, the columns of the tables, and the verdict of a variant
 * against the baseline (figures.h).
 */
#include "figures.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Calls each(run, one key, sign, ctx) for every term of a key (struct
 * column: "a+b-c"), until one returns nonzero, which it returns. */
static int each_term(const struct result_run *run, const char *key,
		     int (*each)(const struct result_run *run, const char *term, double sign, void *ctx), void *ctx)
{
	double sign = 1;

	while (*key) {
		char term[RESULT_KEY_LEN];
		size_t n = strcspn(key, "+-");
		int rc;

		snprintf(term, sizeof(term), "%.*s", (int)n, key);
		if ((rc = each(run, term, sign, ctx)) != 0)
			return rc;
		key += n;
		if (*key)
			sign = *key++ == '-' ? -1 : 1;
	}
	return 0;
}

/* A sum being added up term by term, and where a missing term is said. */
struct sum {
	double value;
	char *err;
	size_t errlen;
};

static int add_term(const struct result_run *run, const char *term, double sign, void *ctx)
{
	struct sum *sum = ctx;
	double v;

	if (result_number(run, term, &v, sum->err, sum->errlen))
		return -1;
	sum->value += sign * v;
	return 0;
}

/* A run's figure of a key or a sum of keys; 0, or -1 with err set. */
static int key_value(const struct result_run *run, const char *key, double *out, char *err, size_t errlen)
{
	struct sum sum = { 0, err, errlen };
	int rc = each_term(run, key, add_term, &sum);

	*out = sum.value;
	return rc;
}

/* `scale` converts units (60: per second -> per minute); with `per`, each
 * repetition's key / per (0 where per is 0). */
static int figure_per(const struct variant *v, const char *key, const char *per, double scale, struct stat3 *out,
		      char *err, size_t errlen)
{
	double vals[MAX_REPS], den;

	for (unsigned int i = 0; i < v->nreps; i++) {
		if (key_value(v->reps[i], key, &vals[i], err, errlen) ||
		    (per && key_value(v->reps[i], per, &den, err, errlen)))
			return -1;
		vals[i] *= scale;
		if (per)
			vals[i] = den > 0 ? vals[i] / den : 0;
	}
	out->n = v->nreps;
	memcpy(out->vals, vals, v->nreps * sizeof(vals[0]));
	stats_median_ci(vals, v->nreps, STATS_LEVEL, &out->ci);
	qsort(vals, v->nreps, sizeof(vals[0]), stats_cmp_double);
	out->min = vals[0];
	out->max = vals[v->nreps - 1];
	out->median = v->nreps % 2 ? vals[v->nreps / 2]
				   : (vals[v->nreps / 2 - 1] + vals[v->nreps / 2]) / 2;
	return 0;
}

int figure(const struct variant *v, const char *key, double scale, struct stat3 *out, char *err, size_t errlen)
{
	return figure_per(v, key, NULL, scale, out, err, errlen);
}

/* How a table shows a figure (common/summary.def's `shown`). */
struct shown {
	unsigned int tables;  /* enum table, or'd; 0: no table shows it with a ratio */
	const char *fmt;
	const char *kernel_key;
	bool optional;
};
#define NOT_SHOWN { 0, NULL, NULL, false }
#define SHOWN(tables, fmt, kernel) { tables, fmt, kernel, false }
#define SHOWN_OPTIONAL(tables, fmt, kernel) { tables, fmt, kernel, true }
#define KERNEL_SAME NULL
#define KERNEL_NONE KERNEL_NA

/* The summary figures' contract (common/summary.def): which way each is
 * better, its column's title, and which tables show it. */
static const struct contract_figure {
	const char *key;
	enum sense sense;
	const char *title;
	struct shown shown;
} contract[] = {
#define CONTRACT_FIGURE(key, format, value, check, sense, title, shown) { #key, SENSE_##sense, title, shown },
	SUMMARY_FIGURES(CONTRACT_FIGURE)
#undef CONTRACT_FIGURE
};

#define PHASE_KEY(key, format, value, check, sense, title, shown) #key,
const char *const phase_keys[NPHASE_KEYS] = { SUMMARY_LOCK_FIGURES(PHASE_KEY) };
#undef PHASE_KEY

static const struct contract_figure *contract_of(const char *key)
{
	for (size_t i = 0; i < sizeof(contract) / sizeof(contract[0]); i++)
		if (strcmp(contract[i].key, key) == 0)
			return &contract[i];
	return NULL;
}

/* The verdict's words for a column with a ratio: its figure's sense in the
 * contract (a sum of keys, the models' composite figures: a count). */
enum sense column_sense(const struct column *col)
{
	const struct contract_figure *c = contract_of(col->key);

	if (col->sense)
		return (enum sense)(col->sense - 1);
	return c ? c->sense : SENSE_COUNT;
}

unsigned int column_tables(const struct column *col)
{
	const struct contract_figure *c = contract_of(col->key);

	return c ? c->shown.tables : 0;
}

/* A summary figure's column title in the contract. */
static const char *title_of(const char *key)
{
	const struct contract_figure *c = contract_of(key);

	return c ? c->title : key;
}

/* The key a variant's cell shows: the column's, or the kernel row's own;
 * and what it is divided by. */
static const char *column_key(const struct variant *v, const struct column *col)
{
	return v->kernel_row && col->kernel_key ? col->kernel_key : col->key;
}

static const char *column_per(const struct variant *v, const struct column *col)
{
	return v->kernel_row && col->kernel_per ? col->kernel_per : col->per;
}

static int term_missing(const struct result_run *run, const char *term, double sign, void *ctx)
{
	(void)sign;
	(void)ctx;
	return !result_get(run, term);
}

/* Whether every repetition of v wrote `key` (every key of a sum). */
bool has_key(const struct variant *v, const char *key)
{
	for (unsigned int i = 0; i < v->nreps; i++)
		if (each_term(v->reps[i], key, term_missing, NULL))
			return false;
	return true;
}

/* Whether v's lock records acquisition phases: some phase count of some
 * repetition above 0 (a lock without them writes 0s: results/README.md). */
static bool has_phases(const struct variant *v)
{
	char ignored[256];

	for (unsigned int i = 0; i < v->nreps; i++)
		for (size_t p = 0; p < NPHASE_KEYS; p++) {
			double n;

			if (result_number(v->reps[i], phase_keys[p], &n, ignored, sizeof(ignored)) == 0 && n > 0)
				return true;
		}
	return false;
}

/* ---- the verdict: a variant against the baseline, over repetitions ---- */

/*
 * A verdict tells one story with its ratio and interval: a difference is
 * shown only where Mann–Whitney's p is under 5%, these sizes could show one
 * without ties (reach_note says so otherwise: with ties 2 runs against 5
 * reach p = 1/21 where no tie-free data can go under 2/21), and Moses'
 * interval, where there is one, lies wholly on the verdict's side of 1 (the
 * test's normal approximation and the interval's order statistics can part
 * with ties or at large sizes).
 */
void judge(const struct stat3 *s, const struct stat3 *base, struct verdict *vd)
{
	*vd = (struct verdict){ .tested = s->n >= 2 && base->n >= 2 };
	if (!vd->tested || stats_mann_whitney(s->vals, s->n, base->vals, base->n, &vd->mwu) != 0) {
		vd->tested = false;
		return;
	}
	vd->direction = stats_direction(&vd->mwu, s->n, base->n, STATS_LEVEL);
	vd->ratio_ok = stats_ratio_ci(s->vals, s->n, base->vals, base->n, STATS_LEVEL, &vd->ratio) == 0;
	if (stats_mwu_p_min(s->n, base->n) > 1 - STATS_LEVEL)
		vd->direction = 0;
	if (vd->ratio_ok && (!vd->ratio.reached || (vd->direction > 0 && !(vd->ratio.lo > 1)) ||
			     (vd->direction < 0 && !(vd->ratio.hi < 1))))
		vd->direction = 0;
}

double verdict_ratio(const struct verdict *vd, const struct stat3 *s, const struct stat3 *base)
{
	if (vd->ratio_ok && vd->ratio.reached)
		/* exp of a median of logs against ratios taken directly: the
		 * last bit may fall outside; the estimate lies in the interval */
		return fmin(fmax(vd->ratio.estimate, vd->ratio.lo), vd->ratio.hi);
	if (vd->ratio_ok)
		return vd->ratio.estimate;
	return base->median != 0 ? s->median / base->median : 0;
}

/* Whether `text`, a printed ratio, still reads on the side of 1 that
 * `side` says (+1 above, -1 below; 0: any). */
static bool reads_on_side(const char *text, int side)
{
	double v = strtod(text, NULL);

	return side == 0 || (side > 0 ? v > 1 : v < 1);
}

int ratio_decimals(double r, int side)
{
	char buf[64];
	int d = 2;

	while (d < 9 && (snprintf(buf, sizeof(buf), "%.*f", d, r), !reads_on_side(buf, side)))
		d++;
	return d;
}

/* Whether the printed ratio `text` reads inside the interval as
 * interval_text() prints it (a ratio far below 1, 0.0001, printed "0.00"
 * beside [8.11e-05..0.00129], does not). */
static bool reads_inside(const char *text, const struct verdict *vd)
{
	char ci[80];
	double v = strtod(text, NULL), lo, hi;

	interval_text(vd, ci, sizeof(ci));
	return sscanf(ci, "[%lf..%lf]", &lo, &hi) != 2 || (v >= lo && v <= hi);
}

bool ratio_text(const struct verdict *vd, const struct stat3 *s, const struct stat3 *base, char *buf, size_t len)
{
	double r = verdict_ratio(vd, s, base);
	int d = ratio_decimals(r, vd->direction);

	/* more decimals until it reads inside its interval (a ratio at a
	 * bound the interval's rounding passed may never: 12 at most) */
	while (snprintf(buf, len, "%.*fx", d, r), d < 12 && !reads_inside(buf, vd))
		d++;
	return vd->ratio_ok || base->median != 0;
}

void interval_text(const struct verdict *vd, char *buf, size_t len)
{
	char lo[32], hi[32];
	int digits = 3;

	if (!vd->ratio_ok || !vd->ratio.reached) {
		snprintf(buf, len, "-");
		return;
	}
	do {
		snprintf(lo, sizeof(lo), "%.*g", digits, vd->ratio.lo);
		snprintf(hi, sizeof(hi), "%.*g", digits, vd->ratio.hi);
	} while (digits++ < 9 && (!reads_on_side(lo, vd->direction > 0) || !reads_on_side(hi, -(vd->direction < 0))));
	snprintf(buf, len, "[%s..%s]", lo, hi);
}

bool lower_is_better(enum sense sense)
{
	return sense == SENSE_TIME || sense == SENSE_COST || sense == SENSE_LOWER;
}

/* "faster", "slower", "no difference", ... in the figure's own words; "-"
 * when there are too few repetitions to test. */
const char *verdict_word(const struct verdict *vd, enum sense sense)
{
	static const char *const words[][2] = {
		[SENSE_COUNT] = { "fewer", "more" },
		[SENSE_RATE] = { "slower", "faster" },
		[SENSE_TIME] = { "faster", "slower" },
		[SENSE_COST] = { "cheaper", "costlier" },
		[SENSE_HIGHER] = { "worse", "better" },
		[SENSE_LOWER] = { "better", "worse" },
	};

	if (!vd->tested)
		return "-";
	if (vd->direction == 0)
		return "no difference";
	return words[sense][vd->direction > 0];
}

/* The fewest repetitions a side whose smallest p reaches the level. */
static unsigned int reps_needed_a_side(void)
{
	unsigned int k = 2;

	while (k < STATS_MAX_REPS && stats_mwu_p_min(k, k) > 1 - STATS_LEVEL)
		k++;
	return k;
}

bool reach_note(unsigned int nx, unsigned int ny, char *buf, size_t len)
{
	unsigned int least = nx < ny ? nx : ny;
	char sizes[64];

	if (least < 2 || stats_mwu_p_min(nx, ny) <= 1 - STATS_LEVEL)
		return false;
	if (nx == ny)
		snprintf(sizes, sizeof(sizes), "%u repetitions a side", nx);
	else
		snprintf(sizes, sizeof(sizes), "%u repetitions against %u", nx, ny);
	snprintf(buf, len, "With %s no difference can be shown at 95%% (the smallest p is %.3f): %u a side, or %u against %zu, can.",
		 sizes, stats_mwu_p_min(nx, ny), reps_needed_a_side(), least, stats_mwu_reps_needed(least, STATS_LEVEL));
	return true;
}

bool group_reach_note(const struct group *g, char *buf, size_t len)
{
	unsigned int worst = 0;
	double worst_p = 0;

	for (unsigned int i = 1; i < g->nv; i++) {
		double p = stats_mwu_p_min(g->v[i].nreps, g->v[0].nreps);

		if (g->v[i].nreps >= 2 && g->v[0].nreps >= 2 && p > worst_p) {
			worst = i;
			worst_p = p;
		}
	}
	return worst && reach_note(g->v[worst].nreps, g->v[0].nreps, buf, len);
}

/* Whether every repetition timed some of the acquisitions whose cycles KEY
 * sums up: lockbench writes a mean, minimum or bin over none as 0 (the
 * contended ones of a --timing sample:N run that sampled no contended
 * acquisition), which is no figure.  Runs without the count say nothing. */
static bool cycles_measured(const struct variant *v, const char *key)
{
	const char *count = strncmp(key, "contended_acq_", strlen("contended_acq_")) == 0 ? "timed_contentions"
			    : "timed_acquisitions";

	if (v->kernel_row || !(strstr(key, "acq_cycles") || strstr(key, "acq_bin")))
		return true;
	for (unsigned int i = 0; i < v->nreps; i++) {
		const char *n = result_get(v->reps[i], count);

		if (n && strcmp(n, "0") == 0)
			return false;
	}
	return true;
}

enum missing figure_missing(const struct variant *v, const struct column *col)
{
	const char *key = column_key(v, col);

	if (strcmp(v->timing, "off") == 0 && strstr(key, "acq_cycles"))
		return FIGURE_UNTIMED;
	if (!cycles_measured(v, key))
		return FIGURE_UNMEASURED;
	if (strcmp(key, KERNEL_NA) == 0)
		return v->kernel_row ? FIGURE_KERNEL : FIGURE_MODEL;
	if (col->optional && !has_key(v, key))
		return strncmp(key, "metric_", strlen("metric_")) == 0 ? FIGURE_UNMATCHED : FIGURE_OLD;
	if (col->phases && !v->kernel_row && !has_phases(v))
		return FIGURE_NO_PHASES;
	return FIGURE_OK;
}

int variant_figure(const struct variant *v, const struct column *col, struct stat3 *s, char *err, size_t errlen)
{
	return figure_per(v, column_key(v, col), column_per(v, col), col->scale, s, err, errlen);
}

/* Variant i's figure and the baseline's (*base_ok false when it lacks it).
 * 0, or -1 with err set. */
int figure_pair(const struct group *g, unsigned int i, const struct column *col, struct stat3 *s,
		struct stat3 *base, bool *base_ok, char *err, size_t errlen)
{
	/* A baseline without the key (runs without --kernel-locks beside runs
	 * with it) gives no ratio, as one without the figure does. */
	*base_ok = figure_missing(&g->v[0], col) == FIGURE_OK && has_key(&g->v[0], column_key(&g->v[0], col));
	if (variant_figure(&g->v[i], col, s, err, errlen) ||
	    (*base_ok && variant_figure(&g->v[0], col, base, err, errlen)))
		return -1;
	return 0;
}

/* Contract line c as a column of g's tables: as the contract says, but the
 * rate in the workload's unit (g->rate: jobs per minute...). */
static struct column contract_column(const struct group *g, const struct contract_figure *c)
{
	struct column col = { c->title, c->key, 1, c->shown.fmt, false, c->shown.optional, c->shown.kernel_key,
			      NULL, NULL, NULL, false, 0 };

	if (strcmp(c->key, "ops_per_s") == 0) {
		col.title = g->rate.title;
		col.scale = g->rate.scale;
		col.name = g->rate.name;
	}
	return col;
}

unsigned int program_columns(const struct group *g, struct column *cols)
{
	unsigned int n = 0;

	if (!g->program)
		return 0;
	for (unsigned int m = 0; m < g->nmetrics; m++)
		/* optional: a run whose output the regex did not match lacks it */
		cols[n++] = (struct column){ g->metric[m].key + strlen("metric_"), g->metric[m].key, 1, "%.5g", false,
					     true, NULL, NULL, NULL, NULL, false,
					     1 + (g->metric[m].lower ? SENSE_LOWER : SENSE_HIGHER) };
	cols[n++] = (struct column){ "wall s", "program_wall_s", 1, "%.3f", false, false, NULL, NULL, NULL, NULL,
				     false, 1 + SENSE_TIME };
	cols[n++] = (struct column){ "CPU s", "program_cpu_user_s+program_cpu_sys_s", 1, "%.3f", false, false, NULL,
				     NULL, NULL, "program_cpu_s", false, 1 + SENSE_COST };
	return n;
}

/* A declared sense as the verdict's: the same words (common/metric.def). */
static enum sense wmetric_sense(enum result_sense s)
{
	static const enum sense senses[] = {
#define AS_SENSE(name, word) [RESULT_SENSE_##name] = SENSE_##name,
		METRIC_SENSES(AS_SENSE)
#undef AS_SENSE
	};

	return senses[s];
}

unsigned int workload_columns(const struct group *g, struct column *cols)
{
	unsigned int n = 0;

	for (unsigned int m = 0; m < g->nwmetrics; m++)
		if (strcmp(g->wmetric[m].key, g->rate.name) != 0)
			cols[n++] = (struct column){ g->wmetric[m].title, g->wmetric[m].key, 1, "%.5g", false, true,
						     NULL, NULL, NULL, NULL, false, 1 + wmetric_sense(g->wmetric[m].sense) };
	return n;
}

unsigned int table_columns(const struct group *g, unsigned int tables, struct column *cols)
{
	unsigned int n = 0;

	/* Table by table, each in the contract's order. */
	for (unsigned int table = 1; table <= tables; table <<= 1) {
		if (table & tables & TABLE_WORKLOAD) {
			n += workload_columns(g, cols + n);
			continue;
		}
		if (g->program && (table & tables & (TABLE_THROUGHPUT | TABLE_SWEEP))) {
			if (table == TABLE_THROUGHPUT || !(tables & TABLE_THROUGHPUT))
				n += program_columns(g, cols + n);
			continue;
		}
		for (size_t i = 0; i < sizeof(contract) / sizeof(contract[0]); i++)
			if (tables & table & contract[i].shown.tables)
				cols[n++] = contract_column(g, &contract[i]);
	}
	return n;
}

/* The figures with a ratio to the baseline, in the order of the tables:
 * throughput and CPU cost, then the patch's contended figures, then those
 * of all acquisitions. */
unsigned int ratio_columns(const struct group *g, struct column *cols)
{
	return table_columns(g, TABLE_THROUGHPUT | TABLE_CONTENDED | TABLE_ALL | TABLE_WORKLOAD, cols);
}

const char *figure_name(const struct column *col)
{
	return col->name ? col->name : col->key;
}

/*
 * The models beside the running kernel's mutex, per operation where the
 * count depends on how long a run ran.  Each side's own figure of the same
 * thing: the kernel's from its mutex waits only (lock:contention_begin to
 * contention_end, the slow path), the models' from their contended
 * acquisitions only.  How they were acquired, mapped as the tracepoint
 * classes them (results/README.md, "Mutex waits by how they ended"):
 * unqueued, the kernel's `spin` (the trylock before the spin, the spin, the
 * trylock under wait_lock), is a model's acq_spin plus the trylocks it won
 * before queueing; queued, the kernel's `spin_sleep` + `sleep`, is the rest
 * of a model's slow path.  The models do not record whether a queued
 * acquisition spun first, nor the tracepoint whether a queued waiter slept.
 */
const struct column *kernel_columns(unsigned int *n)
{
	/* Titled by the contract (title_of) where a column is a summary figure. */
	static struct column cols[] = {
		{ NULL, "ops_per_s", 1, "%.0f", false, false, NULL, NULL, NULL, NULL, false, 0 },
		{ "contended/op", "contentions", 1, "%.4f", false, false, "kernel_contentions_mutex", "ops", NULL,
		  "contended_per_op", false, 0 },
		{ "contended mean cycles", "contended_acq_cycles_mean", 1, "%.0f", false, true,
		  "kernel_wait_cycles_sum_mutex", NULL, "kernel_contentions_mutex", "contended_cycles_mean", false, 0 },
		{ NULL, "cpu_us_per_op", 1, "%.3f", false, false, NULL, NULL, NULL, NULL, false, 0 },
		{ "unqueued/op", "acq_spin+nosleep_unqueued", 1, "%.4f", false, true, "kernel_mutex_via_spin", "ops",
		  NULL, "unqueued_per_op", true, 0 },
		{ "queued/op", "acq_nosleep+acq_sleep-nosleep_unqueued", 1, "%.4f", false, true,
		  "kernel_mutex_via_spin_sleep+kernel_mutex_via_sleep", "ops", NULL, "queued_per_op", true, 0 },
		{ "queued at once/op", KERNEL_NA, 1, "%.4f", true, true, "kernel_mutex_via_sleep", "ops", NULL,
		  "queued_at_once_per_op", true, 0 },
		{ "slept/op", "acq_sleep", 1, "%.4f", true, true, KERNEL_NA, "ops", NULL, "slept_per_op", true, 0 },
	};

	for (size_t i = 0; i < sizeof(cols) / sizeof(cols[0]); i++)
		if (!cols[i].title)
			cols[i].title = title_of(cols[i].key);
	*n = sizeof(cols) / sizeof(cols[0]);
	return cols;
}

void table_verdicts(const struct group *g, const struct column *cols, unsigned int ncols, unsigned int *tested,
		    unsigned int *shown)
{
	char err[256];

	*tested = *shown = 0;
	for (unsigned int i = 1; i < g->nv; i++)
		for (unsigned int c = 0; c < ncols; c++) {
			struct stat3 s, base;
			struct verdict vd;
			bool base_ok;

			if (cols[c].no_ratio || figure_missing(&g->v[i], &cols[c]) != FIGURE_OK ||
			    figure_missing(&g->v[0], &cols[c]) != FIGURE_OK ||
			    figure_pair(g, i, &cols[c], &s, &base, &base_ok, err, sizeof(err)) != 0 || !base_ok)
				continue;
			judge(&s, &base, &vd);
			*tested += vd.tested;
			*shown += vd.direction != 0;
		}
}

bool chance_note(unsigned int tested, unsigned int shown, char *buf, size_t len)
{
	if (tested < 2)
		return false;
	/* "no difference" is the verdict's word in every table and CSV file;
	 * what it means is said here, under each table (issue 42). */
	snprintf(buf, len, "%u verdicts tested here, %u of them a difference (\"no difference\": none shown by these "
		 "runs, which is not the same as none); were no variant different, chance alone would make about %.1f of "
		 "them one (1 in 20, at 95%%: no correction for many comparisons is made).",
		 tested, shown, tested * (1 - STATS_LEVEL));
	return true;
}

unsigned int group_min_reps(const struct group *g)
{
	unsigned int least = g->nv ? g->v[0].nreps : 0;

	for (unsigned int i = 1; i < g->nv; i++)
		least = g->v[i].nreps < least ? g->v[i].nreps : least;
	return least;
}

bool coverage_note(const struct group *g, char *buf, size_t len)
{
	unsigned int least = group_min_reps(g);
	double one[STATS_MAX_REPS] = { 0 };  /* stand-in values: only the interval's coverage at `least` is wanted */
	struct stats_interval ci;

	if (least < 2 || least > STATS_MAX_REPS)
		return false;
	stats_median_ci(one, least, STATS_LEVEL, &ci);
	if (ci.reached)
		return false;
	snprintf(buf, len, "With %u repetitions the interval is [min..max], which holds the median with %.1f%% confidence, "
		 "not 95%%: 6 or more reach it.", least, 100 * ci.coverage);
	return true;
}
