/*
 * test_oracle_sched.c — the sched oracle's BPF program on the running kernel:
 *
 * - its per-thread counts of involuntary and voluntary switch-outs agree with
 *   the kernel's own (getrusage RUSAGE_THREAD), a thread that was preempted
 *   also had TIF_NEED_RESCHED set, counted as it was set (where the kernel
 *   has sched_set_need_resched_tp), and a thread blocked in the kernel reads
 *   as off its CPU;
 * - an owner preempted on its CPU by a SCHED_FIFO hog: a spinner on the other
 *   CPU stops with "owner not running" and sleeps;
 * - a spinner preempted on its own CPU by a SCHED_FIFO hog: when it runs
 *   again it stops with "need_resched" and sleeps.
 * Threads that must not be preempted by anything else are SCHED_FIFO too;
 * every hog runs for HOG_S only.  Each test skips, saying why, where the
 * program cannot load (not root, no BTF, no such tracepoint, built without
 * BPF) or where there are fewer than two CPUs or no real-time scheduling.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <cmocka.h>

#include "../locks/oracle.h"
#include "lockutil.h"

#define HOG_S 0.05
#define TEST_ALARM_S 60

static char load_failure[256];
static bool loaded;

static void nap(double s)
{
	struct timespec ts = { 0, (long)(s * 1e9) };

	nanosleep(&ts, NULL);
}

static void skip_unless_loaded(void)
{
	if (!loaded) {
		print_message("# skip: the sched oracle cannot load here: %s\n", load_failure);
		skip();
	}
}

/* ---- threads on a chosen CPU, with a chosen policy ---- */

/* Starts fn(arg) on `cpu`, SCHED_FIFO at `fifo_prio` when it is > 0; false
 * (and no thread) when this machine or process does not allow it. */
static bool start_on(pthread_t *tid, int cpu, int fifo_prio, void *(*fn)(void *), void *arg)
{
	pthread_attr_t attr;
	cpu_set_t set;
	int rc;

	if (cpu >= CPU_SETSIZE)
		return false;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	assert_int_equal(pthread_attr_init(&attr), 0);
	assert_int_equal(pthread_attr_setaffinity_np(&attr, sizeof(set), &set), 0);
	if (fifo_prio > 0) {
		struct sched_param sp = { .sched_priority = fifo_prio };

		assert_int_equal(pthread_attr_setinheritsched(&attr, PTHREAD_EXPLICIT_SCHED), 0);
		assert_int_equal(pthread_attr_setschedpolicy(&attr, SCHED_FIFO), 0);
		assert_int_equal(pthread_attr_setschedparam(&attr, &sp), 0);
	}
	rc = pthread_create(tid, &attr, fn, arg);
	pthread_attr_destroy(&attr);
	return rc == 0;
}

/* Two CPUs this process may run on, or skip. */
static void two_cpus(int *a, int *b)
{
	cpu_set_t set;
	int found = 0;

	assert_int_equal(sched_getaffinity(0, sizeof(set), &set), 0);
	for (int c = 0; c < CPU_SETSIZE && found < 2; c++)
		if (CPU_ISSET(c, &set))
			*(found++ ? b : a) = c;
	if (found < 2) {
		print_message("# skip: needs two CPUs\n");
		skip();
	}
}

static void *hog_main(void *arg)
{
	double end = now_s() + HOG_S;

	(void)arg;
	while (now_s() < end)
		;
	return NULL;
}

/* ---- the counts ---- */

struct counted {
	int64_t slot_invol, rusage_invol, slot_vol, rusage_vol, slot_resched;
	uint32_t done;
};

static void counts_now(const struct oracle_sched_slot *slot, int64_t *invol, int64_t *vol,
		       int64_t *ru_invol, int64_t *ru_vol)
{
	struct rusage ru;

	*invol = (int64_t)__atomic_load_n(&slot->preempted, __ATOMIC_RELAXED);
	*vol = (int64_t)__atomic_load_n(&slot->blocked, __ATOMIC_RELAXED);
	assert_int_equal(getrusage(RUSAGE_THREAD, &ru), 0);
	*ru_invol = ru.ru_nivcsw;
	*ru_vol = ru.ru_nvcsw;
}

/* Shares a CPU with a busy thread (preemptions) and naps (blocking). */
static void *counted_main(void *arg)
{
	struct counted *c = arg;
	const struct oracle_sched_slot *slot = oracle_sched_slot_self();
	int64_t i0, v0, ri0, rv0, i1, v1, ri1, rv1, r0;
	double end = now_s() + 0.3;

	if (!slot)
		return NULL;
	r0 = (int64_t)__atomic_load_n(&slot->resched, __ATOMIC_RELAXED);
	counts_now(slot, &i0, &v0, &ri0, &rv0);
	/* 5 ms busy (the busy thread's turn comes: preemptions), 1 ms asleep. */
	while (now_s() < end) {
		double busy_end = now_s() + 5e-3;

		while (now_s() < busy_end)
			;
		nap(1e-3);
	}
	counts_now(slot, &i1, &v1, &ri1, &rv1);
	*c = (struct counted){ i1 - i0, ri1 - ri0, v1 - v0, rv1 - rv0,
			       (int64_t)__atomic_load_n(&slot->resched, __ATOMIC_RELAXED) - r0, 1 };
	return NULL;
}

static void *busy_main(void *arg)
{
	double end = now_s() + 0.4;

	(void)arg;
	while (now_s() < end)
		;
	return NULL;
}

static void counts_agree_with_the_kernel(void **state)
{
	struct counted c = { 0 };
	pthread_t counted, busy;
	int a, b;

	(void)state;
	skip_unless_loaded();
	two_cpus(&a, &b);
	assert_true(start_on(&busy, a, 0, busy_main, NULL));
	assert_true(start_on(&counted, a, 0, counted_main, &c));
	assert_int_equal(pthread_join(counted, NULL), 0);
	assert_int_equal(pthread_join(busy, NULL), 0);
	assert_int_equal(c.done, 1);
	print_message("# switch-outs over 0.3 s: involuntary %" PRId64 " (getrusage %" PRId64
		      "), voluntary %" PRId64 " (getrusage %" PRId64 "); need_resched set %" PRId64 "%s\n",
		      c.slot_invol, c.rusage_invol, c.slot_vol, c.rusage_vol, c.slot_resched,
		      oracle_sched_sees_resched() ? "" : " (no sched_set_need_resched_tp in this kernel)");
	assert_true(c.rusage_vol > 0 && c.rusage_invol > 0);
	/* Preempted, so flagged first: where the kernel says so, counted. */
	if (oracle_sched_sees_resched())
		assert_true(c.slot_resched > 0);
	else
		assert_int_equal(c.slot_resched, 0);
	/* A switch-out between the two reads at either end moves one count
	 * across them: at most one apart. */
	assert_true(llabs(c.slot_invol - c.rusage_invol) <= 1);
	assert_true(llabs(c.slot_vol - c.rusage_vol) <= 1);
}

struct napper {
	struct oracle_sched_slot *slot;
	uint32_t ready, stop;
};

static void *napper_main(void *arg)
{
	struct napper *n = arg;

	n->slot = oracle_sched_slot_self();
	/* Release: the test reads the slot after this. */
	__atomic_store_n(&n->ready, 1, __ATOMIC_RELEASE);
	while (!__atomic_load_n(&n->stop, __ATOMIC_ACQUIRE))
		nap(0.01);
	return NULL;
}

static void blocked_thread_is_off_cpu(void **state)
{
	struct napper n = { 0 };
	pthread_t tid;
	double end;
	bool ready;
	int64_t on_cpu = -1, blocked = -1;

	(void)state;
	skip_unless_loaded();
	assert_int_equal(pthread_create(&tid, NULL, napper_main, &n), 0);
	ready = wait_eq(&n.ready, 1);
	if (ready && n.slot) {
		/* It spends almost all its time asleep: seen off CPU soon. */
		end = now_s() + WAIT_S;
		while (__atomic_load_n(&n.slot->on_cpu, __ATOMIC_RELAXED) && now_s() < end)
			nap(1e-3);
		on_cpu = __atomic_load_n(&n.slot->on_cpu, __ATOMIC_RELAXED);
		blocked = (int64_t)__atomic_load_n(&n.slot->blocked, __ATOMIC_RELAXED);
	}
	/* Joined before any assertion: a failed one must not leave the thread
	 * running (TSan would report the leak instead of the failure). */
	__atomic_store_n(&n.stop, 1, __ATOMIC_RELEASE);
	assert_int_equal(pthread_join(tid, NULL), 0);
	if (!ready || !n.slot || on_cpu != 0 || blocked <= 0)
		fail_msg("napper: ready %d, slot %p, on_cpu %" PRId64 " after %g s, blocked %" PRId64, ready,
			 (void *)n.slot, on_cpu, (double)WAIT_S, blocked);
}

/* ---- the spinner's two exits, provoked for real ---- */

static struct oracle_runstate *runstate(struct lock_thread *self)
{
	return (struct oracle_runstate *)self->priv;
}

/* The hog's start signal: the spinner's first look at the owner (the
 * ORACLE_EV_WATCH seam), so the test thread needs no CPU meanwhile. */
static struct {
	const struct oracle_runstate *spinner;
	uint32_t go;
} trigger;

struct party {
	const struct lock_ops *ops;
	void *lock;
	struct lock_thread *self;
	uint32_t holding, release;
	pthread_t tid;
};

/* The owner: takes the lock, holds it busy until told (or WAIT_S). */
static void *owner_main(void *arg)
{
	struct party *p = arg;
	double end;

	p->self = test_self_new(p->ops, p->lock, 0);
	p->ops->lock(p->lock, p->self);
	/* Release: the test starts the spinner after this. */
	__atomic_store_n(&p->holding, 1, __ATOMIC_RELEASE);
	end = now_s() + 2 * WAIT_S;
	while (!__atomic_load_n(&p->release, __ATOMIC_ACQUIRE) && now_s() < end)
		;
	p->ops->unlock(p->lock, p->self);
	return NULL;
}

static void *spinner_main(void *arg)
{
	struct party *p = arg;

	p->self = test_self_new(p->ops, p->lock, 1);
	/* Release: the hook compares run-states with this one. */
	__atomic_store_n(&trigger.spinner, runstate(p->self), __ATOMIC_RELEASE);
	p->ops->lock(p->lock, p->self);
	p->ops->unlock(p->lock, p->self);
	return NULL;
}

static void start_hog_on_watch(enum oracle_event event, const struct oracle_runstate *me,
			       const struct oracle_runstate *owner)
{
	(void)owner;
	if (event != ORACLE_EV_WATCH || me != __atomic_load_n(&trigger.spinner, __ATOMIC_ACQUIRE))
		return;
	/* Release: pairs with the hog's acquire load. */
	__atomic_store_n(&trigger.go, 1, __ATOMIC_RELEASE);
	syscall(SYS_futex, &trigger.go, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

/* A SCHED_FIFO hog that waits (asleep) for the trigger, then runs HOG_S. */
static void *triggered_hog_main(void *arg)
{
	struct timespec limit = { (time_t)WAIT_S, 0 };

	(void)arg;
	while (!__atomic_load_n(&trigger.go, __ATOMIC_ACQUIRE))
		if (syscall(SYS_futex, &trigger.go, FUTEX_WAIT_PRIVATE, 0, &limit, NULL, 0) != 0 &&
		    errno == ETIMEDOUT)
			return NULL;
	return hog_main(NULL);
}

/*
 * The owner holds the lock busy on CPU a, the spinner spins on it from CPU
 * b; the moment the spinner starts watching, a SCHED_FIFO hog wakes on the
 * owner's CPU (hog_on_owner) or on the spinner's.  The other one of the two
 * runs SCHED_FIFO below the hog, so only the provoked exit can happen to it.
 * Returns the spinner's events.
 */
static struct lock_events provoke(const char *lock_name, bool hog_on_owner)
{
	const struct lock_ops *ops = lock_find(lock_name);
	struct lock_params params = { 0 };
	size_t size = ALIGN_UP(ops->size, CACHELINE_PAIR);
	void *lock = aligned_alloc(CACHELINE_PAIR, size);
	struct party owner = { .ops = ops, .lock = lock }, spinner = { .ops = ops, .lock = lock };
	struct lock_events ev;
	pthread_t hog_tid;
	int a, b;

	two_cpus(&a, &b);
	assert_non_null(lock);
	memset(lock, 0, size);
	test_lock_opt(ops, &params, "oracle", "sched");
	assert_int_equal(ops->init(lock, &params), 0);
	memset(&trigger, 0, sizeof(trigger));
	if (!start_on(&hog_tid, hog_on_owner ? a : b, 2, triggered_hog_main, NULL)) {
		print_message("# skip: no SCHED_FIFO here\n");
		free(lock);
		skip();
	}
	assert_true(start_on(&owner.tid, a, hog_on_owner ? 0 : 1, owner_main, &owner));
	assert_true(wait_eq(&owner.holding, 1));
	oracle_set_hook(start_hog_on_watch);
	assert_true(start_on(&spinner.tid, b, hog_on_owner ? 1 : 0, spinner_main, &spinner));
	assert_int_equal(pthread_join(hog_tid, NULL), 0);
	assert_int_equal(__atomic_load_n(&trigger.go, __ATOMIC_ACQUIRE), 1);
	assert_true(wait_eq(&runstate(spinner.self)->sleeping, 1));
	oracle_set_hook(NULL);
	__atomic_store_n(&owner.release, 1, __ATOMIC_RELEASE);
	assert_int_equal(pthread_join(owner.tid, NULL), 0);
	assert_int_equal(pthread_join(spinner.tid, NULL), 0);
	ev = spinner.self->ev;
	print_message("# %s, hog on the %s's CPU: spinner exits acquired %" PRIu64
		      ", owner_not_running %" PRIu64 ", need_resched %" PRIu64 ", budget %" PRIu64 "\n",
		      lock_name, hog_on_owner ? "owner" : "spinner", ev.spin_exit[SPIN_EXIT_ACQUIRED],
		      ev.spin_exit[SPIN_EXIT_OWNER_NOT_RUNNING], ev.spin_exit[SPIN_EXIT_NEED_RESCHED],
		      ev.spin_exit[SPIN_EXIT_BUDGET]);
	free(owner.self);
	free(spinner.self);
	test_lock_free(ops, lock);
	return ev;
}

static void preempted_owner_ends_the_spin(void **state)
{
	struct lock_events ev;

	(void)state;
	skip_unless_loaded();
	ev = provoke("kmutex-spin", true);
	assert_int_equal(ev.spin_exit[SPIN_EXIT_OWNER_NOT_RUNNING], 1);
	assert_int_equal(ev.spin_exit[SPIN_EXIT_NEED_RESCHED], 0);
	assert_int_equal(ev.spin_exit[SPIN_EXIT_BUDGET], 0);
	assert_int_equal(ev.acq_sleep, 1);
}

static void preempted_spinner_ends_its_spin(void **state)
{
	struct lock_events ev;

	(void)state;
	skip_unless_loaded();
	ev = provoke("kmutex-spin", false);
	assert_int_equal(ev.spin_exit[SPIN_EXIT_NEED_RESCHED], 1);
	assert_int_equal(ev.spin_exit[SPIN_EXIT_OWNER_NOT_RUNNING], 0);
	assert_int_equal(ev.spin_exit[SPIN_EXIT_BUDGET], 0);
	assert_int_equal(ev.acq_sleep, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(counts_agree_with_the_kernel),
		cmocka_unit_test(blocked_thread_is_off_cpu),
		cmocka_unit_test(preempted_owner_ends_the_spin),
		cmocka_unit_test(preempted_spinner_ends_its_spin),
	};

	alarm(TEST_ALARM_S);
	loaded = oracle_sched_open(8, load_failure, sizeof(load_failure)) == 0;
	return cmocka_run_group_tests_name("oracle_sched", tests, NULL, NULL);
}
