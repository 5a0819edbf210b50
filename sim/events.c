/*
 * events.c — the engine's lowest layer (sim.h): one heap of events ordered by
 * (virtual time, kind, id), the table of cache lines and their charged
 * accesses, and the parked spins (pr_sim.c decides when a spin parks;
 * sched.c and a line's writers end it).
 */
#include "sim_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the heap ---- */

bool sim_ev_before(const struct sim_ev *a, const struct sim_ev *b)
{
	if (a->time != b->time)
		return a->time < b->time;
	if (a->kind != b->kind)
		return a->kind < b->kind;
	return a->id < b->id;
}

static void heap_set(struct sim *s, unsigned i, struct sim_ev *e)
{
	s->heap[i] = e;
	e->heap = (int)i;
}

static void heap_up(struct sim *s, unsigned i)
{
	struct sim_ev *e = s->heap[i];

	while (i > 0 && sim_ev_before(e, s->heap[(i - 1) / 2])) {
		heap_set(s, i, s->heap[(i - 1) / 2]);
		i = (i - 1) / 2;
	}
	heap_set(s, i, e);
}

static void heap_down(struct sim *s, unsigned i)
{
	struct sim_ev *e = s->heap[i];

	for (;;) {
		unsigned c = 2 * i + 1;

		if (c >= s->nheap)
			break;
		if (c + 1 < s->nheap && sim_ev_before(s->heap[c + 1], s->heap[c]))
			c++;
		if (!sim_ev_before(s->heap[c], e))
			break;
		heap_set(s, i, s->heap[c]);
		i = c;
	}
	heap_set(s, i, e);
}

void sim_heap_push(struct sim *s, struct sim_ev *e)
{
	if (s->nheap == s->capheap) {
		s->capheap = s->capheap ? 2 * s->capheap : 64;
		s->heap = realloc(s->heap, s->capheap * sizeof(*s->heap));
		if (!s->heap) {
			fprintf(stderr, "sim: out of memory (event heap)\n");
			abort();
		}
	}
	heap_set(s, s->nheap++, e);
	heap_up(s, s->nheap - 1);
}

void sim_heap_remove(struct sim *s, struct sim_ev *e)
{
	unsigned i = (unsigned)e->heap;
	struct sim_ev *last = s->heap[--s->nheap];

	e->heap = -1;
	if (i == s->nheap)
		return;
	heap_set(s, i, last);
	heap_up(s, i);
	heap_down(s, (unsigned)last->heap);
}

void sim_heap_update(struct sim *s, struct sim_ev *e)
{
	if (e->heap < 0) {
		sim_heap_push(s, e);
		return;
	}
	heap_up(s, (unsigned)e->heap);
	heap_down(s, (unsigned)e->heap);
}

struct sim_ev *sim_heap_pop(struct sim *s)
{
	struct sim_ev *e = s->heap[0];

	sim_heap_remove(s, e);
	return e;
}

/* ---- the lines ---- */

static size_t line_slot(uint64_t tag, size_t cap)
{
	return (size_t)((tag * UINT64_C(0x9e3779b97f4a7c15)) >> 20) & (cap - 1);
}

static void lines_grow(struct sim *s)
{
	size_t old = s->caplines, cap = old ? 2 * old : 4096;
	struct sim_line *prev = s->lines, *nl = calloc(cap, sizeof(*nl));

	if (!nl) {
		fprintf(stderr, "sim: out of memory (line table)\n");
		abort();
	}
	for (size_t i = 0; i < old; i++) {
		size_t j;

		if (!prev[i].tag)
			continue;
		for (j = line_slot(prev[i].tag, cap); nl[j].tag; j = (j + 1) & (cap - 1))
			;
		nl[j] = prev[i];
	}
	free(prev);
	s->lines = nl;
	s->caplines = cap;
}

/* The state of the line holding `addr`; a new line is in no cache.  The
 * pointer is good until the next call (the table grows). */
struct sim_line *sim_line_get(struct sim *s, uintptr_t addr)
{
	uint64_t tag = ((uint64_t)addr >> 6) + 1;
	size_t j;

	if (2 * (s->nlines + 1) > s->caplines)
		lines_grow(s);
	for (j = line_slot(tag, s->caplines); s->lines[j].tag; j = (j + 1) & (s->caplines - 1))
		if (s->lines[j].tag == tag)
			return &s->lines[j];
	s->lines[j].tag = tag;
	s->lines[j].owner = -1;
	s->lines[j].wait_head = s->lines[j].wait_tail = -1;
	s->nlines++;
	return &s->lines[j];
}

/* The first waiter for line `l` runs at `at` (the line is free then). */
static void line_hand_over(struct sim *s, struct sim_line *l, uint64_t at)
{
	struct sim_thread *h;

	if (l->wait_head < 0)
		return;
	h = s->threads[l->wait_head];
	h->vtime = h->vtime > at ? h->vtime : at;
	h->ev.time = h->vtime;
	sim_heap_push(s, &h->ev);
}

void sim_wait_turn(struct sim *s, struct sim_thread *t)
{
	t->ev.time = t->vtime;
	if (s->nheap && sim_ev_before(s->heap[0], &t->ev)) {
		sim_heap_push(s, &t->ev);
		sim_yield_engine(s, t);
	}
	s->now = t->vtime;
}

/*
 * A transfer of line `l` to `t`, requested at `req`: the request reaches
 * the line's holder half the transfer's latency later — or when the line
 * reaches that holder, if it is still on its way there — and from then the
 * line is `t`'s: its access takes effect there, and sees what the holder
 * wrote until then.  The line arrives the other half later, when `t` goes
 * on.  Until the request reaches it, the holder's own accesses still hit;
 * and the requests for one line are served in their order (the line's
 * queue, sim_line_wait), each one's snoop no earlier than the line's
 * arrival at the one before (busy_until).  The latency's two halves are
 * taken as equal (derived: a request's way to the holder, the line's way
 * back).  Two threads handing a line back and forth (a store, then the
 * other's load) take 1.5 latencies a way: calibrate.c's ping-pong measures
 * that, and writes lat.* as two thirds of its half round trip.  (Charged
 * as it was before, the access at the request and the next request only
 * after the line's arrival, a way took 2 latencies and a requester saw a
 * value the holder had changed before the request could reach it: every
 * simulated tas acquisition at 2 threads found the lock held.)
 */
static void line_in_flight(struct sim *s, struct sim_thread *t, struct sim_line *l, enum sim_access kind,
			   uint64_t req)
{
	struct sim_line peek = *l;  /* the cost model changes the line's state: ask it on a copy */
	uint64_t lat = s->cfg.cost(&peek, t->cpu, kind, &s->topo, &s->costs);
	uint64_t hit = s->costs.hit + (kind == SIM_RMW ? s->costs.atomic_extra : 0);
	uint64_t snoop = req + lat / 2;

	if (lat <= hit)
		return;
	snoop = snoop > t->vtime ? snoop : t->vtime;
	snoop = snoop > l->busy_until ? snoop : l->busy_until;
	l->busy_until = snoop + (lat - lat / 2);  /* reserved: the next request is served after */
	t->in_flight = true;
	t->vtime = snoop;
	/* No preemption point: the request is on its way, and the access
	 * follows at once. */
	sim_wait_turn(s, t);
}

/*
 * Before `t`'s access to the line of `p`, just before it touches the memory:
 * a transfer is served when the transfers requested before it are (a line
 * is in one place at a time: read-modify-writes of one line serialize), so
 * the thread waits in the line's queue for its turn, every event before
 * run; then the line is in flight to it (line_in_flight), and its access
 * sees what the accesses served before it wrote.  Hits wait for nothing.
 */
void sim_line_wait(struct sim *s, struct sim_thread *t, const volatile void *p, enum sim_access kind)
{
	struct sim_line *l = sim_line_get(s, (uintptr_t)p);
	uint64_t req = t->vtime;
	bool first;

	if (!sim_needs_transfer(l, t->cpu, kind))
		return;
	if (l->busy_until > t->vtime || l->wait_head >= 0) {
		first = l->wait_head < 0;
		t->line_next = -1;
		if (first)
			l->wait_head = t->id;
		else
			s->threads[l->wait_tail]->line_next = t->id;
		l->wait_tail = t->id;
		if (first)
			line_hand_over(s, l, l->busy_until);
		sim_yield_engine(s, t);
		/* Its turn: off the queue; its request was on its way since `req`. */
		s->now = t->vtime;
		l = sim_line_get(s, (uintptr_t)p);
		l->wait_head = t->line_next;
		if (l->wait_head < 0)
			l->wait_tail = -1;
	}
	line_in_flight(s, t, l, kind, req);
}

/*
 * Charges `t`'s access to the line of `p` by the cost model (after
 * sim_line_wait): a hit's cost, or a transfer's second half (its first was
 * waited in line_in_flight); and hands the line to its next waiter when the
 * line is here.  A write wakes the spins parked on the line.
 */
uint64_t sim_access(struct sim *s, struct sim_thread *t, const volatile void *p, enum sim_access kind)
{
	struct sim_line *l = sim_line_get(s, (uintptr_t)p);
	uint64_t cost = s->cfg.cost(l, t->cpu, kind, &s->topo, &s->costs);
	uint64_t hit = s->costs.hit + (kind == SIM_RMW ? s->costs.atomic_extra : 0);
	uint64_t at = t->vtime;  /* when the access took effect */

	s->st.accesses++;
	if (cost > hit) {
		s->st.transfers++;
		t->cur.missed = true;
		/* Without line_in_flight's half (a cost model that disagrees
		 * with its own peek), the whole transfer from here. */
		t->vtime = at + (t->in_flight ? cost - cost / 2 : cost);
		l->busy_until = t->vtime > l->busy_until ? t->vtime : l->busy_until;
	} else {
		t->vtime = at + cost;
	}
	t->in_flight = false;
	if (l->wait_head >= 0 && s->threads[l->wait_head]->ev.heap < 0 && l->wait_head != t->id)
		line_hand_over(s, l, l->busy_until > at ? l->busy_until : at);
	if (kind != SIM_LOAD)
		sim_line_written(s, l, at);
	return l->version;
}

/* ---- parked spins ---- */

void sim_spin_reset(struct sim_thread *t)
{
	memset(&t->cur, 0, sizeof(t->cur));
	memset(&t->prev, 0, sizeof(t->prev));
	t->prev.unparkable = true;
	t->cur.start = t->vtime;
}

static bool watches(const struct sim_thread *t, uint64_t tag)
{
	for (unsigned i = 0; i < t->cur.n; i++)
		if (((uint64_t)t->cur.r[i].addr >> 6) + 1 == tag)
			return true;
	return false;
}

static void set_watch(struct sim *s, struct sim_thread *t, int d)
{
	for (unsigned i = 0; i < t->cur.n; i++) {
		bool seen = false;

		for (unsigned j = 0; j < i; j++)
			seen |= (t->cur.r[j].addr >> 6) == (t->cur.r[i].addr >> 6);
		if (!seen)
			sim_line_get(s, t->cur.r[i].addr)->watchers += (unsigned)d;
	}
}

/* Takes `t` off the parked list and its lines' watch. */
static void unlist(struct sim *s, struct sim_thread *t)
{
	int last = s->parked[--s->nparked];

	set_watch(s, t, -1);
	s->parked[t->parked_idx] = last;
	s->threads[last]->parked_idx = t->parked_idx;
	t->parked_idx = -1;
	t->parked = false;
}

/* Parks `t` (just past a pause, at the start of a pass of `pass` cycles) until
 * a line it reads is written, or a scheduler event interrupts it, or
 * `resume_at` (UINT64_MAX: none). */
void sim_park(struct sim *s, struct sim_thread *t, uint64_t pass, uint64_t resume_at)
{
	t->parked = true;
	t->park_t0 = t->vtime;
	t->park_pass = pass;
	t->parked_idx = (int)s->nparked;
	s->parked[s->nparked++] = t->id;
	set_watch(s, t, 1);
	s->st.parks++;
	if (resume_at != UINT64_MAX) {
		t->vtime = resume_at;
		t->ev.time = resume_at;
		sim_heap_push(s, &t->ev);
	}
	sim_yield_engine(s, t);
	if (t->parked) {   /* resumed at its deadline's pass */
		s->st.parked_passes += (t->vtime - t->park_t0) / pass;
		unlist(s, t);
	}
}

static void unpark(struct sim *s, struct sim_thread *t, uint64_t at)
{
	uint64_t passes = (at - t->park_t0 + t->park_pass - 1) / t->park_pass;

	unlist(s, t);
	/* It ran every pass as hits: it resumes at the first pass that starts
	 * at or after `at`, and re-reads. */
	s->st.parked_passes += passes;
	t->vtime = t->park_t0 + passes * t->park_pass;
	t->ev.time = t->vtime;
	sim_heap_update(s, &t->ev);
}

void sim_line_written(struct sim *s, struct sim_line *l, uint64_t at)
{
	l->version++;
	if (!l->watchers)
		return;
	for (unsigned i = 0; i < s->nparked;) {
		struct sim_thread *w = s->threads[s->parked[i]];

		if (watches(w, l->tag))
			unpark(s, w, at);   /* moves the last parked thread to i */
		else
			i++;
	}
}

/* A scheduler event at `at` for the thread running on its CPU: a parked
 * spin or a computation ends there, so it can be preempted. */
void sim_interrupt(struct sim *s, struct sim_thread *t, uint64_t at)
{
	if (t->parked) {
		unpark(s, t, at);
	} else if (t->interruptible && t->vtime > at) {
		t->vtime = at;
		t->ev.time = at;
		sim_heap_update(s, &t->ev);
	}
}

void sim_yield_engine(struct sim *s, struct sim_thread *t)
{
	coro_switch(&t->co, &s->main);
}

bool sim_preemptible(const struct sim *s, const struct sim_thread *t)
{
	return s->cfg.semantics == SIM_USERSPACE || t->kdepth == 0;
}

