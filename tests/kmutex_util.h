/*
 * kmutex_util.h — what the kmutex tests share (tests/test_kmutex.c,
 * test_kmutex_waitlist.c, test_kmutex_sched.c): a kmutex with a chosen spin
 * budget and oracle, a thread that takes the lock once, the oracle's test
 * seam, and the six variants.  static inline, as in lockutil.h, so a file
 * that leaves a helper unused builds under -Wunused-function.
 */
#ifndef LOCKBENCH_TESTS_KMUTEX_UTIL_H
#define LOCKBENCH_TESTS_KMUTEX_UTIL_H

#include <inttypes.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../locks/oracle.h"
#include "lockutil.h"

#define TEST_ALARM_S 120    /* the whole binary, as a last resort */
/* How long a test watches a waiter sit in the spinner queue (3.10 on). */
#define QUEUE_SAMPLE_S 0.05

static inline void *kmutex_new(const struct lock_ops *ops, uint64_t budget, int oracle)
{
	size_t size = ALIGN_UP(ops->size, CACHELINE_PAIR);
	void *lock = aligned_alloc(CACHELINE_PAIR, size);
	struct lock_params params = { 0 };
	char cycles[24];

	snprintf(cycles, sizeof(cycles), "%" PRIu64, budget);
	test_lock_opt(ops, &params, "spin-budget", cycles);
	test_lock_opt(ops, &params, "oracle", oracle_name[oracle]);
	assert_non_null(lock);
	memset(lock, 0, size);
	assert_int_equal(ops->init(lock, &params), 0);
	return lock;
}

static inline struct oracle_runstate *runstate(struct lock_thread *self)
{
	return (struct oracle_runstate *)self->priv;
}

static inline const struct lock_ops *find(const char *name)
{
	const struct lock_ops *ops = lock_find(name);

	assert_non_null(ops);
	return ops;
}

/* ---- a thread that takes the lock once ---- */

struct taker {
	const struct lock_ops *ops;
	void *lock;
	struct lock_thread *self;
	pthread_t tid;
};

static inline void *taker_main(void *arg)
{
	struct taker *t = arg;

	t->ops->lock(t->lock, t->self);
	t->ops->unlock(t->lock, t->self);
	return NULL;
}

static inline void taker_start(struct taker *t)
{
	assert_int_equal(pthread_create(&t->tid, NULL, taker_main, t), 0);
}

static inline void taker_join(struct taker *t)
{
	assert_int_equal(pthread_join(t->tid, NULL), 0);
}

/* ---- the oracle's test seam ---- */

/*
 * The test seam (oracle.h): holds a chosen thread at a chosen point.
 * OWNER_LEFT: the spinner `watcher`, when it sees `owner` leave, until
 * `release`.  AWAKE: `sleeper`, each time a futex wait returns, until the hog
 * has made its attempt of the current round.  Targets are set before the hook
 * is installed (oracle_set_hook orders them).
 */
static struct {
	const struct oracle_runstate *watcher, *owner, *sleeper;
	uint32_t noticed, release;  /* OWNER_LEFT */
	uint32_t round, attempted;  /* AWAKE: test -> hog -> sleeper */
	uint32_t wakes;             /* AWAKE: the sleeper's wake-ups so far */
	uint32_t timed_out;
} seam;

/* Waits (bounded) for *flag to reach `want`, in a thread other than the
 * test's (no cmocka asserts there): a timeout is recorded instead. */
static inline void seam_wait(const uint32_t *flag, uint32_t want)
{
	double end = now_s() + WAIT_S;

	/* Acquire: pairs with the test's or the hog's release store. */
	while (__atomic_load_n(flag, __ATOMIC_ACQUIRE) < want)
		if (now_s() > end) {
			__atomic_store_n(&seam.timed_out, 1, __ATOMIC_RELEASE);
			return;
		}
}

static inline void seam_hook(enum oracle_event event, const struct oracle_runstate *me,
			     const struct oracle_runstate *owner)
{
	if (event == ORACLE_EV_OWNER_LEFT && me == seam.watcher && owner == seam.owner) {
		/* Release: pairs with the test thread's wait on `noticed`. */
		__atomic_store_n(&seam.noticed, 1, __ATOMIC_RELEASE);
		seam_wait(&seam.release, 1);
	}
	if (event == ORACLE_EV_AWAKE && me == seam.sleeper) {
		/* Release: pairs with the test thread's wait on `wakes`. */
		__atomic_fetch_add(&seam.wakes, 1, __ATOMIC_RELEASE);
		seam_wait(&seam.attempted, __atomic_load_n(&seam.round, __ATOMIC_ACQUIRE));
	}
}

/* ---- the sched oracle with slots the test writes ---- */

/* In place of what the BPF program would keep: slot i is thread id i's. */
static struct oracle_sched_slot test_slots[4] cacheline_aligned __attribute__((unused));

/* A lock with the sched oracle (no budget), its threads reading test_slots:
 * all on their CPUs (CPU i for thread i) until the test says otherwise. */
static inline void *sched_lock_new(const struct lock_ops *ops)
{
	assert_int_equal(oracle_sched_open_fake(8), 0);
	memset(test_slots, 0, sizeof(test_slots));
	for (size_t i = 0; i < sizeof(test_slots) / sizeof(test_slots[0]); i++) {
		test_slots[i].on_cpu = 1;
		test_slots[i].cpu = (uint32_t)i;
	}
	return kmutex_new(ops, 0, ORACLE_SCHED);
}

static inline struct lock_thread *sched_self_new(const struct lock_ops *ops, void *lock, unsigned int id)
{
	struct lock_thread *self = test_self_new(ops, lock, id);

	runstate(self)->slot = &test_slots[id];
	return self;
}

/* A taker that says when its lock() returned. */
struct locker {
	struct taker t;
	uint32_t acquired;
};

static inline void *locker_main(void *arg)
{
	struct locker *k = arg;

	k->t.ops->lock(k->t.lock, k->t.self);
	/* Release: pairs with the test's acquire read. */
	__atomic_store_n(&k->acquired, 1, __ATOMIC_RELEASE);
	k->t.ops->unlock(k->t.lock, k->t.self);
	return NULL;
}

static inline void locker_start(struct locker *k, const struct lock_ops *ops, void *lock, struct lock_thread *self)
{
	*k = (struct locker){ .t = { .ops = ops, .lock = lock, .self = self } };
	assert_int_equal(pthread_create(&k->t.tid, NULL, locker_main, k), 0);
}

/* ---- the six variants, oldest era first ---- */

static const char *const all_variants[] = {
	"kmutex-sleep", "kmutex-spin", "kmutex-fix", "kmutex-mcs", "kmutex-osq", "kmutex-handoff",
};
#define N_VARIANTS (sizeof(all_variants) / sizeof(all_variants[0]))

#endif
