/*
 * dirdata.c — a run-all directory's data/ from its one model (print.h):
 * each part's text, and the CSV files the charts and people read, printed
 * from the comparisons built once (model/dirmodel.h), as --markdown prints
 * report.md from the same.
 */
#define _GNU_SOURCE  /* open_memstream, mkdirat */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "print.h"
#include "../../common/text.h"

int print_part_text(struct dir_part *p, bool hosts_only, char *err, size_t errlen)
{
	char why[ERR_LEN];
	size_t len;
	FILE *f;

	free(p->text);
	p->text = NULL;
	if (!(f = open_memstream(&p->text, &len))) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (p->c && (hosts_only ? text_print_hosts : text_print)(p->c, f, why, sizeof(why)) != 0) {
		text_one_line(why);
		dir_part_fail(p, why);
	}
	if (fclose(f) != 0 || !p->text) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	return 0;
}

int print_part_texts(struct dir_model *m, char *err, size_t errlen)
{
	for (size_t i = 0; i < m->nparts; i++)
		if (print_part_text(&m->part[i], false, err, errlen) != 0)
			return -1;
	return 0;
}

/* data/KIND-W.txt: P's text, and where its comparison failed the line
 * saying why, last (where run-all's message reads it). */
static int write_text(const struct dir_part *p, const struct sf_dir *dir, char *err, size_t errlen)
{
	char rel[128];
	struct sf_out o;
	FILE *f;

	snprintf(rel, sizeof(rel), "data/%s-%s.txt", p->kind, p->workload);
	if (!(f = sf_out_open(&o, dir, rel, err, errlen)))
		return -1;
	fputs(p->text ? p->text : "", f);
	if (p->failed[0])
		fprintf(f, "%s\n", p->failed);
	return sf_out_commit(&o, err, errlen);
}

/* CHARTS/KIND-W/: P's CSV files with charts.csv, for run-all's gnuplot
 * calls (CHARTS is run-all's own folder, made for this). */
static int write_charts(const struct dir_part *p, const struct sf_dir *charts, char *err, size_t errlen)
{
	static struct sf_dir sub;  /* static: a path of PATH_MAX, not on the stack */
	char name[96];
	int rc;

	snprintf(name, sizeof(name), "%s-%s", p->kind, p->workload);
	if (mkdirat(charts->fd, name, 0700) != 0) {
		snprintf(err, errlen, "%s/%s: %s", charts->path, name, strerror(errno));
		return -1;
	}
	if (sf_dir_at(&sub, charts, name, err, errlen) != 0)
		return -1;
	rc = csv_write(p->c, &sub, true, err, errlen);
	sf_dir_close(&sub);
	return rc;
}

/* P's files (CHARTS NULL: no charts' files); 0, or -1 with one line in err. */
static int write_part(const struct dir_part *p, const struct sf_dir *dir, const struct sf_dir *charts, char *err,
		      size_t errlen)
{
	static struct sf_dir data;  /* static: a path of PATH_MAX, not on the stack */
	int rc = 0;

	if (write_text(p, dir, err, errlen) != 0)
		return -1;
	if (!p->c)
		return 0;
	if (strcmp(p->kind, "sim") != 0) {
		if (sf_dir_at(&data, dir, "data", err, errlen) != 0)
			return -1;
		rc = csv_write(p->c, &data, false, err, errlen);
		sf_dir_close(&data);
	}
	return rc || !charts ? rc : write_charts(p, charts, err, errlen);
}

int print_dir_data(struct dir_model *m, const struct sf_dir *dir, const struct sf_dir *charts, char *err, size_t errlen)
{
	struct sf_out o;
	int failed = 0;
	FILE *list;

	if (!(list = sf_out_open(&o, charts, "parts.txt", err, errlen)))
		return -1;
	for (size_t i = 0; i < m->nparts; i++) {
		const struct dir_part *p = &m->part[i];

		if (strcmp(p->kind, "exec") == 0)
			continue;
		if (write_part(p, dir, charts, err, errlen) != 0) {
			sf_out_abort(&o);
			return -1;
		}
		fprintf(list, "%s %s %d\n", p->kind, p->workload, p->c ? 0 : 1);
		failed |= !p->c;
	}
	return sf_out_commit(&o, err, errlen) != 0 ? -1 : failed;
}

/* Several hosts' directories: KIND's comparison of W across them into
 * DIR's data/ (dir_hosts_part_load, every run's host its directory's
 * label, the simulated runs' too), its line into LIST.  0; 1 it failed;
 * -1 with one line in err (out of memory, a file not written). */
static int hosts_part(const struct rundir *dirs, size_t ndirs, const char (*label)[RUNDIR_LABEL], const char *kind,
		      const char *w, const struct sf_dir *dir, FILE *list, char *err, size_t errlen)
{
	static struct dir_part p;
	int rc = 0;

	memset(&p, 0, sizeof(p));
	snprintf(p.kind, sizeof(p.kind), "%s", kind);
	snprintf(p.workload, sizeof(p.workload), "%s", w);
	if (!dir_hosts_part_load(&p, dirs, ndirs, label, false)) {
		snprintf(err, errlen, "out of memory");
		rc = -1;
	} else if (p.nruns || p.failed[0]) {
		if (!p.failed[0])
			dir_part_compare(&p);
		if (print_part_text(&p, false, err, errlen) != 0 || write_part(&p, dir, NULL, err, errlen) != 0)
			rc = -1;
		else
			fprintf(list, "%s %s %d\n", kind, w, p.c ? 0 : 1);
		rc = rc ? rc : !p.c;
	}
	dir_hosts_part_free(&p);
	return rc;
}

/* Whether W is in the first N of SEEN; else it is added there. */
static bool seen_before(char (*seen)[64], size_t *n, size_t max, const char *w)
{
	for (size_t i = 0; i < *n; i++)
		if (strcmp(seen[i], w) == 0)
			return true;
	if (*n < max)
		snprintf(seen[(*n)++], sizeof(seen[0]), "%s", w);
	return false;
}

int print_hosts_data(const struct rundir *dirs, size_t ndirs, const char (*label)[RUNDIR_LABEL], const struct sf_dir *dir,
		     FILE *list, char *err, size_t errlen)
{
	static const char *const kinds[] = { "patch", "kernel", "sweep", "program", "sim" };
	static char seen[256][64];
	int failed = 0, rc;

	/* Made here, as run-all made it before (mkdir -p: one already there is
	 * taken, and write_part refuses a link in its place). */
	if (mkdirat(dir->fd, "data", 0777) != 0 && errno != EEXIST) {
		snprintf(err, errlen, "%s/data: %s", dir->path, strerror(errno));
		return -1;
	}
	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		size_t nseen = 0;

		for (size_t i = 0; i < ndirs; i++)
			for (size_t r = 0; r < dirs[i].nplan; r++) {
				char w[64];

				plan_workload(&dirs[i].plan[r], w, sizeof(w));
				if (strcmp(dirs[i].plan[r].kind, kinds[k]) != 0 || !*w || seen_before(seen, &nseen, 256, w))
					continue;
				if ((rc = hosts_part(dirs, ndirs, label, kinds[k], w, dir, list, err, errlen)) < 0)
					return -1;
				failed |= rc;
			}
	}
	return failed;
}
