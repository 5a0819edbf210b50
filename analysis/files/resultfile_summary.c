/* resultfile_summary.c — summary.csv (result_parse_summary): its lines, and
 * what its figures may be (results/README.md, "What a reader rejects"). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "../../common/summary.def"
#include "../../locks/spin_exit.h"
#include "resultfile_parse.h"

#define SUMMARY_FORMAT "lockbench-summary-1"

/* ---- what the figures may be: results/README.md, "What a reader rejects" ----
 *
 * Every check looks only at keys that are present: a lock or workload that
 * does not write a key is not at fault, and keys this reader does not know
 * are ignored. */

enum figure_kind {
	FIG_COUNT,          /* a whole number >= 0 */
	FIG_POSITIVE,       /* a whole number >= 1 */
	FIG_AMOUNT,         /* a decimal >= 0: seconds, rates, means, percentages */
};

/* The contract's figures (common/summary.def) by their check, then the keys
 * outside it: the settings, the conditional ones, the file workloads'
 * counts and the kernel capture's.  A workload's own metrics are checked as
 * its runs declare them (resultfile_metric.c), its rate per minute as the
 * rate (check_rate). */
static const struct {
	const char *key;
	enum figure_kind kind;
} figure_kinds[] = {
#define FIGURE_KIND(key, format, value, check, sense, title, shown) { #key, FIG_##check },
	SUMMARY_FIGURES(FIGURE_KIND)
#undef FIGURE_KIND
	{ "threads", FIG_POSITIVE },
	{ "cs_cycles", FIG_COUNT }, { "think_cycles", FIG_COUNT }, { "spin_budget_cycles", FIG_COUNT },
	{ "spin_budget_effective_cycles", FIG_COUNT }, { "seed", FIG_COUNT },
	{ "checks_warned", FIG_COUNT },
#define FIGURE_KIND(key, format, value, check, sense, title, shown) { #key, FIG_##check },
	SUMMARY_PREEMPT_FIGURES(FIGURE_KIND)
#undef FIGURE_KIND
	{ "files_created", FIG_COUNT }, { "files_removed", FIG_COUNT }, { "names_per_job", FIG_COUNT },
	{ "duration_s", FIG_AMOUNT }, { "warmup_s", FIG_AMOUNT }, { "measured_s", FIG_AMOUNT },
	{ "op_cost_us_mean", FIG_AMOUNT }, { "op_cost_us_max", FIG_AMOUNT },
	{ "op_deviance_us_mean", FIG_AMOUNT }, { "cpu_utilisation_pct", FIG_AMOUNT },
	{ "kernel_contentions", FIG_COUNT }, { "kernel_wait_cycles_sum", FIG_COUNT },
	{ "kernel_wait_cycles_min", FIG_COUNT }, { "kernel_wait_cycles_max", FIG_COUNT },
	{ "kernel_wait_bin_p50", FIG_COUNT }, { "kernel_wait_bin_p99", FIG_COUNT },
	{ "kernel_untimed", FIG_COUNT }, { "kernel_unpaired", FIG_COUNT }, { "kernel_lock_pairs", FIG_COUNT },
	{ "kernel_wait_cycles_mean", FIG_AMOUNT },
};

/* Families of count keys: `spin_exit_<reason>` (locks/spin_exit.h), and the kernel lock
 * capture's per-type figures, one `<prefix><type>` per lock type. */
static const char *const count_prefixes[] = {
	SPIN_EXIT_KEY_PREFIX, "kernel_contentions_", "kernel_wait_cycles_sum_", "kernel_wait_cycles_max_",
};

/* An acquisition-phase count: `acq_` and one lowercase word (acq_fast,
 * acq_spin, acq_nosleep, acq_sleep, and any phase a later version adds;
 * acq_cycles_sum has a second `_`).  Where a lock records
 * phases they add up to `acquisitions`. */
static bool phase_key(const char *key)
{
	size_t n = strlen(key);

	if (n <= 4 || strncmp(key, "acq_", 4) != 0)
		return false;
	for (size_t i = 4; i < n; i++)
		if (key[i] < 'a' || key[i] > 'z')
			return false;
	return true;
}

/* The kind of a key's value, or -1: text, or a key this reader does not know. */
static int figure_kind(const char *key)
{
	if (phase_key(key))
		return FIG_COUNT;
	for (size_t i = 0; i < sizeof(count_prefixes) / sizeof(count_prefixes[0]); i++)
		if (strncmp(key, count_prefixes[i], strlen(count_prefixes[i])) == 0)
			return FIG_COUNT;
	for (size_t i = 0; i < sizeof(figure_kinds) / sizeof(figure_kinds[0]); i++)
		if (strcmp(figure_kinds[i].key, key) == 0)
			return (int)figure_kinds[i].kind;
	return -1;
}

/* A workload's declared metric (sense_of_KEY) is none of lockbench's own
 * figures: the tables would show that one twice, under two senses. */
static int check_metric_keys(const struct result_run *run, const char *what, char *err, size_t errlen)
{
	for (size_t i = 0; i < run->nkv; i++) {
		const char *key = run->kv[i].key, *name = key + strlen(METRIC_SENSE_PREFIX);

		if (strncmp(key, METRIC_SENSE_PREFIX, strlen(METRIC_SENSE_PREFIX)) == 0 && figure_kind(name) >= 0) {
			snprintf(err, errlen, "%s: %s: %s is one of lockbench's own figures, not a workload's metric",
				 what, key, name);
			return -1;
		}
	}
	return 0;
}

/* One key's value against its kind. */
static int check_kind(const char *key, const char *value, enum figure_kind kind, const char *what,
		      char *err, size_t errlen)
{
	struct figure f;
	uint64_t whole;

	if (!rf_decimal(value, &f)) {
		snprintf(err, errlen, "%s: %s is '%s', not a decimal number", what, key, value);
		return -1;
	}
	if (kind == FIG_AMOUNT && value[0] == '-') {
		snprintf(err, errlen, "%s: %s is %s, below 0", what, key, value);
		return -1;
	}
	if (kind != FIG_AMOUNT && !rf_parse_u64_span(value, strlen(value), &whole)) {
		snprintf(err, errlen, "%s: %s is %s, not a count (a whole number from 0 to 2^64-1)",
			 what, key, value);
		return -1;
	}
	if (kind == FIG_POSITIVE && whole == 0) {
		snprintf(err, errlen, "%s: %s is %s, must be at least 1", what, key, value);
		return -1;
	}
	return 0;
}

/* The figure of a key known to be a valid decimal; false when absent. */
static bool figure_of(const struct result_run *run, const char *key, struct figure *out)
{
	const char *v = result_get(run, key);

	return v && rf_decimal(v, out);
}

/* lesser <= greater, where both are present. */
static int check_order(const struct result_run *run, const char *lesser, const char *greater,
		       const char *what, char *err, size_t errlen)
{
	struct figure a, b;

	if (!figure_of(run, lesser, &a) || !figure_of(run, greater, &b) || a.value <= b.value)
		return 0;
	snprintf(err, errlen, "%s: %s is %s, above %s %s", what, lesser, a.text, greater, b.text);
	return -1;
}

/* A figure the writer derives from others: key = scale * (num [+ num2]) / den,
 * 0 when den is 0. */
struct derived {
	const char *key, *num, *num2, *den;
	double scale;
	const char *scale_text;
};

static const struct derived derived_figures[] = {
	{ "ops_per_s", "ops", NULL, "measured_s", 1, NULL },
	{ "cpu_us_per_op", "cpu_user_s", "cpu_sys_s", "ops", 1e6, "1e6" },
	{ "acq_cycles_mean", "acq_cycles_sum", NULL, "acquisitions", 1, NULL },
	{ "contended_acq_cycles_mean", "contended_acq_cycles_sum", NULL, "contentions", 1, NULL },
	{ "kernel_wait_cycles_mean", "kernel_wait_cycles_sum", NULL, "kernel_contentions", 1, NULL },
};

/* The cycle figures cover the timed acquisitions (--timing): their means
 * divide by the timed counts, where the run wrote them. */
static const char *denominator(const struct result_run *run, const char *den)
{
	if (strcmp(den, "acquisitions") == 0)
		return rf_timed_key(run, "timed_acquisitions", den);
	if (strcmp(den, "contentions") == 0)
		return rf_timed_key(run, "timed_contentions", den);
	return den;
}

static int check_derived(const struct result_run *run, const struct derived *d, const char *what,
			 char *err, size_t errlen)
{
	struct figure f, num, num2 = { "0", 0, 0 }, den;
	char expr[160];
	const char *den_key = denominator(run, d->den);

	if (!figure_of(run, d->key, &f) || !figure_of(run, d->num, &num) || !figure_of(run, den_key, &den) ||
	    (d->num2 && !figure_of(run, d->num2, &num2)))
		return 0;
	/* num + num2 as one figure: the slack of a sum is the sum of slacks */
	num.value += num2.value;
	num.slack += num2.slack;
	if (rf_derived_fits(&f, &num, &den, d->scale))
		return 0;
	if (d->num2)
		snprintf(expr, sizeof(expr), "%s * (%s + %s) / %s is %s * (%s + %s) / %s", d->scale_text,
			 d->num, d->num2, den_key, d->scale_text, num.text, num2.text, den.text);
	else if (d->scale_text)
		snprintf(expr, sizeof(expr), "%s * %s / %s is %s * %s / %s", d->scale_text, d->num, den_key,
			 d->scale_text, num.text, den.text);
	else
		snprintf(expr, sizeof(expr), "%s / %s is %s / %s", d->num, den_key, num.text, den.text);
	snprintf(err, errlen, "%s: %s is %s, but %s = %.3f", what, d->key, f.text, expr,
		 den.value > 0 ? d->scale * num.value / den.value : 0);
	return -1;
}

/* A workload's rate per minute (rate_unit UNIT/min), where the run wrote
 * it as UNIT_per_min: a decimal >= 0, and 60 * ops / measured_s.  Known
 * from rate_unit alone, so runs written before a workload declared its
 * metrics are checked as they were. */
static int check_rate(const struct result_run *run, bool derived, const char *what, char *err, size_t errlen)
{
	char key[RESULT_KEY_LEN];
	const char *value;
	struct derived d = { key, "ops", NULL, "measured_s", 60, "60" };

	if (!result_rate_key(run, key, sizeof(key)) || !(value = result_get(run, key)))
		return 0;
	return derived ? check_derived(run, &d, what, err, errlen)
		       : check_kind(key, value, FIG_AMOUNT, what, err, errlen);
}

/* Where a lock records phases (any phase count nonzero), they add up to
 * `acquisitions`. */
static int check_phases(const struct result_run *run, const char *what, char *err, size_t errlen)
{
	char terms[RESULT_VALUE_LEN * 2] = "";
	size_t used = 0;
	uint64_t sum = 0, acquisitions, count;
	const char *acq = result_get(run, "acquisitions");
	bool overflow = false;

	if (!acq || !rf_parse_u64_span(acq, strlen(acq), &acquisitions))
		return 0;
	for (size_t i = 0; i < run->nkv; i++) {
		const char *v = run->kv[i].value;

		if (!phase_key(run->kv[i].key) || !rf_parse_u64_span(v, strlen(v), &count))
			continue;
		overflow |= sum + count < sum;
		sum += count;
		if (used < sizeof(terms))
			used += (size_t)snprintf(terms + used, sizeof(terms) - used, "%s%s %s", used ? " + " : "",
						 run->kv[i].key, v);
	}
	if (sum == 0 || (sum == acquisitions && !overflow))
		return 0;
	snprintf(err, errlen, "%s: phase counts %s add up to %s%" PRIu64 ", but acquisitions is %s", what,
		 terms, overflow ? "more than " : "", overflow ? UINT64_MAX : sum, acq);
	return -1;
}

/* `timing` (--timing) is all, off or sample:N (N >= 2); a run that wrote it
 * wrote its timed counts, which `all` makes equal to the exact ones and `off`
 * makes 0 (results/README.md).  Runs written before --timing have neither. */
static int check_timing(const struct result_run *run, const char *what, char *err, size_t errlen)
{
	static const char *const pairs[][2] = {
		{ "timed_acquisitions", "acquisitions" }, { "timed_contentions", "contentions" },
	};
	const char *mode = result_get(run, "timing");
	uint64_t n;

	if (!mode)
		return 0;
	if (strcmp(mode, "all") != 0 && strcmp(mode, "off") != 0 &&
	    (strncmp(mode, "sample:", 7) != 0 || !rf_parse_u64_span(mode + 7, strlen(mode + 7), &n) || n < 2)) {
		snprintf(err, errlen, "%s: timing is '%s', not all, off or sample:N (N >= 2)", what, mode);
		return -1;
	}
	for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
		const char *timed = result_get(run, pairs[i][0]), *exact = result_get(run, pairs[i][1]);
		uint64_t t, e;

		/* Counts already: check_kind has seen them. */
		if (!timed || !rf_parse_u64_span(timed, strlen(timed), &t)) {
			snprintf(err, errlen, "%s: timing is %s but there is no %s", what, mode, pairs[i][0]);
			return -1;
		}
		if (strcmp(mode, "all") == 0 && exact && rf_parse_u64_span(exact, strlen(exact), &e) && t != e) {
			snprintf(err, errlen, "%s: timing is all, but %s is %s and %s %s", what, pairs[i][0], timed,
				 pairs[i][1], exact);
			return -1;
		}
		if (strcmp(mode, "off") == 0 && t != 0) {
			snprintf(err, errlen, "%s: timing is off, but %s is %s", what, pairs[i][0], timed);
			return -1;
		}
	}
	return 0;
}

int rf_check_summary(const struct result_run *run, const char *what, char *err, size_t errlen)
{
	static const char *const orders[][2] = {
		{ "contentions", "acquisitions" }, { "ops", "ops_all" }, { "acq_cycles_min", "acq_cycles_max" },
		{ "ops_thread_min", "ops_thread_max" }, { "acq_bin_p50", "acq_bin_p99" },
		{ "contended_acq_cycles_min", "contended_acq_cycles_max" },
		{ "contended_acq_bin_p50", "contended_acq_bin_p99" },
		/* the contended acquisitions are some of all of them */
		{ "contended_acq_cycles_sum", "acq_cycles_sum" }, { "contended_acq_cycles_max", "acq_cycles_max" },
		/* --timing: the timed acquisitions are some of all of them */
		{ "timed_acquisitions", "acquisitions" }, { "timed_contentions", "contentions" },
		{ "timed_contentions", "timed_acquisitions" },
		{ "kernel_wait_cycles_min", "kernel_wait_cycles_max" }, { "kernel_wait_bin_p50", "kernel_wait_bin_p99" },
		{ "kernel_wait_cycles_max", "kernel_wait_cycles_sum" },
		/* the trylocks before queueing are some of the acquisitions without sleeping */
		{ "nosleep_unqueued", "acq_nosleep" },
	};
	static const char *const bins[] = {
		"acq_bin_p50", "acq_bin_p99", "contended_acq_bin_p50", "contended_acq_bin_p99",
		"kernel_wait_bin_p50", "kernel_wait_bin_p99",
	};
	struct figure f;

	for (size_t i = 0; i < run->nkv; i++) {
		int kind = figure_kind(run->kv[i].key);

		if (kind >= 0 && check_kind(run->kv[i].key, run->kv[i].value, (enum figure_kind)kind, what,
					    err, errlen))
			return -1;
	}
	if (check_rate(run, false, what, err, errlen))
		return -1;
	if (figure_of(run, "threads", &f) && f.value > RESULT_MAX_THREADS) {
		snprintf(err, errlen, "%s: threads is %s, above lockbench's limit %d", what, f.text,
			 RESULT_MAX_THREADS);
		return -1;
	}
	for (size_t i = 0; i < sizeof(bins) / sizeof(bins[0]); i++)
		if (figure_of(run, bins[i], &f) && f.value >= RESULT_BINS) {
			snprintf(err, errlen, "%s: %s is %s, beyond the histogram's bins 0..%d", what, bins[i],
				 f.text, RESULT_BINS - 1);
			return -1;
		}
	for (size_t i = 0; i < sizeof(orders) / sizeof(orders[0]); i++)
		if (check_order(run, orders[i][0], orders[i][1], what, err, errlen))
			return -1;
	if (check_timing(run, what, err, errlen))
		return -1;
	for (size_t i = 0; i < sizeof(derived_figures) / sizeof(derived_figures[0]); i++)
		if (check_derived(run, &derived_figures[i], what, err, errlen))
			return -1;
	if (check_rate(run, true, what, err, errlen) || check_metric_keys(run, what, err, errlen) ||
	    rf_check_workload_metrics(run, what, err, errlen))
		return -1;
	return check_phases(run, what, err, errlen) || rf_check_kernel_types(run, what, err, errlen) ||
			       rf_check_exec(run, what, err, errlen)
		       ? -1
		       : 0;
}

int result_parse_summary(struct result_run *run, const char *buf, size_t len, const char *what,
			 char *err, size_t errlen)
{
	size_t pos = 0, n, lineno = 0, klen = 0, vlen = 0;
	const char *line, *fmt, *value = NULL;

	run->nkv = 0;
	while (rf_next_line(buf, len, &pos, &line, &n)) {
		if (!rf_kv_line(line, n, ++lineno, what, &klen, &value, &vlen, err, errlen))
			return -1;
		if (lineno == 1)
			continue;
		if (vlen >= RESULT_VALUE_LEN) {
			snprintf(err, errlen, "%s: line %zu: not a 'key,value' line", what, lineno);
			return -1;
		}
		if (run->nkv >= RESULT_MAX_KEYS) {
			snprintf(err, errlen, "%s: more than %d keys", what, RESULT_MAX_KEYS);
			return -1;
		}
		memcpy(run->kv[run->nkv].key, line, klen);
		run->kv[run->nkv].key[klen] = '\0';
		if (result_get(run, run->kv[run->nkv].key)) {
			snprintf(err, errlen, "%s: line %zu: key '%s' repeated", what, lineno, run->kv[run->nkv].key);
			return -1;
		}
		memcpy(run->kv[run->nkv].value, value, vlen);
		run->kv[run->nkv].value[vlen] = '\0';
		run->nkv++;
	}
	if (lineno == 0) {
		snprintf(err, errlen, "%s: empty file", what);
		return -1;
	}
	fmt = result_get(run, "format");
	if (!fmt || strcmp(fmt, SUMMARY_FORMAT) != 0) {
		snprintf(err, errlen, "%s: not a %s file", what, SUMMARY_FORMAT);
		return -1;
	}
	return rf_check_summary(run, what, err, errlen);
}
