/*
 * compare_figures.c — lbcompare's figures: a variant's median over its
 * repetitions with its interval, the columns of the tables, and the verdict
 * of a variant against the baseline (compare.h).
 */
#include <stdlib.h>
#include <string.h>

#include "compare.h"

/* ---- figures: median and spread over repetitions ---- */

int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* `scale` converts units (60: per second -> per minute); with `per`, each
 * repetition's key / per (0 where per is 0). */
static int figure_per(const struct variant *v, const char *key, const char *per, double scale, struct stat3 *out)
{
	double vals[64], den;

	for (unsigned int i = 0; i < v->nreps; i++) {
		if (result_number(v->reps[i], key, &vals[i], err, sizeof(err)) ||
		    (per && result_number(v->reps[i], per, &den, err, sizeof(err))))
			return -1;
		vals[i] *= scale;
		if (per)
			vals[i] = den > 0 ? vals[i] / den : 0;
	}
	out->n = v->nreps;
	memcpy(out->vals, vals, v->nreps * sizeof(vals[0]));
	stats_median_ci(vals, v->nreps, STATS_LEVEL, &out->ci);
	qsort(vals, v->nreps, sizeof(vals[0]), cmp_double);
	out->min = vals[0];
	out->max = vals[v->nreps - 1];
	out->median = v->nreps % 2 ? vals[v->nreps / 2]
				   : (vals[v->nreps / 2 - 1] + vals[v->nreps / 2]) / 2;
	return 0;
}

int figure(const struct variant *v, const char *key, double scale, struct stat3 *out)
{
	return figure_per(v, key, NULL, scale, out);
}

/* The verdict's words for a column with a ratio. */
enum sense column_sense(const struct column *col)
{
	size_t n = strlen(col->key);

	if (strcmp(col->key, "ops_per_s") == 0)
		return SENSE_RATE;
	if (strcmp(col->key, "cpu_us_per_op") == 0)
		return SENSE_COST;
	if (n >= 11 && strcmp(col->key + n - 11, "cycles_mean") == 0)
		return SENSE_TIME;
	return SENSE_COUNT;
}

/* The key a variant's cell shows: the column's, or the kernel row's own. */
static const char *column_key(const struct variant *v, const struct column *col)
{
	return v->kernel_row && col->kernel_key ? col->kernel_key : col->key;
}

/* Whether every repetition of v wrote `key`. */
bool has_key(const struct variant *v, const char *key)
{
	for (unsigned int i = 0; i < v->nreps; i++)
		if (!result_get(v->reps[i], key))
			return false;
	return true;
}

/* ---- the verdict: a variant against the baseline, over repetitions ---- */

void judge(const struct stat3 *s, const struct stat3 *base, struct verdict *vd)
{
	*vd = (struct verdict){ .tested = s->n >= 2 && base->n >= 2 };
	if (!vd->tested || stats_mann_whitney(s->vals, s->n, base->vals, base->n, &vd->mwu) != 0) {
		vd->tested = false;
		return;
	}
	vd->direction = stats_direction(&vd->mwu, s->n, base->n, STATS_LEVEL);
	vd->ratio_ok = stats_ratio_ci(s->vals, s->n, base->vals, base->n, STATS_LEVEL, &vd->ratio) == 0;
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
	};

	if (!vd->tested)
		return "-";
	if (vd->direction == 0)
		return "no difference";
	return words[sense][vd->direction > 0];
}

enum missing figure_missing(const struct variant *v, const struct column *col)
{
	const char *key = column_key(v, col);

	if (strcmp(v->timing, "off") == 0 && strstr(key, "acq_cycles"))
		return FIGURE_UNTIMED;
	if (strcmp(key, KERNEL_NA) == 0)
		return FIGURE_KERNEL;
	if (col->optional && !has_key(v, key))
		return FIGURE_OLD;
	return FIGURE_OK;
}

/* Variant i's figure and the baseline's (*base_ok false when it lacks it).
 * 0, or -1 with err set. */
int figure_pair(const struct group *g, unsigned int i, const struct column *col, struct stat3 *s,
		struct stat3 *base, bool *base_ok)
{
	/* A baseline without the key (runs without --kernel-locks beside runs
	 * with it) gives no ratio, as one without the figure does. */
	*base_ok = figure_missing(&g->v[0], col) == FIGURE_OK && has_key(&g->v[0], column_key(&g->v[0], col));
	if (figure_per(&g->v[i], column_key(&g->v[i], col), col->per, col->scale, s) ||
	    (*base_ok && figure_per(&g->v[0], column_key(&g->v[0], col), col->per, col->scale, base)))
		return -1;
	return 0;
}

unsigned int group_max_reps(const struct group *g)
{
	unsigned int nreps = 0;

	for (unsigned int i = 0; i < g->nv; i++)
		nreps = g->v[i].nreps > nreps ? g->v[i].nreps : nreps;
	return nreps;
}

/* The figures with a ratio to the baseline, in the order of the tables:
 * throughput and CPU cost, then the patch's contended figures, then those
 * of all acquisitions.  Returns how many (at most 6). */
unsigned int ratio_columns(const struct group *g, struct column *cols)
{
	bool jobs = strcmp(g->unit, "jobs") == 0;
	const struct column all[] = {
		{ jobs ? "Jobs/min" : "Ops/sec", "ops_per_s", jobs ? 60 : 1, "%.0f", false, false, NULL, NULL },
		{ "CPU us/op", "cpu_us_per_op", 1, "%.3f", false, false, NULL, NULL },
		{ "#contentions", "contentions", 1, "%.0f", false, false, "kernel_contentions", NULL },
		{ "mean cycles", "contended_acq_cycles_mean", 1, "%.0f", false, true, "kernel_wait_cycles_mean", NULL },
		{ "acquisitions", "acquisitions", 1, "%.0f", false, false, KERNEL_NA, NULL },
		{ "mean cycles", "acq_cycles_mean", 1, "%.0f", false, false, KERNEL_NA, NULL },
	};

	memcpy(cols, all, sizeof(all));
	return sizeof(all) / sizeof(all[0]);
}
