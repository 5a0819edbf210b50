/*
 * watchdog.h — notices a run that has stopped making progress (a deadlocked
 * or livelocked lock, a lost wake-up) and says what every thread was doing.
 *
 * Progress is any thread completing an acquisition, or leaving its loop.
 * Acquisitions rather than operations, because one operation may take many
 * (an fserver job is ~1,500 locked calls, and a job can take minutes with a
 * FIFO spinlock oversubscribed) and a lock that still hands itself on is not
 * stuck.  The main thread polls from its wait loops; workers pay three relaxed
 * stores to their own line per acquisition (bench_lock() in harness.h).
 */
#ifndef LOCKBENCH_WATCHDOG_H
#define LOCKBENCH_WATCHDOG_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "../core/harness.h"

#define WATCHDOG_MIN_DEFAULT_S 5.0  /* the default is max(this, --duration) */
#define WATCHDOG_POLL_S 0.05        /* how often the main thread looks */

struct watchdog {
	double limit_s;
	struct bench_thread *const *threads;
	unsigned int nthreads;
	uint64_t progress;          /* acquisitions + threads finished, at the last change */
	double progress_s;          /* when it last changed */
	double next_poll_s;
	double fired_s;             /* 0 until it fires */
	uint64_t *last_acquired;    /* per thread, as last seen */
	double *last_acquired_s;    /* per thread, when that count last changed */
};

/* The limit for `cfg`: --watchdog, else max(5 s, the run's duration). */
double watchdog_limit(const struct bench_config *cfg);

/* Starts watching `n` running threads; 0, or -1 when out of memory. */
int watchdog_start(struct watchdog *wd, double limit_s, struct bench_thread *const *threads,
		   unsigned int n);
void watchdog_free(struct watchdog *wd);

/* Looks, at most every WATCHDOG_POLL_S; true once there has been no
 * progress for the limit (and from then on). */
bool watchdog_poll(struct watchdog *wd, unsigned int threads_done);

/*
 * The diagnosis, one line per fact on `out`, each starting "lockbench:
 * watchdog:": every thread's state (waiting in lock() and for how long, or
 * when it last acquired), then the lock's state words.  `summary` gets the
 * one line that says it all, for the caller's last message.
 */
void watchdog_report(const struct watchdog *wd, const struct bench_config *cfg, const void *lock,
		     double tsc_hz, FILE *out, char *summary, size_t summary_len);

#endif
