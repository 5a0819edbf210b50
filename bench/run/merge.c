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
	dst->acq_fast += src->acq_fast;
	dst->acq_spin += src->acq_spin;
	dst->acq_nosleep += src->acq_nosleep;
	dst->acq_sleep += src->acq_sleep;
	dst->nosleep_unqueued += src->nosleep_unqueued;
	for (int r = 0; r < SPIN_EXIT_NR; r++)
		dst->spin_exit[r] += src->spin_exit[r];
	dst->spin_cycles += src->spin_cycles;
	dst->futex_waits += src->futex_waits;
	dst->futex_wakes += src->futex_wakes;
	dst->handoffs += src->handoffs;
	dst->unlock_slow += src->unlock_slow;
	dst->unlock_window_cycles += src->unlock_window_cycles;
	dst->spin_cas_failed += src->spin_cas_failed;
	dst->preempt_seen |= src->preempt_seen;
	dst->owner_preempted += src->owner_preempted;
	dst->wait_lock_preempted += src->wait_lock_preempted;
	dst->queue_preempted += src->queue_preempted;
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
