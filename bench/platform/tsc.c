/* tsc.c — timer overhead, TSC calibration, cross-CPU TSC consistency. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tsc.h"
#include "../../locks/arch.h"

#define OVERHEAD_SAMPLES 1001
#define BRACKET_TRIES 5
#define SKEW_MIN_ROUNDS 32
#define SKEW_MAX_ROUNDS 2000
#define SKEW_SPIN_TIMEOUT_NS 50000000   /* a CPU silent this long ends the check */
#define SKEW_STOP UINT64_MAX            /* A -> B: this pair is over */
#define SKEW_DONE UINT32_MAX            /* rover -> reference: no more pairs */

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

uint64_t tsc_timer_overhead(void)
{
	uint64_t samples[OVERHEAD_SAMPLES];

	for (int i = 0; i < OVERHEAD_SAMPLES; i++) {
		uint64_t t0 = tsc_begin();

		samples[i] = tsc_end() - t0;
	}
	qsort(samples, OVERHEAD_SAMPLES, sizeof(samples[0]), cmp_u64);
	return samples[OVERHEAD_SAMPLES / 2];
}

static int64_t clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

double mono_now_s(void)
{
	return (double)clock_ns(CLOCK_MONOTONIC) * 1e-9;
}

/* ---- calibration ---- */

struct clock_pair {
	uint64_t tsc;   /* midpoint of the bracket */
	int64_t ns;     /* CLOCK_MONOTONIC_RAW */
};

/* The tightest of a few TSC brackets around one clock read. */
static struct clock_pair clock_pair_now(void)
{
	struct clock_pair best = { 0, 0 };
	uint64_t best_width = UINT64_MAX;

	for (int i = 0; i < BRACKET_TRIES; i++) {
		uint64_t t0 = tsc_begin();
		int64_t ns = clock_ns(CLOCK_MONOTONIC_RAW);
		uint64_t t1 = tsc_end();

		if (t1 - t0 < best_width) {
			best_width = t1 - t0;
			best.tsc = t0 + (t1 - t0) / 2;
			best.ns = ns;
		}
	}
	return best;
}

double tsc_calibrate_hz(double seconds)
{
	struct clock_pair start = clock_pair_now(), end;
	int64_t span_ns = (int64_t)(seconds * 1e9);

	do
		end = clock_pair_now();
	while (end.ns - start.ns < span_ns);
	return (double)(end.tsc - start.tsc) * 1e9 / (double)(end.ns - start.ns);
}

/* ---- cross-CPU consistency ---- */

struct skew_run {
	/* The two message words, each alone on its line pair: A -> B, B -> A. */
	uint64_t ab __attribute__((aligned(CACHELINE_PAIR)));
	uint64_t ba __attribute__((aligned(CACHELINE_PAIR)));
	/* Rover -> reference: index of the CPU the rover now sits on, or SKEW_DONE. */
	uint32_t pair __attribute__((aligned(CACHELINE_PAIR)));
	int abort;                  /* either side timed out */
	const int *cpus;            /* distinct, cpus[0] the reference */
	unsigned int n;
	int64_t bias;
	int64_t slice_ns;           /* round-trip time per pair */
	int64_t *fwd_min, *back_min; /* per CPU: min(t2 - t1) by B, min(t4 - t3) by A */
	uint64_t *rounds;           /* per CPU, by A */
	bool *reached;              /* per CPU, by the rover */
};

static bool skew_aborted(struct skew_run *s)
{
	return __atomic_load_n(&s->abort, __ATOMIC_RELAXED);
}

/* Spins until *word differs from `old`; false (and the run aborted) on timeout. */
static bool skew_wait_change(struct skew_run *s, const uint64_t *word, uint64_t old, uint64_t *now)
{
	int64_t deadline = clock_ns(CLOCK_MONOTONIC) + SKEW_SPIN_TIMEOUT_NS;

	for (unsigned int spin = 1;; spin++) {
		/* Acquire: pairs with the sender's release, so this side's read of
		 * the other word (the previous message) is ordered before our reply. */
		*now = __atomic_load_n(word, __ATOMIC_ACQUIRE);
		if (*now != old)
			return true;
		if ((spin & 1023) == 0 &&
		    (skew_aborted(s) || clock_ns(CLOCK_MONOTONIC) > deadline)) {
			__atomic_store_n(&s->abort, 1, __ATOMIC_RELAXED);
			return false;
		}
		cpu_relax();
	}
}

/* A's side of one pair: rounds until the slice is spent, then SKEW_STOP. */
static void skew_pair_ref(struct skew_run *s, unsigned int k)
{
	uint64_t last_ba = __atomic_load_n(&s->ba, __ATOMIC_ACQUIRE);  /* pairs with B's release */
	int64_t end = clock_ns(CLOCK_MONOTONIC) + s->slice_ns;
	uint64_t done = 0;

	s->back_min[k] = INT64_MAX;
	while (done < SKEW_MAX_ROUNDS) {
		uint64_t t1 = tsc_begin(), t3, t4;

		/* Release: pairs with B's acquire; orders our read of the last `ba`. */
		__atomic_store_n(&s->ab, t1, __ATOMIC_RELEASE);
		if (!skew_wait_change(s, &s->ba, last_ba, &t3))
			break;
		t4 = tsc_begin();
		last_ba = t3;
		if ((int64_t)(t4 - t3) < s->back_min[k])
			s->back_min[k] = (int64_t)(t4 - t3);
		done++;
		if (done >= SKEW_MIN_ROUNDS && clock_ns(CLOCK_MONOTONIC) > end)
			break;
	}
	s->rounds[k] = done;
	__atomic_store_n(&s->ab, SKEW_STOP, __ATOMIC_RELEASE);  /* pairs with B's acquire */
}

static void *skew_ref_main(void *arg)
{
	struct skew_run *s = arg;
	uint32_t seen = 0, k;

	while (!skew_aborted(s)) {
		/* Acquire: pairs with the rover's release of `pair`, after which it
		 * has read `ab` and waits for our first message. */
		k = __atomic_load_n(&s->pair, __ATOMIC_ACQUIRE);
		if (k == SKEW_DONE)
			break;
		if (k == seen) {
			cpu_relax();
			continue;
		}
		seen = k;
		skew_pair_ref(s, k);
	}
	return NULL;
}

/* B's side of one pair: answer every message until SKEW_STOP. */
static void skew_pair_rover(struct skew_run *s, unsigned int k, uint64_t last_ab)
{
	uint64_t t1;

	s->fwd_min[k] = INT64_MAX;
	while (skew_wait_change(s, &s->ab, last_ab, &t1) && t1 != SKEW_STOP) {
		uint64_t t2 = tsc_begin() + (uint64_t)s->bias, t3;

		last_ab = t1;
		if ((int64_t)(t2 - t1) < s->fwd_min[k])
			s->fwd_min[k] = (int64_t)(t2 - t1);
		t3 = tsc_begin() + (uint64_t)s->bias;
		/* Release: pairs with A's acquire; orders our read of `ab` first. */
		__atomic_store_n(&s->ba, t3, __ATOMIC_RELEASE);
	}
}

static bool move_to_cpu(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return pthread_setaffinity_np(pthread_self(), sizeof(set), &set) == 0 && sched_getcpu() == cpu;
}

static void *skew_rover_main(void *arg)
{
	struct skew_run *s = arg;

	for (unsigned int k = 1; k < s->n && !skew_aborted(s); k++) {
		uint64_t last_ab;

		s->reached[k] = move_to_cpu(s->cpus[k]);
		if (!s->reached[k])
			continue;
		last_ab = __atomic_load_n(&s->ab, __ATOMIC_ACQUIRE);  /* pairs with A's release */
		/* Release: our read of `ab` above happens before A's first send. */
		__atomic_store_n(&s->pair, k, __ATOMIC_RELEASE);
		skew_pair_rover(s, k, last_ab);
	}
	__atomic_store_n(&s->pair, SKEW_DONE, __ATOMIC_RELEASE);  /* pairs with ref's acquire */
	return NULL;
}

/* Distinct CPUs of cpus[0..n), first occurrence order; returns how many. */
static unsigned int distinct_cpus(const int *cpus, unsigned int n, int *out)
{
	unsigned int m = 0;

	for (unsigned int i = 0; i < n; i++) {
		bool seen = cpus[i] < 0;

		for (unsigned int j = 0; j < m && !seen; j++)
			seen = out[j] == cpus[i];
		if (!seen)
			out[m++] = cpus[i];
	}
	return m;
}

static void skew_summarise(const struct skew_run *s, struct tsc_skew *out)
{
	out->worst_cpu = -1;
	for (unsigned int k = 1; k < s->n; k++) {
		int64_t fwd = s->fwd_min[k], back = s->back_min[k], offset, low, high;

		if (!s->reached[k]) {
			out->unreachable++;
			continue;
		}
		if (s->rounds[k] == 0 || fwd == INT64_MAX || back == INT64_MAX)
			continue;
		out->pairs++;
		out->rounds += s->rounds[k];
		offset = (fwd - back) / 2;          /* B - A lies in (-back, fwd) */
		high = fwd > back ? fwd : back;     /* |B - A| < max(fwd, back) */
		low = fwd < back ? fwd : back;
		if ((uint64_t)high > out->bound)
			out->bound = (uint64_t)high;
		if (out->worst_cpu < 0 || llabs(offset) > llabs(out->worst_offset)) {
			out->worst_cpu = s->cpus[k];
			out->worst_offset = offset;
		}
		if (low < 0) {
			out->backwards++;
			if ((uint64_t)-low > out->backwards_max)
				out->backwards_max = (uint64_t)-low;
		}
	}
}

static int skew_threads(struct skew_run *s)
{
	pthread_t ref, rover;
	pthread_attr_t attr;
	cpu_set_t set;
	int rc = pthread_attr_init(&attr);

	CPU_ZERO(&set);
	CPU_SET(s->cpus[0], &set);
	if (!rc)
		rc = pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
	if (!rc)
		rc = pthread_create(&ref, &attr, skew_ref_main, s);
	pthread_attr_destroy(&attr);
	if (rc)
		return rc;
	rc = pthread_create(&rover, NULL, skew_rover_main, s);
	if (rc) {
		__atomic_store_n(&s->pair, SKEW_DONE, __ATOMIC_RELEASE);  /* pairs with ref's acquire */
		pthread_join(ref, NULL);
		return rc;
	}
	pthread_join(rover, NULL);
	pthread_join(ref, NULL);
	return 0;
}

int tsc_skew_check(const int *cpus, unsigned int n, double budget_s, int64_t bias,
		   struct tsc_skew *out)
{
	struct skew_run *s = aligned_alloc(CACHELINE_PAIR, sizeof(*s));
	int *distinct = calloc(n ? n : 1, sizeof(int));
	int64_t t0 = clock_ns(CLOCK_MONOTONIC);
	int rc = 0;

	memset(out, 0, sizeof(*out));
	out->ref_cpu = out->worst_cpu = -1;
	if (!s || !distinct) {
		free(s);
		free(distinct);
		errno = ENOMEM;
		return -1;
	}
	memset(s, 0, sizeof(*s));
	s->cpus = distinct;
	s->n = distinct_cpus(cpus, n, distinct);
	s->bias = bias;
	out->cpus = s->n;
	out->ref_cpu = s->n ? distinct[0] : -1;
	if (s->n > 1) {
		s->slice_ns = (int64_t)(budget_s * 1e9) / (s->n - 1);
		s->fwd_min = calloc(s->n, sizeof(*s->fwd_min));
		s->back_min = calloc(s->n, sizeof(*s->back_min));
		s->rounds = calloc(s->n, sizeof(*s->rounds));
		s->reached = calloc(s->n, sizeof(*s->reached));
		if (!s->fwd_min || !s->back_min || !s->rounds || !s->reached)
			rc = ENOMEM;
		if (!rc)
			rc = skew_threads(s);
		if (!rc) {
			skew_summarise(s, out);
			out->aborted = s->abort;
		}
		free(s->fwd_min);
		free(s->back_min);
		free(s->rounds);
		free(s->reached);
	}
	out->elapsed_s = (double)(clock_ns(CLOCK_MONOTONIC) - t0) * 1e-9;
	free(distinct);
	free(s);
	errno = rc;
	return rc ? -1 : 0;
}
