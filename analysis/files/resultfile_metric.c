/* resultfile_metric.c — a workload's own metrics as summary.csv declares them
 * (common/metric.def; results/README.md, "A workload's own metrics"): what
 * the reader accepts of them, and the list the comparison takes.  Nothing
 * here knows a workload: a run says what its metrics are. */
#include <stdio.h>
#include <string.h>

#include "resultfile_parse.h"

static const char *const sense_word[] = {
#define SENSE_WORD(name, word) [RESULT_SENSE_##name] = word,
	METRIC_SENSES(SENSE_WORD)
#undef SENSE_WORD
};
#define NSENSES (sizeof(sense_word) / sizeof(sense_word[0]))

/* The three declaring prefixes, and the most bytes each one's value may have. */
static const struct {
	const char *prefix;
	size_t max;
} declaring[] = {
	{ METRIC_SENSE_PREFIX, 8 }, { METRIC_UNIT_PREFIX, METRIC_UNIT_MAX }, { METRIC_TITLE_PREFIX, METRIC_TITLE_MAX },
};
#define NDECLARING (sizeof(declaring) / sizeof(declaring[0]))

static int sense_of(const char *word)
{
	for (size_t i = 0; i < NSENSES; i++)
		if (strcmp(sense_word[i], word) == 0)
			return (int)i;
	return -1;
}

/* The metric a declaring key names (its key past the prefix), or NULL: not
 * a declaring key.  *which: its declaring[] index. */
static const char *declared_name(const char *key, size_t *which)
{
	for (size_t i = 0; i < NDECLARING; i++)
		if (strncmp(key, declaring[i].prefix, strlen(declaring[i].prefix)) == 0) {
			*which = i;
			return key + strlen(declaring[i].prefix);
		}
	return NULL;
}

/* The value of NAME's declaring key number `which`, or NULL. */
static const char *declared(const struct result_run *run, const char *name, size_t which)
{
	char key[RESULT_KEY_LEN + 16];

	snprintf(key, sizeof(key), "%s%s", declaring[which].prefix, name);
	return result_get(run, key);
}

/* The metric NAME itself, once for its sense_of_ line: a decimal >= 0 (its
 * ratio between runs is taken).  That it is no figure of lockbench's own
 * is resultfile_summary.c's check, which knows them. */
static int check_metric_value(const struct result_run *run, const char *name, const char *what, char *err,
			      size_t errlen)
{
	const char *value = result_get(run, name);
	struct figure f;

	if (!value) {
		snprintf(err, errlen, "%s: %s%s declares a metric, but there is no %s", what, METRIC_SENSE_PREFIX,
			 name, name);
		return -1;
	}
	if (!rf_decimal(value, &f) || value[0] == '-') {
		snprintf(err, errlen, "%s: %s is '%.80s', not a decimal number of 0 or more", what, name, value);
		return -1;
	}
	return 0;
}

/* One declaring line: its value, and its metric's other declaring lines. */
static int check_declaring(const struct result_run *run, const char *key, const char *value, const char *what,
			   char *err, size_t errlen)
{
	size_t which, n = strlen(value);
	const char *name = declared_name(key, &which);

	if (!*name) {
		snprintf(err, errlen, "%s: %s names no metric", what, key);
		return -1;
	}
	if (n == 0 || n > declaring[which].max) {
		snprintf(err, errlen, "%s: %s is '%.80s', not 1 to %zu bytes", what, key, value,
			 declaring[which].max);
		return -1;
	}
	if (which == 0 && sense_of(value) < 0) {
		snprintf(err, errlen, "%s: %s is '%.80s', not count, rate, time, cost, higher or lower", what, key,
			 value);
		return -1;
	}
	for (size_t i = 0; i < NDECLARING; i++)
		if (!declared(run, name, i)) {
			snprintf(err, errlen, "%s: %s has no %s%s beside it", what, key, declaring[i].prefix, name);
			return -1;
		}
	return which == 0 ? check_metric_value(run, name, what, err, errlen) : 0;
}

int rf_check_workload_metrics(const struct result_run *run, const char *what, char *err, size_t errlen)
{
	unsigned int n = 0;

	for (size_t i = 0; i < run->nkv; i++) {
		size_t which;

		if (!declared_name(run->kv[i].key, &which))
			continue;
		if (check_declaring(run, run->kv[i].key, run->kv[i].value, what, err, errlen))
			return -1;
		if (which == 0 && ++n > RESULT_METRICS_MAX) {
			snprintf(err, errlen, "%s: more than %d workload metrics (%s)", what, RESULT_METRICS_MAX,
				 run->kv[i].key);
			return -1;
		}
	}
	return 0;
}

unsigned int result_workload_metrics(const struct result_run *run, struct result_workload_metric *m)
{
	unsigned int n = 0;

	for (size_t i = 0; i < run->nkv && n < RESULT_METRICS_MAX; i++) {
		size_t which;
		const char *name = declared_name(run->kv[i].key, &which);

		/* The reader has checked them (rf_check_workload_metrics). */
		if (!name || which != 0)
			continue;
		snprintf(m[n].key, sizeof(m[n].key), "%s", name);
		snprintf(m[n].unit, sizeof(m[n].unit), "%s", declared(run, name, 1));
		snprintf(m[n].title, sizeof(m[n].title), "%s", declared(run, name, 2));
		m[n++].sense = (enum result_sense)sense_of(run->kv[i].value);
	}
	return n;
}

bool result_rate_key(const struct result_run *run, char *buf, size_t len)
{
	const char *rate_unit = result_get(run, "rate_unit"), *slash = rate_unit ? strchr(rate_unit, '/') : NULL;

	if (!slash || strcmp(slash, "/min") != 0)
		return false;
	snprintf(buf, len, "%.*s_per_min", (int)(slash - rate_unit), rate_unit);
	return true;
}
