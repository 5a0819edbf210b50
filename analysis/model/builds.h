/*
 * builds.h — which build of lockbench wrote a run, from its meta.csv
 * (`lockbench_commit`, `lockbench_build_id`: results/README.md), so that
 * repetitions of two builds — a before and an after of a change — are
 * never pooled as one variant's without being asked to.
 */
#ifndef LOCKBENCH_ANALYSIS_BUILDS_H
#define LOCKBENCH_ANALYSIS_BUILDS_H

#include <stdbool.h>
#include <stddef.h>

#include "comparison.h"

/* RUN's build as one phrase: "lockbench a080b07, build ID 30d9...";
 * `unknown` for what its meta.csv does not say (or a run without one). */
void run_build(const struct result_run *run, char *buf, size_t len);
/* Whether some variant of C has repetitions of two builds: then true, with
 * one line in err naming the variant, the two builds and a run of each. */
bool comparison_mixes_builds(const struct comparison *c, char *err, size_t errlen);

#endif
