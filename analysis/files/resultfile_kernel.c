/* resultfile_kernel.c — the kernel lock capture's files (lockbench
 * --kernel-locks): kernel-locks.csv, summary.csv's kernel_* keys, and how
 * they and kernel-hist.csv agree.  Formats: results/README.md. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "resultfile_parse.h"

/* A family of per-type (or per-class) keys and the total it splits: counts
 * and sums add up to it, maxima reach it.  An optional family may be absent
 * (runs written before it). */
static const struct {
	const char *prefix, *total;
	bool is_max, optional;
} kernel_splits[] = {
	{ "kernel_contentions_", "kernel_contentions", false, false },
	{ "kernel_wait_cycles_sum_", "kernel_wait_cycles_sum", false, false },
	{ "kernel_wait_cycles_max_", "kernel_wait_cycles_max", true, false },
	{ "kernel_mutex_via_", "kernel_contentions_mutex", false, true },
	{ "kernel_mutex_cycles_sum_via_", "kernel_wait_cycles_sum_mutex", false, true },
	{ "kernel_mutex_cycles_max_via_", "kernel_wait_cycles_max_mutex", true, true },
};

/* The per-type values of one family: their sum (or max); false when the
 * sum overflows.  *n counts them. */
static bool split_total(const struct result_run *run, const char *prefix, bool is_max, uint64_t *out,
			unsigned int *n)
{
	uint64_t v;

	*out = 0;
	*n = 0;
	for (size_t i = 0; i < run->nkv; i++) {
		const char *val = run->kv[i].value;

		if (strncmp(run->kv[i].key, prefix, strlen(prefix)) != 0 || !rf_parse_u64_span(val, strlen(val), &v))
			continue;
		if (!is_max && *out + v < v)
			return false;
		*out = is_max ? (v > *out ? v : *out) : *out + v;
		(*n)++;
	}
	return true;
}

int rf_check_kernel_types(const struct result_run *run, const char *what, char *err, size_t errlen)
{
	for (size_t i = 0; i < sizeof(kernel_splits) / sizeof(kernel_splits[0]); i++) {
		const char *tv = result_get(run, kernel_splits[i].total);
		uint64_t total, parts;
		unsigned int n;
		bool fits = split_total(run, kernel_splits[i].prefix, kernel_splits[i].is_max, &parts, &n);

		if (n == 0 && (!tv || kernel_splits[i].optional))
			continue;
		if (!tv || !rf_parse_u64_span(tv, strlen(tv), &total) || !fits || parts != total) {
			snprintf(err, errlen, "%s: the %u %s* keys %s %s%" PRIu64 ", but %s is %s", what, n,
				 kernel_splits[i].prefix, kernel_splits[i].is_max ? "reach" : "add up to",
				 fits ? "" : "more than ", fits ? parts : UINT64_MAX, kernel_splits[i].total,
				 tv ? tv : "missing");
			return -1;
		}
	}
	return 0;
}

/*
 * kernel-locks.csv's two layouts: today's, a lock's exact figures then one
 * caller's among the waits with a stack; and the one before stacks were
 * bounded, one (lock, caller) pair per row, every wait with a stack.
 * Column numbers, -1 where a layout has none.
 */
static const struct kernel_layout {
	const char *header;
	size_t fields;
	int rank, lock, type, lcount, lsum, lmean, lmax, lstacks, count, sum, mean, max, caller, stack;
} kernel_layouts[] = {
	{ "rank,lock,type,lock_count,lock_wait_cycles_sum,lock_wait_cycles_mean,lock_wait_cycles_max,lock_stacks,"
	  "count,wait_cycles_sum,wait_cycles_mean,wait_cycles_max,caller,stack", 14,
	  0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13 },
	{ "rank,lock,type,count,wait_cycles_sum,wait_cycles_mean,wait_cycles_max,caller,stack", 9,
	  0, 1, 2, -1, -1, -1, -1, -1, 3, 4, 5, 6, 7, 8 },
};
#define KERNEL_FIELDS_MAX 14

/* "0x" and 1 to 16 lowercase hex digits: a kernel address. */
static bool hex_address(const char *s, size_t n)
{
	if (n < 3 || n > 18 || s[0] != '0' || s[1] != 'x')
		return false;
	for (size_t i = 2; i < n; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return false;
	return true;
}

/* A numeric field as a NUL-terminated figure; false when not a decimal. */
static bool field_figure(const char *s, size_t n, char *buf, size_t len, struct figure *f)
{
	if (n >= len)
		return false;
	memcpy(buf, s, n);
	buf[n] = '\0';
	return rf_decimal(buf, f);
}

/* count, sum, mean and max of a set of waits: max <= sum, mean = sum /
 * count, and count >= 1 unless `may_be_empty` (then all 0). */
static bool waits_fields(const char *const *f, const size_t *flen, int c, int s, int m, int x, bool may_be_empty,
			 uint64_t *count, uint64_t *sum, uint64_t *max)
{
	char text[3][32];
	struct figure fsum, fcount, fmean;

	if (!rf_parse_u64_span(f[c], flen[c], count) || !rf_parse_u64_span(f[s], flen[s], sum) ||
	    !rf_parse_u64_span(f[x], flen[x], max) || *max > *sum || (*count == 0 && (!may_be_empty || *sum != 0)))
		return false;
	return field_figure(f[s], flen[s], text[0], sizeof(text[0]), &fsum) &&
	       field_figure(f[c], flen[c], text[1], sizeof(text[1]), &fcount) &&
	       field_figure(f[m], flen[m], text[2], sizeof(text[2]), &fmean) && rf_derived_fits(&fmean, &fsum, &fcount, 1);
}

/* Rank, address, type, the lock's figures and its caller's (within them),
 * of one row; false when any is off. */
static bool kernel_row_fields(const struct kernel_layout *l, const char *const *f, const size_t *flen, unsigned int rank,
			      struct result_kernel_row *row)
{
	uint64_t r;

	row->has_lock = l->lcount >= 0;
	if (!rf_parse_u64_span(f[l->rank], flen[l->rank], &r) || r != rank || !hex_address(f[l->lock], flen[l->lock]) ||
	    !rf_valid_key(f[l->type], flen[l->type]) || flen[l->caller] == 0 || flen[l->stack] == 0)
		return false;
	if (row->has_lock &&
	    (!waits_fields(f, flen, l->lcount, l->lsum, l->lmean, l->lmax, false, &row->lock_count, &row->lock_sum,
			   &row->lock_max) ||
	     !rf_parse_u64_span(f[l->lstacks], flen[l->lstacks], &row->lock_stacks) || row->lock_stacks > row->lock_count))
		return false;
	if (!waits_fields(f, flen, l->count, l->sum, l->mean, l->max, row->has_lock && row->lock_stacks == 0, &row->count,
			  &row->sum, &row->max))
		return false;
	if (!row->has_lock) {  /* every wait had a stack: the pair is the lock's share */
		row->lock_count = row->lock_stacks = row->count;
		row->lock_sum = row->sum;
		row->lock_max = row->max;
	} else if (row->count > row->lock_stacks || row->sum > row->lock_sum || row->max > row->lock_max) {
		return false;
	}
	snprintf(row->lock, sizeof(row->lock), "%.*s", (int)flen[l->lock], f[l->lock]);
	snprintf(row->type, sizeof(row->type), "%.*s", (int)flen[l->type], f[l->type]);
	snprintf(row->caller, sizeof(row->caller), "%.*s", (int)flen[l->caller], f[l->caller]);
	return true;
}

static bool same_lock(const struct result_kernel_row *a, const struct result_kernel_row *b)
{
	return strcmp(a->lock, b->lock) == 0 && strcmp(a->type, b->type) == 0;
}

/* Rows go by their lock's total wait, a lock's rows together and alike in
 * their lock figures, each lock's callers by their wait (files before the
 * lock figures: by the pair's wait); 0, or -1 with the line's complaint. */
static int kernel_row_order(const struct result_run *run, unsigned int i, const char *what, char *err, size_t errlen)
{
	const struct result_kernel_row *row = &run->kernel_row[i], *prev = &run->kernel_row[i - 1];

	if (!row->has_lock) {
		if (row->sum <= prev->sum)
			return 0;
		snprintf(err, errlen, "%s: line %u: wait_cycles_sum %" PRIu64 " above the row before's %" PRIu64
			 " (rows go by total wait, longest first)", what, i + 2, row->sum, prev->sum);
		return -1;
	}
	if (same_lock(row, prev)) {
		if (row->sum <= prev->sum && row->lock_count == prev->lock_count && row->lock_sum == prev->lock_sum &&
		    row->lock_max == prev->lock_max && row->lock_stacks == prev->lock_stacks)
			return 0;
		snprintf(err, errlen, "%s: line %u: a row of the lock of the row before, with other lock figures or a "
			 "longer wait_cycles_sum (a lock's callers go longest first)", what, i + 2);
		return -1;
	}
	if (row->lock_sum > prev->lock_sum) {
		snprintf(err, errlen, "%s: line %u: lock_wait_cycles_sum %" PRIu64 " above the row before's %" PRIu64
			 " (rows go by their lock's total wait, longest first)", what, i + 2, row->lock_sum, prev->lock_sum);
		return -1;
	}
	for (unsigned int j = 0; j + 1 < i; j++)
		if (same_lock(&run->kernel_row[j], row)) {
			snprintf(err, errlen, "%s: line %u: lock %s %s again after another lock's rows (a lock's rows go "
				 "together)", what, i + 2, row->lock, row->type);
			return -1;
		}
	return 0;
}

int result_parse_kernel_locks(struct result_run *run, const char *buf, size_t len, const char *what,
			      char *err, size_t errlen)
{
	size_t pos = 0, n, flen[KERNEL_FIELDS_MAX];
	const char *line, *f[KERNEL_FIELDS_MAX];
	const struct kernel_layout *l = NULL;
	unsigned int rows = 0;
	bool have_header = rf_next_line(buf, len, &pos, &line, &n);

	if (have_header && rf_crlf(line, n, what, 1, err, errlen))
		return -1;
	for (size_t i = 0; have_header && i < sizeof(kernel_layouts) / sizeof(kernel_layouts[0]); i++)
		if (n == strlen(kernel_layouts[i].header) && memcmp(line, kernel_layouts[i].header, n) == 0)
			l = &kernel_layouts[i];
	if (!l) {
		snprintf(err, errlen, "%s: line 1: expected header '%s'", what, kernel_layouts[0].header);
		return -1;
	}
	while (rf_next_line(buf, len, &pos, &line, &n)) {
		struct result_kernel_row *row = &run->kernel_row[rows];

		if (rf_crlf(line, n, what, rows + 2, err, errlen))
			return -1;
		if (rows >= RESULT_KERNEL_ROWS || !rf_printable(line, n) || rf_split_fields(line, n, f, flen, l->fields) != l->fields ||
		    !kernel_row_fields(l, f, flen, rows + 1, row)) {
			snprintf(err, errlen, "%s: line %u: not row %u of at most %d '%s' (counts >= 1, max <= sum, "
				 "mean = sum / count, a caller's within its lock's)", what, rows + 2, rows + 1,
				 RESULT_KERNEL_ROWS, l->header);
			return -1;
		}
		if (rows > 0 && kernel_row_order(run, rows, what, err, errlen))
			return -1;
		rows++;
	}
	run->kernel_nrows = rows;
	run->has_kernel_locks = true;
	return 0;
}

/* summary.csv's figure `<prefix><type>` as a count; false when absent. */
static bool type_figure(const struct result_run *run, const char *prefix, const char *type, uint64_t *out)
{
	char key[RESULT_KEY_LEN * 2];
	const char *v;

	snprintf(key, sizeof(key), "%s%s", prefix, type);
	v = result_get(run, key);
	return v && rf_parse_u64_span(v, strlen(v), out);
}

/* kernel-hist.csv against summary.csv: its total is kernel_contentions, each
 * type column's total that type's kernel_contentions_<type>, and its
 * quantiles the kernel_wait_bin_ keys. */
static int check_kernel_hist(const struct result_run *run, uint64_t contentions, char *err, size_t errlen)
{
	uint64_t v;

	if (run->kernel_total != contentions) {
		snprintf(err, errlen, "%s: kernel-hist.csv holds %" PRIu64 " waits, summary.csv's kernel_contentions is %"
			 PRIu64, run->dir, run->kernel_total, contentions);
		return -1;
	}
	for (unsigned int t = 0; t < run->kernel_ntypes; t++)
		if (!type_figure(run, "kernel_contentions_", run->kernel_type[t], &v) || v != run->kernel_type_total[t]) {
			snprintf(err, errlen, "%s: kernel-hist.csv's %s column holds %" PRIu64
				 ", but summary.csv has no kernel_contentions_%s of that value", run->dir,
				 run->kernel_type[t], run->kernel_type_total[t], run->kernel_type[t]);
			return -1;
		}
	return rf_check_quantiles(run, "kernel_wait_bin_", run->kernel_hist, run->kernel_total, "kernel-hist.csv",
			       err, errlen);
}

/* summary.csv's count `key`, or `absent` when it has none. */
static uint64_t key_or(const struct result_run *run, const char *key, uint64_t absent)
{
	const char *v = result_get(run, key);
	uint64_t n;

	return v && rf_parse_u64_span(v, strlen(v), &n) ? n : absent;
}

/* The stacks the rows' locks took, against what bounded them (kernel_stacks,
 * _per_lock, _max; runs before those keys have none to check). */
static int check_kernel_stacks(const struct result_run *run, uint64_t stacks, uint64_t most, char *err, size_t errlen)
{
	uint64_t taken = key_or(run, "kernel_stacks", UINT64_MAX), per_lock = key_or(run, "kernel_stacks_per_lock", UINT64_MAX);
	uint64_t max = key_or(run, "kernel_stacks_max", UINT64_MAX), locks = key_or(run, "kernel_locks", UINT64_MAX);

	if (taken == UINT64_MAX)
		return 0;
	if (stacks > taken || most > per_lock || taken > max || (locks != UINT64_MAX && per_lock != UINT64_MAX &&
								  taken > per_lock * locks)) {
		snprintf(err, errlen, "%s: kernel-locks.csv's locks took %" PRIu64 " stacks (at most %" PRIu64 " one lock), "
			 "beyond summary.csv's kernel_stacks %" PRIu64 " or its bounds (kernel_stacks_per_lock, "
			 "kernel_stacks_max, kernel_locks)", run->dir, stacks, most, taken);
		return -1;
	}
	return 0;
}

/* Each kernel-locks.csv lock is some of its type's waits: count, sum and max
 * within the type's, the locks' counts within kernel_contentions, and its
 * callers' within its waits with a stack. */
static int check_kernel_rows(const struct result_run *run, uint64_t contentions, char *err, size_t errlen)
{
	uint64_t seen = 0, stacks = 0, most = 0, callers = 0, count, sum, max;

	for (unsigned int i = 0; i < run->kernel_nrows; i++) {
		const struct result_kernel_row *r = &run->kernel_row[i];
		bool first = !r->has_lock || i == 0 || !same_lock(r, &run->kernel_row[i - 1]);

		if (!type_figure(run, "kernel_contentions_", r->type, &count) ||
		    !type_figure(run, "kernel_wait_cycles_sum_", r->type, &sum) ||
		    !type_figure(run, "kernel_wait_cycles_max_", r->type, &max) ||
		    r->lock_count > count || r->lock_sum > sum || r->lock_max > max) {
			snprintf(err, errlen, "%s: kernel-locks.csv rank %u (%s: %" PRIu64 " waits, %" PRIu64 " cycles, max %"
				 PRIu64 ") is more than summary.csv's %s figures", run->dir, i + 1, r->type, r->lock_count,
				 r->lock_sum, r->lock_max, r->type);
			return -1;
		}
		if (first) {
			seen += r->lock_count;
			stacks += r->lock_stacks;
			most = r->lock_stacks > most ? r->lock_stacks : most;
			callers = 0;
		}
		callers += r->count;
		if (callers > r->lock_stacks) {
			snprintf(err, errlen, "%s: kernel-locks.csv rank %u: the callers of lock %s hold %" PRIu64 " waits, "
				 "its lock_stacks only %" PRIu64, run->dir, i + 1, r->lock, callers, r->lock_stacks);
			return -1;
		}
	}
	if (seen > contentions) {
		snprintf(err, errlen, "%s: kernel-locks.csv's rows hold %" PRIu64 " waits, summary.csv's kernel_contentions "
			 "only %" PRIu64, run->dir, seen, contentions);
		return -1;
	}
	return check_kernel_stacks(run, stacks, most, err, errlen);
}

/* The kernel files and summary.csv's kernel_* keys come together (a run
 * without --kernel-locks, or written before it, has none of them). */
int rf_check_kernel(const struct result_run *run, char *err, size_t errlen)
{
	const char *key = rf_key_with_prefix(run, "kernel_"), *cont = result_get(run, "kernel_contentions");
	uint64_t contentions;

	if (!key && !run->has_kernel && !run->has_kernel_locks)
		return 0;
	if (!cont || !run->has_kernel || !run->has_kernel_locks || !rf_parse_u64_span(cont, strlen(cont), &contentions)) {
		snprintf(err, errlen, "%s: kernel-hist.csv, kernel-locks.csv and summary.csv's kernel_contentions come "
			 "together, but this run has %s%s%s", run->dir, run->has_kernel ? "kernel-hist.csv " : "",
			 run->has_kernel_locks ? "kernel-locks.csv " : "", cont ? "kernel_contentions" :
			 key ? key : "");
		return -1;
	}
	return check_kernel_hist(run, contentions, err, errlen) || check_kernel_rows(run, contentions, err, errlen)
		? -1 : 0;
}
