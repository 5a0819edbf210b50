/*
 * test_sim_locks.c — mutual exclusion of locks run on the simulator at 4x
 * oversubscription (16 threads on 4 simulated CPUs), in both semantics;
 * `none` must be caught.  The locks are tests/sim_test.h's, written against
 * the pr_* API as locks/ is.  Then a struct lock_ops through sim_lockrun,
 * and a workload's outside_ns: kernel semantics hold the lock for the call
 * less it, userspace semantics for the whole call.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include "../sim/lockrun.h"
#include "sim_test.h"

#define THREADS 16
#define CPUS 4
#define ROUNDS 300

enum tlock { TL_TAS, TL_TICKET, TL_FUTEX, TL_NONE };

struct excl {
	enum tlock kind;
	uint32_t word __attribute__((aligned(64)));
	struct tlock_ticket ticket __attribute__((aligned(64)));
	uint64_t counter __attribute__((aligned(64)));
	unsigned inside, overlaps;
	struct sim_stats st;
};

static void excl_lock(struct excl *e)
{
	switch (e->kind) {
	case TL_TAS: tlock_tas_lock(&e->word); break;
	case TL_TICKET: tlock_ticket_lock(&e->ticket); break;
	case TL_FUTEX: tlock_futex_lock(&e->word); break;
	default: tlock_none_lock(&e->word); break;
	}
}

static void excl_unlock(struct excl *e)
{
	switch (e->kind) {
	case TL_TAS: tlock_tas_unlock(&e->word); break;
	case TL_TICKET: tlock_ticket_unlock(&e->ticket); break;
	case TL_FUTEX: tlock_futex_unlock(&e->word); break;
	default: tlock_none_unlock(&e->word); break;
	}
}

/* The critical section spans a simulated computation, so any other thread
 * that gets in meanwhile is seen.  Lock to unlock is a kernel section (a
 * system call's), which only kernel semantics keeps from preemption. */
static void excl_body(void *arg)
{
	struct excl *e = arg;

	for (int i = 0; i < ROUNDS; i++) {
		sim_kernel_enter();
		excl_lock(e);
		if (e->inside++)
			e->overlaps++;
		sim_work(3000);
		e->counter++;
		e->inside--;
		excl_unlock(e);
		sim_kernel_exit();
		sim_work(20000 + 37 * (uint64_t)sim_self());
	}
}

static struct excl run_lock(enum tlock kind, enum sim_semantics sem)
{
	struct sim_profile p = sim_test_profile();
	struct sim *s = sim_test_new(&p, CPUS, 11, sem);
	struct excl e;

	assert_non_null(s);
	memset(&e, 0, sizeof(e));
	e.kind = kind;
	for (int i = 0; i < THREADS; i++)
		assert_int_equal(sim_spawn(s, excl_body, &e), i);
	assert_int_equal(sim_run(s, UINT64_MAX / 2), 0);
	e.st = *sim_stats(s);
	sim_destroy(s);
	return e;
}

static void every_lock_excludes_at_4x_oversubscription(void **state)
{
	(void)state;
	for (int sem = SIM_KERNEL; sem <= SIM_USERSPACE; sem++)
		for (int k = TL_TAS; k <= TL_FUTEX; k++) {
			struct excl e = run_lock(k, sem);

			assert_int_equal(e.overlaps, 0);
			assert_int_equal(e.counter, THREADS * ROUNDS);
			/* it was contended: threads were switched out, and the
			 * futex lock's waiters slept */
			assert_true(e.st.preemptions > 0);
			assert_true(k != TL_FUTEX || e.st.futex_sleeps > 0);
			if (getenv("SIM_TEST_VERBOSE"))
				printf("sem %d lock %d: events %llu preemptions %llu sleeps %llu parks %llu\n", sem, k,
				       (unsigned long long)e.st.events, (unsigned long long)e.st.preemptions,
				       (unsigned long long)e.st.futex_sleeps, (unsigned long long)e.st.parks);
		}
}

static void none_is_caught(void **state)
{
	(void)state;
	for (int sem = SIM_KERNEL; sem <= SIM_USERSPACE; sem++)
		assert_true(run_lock(TL_NONE, sem).overlaps > 0);
}

/* ---- a struct lock_ops through sim_lockrun ---- */

static int ops_init(void *lock, const struct lock_params *params)
{
	(void)params;
	memset(lock, 0, sizeof(struct tlock_ticket));
	return 0;
}

static bool ops_ticket_lock(void *lock, struct lock_thread *self)
{
	struct tlock_ticket *l = lock;
	uint32_t mine = pr_fetch_add(&l->next, 1, PR_RELAXED);
	bool waited = false;

	(void)self;
	while (pr_load(&l->serving, PR_ACQUIRE) != mine) {
		waited = true;
		pr_relax();
	}
	return waited;
}

static void ops_ticket_unlock(void *lock, struct lock_thread *self)
{
	(void)self;
	tlock_ticket_unlock(lock);
}

static bool ops_none_lock(void *lock, struct lock_thread *self)
{
	(void)self;
	tlock_none_lock(lock);
	return false;
}

static void ops_none_unlock(void *lock, struct lock_thread *self)
{
	(void)self;
	tlock_none_unlock(lock);
}

static const struct lock_ops test_ticket_ops = {
	.name = "test-ticket", .size = sizeof(struct tlock_ticket), .init = ops_init,
	.lock = ops_ticket_lock, .unlock = ops_ticket_unlock,
};
static const struct lock_ops test_none_ops = {
	.name = "test-none", .size = sizeof(struct tlock_ticket), .init = ops_init,
	.lock = ops_none_lock, .unlock = ops_none_unlock,
};

static struct sim_lockrun_result lockrun_data(const struct lock_ops *ops, enum sim_semantics sem, bool data,
					      uint64_t *transfers)
{
	struct sim_profile p = sim_test_profile();
	struct sim *s = sim_test_new(&p, CPUS, 13, sem);
	struct sim_lockrun r = { .ops = ops, .threads = THREADS, .kernel_section = true, .data_line = data };
	struct sim_lockrun_result out;
	char err[256];

	assert_non_null(s);
	r.hold_cycles = sim_cycles(s, 1000);
	r.gap_cycles = sim_cycles(s, 4000);
	r.duration_cycles = sim_cycles(s, 20e6);
	if (sim_lockrun(s, &r, &out, err, sizeof(err)) != 0)
		fail_msg("%s", err);
	*transfers = sim_stats(s)->transfers;
	sim_destroy(s);
	return out;
}

static struct sim_lockrun_result lockrun(const struct lock_ops *ops, enum sim_semantics sem)
{
	uint64_t transfers;

	return lockrun_data(ops, sem, false, &transfers);
}

/*
 * The protected data's line (data_line) moves with the lock: a ticket
 * lock's run with it makes about one more transfer per acquisition that
 * changed CPU than the same run without it, and still excludes.
 */
static void the_data_line_moves_with_the_lock(void **state)
{
	uint64_t with, without;
	struct sim_lockrun_result d = lockrun_data(&test_ticket_ops, SIM_USERSPACE, true, &with);
	struct sim_lockrun_result n = lockrun_data(&test_ticket_ops, SIM_USERSPACE, false, &without);

	(void)state;
	assert_int_equal(d.overlaps, 0);
	assert_true(d.acquisitions > 1000 && n.acquisitions > 1000);
	/* per acquisition, at least a quarter of a transfer more (the
	 * acquisitions of a thread after another's on its CPU move none) */
	assert_true((double)with / (double)d.acquisitions > (double)without / (double)n.acquisitions + 0.25);
}

/* A lock_ops run by sim_lockrun: acquisitions, contention, exclusion. */
static void sim_lockrun_runs_a_lock_ops(void **state)
{
	(void)state;
	for (int sem = SIM_KERNEL; sem <= SIM_USERSPACE; sem++) {
		struct sim_lockrun_result t = lockrun(&test_ticket_ops, sem), n = lockrun(&test_none_ops, sem);

		assert_true(t.acquisitions > 1000);
		assert_true(t.contended > 0 && t.contended < t.acquisitions);
		assert_int_equal(t.overlaps, 0);
		assert_true(n.overlaps > 0);
	}
}

/* ---- a workload's outside_ns: the part of a call outside the kernel's lock ---- */

/* The virtual cycles the lock was held, summed by the lock itself: from
 * lock()'s return to unlock()'s start (one simulation at a time). */
static uint64_t held_cycles, held_since;

static bool held_lock(void *lock, struct lock_thread *self)
{
	bool waited = ops_ticket_lock(lock, self);

	held_since = sim_now();
	return waited;
}

static void held_unlock(void *lock, struct lock_thread *self)
{
	held_cycles += sim_now() - held_since;
	ops_ticket_unlock(lock, self);
}

static const struct lock_ops test_held_ops = {
	.name = "test-held", .size = sizeof(struct tlock_ticket), .init = ops_init,
	.lock = held_lock, .unlock = held_unlock,
};

struct held_run {
	struct sim_lockrun_result out;
	uint64_t held, duration;
};

/* THREADS_ threads on as many CPUs: calls of 2 us (hold), 1 us between
 * them (gap), OUTSIDE_NS of each call outside the lock, 5 simulated ms. */
static struct held_run held_run(unsigned threads_, enum sim_semantics sem, bool kernel_section, double outside_ns)
{
	struct sim_profile p = sim_test_profile();
	struct sim *s = sim_test_new(&p, threads_, 29, sem);
	struct sim_lockrun r = { .ops = &test_held_ops, .threads = threads_, .kernel_section = kernel_section };
	struct held_run h;
	char err[256];

	assert_non_null(s);
	r.hold_cycles = sim_cycles(s, 2000);
	r.gap_cycles = sim_cycles(s, 1000);
	r.outside_cycles = sim_cycles(s, outside_ns);
	r.duration_cycles = h.duration = sim_cycles(s, 5e6);
	held_cycles = 0;
	if (sim_lockrun(s, &r, &h.out, err, sizeof(err)) != 0)
		fail_msg("%s", err);
	h.held = held_cycles;
	sim_destroy(s);
	return h;
}

/* Kernel semantics: the lock covers the call less outside_ns, and the
 * thread spends the rest outside it; one thread keeps its pace (the call
 * keeps its length), two contend less. */
static void kernel_section_leaves_outside_ns_out_of_the_hold(void **state)
{
	struct held_run whole = held_run(1, SIM_KERNEL, true, 0), part = held_run(1, SIM_KERNEL, true, 1500);
	struct held_run whole2 = held_run(2, SIM_KERNEL, true, 0), part2 = held_run(2, SIM_KERNEL, true, 1500);
	double f_whole = (double)whole.held / (double)whole.duration, f_part = (double)part.held / (double)part.duration;

	(void)state;
	/* one thread: the same acquisitions within one, each 3 us apart */
	assert_true(whole.out.acquisitions > 1000);
	assert_true(part.out.acquisitions + 1 >= whole.out.acquisitions &&
		    part.out.acquisitions <= whole.out.acquisitions + 1);
	/* held 2 of every 3 us, then 0.5 of 3: a quarter of it, and more than none */
	assert_true(f_whole > 0.6 && f_whole < 0.7);
	assert_true(f_part > 0.15 && f_part < 0.2);
	/* two threads: the shorter hold is found taken less often */
	assert_true(whole2.out.contended > 0);
	assert_true(part2.out.contended * 2 < whole2.out.contended);
	assert_true(part2.out.acquisitions > whole2.out.acquisitions);
}

/* Userspace semantics (a userspace lock around the whole call) ignore it:
 * the same run, event for event. */
static void userspace_semantics_ignore_outside_ns(void **state)
{
	for (unsigned n = 1; n <= 2; n++) {
		struct held_run whole = held_run(n, SIM_USERSPACE, false, 0),
				part = held_run(n, SIM_USERSPACE, false, 1500);

		(void)state;
		assert_int_equal(part.out.acquisitions, whole.out.acquisitions);
		assert_int_equal(part.out.contended, whole.out.contended);
		assert_int_equal(part.held, whole.held);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_lock_excludes_at_4x_oversubscription),
		cmocka_unit_test(none_is_caught),
		cmocka_unit_test(sim_lockrun_runs_a_lock_ops),
		cmocka_unit_test(the_data_line_moves_with_the_lock),
		cmocka_unit_test(kernel_section_leaves_outside_ns_out_of_the_hold),
		cmocka_unit_test(userspace_semantics_ignore_outside_ns),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
