/*
 * coherence.c — the cost model of a shared access (coherence.h).  MESI in
 * the small: an access is a hit when this CPU's copy allows it (any copy for
 * a load; for a store or RMW the modified copy, or the only copy); else the
 * line comes from, or is invalidated at, every other holder, in parallel, so
 * it costs the farthest one's latency, memory's when no cache holds it.
 */
#include "coherence.h"

#include <string.h>

static unsigned core_of(int cpu, const struct sim_topology *t)
{
	return (unsigned)cpu / t->threads_per_core;
}

static unsigned socket_of(int cpu, const struct sim_topology *t)
{
	return core_of(cpu, t) / t->cores_per_socket;
}

uint64_t sim_distance(int a, int b, const struct sim_topology *topo, const struct sim_costs *c)
{
	if (a == b)
		return 0;
	if (core_of(a, topo) == core_of(b, topo))
		return c->smt;
	unsigned sa = socket_of(a, topo), sb = socket_of(b, topo);

	if (sa == sb)
		return c->socket;
	/* The profile's loader checked that an unlinked pair is two hops. */
	return topo->links && !((topo->links[sa] >> sb) & 1) ? c->remote_2hop : c->remote;
}

/* The nearest (a load's source) or the farthest (a store's last
 * invalidation) holder of `l` other than `cpu`: its latency; a hit when only
 * `cpu` holds it, memory's latency when no cache does. */
static uint64_t fetch_cost(const struct sim_line *l, int cpu, bool nearest, const struct sim_topology *topo,
			   const struct sim_costs *c)
{
	uint64_t worst = 0, best = UINT64_MAX, d;
	bool other = false;

	for (unsigned w = 0; w < SIM_CPU_WORDS; w++)
		for (uint64_t bits = l->sharers[w]; bits; bits &= bits - 1) {
			int o = (int)(w * 64 + (unsigned)__builtin_ctzll(bits));

			if (o == cpu)
				continue;
			other = true;
			d = sim_distance(cpu, o, topo, c);
			worst = d > worst ? d : worst;
			best = d < best ? d : best;
		}
	if (!other)
		return sim_line_has(l, cpu) ? c->hit : c->mem;
	return nearest ? best : worst;
}

static bool only_holder(const struct sim_line *l, int cpu)
{
	for (unsigned w = 0; w < SIM_CPU_WORDS; w++)
		if (l->sharers[w] != (w == (unsigned)cpu / 64 ? UINT64_C(1) << (cpu % 64) : 0))
			return false;
	return true;
}

bool sim_needs_transfer(const struct sim_line *l, int cpu, enum sim_access kind)
{
	if (kind == SIM_LOAD)
		return !sim_line_has(l, cpu);
	return !(l->owner == cpu || only_holder(l, cpu));
}

uint64_t sim_coherence_cost(struct sim_line *l, int cpu, enum sim_access kind,
			    const struct sim_topology *topo, const struct sim_costs *c)
{
	uint64_t cost;

	if (kind == SIM_LOAD) {
		if (sim_line_has(l, cpu))
			return c->hit;
		/* Fetched from the modified copy when there is one (which
		 * then shares it), else from the nearest sharer or memory. */
		cost = l->owner >= 0 ? sim_distance(cpu, l->owner, topo, c) : fetch_cost(l, cpu, true, topo, c);
		l->owner = -1;
		l->sharers[cpu / 64] |= UINT64_C(1) << (cpu % 64);
		return cost;
	}
	cost = l->owner == cpu || only_holder(l, cpu) ? c->hit : fetch_cost(l, cpu, false, topo, c);
	memset(l->sharers, 0, sizeof(l->sharers));
	l->sharers[cpu / 64] = UINT64_C(1) << (cpu % 64);
	l->owner = cpu;
	return kind == SIM_RMW ? cost + c->atomic_extra : cost;
}
