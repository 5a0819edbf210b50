/* watchdog.c — no progress for too long: say why, for run.c to abort the run. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "watchdog.h"
#include "../platform/tsc.h"
#include "../workloads/workload.h"

#define REPORT_THREADS_MAX 64   /* per-thread lines; the rest are counted */
#define STATE_WORDS_MAX 8       /* 32-bit words of lock state shown */

double watchdog_limit(const struct bench_config *cfg)
{
	if (cfg->watchdog_s > 0)
		return cfg->watchdog_s;
	return cfg->duration_s > WATCHDOG_MIN_DEFAULT_S ? cfg->duration_s : WATCHDOG_MIN_DEFAULT_S;
}

int watchdog_start(struct watchdog *wd, double limit_s, struct bench_thread *const *threads,
		   unsigned int n)
{
	double now = mono_now_s();

	memset(wd, 0, sizeof(*wd));
	wd->limit_s = limit_s;
	wd->threads = threads;
	wd->nthreads = n;
	wd->progress_s = now;
	wd->last_acquired = calloc(n ? n : 1, sizeof(*wd->last_acquired));
	wd->last_acquired_s = calloc(n ? n : 1, sizeof(*wd->last_acquired_s));
	if (!wd->last_acquired || !wd->last_acquired_s) {
		watchdog_free(wd);
		return -1;
	}
	for (unsigned int i = 0; i < n; i++)
		wd->last_acquired_s[i] = now;
	return 0;
}

void watchdog_free(struct watchdog *wd)
{
	free(wd->last_acquired);
	free(wd->last_acquired_s);
	wd->last_acquired = NULL;
	wd->last_acquired_s = NULL;
}

bool watchdog_poll(struct watchdog *wd, unsigned int threads_done)
{
	double now = mono_now_s();
	uint64_t progress = threads_done;

	if (wd->fired_s > 0)
		return true;
	if (now < wd->next_poll_s)
		return false;
	wd->next_poll_s = now + WATCHDOG_POLL_S;
	for (unsigned int i = 0; i < wd->nthreads; i++) {
		/* Relaxed: a count only, read a few times a second (harness.h). */
		uint64_t acquired = __atomic_load_n(&wd->threads[i]->acquired, __ATOMIC_RELAXED);

		if (acquired != wd->last_acquired[i]) {
			wd->last_acquired[i] = acquired;
			wd->last_acquired_s[i] = now;
		}
		progress += acquired;
	}
	if (progress != wd->progress) {
		wd->progress = progress;
		wd->progress_s = now;
		return false;
	}
	if (now - wd->progress_s < wd->limit_s)
		return false;
	wd->fired_s = now;
	return true;
}

/* How long thread i has been in lock(), in seconds; < 0 when it is not there. */
static double waiting_s(const struct watchdog *wd, unsigned int i, uint64_t tsc, double tsc_hz)
{
	uint64_t since = __atomic_load_n(&wd->threads[i]->waiting_since, __ATOMIC_RELAXED);

	if (!since)
		return -1;
	/* An untimed lock() (--timing) read no TSC: it began after the thread's
	 * last acquisition, which the polls saw (to within WATCHDOG_POLL_S). */
	if (since == BENCH_WAITING_UNTIMED)
		return wd->fired_s - wd->last_acquired_s[i];
	/* Another CPU's TSC: skew (checked by the machine probe) can make it
	 * a little ahead of ours. */
	return tsc > since && tsc_hz > 0 ? (double)(tsc - since) / tsc_hz : 0;
}

/* The lock's first words, as its threads see them: the harness does not know
 * what they mean, only that a stuck lock's state is the first thing to read. */
static void lock_state(const struct bench_config *cfg, const void *lock, char *buf, size_t len)
{
	size_t words = cfg->lock->size / sizeof(uint32_t);
	int n = snprintf(buf, len, "lock state (32-bit words of %zu bytes):", cfg->lock->size);

	if (words > STATE_WORDS_MAX)
		words = STATE_WORDS_MAX;
	for (size_t w = 0; w < words && n > 0 && (size_t)n < len; w++) {
		/* Relaxed atomic loads: the threads may still be writing them. */
		uint32_t v = __atomic_load_n((const uint32_t *)lock + w, __ATOMIC_RELAXED);

		n += snprintf(buf + n, len - (size_t)n, " 0x%08" PRIx32, v);
	}
	if (words == 0)
		snprintf(buf, len, "lock state: none (%zu bytes)", cfg->lock->size);
}

static void report_thread(const struct watchdog *wd, unsigned int i, double wait_s, FILE *out)
{
	const struct bench_thread *t = wd->threads[i];
	uint64_t acquired = wd->last_acquired[i];

	if (wait_s >= 0)
		fprintf(out, "lockbench: watchdog: thread %u (cpu %d): waiting in lock() for %.2f s, "
			"%" PRIu64 " acquisitions before\n", t->id, t->cpu, wait_s, acquired);
	else
		fprintf(out, "lockbench: watchdog: thread %u (cpu %d): not in lock(), last acquired "
			"%.2f s ago, %" PRIu64 " acquisitions\n", t->id, t->cpu,
			wd->fired_s - wd->last_acquired_s[i], acquired);
}

void watchdog_report(const struct watchdog *wd, const struct bench_config *cfg, const void *lock,
		     double tsc_hz, FILE *out, char *summary, size_t summary_len)
{
	uint64_t tsc = tsc_now();
	unsigned int waiting = 0, shown = 0;
	double longest = 0;
	char state[160];

	fprintf(out, "lockbench: watchdog: no lock acquisition for %.1f s (lock %s, workload %s, "
		"%u threads): aborting the run\n", wd->limit_s, cfg->lock->name, cfg->workload->name,
		wd->nthreads);
	for (unsigned int i = 0; i < wd->nthreads; i++) {
		double wait_s = waiting_s(wd, i, tsc, tsc_hz);

		if (wait_s >= 0) {
			waiting++;
			longest = wait_s > longest ? wait_s : longest;
		}
		if (shown++ < REPORT_THREADS_MAX)
			report_thread(wd, i, wait_s, out);
	}
	if (shown > REPORT_THREADS_MAX)
		fprintf(out, "lockbench: watchdog: (%u more threads not shown)\n", shown - REPORT_THREADS_MAX);
	lock_state(cfg, lock, state, sizeof(state));
	fprintf(out, "lockbench: watchdog: %s\n", state);
	snprintf(summary, summary_len, "watchdog: no lock acquisition for %.1f s: lock %s, workload %s; "
		 "%u of %u threads waiting in lock() (longest %.2f s); %s", wd->limit_s, cfg->lock->name,
		 cfg->workload->name, waiting, wd->nthreads, longest, state);
}
