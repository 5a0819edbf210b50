/*
 * markdown_hosts.c — `lbcompare --markdown-hosts OUTDIR DIR...`: the report
 * of several run-all directories side by side (markdown.h).  lbcompare keys
 * its groups by meta.csv's host, so run-all's comparison of every
 * directory's runs of a workload (OUTDIR/data/KIND-W.txt) keeps each host's
 * tables and baseline apart and adds the "across hosts" tables; this puts
 * those in order under a header naming the directories.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "markdown.h"
#include "markdown_int.h"

#define HOSTS_MAX 64

/* Every workload some directory ran as KIND, in its registry's order. */
static size_t workloads_of(const struct rundir *dirs, size_t ndirs, const char *kind, char (*w)[64], size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < ndirs; i++) {
		char word[64];
		for (const char *p = rundir_env(&dirs[i], "ALL_WORKLOADS"); n < max && md_next_word(&p, word, sizeof(word));) {
			bool seen = false;
			for (size_t k = 0; k < n && !seen; k++)
				seen = strcmp(w[k], word) == 0;
			if (!seen && rundir_plans(&dirs[i], kind, word, NULL, true))
				snprintf(w[n++], sizeof(w[0]), "%s", word);
		}
	}
	return n;
}

static void print_kind(FILE *out, const struct sf_dir *out_dir, const struct rundir *dirs, size_t ndirs,
		       const char *kind)
{
	char w[32][64], rel[MD_PATH], line[1024];
	size_t n = workloads_of(dirs, ndirs, kind, w, 32);
	bool sweep = strcmp(kind, "sweep") == 0;

	if (!sweep && n > 0)
		fprintf(out, "## %s\n\n", strcmp(kind, "kernel") == 0 ? "Models against the running kernel's mutex"
									  : "The patch's table");
	for (size_t i = 0; i < n; i++) {
		if (sweep)
			fprintf(out, "## %c%s sweep\n\n", w[i][0] >= 'a' && w[i][0] <= 'z' ? w[i][0] - 'a' + 'A' : w[i][0],
				w[i] + 1);
		else
			fprintf(out, "### %s\n\n", w[i]);
		snprintf(rel, sizeof(rel), "data/%s-%.63s.txt", kind, w[i]);
		if (!sf_is_file(out_dir, rel)) {
			fprintf(out, "- `%s` is missing: `./run-all --report DIR...` derives it.\n\n", rel);
			continue;
		}
		if (md_comparison_failed(out_dir, rel, line, sizeof(line))) {
			md_print_failed_comparison(out, rel, line);
			continue;
		}
		md_fenced_text(out, out_dir, rel, sweep);
		if (sweep)
			fprintf(out, "Each host's tables, thread count by thread count: `%s`; the figures as CSV: `data/`.\n\n",
				rel);
	}
}

static void print_hosts_report(FILE *out, const struct sf_dir *out_dir, const struct rundir *dirs, size_t ndirs)
{
	fprintf(out, "# lockbench report: hosts side by side\n\nRun directories, each with its own full report (machine, noise, checks, failed runs):\n\n");
	for (size_t i = 0; i < ndirs; i++)
		fprintf(out, "- `%s` (its `report.md`)\n", dirs[i].dir.path);
	fprintf(out, "\nEach host's runs are grouped apart: its own tables, against its own first variant, with its own confidence intervals and verdicts; the \"across hosts\" tables put each host's figure and ratio side by side (each at the largest thread count it ran). The header names each host's CPU, cores, NUMA nodes and kernel (meta.csv).\n\n");
	print_kind(out, out_dir, dirs, ndirs, "patch");
	print_kind(out, out_dir, dirs, ndirs, "kernel");
	print_kind(out, out_dir, dirs, ndirs, "sweep");
	fprintf(out, "No plots here: each directory's own report has its hosts' plots.\n");
}

int markdown_hosts_report(const struct sf_dir *out_dir, char *const *paths, int npaths, FILE *out)
{
	struct rundir *dirs = calloc((size_t)npaths + 1, sizeof(*dirs));
	static struct sf_dir top, named;  /* static: paths of PATH_MAX, not on the stack */
	char err[1024];
	int rc = 0, loaded = 0;

	if (!dirs || npaths > HOSTS_MAX) {
		fprintf(stderr, "lbcompare: --markdown-hosts: %s\n", dirs ? "more than 64 directories" : "out of memory");
		free(dirs);
		return 2;
	}
	for (int i = 0; i < npaths; i++)
		dirs[i].dir.fd = -1;
	named.fd = -1;
	for (; rc == 0 && loaded < npaths; loaded++) {
		char abs[PATH_MAX];

		/* Named absolute in the report: the user's own paths, links in them resolved. */
		if (!realpath(paths[loaded], abs)) {
			snprintf(err, sizeof(err), "%s: %s", paths[loaded], strerror(errno));
			rc = 2;
		} else if (sf_dir_open(&named, abs, err, sizeof(err)) != 0 ||
			   rundir_load(&dirs[loaded], &named, err, sizeof(err)) != 0) {
			rc = 2;
		}
		sf_dir_close(&named);
		if (rc)
			fprintf(stderr, "lbcompare: --markdown-hosts: %s\n", err);
	}
	/* OUTDIR's files named relative to it in the report. */
	top.fd = out_dir->fd;
	if (rc == 0)
		print_hosts_report(out, &top, dirs, (size_t)npaths);
	for (int i = 0; i < loaded; i++)
		rundir_free(&dirs[i]);
	free(dirs);
	return rc;
}
