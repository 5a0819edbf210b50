/*
 * engine.c — the simulation (sim.h): its machine from the profile, its
 * threads, and the loop that runs the earliest event (events.c's heap): a
 * thread's next step is an event, so the thread with the smallest virtual
 * time always runs next, and keeps running without a switch while it stays
 * the smallest.
 */
#include "sim_internal.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/splitmix64.h"

struct sim *sim_cur;
struct sim_thread *sim_cur_thread;

/* ---- threads ---- */

static void thread_main(void *arg)
{
	struct sim_thread *t = arg;

	t->fn(t->arg);
	sched_switch_out(sim_cur, t, OUT_DONE);
}

/* ---- the simulation ---- */

uint64_t sim_cycles(const struct sim *s, double ns)
{
	return (uint64_t)llround(ns * s->prof.tsc_ghz);
}

/* A cost the machine never uses may be NAN (not measurable on the profiled
 * machine: sim/profile.h); it is never charged. */
static uint64_t cyc(double c)
{
	return isfinite(c) && c > 0 ? (uint64_t)llround(c) : 0;
}

/*
 * The simulated machine: the profile's sockets and SMT threads; its cores
 * per socket grown to fit `ncpus` when the profile has fewer CPUs; CPUs
 * numbered socket by socket, so fewer than the profile's fill its first
 * sockets.
 */
static struct sim_topology topology(const struct sim_profile *p, unsigned ncpus)
{
	unsigned per_core = p->threads_per_core, cores = p->cores_per_socket;

	if (ncpus > p->sockets * cores * per_core)
		cores = (ncpus + p->sockets * per_core - 1) / (p->sockets * per_core);
	return (struct sim_topology){ ncpus, cores, per_core, p->has_links ? p->socket_links : NULL };
}

/* The first figure the machine needs that the profile lacks (NAN, or not
 * positive where it must be), or NULL. */
static const char *missing(const struct sim_profile *p, const struct sim_topology *t)
{
	unsigned per_socket = t->cores_per_socket * t->threads_per_core;
	const struct {
		const char *name;
		double v;
		bool needed;
	} need[] = {
		{ "tsc_ghz", p->tsc_ghz, true },
		{ "lat_hit", p->lat_hit, true },
		{ "lat_mem", p->lat_mem, true },
		{ "lat_smt", p->lat_smt, t->threads_per_core > 1 && t->ncpus > 1 },
		{ "lat_socket", p->lat_socket, t->ncpus > t->threads_per_core },
		{ "lat_remote", p->lat_remote, t->ncpus > per_socket },
		{ "lat_remote_2hop", p->lat_remote_2hop, t->links && t->ncpus > per_socket },
		/* EEVDF has no sched_latency (6.6 removed it) */
		{ "sched_latency_ns", p->sched_latency_ns, strcmp(p->sched_model, "eevdf-6.x") != 0 },
		{ "sched_min_granularity_ns", p->sched_min_granularity_ns, true },
	};

	for (size_t i = 0; i < sizeof(need) / sizeof(need[0]); i++)
		if (need[i].needed && !(isfinite(need[i].v) && need[i].v > 0))
			return need[i].name;
	return NULL;
}

static int check_config(const struct sim_config *cfg, unsigned ncpus, char *err, size_t errlen)
{
	const struct sim_profile *p = cfg->profile;
	struct sim_topology t;
	const char *lacks;

	if (!p || p->threads_per_core == 0 || p->cores_per_socket == 0 || p->sockets == 0)
		return snprintf(err, errlen, "sim: the profile has no topology"), -1;
	if (ncpus == 0 || ncpus > SIM_MAX_CPUS)
		return snprintf(err, errlen, "sim: %u CPUs (1 to %d)", ncpus, SIM_MAX_CPUS), -1;
	t = topology(p, ncpus);
	if ((lacks = missing(p, &t)))
		return snprintf(err, errlen, "sim: profile '%s' has no usable %s, which %u simulated CPUs need",
				p->name, lacks, ncpus),
		       -1;
	if (p->hz == 0)
		return snprintf(err, errlen, "sim: profile '%s' has no timer tick (hz)", p->name), -1;
	/* Two models (sched.c): 2.6.34's CFS and 6.18's EEVDF. */
	if (strcmp(p->sched_model, "cfs-2.6.34") != 0 && strcmp(p->sched_model, "eevdf-6.x") != 0)
		return snprintf(err, errlen, "sim: scheduler model '%s' is not simulated (cfs-2.6.34 or eevdf-6.x)",
				p->sched_model),
		       -1;
	return 0;
}

static void set_costs(struct sim *s)
{
	const struct sim_profile *p = &s->prof;

	s->costs = (struct sim_costs){ cyc(p->lat_hit), cyc(p->lat_smt), cyc(p->lat_socket), cyc(p->lat_remote),
				       cyc(p->lat_mem), cyc(p->atomic_extra), cyc(p->pause_cycles),
				       cyc(p->lat_remote_2hop) };
	s->tick_cycles = sim_cycles(s, 1e9 / p->hz);
	s->cs_cycles = sim_cycles(s, p->context_switch_ns);
	s->syscall_cycles = sim_cycles(s, p->syscall_ns);
	s->futex_wait_cycles = sim_cycles(s, p->futex_wait_ns);
	s->futex_wake_cycles = sim_cycles(s, p->futex_wake_ns);
	s->wake_latency_cycles = sim_cycles(s, p->wake_latency_ns);
	s->latency_cycles = sim_cycles(s, p->sched_latency_ns);
	s->min_gran_cycles = sim_cycles(s, p->sched_min_granularity_ns);
	/* 2.6.34's sched_nr_latency is its own constant (5), not recomputed
	 * when the tunables are scaled; a profile without it: their ratio. */
	s->nr_latency = p->sched_nr_latency ? p->sched_nr_latency
					    : (s->latency_cycles + s->min_gran_cycles - 1) / s->min_gran_cycles;
	s->wakeup_gran_cycles = sim_cycles(s, p->sched_wakeup_granularity_ns);
	s->eevdf = strcmp(p->sched_model, "eevdf-6.x") == 0;
}

/* A loaded profile's scheduler tunables, scaled for `ncpus` as the kernel
 * scales them (sim_profile_use_sched); a profile filled in place (no
 * sched[] models) is taken as it is. */
static int scale_sched(struct sim_profile *p, unsigned ncpus, char *err, size_t errlen)
{
	char why[200];

	if (p->n_sched == 0 || ncpus == 0)
		return 0;
	if (sim_profile_use_sched(p, p->sched_model, ncpus, why, sizeof(why)) == 0)
		return 0;
	snprintf(err, errlen, "sim: profile '%s': %s", p->name, why);
	return -1;
}

struct sim *sim_create(const struct sim_config *cfg, char *err, size_t errlen)
{
	unsigned ncpus = cfg->ncpus;
	struct sim_config c = *cfg;
	struct sim_profile prof;
	struct sim *s;

	if (!cfg->profile)
		return snprintf(err, errlen, "sim: no profile"), NULL;
	prof = *cfg->profile;
	if (!ncpus)
		ncpus = prof.sockets * prof.cores_per_socket * prof.threads_per_core;
	c.profile = &prof;
	if (scale_sched(&prof, ncpus, err, errlen) < 0 || check_config(&c, ncpus, err, errlen) < 0)
		return NULL;
	s = calloc(1, sizeof(*s));
	if (!s || !(s->threads = calloc(SIM_MAX_THREADS, sizeof(*s->threads))) ||
	    !(s->parked = calloc(SIM_MAX_THREADS, sizeof(*s->parked))) ||
	    !(s->cpus = calloc(ncpus, sizeof(*s->cpus)))) {
		snprintf(err, errlen, "sim: out of memory");
		sim_destroy(s);
		return NULL;
	}
	s->cfg = c;
	s->prof = prof;
	s->cfg.profile = &s->prof;
	s->cfg.ncpus = ncpus;
	if (!s->cfg.cost)
		s->cfg.cost = sim_coherence_cost;
	if (!s->cfg.stack_bytes)
		s->cfg.stack_bytes = 256 * 1024;
	s->topo = topology(&s->prof, ncpus);
	s->rng = cfg->seed;
	s->window[1] = UINT64_MAX;
	set_costs(s);
	sched_init(s);
	/* Current from now: a lock's init, before the run, asks it its
	 * semantics (pr_holder_preemptible). */
	sim_cur = s;
	return s;
}

void sim_destroy(struct sim *s)
{
	if (!s)
		return;
	for (int i = 0; i < s->nthreads; i++) {
		coro_free(&s->threads[i]->co);
		free(s->threads[i]);
	}
	for (unsigned c = 0; s->cpus && c < s->cfg.ncpus; c++)
		free(s->cpus[c].rq);
	free(s->cpus);
	free(s->threads);
	free(s->parked);
	free(s->heap);
	free(s->lines);
	if (sim_cur == s)
		sim_cur = NULL;
	free(s);
}

int sim_spawn(struct sim *s, sim_thread_fn *fn, void *arg)
{
	struct sim_thread *t;
	int id = s->nthreads;

	if (id >= SIM_MAX_THREADS || !(t = aligned_alloc(64, sizeof(*t))))
		return -1;
	memset(t, 0, sizeof(*t));
	if (coro_init(&t->co, s->cfg.stack_bytes, thread_main, t) != 0) {
		free(t);
		return -1;
	}
	t->id = id;
	t->fn = fn;
	t->arg = arg;
	t->ev = (struct sim_ev){ 0, EV_THREAD, (uint32_t)id, -1 };
	t->wake_ev = (struct sim_ev){ 0, EV_WAKE, (uint32_t)id, -1 };
	t->parked_idx = -1;
	s->threads[id] = t;
	s->nthreads++;
	s->live++;
	/* Threads start within one microsecond of each other, as a start
	 * gate's wake-ups would spread them: drawn from the seed. */
	sched_start(s, t, splitmix64(&s->rng) % (sim_cycles(s, 1000) + 1));
	return id;
}

static void trace(struct sim *s, const struct sim_ev *e)
{
	uint64_t x = s->st.trace_hash ^ e->time ^ ((uint64_t)e->kind << 56 | e->id);

	s->st.trace_hash = splitmix64(&x);
	s->st.events++;
}

/* No thread can ever run again: every live one sleeps with no wake-up on its
 * way, or is parked on lines that only those could write (the ticks go on
 * for ever, so the heap never empties). */
static bool stuck(const struct sim *s)
{
	for (int i = 0; i < s->nthreads; i++) {
		const struct sim_thread *t = s->threads[i];

		if (t->st == T_QUEUED || (t->st == T_RUNNING && !(t->parked && t->ev.heap < 0)) ||
		    (t->st == T_SLEEPING && t->wake_ev.heap >= 0))
			return false;
	}
	return true;
}

int sim_run(struct sim *s, uint64_t limit)
{
	sim_cur = s;
	while (s->live > 0) {
		struct sim_ev *e;

		if (!s->nheap)
			return -1;
		if (s->heap[0]->time > limit)
			return 1;
		e = sim_heap_pop(s);
		trace(s, e);
		s->now = e->time;
		if (e->kind == EV_TICK) {
			if (stuck(s))
				return -1;
			sched_tick(s, &s->cpus[e->id], e->time);
		} else if (e->kind == EV_WAKE) {
			sched_wake_arrive(s, s->threads[e->id], e->time);
		} else {
			sim_cur_thread = s->threads[e->id];
			coro_switch(&s->main, &sim_cur_thread->co);
			sim_cur_thread = NULL;
		}
	}
	return 0;
}

const struct sim_stats *sim_stats(const struct sim *s)
{
	return &s->st;
}

unsigned sim_ncpus(const struct sim *s)
{
	return s->cfg.ncpus;
}

void sim_thread_info(const struct sim *s, int id, struct sim_thread_info *out)
{
	const struct sim_thread *t = s->threads[id];

	out->running = t->st == T_RUNNING;
	out->sleeping = t->st == T_SLEEPING;
	out->done = t->st == T_DONE;
	out->cpu = out->sleeping || out->done ? -1 : t->cpu;
	out->vtime = t->vtime;
	out->exec_cycles = t->sum_exec;
	out->preempted = t->slot.preempted;
	out->blocked = t->slot.blocked;
	out->resched = t->slot.resched;
}

/* ---- in a simulated thread ---- */

uint64_t sim_now(void)
{
	return sim_cur_thread->vtime;
}

void sim_cpu_window(struct sim *s, uint64_t from, uint64_t to)
{
	s->window[0] = from;
	s->window[1] = to;
}

uint64_t sim_exec_self(void)
{
	const struct sim_thread *t = sim_cur_thread;

	/* window_exec is brought up to date at ticks and switches (sched.c's
	 * update_curr); a tick while the thread was parked may have moved
	 * exec_start past its clock, until it resumes there. */
	return t->window_exec + sim_window_part(sim_cur, t->exec_start, t->vtime);
}

int sim_self(void)
{
	return sim_cur_thread->id;
}

struct oracle_sched_slot *sim_slot_self(void)
{
	return sim_cur_thread ? &sim_cur_thread->slot : NULL;
}

void sim_work(uint64_t cycles)
{
	struct sim *s = sim_cur;
	struct sim_thread *t = sim_cur_thread;

	sim_sync(s, t);
	while (cycles) {
		uint64_t start = t->vtime;

		t->interruptible = true;
		t->vtime = start + cycles;
		t->ev.time = t->vtime;
		sim_heap_push(s, &t->ev);
		sim_yield_engine(s, t);
		t->interruptible = false;
		cycles -= t->vtime - start;
		s->now = t->vtime;
		sim_preempt_point(s, t);
	}
	sim_spin_reset(t);
}

void sim_kernel_enter(void)
{
	sim_cur_thread->kdepth++;
}

void sim_kernel_exit(void)
{
	struct sim_thread *t = sim_cur_thread;

	if (t->kdepth && --t->kdepth == 0) {
		sim_sync(sim_cur, t);
	}
}
