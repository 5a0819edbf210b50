/* schedmode.h — --sched: the worker threads' scheduling policy, which each
 * worker takes past the start gate. */
#ifndef LOCKBENCH_SCHEDMODE_H
#define LOCKBENCH_SCHEDMODE_H

#include <pthread.h>
#include <stddef.h>

/*
 * FIFO puts the workers all under SCHED_FIFO at one priority, so none
 * preempts another (a userspace stand-in for the kernel's preemption-off
 * spinning; docs/kmutex.md, "--sched fifo").
 */
enum sched_mode {
	SCHED_MODE_OTHER,  /* the default: SCHED_OTHER, as the process runs */
	SCHED_MODE_FIFO,
};
/* Each mode's name, as --sched and summary.csv's `sched` spell it. */
extern const char *const sched_mode_name[];

/* The mode called `name` (other, fifo), or -1. */
int sched_mode_find(const char *name);
/* Puts `mode` into a thread attribute (nothing for other): 0 or an errno. */
int sched_mode_attr(pthread_attr_t *attr, int mode);
/* Puts the calling thread under `mode`: 0 or an errno. */
int sched_mode_self(int mode);
/* Whether this process may start a thread under `mode`: 0, or -1 with one
 * line in err (fifo: permission, RLIMIT_RTPRIO, a cgroup without real-time
 * time).  Asked once, before a run starts any worker. */
int sched_mode_check(int mode, char *err, size_t errlen);

#endif
