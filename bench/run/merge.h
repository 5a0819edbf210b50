/* merge.h — a run's per-thread records merged into its result (merge.c). */
#ifndef LOCKBENCH_MERGE_H
#define LOCKBENCH_MERGE_H

#include "../core/result.h"

/* Fills res's totals, histograms, lock events, fairness and rate from
 * res->threads (cfg->threads of them, joined) and res->measured_s. */
void merge_results(struct bench_result *res);

#endif
