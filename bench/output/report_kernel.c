/*
 * report_kernel.c — the --kernel-locks capture's part of the summary and of
 * the result files (report.c calls it): the top-locks table, the mutex
 * waits by how they were resolved, and what bounded the stacks taken.
 * Formats: results/README.md ("Kernel keys", kernel-locks.csv).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "report_kernel.h"

/* The locks of the top-locks table the summary shows (the file has more). */
#define KERNEL_TOP_SHOWN 5

static double mean_of(uint64_t sum, uint64_t count)
{
	return count ? (double)sum / (double)count : 0;
}

/* The waits with a stack from caller `name` among rows [first, end). */
static uint64_t caller_waits(const struct kernel_locks *k, unsigned int first, unsigned int end, const char *name)
{
	uint64_t n = 0;

	for (unsigned int i = first; i < end; i++)
		n += strcmp(k->top[i].caller, name) == 0 ? k->top[i].count : 0;
	return n;
}

/* "do_unlinkat 17, path_openat 15": the callers of the lock of row `first`
 * (its rows run on until the lock changes; a caller reached by several
 * stacks once); the row after them. */
static unsigned int lock_callers(const struct kernel_locks *k, unsigned int first, char *buf, size_t len)
{
	const struct klock_row *r = &k->top[first];
	unsigned int end = first;
	size_t used = 0;

	while (end < k->ntop && k->top[end].of.lock == r->of.lock && k->top[end].of.type == r->of.type)
		end++;
	buf[0] = '\0';
	for (unsigned int i = first; i < end && used < len; i++)
		if (caller_waits(k, first, i, k->top[i].caller) == 0 || k->top[i].count == 0)
			used += (size_t)snprintf(buf + used, len - used, "%s%s %" PRIu64, used ? ", " : "",
						 k->top[i].caller, caller_waits(k, first, end, k->top[i].caller));
	return end;
}

void report_kernel_top(const struct kernel_locks *k, FILE *out)
{
	char callers[200];
	unsigned int shown = 0;

	if (!k->ntop)
		return;
	fprintf(out, "  kernel top locks (of %" PRIu64 " locks, by total wait; callers: first frame outside the lock code, "
		"of the %" PRIu64 " waits with a stack, each lock's first %d)\n", k->locks, k->stacks,
		KLOCK_STACKS_PER_LOCK);
	fprintf(out, "    %-18s %-12s %8s %14s %12s %12s  %s\n", "lock", "type", "count", "total cycles", "mean", "max",
		"callers (waits with a stack)");
	for (unsigned int i = 0; i < k->ntop && shown < KERNEL_TOP_SHOWN; shown++) {
		const struct klock_lock *l = &k->top[i].of;

		i = lock_callers(k, i, callers, sizeof(callers));
		fprintf(out, "    0x%-16" PRIx64 " %-12s %8" PRIu64 " %14" PRIu64 " %12.0f %12" PRIu64 "  %s\n", l->lock,
			klock_type_name[l->type], l->count, l->sum, mean_of(l->sum, l->count), l->max, callers);
	}
	if (k->callers_note[0])
		fprintf(out, "    (%s)\n", k->callers_note);
}

void report_kernel_mutex(const struct kernel_locks *k, FILE *out)
{
	const struct klock_stats *m = k->mutex;

	if (!k->type[KLOCK_MUTEX].count)
		return;
	fprintf(out, "  kernel mutex    acquired via spin %" PRIu64 " (mean %.0f), spin then sleep %" PRIu64
		" (mean %.0f), sleep %" PRIu64 " (mean %.0f) (from lock:contention_begin's flags)\n",
		m[KLOCK_MUTEX_SPIN].count, mean_of(m[KLOCK_MUTEX_SPIN].sum, m[KLOCK_MUTEX_SPIN].count),
		m[KLOCK_MUTEX_SPIN_SLEEP].count, mean_of(m[KLOCK_MUTEX_SPIN_SLEEP].sum, m[KLOCK_MUTEX_SPIN_SLEEP].count),
		m[KLOCK_MUTEX_SLEEP].count, mean_of(m[KLOCK_MUTEX_SLEEP].sum, m[KLOCK_MUTEX_SLEEP].count));
}

void report_kernel_keys(const struct kernel_locks *k, FILE *f)
{
	fprintf(f, "kernel_locks,%" PRIu64 "\nkernel_stacks,%" PRIu64 "\nkernel_stacks_per_lock,%d\nkernel_stacks_max,%d\n",
		k->locks, k->stacks, KLOCK_STACKS_PER_LOCK, KLOCK_STACKS_MAX);
	for (int c = 0; c < KLOCK_MUTEX_CLASSES; c++)
		fprintf(f, "kernel_mutex_via_%s,%" PRIu64 "\n", klock_mutex_class_name[c], k->mutex[c].count);
	for (int c = 0; c < KLOCK_MUTEX_CLASSES; c++)
		fprintf(f, "kernel_mutex_cycles_sum_via_%s,%" PRIu64 "\nkernel_mutex_cycles_max_via_%s,%" PRIu64 "\n",
			klock_mutex_class_name[c], k->mutex[c].sum, klock_mutex_class_name[c], k->mutex[c].max);
}

void report_kernel_locks_csv(const struct kernel_locks *k, FILE *f)
{
	fprintf(f, "rank,lock,type,lock_count,lock_wait_cycles_sum,lock_wait_cycles_mean,lock_wait_cycles_max,lock_stacks,"
		   "count,wait_cycles_sum,wait_cycles_mean,wait_cycles_max,caller,stack\n");
	for (unsigned int i = 0; i < k->ntop; i++) {
		const struct klock_row *r = &k->top[i];
		const struct klock_lock *l = &r->of;

		fprintf(f, "%u,0x%" PRIx64 ",%s,%" PRIu64 ",%" PRIu64 ",%.3f,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
			",%.3f,%" PRIu64 ",%s,%s\n", i + 1, l->lock, klock_type_name[l->type], l->count, l->sum,
			mean_of(l->sum, l->count), l->max, l->stacks, r->count, r->sum, mean_of(r->sum, r->count), r->max,
			r->caller, r->stack);
	}
}
