/*
 * test_spinq.c — the spinner queue alone (locks/spinq.h), with no mutex
 * around it: waiters reach the head in the order they joined, one at a
 * time; and a waiter that leaves from the middle, from behind the holder or
 * from the tail leaves the queue whole: those behind it still get their
 * turn in order, and the tail is empty once the last one is out.
 * The test holds the queue itself and lets threads join one by one, each
 * seen at the tail before the next starts, so the order is the test's.
 * Every wait is bounded in time; alarm() ends a hung run.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "../locks/spinq.h"

#define WAITERS 4

struct waiter {
	struct spinq_node node;  /* first: cache-line aligned, as in a lock's thread data */
	struct spinq *q;
	int id;
	uint32_t leave;   /* set by the test: should_leave says yes */
	uint32_t done;    /* 1: left the queue without the head; 2: was at the head */
	pthread_t thread;
};

static struct waiter waiters[WAITERS];
static struct spinq_node holder;

/* The order the waiters reached the head in, written only by whoever is at
 * the head: the queue is the lock that guards it. */
static int order[WAITERS];
static int norder;

static bool test_should_leave(struct spinq_node *node, void *ctx)
{
	struct waiter *w = ctx;

	(void)node;
	return __atomic_load_n(&w->leave, __ATOMIC_ACQUIRE);
}

static void *waiter_main(void *arg)
{
	struct waiter *w = arg;
	uint32_t done = 1;

	if (spinq_lock(w->q, &w->node, test_should_leave, w)) {
		order[norder++] = w->id;
		spinq_unlock(w->q, &w->node);
		done = 2;
	}
	__atomic_store_n(&w->done, done, __ATOMIC_RELEASE);
	return NULL;
}

/* Waits, at most two seconds, for `cond` to hold (re-read each 100 us). */
#define WAIT_UNTIL(cond) ({								\
	const struct timespec nap_ = { 0, 100000 };					\
	bool ok_ = false;								\
	for (int i_ = 0; i_ < 20000 && !(ok_ = (cond)); i_++)				\
		nanosleep(&nap_, NULL);							\
	ok_;										\
})

static struct spinq_node *load_node(struct spinq_node *const *p)
{
	return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

static uint32_t load_done(const struct waiter *w)
{
	return __atomic_load_n(&w->done, __ATOMIC_ACQUIRE);
}

/* The test holds the queue; waiters 0..n-1 join behind it in that order,
 * each linked in (its predecessor's ->next set) before the next starts. */
static void hold_and_queue(struct spinq *q, int n)
{
	struct spinq_node *prev = &holder;

	spinq_init(q);
	norder = 0;
	assert_true(spinq_lock(q, &holder, NULL, NULL));
	assert_true(spinq_is_locked(q));
	for (int i = 0; i < n; i++) {
		struct waiter *w = &waiters[i];

		w->q = q;
		w->id = i;
		w->leave = 0;
		w->done = 0;
		assert_int_equal(pthread_create(&w->thread, NULL, waiter_main, w), 0);
		assert_true(WAIT_UNTIL(load_node(&q->tail) == &w->node));
		assert_true(WAIT_UNTIL(load_node(&prev->next) == &w->node));
		prev = &w->node;
	}
}

/* Waiter i gives up; it must come out without the head. */
static void leave(int i)
{
	__atomic_store_n(&waiters[i].leave, 1, __ATOMIC_RELEASE);
	assert_true(WAIT_UNTIL(load_done(&waiters[i]) == 1));
}

/* The test lets go of the queue: the others reach the head in `want`'s
 * order, and the queue is empty after the last. */
static void release_and_check(struct spinq *q, int n, const int *want, int nwant)
{
	spinq_unlock(q, &holder);
	for (int i = 0; i < n; i++) {
		/* Each gets its turn or has left: a lost handover fails here. */
		assert_true(WAIT_UNTIL(load_done(&waiters[i]) != 0));
		assert_int_equal(pthread_join(waiters[i].thread, NULL), 0);
	}
	assert_int_equal(norder, nwant);
	for (int i = 0; i < nwant; i++)
		assert_int_equal(order[i], want[i]);
	assert_false(spinq_is_locked(q));
	assert_null(q->tail);
}

static void test_empty_queue_taken_at_once(void **state)
{
	struct spinq q;

	(void)state;
	spinq_init(&q);
	assert_false(spinq_is_locked(&q));
	assert_true(spinq_lock(&q, &holder, NULL, NULL));
	assert_ptr_equal(q.tail, &holder);
	spinq_unlock(&q, &holder);
	assert_false(spinq_is_locked(&q));
}

static void test_fifo(void **state)
{
	static struct spinq q;
	const int want[] = { 0, 1, 2, 3 };

	(void)state;
	hold_and_queue(&q, 4);
	release_and_check(&q, 4, want, 4);
}

static void test_leave_from_middle(void **state)
{
	static struct spinq q;
	const int want[] = { 0, 2, 3 };

	(void)state;
	hold_and_queue(&q, 4);
	leave(1);
	/* Waiter 2 now follows waiter 0 both ways. */
	assert_ptr_equal(waiters[0].node.next, &waiters[2].node);
	assert_ptr_equal(spinq_prev(&waiters[2].node), &waiters[0].node);
	release_and_check(&q, 4, want, 3);
}

static void test_leave_behind_holder(void **state)
{
	static struct spinq q;
	const int want[] = { 1, 2 };

	(void)state;
	hold_and_queue(&q, 3);
	leave(0);
	assert_ptr_equal(holder.next, &waiters[1].node);
	release_and_check(&q, 3, want, 2);
}

static void test_leave_from_tail(void **state)
{
	static struct spinq q;
	const int want[] = { 0, 1 };

	(void)state;
	hold_and_queue(&q, 3);
	leave(2);
	/* The tail moved back to waiter 1, which has no successor. */
	assert_ptr_equal(q.tail, &waiters[1].node);
	assert_null(waiters[1].node.next);
	release_and_check(&q, 3, want, 2);
}

static void test_all_leave(void **state)
{
	static struct spinq q;

	(void)state;
	hold_and_queue(&q, 3);
	leave(1);
	leave(2);
	leave(0);
	assert_ptr_equal(q.tail, &holder);
	release_and_check(&q, 3, NULL, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty_queue_taken_at_once),
		cmocka_unit_test(test_fifo),
		cmocka_unit_test(test_leave_from_middle),
		cmocka_unit_test(test_leave_behind_holder),
		cmocka_unit_test(test_leave_from_tail),
		cmocka_unit_test(test_all_leave),
	};

	alarm(60);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
