/*
 * sched.c — the simulated scheduler, modelled on Linux 2.6.34's CFS
 * (kernel/sched_fair.c, kernel/sched.c), with the profile's scaled
 * sched_latency, sched_min_granularity and sched_wakeup_granularity:
 * - per-CPU run queues ordered by vruntime (all threads weigh nice 0, so
 *   vruntime advances one for one with time on the CPU);
 * - the tick (HZ) runs check_preempt_tick when more than one thread is
 *   runnable: need_resched once the current one ran its ideal slice,
 *   period / nr_running, where period is sched_latency, or nr_running x
 *   min_granularity beyond sched_nr_latency (the profile's, 5 in 2.6.34);
 * - a woken thread is placed at max(its vruntime, min_vruntime -
 *   latency / 2) (place_entity, GENTLE_FAIR_SLEEPERS) and preempts the
 *   current one when their vruntimes differ by more than
 *   wakeup_granularity (wakeup_preempt_entity);
 * - a CPU left idle pulls the first queued thread of the busiest run queue
 *   (idle_balance, simplified: no periodic balancing, no domains);
 * - a woken thread goes to its previous CPU when idle, else to an idle CPU
 *   of its socket, else of the machine, else its previous CPU
 *   (select_task_rq_fair, simplified).
 * With the profile's second model, eevdf-6.x (Linux 6.18's EEVDF, which
 * this machine's kernel runs), the same moves take EEVDF's decisions
 * (sched_eevdf.c): the tick and a wake-up reschedule a thread past its
 * deadline or its protected slice (update_curr(), update_deadline()); a
 * woken thread preempts when pick_eevdf() would pick it
 * (check_preempt_wakeup_fair()); a yielder forfeits the rest of its
 * request (yield_task_fair(), 6.17's 79104becf42b); a thread sleeping while
 * ineligible stays queued until picked or woken (DELAY_DEQUEUE, DELAY_ZERO:
 * a delayed sleeper woken is requeued on its CPU, as ttwu_runnable() does);
 * a migrated thread keeps its lag and relative deadline (PLACE_LAG,
 * PLACE_REL_DEADLINE).  The base slice is the profile's min_granularity,
 * scaled as the kernel scales it.
 * Each thread's struct oracle_sched_slot is written as the BPF program
 * writes it (locks/bpf/sched_oracle.bpf.c): on_cpu and cpu at switch-in,
 * on_cpu 0 and preempted or blocked at switch-out, resched when
 * TIF_NEED_RESCHED is set; through the cost model's lines, so a spinner
 * parked on its owner's slot wakes when it changes.
 */
#include "sim_internal.h"

#include <stdio.h>
#include <stdlib.h>

/* ---- slots ---- */

/* The kernel on `cpu` writes a slot field: the line moves there, and the
 * spins parked on it wake. */
static void slot_written(struct sim *s, const void *field, int cpu)
{
	struct sim_line *l = sim_line_get(s, (uintptr_t)field);

	(void)s->cfg.cost(l, cpu, SIM_STORE, &s->topo, &s->costs);
	sim_line_written(s, l, s->now);
}

void sched_slot_write(struct sim *s, struct sim_thread *t, slot_u64 *field, slot_u64 v, int cpu)
{
	(void)t;
	__atomic_store_n(field, v, __ATOMIC_RELAXED);
	slot_written(s, field, cpu);
}

void sched_slot_write32(struct sim *s, struct sim_thread *t, slot_u32 *field, slot_u32 v, int cpu)
{
	(void)t;
	__atomic_store_n(field, v, __ATOMIC_RELAXED);
	slot_written(s, field, cpu);
}

/* ---- run queues ---- */

static void rq_add(struct sim_cpu *c, int id)
{
	if (c->nrq == c->caprq) {
		c->caprq = c->caprq ? 2 * c->caprq : 8;
		c->rq = realloc(c->rq, c->caprq * sizeof(*c->rq));
		if (!c->rq) {
			fprintf(stderr, "sim: out of memory (run queue)\n");
			abort();
		}
	}
	c->rq[c->nrq++] = id;
}

/* The queued thread with the smallest vruntime (ties: the smallest id), its
 * index, or -1. */
static int rq_leftmost(const struct sim *s, const struct sim_cpu *c)
{
	int best = -1;

	for (unsigned i = 0; i < c->nrq; i++) {
		const struct sim_thread *a = s->threads[c->rq[i]];

		if (best < 0 || a->vruntime < s->threads[c->rq[best]]->vruntime ||
		    (a->vruntime == s->threads[c->rq[best]]->vruntime && a->id < s->threads[c->rq[best]]->id))
			best = (int)i;
	}
	return best;
}

/* Thread `id`'s index in c's run queue (it is there). */
static int rq_index(const struct sim_cpu *c, int id)
{
	unsigned i = 0;

	while (c->rq[i] != id)
		i++;
	return (int)i;
}

static int rq_take(struct sim_cpu *c, int i)
{
	int id = c->rq[i];

	for (unsigned j = (unsigned)i + 1; j < c->nrq; j++)
		c->rq[j - 1] = c->rq[j];
	c->nrq--;
	return id;
}

static void update_min_vruntime(struct sim *s, struct sim_cpu *c)
{
	int l = rq_leftmost(s, c);
	uint64_t v = c->curr >= 0 ? s->threads[c->curr]->vruntime : UINT64_MAX;

	if (l >= 0 && s->threads[c->rq[l]]->vruntime < v)
		v = s->threads[c->rq[l]]->vruntime;
	if (v != UINT64_MAX && v > c->min_vruntime)
		c->min_vruntime = v;
}

/* update_curr: the running thread's time since it was last accounted;
 * under EEVDF, whether its request ran out (update_deadline(): then a new
 * one, a slice on). */
static bool update_curr(struct sim *s, struct sim_cpu *c, uint64_t at)
{
	struct sim_thread *t;

	if (c->curr < 0)
		return false;
	t = s->threads[c->curr];
	if (at > t->exec_start) {
		t->vruntime += at - t->exec_start;
		t->sum_exec += at - t->exec_start;
		t->window_exec += sim_window_part(s, t->exec_start, at);
		t->exec_start = at;
	}
	/* CFS's min_vruntime; under EEVDF where an empty queue's V lies
	 * (avg_vruntime() with no load): the same least vruntime, never back */
	update_min_vruntime(s, c);
	if (!s->eevdf)
		return false;
	if (t->vruntime < t->deadline)
		return false;
	t->deadline = t->vruntime + s->min_gran_cycles;
	return true;
}

/* ---- switching ---- */

static void switch_in(struct sim *s, struct sim_cpu *c, struct sim_thread *t, uint64_t at)
{
	int cpu = (int)(c - s->cpus);

	c->curr = t->id;
	c->need_resched = false;
	t->st = T_RUNNING;
	t->cpu = cpu;
	t->vtime = t->vtime > at ? t->vtime : at;
	t->exec_start = t->vtime;
	t->prev_sum_exec = t->sum_exec;
	/* set_protect_slice(): every slice the base one, protected to the deadline */
	t->vprot = t->deadline;
	sched_slot_write32(s, t, &t->slot.cpu, (slot_u32)cpu, cpu);
	sched_slot_write32(s, t, &t->slot.on_cpu, 1, cpu);
	t->ev.time = t->vtime;
	sim_heap_push(s, &t->ev);
	s->st.switches++;
}

/* A vruntime of `from`'s queue as the same lag in `to`'s, never below 0. */
static uint64_t renormalise(uint64_t v, const struct sim_cpu *from, const struct sim_cpu *to)
{
	int64_t lag = (int64_t)(v - from->min_vruntime);

	return lag < 0 && (uint64_t)-lag > to->min_vruntime ? 0 : to->min_vruntime + (uint64_t)lag;
}

/* The threads on c's run queue that can run (not EEVDF's delayed sleepers). */
static unsigned runnable_queued(const struct sim *s, const struct sim_cpu *c)
{
	unsigned n = 0;

	for (unsigned i = 0; i < c->nrq; i++)
		n += !s->threads[c->rq[i]]->delayed;
	return n;
}

/* EEVDF: the queued thread with the earliest deadline that can run, its
 * index (it exists). */
static int earliest_runnable(const struct sim *s, const struct sim_cpu *c)
{
	int best = -1;

	for (unsigned i = 0; i < c->nrq; i++) {
		const struct sim_thread *a = s->threads[c->rq[i]];

		if (!a->delayed && (best < 0 || a->deadline < s->threads[c->rq[best]]->deadline))
			best = (int)i;
	}
	return best;
}

/* EEVDF: `t`, off `from`'s queue, placed on `to`'s with its lag and its
 * relative deadline (a migration: PLACE_LAG, PLACE_REL_DEADLINE). */
static void migrate_eevdf(struct sim *s, struct sim_cpu *from, struct sim_cpu *to, struct sim_thread *t, int i)
{
	uint64_t rel = t->deadline - t->vruntime;

	t->vlag = eevdf_lag(s, from, t);
	rq_take(from, i);
	eevdf_place(s, to, t, false);
	t->deadline = t->vruntime + rel;
}

/* The busiest other run queue's first thread, moved here with its vruntime
 * renormalised (idle_balance; EEVDF: its lag kept), or NULL. */
static struct sim_thread *pull(struct sim *s, struct sim_cpu *c)
{
	struct sim_cpu *busiest = NULL;
	unsigned most = 0;
	struct sim_thread *t;

	for (unsigned i = 0; i < s->cfg.ncpus; i++) {
		unsigned n = s->eevdf ? runnable_queued(s, &s->cpus[i]) : s->cpus[i].nrq;

		if (&s->cpus[i] != c && n > most) {
			busiest = &s->cpus[i];
			most = n;
		}
	}
	if (!busiest)
		return NULL;
	if (s->eevdf) {
		int i = earliest_runnable(s, busiest);

		t = s->threads[busiest->rq[i]];
		migrate_eevdf(s, busiest, c, t, i);
		return t;
	}
	t = s->threads[rq_take(busiest, rq_leftmost(s, busiest))];
	t->vruntime = renormalise(t->vruntime, busiest, c);
	return t;
}

/* EEVDF's pick (pick_next_entity()): a delayed sleeper picked leaves the
 * queue instead, keeping no positive lag (DELAY_ZERO), and the pick is
 * made again; the thread's id, or -1. */
static int eevdf_next(struct sim *s, struct sim_cpu *c)
{
	int id;

	while ((id = eevdf_pick(s, c)) >= 0 && s->threads[id]->delayed) {
		struct sim_thread *t = s->threads[id];

		t->vlag = eevdf_lag(s, c, t);
		if (t->vlag > 0)
			t->vlag = 0;
		t->delayed = false;
		rq_take(c, rq_index(c, id));
	}
	return id;
}

/* CPU `c` is free at `at`: the next thread (under EEVDF `want`, when the
 * pick was made before its thread left, else -1), after a context switch. */
static void pick_next(struct sim *s, struct sim_cpu *c, uint64_t at, int want)
{
	struct sim_thread *t;

	c->curr = -1;
	c->need_resched = false;
	if (s->eevdf) {
		int id = want >= 0 ? want : eevdf_next(s, c);

		t = id >= 0 ? s->threads[rq_take(c, rq_index(c, id))] : pull(s, c);
	} else {
		int l = rq_leftmost(s, c);

		t = l >= 0 ? s->threads[rq_take(c, l)] : pull(s, c);
	}
	if (t)
		switch_in(s, c, t, at + s->cs_cycles);
}

static void leave_cpu(struct sim *s, struct sim_thread *t, enum sim_out why)
{
	int cpu = t->cpu;
	struct oracle_sched_slot *sl = &t->slot;

	sched_slot_write32(s, t, &sl->on_cpu, 0, cpu);
	if (why == OUT_PREEMPT || why == OUT_YIELD) {
		/* prev_state TASK_RUNNING: the program counts it involuntary */
		sched_slot_write(s, t, &sl->preempted, sl->preempted + 1, cpu);
		t->st = T_QUEUED;
		rq_add(&s->cpus[cpu], t->id);
		s->st.preemptions++;
	} else if (why == OUT_SLEEP) {
		sched_slot_write(s, t, &sl->blocked, sl->blocked + 1, cpu);
		t->st = T_SLEEPING;
		if (t->delayed)
			rq_add(&s->cpus[cpu], t->id);
	} else {
		t->st = T_DONE;
		s->live--;
	}
}

/* Whether `t`, wanting off (preempted or yielding), is still the one CFS
 * would pick: then it keeps its CPU with no switch. */
static bool still_leftmost(struct sim *s, struct sim_cpu *c, const struct sim_thread *t)
{
	int l = rq_leftmost(s, c);

	return l < 0 || s->threads[c->rq[l]]->vruntime > t->vruntime ||
	       (s->threads[c->rq[l]]->vruntime == t->vruntime && s->threads[c->rq[l]]->id > t->id);
}

/* EEVDF: `t` wants off; the thread to run next (t itself: it keeps its
 * CPU), or -1 to pick once it has left. */
static int eevdf_switch_out(struct sim *s, struct sim_cpu *c, struct sim_thread *t, enum sim_out why)
{
	if (why == OUT_YIELD && c->nrq && eevdf_eligible(s, c, t)) {
		/* yield_task_fair(): forfeit the rest of the request */
		t->vruntime = t->deadline;
		t->deadline += s->min_gran_cycles;
	}
	if (why == OUT_SLEEP) {
		/* dequeue_entity(): ineligible, it stays queued (DELAY_DEQUEUE) */
		if (!eevdf_eligible(s, c, t)) {
			t->delayed = true;
			s->st.delayed_sleeps++;
		}
		else
			t->vlag = eevdf_lag(s, c, t);
	}
	return why == OUT_PREEMPT || why == OUT_YIELD ? eevdf_next(s, c) : -1;
}

void sched_switch_out(struct sim *s, struct sim_thread *t, enum sim_out why)
{
	struct sim_cpu *c = &s->cpus[t->cpu];
	int next = -1;

	s->now = t->vtime;
	update_curr(s, c, t->vtime);
	if (s->eevdf)
		next = eevdf_switch_out(s, c, t, why);
	if ((why == OUT_PREEMPT || why == OUT_YIELD) && (s->eevdf ? next == t->id : still_leftmost(s, c, t))) {
		c->need_resched = false;
		return;
	}
	leave_cpu(s, t, why);
	pick_next(s, c, t->vtime, next);
	sim_spin_reset(t);
	sim_yield_engine(s, t);
	/* Running again (never after OUT_DONE). */
	s->now = t->vtime;
	sim_spin_reset(t);
}

/* ---- preemption points ---- */

/* Where a thread may be switched out: when its CPU wants it off and its
 * mode lets it go. */
void sim_preempt_point(struct sim *s, struct sim_thread *t)
{
	while (s->cpus[t->cpu].need_resched && sim_preemptible(s, t))
		sched_switch_out(s, t, OUT_PREEMPT);
}

/* Before a shared access at t->vtime: wait until no earlier event is pending. */
void sim_sync(struct sim *s, struct sim_thread *t)
{
	sim_wait_turn(s, t);
	sim_preempt_point(s, t);
}

/* ---- need_resched ---- */

static void resched(struct sim *s, struct sim_cpu *c, uint64_t at)
{
	struct sim_thread *t = s->threads[c->curr];

	if (c->need_resched)
		return;
	c->need_resched = true;
	sched_slot_write(s, t, &t->slot.resched, t->slot.resched + 1, t->cpu);
	if (sim_preemptible(s, t))
		sim_interrupt(s, t, at);
}

static uint64_t ideal_slice(const struct sim *s, unsigned nr_running)
{
	uint64_t period = nr_running > s->nr_latency ? nr_running * s->min_gran_cycles : s->latency_cycles;

	return period / nr_running;
}

/* EEVDF's update_curr(): with another entity queued, the running thread is
 * rescheduled once its request ran out or it left its protected slice. */
static void eevdf_check_curr(struct sim *s, struct sim_cpu *c, uint64_t at, bool expired)
{
	if (c->curr >= 0 && c->nrq > 0 && (expired || s->threads[c->curr]->vruntime >= s->threads[c->curr]->vprot))
		resched(s, c, at);
}

void sched_tick(struct sim *s, struct sim_cpu *c, uint64_t at)
{
	bool expired;

	s->st.ticks++;
	c->tick.time = at + s->tick_cycles;
	sim_heap_push(s, &c->tick);
	if (c->curr < 0) {
		/* an idle CPU's balancing (nohz idle balance, simplified) */
		struct sim_thread *t = pull(s, c);

		if (t)
			switch_in(s, c, t, at + s->cs_cycles);
		return;
	}
	expired = update_curr(s, c, at);
	if (s->eevdf) {
		eevdf_check_curr(s, c, at, expired);
		return;
	}
	/* entity_tick: check_preempt_tick only with another thread runnable. */
	if (c->nrq > 0) {
		struct sim_thread *t = s->threads[c->curr];

		if (t->sum_exec - t->prev_sum_exec > ideal_slice(s, c->nrq + 1))
			resched(s, c, at);
	}
}

/* ---- start, sleep, wake ---- */

void sched_init(struct sim *s)
{
	for (unsigned i = 0; i < s->cfg.ncpus; i++) {
		struct sim_cpu *c = &s->cpus[i];
		uint64_t x = s->rng + i;

		c->curr = -1;
		/* EEVDF places a thread at V - lag: start far from 0, so that
		 * no placement wraps. */
		if (s->eevdf)
			c->min_vruntime = UINT64_C(1) << 62;
		/* Each CPU's tick phase, from the seed (CPUs' timers are not
		 * aligned). */
		c->tick = (struct sim_ev){ 0, EV_TICK, i, -1 };
		c->tick.time = 1 + (s->tick_cycles ? (x * UINT64_C(0x9e3779b97f4a7c15) >> 11) % s->tick_cycles : 0);
		sim_heap_push(s, &c->tick);
	}
}

void sched_start(struct sim *s, struct sim_thread *t, uint64_t at)
{
	struct sim_cpu *c = &s->cpus[t->id % (int)s->cfg.ncpus];

	t->cpu = (int)(c - s->cpus);
	if (s->eevdf)
		eevdf_place(s, c, t, true);
	else
		t->vruntime = c->min_vruntime;
	t->vtime = at;
	sim_spin_reset(t);
	if (c->curr < 0) {
		switch_in(s, c, t, at);
	} else {
		t->st = T_QUEUED;
		rq_add(c, t->id);
	}
}

static int idle_in(const struct sim *s, unsigned from, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		if (s->cpus[from + i].curr < 0 && s->cpus[from + i].nrq == 0)
			return (int)(from + i);
	return -1;
}

static int select_cpu(const struct sim *s, const struct sim_thread *t)
{
	unsigned per_socket = s->topo.cores_per_socket * s->topo.threads_per_core;
	unsigned sock0 = (unsigned)t->cpu / per_socket * per_socket;
	int c;

	if (s->cpus[t->cpu].curr < 0 && s->cpus[t->cpu].nrq == 0)
		return t->cpu;
	if (sock0 + per_socket > s->cfg.ncpus)
		per_socket = s->cfg.ncpus - sock0;
	c = idle_in(s, sock0, per_socket);
	if (c < 0)
		c = idle_in(s, 0, s->cfg.ncpus);
	return c < 0 ? t->cpu : c;
}

/* EEVDF: a delayed sleeper woken is requeued where it is (ttwu_runnable(),
 * requeue_delayed_entity()), re-placed with no lag if its lag is positive
 * (DELAY_ZERO); any other is placed on the CPU chosen, with its lag. */
static struct sim_cpu *eevdf_enqueue(struct sim *s, struct sim_thread *t, uint64_t at)
{
	struct sim_cpu *c;

	if (t->delayed) {
		c = &s->cpus[t->cpu];
		t->delayed = false;
		if (eevdf_lag(s, c, t) > 0) {
			rq_take(c, rq_index(c, t->id));
			t->vlag = 0;
			eevdf_place(s, c, t, false);
			rq_add(c, t->id);
		}
	} else {
		c = &s->cpus[select_cpu(s, t)];
		/* enqueue_entity(): the running thread's time first */
		eevdf_check_curr(s, c, at, update_curr(s, c, at));
		eevdf_place(s, c, t, false);
		t->cpu = (int)(c - s->cpus);
		rq_add(c, t->id);
	}
	t->st = T_QUEUED;
	t->vtime = t->vtime > at ? t->vtime : at;
	return c;
}

/* EEVDF's wake-up: preempts when pick_eevdf() would pick the woken
 * (check_preempt_wakeup_fair(); every slice the base one, PREEMPT_SHORT
 * never applies); on an idle CPU it runs. */
static void eevdf_wake(struct sim *s, struct sim_thread *t, uint64_t at)
{
	struct sim_cpu *c = eevdf_enqueue(s, t, at);

	if (c->curr < 0) {
		rq_take(c, rq_index(c, t->id));
		switch_in(s, c, t, at);
		return;
	}
	if (eevdf_pick(s, c) == t->id)
		resched(s, c, at);
}

void sched_wake_arrive(struct sim *s, struct sim_thread *t, uint64_t at)
{
	int cpu;
	struct sim_cpu *c;
	uint64_t thresh = s->latency_cycles / 2;

	if (s->eevdf) {
		eevdf_wake(s, t, at);
		return;
	}
	cpu = select_cpu(s, t);
	c = &s->cpus[cpu];
	t->vruntime = renormalise(t->vruntime, &s->cpus[t->cpu], c);
	if (c->min_vruntime > thresh && t->vruntime < c->min_vruntime - thresh)
		t->vruntime = c->min_vruntime - thresh;
	t->cpu = cpu;
	t->vtime = t->vtime > at ? t->vtime : at;
	if (c->curr < 0) {
		/* wake_latency is measured to the woken thread running on an
		 * idle CPU: the switch is in it. */
		switch_in(s, c, t, at);
		return;
	}
	t->st = T_QUEUED;
	rq_add(c, t->id);
	update_curr(s, c, at);
	if (s->threads[c->curr]->vruntime > t->vruntime + s->wakeup_gran_cycles)
		resched(s, c, at);
}

static bool word_is(const uint32_t *w, uint32_t v)
{
	return __atomic_load_n(w, __ATOMIC_RELAXED) == v;
}

void sched_futex_wait(struct sim *s, struct sim_thread *t, uint32_t *w, uint32_t expected)
{
	t->vtime += s->syscall_cycles / 2 + s->futex_wait_cycles;
	sim_sync(s, t);
	sim_line_wait(s, t, w, SIM_LOAD);
	sim_access(s, t, w, SIM_LOAD);
	if (word_is(w, expected)) {
		t->futex_addr = w;
		t->futex_seq = ++s->futex_seq;
		s->st.futex_sleeps++;
		sched_switch_out(s, t, OUT_SLEEP);
	}
	t->vtime += s->syscall_cycles - s->syscall_cycles / 2;
}

/* The sleeper on `w` that waited first, or NULL. */
static struct sim_thread *first_waiter(struct sim *s, const uint32_t *w)
{
	struct sim_thread *best = NULL;

	for (int i = 0; i < s->nthreads; i++) {
		struct sim_thread *t = s->threads[i];

		if (t->st == T_SLEEPING && t->futex_addr == w && (!best || t->futex_seq < best->futex_seq))
			best = t;
	}
	return best;
}

void sched_futex_wake(struct sim *s, struct sim_thread *t, uint32_t *w, int n)
{
	struct sim_thread *sl;

	t->vtime += s->syscall_cycles / 2;
	sim_sync(s, t);
	for (int i = 0; i < n && (sl = first_waiter(s, w)); i++) {
		sl->futex_addr = NULL;
		sl->wake_ev.time = t->vtime + s->wake_latency_cycles;
		sim_heap_push(s, &sl->wake_ev);
		s->st.futex_wakeups++;
	}
	t->vtime += s->futex_wake_cycles + (s->syscall_cycles - s->syscall_cycles / 2);
}
