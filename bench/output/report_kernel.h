/* report_kernel.h — the --kernel-locks capture's summary lines and result
 * files (report_kernel.c), for report.c. */
#ifndef LOCKBENCH_REPORT_KERNEL_H
#define LOCKBENCH_REPORT_KERNEL_H

#include <stdio.h>

#include "../kernel/kernel_locks.h"

/* Summary lines: the top locks with their callers; the mutex waits by how
 * they were resolved (nothing when there were none). */
void report_kernel_top(const struct kernel_locks *k, FILE *out);
void report_kernel_mutex(const struct kernel_locks *k, FILE *out);
/* summary.csv: the stack bounds and the mutex classes' keys. */
void report_kernel_keys(const struct kernel_locks *k, FILE *f);
/* kernel-locks.csv. */
void report_kernel_locks_csv(const struct kernel_locks *k, FILE *f);

#endif
