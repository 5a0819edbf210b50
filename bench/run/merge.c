/*
 * merge.c — the run's result from its workers' records, after the join: the
 * histograms and lock events merged, the counts summed, the fairness
 * figures.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include "merge.h"

static void merge_events(struct lock_events *dst, const struct lock_events *src)
{
#define MERGE_EVENT(unused, name) dst->name += src->name;
	LOCK_EVENT_PHASES(MERGE_EVENT, -)
	for (int r = 0; r < SPIN_EXIT_NR; r++)
		dst->spin_exit[r] += src->spin_exit[r];
	LOCK_EVENT_COUNTS(MERGE_EVENT, -)
	dst->preempt_seen |= src->preempt_seen;
	LOCK_EVENT_PREEMPTS(MERGE_EVENT, -)
#undef MERGE_EVENT
}

void merge_results(struct bench_result *res)
{
	unsigned int n = res->cfg->threads;
	double mean, var = 0;

	hist_reset(&res->acq);
	hist_reset(&res->acq_contended);
	res->ops_min = UINT64_MAX;
	for (unsigned int i = 0; i < n; i++) {
		const struct bench_thread *t = res->threads[i];

		hist_merge(&res->acq, &t->acq);
		hist_merge(&res->acq_contended, &t->acq_contended);
		merge_events(&res->ev, &t->lt->ev);
		res->acquisitions += t->acq.count + t->untimed;
		res->contentions += t->acq.contended + t->untimed_contended;
		res->ops += t->ops;
		res->ops_all += t->ops_all;
		res->ops_abandoned += t->ops_abandoned;
		res->ops_min = t->ops < res->ops_min ? t->ops : res->ops_min;
		res->ops_max = t->ops > res->ops_max ? t->ops : res->ops_max;
		res->usage.user_s += t->usage.user_s;
		res->usage.sys_s += t->usage.sys_s;
		res->usage.vol_csw += t->usage.vol_csw;
		res->usage.invol_csw += t->usage.invol_csw;
	}
	mean = (double)res->ops / n;
	for (unsigned int i = 0; i < n; i++) {
		double d = (double)res->threads[i]->ops - mean;

		var += d * d;
	}
	res->ops_cv = mean > 0 ? sqrt(var / n) / mean : 0;
	res->ops_per_s = res->measured_s > 0 ? (double)res->ops / res->measured_s : 0;
}
