/*
 * sched_eevdf.c — the decisions of the second scheduler model, "eevdf-6.x":
 * Linux 6.18's EEVDF (kernel/sched/fair.c, Earliest Eligible Virtual
 * Deadline First, 6.6 onwards), which this machine's kernel runs.  sched.c
 * moves the threads; this file only computes, on a CPU's entities: the
 * threads on its run queue (queued, and sleepers still there under
 * DELAY_DEQUEUE) and the one running on it.
 *
 * Every thread weighs nice 0, so calc_delta_fair() is the identity, a
 * virtual time is a real one, and the weighted average vruntime V
 * (avg_vruntime()) is the plain mean over the entities.
 * - eligible: v <= V, exactly (vruntime_eligible(): sum >= v x n);
 * - pick_eevdf(): the only entity; else the running one while it is
 *   eligible and inside its protected slice (RUN_TO_PARITY: vprot, set at
 *   its pick, is its deadline when every slice is the base slice); else
 *   the eligible entity with the earliest virtual deadline, the running
 *   one only when strictly earlier (ties among the queued: the smaller id,
 *   where the kernel's tree keeps insertion order);
 * - update_entity_lag(): V - v clamped to +-(the longest slice + a tick);
 * - place_entity(): at V - lag, the lag inflated by (n + 1) / n so that it
 *   survives the placement (PLACE_LAG; none on an empty queue), deadline
 *   one slice on (half a slice for a new thread: PLACE_DEADLINE_INITIAL).
 */
#include "sim_internal.h"

/* The sum of c's entities' vruntimes and their number. */
static unsigned eevdf_sum(const struct sim *s, const struct sim_cpu *c, unsigned __int128 *sum)
{
	unsigned n = c->nrq;

	*sum = 0;
	for (unsigned i = 0; i < c->nrq; i++)
		*sum += s->threads[c->rq[i]]->vruntime;
	if (c->curr >= 0) {
		*sum += s->threads[c->curr]->vruntime;
		n++;
	}
	return n;
}

uint64_t eevdf_avg(const struct sim *s, const struct sim_cpu *c)
{
	unsigned __int128 sum;
	unsigned n = eevdf_sum(s, c, &sum);

	return n ? (uint64_t)(sum / n) : c->min_vruntime;
}

bool eevdf_eligible(const struct sim *s, const struct sim_cpu *c, const struct sim_thread *t)
{
	unsigned __int128 sum;
	unsigned n = eevdf_sum(s, c, &sum);

	return sum >= (unsigned __int128)t->vruntime * n;
}

int64_t eevdf_lag(const struct sim *s, const struct sim_cpu *c, const struct sim_thread *t)
{
	int64_t lag = (int64_t)(eevdf_avg(s, c) - t->vruntime);
	int64_t limit = (int64_t)(s->min_gran_cycles + s->tick_cycles);

	return lag > limit ? limit : lag < -limit ? -limit : lag;
}

/* a before b: an earlier deadline; ties, the smaller id. */
static bool deadline_before(const struct sim_thread *a, const struct sim_thread *b)
{
	return a->deadline < b->deadline || (a->deadline == b->deadline && a->id < b->id);
}

int eevdf_pick(const struct sim *s, const struct sim_cpu *c)
{
	const struct sim_thread *curr = c->curr >= 0 ? s->threads[c->curr] : NULL, *best = NULL;
	unsigned __int128 sum;
	unsigned n = eevdf_sum(s, c, &sum);

	if (n == 1)
		return curr ? curr->id : c->rq[0];
	/* eligible: v <= V, as sum >= v x n (one sum for every entity) */
	if (curr && sum < (unsigned __int128)curr->vruntime * n)
		curr = NULL;
	if (curr && curr->vruntime < curr->vprot)
		return curr->id;
	for (unsigned i = 0; i < c->nrq; i++) {
		const struct sim_thread *t = s->threads[c->rq[i]];

		if (sum >= (unsigned __int128)t->vruntime * n && (!best || deadline_before(t, best)))
			best = t;
	}
	if (!best || (curr && curr->deadline < best->deadline))
		best = curr;
	return best ? best->id : -1;
}

/* t is none of c's entities (the caller took it off). */
void eevdf_place(const struct sim *s, const struct sim_cpu *c, struct sim_thread *t, bool initial)
{
	unsigned __int128 sum;
	unsigned n = eevdf_sum(s, c, &sum);
	uint64_t slice = initial ? s->min_gran_cycles / 2 : s->min_gran_cycles;
	int64_t lag = 0;

	if (n && t->vlag)
		lag = t->vlag * (int64_t)(n + 1) / (int64_t)n;
	t->vruntime = (n ? (uint64_t)(sum / n) : c->min_vruntime) - (uint64_t)lag;
	t->deadline = t->vruntime + slice;
}
