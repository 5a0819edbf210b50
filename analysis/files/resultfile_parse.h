/*
 * resultfile_parse.h — INTERNAL to the result-file readers (resultfile*.c):
 * the helpers their files share.  Everything else includes resultfile.h,
 * the public interface, only.  Each helper is described where it is defined.
 */
#ifndef LOCKBENCH_RESULTFILE_PARSE_H
#define LOCKBENCH_RESULTFILE_PARSE_H

#include "resultfile.h"

/* A figure as written, and how far the writer's rounding may have moved it:
 * half a unit of its last printed digit (0 for whole numbers). */
struct figure {
	const char *text;
	double value, slack;
};

/* Lines, fields and numbers (resultfile_parse.c). */
bool rf_next_line(const char *buf, size_t len, size_t *pos, const char **line, size_t *linelen);
bool rf_valid_key(const char *s, size_t n);
bool rf_printable(const char *s, size_t n);
bool rf_crlf(const char *line, size_t n, const char *what, size_t lineno, char *err, size_t errlen);
bool rf_kv_line(const char *line, size_t n, size_t lineno, const char *what, size_t *klen,
		const char **value, size_t *vlen, char *err, size_t errlen);
bool rf_parse_u64_span(const char *s, size_t n, uint64_t *out);
size_t rf_split_fields(const char *line, size_t n, const char **f, size_t *flen, size_t max);
bool rf_decimal(const char *s, struct figure *out);
bool rf_derived_fits(const struct figure *f, const struct figure *num, const struct figure *den,
		     double scale);

/* A file's lines kept as written, split at each line's first comma
 * (resultfile_parse.c); SKIP: its header.  0, or -1 out of memory. */
int rf_keep_lines(struct result_lines *l, const char *buf, size_t len, bool skip_header);
void rf_lines_free(struct result_lines *l);

/* An --exec run's metric keys: metric_NAME, metric_better_NAME. */
#define METRIC_PREFIX "metric_"
#define METRIC_BETTER_PREFIX "metric_better_"

/* A run's summary.csv keys (resultfile_run.c). */
const char *rf_timed_key(const struct result_run *run, const char *timed, const char *exact);
const char *rf_key_with_prefix(const struct result_run *run, const char *prefix);

/* The checks one file kind's reader asks of another's. */
int rf_check_exec(const struct result_run *run, const char *what, char *err, size_t errlen);
int rf_check_summary(const struct result_run *run, const char *what, char *err, size_t errlen);
int rf_check_workload_metrics(const struct result_run *run, const char *what, char *err, size_t errlen);
int rf_check_quantiles(const struct result_run *run, const char *stem, const uint64_t *bins,
		       uint64_t total, const char *file, char *err, size_t errlen);
int rf_check_kernel_types(const struct result_run *run, const char *what, char *err, size_t errlen);
int rf_check_kernel(const struct result_run *run, char *err, size_t errlen);

#endif
