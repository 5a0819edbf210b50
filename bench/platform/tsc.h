/* tsc.h — what one TSC cycle is worth, what reading it costs, and whether
 * readings taken on different CPUs can be compared. */
#ifndef LOCKBENCH_TSC_H
#define LOCKBENCH_TSC_H

#include <stdint.h>

/* CLOCK_MONOTONIC in seconds: for deadlines and lengths of runs. */
double mono_now_s(void);

/* Median cycles of an empty tsc_begin()/tsc_end() interval: the floor under
 * every recorded acquisition time. */
uint64_t tsc_timer_overhead(void);

/*
 * TSC ticks per second, timed against CLOCK_MONOTONIC_RAW over `seconds`
 * (busy).  Each end is the tightest of a few (TSC, clock, TSC) brackets, so a
 * preemption inside one reading cannot skew the figure.
 */
double tsc_calibrate_hz(double seconds);

/*
 * Cross-CPU consistency.  A thread pinned to the reference CPU (the first in
 * the list) and one moved to each other CPU in turn ping-pong timestamps
 * through two cache lines: A reads t1 and sends it, B reads t2 on arrival;
 * B sends t3, A reads t4.  Since t2 is read after t1, t2 - t1 > offset(B - A)
 * whatever the latency, and t4 - t3 > offset(A - B); the smallest of each
 * over many rounds bounds the offset from both sides.  A negative minimum
 * means a timestamp read later on one CPU was smaller than one read earlier
 * on the other: the TSCs are not ordered.
 */
struct tsc_skew {
	unsigned int cpus;        /* distinct CPUs asked for, the reference included */
	unsigned int pairs;       /* (reference, other) pairs measured */
	unsigned int unreachable; /* CPUs the checking thread could not run on */
	int aborted;              /* a CPU stopped answering: figures cover what was done */
	int ref_cpu;
	int worst_cpu;            /* the CPU with the largest offset estimate (-1: none) */
	int64_t worst_offset;     /* its TSC minus the reference's, cycles: midpoint estimate */
	uint64_t bound;           /* every pair: |offset| < bound cycles (0: no pair) */
	unsigned int backwards;   /* pairs whose timestamps were seen out of order */
	uint64_t backwards_max;   /* the largest step back, cycles */
	uint64_t rounds;          /* round trips, all pairs */
	double elapsed_s;
};

/*
 * Checks `cpus[0..n)` (repeats ignored) against cpus[0], spending about
 * `budget_s` on the round trips (at least a few per pair).  `bias` is added
 * to every timestamp read on the non-reference CPU: 0 except in tests, which
 * use it to check that a skew is caught.  Returns 0, or -1 with errno set
 * when the checking threads cannot be started.
 */
int tsc_skew_check(const int *cpus, unsigned int n, double budget_s, int64_t bias,
		   struct tsc_skew *out);

#endif
