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

/* Only the hosts and the across-hosts tables of lbcompare's text: every
 * block that opens with "Hosts" or "== across hosts", up to its blank line. */
static void copy_across_blocks(FILE *out, const char *path)
{
	FILE *f = fopen(path, "r");
	char line[4096];
	bool on = false;

	while (f && fgets(line, sizeof(line), f)) {
		if (strncmp(line, "Hosts", 5) == 0 || strncmp(line, "== across hosts", 15) == 0)
			on = true;
		if (on)
			fputs(line, out);
		if (on && line[0] == '\n')
			on = false;
	}
	if (f)
		fclose(f);
}

void md_fenced_text(FILE *out, const char *path, bool across_only)
{
	fprintf(out, "```text\n");
	if (across_only)
		copy_across_blocks(out, path);
	else
		md_copy_file(out, path);
	fprintf(out, "```\n\n");
}

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

static void print_kind(FILE *out, const char *out_dir, const struct rundir *dirs, size_t ndirs, const char *kind)
{
	char w[32][64], path[PATH_MAX + 160];
	size_t n = workloads_of(dirs, ndirs, kind, w, 32);
	bool sweep = strcmp(kind, "sweep") == 0;

	if (!sweep && n > 0)
		fprintf(out, "## The patch's table\n\n");
	for (size_t i = 0; i < n; i++) {
		if (sweep)
			fprintf(out, "## %c%s sweep\n\n", w[i][0] >= 'a' && w[i][0] <= 'z' ? w[i][0] - 'a' + 'A' : w[i][0],
				w[i] + 1);
		else
			fprintf(out, "### %s\n\n", w[i]);
		snprintf(path, sizeof(path), "%s/data/%s-%s.txt", out_dir, kind, w[i]);
		if (!md_exists(path)) {
			fprintf(out, "- `data/%s-%s.txt` is missing: `./run-all --report DIR...` derives it.\n\n", kind, w[i]);
			continue;
		}
		md_fenced_text(out, path, sweep);
		if (sweep)
			fprintf(out, "Each host's tables, thread count by thread count: `data/%s-%s.txt`; the figures as CSV: `data/`.\n\n",
				kind, w[i]);
	}
}

static void print_hosts_report(FILE *out, const char *out_dir, const struct rundir *dirs, size_t ndirs)
{
	fprintf(out, "# lockbench report: hosts side by side\n\nRun directories, each with its own full report (machine, noise, checks, failed runs):\n\n");
	for (size_t i = 0; i < ndirs; i++)
		fprintf(out, "- `%s` (its `report.md`)\n", dirs[i].path);
	fprintf(out, "\nEach host's runs are grouped apart: its own tables, against its own first variant, with its own confidence intervals and verdicts; the \"across hosts\" tables put each host's figure and ratio side by side (each at the largest thread count it ran). The header names each host's CPU, cores, NUMA nodes and kernel (meta.csv).\n\n");
	print_kind(out, out_dir, dirs, ndirs, "patch");
	print_kind(out, out_dir, dirs, ndirs, "sweep");
	fprintf(out, "No plots here: each directory's own report has its hosts' plots.\n");
}

int markdown_hosts_report(const char *out_dir, char *const *paths, int npaths, FILE *out)
{
	struct rundir *dirs = calloc((size_t)npaths + 1, sizeof(*dirs));
	char err[1024], abs[PATH_MAX];
	int rc = 0, loaded = 0;

	if (!dirs || npaths > HOSTS_MAX) {
		fprintf(stderr, "lbcompare: --markdown-hosts: %s\n", dirs ? "more than 64 directories" : "out of memory");
		free(dirs);
		return 2;
	}
	for (; rc == 0 && loaded < npaths; loaded++) {
		if (!realpath(paths[loaded], abs)) {
			snprintf(err, sizeof(err), "%s: %s", paths[loaded], strerror(errno));
			rc = 2;
		} else if (rundir_load(&dirs[loaded], abs, err, sizeof(err)) != 0) {
			rc = 2;
		}
		if (rc)
			fprintf(stderr, "lbcompare: --markdown-hosts: %s\n", err);
	}
	if (rc == 0) {
		print_hosts_report(out, out_dir, dirs, (size_t)npaths);
		if (fflush(out) != 0 || ferror(out)) {
			fprintf(stderr, "lbcompare: --markdown-hosts: cannot write the report\n");
			rc = 2;
		}
	}
	for (int i = 0; i < loaded; i++)
		rundir_free(&dirs[i]);
	free(dirs);
	return rc;
}
