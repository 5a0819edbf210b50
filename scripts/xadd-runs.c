/*
 * xadd-runs.c — how long a core keeps a contended line (docs/sim.md, "What
 * meets, what misses": the test-and-set lock's bursts).  Two threads, pinned to CPUs 0 and 1,
 * each do N `lock xadd`s on one shared line as fast as they can, noting the
 * value each got and the TSC after it.  Every value is one thread's, so the
 * values in order give the runs: how many increments a core made in a row
 * before the other took the line.  The simulator hands a line over as soon
 * as the other's request reaches it (sim/events.c); a core that keeps it
 * longer makes longer runs than the model's.
 *
 *   cc -O2 -pthread -o xadd-runs scripts/xadd-runs.c && ./xadd-runs [N]
 *
 * Prints the runs' count, mean, median and 10th/90th percentiles, and the
 * median TSC cycles of one increment inside a run.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <x86intrin.h>

struct side {
	uint64_t *got, *tsc;
	unsigned n;
	int cpu;
};

static uint64_t line __attribute__((aligned(64)));
static unsigned ready;

static void *incrementer(void *arg)
{
	struct side *s = arg;
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(s->cpu, &set);
	if (pthread_setaffinity_np(pthread_self(), sizeof(set), &set) != 0)
		return (void *)1;
	/* start together: each waits for the other */
	__atomic_fetch_add(&ready, 1, __ATOMIC_SEQ_CST);
	while (__atomic_load_n(&ready, __ATOMIC_ACQUIRE) < 2)
		_mm_pause();
	for (unsigned i = 0; i < s->n; i++) {
		s->got[i] = __atomic_fetch_add(&line, 1, __ATOMIC_SEQ_CST);
		s->tsc[i] = __rdtsc();
	}
	return NULL;
}

static int by_value(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The runs of equal owners in owner[0..total), into runs; their count. */
static size_t runs_of(const unsigned char *owner, size_t total, uint64_t *runs)
{
	size_t nr = 0;
	uint64_t len = 1;

	for (size_t v = 1; v < total; v++) {
		if (owner[v] == owner[v - 1]) {
			len++;
		} else {
			runs[nr++] = len;
			len = 1;
		}
	}
	runs[nr++] = len;
	return nr;
}

int main(int argc, char **argv)
{
	unsigned n = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 10) : 200000;
	struct side s[2];
	pthread_t t[2];
	size_t total = 2 * (size_t)n, nr, nd = 0;
	unsigned char *owner = malloc(total);
	uint64_t *runs = malloc(total * sizeof(uint64_t)), *step = malloc(n * sizeof(uint64_t));

	if (n < 2 || !owner || !runs || !step) {
		fprintf(stderr, "xadd-runs: N must be 2 or more, and fit in memory\n");
		return 2;
	}
	for (int i = 0; i < 2; i++) {
		s[i] = (struct side){ malloc(n * sizeof(uint64_t)), malloc(n * sizeof(uint64_t)), n, i };
		if (!s[i].got || !s[i].tsc || pthread_create(&t[i], NULL, incrementer, &s[i]) != 0) {
			fprintf(stderr, "xadd-runs: cannot start thread %d\n", i);
			return 2;
		}
	}
	for (int i = 0; i < 2; i++) {
		void *rc;

		pthread_join(t[i], &rc);
		if (rc) {
			fprintf(stderr, "xadd-runs: cannot pin a thread to CPU %d\n", i);
			return 2;
		}
	}
	for (int i = 0; i < 2; i++)
		for (unsigned k = 0; k < n; k++)
			owner[s[i].got[k]] = (unsigned char)i;
	nr = runs_of(owner, total, runs);
	qsort(runs, nr, sizeof(uint64_t), by_value);
	/* an increment's cost inside a run: thread 0's consecutive values */
	for (unsigned k = 1; k < n; k++)
		if (s[0].got[k] == s[0].got[k - 1] + 1)
			step[nd++] = s[0].tsc[k] - s[0].tsc[k - 1];
	qsort(step, nd, sizeof(uint64_t), by_value);
	printf("runs %zu, mean %.1f, median %llu, p10 %llu, p90 %llu increments; an increment in a run %llu cycles\n", nr,
	       (double)total / (double)nr, (unsigned long long)runs[nr / 2], (unsigned long long)runs[nr / 10],
	       (unsigned long long)runs[nr * 9 / 10], (unsigned long long)(nd ? step[nd / 2] : 0));
	return 0;
}
