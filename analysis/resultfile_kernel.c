/* resultfile_kernel.c — the kernel lock capture's files (lockbench
 * --kernel-locks): kernel-locks.csv, summary.csv's kernel_* keys, and how
 * they and kernel-hist.csv agree.  Formats: results/README.md. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "resultfile_parse.h"

/* A family of per-type keys and the total it splits: counts and sums add up
 * to it, maxima reach it. */
static const struct {
	const char *prefix, *total;
	bool is_max;
} kernel_splits[] = {
	{ "kernel_contentions_", "kernel_contentions", false },
	{ "kernel_wait_cycles_sum_", "kernel_wait_cycles_sum", false },
	{ "kernel_wait_cycles_max_", "kernel_wait_cycles_max", true },
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

		if (n == 0 && !tv)
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

#define KERNEL_LOCKS_HEADER "rank,lock,type,count,wait_cycles_sum,wait_cycles_mean,wait_cycles_max,caller,stack"
enum { KL_RANK, KL_LOCK, KL_TYPE, KL_COUNT, KL_SUM, KL_MEAN, KL_MAX, KL_CALLER, KL_STACK, KL_FIELDS };

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

/* Rank, address, type, the counts (count >= 1, max <= sum) and the mean
 * they give, of one row; false when any is off. */
static bool kernel_row_fields(const char *const *f, const size_t *flen, unsigned int rank,
			      struct result_kernel_row *row)
{
	char text[3][32];
	struct figure sum, count, mean;
	uint64_t r;

	if (!rf_parse_u64_span(f[KL_RANK], flen[KL_RANK], &r) || r != rank || !hex_address(f[KL_LOCK], flen[KL_LOCK]) ||
	    !rf_valid_key(f[KL_TYPE], flen[KL_TYPE]) || !rf_parse_u64_span(f[KL_COUNT], flen[KL_COUNT], &row->count) ||
	    !rf_parse_u64_span(f[KL_SUM], flen[KL_SUM], &row->sum) || !rf_parse_u64_span(f[KL_MAX], flen[KL_MAX], &row->max) ||
	    row->count == 0 || row->max > row->sum || flen[KL_CALLER] == 0 || flen[KL_STACK] == 0)
		return false;
	if (!field_figure(f[KL_SUM], flen[KL_SUM], text[0], sizeof(text[0]), &sum) ||
	    !field_figure(f[KL_COUNT], flen[KL_COUNT], text[1], sizeof(text[1]), &count) ||
	    !field_figure(f[KL_MEAN], flen[KL_MEAN], text[2], sizeof(text[2]), &mean) ||
	    !rf_derived_fits(&mean, &sum, &count, 1))
		return false;
	snprintf(row->lock, sizeof(row->lock), "%.*s", (int)flen[KL_LOCK], f[KL_LOCK]);
	snprintf(row->type, sizeof(row->type), "%.*s", (int)flen[KL_TYPE], f[KL_TYPE]);
	snprintf(row->caller, sizeof(row->caller), "%.*s", (int)flen[KL_CALLER], f[KL_CALLER]);
	return true;
}

int result_parse_kernel_locks(struct result_run *run, const char *buf, size_t len, const char *what,
			      char *err, size_t errlen)
{
	size_t pos = 0, n;
	const char *line, *f[KL_FIELDS];
	size_t flen[KL_FIELDS];
	unsigned int rows = 0;
	bool have_header = rf_next_line(buf, len, &pos, &line, &n);

	if (have_header && rf_crlf(line, n, what, 1, err, errlen))
		return -1;
	if (!have_header || n != sizeof(KERNEL_LOCKS_HEADER) - 1 || memcmp(line, KERNEL_LOCKS_HEADER, n) != 0) {
		snprintf(err, errlen, "%s: line 1: expected header '%s'", what, KERNEL_LOCKS_HEADER);
		return -1;
	}
	while (rf_next_line(buf, len, &pos, &line, &n)) {
		struct result_kernel_row *row = &run->kernel_row[rows];

		if (rf_crlf(line, n, what, rows + 2, err, errlen))
			return -1;
		if (rows >= RESULT_KERNEL_ROWS || !rf_printable(line, n) || rf_split_fields(line, n, f, flen, KL_FIELDS) != KL_FIELDS ||
		    !kernel_row_fields(f, flen, rows + 1, row)) {
			snprintf(err, errlen, "%s: line %u: not row %u of at most %d '%s' (count >= 1, max <= sum, "
				 "mean = sum / count)", what, rows + 2, rows + 1, RESULT_KERNEL_ROWS, KERNEL_LOCKS_HEADER);
			return -1;
		}
		if (rows > 0 && row->sum > run->kernel_row[rows - 1].sum) {
			snprintf(err, errlen, "%s: line %u: wait_cycles_sum %" PRIu64 " above the row before's %" PRIu64
				 " (rows go by total wait, longest first)", what, rows + 2, row->sum,
				 run->kernel_row[rows - 1].sum);
			return -1;
		}
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

/* Each kernel-locks.csv row is some of its type's waits: count, sum and max
 * within the type's, and the rows' counts within kernel_contentions. */
static int check_kernel_rows(const struct result_run *run, uint64_t contentions, char *err, size_t errlen)
{
	uint64_t seen = 0, count, sum, max;

	for (unsigned int i = 0; i < run->kernel_nrows; i++) {
		const struct result_kernel_row *r = &run->kernel_row[i];

		if (!type_figure(run, "kernel_contentions_", r->type, &count) ||
		    !type_figure(run, "kernel_wait_cycles_sum_", r->type, &sum) ||
		    !type_figure(run, "kernel_wait_cycles_max_", r->type, &max) ||
		    r->count > count || r->sum > sum || r->max > max) {
			snprintf(err, errlen, "%s: kernel-locks.csv rank %u (%s: %" PRIu64 " waits, %" PRIu64 " cycles, max %"
				 PRIu64 ") is more than summary.csv's %s figures", run->dir, i + 1, r->type, r->count,
				 r->sum, r->max, r->type);
			return -1;
		}
		seen += r->count;
	}
	if (seen > contentions) {
		snprintf(err, errlen, "%s: kernel-locks.csv's rows hold %" PRIu64 " waits, summary.csv's kernel_contentions "
			 "only %" PRIu64, run->dir, seen, contentions);
		return -1;
	}
	return 0;
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
