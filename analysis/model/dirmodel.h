/*
 * dirmodel.h — a run-all directory's comparisons, built once: its finished
 * runs loaded through the one validated reader (files/resultfile.h), in the
 * directory's order (files/rundir.h), and each experiment's runs of each
 * workload compared (comparison.h).  Every printer prints from this one
 * model: lbcompare --data writes data/KIND-W.txt and its CSV files from it,
 * and --markdown report.md (print/).
 */
#ifndef LOCKBENCH_ANALYSIS_DIRMODEL_H
#define LOCKBENCH_ANALYSIS_DIRMODEL_H

#include <stdbool.h>
#include <stddef.h>

#include "../files/rundir.h"
#include "comparison.h"

/* One experiment's runs of one workload: run-all's KIND-W-* runs (kinds
 * patch, kernel, sweep, program: W the word after -w or --program; sim:
 * the simulated runs), and kind "exec" of "exec": every real --exec run,
 * whatever its name, the programs' baseline first (the report's "Real
 * programs" section).  run-all keeps each KIND-W's text in data/KIND-W.txt. */
struct dir_part {
	char kind[16], workload[64];
	const struct result_run **runs;  /* its finished runs (the model's), in the directory's order */
	size_t nruns;
	struct comparison *c;            /* NULL: the comparison failed, `failed` says why */
	char *text;                      /* lbcompare's text of it, as a printer made it (NULL: none yet) */
	char failed[ERR_LEN + 16];       /* "lbcompare: ..." where it failed */
};

struct dir_model {
	const struct rundir *d;
	struct result_run **run;         /* the finished runs, loaded: d->done's order */
	struct dir_part *part;           /* kinds patch, kernel, sweep, program, sim, each workload
					  * in the plan's order; then exec */
	size_t nparts;
};

/* D's finished runs, loaded, and every part of them compared; 0, or -1
 * with one line in err (out of memory; a run that no longer loads). */
int dir_model_build(struct dir_model *m, const struct rundir *d, char *err, size_t errlen);
void dir_model_free(struct dir_model *m);
/* KIND's part of W, or NULL (no finished run of it). */
struct dir_part *dir_model_part(const struct dir_model *m, const char *kind, const char *w);
/* P's comparison of its runs, or in p->failed the line saying why there is
 * none.  Repetitions of two builds (a run resumed with another lockbench)
 * are refused, as lbcompare refuses them unless --pool-builds. */
void dir_part_compare(struct dir_part *p);
/* P's comparison given up: WHY (one line) in p->failed. */
void dir_part_fail(struct dir_part *p, const char *why);
/* Plan run R's workload as its KIND names it into W: a program run's
 * --program (run-all's program-PROGRAM-... names), every other's -w. */
void plan_workload(const struct plan_run *r, char *w, size_t len);

/* Several hosts' directories (run-all --report DIR1 DIR2 ...): P's runs
 * (p->kind's of p->workload, set) from each of the NDIRS directories in
 * order, each one's in its own order, loaded by their paths below it
 * (DIR/runs/NAME), each run's host LABEL[i] where that is not "" (rundir's
 * host labels); with SIM_APART a simulated run only in the "sim" part and
 * a real one only in the others.  P owns them (dir_hosts_part_free).
 * False out of memory; a run that no longer loads is P's failed line. */
bool dir_hosts_part_load(struct dir_part *p, const struct rundir *dirs, size_t ndirs,
			 const char (*label)[RUNDIR_LABEL], bool sim_apart);
void dir_hosts_part_free(struct dir_part *p);
/* Whether plan run NAME is KIND's of W: named KIND-W-... (run-all's names). */
bool dir_run_of(const char *name, const char *kind, const char *w);
/* Whether RUN is simulated (meta.csv's `simulated`: lockbench --sim). */
bool dir_run_simulated(const struct result_run *run);

#endif
