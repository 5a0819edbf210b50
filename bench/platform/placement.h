/*
 * placement.h — which CPU each worker thread runs on.  Policies are named on
 * the command line (--pin) and resolved against the hwloc topology
 * (topology.h) at run time; more threads than CPUs wrap around the policy's
 * order, as the seed ran 256 threads on 64 cores.
 *
 * On a two-socket box with two cores per socket and two hardware threads per
 * core, Linux numbering (core c of package p has PUs c' and c'+4, c' = 2p+c):
 *   compact  0,4,1,5,2,6,3,7   fill a core's hardware threads, then the next core, then package
 *   cores    0,1,2,3,4,5,6,7   one thread per core, package by package, SMT siblings last
 *   scatter  0,2,1,3,4,6,5,7   alternate packages (NUMA nodes, caches) at every level
 *   rr       0,1,2,3,4,5,6,7   OS numbering, whatever the firmware chose
 * Only CPUs this process may use take part (cgroup cpuset, taskset).
 */
#ifndef LOCKBENCH_PLACEMENT_H
#define LOCKBENCH_PLACEMENT_H

#include <stddef.h>
#include <stdio.h>

/*
 * `cores` by default: the order in which an idle Linux scheduler spreads
 * runnable threads (idle cores before SMT siblings), and one whose meaning
 * does not depend on how the firmware numbered the CPUs (`rr` does), so runs
 * on different machines pin alike.
 */
#define PLACEMENT_DEFAULT "cores"

/* Fills cpu_of_thread[0..nthreads) (-1: not pinned).  Returns 0, or -1 with a
 * one-line message in err for an unknown policy or an unusable CPU list. */
int placement_plan(const char *policy, unsigned int nthreads, int *cpu_of_thread,
		   char *err, size_t errlen);

/*
 * The policy's CPU order before wrapping: *order is set to a malloc'd array
 * (free() it) and its length is returned; 0 and NULL for `none`.  -1 with a
 * one-line message in err, as placement_plan().
 */
int placement_order(const char *policy, int **order, char *err, size_t errlen);

/* The policies that order every usable CPU, as --topology lists them. */
extern const char *const placement_policies[];

/*
 * The second half of `lockbench --topology`, after topology_report(): every
 * policy's CPU order.  Lives here, not in topology.c, so that placement
 * calls topology and never the other way round.
 */
void placement_print_orders(FILE *out);

/* One line per policy, indented for --help. */
extern const char placement_help[];

#endif
