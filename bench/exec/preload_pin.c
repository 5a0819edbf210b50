/*
 * preload_pin.c — `lockbench --exec --pin POLICY` (docs/exec.md): the
 * program's threads placed as a benchmark's workers are, in creation order.
 *
 * LOCKBENCH_EXEC_PIN is the policy's CPU order as the launcher resolved it
 * (placement_order(), bench/platform/placement.c), "CPU,CPU,...".  Thread i
 * runs on CPU order[i mod n], wrapping as a benchmark's threads do: i = 0 is
 * the main thread, pinned by the library's constructor before main(); then
 * each pthread_create() call takes the next i, in the order the calls were
 * made (an atomic counter), and the new thread pins itself before it runs
 * its start routine (a trampoline: the routine and its argument in a small
 * malloc'd block it frees).  An attribute's own affinity
 * (pthread_attr_setaffinity_np) is overridden.  Unset or empty: nothing is
 * pinned and pthread_create() is glibc's, but for one pointer test.  A
 * fork()ed child keeps the forking thread's CPU, and its threads go on
 * with the parent's count; its own pin counts start at 0 (it reports its
 * own exec-PID.csv).  Below the other preload files: it calls none of them.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "preload.h"

#define PX_PIN_MAX_CPUS 65536  /* a CPU number past this is a bad LOCKBENCH_EXEC_PIN */

static int *px_pin_cpus;                 /* the order; NULL: nothing pinned */
static unsigned int px_pin_n;
static unsigned long px_pin_next = 1;    /* the next thread's index (0: main) */
static uint64_t px_pinned, px_pin_failed;
static int (*px_real_create)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);

struct px_start {
	void *(*start)(void *);
	void *arg;
	unsigned long index;
};

/* This thread onto CPU order[index mod n]; counted either way. */
static void px_pin_self(unsigned long index)
{
	int cpu = px_pin_cpus[index % px_pin_n];
	cpu_set_t *set = CPU_ALLOC((size_t)cpu + 1);
	size_t size = CPU_ALLOC_SIZE((size_t)cpu + 1);
	bool pinned = false;

	if (set) {
		CPU_ZERO_S(size, set);
		CPU_SET_S((size_t)cpu, size, set);
		pinned = sched_setaffinity(0, size, set) == 0;
		CPU_FREE(set);
	}
	__atomic_fetch_add(pinned ? &px_pinned : &px_pin_failed, 1, __ATOMIC_RELAXED);
}

static void *px_pinned_start(void *p)
{
	struct px_start s = *(struct px_start *)p;

	free(p);
	px_pin_self(s.index);
	return s.start(s.arg);
}

static void px_pin_resolve(void)
{
	void *real = dlsym(RTLD_NEXT, "pthread_create");

	/* Relaxed: every thread that resolves it stores the same pointer. */
	__atomic_store_n((void **)&px_real_create, real, __ATOMIC_RELAXED);
}

PX_EXPORT int pthread_create(pthread_t *thread, const pthread_attr_t *attr, void *(*start)(void *), void *arg)
{
	struct px_start *s;
	int rc;

	if (__builtin_expect(!__atomic_load_n((void **)&px_real_create, __ATOMIC_RELAXED), 0))
		px_pin_resolve();
	if (!px_pin_n)
		return px_real_create(thread, attr, start, arg);
	s = malloc(sizeof(*s));
	if (!s)
		return EAGAIN;
	*s = (struct px_start){ .start = start, .arg = arg,
				.index = __atomic_fetch_add(&px_pin_next, 1, __ATOMIC_RELAXED) };
	rc = px_real_create(thread, attr, px_pinned_start, s);
	if (rc)
		free(s);
	return rc;
}

static void px_pin_fork_child(void)
{
	px_pinned = px_pin_failed = 0;
}

/* "CPU,CPU,..." into px_pin_cpus: 0, or -1 for a bad list (or no memory). */
static int px_pin_parse(const char *list)
{
	size_t n = 1;
	const char *p = list;

	for (const char *c = list; *c; c++)
		n += *c == ',';
	px_pin_cpus = malloc(n * sizeof(*px_pin_cpus));
	if (!px_pin_cpus)
		return -1;
	for (size_t i = 0; i < n; i++) {
		char *end;
		long cpu;

		errno = 0;
		cpu = strtol(p, &end, 10);
		if (errno || end == p || cpu < 0 || cpu >= PX_PIN_MAX_CPUS || (*end != ',' && *end != '\0') ||
		    (*end == '\0') != (i == n - 1)) {
			free(px_pin_cpus);
			px_pin_cpus = NULL;
			return -1;
		}
		px_pin_cpus[i] = (int)cpu;
		p = end + 1;
	}
	px_pin_n = (unsigned int)n;
	return 0;
}

int px_pin_setup(const char *list)
{
	px_pin_resolve();
	if (!list || !*list)
		return 0;
	if (px_pin_parse(list))
		return -1;
	pthread_atfork(NULL, NULL, px_pin_fork_child);
	px_pin_self(0);
	return 0;
}

void px_pin_counts(uint64_t *pinned, uint64_t *failed)
{
	*pinned = __atomic_load_n(&px_pinned, __ATOMIC_RELAXED);
	*failed = __atomic_load_n(&px_pin_failed, __ATOMIC_RELAXED);
}
