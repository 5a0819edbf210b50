/* placement.c — CPU order per policy; hwloc-driven policies come with issue 5. */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include "placement.h"

const char placement_help[] =
	"rr (round-robin over the allowed CPUs, in OS numbering), none (not pinned)";

/* The CPUs this process may run on, in OS order. */
static int allowed_cpus(int *cpus, int max)
{
	cpu_set_t set;
	int n = 0;

	if (sched_getaffinity(0, sizeof(set), &set) != 0)
		return -1;
	for (int c = 0; c < CPU_SETSIZE && n < max; c++)
		if (CPU_ISSET(c, &set))
			cpus[n++] = c;
	return n;
}

int placement_plan(const char *policy, unsigned int nthreads, int *cpu_of_thread,
		   char *err, size_t errlen)
{
	int cpus[CPU_SETSIZE];
	int n;

	if (strcmp(policy, "none") == 0) {
		for (unsigned int i = 0; i < nthreads; i++)
			cpu_of_thread[i] = -1;
		return 0;
	}
	if (strcmp(policy, "rr") != 0) {
		snprintf(err, errlen, "--pin: unknown policy '%s' (valid: %s)", policy, placement_help);
		return -1;
	}
	n = allowed_cpus(cpus, CPU_SETSIZE);
	if (n <= 0) {
		snprintf(err, errlen, "--pin: cannot read this process's CPU affinity");
		return -1;
	}
	for (unsigned int i = 0; i < nthreads; i++)
		cpu_of_thread[i] = cpus[i % (unsigned int)n];
	return 0;
}
