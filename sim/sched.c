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

/* update_curr: the running thread's time since it was last accounted. */
static void update_curr(struct sim *s, struct sim_cpu *c, uint64_t at)
{
	struct sim_thread *t;

	if (c->curr < 0)
		return;
	t = s->threads[c->curr];
	if (at > t->exec_start) {
		t->vruntime += at - t->exec_start;
		t->sum_exec += at - t->exec_start;
		t->window_exec += sim_window_part(s, t->exec_start, at);
		t->exec_start = at;
	}
	update_min_vruntime(s, c);
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

/* The busiest other run queue's first thread, moved here with its vruntime
 * renormalised (idle_balance), or NULL. */
static struct sim_thread *pull(struct sim *s, struct sim_cpu *c)
{
	struct sim_cpu *busiest = NULL;
	struct sim_thread *t;

	for (unsigned i = 0; i < s->cfg.ncpus; i++)
		if (&s->cpus[i] != c && s->cpus[i].nrq && (!busiest || s->cpus[i].nrq > busiest->nrq))
			busiest = &s->cpus[i];
	if (!busiest)
		return NULL;
	t = s->threads[rq_take(busiest, rq_leftmost(s, busiest))];
	t->vruntime = renormalise(t->vruntime, busiest, c);
	return t;
}

/* CPU `c` is free at `at`: the next thread, after a context switch. */
static void pick_next(struct sim *s, struct sim_cpu *c, uint64_t at)
{
	int l = rq_leftmost(s, c);
	struct sim_thread *t = l >= 0 ? s->threads[rq_take(c, l)] : pull(s, c);

	c->curr = -1;
	c->need_resched = false;
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

void sched_switch_out(struct sim *s, struct sim_thread *t, enum sim_out why)
{
	struct sim_cpu *c = &s->cpus[t->cpu];

	s->now = t->vtime;
	update_curr(s, c, t->vtime);
	if ((why == OUT_PREEMPT || why == OUT_YIELD) && still_leftmost(s, c, t)) {
		c->need_resched = false;
		return;
	}
	leave_cpu(s, t, why);
	pick_next(s, c, t->vtime);
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

void sched_tick(struct sim *s, struct sim_cpu *c, uint64_t at)
{
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
	update_curr(s, c, at);
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

void sched_wake_arrive(struct sim *s, struct sim_thread *t, uint64_t at)
{
	int cpu = select_cpu(s, t);
	struct sim_cpu *c = &s->cpus[cpu];
	uint64_t thresh = s->latency_cycles / 2;

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
