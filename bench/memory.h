/*
 * memory.h — where the run's memory lives.  Per-thread state goes on the
 * thread's own NUMA node, the lock and shared data on the --lock-node.  Every
 * block is zeroed and aligned to at least CACHELINE_PAIR.
 */
#ifndef LOCKBENCH_MEMORY_H
#define LOCKBENCH_MEMORY_H

#include <stddef.h>

/* On NUMA node `node` (-1: wherever the kernel likes); NULL on failure. */
void *mem_alloc_node(size_t size, int node);
/* On the node that holds `cpu` (-1: unknown, wherever the kernel likes). */
void *mem_alloc_near_cpu(size_t size, int cpu);
/* The NUMA node of `cpu`, or -1 when unknown or the machine has no NUMA. */
int mem_node_of_cpu(int cpu);
void mem_free(void *p, size_t size);

#endif
