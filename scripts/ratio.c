/*
 * ratio.c — make bench's comparison of two sets of runs (scripts/exec-bench.sh:
 * sysbench through the interposer against no library), with lbcompare's own
 * statistics (analysis/figures/stats.c) rather than a ratio of two medians:
 *
 *   ratio X_FILE Y_FILE     one positive figure a line in each (at most 64)
 *
 * prints "ESTIMATE LO HI P VERDICT": the Hodges-Lehmann ratio of X to Y with
 * Moses' 95% interval ("- -" where these sizes cannot reach 95%), the
 * two-sided Mann-Whitney p, and `higher`, `lower` or `same` (no difference
 * shown at 95%).  A file that is not such a list: one line, exit 2.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "../analysis/figures/stats.h"

#define LEVEL 0.95

/* The figures in path, into v: their count, or 0 with a line said. */
static size_t read_figures(const char *path, double *v)
{
	FILE *f = fopen(path, "r");
	char line[128];
	size_t n = 0;

	if (!f) {
		fprintf(stderr, "ratio: %s: cannot read\n", path);
		return 0;
	}
	while (fgets(line, sizeof(line), f)) {
		char *end;
		double x;

		errno = 0;
		x = strtod(line, &end);
		if (end == line || (*end != '\n' && *end != '\0') || errno || !isfinite(x) || x <= 0 ||
		    n == STATS_MAX_REPS) {
			fprintf(stderr, "ratio: %s line %zu: not a positive number, or more than %d\n", path,
				n + 1, STATS_MAX_REPS);
			fclose(f);
			return 0;
		}
		v[n++] = x;
	}
	fclose(f);
	if (n == 0)
		fprintf(stderr, "ratio: %s: no figures\n", path);
	return n;
}

int main(int argc, char **argv)
{
	double x[STATS_MAX_REPS], y[STATS_MAX_REPS];
	struct stats_ratio r;
	struct stats_mwu t;
	size_t nx, ny;
	int dir;

	if (argc != 3) {
		fprintf(stderr, "usage: ratio X_FILE Y_FILE\n");
		return 2;
	}
	nx = read_figures(argv[1], x);
	ny = nx ? read_figures(argv[2], y) : 0;
	if (!nx || !ny || stats_ratio_ci(x, nx, y, ny, LEVEL, &r) || stats_mann_whitney(x, nx, y, ny, &t))
		return 2;
	dir = stats_direction(&t, nx, ny, LEVEL);
	if (r.reached)
		printf("%.3f %.3f %.3f %.3g %s\n", r.estimate, r.lo, r.hi, t.p,
		       dir > 0 ? "higher" : dir < 0 ? "lower" : "same");
	else
		printf("%.3f - - %.3g %s\n", r.estimate, t.p, dir > 0 ? "higher" : dir < 0 ? "lower" : "same");
	return 0;
}
