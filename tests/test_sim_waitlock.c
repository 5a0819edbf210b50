/*
 * test_sim_waitlock.c — the kmutex's wait_lock on the simulator, white-box
 * (it calls locks/kmutex_wait.c's km_wait_lock in their simulated build,
 * linked unhidden here, apart from sim-locks.o):
 * - under kernel semantics a kmutex's wait_lock is the kernel's ticket
 *   spinlock by default, under userspace semantics today's tas-yield;
 * - the ticket lock serves its takers in the order they took their tickets:
 *   each taker waits to take its ticket until the one before it has, while
 *   a holder keeps the lock, so the order of taking is fixed; the order of
 *   acquiring must be the same, deterministically.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "sim_test.h"  /* first: locks/pr.h with LOCKBENCH_SIM, for kmutex_internal.h's inlines */
#include "sim_lock_test.h"
#include "../locks/kmutex_internal.h"

#define TAKERS 6

struct fifo {
	struct kmutex *l;
	struct lock_thread *self[TAKERS + 1];  /* [0]: the first holder */
	int order[TAKERS];
	int served;
};

struct taker_arg {
	struct fifo *f;
	int i;
};

static struct kmutex *kmutex_in(const struct lock_ops *ops, const char *wait_lock)
{
	struct kmutex *l = aligned_alloc(2 * CACHELINE, ALIGN_UP(ops->size, 2 * CACHELINE));
	struct lock_params params = { 0 };
	char err[256];

	assert_non_null(l);
	memset(l, 0, ops->size);
	if (wait_lock) {
		const struct option_def *o = lock_option_find(ops, "wait-lock", strlen("wait-lock"));

		assert_non_null(o);
		assert_int_equal(o->set(params.settings.bytes, wait_lock, err, sizeof(err)), 0);
	}
	assert_int_equal(ops->init(l, &params), 0);
	return l;
}

/* auto: ticket under kernel semantics, tas-yield under userspace's. */
static void default_follows_semantics(void **state)
{
	struct sim_profile p = sim_test_profile();
	const struct lock_ops *ops = sim_lock("kmutex-fix");

	(void)state;
	for (int sem = SIM_KERNEL; sem <= SIM_USERSPACE; sem++) {
		struct sim *s = sim_test_new(&p, 4, 1, sem);
		struct kmutex *l = kmutex_in(ops, NULL), *forced = kmutex_in(ops, "tas-yield");

		assert_non_null(s);
		assert_int_equal(l->wait_ticket, sem == SIM_KERNEL);
		assert_false(forced->wait_ticket);
		free(l);
		free(forced);
		sim_destroy(s);
	}
}

static struct kmutex_thread *me_of(struct lock_thread *self)
{
	return (struct kmutex_thread *)self->priv;
}

/* The first holder: keeps wait_lock until every taker holds a ticket. */
static void holder_body(void *arg)
{
	struct fifo *f = arg;

	km_wait_lock(f->l, me_of(f->self[0]));
	while (pr_load(&f->l->wait->tail, PR_RELAXED) != TAKERS + 1)
		pr_relax();
	km_wait_unlock(f->l, me_of(f->self[0]));
}

/* Taker i takes its ticket only after taker i-1 took its own. */
static void taker_body(void *arg)
{
	struct taker_arg *a = arg;
	struct fifo *f = a->f;

	while (pr_load(&f->l->wait->tail, PR_RELAXED) != a->i + 1)
		pr_relax();
	km_wait_lock(f->l, me_of(f->self[a->i + 1]));
	f->order[f->served++] = a->i;  /* plain: under wait_lock */
	sim_work(1000);
	km_wait_unlock(f->l, me_of(f->self[a->i + 1]));
}

static uint64_t run_fifo(uint64_t seed, int order[TAKERS])
{
	struct sim_profile p = sim_test_profile();
	const struct lock_ops *ops = sim_lock("kmutex-fix");
	struct sim *s = sim_test_new(&p, 8, seed, SIM_KERNEL);
	struct fifo f = { .l = kmutex_in(ops, NULL) };
	struct taker_arg args[TAKERS];
	uint64_t trace;

	assert_non_null(s);
	assert_true(f.l->wait_ticket);
	for (int i = 0; i <= TAKERS; i++) {
		f.self[i] = aligned_alloc(CACHELINE, LOCK_THREAD_SIZE(ops));
		assert_non_null(f.self[i]);
		memset(f.self[i], 0, LOCK_THREAD_SIZE(ops));
	}
	/* Takers spawned in reverse, so that spawning order does not make the
	 * order of taking. */
	for (int i = TAKERS - 1; i >= 0; i--) {
		args[i] = (struct taker_arg){ &f, i };
		assert_true(sim_spawn(s, taker_body, &args[i]) >= 0);
	}
	assert_true(sim_spawn(s, holder_body, &f) >= 0);
	assert_int_equal(sim_run(s, sim_cycles(s, 1e9)), 0);
	assert_int_equal(f.served, TAKERS);
	memcpy(order, f.order, sizeof(f.order));
	trace = sim_stats(s)->trace_hash;
	for (int i = 0; i <= TAKERS; i++)
		free(f.self[i]);
	free(f.l);
	sim_destroy(s);
	return trace;
}

static void ticket_serves_in_ticket_order(void **state)
{
	int order[TAKERS], again[TAKERS];

	(void)state;
	for (uint64_t seed = 1; seed <= 3; seed++) {
		uint64_t trace = run_fifo(seed, order);

		for (int i = 0; i < TAKERS; i++)
			assert_int_equal(order[i], i);
		assert_true(run_fifo(seed, again) == trace);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(default_follows_semantics),
		cmocka_unit_test(ticket_serves_in_ticket_order),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
