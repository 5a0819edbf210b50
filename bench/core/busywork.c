/* busywork.c — converts the CLI's --cs/--think cycles into loop iterations. */
#include "busywork.h"
#include "harness.h"

#define CALIBRATION_LOOPS 2000000u

/* Loop iterations per 1024 TSC cycles; written once before threads start. */
static uint64_t loops_per_kcycle;

void busy_calibrate(void)
{
	uint64_t best = UINT64_MAX;

	if (loops_per_kcycle)
		return;
	/* Best of three: the fastest pass is the one least disturbed. */
	for (int pass = 0; pass < 3; pass++) {
		uint64_t t0 = tsc_begin();

		busy_loops(CALIBRATION_LOOPS);
		uint64_t cycles = tsc_end() - t0;

		if (cycles < best)
			best = cycles;
	}
	loops_per_kcycle = (uint64_t)CALIBRATION_LOOPS * 1024 / (best ? best : 1);
	if (!loops_per_kcycle)
		loops_per_kcycle = 1;
}

uint64_t busy_loops_for(uint64_t cycles)
{
	return cycles * loops_per_kcycle / 1024;
}
