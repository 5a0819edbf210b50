/*
 * markdown_runs.c — the report's account of the runs themselves: the noise
 * they met, the sweep's verdicts, the machine, the runs that failed, their
 * self-checks and warnings (markdown.h), from the runs as the validated
 * reader loaded them (resultfile.h) and the logs run-all kept (a failed
 * run's last stderr line).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../figures/figures.h"
#include "markdown_int.h"

static const char *run_name(const struct md *m, size_t i)
{
	return m->d->plan[m->d->done[i]].name;
}

/* ---- noise ---- */

/* One run's meta.csv noise_* keys (results/README.md). */
struct noise_row {
	const char *run;
	double other, steal, load, throttle;  /* NAN where not a number ("unavailable") */
	double io, memory;                    /* PSI "some" %: NAN also in runs from before these keys */
	char busy[256];
	char dir[512];                        /* the workload directory's file system ("": none) */
};

static double number_or_nan(const char *s)
{
	char *end;
	double v;

	if (!s || !*s)
		return NAN;
	v = strtod(s, &end);
	return *end ? NAN : v;
}

static int cmp_noise(const void *a, const void *b)
{
	const struct noise_row *x = a, *y = b;
	double vx = isnan(x->other) ? -1 : x->other, vy = isnan(y->other) ? -1 : y->other;

	return vx < vy ? 1 : vx > vy ? -1 : 0;
}

/* A meta.csv value for a code span: a backquote would end it, a quote
 * stands in. */
static const char *code_text(const char *v, char *buf, size_t len)
{
	snprintf(buf, len, "%s", v);
	for (char *c = buf; (c = strchr(c, '`')) != NULL;)
		*c = '\'';
	return buf;
}

/* "`tmpfs` (`tmpfs` on `/dev/shm`)" from meta.csv's workload_dir_* keys, or
 * "" for a run without a directory (or from before the keys). */
static void dir_fs(const struct result_run *run, char *out, size_t len)
{
	const char *fs = result_meta_get(run, "workload_dir_fs"), *src = result_meta_get(run, "workload_dir_mount_source");
	const char *mnt = result_meta_get(run, "workload_dir_mount_point");
	char b[3][160];

	out[0] = '\0';
	if (fs && src && mnt && strcmp(fs, "-") != 0)
		snprintf(out, len, "`%s` (`%s` on `%s`)", code_text(fs, b[0], sizeof(b[0])),
			 code_text(src, b[1], sizeof(b[1])), code_text(mnt, b[2], sizeof(b[2])));
}

static size_t noise_rows(const struct md *m, struct noise_row *rows)
{
	size_t n = 0;

	for (size_t i = 0; i < m->d->ndone; i++) {
		const struct result_run *run = m->run[i];
		const char *busy = result_meta_get(run, "noise_busy");

		/* A simulated run measured nothing of the host. */
		if (!busy || dir_run_simulated(run))
			continue;
		rows[n] = (struct noise_row){ .run = run_name(m, i),
					      .other = number_or_nan(result_meta_get(run, "noise_other_cpu_pct")),
					      .steal = number_or_nan(result_meta_get(run, "noise_steal_pct")),
					      .load = number_or_nan(result_meta_get(run, "noise_loadavg_1m")),
					      .throttle = number_or_nan(result_meta_get(run, "noise_thermal_throttle")),
					      .io = number_or_nan(result_meta_get(run, "noise_io_pressure_pct")),
					      .memory = number_or_nan(result_meta_get(run, "noise_memory_pressure_pct")) };
		snprintf(rows[n].busy, sizeof(rows[0].busy), "%s", busy);
		dir_fs(run, rows[n++].dir, sizeof(rows[0].dir));
	}
	qsort(rows, n, sizeof(*rows), cmp_noise);
	return n;
}

/* noise_busy's rule (results/README.md; bench/platform/machine.h MACHINE_BUSY_*). */
#define BUSY_RULE "other processes above 10%% of the CPU time, steal above 2%%, or I/O pressure above 10%%"

/* The runs without noise figures, which no sentence about a busy machine
 * covers: an --exec run records none (the program is not a measured
 * interval of lockbench's), nor did a lockbench before the noise_* keys. */
static void print_unrecorded(const struct md *m, size_t n)
{
	if (n < md_real_runs(m))
		fprintf(m->out, "%zu run(s) recorded no noise figures (`--exec` runs of a program record none, nor did runs "
			"written before meta.csv had `noise_*` keys): whether the machine was busy during them is unknown.\n",
			md_real_runs(m) - n);
}

static void print_busy(const struct md *m, const struct noise_row *rows, size_t n)
{
	size_t busy = 0;

	for (size_t i = 0; i < n; i++)
		busy += strncmp(rows[i].busy, "yes", 3) == 0;
	if (busy == 0) {
		if (n == md_real_runs(m))
			fprintf(m->out, "No run was taken on a busy machine (" BUSY_RULE ").\n");
		else
			fprintf(m->out, "No run of the %zu that recorded noise figures was taken on a busy machine (" BUSY_RULE
				").\n", n);
		print_unrecorded(m, n);
		return;
	}
	fprintf(m->out, "\n**Warning: %zu of %zu run(s) were taken on a busy machine** (" BUSY_RULE "): their figures are noisier, and the verdicts say only what survives that. %s:\n",
		busy, n, busy > 10 ? "The 10 busiest" : "They");
	busy = 0;
	for (size_t i = 0; i < n && busy < 10; i++)
		if (strncmp(rows[i].busy, "yes", 3) == 0) {
			/* "yes: other processes ...": what made it busy */
			fprintf(m->out, "- `%s`: %s\n", rows[i].run, rows[i].busy + strspn(rows[i].busy, "yes: "));
			busy++;
		}
	print_unrecorded(m, n);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* PSI io and memory over the runs that recorded them (not those from before
 * the keys): the disk's and memory's share of the noise. */
static void print_pressure(const struct md *m, const struct noise_row *rows, size_t n)
{
	double *io = calloc(n + 1, sizeof(*io)), memory = 0;
	size_t nio = 0;

	for (size_t i = 0; io && i < n; i++)
		if (!isnan(rows[i].io)) {
			io[nio++] = rows[i].io;
			memory = fmax(memory, isnan(rows[i].memory) ? 0 : rows[i].memory);
		}
	if (nio > 0) {
		qsort(io, nio, sizeof(*io), cmp_double);
		fprintf(m->out, "Some task waited for I/O a median %.1f%% of a run's interval (PSI io, at most %.1f%%) and for memory at most %.1f%% (PSI memory).\n",
			(io[(nio - 1) / 2] + io[nio / 2]) / 2, io[nio - 1], memory);
	}
	free(io);
}

/* Where the file workloads made their files: run-all's choice (settings'
 * DIR, DIR_WHY) and the file systems the runs' meta.csv recorded. */
static void print_workload_dir(const struct md *m, const struct noise_row *rows, size_t n)
{
	const char *dir = rundir_setting(m->d, "DIR"), *why = rundir_setting(m->d, "DIR_WHY");
	struct tally t = { 0 };
	char buf[512];

	for (size_t i = 0; i < n; i++)
		if (rows[i].dir[0])
			tally_add(&t, rows[i].dir);
	tally_sort(&t, true);
	if (*dir && rundir_plans(m->d, NULL, NULL, "--dir", false))
		fprintf(m->out, "The file workloads made their files in `%s` (%s%s).", code_text(dir, buf, sizeof(buf)),
			strcmp(why, "--dir") == 0 ? "chosen with " : "run-all's ", strcmp(why, "--dir") == 0 ? "`--dir`" : why);
	else if (t.n > 0)
		fprintf(m->out, "The file workloads' directory was not chosen by run-all (a run-all from before `--dir`: `$TMPDIR`, else /tmp).");
	for (size_t i = 0; i < t.n; i++)
		fprintf(m->out, "%s%s in %u run(s)", i ? ", " : " Their runs' file system: ", t.item[i].key, t.item[i].count);
	if (t.n > 0 || (*dir && rundir_plans(m->d, NULL, NULL, "--dir", false)))
		fprintf(m->out, ".\n");
	tally_free(&t);
}

/* Whether other work shared the machine while the runs measured: the busy
 * ones (BUSY_RULE) named, the busiest first; the disk and memory's pressure
 * and the file workloads' directory. */
void md_noise_section(struct md *m)
{
	struct noise_row *rows = calloc(m->d->ndone + 1, sizeof(*rows));
	double steal = 0, load = 0, throttle = 0;
	size_t n, nother = 0;

	fprintf(m->out, "### Noise during the runs\n\n");
	if (rows && m->d->ndone && md_real_runs(m) == 0) {
		fprintf(m->out, "Only simulated runs here: they measure nothing of the host, so its noise does not touch their figures.\n\n");
		free(rows);
		return;
	}
	if (!rows || (n = noise_rows(m, rows)) == 0) {
		fprintf(m->out, "These runs recorded no noise figures (`--exec` runs of a program record none, nor did runs written "
			"before meta.csv had `noise_*` keys): whether the machine was busy is unknown.\n\n");
		free(rows);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		nother += !isnan(rows[i].other);
		steal = fmax(steal, isnan(rows[i].steal) ? 0 : rows[i].steal);
		load = fmax(load, isnan(rows[i].load) ? 0 : rows[i].load);
		throttle += isnan(rows[i].throttle) ? 0 : rows[i].throttle;
	}
	if (nother > 0) {
		fprintf(m->out, "Other processes used a median %.1f%% of the machine's CPU time while a run measured (at most %.1f%%); steal at most %.1f%%; 1-minute load average at most %.2f",
			(rows[(nother - 1) / 2].other + rows[nother / 2].other) / 2, rows[0].other, steal, load);
		if (throttle > 0)
			fprintf(m->out, "; %.0f thermal throttling event(s)", throttle);
		fprintf(m->out, ".\n");
	}
	print_pressure(m, rows, n);
	print_workload_dir(m, rows, n);
	print_busy(m, rows, n);
	fprintf(m->out, "\n");
	free(rows);
}

/* ---- the sweep's verdicts ---- */

/* One thread count's row: each lock's throughput verdict against the
 * first's (the group's first column: ratio_columns), the locks named with
 * their ratio in the column of their verdict: faster, slower, none shown. */
static void print_verdict_row(struct md *m, const struct group *g)
{
	static char list[3][4096];
	struct column cols[RATIO_COLUMNS_MAX];
	char err[ERR_LEN];

	ratio_columns(g, cols);
	for (int k = 0; k < 3; k++)
		*list[k] = '\0';
	for (unsigned int i = 1; i < g->nv; i++) {
		struct stat3 s, base;
		struct verdict vd;
		bool base_ok;
		const char *word;
		char ratio[32];
		int k;
		size_t len;

		if (figure_missing(&g->v[i], &cols[0]) != FIGURE_OK ||
		    figure_pair(g, i, &cols[0], &s, &base, &base_ok, err, sizeof(err)) != 0 || !base_ok)
			continue;
		judge(&s, &base, &vd);
		word = verdict_word(&vd, column_sense(&cols[0]));
		k = strcmp(word, "faster") == 0 ? 0 : strcmp(word, "slower") == 0 ? 1 : strcmp(word, "no difference") == 0 ? 2 : -1;
		if (k < 0)
			continue;
		len = strlen(list[k]);
		ratio_text(&vd, &s, &base, ratio, sizeof(ratio));
		snprintf(list[k] + len, sizeof(list[k]) - len, "%s`%s` %s", len ? ", " : "", g->v[i].series, ratio);
	}
	fprintf(m->out, "| %u | %s | %s | %s | %s |\n", g->threads, g->nv ? g->v[0].series : "-", *list[0] ? list[0] : "-",
		*list[1] ? list[1] : "-", *list[2] ? list[2] : "-");
}

/* The sweep's verdicts on throughput, thread count by thread count (nothing
 * with one repetition). */
void md_sweep_verdicts(struct md *m, const struct comparison *c, const char *w)
{
	static const struct group *g[MAX_GROUPS];
	size_t n = md_groups_of(c, w, NULL, g);

	if (m->d->reps < 2 || n == 0)
		return;
	fprintf(m->out, "Verdicts on operations per second, each thread count's locks against its first (Mann-Whitney U over the repetitions, 95%%):\n\n");
	fprintf(m->out, "| threads | against | faster | slower | no difference shown |\n|---|---|---|---|---|\n");
	for (size_t i = 0; i < n; i++)
		print_verdict_row(m, g[i]);
	fprintf(m->out, "\n");
}

/* ---- the machine, failed runs, checks, warnings ---- */

void md_machine_section(struct md *m)
{
	const struct result_run *first = md_first_run(m);
	const struct result_lines *meta = first ? &first->meta : NULL;

	fprintf(m->out, "## Machine\n\n");
	if (!first && m->d->ndone) {
		fprintf(m->out, "Every run here is simulated: their meta.csv describes no machine (the simulated one: [Simulated: the seed's machine](#simulated-the-seeds-machine)).\n\n");
		return;
	}
	if (!meta || meta->n == 0) {
		fprintf(m->out, "This build writes no machine metadata (meta.csv) with its results.\n\n");
		return;
	}
	fprintf(m->out, "| key | value |\n|---|---|\n");
	for (size_t i = 0; i < meta->n; i++) {
		fprintf(m->out, "| %s | ", meta->pair[i].key);
		for (const char *v = meta->pair[i].value; *v; v++)
			fprintf(m->out, *v == '|' ? "\\|" : "%c", *v);
		fprintf(m->out, " |\n");
	}
	fprintf(m->out, "\n");
}

void md_failed_section(struct md *m)
{
	size_t nfail = 0, nmiss = 0;

	fprintf(m->out, "## Failed runs\n\n");
	for (size_t i = 0; i < m->d->nplan; i++) {
		const char *name = m->d->plan[i].name;
		const char *status = m->d->plan[i].status ? m->d->plan[i].status : "";
		const char *err = m->d->plan[i].err_last ? m->d->plan[i].err_last : "";

		if (m->d->plan[i].finished)
			continue;
		nfail++;
		/* It ran, but what it left cannot be read: lbcompare's line says why. */
		if (m->d->plan[i].why) {
			fprintf(m->out, "- `%s` (result files unreadable): %s\n", name, m->d->plan[i].why);
			continue;
		}
		fprintf(m->out, "- `%s` (exit status %s%s): %s\n", name, *status ? status : "not run",
			strcmp(status, "4") == 0 ? ", watchdog" : "", err);
		/* No exit status (run-all's logs/NAME.status): never made, as the
		 * rest of a stopped run, which is not a failure (issue 42). */
		if (!*status)
			nmiss++;
	}
	if (nfail == 0)
		fprintf(m->out, "None: all %zu runs finished.\n", m->d->nplan);
	else if (nfail > nmiss)
		fprintf(m->out, "\n%zu of %zu runs failed.\n", nfail - nmiss, m->d->nplan);
	if (nmiss)
		fprintf(m->out, "\n%zu of %zu runs were not made (a stopped run's rest: `./run-all --resume` makes them).\n",
			nmiss, m->d->nplan);
	/* A comparison that failed left its section without tables: counted here too. */
	for (size_t i = 0; i < m->failed.n; i++) {
		char *file = m->failed.item[i].key, *line = strchr(file, '\t');
		*line++ = '\0';
		fprintf(m->out, "%s- the comparison `%s` failed: %s\n", i ? "" : "\n", file, line);
	}
	if (m->failed.n)
		fprintf(m->out, "\n%zu comparison(s) failed: their sections have no tables.\n", m->failed.n);
	fprintf(m->out, "\n");
}

struct check_counts {
	size_t missing, warned_runs;
	struct tally warn, skip;
};

static void tally_checks(const struct md *m, size_t i, struct check_counts *c)
{
	const struct result_lines *checks = &m->run[i]->checks;
	bool warned = false;
	char line[1024];

	if (!m->run[i]->has_checks) {
		c->missing++;
		return;
	}
	for (size_t k = 0; k < checks->n; k++) {
		const char *status = checks->pair[k].value, *detail = strchr(status, ',');
		int slen = detail ? (int)(detail - status) : (int)strlen(status);
		detail = detail ? detail + 1 : "";
		if (strncmp(status, "ok", 2) == 0 && slen == 2)
			continue;
		if (strncmp(status, "skipped", 7) == 0 && slen == 7) {
			snprintf(line, sizeof(line), "`%s`: %s", checks->pair[k].key, detail);
			tally_add(&c->skip, line);
			continue;
		}
		snprintf(line, sizeof(line), "- `%s`: **%.*s** `%s`: %s", run_name(m, i), slen, status,
			 checks->pair[k].key, detail);
		tally_add(&c->warn, line);
		warned = true;
	}
	c->warned_runs += warned;
}

/* Every check that warned, run by run; the skipped ones grouped by check
 * and reason (most are "not applicable here", e.g. no phases for a
 * spinlock, and one line per run would bury the warnings). */
void md_checks_section(struct md *m)
{
	struct check_counts c = { 0 };
	size_t checked;

	fprintf(m->out, "## Self-checks\n\nEach run checks its own figures and clock (`checks.csv`, results/README.md).\n\n");
	for (size_t i = 0; i < m->d->ndone; i++)
		tally_checks(m, i, &c);
	checked = m->d->ndone - c.missing;
	if (m->d->ndone == 0)
		fprintf(m->out, "No finished runs to check.\n");
	else if (checked > 0 && c.warn.n == 0)
		fprintf(m->out, "All checks passed in %zu run(s).\n", checked);
	else if (c.warn.n > 0) {
		fprintf(m->out, "%zu check(s) warned, in %zu of %zu run(s):\n\n", c.warn.n, c.warned_runs, checked);
		for (size_t i = 0; i < c.warn.n; i++)
			fprintf(m->out, "%s\n", c.warn.item[i].key);
	}
	if (c.skip.n > 0) {
		fprintf(m->out, "\nSkipped (not applicable to the run):\n\n");
		for (size_t i = 0; i < c.skip.n; i++)
			fprintf(m->out, "- %s (%u run(s))\n", c.skip.item[i].key, c.skip.item[i].count);
	}
	if (c.missing > 0)
		fprintf(m->out, "\n%zu run(s) have no readable checks.csv (written by a lockbench without self-checks).\n",
			c.missing);
	fprintf(m->out, "\n");
	tally_free(&c.warn);
	tally_free(&c.skip);
}

/* More warning_N keys than any run writes (lockbench keeps 8): a bound on
 * what a hostile meta.csv's `warnings` count can ask for. */
#define MD_WARNINGS_MAX 64

/* meta.csv's warnings (results/README.md: `warnings`, then `warning_1` ...):
 * the run's own record of what it warned about, each added to `t`.  Not its
 * stderr, which under --exec holds the program's own lines too. */
static void tally_run_warnings(const struct result_run *run, struct tally *t)
{
	const char *count = result_meta_get(run, "warnings");
	char key[32], *end;
	unsigned long n;

	if (!count)
		return;
	errno = 0;
	n = strtoul(count, &end, 10);
	if (errno || *end || end == count)
		return;
	for (unsigned long k = 1; k <= n && k <= MD_WARNINGS_MAX; k++) {
		const char *text;

		snprintf(key, sizeof(key), "warning_%lu", k);
		if ((text = result_meta_get(run, key)))
			tally_add(t, text);
	}
}

/* The warnings the finished runs recorded, each text once with how many
 * runs gave it, the most frequent first. */
void md_warnings_section(struct md *m)
{
	struct tally t = { 0 };

	fprintf(m->out, "## Warnings raised by the runs\n\n");
	for (size_t i = 0; i < m->d->ndone; i++)
		tally_run_warnings(m->run[i], &t);
	tally_sort(&t, true);
	if (t.n == 0)
		fprintf(m->out, "None.\n");
	else {
		fprintf(m->out, "Each run's own record (meta.csv's `warning_N`):\n\n```text\n");
		for (size_t i = 0; i < t.n; i++)
			fprintf(m->out, "%7u %s\n", t.item[i].count, t.item[i].key);
		fprintf(m->out, "```\n");
	}
	fprintf(m->out, "\n");
	tally_free(&t);
}
