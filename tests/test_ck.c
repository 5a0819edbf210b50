/*
 * test_ck.c — what the registry-wide tests (test_locks.c) cannot show on a
 * machine with one NUMA node: ck-cohort with threads in two cohorts, whose
 * global lock then passes between nodes.  The threads' nodes are set by hand
 * (lock_thread.node, which the harness fills from the thread's CPU).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "lockutil.h"

#define THREADS 4
/* Long enough for 4 threads on fewer CPUs to be preempted many times over
 * (so they overlap, whatever else the machine is running); each thread
 * looks at the clock every BATCH operations. */
#define SECONDS 0.3
#define BATCH 16u

/* A lock_thread in cohort `node`: thread_init reads the node, so it is set
 * before thread_init runs (test_self_new would run it with node 0). */
static struct lock_thread *self_on_node(const struct lock_ops *ops, void *lock, unsigned int id, int node)
{
	size_t size = LOCK_THREAD_SIZE(ops);
	struct lock_thread *self = aligned_alloc(CACHELINE, size);

	assert_non_null(self);
	memset(self, 0, size);
	self->id = id;
	self->node = node;
	ops->thread_init(lock, self);
	return self;
}

struct shared {
	const struct lock_ops *ops;
	void *lock;
	uint64_t counter;        /* protected by the lock; plain on purpose */
	uint64_t contended;      /* lock() calls that said they waited */
	double deadline;
	pthread_barrier_t start; /* so the threads overlap rather than run one after another */
};

struct worker {
	struct shared *sh;
	int node;
	unsigned int id;
	uint64_t ops;
};

/* Read, pause, write back: two threads inside at once lose an update. */
static void *hammer(void *p)
{
	struct worker *w = p;
	struct shared *sh = w->sh;
	struct lock_thread *self = self_on_node(sh->ops, sh->lock, w->id, w->node);

	pthread_barrier_wait(&sh->start);
	while (w->ops % BATCH || now_s() < sh->deadline) {
		uint64_t v;

		if (sh->ops->lock(sh->lock, self))
			__atomic_fetch_add(&sh->contended, 1, __ATOMIC_RELAXED);
		v = sh->counter;
		cpu_relax();
		sh->counter = v + 1;
		sh->ops->unlock(sh->lock, self);
		w->ops++;
	}
	free(self);
	return NULL;
}

/* Four threads, two per cohort (nodes 0 and 1), the counter as the proof. */
static void cohort_excludes_across_nodes(void **state)
{
	struct shared sh = { .ops = lock_find("ck-cohort") };
	struct worker w[THREADS];
	pthread_t tid[THREADS];
	uint64_t ops = 0;

	(void)state;
	assert_non_null(sh.ops);
	sh.lock = test_lock_new(sh.ops);
	assert_int_equal(pthread_barrier_init(&sh.start, NULL, THREADS), 0);
	sh.deadline = now_s() + SECONDS;
	for (unsigned int i = 0; i < THREADS; i++) {
		w[i] = (struct worker){ .sh = &sh, .node = (int)(i % 2), .id = i };
		assert_int_equal(pthread_create(&tid[i], NULL, hammer, &w[i]), 0);
	}
	for (unsigned int i = 0; i < THREADS; i++) {
		assert_int_equal(pthread_join(tid[i], NULL), 0);
		ops += w[i].ops;
	}
	pthread_barrier_destroy(&sh.start);
	print_message("# ck-cohort, 2 cohorts: %llu ops, %llu contended\n", (unsigned long long)ops,
		      (unsigned long long)sh.contended);
	assert_int_equal(sh.counter, ops);
	assert_true(ops >= BATCH * THREADS);
	assert_true(sh.contended > 0);
	test_lock_free(sh.ops, sh.lock);
}

/* A holder in cohort 0 keeps out a trylock from its own cohort and from the
 * other one; released, the other cohort takes it (the global lock went back). */
static void cohort_trylock_across_nodes(void **state)
{
	const struct lock_ops *ops = lock_find("ck-cohort");
	void *lock = test_lock_new(ops);
	struct lock_thread *a = self_on_node(ops, lock, 0, 0), *b = self_on_node(ops, lock, 1, 0);
	struct lock_thread *c = self_on_node(ops, lock, 2, 1);

	(void)state;
	assert_false(ops->lock(lock, a));
	assert_false(ops->trylock(lock, b));
	assert_false(ops->trylock(lock, c));
	ops->unlock(lock, a);
	assert_true(ops->trylock(lock, c));
	assert_false(ops->trylock(lock, a));
	ops->unlock(lock, c);
	assert_false(ops->lock(lock, b));
	ops->unlock(lock, b);
	free(a);
	free(b);
	free(c);
	test_lock_free(ops, lock);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(cohort_excludes_across_nodes),
		cmocka_unit_test(cohort_trylock_across_nodes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
