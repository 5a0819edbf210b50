/*
 * pr_sim.c — the simulated backend of the lock API (locks/pr.h with
 * LOCKBENCH_SIM, through pr_sim.h): each access waits for its virtual time
 * (sim_sync) and for its line (sim_line_wait), runs on the real memory (all
 * simulated threads are coroutines of one OS thread: one runs at a time) and
 * is charged by the cost model.
 *
 * Fast spinning: a spin pass is what a thread does between two pr_relax
 * calls.  When a pass read exactly the lines and values of the pass before,
 * wrote nothing, read no clock but pr_clock_past, and none of those lines was
 * written since it read them, every further pass would do the same until one
 * of them is written: the thread parks, and resumes at the first pass that
 * starts after the write, or after a scheduler event on its CPU, or when its
 * pr_clock_past deadline would pass; it is charged every pass it did not run
 * (pauses and re-reads, all hits).
 */
#include "sim_internal.h"
#include "pr_sim.h"

#include <string.h>

static uint64_t mem_load(const volatile void *p, unsigned size)
{
	switch (size) {
	case 1: return __atomic_load_n((const volatile uint8_t *)p, __ATOMIC_RELAXED);
	case 2: return __atomic_load_n((const volatile uint16_t *)p, __ATOMIC_RELAXED);
	case 4: return __atomic_load_n((const volatile uint32_t *)p, __ATOMIC_RELAXED);
	default: return __atomic_load_n((const volatile uint64_t *)p, __ATOMIC_RELAXED);
	}
}

static void mem_store(volatile void *p, unsigned size, uint64_t v)
{
	switch (size) {
	case 1: __atomic_store_n((volatile uint8_t *)p, (uint8_t)v, __ATOMIC_RELAXED); break;
	case 2: __atomic_store_n((volatile uint16_t *)p, (uint16_t)v, __ATOMIC_RELAXED); break;
	case 4: __atomic_store_n((volatile uint32_t *)p, (uint32_t)v, __ATOMIC_RELAXED); break;
	default: __atomic_store_n((volatile uint64_t *)p, v, __ATOMIC_RELAXED); break;
	}
}

static uint64_t truncate(uint64_t v, unsigned size)
{
	return size >= 8 ? v : v & ((UINT64_C(1) << (8 * size)) - 1);
}

static struct sim_thread *enter(void)
{
	sim_sync(sim_cur, sim_cur_thread);
	return sim_cur_thread;
}

/* enter(), then wait for the line of `p` if a transfer of it is in flight. */
static struct sim_thread *enter_line(const volatile void *p, enum sim_access kind)
{
	struct sim_thread *t = enter();

	sim_line_wait(sim_cur, t, p, kind);
	return t;
}

/* Outside a simulated thread (a lock's prepare, init or destroy, before or
 * after the run) an access is made on the memory, uncharged, at no time. */
static bool outside(void)
{
	return sim_cur_thread == NULL;
}

uint64_t sim_pr_load(const volatile void *p, unsigned size, int mo)
{
	struct sim_thread *t;
	uint64_t v, version;
	struct sim_spin_pass *c;

	(void)mo;
	if (outside())
		return mem_load(p, size);
	t = enter_line(p, SIM_LOAD);
	v = mem_load(p, size);
	version = sim_access(sim_cur, t, p, SIM_LOAD);
	c = &t->cur;
	if (c->n < SIM_SPIN_READS)
		c->r[c->n++] = (struct sim_spin_read){ (uintptr_t)p, size, v, version };
	else
		c->unparkable = true;
	return v;
}

void sim_pr_store(volatile void *p, unsigned size, uint64_t v, int mo)
{
	struct sim_thread *t;

	(void)mo;
	if (outside()) {
		mem_store(p, size, v);
		return;
	}
	t = enter_line(p, SIM_STORE);
	mem_store(p, size, v);
	sim_access(sim_cur, t, p, SIM_STORE);
	t->cur.unparkable = true;
}

static uint64_t rmw_value(enum sim_rmw op, uint64_t old, uint64_t v)
{
	switch (op) {
	case SIM_RMW_XCHG: return v;
	case SIM_RMW_ADD: return old + v;
	case SIM_RMW_SUB: return old - v;
	case SIM_RMW_AND: return old & v;
	default: return old | v;
	}
}

uint64_t sim_pr_rmw(volatile void *p, unsigned size, enum sim_rmw op, uint64_t v, int mo)
{
	struct sim_thread *t = outside() ? NULL : enter_line(p, SIM_RMW);
	uint64_t old = mem_load(p, size);

	(void)mo;
	mem_store(p, size, truncate(rmw_value(op, old, v), size));
	if (!t)
		return old;
	sim_access(sim_cur, t, p, SIM_RMW);
	t->cur.unparkable = true;
	return old;
}

bool sim_pr_cas(volatile void *p, unsigned size, uint64_t *expected, uint64_t desired, int smo, int fmo)
{
	struct sim_thread *t = outside() ? NULL : enter_line(p, SIM_RMW);
	uint64_t old = mem_load(p, size);
	bool ok = old == truncate(*expected, size);

	(void)smo;
	(void)fmo;
	if (ok)
		mem_store(p, size, truncate(desired, size));
	else
		*expected = old;
	if (!t)
		return ok;
	/* A failed lock cmpxchg takes the line exclusive all the same. */
	sim_access(sim_cur, t, p, SIM_RMW);
	t->cur.unparkable = true;
	return ok;
}

uint64_t sim_pr_clock(void)
{
	struct sim_thread *t;

	if (outside())
		return sim_cur ? sim_cur->now : 0;
	t = enter();

	t->cur.unparkable = true;
	return t->vtime;
}

bool sim_pr_clock_past(uint64_t deadline)
{
	struct sim_thread *t;
	struct sim_spin_pass *c;

	if (outside())
		return sim_pr_clock() > deadline;
	t = enter();
	c = &t->cur;
	if (t->vtime > deadline)
		return true;
	if (!c->has_deadline || deadline < c->deadline) {
		c->has_deadline = true;
		c->deadline = deadline;
		c->deadline_off = t->vtime - c->start;
	}
	return false;
}

/* The pass just ended repeats the one before, all of it hits (so it measures
 * every pass to come), and what it read is still there. */
static bool pass_repeats(struct sim *s, const struct sim_thread *t)
{
	const struct sim_spin_pass *c = &t->cur, *p = &t->prev;

	if (c->unparkable || p->unparkable || c->missed || c->n == 0 || c->n != p->n)
		return false;
	for (unsigned i = 0; i < c->n; i++)
		if (c->r[i].addr != p->r[i].addr || c->r[i].size != p->r[i].size ||
		    c->r[i].value != p->r[i].value || sim_line_get(s, c->r[i].addr)->version != c->r[i].version)
			return false;
	return true;
}

/* When a parked pass would first find its deadline past: the start of that
 * pass; UINT64_MAX for none; 0 if the very next pass does. */
static uint64_t deadline_pass(const struct sim_thread *t, uint64_t pass)
{
	const struct sim_spin_pass *c = &t->cur;
	uint64_t t0 = t->vtime;

	if (!c->has_deadline)
		return UINT64_MAX;
	if (t0 + c->deadline_off > c->deadline)
		return 0;
	return t0 + ((c->deadline - t0 - c->deadline_off) / pass + 1) * pass;
}

static void relax(struct sim *s, struct sim_thread *t)
{
	uint64_t pass, resume;

	t->vtime += s->costs.pause;
	pass = t->vtime - t->cur.start;
	if (pass && pass_repeats(s, t) && (resume = deadline_pass(t, pass)) != 0) {
		sim_park(s, t, pass, resume);
		/* Running again: a line changed, its CPU called, or the deadline. */
		s->now = t->vtime;
		sim_preempt_point(s, t);
		sim_spin_reset(t);
		return;
	}
	t->prev = t->cur;
	memset(&t->cur, 0, sizeof(t->cur));
	t->cur.start = t->vtime;
}

void sim_pr_relax(void)
{
	if (!outside())
		relax(sim_cur, enter());
}

void sim_pr_yield(void)
{
	struct sim *s = sim_cur;
	struct sim_thread *t;

	if (outside())
		return;
	t = enter();

	/* In a kernel section the kernel's wait_lock spins with preemption
	 * off: a pause, not a yield. */
	if (s->cfg.semantics == SIM_KERNEL && t->kdepth) {
		relax(s, t);
		return;
	}
	t->vtime += s->syscall_cycles;
	sim_sync(s, t);
	sched_switch_out(s, t, OUT_YIELD);
	sim_spin_reset(t);
}

/* Under kernel semantics lock code runs with preemption off (kernel
 * sections), so a spinlock's holder keeps its CPU; asked by a lock's init,
 * outside any thread, of the simulator last created. */
bool sim_pr_holder_preemptible(void)
{
	return !sim_cur || sim_cur->cfg.semantics != SIM_KERNEL;
}

int sim_pr_cpu(void)
{
	return outside() ? -1 : enter()->cpu;
}

/* Outside a simulated thread there is nobody to sleep or to wake. */
void sim_pr_futex_wait(uint32_t *w, uint32_t expected)
{
	struct sim_thread *t;

	if (outside())
		return;
	t = enter();

	sched_futex_wait(sim_cur, t, w, expected);
	sim_spin_reset(t);
}

void sim_pr_futex_wake(uint32_t *w, int n)
{
	struct sim_thread *t;

	if (outside())
		return;
	t = enter();

	sched_futex_wake(sim_cur, t, w, n);
	t->cur.unparkable = true;
}
