/*
 * coherence.h — the cost of a shared access: every 64-byte line (address >> 6)
 * has a state, the CPU holding it modified and the CPUs sharing it, and an
 * access costs a hit, or a transfer whose latency is that of the farthest
 * copy it must fetch or invalidate (SMT sibling, another core of the socket,
 * another socket) or of memory when no cache holds it.  A read-modify-write
 * also costs atomic_extra.  The state change and the cost are one pure
 * function of the line, the topology and the profile, so a test can check
 * them, and plant a fault in them.
 */
#ifndef LOCKBENCH_SIM_COHERENCE_H
#define LOCKBENCH_SIM_COHERENCE_H

#include <stdbool.h>
#include <stdint.h>

#define SIM_MAX_CPUS 256
#define SIM_CPU_WORDS (SIM_MAX_CPUS / 64)

enum sim_access { SIM_LOAD, SIM_STORE, SIM_RMW };

struct sim_line {
	uint64_t tag;              /* address >> 6, +1 (0: an empty slot) */
	uint64_t sharers[SIM_CPU_WORDS];   /* CPUs holding a copy, the owner included */
	int owner;                 /* the CPU holding it modified, or -1 */
	uint64_t busy_until;       /* a transfer in flight ends then: the next waits */
	uint64_t version;          /* writes so far (parked spinners compare it) */
	unsigned watchers;         /* parked spinners watching it */
	int wait_head, wait_tail;  /* threads waiting for it, first come first served (-1: none) */
};

/* Integer costs in cycles, from the profile. */
struct sim_costs {
	uint64_t hit, smt, socket, remote, mem, atomic_extra, pause;
	uint64_t remote_2hop;      /* between sockets not linked (topology.links) */
};

/* Where each CPU is: cpu = (socket * cores + core) * threads + smt.
 * `links`: per socket, a bit for each socket one interconnect hop away
 * (sim_profile's socket_links), every other one two hops; NULL: every
 * other socket one hop. */
struct sim_topology {
	unsigned ncpus, cores_per_socket, threads_per_core;
	const uint64_t *links;
};

/* The cost in cycles of `cpu`'s access to `line`, whose state it updates. */
typedef uint64_t sim_cost_fn(struct sim_line *line, int cpu, enum sim_access kind,
			     const struct sim_topology *topo, const struct sim_costs *costs);
sim_cost_fn sim_coherence_cost;

/* Whether `cpu`'s access needs the line from elsewhere (the cost model's
 * hits are the rest): the engine's own question, whatever the cost function. */
bool sim_needs_transfer(const struct sim_line *l, int cpu, enum sim_access kind);

/* The latency between two CPUs' caches: smt, socket, remote or remote_2hop
 * (0 for itself). */
uint64_t sim_distance(int a, int b, const struct sim_topology *topo, const struct sim_costs *costs);

static inline bool sim_line_has(const struct sim_line *l, int cpu)
{
	return (l->sharers[cpu / 64] >> (cpu % 64)) & 1;
}

#endif
