/*
 * oracle.c — the owner-running oracle (see oracle.h for what it can and
 * cannot see) and the owner watch, the userspace mutex_spin_on_owner().
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stddef.h>
#include <string.h>

#include "oracle.h"

const char *const oracle_name[ORACLE_NR] = {
	[ORACLE_AUTO]     = "auto",
	[ORACLE_RUNSTATE] = "runstate",
	[ORACLE_RQ_CURR]  = "rq-curr",
	[ORACLE_SCHED]    = "sched",
};

struct oracle_cpu_slot oracle_cpu_slots[ORACLE_MAX_CPUS];

oracle_hook oracle_hook_installed;

int oracle_find(const char *name)
{
	for (int k = 0; k < ORACLE_NR; k++)
		if (strcmp(oracle_name[k], name) == 0)
			return k;
	return -1;
}

int oracle_check(int kind)
{
	if (kind < 0 || kind >= ORACLE_NR)
		return -EINVAL;
	if (kind == ORACLE_RQ_CURR) {
		int cpu = sched_getcpu();

		if (cpu < 0 || cpu >= ORACLE_MAX_CPUS)
			return -ENOTSUP;
	}
	if (kind == ORACLE_SCHED && !oracle_sched_is_open())
		return -ENOENT;
	return 0;
}

int oracle_resolve(int kind)
{
	if (kind != ORACLE_AUTO)
		return kind;
	return oracle_sched_is_open() ? ORACLE_SCHED : ORACLE_RUNSTATE;
}

int oracle_settle(int requested, unsigned int threads, char *why, size_t whylen)
{
	why[0] = '\0';
	if (requested != ORACLE_AUTO && requested != ORACLE_SCHED)
		return requested;
	if (oracle_sched_open(threads, why, whylen) == 0) {
		why[0] = '\0';
		return ORACLE_SCHED;
	}
	return requested == ORACLE_SCHED ? -1 : ORACLE_RUNSTATE;
}

uint64_t oracle_spin_budget(int kind, uint64_t requested)
{
	if (requested)
		return requested;
	return oracle_resolve(kind) == ORACLE_SCHED ? 0 : ORACLE_USERSPACE_SPIN_BUDGET;
}

void oracle_thread_init(struct oracle_runstate *me, int kind)
{
	pr_store(&me->sleeping, 0, PR_RELAXED);
	pr_store(&me->cpu, 0, PR_RELAXED);
	pr_store(&me->watching, NULL, PR_RELAXED);
	pr_store(&me->slot, oracle_resolve(kind) == ORACLE_SCHED ? oracle_sched_slot_self() : NULL,
		 PR_RELAXED);
}

void oracle_on_cpu(struct oracle_runstate *me)
{
	int cpu = pr_cpu();
	struct oracle_cpu_slot *slot;

	if (cpu < 0 || cpu >= ORACLE_MAX_CPUS) {
		pr_store(&me->cpu, 0, PR_RELAXED);
		return;
	}
	slot = &oracle_cpu_slots[cpu];
	/* Relaxed throughout: a hint that orders nothing.  Read before writing
	 * so a thread that stays on its CPU does not keep dirtying the lines. */
	if (pr_load(&me->cpu, PR_RELAXED) != (uint32_t)cpu + 1)
		pr_store(&me->cpu, (uint32_t)cpu + 1, PR_RELAXED);
	if (pr_load(&slot->curr, PR_RELAXED) != me)
		pr_store(&slot->curr, me, PR_RELAXED);
}

void oracle_vacate_cpu(const struct oracle_runstate *me)
{
	int cpu = pr_cpu();
	const struct oracle_runstate *expected = me;

	/* Relaxed: a hint.  The compare keeps a slot another thread has since
	 * taken ("someone else runs here now" stays true). */
	if (cpu >= 0 && cpu < ORACLE_MAX_CPUS)
		pr_cas(&oracle_cpu_slots[cpu].curr, &expected, NULL, PR_RELAXED, PR_RELAXED);
}

void oracle_set_hook(oracle_hook hook)
{
	/* Release: pairs with the acquire load in oracle_hook_call, so a hook
	 * sees whatever its test set up before installing it. */
	__atomic_store_n(&oracle_hook_installed, hook, __ATOMIC_RELEASE);
}

void oracle_hook_call(enum oracle_event event, const struct oracle_runstate *me,
		      const struct oracle_runstate *owner)
{
	/* Acquire: pairs with the release store in oracle_set_hook. */
	oracle_hook hook = __atomic_load_n(&oracle_hook_installed, __ATOMIC_ACQUIRE);

	if (hook)
		hook(event, me, owner);
}

/* 2.6.29's test: the owner is on the CPU it was on when the watch began. */
static bool owner_on_cpu_at(const struct oracle_runstate *owner, uint32_t cpu)
{
	const struct oracle_sched_slot *slot = oracle_slot(owner);

	/* Relaxed: hints.  A switch writes the CPU before on_cpu; a read that
	 * straddles one can only see "not running", toward sleeping.  No slot
	 * (a recycled node, lockbench --exec): running, as zeroed memory. */
	return !slot || (pr_load(&slot->on_cpu, PR_RELAXED) &&
			 pr_load(&slot->cpu, PR_RELAXED) == cpu);
}

enum oracle_watch oracle_watch_owner(struct oracle_runstate *const *owner_field,
				     const struct oracle_runstate *owner,
				     struct oracle_runstate *me, int kind,
				     const struct oracle_spin *spin, bool cpu_fixed)
{
	enum oracle_watch why = ORACLE_SPINNING;
	const struct oracle_sched_slot *slot = kind == ORACLE_SCHED ? oracle_slot(owner) : NULL;
	bool at_cpu = cpu_fixed && slot;
	/* Relaxed: owner->cpu, read once as 2.6.29 did. */
	uint32_t cpu = at_cpu ? pr_load(&slot->cpu, PR_RELAXED) : 0;

	/* Relaxed: `watching` is for observers; `owner_field` is a hint whose
	 * staleness costs a few extra spins, as the kernel's plain read does. */
	pr_store(&me->watching, owner, PR_RELAXED);
	oracle_test_event(ORACLE_EV_WATCH, me, owner);
	while (why == ORACLE_SPINNING) {
		if (kind == ORACLE_RQ_CURR)
			oracle_on_cpu(me);
		if (pr_load(owner_field, PR_RELAXED) != owner)
			why = ORACLE_OWNER_LEFT;
		else if (at_cpu ? !owner_on_cpu_at(owner, cpu) : !oracle_owner_running(owner, kind))
			why = ORACLE_OWNER_NOT_RUNNING;
		else if ((why = oracle_spin_over(spin)) == ORACLE_SPINNING)
			pr_relax();
	}
	if (why == ORACLE_OWNER_LEFT)
		oracle_hook_call(ORACLE_EV_OWNER_LEFT, me, owner);
	pr_store(&me->watching, NULL, PR_RELAXED);
	return why;
}
