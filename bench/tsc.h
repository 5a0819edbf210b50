/* tsc.h — what one TSC cycle is worth, and what reading it costs. */
#ifndef LOCKBENCH_TSC_H
#define LOCKBENCH_TSC_H

#include <stdint.h>

/* Median cycles of an empty tsc_begin()/tsc_end() interval: the floor under
 * every recorded acquisition time. */
uint64_t tsc_timer_overhead(void);

/* TSC ticks per second, timed against CLOCK_MONOTONIC_RAW over `seconds`. */
double tsc_calibrate_hz(double seconds);

#endif
