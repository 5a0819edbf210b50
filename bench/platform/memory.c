/*
 * memory.c — zeroed, aligned blocks on chosen NUMA nodes (libnuma), or plain
 * aligned_alloc() where the kernel or libnuma offers no NUMA.
 *
 * Which allocator is in use is decided once per process, so mem_free() knows
 * how to release any block without a header in front of it.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <numa.h>

#include "memory.h"
#include "../../locks/arch.h"

static pthread_once_t numa_once = PTHREAD_ONCE_INIT;
static bool numa_ok;
static struct bitmask *mems_allowed;  /* nodes this process may allocate on */

static void numa_probe(void)
{
	numa_ok = numa_available() >= 0;
	if (numa_ok)
		mems_allowed = numa_get_mems_allowed();
	if (!mems_allowed)
		numa_ok = false;
}

bool mem_numa(void)
{
	pthread_once(&numa_once, numa_probe);
	return numa_ok;
}

static bool node_allowed(int node)
{
	return node >= 0 && node <= numa_max_node() &&
	       numa_bitmask_isbitset(mems_allowed, (unsigned int)node);
}

static size_t block_size(size_t size)
{
	return ALIGN_UP(size ? size : 1, CACHELINE_PAIR);
}

void *mem_alloc_node(size_t size, int node)
{
	size_t rounded = block_size(size);
	void *p;

	if (mem_numa())
		/* Fresh anonymous pages: zero, page-aligned, bound before first touch. */
		return node_allowed(node) ? numa_alloc_onnode(rounded, node) : numa_alloc(rounded);
	p = aligned_alloc(CACHELINE_PAIR, rounded);
	if (p)
		memset(p, 0, rounded);
	return p;
}

int mem_node_of_cpu(int cpu)
{
	int node;

	if (cpu < 0 || !mem_numa())
		return -1;
	node = numa_node_of_cpu(cpu);
	return node_allowed(node) ? node : -1;
}

void *mem_alloc_near_cpu(size_t size, int cpu)
{
	return mem_alloc_node(size, mem_node_of_cpu(cpu));
}

void mem_free(void *p, size_t size)
{
	if (!p)
		return;
	if (mem_numa())
		numa_free(p, block_size(size));
	else
		free(p);
}

int mem_resolve_node(int requested, int first_cpu, char *err, size_t errlen)
{
	char nodes[128];
	int n = 0;

	if (requested < 0)
		return mem_node_of_cpu(first_cpu);
	if (!mem_numa()) {
		if (requested == 0)
			return 0;
		snprintf(err, errlen, "--lock-node %d: this machine reports no NUMA; only node 0 exists",
			 requested);
		return -2;
	}
	if (node_allowed(requested))
		return requested;
	nodes[0] = '\0';
	for (int node = 0; node <= numa_max_node() && n >= 0 && (size_t)n < sizeof(nodes); node++)
		if (node_allowed(node))
			n += snprintf(nodes + n, sizeof(nodes) - (size_t)n, "%s%d", n ? " " : "", node);
	snprintf(err, errlen, "--lock-node %d: not a NUMA node this process may allocate on (nodes: %s)",
		 requested, nodes);
	return -2;
}
