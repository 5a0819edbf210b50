/*
 * schedmode.c — --sched.  `fifo` starts every worker under SCHED_FIFO at the
 * lowest real-time priority, all alike: among themselves no thread preempts
 * another (one runs until it blocks or yields), which is what userspace has
 * nearest the kernel's preemption-off spinning and wait_lock holding.
 * Kernel threads of a higher real-time priority still preempt them, as
 * interrupts preempt the kernel's spinners.  A worker turns SCHED_FIFO
 * itself, past the start gate (run/worker.c): a thread that waits for the gate's
 * mutex behind a FIFO thread sharing its CPU would wait for ever, and all
 * the others with it.  Past the gate they wait for one another on a futex
 * (run/runctl.c), and from then on one worker per CPU runs until it blocks.
 * The main thread and the watchdog stay SCHED_OTHER: they run when the
 * workers sleep, or on the
 * kernel's own share for ordinary tasks (RT throttling, the fair server),
 * so a run's stop may come late by up to that share's period — the measured
 * interval is timed from the stop's own clock reads, so its figures stay
 * consistent.  docs/kmutex.md says what it does to the models.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include "schedmode.h"

const char *const sched_mode_name[] = {
	[SCHED_MODE_OTHER] = "other",
	[SCHED_MODE_FIFO] = "fifo",
};

int sched_mode_find(const char *name)
{
	for (int m = SCHED_MODE_OTHER; m <= SCHED_MODE_FIFO; m++)
		if (strcmp(sched_mode_name[m], name) == 0)
			return m;
	return -1;
}

int sched_mode_attr(pthread_attr_t *attr, int mode)
{
	struct sched_param sp = { .sched_priority = sched_get_priority_min(SCHED_FIFO) };
	int rc;

	if (mode != SCHED_MODE_FIFO)
		return 0;
	rc = pthread_attr_setinheritsched(attr, PTHREAD_EXPLICIT_SCHED);
	if (!rc)
		rc = pthread_attr_setschedpolicy(attr, SCHED_FIFO);
	if (!rc)
		rc = pthread_attr_setschedparam(attr, &sp);
	return rc;
}

int sched_mode_self(int mode)
{
	struct sched_param sp = { .sched_priority = sched_get_priority_min(SCHED_FIFO) };

	if (mode != SCHED_MODE_FIFO)
		return 0;
	return pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp);
}

static void *probe_main(void *arg)
{
	return arg;
}

int sched_mode_check(int mode, char *err, size_t errlen)
{
	pthread_attr_t attr;
	pthread_t tid;
	int rc;

	if (mode == SCHED_MODE_OTHER)
		return 0;
	rc = pthread_attr_init(&attr);
	if (!rc)
		rc = sched_mode_attr(&attr, mode);
	if (!rc)
		rc = pthread_create(&tid, &attr, probe_main, NULL);
	pthread_attr_destroy(&attr);
	if (!rc)
		return pthread_join(tid, NULL) == 0 ? 0 : -1;
	if (rc == EPERM)
		snprintf(err, errlen, "--sched %s: not permitted here (needs root or CAP_SYS_NICE, or RLIMIT_RTPRIO "
			 "of 1 or more, and real-time time in this cgroup)", sched_mode_name[mode]);
	else
		snprintf(err, errlen, "--sched %s: cannot start a thread under it: %s", sched_mode_name[mode],
			 strerror(rc));
	return -1;
}
