/* runs.c — the runs lbcompare is given (runs.h). */
#include "runs.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

bool runs_is_run_dir(const struct sf_dir *dir)
{
	struct stat st;

	return sf_stat(dir, "summary.csv", &st) == 0;
}

int runs_add_dir(struct run_list *l, const struct sf_dir *dir, char *err, size_t errlen)
{
	struct result_run *run;

	if (l->n >= MAX_RUNS) {
		snprintf(err, errlen, "more than %d runs", MAX_RUNS);
		return -1;
	}
	run = malloc(sizeof(*run));
	if (!run) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (result_load(run, dir, err, errlen) != 0) {
		free(run);
		return -1;
	}
	l->run[l->n++] = run;
	return 0;
}

/* A directory of runs: its subdirectories that hold a summary.csv, in
 * name order; an entry that is a link is not followed (not a run here). */
static int add_parent(struct run_list *l, const struct sf_dir *parent, char *err, size_t errlen)
{
	char **names = sf_names(parent, "*");
	unsigned int found = 0;
	int rc = 0;

	if (!names) {
		snprintf(err, errlen, "%s: %s", parent->path, strerror(errno));
		return -1;
	}
	for (size_t i = 0; rc == 0 && names[i]; i++) {
		struct sf_dir sub;
		char ignored[256];

		if (sf_dir_at(&sub, parent, names[i], ignored, sizeof(ignored)) != 0)
			continue;
		if (runs_is_run_dir(&sub)) {
			found++;
			rc = runs_add_dir(l, &sub, err, errlen);
		}
		sf_dir_close(&sub);
	}
	sf_names_free(names);
	if (rc == 0 && found == 0) {
		snprintf(err, errlen, "%s: no summary.csv in it or in its subdirectories", parent->path);
		return -1;
	}
	return rc;
}

int runs_add_named(struct run_list *l, const struct sf_dir *root, const char *path, char *err, size_t errlen)
{
	struct sf_dir d;
	int rc;

	if ((root->fd >= 0 ? sf_dir_at(&d, root, path, err, errlen) : sf_dir_open(&d, path, err, errlen)) != 0)
		return -1;
	rc = runs_is_run_dir(&d) ? runs_add_dir(l, &d, err, errlen) : add_parent(l, &d, err, errlen);
	sf_dir_close(&d);
	return rc;
}

void runs_free(struct run_list *l)
{
	for (size_t i = 0; i < l->n; i++) {
		result_free(l->run[i]);
		free(l->run[i]);
	}
	l->n = 0;
}
