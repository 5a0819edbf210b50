/* memory.c — zeroed, aligned blocks; NUMA placement arrives with libnuma. */
#include <stdlib.h>
#include <string.h>

#include "../locks/arch.h"
#include "memory.h"

void *mem_alloc_node(size_t size, int node)
{
	size_t rounded = ALIGN_UP(size ? size : 1, CACHELINE_PAIR);
	void *p = aligned_alloc(CACHELINE_PAIR, rounded);

	(void)node;
	if (p)
		memset(p, 0, rounded);
	return p;
}

int mem_node_of_cpu(int cpu)
{
	(void)cpu;
	return -1;
}

void *mem_alloc_near_cpu(size_t size, int cpu)
{
	return mem_alloc_node(size, mem_node_of_cpu(cpu));
}

void mem_free(void *p, size_t size)
{
	(void)size;
	free(p);
}
