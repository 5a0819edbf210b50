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

/* Whether `l` has a sharer in CPUs [lo, hi) other than `skip`: one mask a
 * word, so a line shared by every spinner costs a few word tests, not one
 * distance per sharer (kmutex-spin's herd at 128 CPUs spent half its time
 * there). */
static bool shared_in(const struct sim_line *l, unsigned lo, unsigned hi, int skip)
{
	for (unsigned w = lo / 64; lo < hi && w <= (hi - 1) / 64; w++) {
		unsigned a = w * 64 > lo ? 0 : lo % 64, b = (w + 1) * 64 <= hi ? 64 : hi % 64;
		uint64_t mask = (b == 64 ? ~UINT64_C(0) : (UINT64_C(1) << b) - 1) & ~((UINT64_C(1) << a) - 1);

		if (skip >= 0 && (unsigned)skip / 64 == w)
			mask &= ~(UINT64_C(1) << (skip % 64));
		if (l->sharers[w] & mask)
			return true;
	}
	return false;
}

/* Which distance classes (smt, socket, remote, remote_2hop) hold a copy of
 * `l` other than `cpu`'s: a CPU's distance to another depends only on the
 * other's core and socket (sim_distance), so the classes present give the
 * nearest and the farthest copy exactly. */
static unsigned holder_classes(const struct sim_line *l, int cpu, const struct sim_topology *t,
			       uint64_t cls_cost[4], const struct sim_costs *c)
{
	unsigned per_socket = t->cores_per_socket * t->threads_per_core;
	unsigned core_lo = core_of(cpu, t) * t->threads_per_core, core_hi = core_lo + t->threads_per_core;
	unsigned sock = socket_of(cpu, t), sock_lo = sock * per_socket;
	unsigned found = 0;

	cls_cost[0] = c->smt, cls_cost[1] = c->socket, cls_cost[2] = c->remote, cls_cost[3] = c->remote_2hop;
	if (shared_in(l, core_lo, core_hi, cpu))
		found |= 1;
	if (shared_in(l, sock_lo, core_lo, -1) || shared_in(l, core_hi, sock_lo + per_socket, -1))
		found |= 2;
	for (unsigned s = 0; s * per_socket < t->ncpus; s++)
		if (s != sock && shared_in(l, s * per_socket, (s + 1) * per_socket, -1))
			/* The profile's loader checked that an unlinked pair is two hops. */
			found |= t->links && !((t->links[sock] >> s) & 1) ? 8 : 4;
	return found;
}

/* The nearest (a load's source) or the farthest (a store's last
 * invalidation) holder of `l` other than `cpu`: its latency; a hit when only
 * `cpu` holds it, memory's latency when no cache does. */
static uint64_t fetch_cost(const struct sim_line *l, int cpu, bool nearest, const struct sim_topology *topo,
			   const struct sim_costs *c)
{
	uint64_t cls_cost[4], worst = 0, best = UINT64_MAX;
	unsigned found = holder_classes(l, cpu, topo, cls_cost, c);

	if (!found)
		return sim_line_has(l, cpu) ? c->hit : c->mem;
	for (unsigned k = 0; k < 4; k++)
		if (found & (1u << k)) {
			worst = cls_cost[k] > worst ? cls_cost[k] : worst;
			best = cls_cost[k] < best ? cls_cost[k] : best;
		}
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
