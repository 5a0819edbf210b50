/*
 * memory.h — where the run's memory lives.  Per-thread state goes on the
 * thread's own NUMA node, the lock and shared data on the --lock-node.  Every
 * block is zeroed and aligned to at least CACHELINE_PAIR.
 *
 * With libnuma (numa_available() >= 0) every block is its own mapping, bound
 * to its node (numa_alloc_onnode: page-granular, so a thread's blocks never
 * share a page with another thread's); without it, aligned_alloc().
 */
#ifndef LOCKBENCH_MEMORY_H
#define LOCKBENCH_MEMORY_H

#include <stdbool.h>
#include <stddef.h>

/* On NUMA node `node` (-1: wherever the kernel likes); NULL on failure. */
void *mem_alloc_node(size_t size, int node);
/* On the node that holds `cpu` (-1: unknown, wherever the kernel likes). */
void *mem_alloc_near_cpu(size_t size, int cpu);
/* The NUMA node of `cpu`, or -1 when unknown, the machine has no NUMA, or
 * this process may not allocate there. */
int mem_node_of_cpu(int cpu);
/* Releases a block from mem_alloc_*: `size` as allocated (numa_free needs it). */
void mem_free(void *p, size_t size);

/* True when libnuma works here (numa_available() >= 0). */
bool mem_numa(void);

/*
 * The node for the lock and shared data: `requested` (--lock-node) when this
 * process may allocate there, else -2 with a one-line message in err; for
 * -1, the node of `first_cpu` (the first thread's CPU; -1 when unpinned or
 * without NUMA: the kernel's first-touch choice).
 */
int mem_resolve_node(int requested, int first_cpu, char *err, size_t errlen);

#endif
