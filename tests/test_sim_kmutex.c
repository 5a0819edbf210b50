/*
 * test_sim_kmutex.c — the real locks (their simulated build, SIM_LOCKS) on
 * the simulator: every simulated lock excludes at 4x oversubscription in
 * both semantics (every kmutex model with either wait_lock too), and the
 * herd of the 2.6.36 fix, deterministically.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../sim/lockrun.h"
#include "sim_lock_test.h"
#include "sim_test.h"

static uint64_t seed = 17, last_trace;

/* `wait_lock`: a kmutex's --lock-opt wait-lock=, or NULL for its default. */
static struct sim_lockrun_result run_wait_lock(const struct lock_ops *ops, const char *wait_lock, unsigned cpus,
					       unsigned threads, enum sim_semantics sem, double hold_ns,
					       double gap_ns, double ms)
{
	struct sim_profile p = sim_test_profile();
	struct sim *s = sim_test_new(&p, cpus, seed, sem);
	struct sim_lockrun r = { .ops = ops, .threads = threads, .kernel_section = true };
	struct sim_lockrun_result out;
	char err[256];

	assert_non_null(s);
	if (wait_lock) {
		const struct option_def *o = lock_option_find(ops, "wait-lock", strlen("wait-lock"));

		assert_non_null(o);
		if (o->set(r.settings.bytes, wait_lock, err, sizeof(err)) != 0)
			fail_msg("%s", err);
	}
	r.hold_cycles = sim_cycles(s, hold_ns);
	r.gap_cycles = sim_cycles(s, gap_ns);
	r.duration_cycles = sim_cycles(s, ms * 1e6);
	if (sim_lockrun(s, &r, &out, err, sizeof(err)) != 0)
		fail_msg("%s", err);
	if (getenv("SIM_TEST_VERBOSE"))
		printf("%-16s sem %d: %llu acquisitions, %llu contended, spin %llu sleep %llu, exits acq %llu "
		       "changed %llu notrun %llu resched %llu, futex waits %llu, spin cycles %llu, events %llu\n",
		       ops->name, sem, (unsigned long long)out.acquisitions, (unsigned long long)out.contended,
		       (unsigned long long)out.ev.acq_spin, (unsigned long long)out.ev.acq_sleep,
		       (unsigned long long)out.ev.spin_exit[SPIN_EXIT_ACQUIRED],
		       (unsigned long long)out.ev.spin_exit[SPIN_EXIT_OWNER_CHANGED],
		       (unsigned long long)out.ev.spin_exit[SPIN_EXIT_OWNER_NOT_RUNNING],
		       (unsigned long long)out.ev.spin_exit[SPIN_EXIT_NEED_RESCHED],
		       (unsigned long long)out.ev.futex_waits, (unsigned long long)out.ev.spin_cycles,
		       (unsigned long long)sim_stats(s)->events);
	last_trace = sim_stats(s)->trace_hash;
	sim_destroy(s);
	return out;
}

static struct sim_lockrun_result run(const struct lock_ops *ops, unsigned cpus, unsigned threads,
				     enum sim_semantics sem, double hold_ns, double gap_ns, double ms)
{
	return run_wait_lock(ops, NULL, cpus, threads, sem, hold_ns, gap_ns, ms);
}

/* 16 threads on 4 CPUs, each lock's acquisitions as system calls. */
static void every_simulated_lock_excludes_at_4x_oversubscription(void **state)
{
	(void)state;
	for (int sem = SIM_KERNEL; sem <= SIM_USERSPACE; sem++)
		for (size_t i = 0; i < sim_lock_registry_len; i++) {
			const struct lock_ops *ops = sim_lock_registry[i];
			struct sim_lockrun_result r = run(ops, 4, 16, sem, 2000, 10000, 20);

			assert_true(r.acquisitions > 500);
			if (ops->flags & LOCK_F_NO_EXCLUSION) {
				assert_true(r.overlaps > 0);
			} else {
				assert_int_equal(r.overlaps, 0);
				assert_true(r.contended > 0);
			}
		}
}

/* Every kmutex model with wait-lock=ticket and =tas-yield, in both
 * semantics: the ticket's holder preempted in userspace semantics convoys
 * the queued tickets, but excludes. */
static void every_kmutex_model_excludes_with_either_wait_lock(void **state)
{
	const char *kinds[] = { "ticket", "tas-yield" };

	(void)state;
	for (int sem = SIM_KERNEL; sem <= SIM_USERSPACE; sem++)
		for (size_t i = 0; i < sim_lock_registry_len; i++)
			for (size_t k = 0; k < 2; k++) {
				const struct lock_ops *ops = sim_lock_registry[i];
				struct sim_lockrun_result r;

				if (strncmp(ops->name, "kmutex-", strlen("kmutex-")) != 0)
					continue;
				r = run_wait_lock(ops, kinds[k], 4, 16, sem, 2000, 10000, 20);
				assert_true(r.acquisitions > 500);
				assert_int_equal(r.overlaps, 0);
				assert_true(r.contended > 0);
			}
}

/*
 * The herd (kernel semantics): 16 threads, one per CPU, holds of 5 us and
 * gaps of 50 us, so three or more spinners watch the owner while the lock
 * changes hands again and again, now and then straight to a newcomer whose
 * fast path beats the spinners to the line.  kmutex-spin (2.6.29-2.6.35)
 * keeps spinning across owner changes: no spin phase ends on one, nobody
 * sleeps, and a phase lasts several holds.  kmutex-fix (2.6.36) ends its
 * spin at the first owner change it sees and sleeps: phases end there,
 * waiters sleep, and a phase lasts less than two holds on average.
 */
static void the_herd_spins_on_under_kmutex_spin_and_sleeps_under_kmutex_fix(void **state)
{
	const double hold_ns = 5000, gap_ns = 50000, ms = 20;
	struct sim_lockrun_result spin = run(sim_lock("kmutex-spin"), 16, 16, SIM_KERNEL, hold_ns, gap_ns, ms);
	struct sim_lockrun_result fix = run(sim_lock("kmutex-fix"), 16, 16, SIM_KERNEL, hold_ns, gap_ns, ms);
	uint64_t hold = (uint64_t)(hold_ns * sim_test_profile().tsc_ghz), phases;

	(void)state;
	phases = spin.ev.spin_exit[SPIN_EXIT_ACQUIRED] + spin.ev.spin_exit[SPIN_EXIT_OWNER_CHANGED];
	assert_true(spin.acquisitions > 1000);
	assert_int_equal(spin.ev.spin_exit[SPIN_EXIT_OWNER_CHANGED], 0);
	assert_int_equal(spin.ev.futex_waits, 0);
	assert_true(phases > 0 && spin.ev.spin_cycles / phases >= 2 * hold);
	phases = fix.ev.spin_exit[SPIN_EXIT_ACQUIRED] + fix.ev.spin_exit[SPIN_EXIT_OWNER_CHANGED];
	assert_true(fix.acquisitions > 1000);
	assert_true(fix.ev.spin_exit[SPIN_EXIT_OWNER_CHANGED] > 0);
	assert_true(fix.ev.acq_sleep > 0);
	assert_true(phases > 0 && fix.ev.spin_cycles / phases < 2 * hold);
}

/* The real locks replay too: one seed, one sequence of events and the same
 * figures (kmutex-handoff: spinners, the wait list, futexes, handoffs). */
static void a_seed_replays_a_kmutex_run(void **state)
{
	const struct lock_ops *ops = sim_lock("kmutex-handoff");
	struct sim_lockrun_result a, b, c;
	uint64_t ha, hb, hc;

	(void)state;
	a = run(ops, 4, 16, SIM_USERSPACE, 2000, 10000, 10);
	ha = last_trace;
	b = run(ops, 4, 16, SIM_USERSPACE, 2000, 10000, 10);
	hb = last_trace;
	seed++;
	c = run(ops, 4, 16, SIM_USERSPACE, 2000, 10000, 10);
	hc = last_trace;
	seed--;
	assert_true(a.ev.futex_waits > 0 && a.ev.acq_spin > 0);
	assert_true(ha == hb && memcmp(&a, &b, sizeof(a)) == 0);
	assert_true(hc != ha);
	(void)c;
}

/* kmutex-fix on the shipped profile's creat times (holds and gaps drawn
 * from its distributions, a stream per thread from the run's seed): one seed
 * replays, another differs. */
static struct sim_lockrun_result creat_run(const struct sim_profile *p, uint64_t run_seed)
{
	struct sim_config cfg = { .profile = p, .ncpus = 8, .seed = run_seed, .semantics = SIM_KERNEL };
	struct sim_lockrun r = { .ops = sim_lock("kmutex-fix"), .threads = 8, .kernel_section = true,
				 .seed = run_seed };
	struct sim_lockrun_result out;
	char err[512];
	struct sim *s = sim_create(&cfg, err, sizeof(err));

	if (!s)
		fail_msg("%s", err);
	r.hold_dist = &sim_profile_workload(p, "creat")->hold;
	r.gap_dist = &sim_profile_workload(p, "creat")->gap;
	r.duration_cycles = sim_cycles(s, 5e6);
	if (sim_lockrun(s, &r, &out, err, sizeof(err)) != 0)
		fail_msg("%s", err);
	sim_destroy(s);
	return out;
}

static void a_profile_workload_run_replays_from_its_seed(void **state)
{
	struct sim_profile p;
	char err[512];
	struct sim_lockrun_result a, b, c;

	(void)state;
	if (sim_profile_find("here", &p, err, sizeof(err)) != 0)
		fail_msg("%s", err);
	assert_non_null(sim_profile_workload(&p, "creat"));
	a = creat_run(&p, 5);
	b = creat_run(&p, 5);
	c = creat_run(&p, 6);
	assert_true(a.acquisitions > 100 && a.contended > 0);
	assert_int_equal(a.overlaps, 0);
	assert_memory_equal(&a, &b, sizeof(a));
	assert_memory_not_equal(&a, &c, sizeof(a));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_simulated_lock_excludes_at_4x_oversubscription),
		cmocka_unit_test(every_kmutex_model_excludes_with_either_wait_lock),
		cmocka_unit_test(the_herd_spins_on_under_kmutex_spin_and_sleeps_under_kmutex_fix),
		cmocka_unit_test(a_seed_replays_a_kmutex_run),
		cmocka_unit_test(a_profile_workload_run_replays_from_its_seed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
