/*
 * sim_test.h — what the engine's tests (tests/test_sim*.c) share: a machine
 * profile filled in place (distinct round figures chosen so each latency
 * class is told apart in a sum, not a claim about any machine), and small
 * locks written against the pr_* API's simulated backend, as locks/ are,
 * to test the engine apart from them.
 */
#ifndef LOCKBENCH_TESTS_SIM_TEST_H
#define LOCKBENCH_TESTS_SIM_TEST_H

#include <string.h>

#include "../sim/pr_sim.h"
#include "../sim/sim.h"

/* 2 sockets x 2 cores x 2 SMT threads: CPUs 0,1 share a core; 0-3 a socket. */
static inline struct sim_profile sim_test_profile(void)
{
	struct sim_profile p;

	memset(&p, 0, sizeof(p));
	strcpy(p.name, "test");
	p.sockets = 2;
	p.cores_per_socket = 2;
	p.threads_per_core = 2;
	p.tsc_ghz = 2.0;
	p.lat_hit = 4;
	p.lat_smt = 30;
	p.lat_socket = 100;
	p.lat_remote = 300;
	p.lat_mem = 200;
	p.atomic_extra = 20;
	p.pause_cycles = 40;
	strcpy(p.sched_model, "cfs-2.6.34");
	p.hz = 1000;
	p.sched_latency_ns = 10e6;
	p.sched_min_granularity_ns = 2e6;
	p.sched_wakeup_granularity_ns = 2e6;
	p.wake_latency_ns = 20000;
	p.context_switch_ns = 2000;
	p.syscall_ns = 100;
	p.futex_wait_ns = 500;
	p.futex_wake_ns = 400;
	return p;
}

static inline struct sim *sim_test_new(const struct sim_profile *p, unsigned ncpus, uint64_t seed,
				       enum sim_semantics sem)
{
	char err[256];
	struct sim_config cfg = { .profile = p, .ncpus = ncpus, .seed = seed, .semantics = sem };

	return sim_create(&cfg, err, sizeof(err));
}

/* ---- test locks through pr_* ---- */

/* test-and-set with a read spin between attempts (ttas) */
static inline void tlock_tas_lock(uint32_t *w)
{
	while (pr_xchg(w, 1, PR_ACQUIRE))
		while (pr_load(w, PR_RELAXED))
			pr_relax();
}

static inline void tlock_tas_unlock(uint32_t *w)
{
	pr_store(w, 0, PR_RELEASE);
}

struct tlock_ticket {
	uint32_t next, serving;
};

static inline void tlock_ticket_lock(struct tlock_ticket *l)
{
	uint32_t mine = pr_fetch_add(&l->next, 1, PR_RELAXED);

	while (pr_load(&l->serving, PR_ACQUIRE) != mine)
		pr_relax();
}

static inline void tlock_ticket_unlock(struct tlock_ticket *l)
{
	pr_store(&l->serving, pr_load(&l->serving, PR_RELAXED) + 1, PR_RELEASE);
}

/* Drepper's futex mutex ("Futexes are tricky", mutex3): 0 free, 1 locked, 2 contended. */
static inline void tlock_futex_lock(uint32_t *w)
{
	uint32_t c = 0;

	if (pr_cas(w, &c, 1, PR_ACQUIRE, PR_RELAXED))
		return;
	if (c != 2)
		c = pr_xchg(w, 2, PR_ACQUIRE);
	while (c != 0) {
		pr_futex_wait(w, 2);
		c = pr_xchg(w, 2, PR_ACQUIRE);
	}
}

static inline void tlock_futex_unlock(uint32_t *w)
{
	if (pr_fetch_sub(w, 1, PR_RELEASE) != 1) {
		pr_store(w, 0, PR_RELEASE);
		pr_futex_wake(w, 1);
	}
}

/* `none`: no exclusion at all; the exclusion check must catch it. */
static inline void tlock_none_lock(uint32_t *w)
{
	(void)pr_load(w, PR_RELAXED);
}

static inline void tlock_none_unlock(uint32_t *w)
{
	(void)w;
}

#endif
