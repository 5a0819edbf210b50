/*
 * syslimits.h — the system limits a run can meet while it starts its threads:
 * checked before anything starts where they are knowable, and described in
 * the message when a start fails anyway.
 *
 * - RLIMIT_NPROC: the tasks (processes and threads) of the real user, counted
 *   in /proc; ignored, as the kernel ignores it, for root and for a process
 *   holding CAP_SYS_RESOURCE or CAP_SYS_ADMIN;
 * - the pids controller of the process's cgroup (v1 or v2): pids.max less
 *   pids.current, at every level up to the hierarchy's root;
 * - RLIMIT_NOFILE: the descriptors open now plus what the workload declares
 *   (workload_ops.fds_shared, .fds_per_thread) plus LIMITS_FD_RESERVE; a soft
 *   limit below that is raised, up to the hard limit, rather than refused.
 * What cannot be known ahead (other processes of the user starting
 * meanwhile, memory, RLIMIT_AS) still fails the start; the run then ends
 * with exit status 1 and limits_describe()'s figures in its message.
 */
#ifndef LOCKBENCH_SYSLIMITS_H
#define LOCKBENCH_SYSLIMITS_H

#include <stddef.h>

/* Descriptors beyond the workload's: a result file being written, and the
 * directories the orphan sweep (fileutil.h) reads while the workload starts. */
#define LIMITS_FD_RESERVE 4

/* What a run is about to start: its workers, and the descriptors its
 * workload declares (workload_ops.fds_shared, .fds_per_thread). */
struct limits_need {
	unsigned int threads;
	const char *workload;        /* its name, for the message */
	unsigned int fds_shared;
	unsigned int fds_per_thread;
};

/*
 * 0 when the run's workers (and the workload's descriptors) fit under every
 * limit that can be read; -1 with a one-line message naming the limit, its
 * value and what is in use when they do not.
 */
int limits_check_start(const struct limits_need *run, char *err, size_t errlen);

/* "RLIMIT_NPROC 100, 100 in use by user 65534; cgroup pids.max max": the
 * limits a failed thread start may have met, for its message. */
void limits_describe(char *buf, size_t len);

#endif
