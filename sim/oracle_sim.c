/*
 * oracle_sim.c — the sched oracle's functions (locks/oracle.h) for the
 * simulated build of the locks, in place of locks/oracle_sched.c's BPF: the
 * simulated scheduler (sched.c) keeps each simulated thread's struct
 * oracle_sched_slot exactly as the BPF program keeps a real thread's (on_cpu
 * and cpu at switch-in, preempted or blocked at switch-out, resched when it
 * sets need_resched), so the same oracle code reads the scheduler's exact
 * answers.  Linked only into the partially linked simulated locks (the
 * Makefile's SIM_LOCKS), whose symbols are local but the sim registry's.
 */
#include "../locks/oracle.h"
#include "pr_sim.h"
#include "sim.h"

static bool sim_oracle_open;

/* Always loads: the simulated scheduler traces every switch. */
int oracle_sched_open(unsigned int threads, char *why, size_t whylen)
{
	(void)threads;
	if (whylen)
		why[0] = '\0';
	sim_oracle_open = true;
	return 0;
}

int oracle_sched_open_fake(unsigned int threads)
{
	return oracle_sched_open(threads, NULL, 0);
}

bool oracle_sched_is_open(void)
{
	return sim_oracle_open;
}

/* The scheduler sets resched with need_resched, as 6.16's tracepoint lets
 * the BPF program do. */
bool oracle_sched_sees_resched(void)
{
	return sim_oracle_open;
}

/* Never needed here (every switch-in is written), kept as the native one:
 * the thread says it runs, on its CPU; stores it is charged for. */
void oracle_sched_untraced_switch_in(struct oracle_sched_slot *slot)
{
	sim_pr_store(&slot->cpu, sizeof(slot->cpu), (uint64_t)sim_pr_cpu(), __ATOMIC_RELAXED);
	sim_pr_store(&slot->on_cpu, sizeof(slot->on_cpu), 1, __ATOMIC_RELAXED);
}

struct oracle_sched_slot *oracle_sched_slot_self(void)
{
	return sim_oracle_open ? sim_slot_self() : NULL;
}
