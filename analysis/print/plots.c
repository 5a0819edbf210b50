/*
 * plots.c — what run-all draws and counts of a run-all directory, from its
 * one model (print.h): CHARTS/plots.csv, every gnuplot call of the report
 * (the sweeps' charts, each patch, kernel and simulated comparison's
 * histogram and phases charts) with its gnuplot assignments, and
 * CHARTS/counts.txt, the planned runs
 * that are not in the report's tables.  run-all only reads them
 * (results/README.md, "run-all's scratch files").
 */
#define _GNU_SOURCE  /* open_memstream */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "print.h"

/* plots.csv's columns: the script, its CSV files and the chart's name,
 * plain words that run-all checks; gnuplot, the script's assignments
 * (numbers and gp_string texts, never a comma: every text in them is in the
 * chart's name); machine, its gp_string, last (the rest of the line): a
 * simulated machine's profile may hold a comma. */
#define PLOTS_HEADER "script,csv,out,seed,gnuplot,machine\n"
/* A chart's row whose chart name would not be a plain file name: run-all
 * draws nothing of it and writes the report again. */
#define PLOTS_REFUSED(script) script ",,,,,\n"

/* TEXT as gnuplot's value, exactly as scripts/files.sh's gp_string writes it
 * (its comment says why): single-quoted pieces holding no quote, joined by
 * sprintf("%c",39), so that no text reaches gnuplot as code.  A newline
 * (which no line-read result file can hold) is written '?': run-all passes
 * a row's gnuplot field to gnuplot as code, so a text must never end the
 * row and start one of its own. */
static void gp_string(FILE *f, const char *text)
{
	fputs("('", f);
	for (; *text; text++) {
		if (*text == '\'')
			fputs("'.sprintf(\"%c\",39).'", f);
		else
			fputc(*text == '\n' ? '?' : *text, f);
	}
	fputs("')", f);
}

/* A row's end: its assignments' end, then MACHINE. */
static void row_end(FILE *f, const char *machine)
{
	fputc(',', f);
	gp_string(f, machine);
	fputc('\n', f);
}

/* The characters a chart's name may hold: it is a file name in plots/ and
 * a field of plots.csv (no comma). */
static bool chart_name_ok(const char *name)
{
	return *name && strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.@#-") == strlen(name);
}

/* The machine the charts name, as the report's header does: the first
 * finished run's host (this one's where it recorded none) and CPU, and
 * run-all's CPU count (run-env); a simulated part's, its profile. */
static void machine_text(const struct dir_model *m, const struct dir_part *p, char *out, size_t len)
{
	const struct result_run *first = p ? p->runs[0] : m->d->ndone ? m->run[0] : NULL;
	const char *host = first ? result_meta_get(first, "hostname") : NULL;
	const char *cpu = first ? result_meta_get(first, "cpu_brand") : NULL;
	char here[256] = "";
	int cpulen = cpu ? (int)strlen(cpu) : 0;

	if (p) {
		const char *profile = first ? result_meta_get(first, "sim_profile") : NULL;
		const char *cpus = first ? result_meta_get(first, "sim_cpus") : NULL;

		snprintf(out, len, "simulated in virtual time: %s, %s CPUs", profile ? profile : "", cpus ? cpus : "");
		return;
	}
	if (!host || !*host) {
		if (gethostname(here, sizeof(here) - 1) != 0)
			here[0] = '\0';
		host = here;
	}
	while (cpulen > 0 && cpu[cpulen - 1] == ' ')  /* cpu_brand's padding */
		cpulen--;
	snprintf(out, len, "%s%s%.*s, %s CPUs", host, cpulen ? ", " : "", cpulen, cpu ? cpu : "",
		 rundir_env(m->d, "NCPU"));
}

/* A sweep's two charts: medians (with repetitions, and where lbcompare
 * wrote them, with their 95% CI as error bars). */
static void sweep_rows(const struct dir_model *m, const struct dir_part *p, const struct sf_dir *charts,
		       const char *machine, FILE *f)
{
	static const char *const figure[2][2] = { { "ops_per_s", "operations per second" },
						   { "cpu_us_per_op", "CPU microseconds per operation" } };
	const char *w = p->workload;
	char out[160], ci_csv[200];
	int ci;

	snprintf(ci_csv, sizeof(ci_csv), "sweep-%s/sweep-%s-ops_per_s-ci.csv", w, w);
	ci = m->d->reps > 1 && sf_is_file(charts, ci_csv);
	for (int k = 0; k < 2; k++) {
		snprintf(out, sizeof(out), "sweep-%s-%s", w, figure[k][0]);
		if (!chart_name_ok(out)) {
			fputs(PLOTS_REFUSED("sweep.gp"), f);
			continue;
		}
		fprintf(f, "sweep.gp,sweep-%s/%s%s.csv,%s,,workload=", w, out, ci ? "-ci" : "", out);
		gp_string(f, w);
		fputs("; ylabel_text=", f);
		gp_string(f, figure[k][1]);
		fprintf(f, "; logy=1; ci=%d", ci);
		row_end(f, machine);
	}
}

/* A patch, kernel or simulated comparison's charts: each group's
 * histogram and phases (csv_chart_plan); the simulated ones' names sim-.... */
static void group_rows(const struct dir_part *p, const char *machine, FILE *f)
{
	const char *prefix = strcmp(p->kind, "sim") == 0 ? "sim-" : "";
	const char *k = p->kind, *w = p->workload;
	char dir[96];

	snprintf(dir, sizeof(dir), "%s-%s", k, w);  /* its files' folder in CHARTS */
	for (unsigned int i = 0; i < p->c->ngroups; i++) {
		const struct group *g = &p->c->groups[i];
		struct chart_plan c;
		char ghz[64];

		if (!csv_chart_plan(p->c, g, &c))
			continue;
		/* The TSC rate as run-all took it: digits and a point (no "nan"). */
		snprintf(ghz, sizeof(ghz), "%.6f", c.ghz);
		if (!chart_name_ok(c.hist) || !chart_name_ok(c.phases) || !chart_name_ok(dir) ||
		    strspn(ghz, "0123456789.") != strlen(ghz)) {
			fputs(PLOTS_REFUSED("hist.gp"), f);
			continue;
		}
		fprintf(f, "hist.gp,%s-%s/%s.csv,%s%s,", k, w, c.hist, prefix, c.hist);
		if (c.seed[0])
			fprintf(f, "%s-%s/%s", k, w, c.seed);
		fputs(",workload=", f);
		gp_string(f, g->workload);
		fprintf(f, "; threads='%u'; ghz=%s; contended=%d; kernel_col=%u; base_col=%u%s", g->threads, ghz, c.contended,
			c.kernel_col, c.base_col, c.seed[0] ? "; seed='seed.csv'" : "");
		row_end(f, machine);
		fprintf(f, "phases.gp,%s-%s/%s.csv,%s%s,,workload=", k, w, c.phases, prefix, c.phases);
		gp_string(f, g->workload);
		fprintf(f, "; threads='%u'", g->threads);
		row_end(f, machine);
	}
}

/* Whether part P's charts hold NAME (NULL: any). */
static bool part_charts(const struct dir_part *p, const char *name)
{
	const char *prefix = strcmp(p->kind, "sim") == 0 ? "sim-" : "";
	char hist[256], phases[256], full[300];
	struct chart_plan c;

	if (strcmp(p->kind, "sweep") == 0) {
		snprintf(hist, sizeof(hist), "sweep-%s-ops_per_s", p->workload);
		snprintf(phases, sizeof(phases), "sweep-%s-cpu_us_per_op", p->workload);
		return !name || strcmp(name, hist) == 0 || strcmp(name, phases) == 0;
	}
	for (unsigned int i = 0; i < p->c->ngroups; i++) {
		if (!csv_chart_plan(p->c, &p->c->groups[i], &c) || !chart_name_ok(c.hist) || !chart_name_ok(c.phases))
			continue;
		if (!name)
			return true;
		snprintf(full, sizeof(full), "%s%s", prefix, c.hist);
		if (strcmp(name, full) == 0)
			return true;
		snprintf(full, sizeof(full), "%s%s", prefix, c.phases);
		if (strcmp(name, full) == 0)
			return true;
	}
	return false;
}

bool print_chart_planned(const struct dir_model *m, const char *name)
{
	for (size_t i = 0; i < m->nparts; i++)
		if (m->part[i].c && strcmp(m->part[i].kind, "exec") != 0 && part_charts(&m->part[i], name))
			return true;
	return false;
}

int print_plots(const struct dir_model *m, const struct sf_dir *charts, char *err, size_t errlen)
{
	char here[1024], sim[1024];
	struct sf_out o;
	FILE *f;

	if (!(f = sf_out_open(&o, charts, "plots.csv", err, errlen)))
		return -1;
	fputs(PLOTS_HEADER, f);
	machine_text(m, NULL, here, sizeof(here));
	for (size_t i = 0; i < m->nparts; i++) {
		const struct dir_part *p = &m->part[i];

		if (!p->c || strcmp(p->kind, "exec") == 0)
			continue;
		if (strcmp(p->kind, "sweep") == 0) {
			sweep_rows(m, p, charts, here, f);
		} else if (strcmp(p->kind, "sim") == 0) {
			/* The simulated runs' charts name the simulated machine, not this one. */
			machine_text(m, p, sim, sizeof(sim));
			group_rows(p, sim, f);
		} else {
			group_rows(p, here, f);
		}
	}
	return sf_out_commit(&o, err, errlen);
}

/* logs/NAME.check: why run NAME's result files cannot be read, as
 * `lbcompare runs/NAME` says it (WHY NULL: it can be, and a stale one goes). */
static int write_check(const struct sf_dir *dir, const char *name, const char *why, char *err, size_t errlen)
{
	static struct sf_dir logs;  /* static: a path of PATH_MAX, not on the stack */
	char rel[300];
	struct sf_out o;
	FILE *f;
	int rc = 0;

	if (sf_dir_at(&logs, dir, "logs", err, errlen) != 0)
		return errno == ENOENT && !why ? 0 : -1;
	snprintf(rel, sizeof(rel), "%s.check", name);
	if (!why) {
		if (unlinkat(logs.fd, rel, 0) != 0 && errno != ENOENT) {
			snprintf(err, errlen, "%s/%s: %s", logs.path, rel, strerror(errno));
			rc = -1;
		}
	} else if (!(f = sf_out_open(&o, &logs, rel, err, errlen))) {
		rc = -1;
	} else {
		fprintf(f, "lbcompare: %s\n", why);
		rc = sf_out_commit(&o, err, errlen);
	}
	sf_dir_close(&logs);
	return rc;
}

/* Run R's line on stderr (counts.txt): why it is left out, one line, its
 * control characters as '?' (a newline in a file name). */
static void unreadable_line(FILE *f, const struct plan_run *r)
{
	fprintf(f, "run-all: %s: result files unreadable (lbcompare: ", r->name);
	for (const char *c = r->why; *c && *c != '\n'; c++)
		fputc((unsigned char)*c < 040 || *c == 0177 ? '?' : *c, f);
	fprintf(f, "): left out of the report's tables\n");
}

int print_run_counts(const struct rundir *d, const struct sf_dir *dir, const struct sf_dir *charts, char *err,
		     size_t errlen)
{
	size_t failed = 0, missing = 0;
	char *lines = NULL;
	size_t len = 0;
	struct sf_out o;
	FILE *f, *mem;

	if (!(mem = open_memstream(&lines, &len))) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < d->nplan; i++) {
		const struct plan_run *r = &d->plan[i];

		if (r->finished || r->why) {
			if (write_check(dir, r->name, r->finished ? NULL : r->why, err, errlen) != 0) {
				fclose(mem);
				free(lines);
				return -1;
			}
		}
		if (r->finished)
			continue;
		if (r->why) {
			failed++;
			unreadable_line(mem, r);
		} else if (r->has_status) {
			failed++;
		} else {
			missing++;
		}
	}
	if (fclose(mem) != 0 || !(f = sf_out_open(&o, charts, "counts.txt", err, errlen))) {
		free(lines);
		return -1;
	}
	fprintf(f, "%zu %zu\n%s", failed, missing, lines ? lines : "");
	free(lines);
	return sf_out_commit(&o, err, errlen);
}
