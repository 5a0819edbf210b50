/*
 * test_sim_sched.c — the simulated scheduler (sim/sched.c): slices, the tick,
 * futex wake-ups, and kernel against userspace semantics; then its second
 * model, EEVDF (sim/sched_eevdf.c): the base slice, the protected request
 * against a wake-up, the yield that forfeits a request, sleepers left queued
 * (DELAY_DEQUEUE).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "../locks/bpf/oracle_slot.h"
#include "sim_test.h"

/* ---- slices ---- */

#define CHUNK 1000
#define MAX_RUNS 64

struct hog {
	uint64_t until;
	unsigned nruns;
	uint64_t run_start[MAX_RUNS], run_end[MAX_RUNS];
};

/* Computes in chunks, noting each stretch it ran without a break (a chunk
 * that took longer than itself held a switch: the stretch ended in it). */
static void hog_body(void *arg)
{
	struct hog *h = arg;
	uint64_t start = sim_now(), t;

	while ((t = sim_now()) < h->until) {
		sim_work(CHUNK);
		if (sim_now() - t > CHUNK && h->nruns < MAX_RUNS) {
			h->run_start[h->nruns] = start;
			h->run_end[h->nruns++] = t;
			start = sim_now();
		}
	}
}

/*
 * Two CPU-bound threads on one CPU: each runs its ideal slice, period /
 * nr_running = sched_latency / 2 (2 <= sched_nr_latency), and is preempted
 * at the first tick past it.  The first stretch of each is left out (it
 * starts before the other is queued).
 */
static void a_cpu_bound_thread_keeps_its_slice(void **state)
{
	struct sim_profile p = sim_test_profile();
	struct sim *s = sim_test_new(&p, 1, 5, SIM_USERSPACE);
	struct hog h[2];
	uint64_t slice, tick;
	unsigned checked = 0;

	(void)state;
	assert_non_null(s);
	slice = sim_cycles(s, p.sched_latency_ns) / 2;
	tick = sim_cycles(s, 1e9 / p.hz);
	for (int i = 0; i < 2; i++) {
		h[i] = (struct hog){ .until = sim_cycles(s, 60e6) };
		assert_int_equal(sim_spawn(s, hog_body, &h[i]), i);
	}
	assert_int_equal(sim_run(s, UINT64_MAX / 2), 0);
	for (int i = 0; i < 2; i++)
		for (unsigned r = 1; r < h[i].nruns; r++) {
			uint64_t len = h[i].run_end[r] - h[i].run_start[r];

			assert_true(len + CHUNK >= slice);
			assert_true(len <= slice + tick + CHUNK);
			checked++;
		}
	assert_true(checked >= 6);
	sim_destroy(s);
}

/* ---- the tick ---- */

static void the_tick_sets_need_resched(void **state)
{
	struct sim_profile p = sim_test_profile();
	struct sim_thread_info a, b, alone;
	struct hog h[3];

	(void)state;
	for (unsigned n = 1; n <= 2; n++) {
		struct sim *s = sim_test_new(&p, 1, 5, SIM_USERSPACE);

		assert_non_null(s);
		for (unsigned i = 0; i < n; i++) {
			h[i] = (struct hog){ .until = sim_cycles(s, 30e6) };
			assert_int_equal(sim_spawn(s, hog_body, &h[i]), (int)i);
		}
		assert_int_equal(sim_run(s, UINT64_MAX / 2), 0);
		if (n == 1) {
			sim_thread_info(s, 0, &alone);
		} else {
			sim_thread_info(s, 0, &a);
			sim_thread_info(s, 1, &b);
		}
		sim_destroy(s);
	}
	/* Alone on its CPU: CFS's tick checks nothing (entity_tick). */
	assert_int_equal(alone.resched, 0);
	assert_int_equal(alone.preempted, 0);
	/* Two: the tick asks each off once per slice, and it goes. */
	assert_true(a.resched >= 2 && b.resched >= 2);
	assert_true(a.preempted >= a.resched - 1 && a.preempted <= a.resched);
}

/* ---- futex wake-ups ---- */

struct wake {
	uint32_t word __attribute__((aligned(64)));
	uint64_t called_at, back_at;
};

static void sleeper(void *arg)
{
	struct wake *w = arg;

	pr_futex_wait(&w->word, 0);
	w->back_at = sim_now();
}

static void waker(void *arg)
{
	struct wake *w = arg;

	sim_work(100000);
	pr_store(&w->word, 1, PR_RELAXED);
	w->called_at = sim_now();
	pr_futex_wake(&w->word, 1);
}

/* The sleeper's CPU is idle: it runs wake_latency after the wake, and its
 * wait returns after the two halves of the system calls. */
static void a_woken_thread_runs_after_the_wake_latency(void **state)
{
	struct sim_profile p = sim_test_profile();
	struct sim *s = sim_test_new(&p, 2, 5, SIM_USERSPACE);
	struct wake w = { .word = 0 };

	(void)state;
	assert_non_null(s);
	assert_int_equal(sim_spawn(s, sleeper, &w), 0);
	assert_int_equal(sim_spawn(s, waker, &w), 1);
	assert_int_equal(sim_run(s, UINT64_MAX / 2), 0);
	assert_int_equal(w.back_at, w.called_at + sim_cycles(s, p.wake_latency_ns) + sim_cycles(s, p.syscall_ns));
	assert_int_equal(sim_stats(s)->futex_sleeps, 1);
	sim_destroy(s);
}

/* ---- wake-up preemption ---- */

static void long_hog(void *arg)
{
	(void)arg;
	sim_work(40000000);
}

static void late_waker(void *arg)
{
	struct wake *w = arg;

	sim_work(10000000);
	pr_store(&w->word, 1, PR_RELAXED);
	w->called_at = sim_now();
	pr_futex_wake(&w->word, 1);
	sim_work(40000000);   /* no idle CPU for the woken one */
}

/*
 * A sleeper woken onto its CPU, busy with a thread that ran 5 ms meanwhile:
 * its vruntime is placed sched_latency / 2 behind, more than the wake-up
 * granularity, so it preempts at once (check_preempt_wakeup): it runs a
 * context switch after the wake latency.
 */
static void a_woken_thread_preempts_a_thread_far_ahead(void **state)
{
	struct sim_profile p = sim_test_profile();
	struct sim *s = sim_test_new(&p, 2, 5, SIM_USERSPACE);
	struct wake w = { .word = 0 };

	(void)state;
	assert_non_null(s);
	/* by id modulo 2: the sleeper and the hog on CPU 0, the waker on 1 */
	assert_int_equal(sim_spawn(s, sleeper, &w), 0);
	assert_int_equal(sim_spawn(s, late_waker, &w), 1);
	assert_int_equal(sim_spawn(s, long_hog, NULL), 2);
	assert_int_equal(sim_run(s, UINT64_MAX / 2), 0);
	assert_int_equal(w.back_at, w.called_at + sim_cycles(s, p.wake_latency_ns) + sim_cycles(s, p.context_switch_ns) +
					    sim_cycles(s, p.syscall_ns));
	sim_destroy(s);
}

/* ---- kernel and userspace semantics ---- */

struct kloop {
	struct tlock_ticket lock __attribute__((aligned(64)));
	uint64_t until;
	uint64_t acquisitions, preempted_inside;
};

/* Lock, hold and unlock inside a kernel section (as a system call would);
 * counts the switch-outs its slot saw between entering and leaving. */
static void kloop_body(void *arg)
{
	struct kloop *k = arg;
	const struct oracle_sched_slot *slot = sim_slot_self();

	while (sim_now() < k->until) {
		uint64_t before;

		sim_kernel_enter();
		before = slot->preempted;
		tlock_ticket_lock(&k->lock);
		sim_work(2000);
		tlock_ticket_unlock(&k->lock);
		k->preempted_inside += slot->preempted - before;
		k->acquisitions++;
		sim_kernel_exit();
		sim_work(3000);
	}
}

static struct kloop kernel_loop(enum sim_semantics sem)
{
	struct sim_profile p = sim_test_profile();
	struct sim *s = sim_test_new(&p, 2, 9, sem);
	struct kloop k;

	assert_non_null(s);
	memset(&k, 0, sizeof(k));
	k.until = sim_cycles(s, 40e6);
	for (int i = 0; i < 8; i++)
		assert_int_equal(sim_spawn(s, kloop_body, &k), i);
	assert_int_equal(sim_run(s, UINT64_MAX / 2), 0);
	assert_true(sim_stats(s)->preemptions > 0);
	sim_destroy(s);
	return k;
}

/* Kernel semantics: no switch-out inside the lock code, though threads are
 * preempted outside it; userspace semantics, the same code: some are. */
static void a_kernel_spinner_is_never_preempted_inside_lock_code(void **state)
{
	struct kloop kern = kernel_loop(SIM_KERNEL), user = kernel_loop(SIM_USERSPACE);

	(void)state;
	assert_true(kern.acquisitions > 1000);
	assert_int_equal(kern.preempted_inside, 0);
	assert_true(user.acquisitions > 100);
	assert_true(user.preempted_inside > 0);
}

/* ---- pr_yield ---- */

static void yielder(void *arg)
{
	(void)arg;
	sim_kernel_enter();
	for (int i = 0; i < 200; i++) {
		sim_work(20000);
		pr_yield();
	}
	sim_kernel_exit();
}

/* Two threads on one CPU, each yielding inside a kernel section: userspace
 * semantics, sched_yield() hands the CPU to the other whenever CFS would pick
 * it (its vruntime is not larger: 2.6.34's yield_task_fair() without
 * compat_yield does no more), so they alternate; kernel semantics, it is
 * wait_lock's pause and never switches. */
static void pr_yield_yields_only_in_userspace(void **state)
{
	struct sim_profile p = sim_test_profile();
	uint64_t switched[2];

	(void)state;
	for (int sem = SIM_KERNEL; sem <= SIM_USERSPACE; sem++) {
		struct sim *s = sim_test_new(&p, 1, 5, sem);
		struct sim_thread_info y;

		assert_non_null(s);
		assert_int_equal(sim_spawn(s, yielder, NULL), 0);
		assert_int_equal(sim_spawn(s, yielder, NULL), 1);
		assert_int_equal(sim_run(s, UINT64_MAX / 2), 0);
		sim_thread_info(s, 0, &y);
		switched[sem] = y.preempted;
		sim_destroy(s);
	}
	assert_int_equal(switched[SIM_KERNEL], 0);
	assert_true(switched[SIM_USERSPACE] >= 150);
}

/* ==== the second model: eevdf-6.x (sim/sched_eevdf.c, Linux 6.18's EEVDF) ====
 * Each test fails on 2.6.34's CFS: where it runs CFS too, CFS is its control. */

static struct sim *eevdf_new(struct sim_profile *p, unsigned ncpus, enum sim_semantics sem)
{
	strcpy(p->sched_model, "eevdf-6.x");
	return sim_test_new(p, ncpus, 5, sem);
}

/* ---- EEVDF: the base slice ---- */

/* The longest and the shortest stretch of two hogs on one CPU, the first
 * of each left out. */
static void stretches(struct sim *s, uint64_t until, uint64_t *lo, uint64_t *hi)
{
	struct hog h[2];

	*lo = UINT64_MAX;
	*hi = 0;
	for (int i = 0; i < 2; i++) {
		h[i] = (struct hog){ .until = until };
		assert_int_equal(sim_spawn(s, hog_body, &h[i]), i);
	}
	assert_int_equal(sim_run(s, UINT64_MAX / 2), 0);
	for (int i = 0; i < 2; i++) {
		assert_true(h[i].nruns >= 4);
		for (unsigned r = 1; r < h[i].nruns; r++) {
			uint64_t len = h[i].run_end[r] - h[i].run_start[r];

			*lo = len < *lo ? len : *lo;
			*hi = len > *hi ? len : *hi;
		}
	}
}

/*
 * Two CPU-bound threads on one CPU: each runs one request, the base slice
 * (the profile's min_granularity), and goes at the first tick past it
 * (update_deadline() at the tick's update_curr()); CFS's slice is
 * sched_latency / 2, 2.5 times longer here.
 */
static void a_cpu_bound_thread_runs_the_base_slice(void **state)
{
	struct sim_profile p = sim_test_profile();
	struct sim *s = eevdf_new(&p, 1, SIM_USERSPACE);
	uint64_t slice, tick, lo, hi;

	(void)state;
	assert_non_null(s);
	slice = sim_cycles(s, p.sched_min_granularity_ns);
	tick = sim_cycles(s, 1e9 / p.hz);
	stretches(s, sim_cycles(s, 60e6), &lo, &hi);
	assert_true(lo + CHUNK >= slice);
	assert_true(hi <= slice + tick + CHUNK);
	sim_destroy(s);
}

/* ---- EEVDF: the protected request against a wake-up ---- */

static void longer_hog(void *arg)
{
	(void)arg;
	sim_work(200000000);
}

/* How long after the wake latency the woken sleeper ran, on a CPU busy
 * with a hog that ran alone meanwhile. */
static uint64_t woken_wait(struct sim_profile *p, bool eevdf)
{
	struct sim *s = eevdf ? eevdf_new(p, 2, SIM_USERSPACE) : sim_test_new(p, 2, 5, SIM_USERSPACE);
	struct wake w = { .word = 0 };
	uint64_t waited;

	assert_non_null(s);
	/* by id modulo 2: the sleeper and the hog on CPU 0, the waker on 1 */
	assert_int_equal(sim_spawn(s, sleeper, &w), 0);
	assert_int_equal(sim_spawn(s, late_waker, &w), 1);
	assert_int_equal(sim_spawn(s, long_hog, NULL), 2);
	assert_int_equal(sim_run(s, UINT64_MAX / 2), 0);
	waited = w.back_at - w.called_at - sim_cycles(s, p->wake_latency_ns) - sim_cycles(s, p->syscall_ns);
	sim_destroy(s);
	return waited;
}

/*
 * The woken sleeper is placed at V with no lag: eligible, but its deadline
 * is a slice after the hog's last one, so pick_eevdf() keeps the hog and
 * the wake-up does not preempt (check_preempt_wakeup_fair()); the sleeper
 * runs when the hog's request runs out, at a tick within a slice and a
 * tick.  CFS, the control: it preempts at once (a context switch).
 */
static void a_woken_thread_waits_for_the_running_request(void **state)
{
	struct sim_profile p = sim_test_profile();
	struct sim_profile q = sim_test_profile();
	struct sim *ref = sim_test_new(&p, 2, 5, SIM_USERSPACE);
	uint64_t cs = sim_cycles(ref, p.context_switch_ns), slice = sim_cycles(ref, p.sched_min_granularity_ns),
		 tick = sim_cycles(ref, 1e9 / p.hz), eevdf = woken_wait(&p, true);

	(void)state;
	sim_destroy(ref);
	assert_int_equal(woken_wait(&q, false), cs);
	assert_true(eevdf > cs);
	assert_true(eevdf <= slice + tick + cs);
}

/* ---- EEVDF: yield ---- */

static void user_yielder(void *arg)
{
	(void)arg;
	for (int i = 0; i < 200; i++) {
		sim_work(20000);
		pr_yield();
	}
}

/* Two yielders on one CPU: an eligible yielder forfeits the rest of its
 * request (6.17's yield_task_fair()), so the other runs at each yield —
 * without it the yielder, inside its protected slice, would be picked
 * again. */
static void a_yield_forfeits_the_request(void **state)
{
	struct sim_profile p = sim_test_profile();
	struct sim *s = eevdf_new(&p, 1, SIM_USERSPACE);
	struct sim_thread_info y;

	(void)state;
	assert_non_null(s);
	assert_int_equal(sim_spawn(s, user_yielder, NULL), 0);
	assert_int_equal(sim_spawn(s, user_yielder, NULL), 1);
	assert_int_equal(sim_run(s, UINT64_MAX / 2), 0);
	sim_thread_info(s, 0, &y);
	assert_true(y.preempted >= 150);
	sim_destroy(s);
}

/* ---- EEVDF: sleepers left queued ---- */

struct nap {
	uint32_t word __attribute__((aligned(64)));
	unsigned rounds, done;
};

/* Computes 1.5 ms, then sleeps until the waker's next call (the word
 * counts them). */
static void napper(void *arg)
{
	struct nap *n = arg;

	for (unsigned i = 0; i < n->rounds; i++) {
		uint32_t seen = pr_load(&n->word, PR_ACQUIRE);

		sim_work(3000000);
		while (pr_load(&n->word, PR_ACQUIRE) == seen)
			pr_futex_wait(&n->word, seen);
	}
	pr_store(&n->done, 1, PR_RELEASE);
}

/* Every 4 ms, a call. */
static void nap_waker(void *arg)
{
	struct nap *n = arg;

	while (!pr_load(&n->done, PR_ACQUIRE)) {
		sim_work(8000000);
		pr_store(&n->word, pr_load(&n->word, PR_RELAXED) + 1, PR_RELEASE);
		pr_futex_wake(&n->word, 1);
	}
}

/*
 * A thread that computes beside a hog on its CPU and goes to sleep after
 * running more than its share (its vruntime past V) stays queued until it
 * is picked or woken (DELAY_DEQUEUE), and the run still ends.  CFS, the
 * control, leaves none queued.
 */
static void an_ineligible_sleeper_stays_queued(void **state)
{
	(void)state;
	for (int model = 0; model < 2; model++) {
		struct sim_profile p = sim_test_profile();
		struct sim *s = model ? eevdf_new(&p, 2, SIM_USERSPACE) : sim_test_new(&p, 2, 5, SIM_USERSPACE);
		struct nap n = { .word = 0, .rounds = 20, .done = 0 };

		assert_non_null(s);
		/* by id modulo 2: the napper and the hog on CPU 0, the waker on 1 */
		assert_int_equal(sim_spawn(s, napper, &n), 0);
		assert_int_equal(sim_spawn(s, nap_waker, &n), 1);
		assert_int_equal(sim_spawn(s, longer_hog, NULL), 2);
		assert_int_equal(sim_run(s, UINT64_MAX / 2), 0);
		if (model)
			assert_true(sim_stats(s)->delayed_sleeps >= 5);
		else
			assert_int_equal(sim_stats(s)->delayed_sleeps, 0);
		sim_destroy(s);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_cpu_bound_thread_keeps_its_slice),
		cmocka_unit_test(the_tick_sets_need_resched),
		cmocka_unit_test(a_woken_thread_runs_after_the_wake_latency),
		cmocka_unit_test(a_woken_thread_preempts_a_thread_far_ahead),
		cmocka_unit_test(a_kernel_spinner_is_never_preempted_inside_lock_code),
		cmocka_unit_test(pr_yield_yields_only_in_userspace),
		cmocka_unit_test(a_cpu_bound_thread_runs_the_base_slice),
		cmocka_unit_test(a_woken_thread_waits_for_the_running_request),
		cmocka_unit_test(a_yield_forfeits_the_request),
		cmocka_unit_test(an_ineligible_sleeper_stays_queued),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
