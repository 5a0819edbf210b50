/*
 * placement.h — which CPU each worker thread runs on.  Policies are named on
 * the command line (--pin); more threads than CPUs wrap around the policy's
 * order, as the seed ran 256 threads on 64 cores.
 */
#ifndef LOCKBENCH_PLACEMENT_H
#define LOCKBENCH_PLACEMENT_H

#include <stddef.h>

#define PLACEMENT_DEFAULT "rr"

/* Fills cpu_of_thread[0..nthreads) (-1: not pinned).  Returns 0, or -1 with a
 * one-line message in err for an unknown policy or an unusable CPU list. */
int placement_plan(const char *policy, unsigned int nthreads, int *cpu_of_thread,
		   char *err, size_t errlen);

/* One line per policy for --help and --list. */
extern const char placement_help[];

#endif
