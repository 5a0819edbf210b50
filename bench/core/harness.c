/*
 * harness.c — what harness.h's hot path calls out of line, and the setup of
 * the fields it reads: a failed operation's message, and the --timing
 * sampler.  Calls nothing above it: the run (run/) and the workloads
 * (workloads/) call in here, never the other way.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>

#include "config.h"
#include "harness.h"
#include "../../common/splitmix64.h"

int bench_fail(struct bench_thread *t, int err, const char *fmt, ...)
{
	va_list ap;

	t->err = err ? err : EIO;
	va_start(ap, fmt);
	vsnprintf(t->errmsg, sizeof(t->errmsg), fmt, ap);
	va_end(ap);
	return -1;
}

/* Called once per timed acquisition under sample:N, outside the timed
 * interval, from the timing sampler's own splitmix64 stream (its gaps share
 * nothing with a workload's); N >= 2 (cli.c), so the modulus is at least 3. */
uint64_t bench_timing_gap(struct bench_thread *t)
{
	return splitmix64(&t->timing_rng) % (2 * t->timing_mean - 1);
}

/* Under sample:N the first gap is drawn too, so threads do not all time
 * their first acquisition; under off the countdown starts where no run
 * reaches 0 (2^64 acquisitions). */
void bench_timing_init(struct bench_thread *t, const struct bench_config *cfg)
{
	t->timing_skip = 0;
	t->timing_mean = 0;
	if (cfg->timing == TIMING_OFF) {
		t->timing_skip = UINT64_MAX;
	} else if (cfg->timing == TIMING_SAMPLE) {
		t->timing_mean = cfg->timing_sample;
		/* 0x74696d696e67 is "timing": apart from fserver's seed ^ (id + 1) << 32. */
		t->timing_rng = cfg->seed ^ ((uint64_t)(t->id + 1) << 32) ^ UINT64_C(0x74696d696e67);
		t->timing_skip = bench_timing_gap(t);
	}
}
