/*
 * sim_bench.c — make bench's figure for the simulator (docs/sim.md): events
 * and shared accesses per second of this machine's time, and the wall time
 * of one simulated second, for THREADS simulated threads on as many
 * simulated CPUs contending one futex lock (tests/sim_test.h's, through
 * pr_*) with a hold of HOLD ns and a gap of GAP ns, on the engine tests'
 * profile.
 *
 *   sim_bench [THREADS [SIM_MS]]   (default 64 threads, 50 simulated ms)
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "../tests/sim_test.h"

#define HOLD_NS 1000
#define GAP_NS 5000

struct bench {
	uint32_t word __attribute__((aligned(64)));
	uint64_t until, hold, gap, ops;
};

static void body(void *arg)
{
	struct bench *b = arg;

	while (sim_now() < b->until) {
		sim_kernel_enter();
		tlock_futex_lock(&b->word);
		sim_work(b->hold);
		b->ops++;
		tlock_futex_unlock(&b->word);
		sim_kernel_exit();
		sim_work(b->gap);
	}
}

static double wall(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static int parse(const char *text, unsigned long lo, unsigned long hi, unsigned long *out)
{
	char *end;

	*out = strtoul(text, &end, 10);
	return *end || end == text || *out < lo || *out > hi ? -1 : 0;
}

int main(int argc, char **argv)
{
	unsigned long threads = 64, ms = 50;
	struct sim_profile p = sim_test_profile();
	struct bench b = { .word = 0 };
	const struct sim_stats *st;
	struct sim *s;
	double t0, secs;

	if (argc > 3 || (argc > 1 && parse(argv[1], 1, SIM_MAX_CPUS, &threads) < 0) ||
	    (argc > 2 && parse(argv[2], 1, 10000, &ms) < 0)) {
		fprintf(stderr, "usage: sim_bench [THREADS (1-%d) [SIM_MS (1-10000)]]\n", SIM_MAX_CPUS);
		return 2;
	}
	s = sim_test_new(&p, (unsigned)threads, 1, SIM_KERNEL);
	if (!s) {
		fprintf(stderr, "sim_bench: cannot create the simulation\n");
		return 1;
	}
	b.until = sim_cycles(s, ms * 1e6);
	b.hold = sim_cycles(s, HOLD_NS);
	b.gap = sim_cycles(s, GAP_NS);
	for (unsigned long i = 0; i < threads; i++)
		if (sim_spawn(s, body, &b) < 0) {
			fprintf(stderr, "sim_bench: cannot start simulated thread %lu\n", i);
			return 1;
		}
	t0 = wall();
	if (sim_run(s, UINT64_MAX / 2) != 0) {
		fprintf(stderr, "sim_bench: the simulation did not finish\n");
		return 1;
	}
	secs = wall() - t0;
	st = sim_stats(s);
	printf("sim: %lu threads on %lu CPUs, %lu simulated ms: %llu events, %llu accesses, %llu acquisitions "
	       "in %.3f s: %.2f M events/s, %.2f M accesses/s, %.1f s per simulated second\n",
	       threads, threads, ms, (unsigned long long)st->events, (unsigned long long)st->accesses,
	       (unsigned long long)b.ops, secs, st->events / secs / 1e6, st->accesses / secs / 1e6,
	       secs * 1000.0 / (double)ms);
	sim_destroy(s);
	return 0;
}
