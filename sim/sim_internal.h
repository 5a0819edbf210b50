/*
 * sim_internal.h — the engine's state, shared by its files, each using only
 * those before it: events.c (the event heap, the lines, parked spins),
 * sched_eevdf.c (the EEVDF model's decisions), sched.c (the scheduler,
 * futexes, preemption points), engine.c (the
 * simulation and its threads), pr_sim.c (the lock code's accesses).  Nothing
 * outside sim/ includes it.
 */
#ifndef LOCKBENCH_SIM_INTERNAL_H
#define LOCKBENCH_SIM_INTERNAL_H

#include "../locks/bpf/oracle_slot.h"
#include "coro.h"
#include "sim.h"

/* Ties at one virtual time go ticks first, then wake-ups, then threads; then by id. */
enum sim_ev_kind { EV_TICK, EV_WAKE, EV_THREAD };

struct sim_ev {
	uint64_t time;
	uint32_t kind, id;
	int heap;                  /* index in the heap, -1 when not in it */
};

enum sim_tstate { T_QUEUED, T_RUNNING, T_SLEEPING, T_DONE };

/* The reads of one spin pass (between two pr_relax calls). */
#define SIM_SPIN_READS 16   /* a kmutex spin pass reads about 7 */
struct sim_spin_read {
	uintptr_t addr;
	unsigned size;
	uint64_t value;
	uint64_t version;          /* the line's writes when it was read */
};
struct sim_spin_pass {
	struct sim_spin_read r[SIM_SPIN_READS];
	unsigned n;
	bool unparkable;           /* wrote, read the clock, or read too much */
	bool missed;               /* a transfer: this pass is no measure of a pass of hits */
	bool has_deadline;
	uint64_t deadline, deadline_off;   /* pr_clock_past's, and when in the pass it asked */
	uint64_t start;
};

struct sim_thread {
	struct oracle_sched_slot slot;     /* first: its own cache line */
	struct coro co;
	struct sim_ev ev;          /* its next step, while it runs on a CPU */
	struct sim_ev wake_ev;     /* a futex wake-up on its way */
	int id, cpu;
	enum sim_tstate st;
	sim_thread_fn *fn;
	void *arg;
	uint64_t vtime;
	bool in_flight;            /* a transfer's first half waited (line_in_flight); sim_access charges the rest */
	unsigned kdepth;           /* kernel-section nesting */
	bool interruptible;        /* in sim_work: a preemption may cut it short */
	/* CFS (sched.c) */
	uint64_t vruntime, exec_start, sum_exec, prev_sum_exec;
	/* EEVDF (sched_eevdf.c): the virtual deadline, the protected slice's
	 * end, the lag kept while off a queue, and a sleeper left queued
	 * (DELAY_DEQUEUE) */
	uint64_t deadline, vprot;
	int64_t vlag;
	bool delayed;
	uint64_t window_exec;      /* of sum_exec, the part inside sim.window (sim_cpu_window) */
	/* futex */
	const void *futex_addr;
	uint64_t futex_seq;
	/* spin parking */
	struct sim_spin_pass cur, prev;
	bool parked;
	uint64_t park_t0, park_pass;
	int parked_idx;            /* in sim.parked, -1 when not parked */
	int line_next;             /* the next waiter for the same line, -1 none */
} __attribute__((aligned(64)));

struct sim_cpu {
	int curr;                  /* running thread, -1 idle */
	bool need_resched;
	struct sim_ev tick;
	uint64_t min_vruntime;
	int *rq;                   /* queued thread ids */
	unsigned nrq, caprq;
};

struct sim {
	struct sim_config cfg;
	struct sim_profile prof;
	struct sim_topology topo;
	struct sim_costs costs;
	uint64_t tick_cycles, cs_cycles, syscall_cycles, futex_wait_cycles, futex_wake_cycles;
	uint64_t wake_latency_cycles, latency_cycles, min_gran_cycles, wakeup_gran_cycles, nr_latency;
	bool eevdf;                /* the profile's sched_model: eevdf-6.x, else cfs-2.6.34 */
	uint64_t rng;
	struct coro main;
	uint64_t now;
	struct sim_ev **heap;
	unsigned nheap, capheap;
	struct sim_thread **threads;
	int nthreads, live;
	struct sim_cpu *cpus;
	struct sim_line *lines;
	size_t nlines, caplines;
	int *parked;
	unsigned nparked;
	uint64_t futex_seq;
	uint64_t window[2];        /* sim_cpu_window: [from, to) of virtual time */
	struct sim_stats st;
};

extern struct sim *sim_cur;
extern struct sim_thread *sim_cur_thread;

/* events.c */
bool sim_ev_before(const struct sim_ev *a, const struct sim_ev *b);
struct sim_ev *sim_heap_pop(struct sim *s);
void sim_heap_push(struct sim *s, struct sim_ev *e);
void sim_heap_remove(struct sim *s, struct sim_ev *e);
void sim_heap_update(struct sim *s, struct sim_ev *e);
struct sim_line *sim_line_get(struct sim *s, uintptr_t addr);
void sim_yield_engine(struct sim *s, struct sim_thread *t);
bool sim_preemptible(const struct sim *s, const struct sim_thread *t);
void sim_interrupt(struct sim *s, struct sim_thread *t, uint64_t at);
void sim_line_written(struct sim *s, struct sim_line *l, uint64_t at);
void sim_park(struct sim *s, struct sim_thread *t, uint64_t pass, uint64_t resume_at);
void sim_spin_reset(struct sim_thread *t);
/* Until t->vtime: waits until no earlier event is pending (no preemption point). */
void sim_wait_turn(struct sim *s, struct sim_thread *t);
void sim_line_wait(struct sim *s, struct sim_thread *t, const volatile void *p, enum sim_access kind);
uint64_t sim_access(struct sim *s, struct sim_thread *t, const volatile void *p, enum sim_access kind);

/* The part of [from, to) inside the CPU window (sim_cpu_window): what a
 * thread's time on a CPU over that span adds to its window_exec. */
static inline uint64_t sim_window_part(const struct sim *s, uint64_t from, uint64_t to)
{
	uint64_t a = from > s->window[0] ? from : s->window[0], b = to < s->window[1] ? to : s->window[1];

	return b > a ? b - a : 0;
}

/* sched_eevdf.c: on a CPU's entities (its run queue and its running thread) */
uint64_t eevdf_avg(const struct sim *s, const struct sim_cpu *c);
bool eevdf_eligible(const struct sim *s, const struct sim_cpu *c, const struct sim_thread *t);
int64_t eevdf_lag(const struct sim *s, const struct sim_cpu *c, const struct sim_thread *t);
/* The thread pick_eevdf() picks, its id; -1 with no entity. */
int eevdf_pick(const struct sim *s, const struct sim_cpu *c);
void eevdf_place(const struct sim *s, const struct sim_cpu *c, struct sim_thread *t, bool initial);

/* sched.c */
/* Before a shared access at t->vtime: sim_wait_turn, then a preemption point. */
void sim_sync(struct sim *s, struct sim_thread *t);
void sim_preempt_point(struct sim *s, struct sim_thread *t);
void sched_init(struct sim *s);
void sched_start(struct sim *s, struct sim_thread *t, uint64_t at);
void sched_tick(struct sim *s, struct sim_cpu *c, uint64_t at);
void sched_wake_arrive(struct sim *s, struct sim_thread *t, uint64_t at);
/* In the thread: leaves its CPU (preempted: back to the run queue; else it
 * sleeps or is done); returns once it runs again (never when done). */
enum sim_out { OUT_PREEMPT, OUT_YIELD, OUT_SLEEP, OUT_DONE };
void sched_switch_out(struct sim *s, struct sim_thread *t, enum sim_out why);
void sched_futex_wait(struct sim *s, struct sim_thread *t, uint32_t *w, uint32_t expected);
void sched_futex_wake(struct sim *s, struct sim_thread *t, uint32_t *w, int n);
void sched_slot_write(struct sim *s, struct sim_thread *t, slot_u64 *field, slot_u64 v, int cpu);
void sched_slot_write32(struct sim *s, struct sim_thread *t, slot_u32 *field, slot_u32 v, int cpu);

#endif
