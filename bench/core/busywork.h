/*
 * busywork.h — --cs and --think as loop counts: busy_loops() (harness.h,
 * inline on the hot path) runs a number of iterations, and these convert
 * the CLI's cycles into that number, once per thread before it starts.
 */
#ifndef LOCKBENCH_BUSYWORK_H
#define LOCKBENCH_BUSYWORK_H

#include <stdint.h>

/* Times the loop, once per process (later calls return at once). */
void busy_calibrate(void);
/* The iterations of busy_loops() that take `cycles` TSC cycles. */
uint64_t busy_loops_for(uint64_t cycles);

#endif
