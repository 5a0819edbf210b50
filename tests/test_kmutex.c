/*
 * test_kmutex.c — the kmutex family, step by step rather than by statistics:
 *
 * - the one decision the seed patch changed.  A holds the lock, B spins on A,
 *   A releases and C takes the lock while B is still spinning (B is held at
 *   the moment it notices A leave, through oracle.h's watch hook).  Each
 *   variant must then do what its kernel era did: keep spinning on C
 *   (2.6.29-2.6.35, and 4.1 on), or record "owner changed" and sleep
 *   (2.6.36-4.0); kmutex-sleep never spins at all;
 * - 4.10's handoff: a waiter that keeps losing (held, each time it wakes,
 *   until a hog has re-taken the lock) gets it at the second release; without
 *   handoff (kmutex-fix) the same waiter loses every round;
 * - the rq-curr oracle sees an owner whose CPU another lock user took, and
 *   every variant still excludes with it;
 * - the wait list as the kernel keeps it: a woken waiter that loses stays
 *   first, and the last waiter out clears the waiters flag;
 * - the sched oracle's decisions, with slots the test writes in place of the
 *   BPF program (tests/test_oracle_sched.c drives the real one): an owner off
 *   its CPU, a spinner preempted (need_resched), mutex_can_spin_on_owner()
 *   from 3.10 only, and which spinner queue can be left, and when.
 * Every wait is bounded in time; alarm() ends a hung run.
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
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "../bench/run.h"
#include "../bench/workload.h"
#include "../locks/oracle.h"
#include "lockutil.h"

#define TEST_ALARM_S 120    /* the whole binary, as a last resort */
/* A budget no scenario step can spend: only the orchestrated events end a
 * spin (about 40 s at 2.6 GHz; the step timeouts fire long before). */
#define SCENARIO_BUDGET (UINT64_C(100) * 1000 * 1000 * 1000)

static void *kmutex_new(const struct lock_ops *ops, uint64_t budget, int oracle)
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

static struct oracle_runstate *runstate(struct lock_thread *self)
{
	return (struct oracle_runstate *)self->priv;
}

static const struct lock_ops *find(const char *name)
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

static void *taker_main(void *arg)
{
	struct taker *t = arg;

	t->ops->lock(t->lock, t->self);
	t->ops->unlock(t->lock, t->self);
	return NULL;
}

static void taker_start(struct taker *t)
{
	assert_int_equal(pthread_create(&t->tid, NULL, taker_main, t), 0);
}

static void taker_join(struct taker *t)
{
	assert_int_equal(pthread_join(t->tid, NULL), 0);
}

/* ---- the owner-change scenario ---- */

enum after_change {
	NEVER_SPINS,     /* kmutex-sleep */
	KEEPS_SPINNING,  /* re-assess: spin on the new owner */
	SLEEPS,          /* the 2.6.36 rule */
	TAKES_IT,        /* A just released (no C): B takes the lock spinning */
};

struct scenario {
	const char *lock;
	enum after_change expect;
};

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
static void seam_wait(const uint32_t *flag, uint32_t want)
{
	double end = now_s() + WAIT_S;

	/* Acquire: pairs with the test's or the hog's release store. */
	while (__atomic_load_n(flag, __ATOMIC_ACQUIRE) < want)
		if (now_s() > end) {
			__atomic_store_n(&seam.timed_out, 1, __ATOMIC_RELEASE);
			return;
		}
}

static void seam_hook(enum oracle_event event, const struct oracle_runstate *me,
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

static void expect_never_spins(struct taker *b, struct lock_thread *a)
{
	const struct lock_events *ev = &b->self->ev;

	assert_true(wait_eq(&runstate(b->self)->sleeping, 1));
	b->ops->unlock(b->lock, a);
	taker_join(b);
	for (int r = 0; r < SPIN_EXIT_NR; r++)
		assert_int_equal(ev->spin_exit[r], 0);
	assert_int_equal(ev->spin_cycles, 0);
	assert_int_equal(ev->acq_sleep, 1);
	assert_true(ev->futex_waits >= 1);
}

static void expect_keeps_spinning(struct taker *b, struct lock_thread *c)
{
	const struct lock_events *ev = &b->self->ev;

	/* B re-assessed and now spins on C, awake. */
	assert_true(wait_eq((const void *const *)&runstate(b->self)->watching, runstate(c)));
	assert_int_equal(__atomic_load_n(&runstate(b->self)->sleeping, __ATOMIC_RELAXED), 0);
	b->ops->unlock(b->lock, c);
	taker_join(b);
	assert_int_equal(ev->spin_exit[SPIN_EXIT_OWNER_CHANGED], 0);
	assert_int_equal(ev->spin_exit[SPIN_EXIT_ACQUIRED], 1);
	assert_int_equal(ev->acq_spin, 1);
	assert_int_equal(ev->acq_sleep, 0);
	assert_int_equal(ev->futex_waits, 0);
}

static void expect_sleeps(struct taker *b, struct lock_thread *c)
{
	const struct lock_events *ev = &b->self->ev;

	/* B gave up on the new owner and went to the futex. */
	assert_true(wait_eq(&runstate(b->self)->sleeping, 1));
	b->ops->unlock(b->lock, c);
	taker_join(b);
	assert_int_equal(ev->spin_exit[SPIN_EXIT_OWNER_CHANGED], 1);
	assert_int_equal(ev->spin_exit[SPIN_EXIT_ACQUIRED], 0);
	assert_int_equal(ev->acq_sleep, 1);
	assert_int_equal(ev->acq_spin, 0);
	assert_true(ev->futex_waits >= 1);
	assert_int_equal(c->ev.futex_wakes, 1);
}

/* No new owner: whatever the era, a spinner whose owner released takes the
 * lock without sleeping (the 2.6.36 rule tests for a *new* owner). */
static void expect_takes_it(struct taker *b, struct lock_thread *a)
{
	const struct lock_events *ev = &b->self->ev;

	b->ops->unlock(b->lock, a);
	taker_join(b);
	assert_int_equal(ev->spin_exit[SPIN_EXIT_ACQUIRED], 1);
	assert_int_equal(ev->spin_exit[SPIN_EXIT_OWNER_CHANGED], 0);
	assert_int_equal(ev->acq_spin, 1);
	assert_int_equal(ev->futex_waits, 0);
}

/* A releases while B spins on it, and C takes the lock before B re-assesses. */
static void c_takes_it_under_b(struct taker *b, struct lock_thread *a, struct lock_thread *c,
			       enum after_change expect)
{
	/* A releases ... B notices and is held there ... */
	b->ops->unlock(b->lock, a);
	assert_true(wait_eq(&seam.noticed, 1));
	/* ... C takes the lock at its first attempt, while B still spins. */
	assert_false(b->ops->lock(b->lock, c));
	/* Release: pairs with the acquire wait in the seam hook. */
	__atomic_store_n(&seam.release, 1, __ATOMIC_RELEASE);
	if (expect == KEEPS_SPINNING)
		expect_keeps_spinning(b, c);
	else
		expect_sleeps(b, c);
}

static void owner_changes_while_spinning(void **state)
{
	const struct scenario *sc = *state;
	const struct lock_ops *ops = find(sc->lock);
	void *lock = kmutex_new(ops, SCENARIO_BUDGET, ORACLE_RUNSTATE);
	struct lock_thread *a = test_self_new(ops, lock, 0);
	struct lock_thread *c = test_self_new(ops, lock, 2);
	struct taker b = { .ops = ops, .lock = lock, .self = test_self_new(ops, lock, 1) };

	memset(&seam, 0, sizeof(seam));
	seam.watcher = runstate(b.self);
	seam.owner = runstate(a);
	oracle_set_hook(seam_hook);

	assert_false(ops->lock(lock, a));
	taker_start(&b);
	if (sc->expect == NEVER_SPINS) {
		expect_never_spins(&b, a);
	} else {
		/* B spins on A. */
		assert_true(wait_eq((const void *const *)&runstate(b.self)->watching, runstate(a)));
		if (sc->expect == TAKES_IT) {
			__atomic_store_n(&seam.release, 1, __ATOMIC_RELEASE);
			expect_takes_it(&b, a);
		} else {
			c_takes_it_under_b(&b, a, c, sc->expect);
		}
	}
	oracle_set_hook(NULL);
	assert_int_equal(__atomic_load_n(&seam.timed_out, __ATOMIC_ACQUIRE), 0);
	free(a);
	free(b.self);
	free(c);
	test_lock_free(ops, lock);
}

/* ---- the spinner queue (3.10 on): one waiter spins on the owner ---- */

#define QUEUE_SAMPLE_S 0.05

/* A holds; B and D both wait.  Without a queue both spin on A; with one, the
 * second waits in the queue and never watches the owner while the first does. */
static void spinners_on_the_owner(const char *name, bool queued)
{
	const struct lock_ops *ops = find(name);
	void *lock = kmutex_new(ops, SCENARIO_BUDGET, ORACLE_RUNSTATE);
	struct lock_thread *a = test_self_new(ops, lock, 0);
	struct taker b = { .ops = ops, .lock = lock, .self = test_self_new(ops, lock, 1) };
	struct taker d = { .ops = ops, .lock = lock, .self = test_self_new(ops, lock, 2) };
	const void *const *b_watch = (const void *const *)&runstate(b.self)->watching;
	const void *const *d_watch = (const void *const *)&runstate(d.self)->watching;

	assert_false(ops->lock(lock, a));
	taker_start(&b);
	assert_true(wait_eq(b_watch, runstate(a)));
	taker_start(&d);
	if (!queued) {
		assert_true(wait_eq(d_watch, runstate(a)));
	} else {
		double end = now_s() + QUEUE_SAMPLE_S;

		/* D has long entered lock() by the end; it must sit in the
		 * queue, awake, while B keeps watching A. */
		while (now_s() < end) {
			assert_ptr_equal(__atomic_load_n(b_watch, __ATOMIC_ACQUIRE), runstate(a));
			assert_ptr_not_equal(__atomic_load_n(d_watch, __ATOMIC_ACQUIRE), runstate(a));
			assert_int_equal(__atomic_load_n(&runstate(d.self)->sleeping, __ATOMIC_RELAXED), 0);
			pause_briefly();
		}
	}
	ops->unlock(lock, a);
	taker_join(&b);
	taker_join(&d);
	/* Both got it by spinning: the queue delays, never puts to sleep, and
	 * no third thread took the lock to trigger the 2.6.36 rule. */
	assert_int_equal(b.self->ev.acq_spin + d.self->ev.acq_spin, 2);
	free(a);
	free(b.self);
	free(d.self);
	test_lock_free(ops, lock);
}

static void one_spinner_per_owner(void **state)
{
	(void)state;
	spinners_on_the_owner("kmutex-spin", false);
	spinners_on_the_owner("kmutex-mcs", true);
	spinners_on_the_owner("kmutex-osq", true);
	spinners_on_the_owner("kmutex-handoff", true);
}

/* ---- 4.10's handoff: a waiter that keeps losing ---- */

/*
 * A duel: the hog holds the lock; the waiter W sleeps on it.  Each round the
 * hog releases (waking W) and at once tries to re-take it, while W is held
 * where its futex wait returned until that attempt is done — W loses every
 * race it can lose.  4.10's handoff must give W the lock at the second
 * release; without it W loses every round.
 */
#define DUEL_ROUNDS 5
#define DUEL_FINAL (DUEL_ROUNDS + 1)  /* the hog releases for good */

struct duel {
	const struct lock_ops *ops;
	void *lock;
	struct lock_thread *hog, *w;
	uint32_t command;  /* test -> hog: the round to play */
	uint32_t w_round;  /* the round in which W's lock() returned; 0: not yet */
	pthread_t hog_tid, w_tid;
};

static void *duel_hog(void *arg)
{
	struct duel *d = arg;

	for (uint32_t r = 1; r <= DUEL_FINAL; r++) {
		seam_wait(&d->command, r);
		d->ops->unlock(d->lock, d->hog);
		if (r == DUEL_FINAL) {
			__atomic_store_n(&seam.attempted, r, __ATOMIC_RELEASE);
			break;
		}
		/* Re-take at once, before the woken W may try; if the release
		 * handed the lock to W, wait for it like anyone else. */
		bool retaken = d->ops->trylock(d->lock, d->hog);

		/* Release: pairs with the acquire wait in the seam hook. */
		__atomic_store_n(&seam.attempted, r, __ATOMIC_RELEASE);
		if (!retaken)
			d->ops->lock(d->lock, d->hog);
	}
	return NULL;
}

static void *duel_waiter(void *arg)
{
	struct duel *d = arg;

	d->ops->lock(d->lock, d->w);
	/* Release: pairs with the test's wait on w_round. */
	__atomic_store_n(&d->w_round, __atomic_load_n(&seam.round, __ATOMIC_ACQUIRE), __ATOMIC_RELEASE);
	d->ops->unlock(d->lock, d->w);
	return NULL;
}

/* Waits until W has lost round r (woken r times, asleep again) or owns the lock. */
static void duel_await_round(struct duel *d, uint32_t r)
{
	double end = now_s() + WAIT_S;

	for (;;) {
		if (__atomic_load_n(&d->w_round, __ATOMIC_ACQUIRE))
			return;
		/* Acquire on wakes: W cleared `sleeping` before it counted the
		 * wake-up, so a 1 seen after it is the next sleep. */
		if (__atomic_load_n(&seam.wakes, __ATOMIC_ACQUIRE) >= r &&
		    __atomic_load_n(&runstate(d->w)->sleeping, __ATOMIC_ACQUIRE))
			return;
		assert_true(now_s() < end);
		pause_briefly();
	}
}

/* Plays the duel on `name`; returns the round W got the lock in. */
static uint32_t duel(const char *name, uint64_t *handoffs)
{
	struct duel d = { .ops = find(name) };

	d.lock = kmutex_new(d.ops, 0, ORACLE_RUNSTATE);
	d.hog = test_self_new(d.ops, d.lock, 0);
	d.w = test_self_new(d.ops, d.lock, 1);
	memset(&seam, 0, sizeof(seam));
	seam.sleeper = runstate(d.w);
	oracle_set_hook(seam_hook);

	assert_false(d.ops->lock(d.lock, d.hog));
	assert_int_equal(pthread_create(&d.w_tid, NULL, duel_waiter, &d), 0);
	duel_await_round(&d, 0);  /* W spun, gave up, sleeps */
	assert_int_equal(pthread_create(&d.hog_tid, NULL, duel_hog, &d), 0);
	for (uint32_t r = 1; r <= DUEL_FINAL && !__atomic_load_n(&d.w_round, __ATOMIC_ACQUIRE); r++) {
		/* Release: the hog and the hook read the round after these. */
		__atomic_store_n(&seam.round, r, __ATOMIC_RELEASE);
		__atomic_store_n(&d.command, r, __ATOMIC_RELEASE);
		duel_await_round(&d, r);
	}
	assert_int_equal(pthread_join(d.w_tid, NULL), 0);
	/* The hog finishes its rounds on its own once W is done. */
	__atomic_store_n(&seam.round, DUEL_FINAL, __ATOMIC_RELEASE);
	__atomic_store_n(&d.command, DUEL_FINAL, __ATOMIC_RELEASE);
	assert_int_equal(pthread_join(d.hog_tid, NULL), 0);
	oracle_set_hook(NULL);
	assert_int_equal(__atomic_load_n(&seam.timed_out, __ATOMIC_ACQUIRE), 0);
	*handoffs = d.hog->ev.handoffs;
	assert_int_equal(d.w->ev.acq_sleep, 1);
	free(d.hog);
	free(d.w);
	test_lock_free(d.ops, d.lock);
	return d.w_round;
}

static void handoff_bounds_a_losing_waiter(void **state)
{
	uint64_t handoffs;

	(void)state;
	/* Round 1: W wakes, loses, claims the handoff; round 2 hands it over. */
	assert_int_equal(duel("kmutex-handoff", &handoffs), 2);
	assert_int_equal(handoffs, 1);
	/* The same duel without handoff: W loses every contested round and
	 * gets the lock only when the hog stops. */
	assert_int_equal(duel("kmutex-fix", &handoffs), DUEL_FINAL);
	assert_int_equal(handoffs, 0);
}

/* ---- the rq-curr oracle ---- */

struct pinned_call {
	int cpu;
	struct oracle_runstate *rs;
	void (*fn)(struct oracle_runstate *rs);
};

static void *pinned_main(void *arg)
{
	struct pinned_call *p = arg;

	p->fn(p->rs);
	return NULL;
}

/* Runs fn(rs) in a new thread pinned to `cpu`; false if pinning failed. */
static bool run_pinned(int cpu, struct oracle_runstate *rs, void (*fn)(struct oracle_runstate *rs))
{
	struct pinned_call call = { .cpu = cpu, .rs = rs, .fn = fn };
	pthread_attr_t attr;
	pthread_t tid;
	cpu_set_t set;
	int rc;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	assert_int_equal(pthread_attr_init(&attr), 0);
	assert_int_equal(pthread_attr_setaffinity_np(&attr, sizeof(set), &set), 0);
	rc = pthread_create(&tid, &attr, pinned_main, &call);
	pthread_attr_destroy(&attr);
	if (rc == EINVAL || rc == EPERM)
		return false;
	assert_int_equal(rc, 0);
	assert_int_equal(pthread_join(tid, NULL), 0);
	return true;
}

static void go_to_sleep(struct oracle_runstate *rs)
{
	oracle_sleeping(rs, ORACLE_RQ_CURR);
}

static void rq_curr_sees_the_cpu_taken(void **state)
{
	struct oracle_runstate owner, other;
	int cpu = sched_getcpu();

	(void)state;
	if (oracle_check(ORACLE_RQ_CURR) != 0 || cpu < 0)
		skip();
	oracle_thread_init(&owner, ORACLE_RQ_CURR);
	oracle_thread_init(&other, ORACLE_RQ_CURR);
	/* The owner ran lock code on CPU `cpu` (a thread pinned there). */
	if (!run_pinned(cpu, &owner, oracle_on_cpu))
		skip();
	assert_true(oracle_owner_running(&owner, ORACLE_RQ_CURR));
	/* Another lock user ran on that CPU since: the owner was preempted. */
	assert_true(run_pinned(cpu, &other, oracle_on_cpu));
	assert_false(oracle_owner_running(&owner, ORACLE_RQ_CURR));
	assert_true(oracle_owner_running(&owner, ORACLE_RUNSTATE));
	/* That thread went to sleep: the CPU is free again for all it knows. */
	assert_true(run_pinned(cpu, &other, go_to_sleep));
	assert_true(oracle_owner_running(&owner, ORACLE_RQ_CURR));
	/* An owner asleep in a futex is not running, to either oracle. */
	__atomic_store_n(&owner.sleeping, 1, __ATOMIC_RELAXED);
	assert_false(oracle_owner_running(&owner, ORACLE_RUNSTATE));
	assert_false(oracle_owner_running(&owner, ORACLE_RQ_CURR));
}

static void every_variant_excludes_with_rq_curr(void **state)
{
	static const char *const names[] = {
		"kmutex-sleep", "kmutex-spin", "kmutex-fix", "kmutex-mcs", "kmutex-osq", "kmutex-handoff",
	};

	(void)state;
	if (oracle_check(ORACLE_RQ_CURR) != 0)
		skip();
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		static struct bench_config cfg;
		struct bench_result res;
		char err[512] = "";
		int status;

		cfg = (struct bench_config){
			.lock = find(names[i]),
			.workload = workload_find("counter"),
			.threads = 8,
			.duration_s = 0.3,
			.cs_cycles = 200,
			.think_cycles = 400,
			.pin = "rr",
			.lock_node = -1,
			.max_ops = 20000,
			.quiet = true,
		};
		test_lock_opt(cfg.lock, &cfg.lock_params, "oracle", "rq-curr");
		status = bench_run(&cfg, &res, err, sizeof(err));
		if (status != EXIT_OK)
			print_error("%s: %s\n", names[i], err);
		assert_int_equal(status, EXIT_OK);
		assert_true(res.acq.contended > 0);
		print_message("# %s, rq-curr: %" PRIu64 " ops, %" PRIu64 " via spin, %" PRIu64
			      " without sleeping, %" PRIu64 " via sleep\n", names[i], res.ops_all,
			      res.ev.acq_spin, res.ev.acq_nosleep, res.ev.acq_sleep);
		/* The era without spinning never acquires in a spin phase. */
		if (strcmp(names[i], "kmutex-sleep") == 0)
			assert_int_equal(res.ev.acq_spin, 0);
		bench_result_free(&res);
	}
}

/* The settings are the lock's own: its options check their values, and a
 * lock without options has none to find. */
static void unknown_oracle_is_refused(void **state)
{
	const struct lock_ops *ops = find("kmutex-fix");
	const struct lock_option *oracle = lock_option_find(ops, "oracle", 6);
	const struct lock_option *budget = lock_option_find(ops, "spin-budget=5", 11);
	struct lock_params params = { 0 };
	char err[256];

	(void)state;
	assert_non_null(oracle);
	assert_non_null(budget);
	assert_int_equal(oracle->set(&params.settings, "nope", err, sizeof(err)), -1);
	assert_string_equal(err, "unknown oracle 'nope' (valid: auto runstate rq-curr sched)");
	assert_int_equal(budget->set(&params.settings, "-1", err, sizeof(err)), -1);
	assert_string_equal(err, "'-1' is not an integer in [0, 1000000000000]");
	assert_int_equal(budget->set(&params.settings, "1000000000000", err, sizeof(err)), 0);
	assert_null(lock_option_find(ops, "oracles", 7));
	assert_null(lock_option_find(find("pthread"), "oracle", 6));
	assert_int_equal(oracle_find("rq-curr"), ORACLE_RQ_CURR);
	assert_int_equal(oracle_find("nope"), -1);
}

/* ---- the wait list as the kernel keeps it ---- */

static const char *const all_variants[] = {
	"kmutex-sleep", "kmutex-spin", "kmutex-fix", "kmutex-mcs", "kmutex-osq", "kmutex-handoff",
};
#define N_VARIANTS (sizeof(all_variants) / sizeof(all_variants[0]))

/* A waiter that records when it got the lock (1st, 2nd, ...). */
struct queued {
	struct taker t;
	uint32_t *next_rank;
	uint32_t rank;
};

static void *queued_main(void *arg)
{
	struct queued *q = arg;

	q->t.ops->lock(q->t.lock, q->t.self);
	/* Release: pairs with the test's acquire read after the join. */
	__atomic_store_n(&q->rank, __atomic_add_fetch(q->next_rank, 1, __ATOMIC_ACQ_REL), __ATOMIC_RELEASE);
	q->t.ops->unlock(q->t.lock, q->t.self);
	return NULL;
}

static void queued_start(struct queued *q, const struct lock_ops *ops, void *lock, unsigned int id,
			 uint32_t *next_rank)
{
	*q = (struct queued){ .t = { .ops = ops, .lock = lock, .self = test_self_new(ops, lock, id) },
			      .next_rank = next_rank };
	assert_int_equal(pthread_create(&q->t.tid, NULL, queued_main, q), 0);
	/* Asleep on the wait list (after its spin, for the spinning eras). */
	assert_true(wait_eq(&runstate(q->t.self)->sleeping, 1));
}

/* Waits until `rs` woke at least `wakes` times and sleeps again. */
static bool await_asleep_again(const struct oracle_runstate *rs, uint32_t wakes)
{
	double end = now_s() + WAIT_S;

	while (!(__atomic_load_n(&seam.wakes, __ATOMIC_ACQUIRE) >= wakes &&
		 __atomic_load_n(&rs->sleeping, __ATOMIC_ACQUIRE)))
		if (now_s() > end)
			return false;
		else
			pause_briefly();
	return true;
}

/*
 * M holds; W1 then W2 sleep on the wait list.  M's unlock wakes W1, which is
 * held where it woke until M has taken the lock back; W1 loses and sleeps
 * again.  In the kernel it is still first on the list, so M's next unlock
 * wakes W1 again and W1 gets the lock before W2.  (On a futex queue W1 would
 * have gone behind W2.)
 */
static void woken_loser_stays_first(const char *name)
{
	const struct lock_ops *ops = find(name);
	void *lock = kmutex_new(ops, 0, ORACLE_RUNSTATE);
	struct lock_thread *m = test_self_new(ops, lock, 0);
	struct queued w1, w2;
	uint32_t next_rank = 0;

	assert_false(ops->lock(lock, m));
	queued_start(&w1, ops, lock, 1, &next_rank);
	queued_start(&w2, ops, lock, 2, &next_rank);
	memset(&seam, 0, sizeof(seam));
	seam.sleeper = runstate(w1.t.self);
	seam.round = 1;
	oracle_set_hook(seam_hook);
	ops->unlock(lock, m);
	assert_true(wait_eq(&seam.wakes, 1));
	assert_true(ops->trylock(lock, m));
	/* Release: pairs with the acquire wait in the seam hook. */
	__atomic_store_n(&seam.attempted, 1, __ATOMIC_RELEASE);
	assert_true(await_asleep_again(runstate(w1.t.self), 1));
	assert_int_equal(__atomic_load_n(&next_rank, __ATOMIC_ACQUIRE), 0);
	ops->unlock(lock, m);
	taker_join(&w1.t);
	taker_join(&w2.t);
	oracle_set_hook(NULL);
	assert_int_equal(__atomic_load_n(&seam.timed_out, __ATOMIC_ACQUIRE), 0);
	if (w1.rank != 1)
		print_error("%s: W1 got the lock %u%s, W2 %u%s\n", name, w1.rank,
			    w1.rank == 1 ? "st" : "nd", w2.rank, w2.rank == 1 ? "st" : "nd");
	assert_int_equal(w1.rank, 1);
	assert_int_equal(w2.rank, 2);
	free(m);
	free(w1.t.self);
	free(w2.t.self);
	test_lock_free(ops, lock);
}

static void wait_list_is_fifo_and_keeps_the_woken(void **state)
{
	(void)state;
	for (size_t i = 0; i < N_VARIANTS; i++)
		woken_loser_stays_first(all_variants[i]);
}

/*
 * The last waiter to leave the list clears the waiters flag (the kernel sets
 * count to 0 when wait_list is empty): its own unlock then takes the fast
 * path and wakes nobody.  Its acquisition counts as one after sleeping.
 */
static void last_waiter_clears_the_flag(void **state)
{
	(void)state;
	for (size_t i = 0; i < N_VARIANTS; i++) {
		const struct lock_ops *ops = find(all_variants[i]);
		void *lock = kmutex_new(ops, 0, ORACLE_RUNSTATE);
		struct lock_thread *m = test_self_new(ops, lock, 0);
		struct queued w;
		uint32_t next_rank = 0;

		assert_false(ops->lock(lock, m));
		queued_start(&w, ops, lock, 1, &next_rank);
		ops->unlock(lock, m);
		taker_join(&w.t);
		assert_int_equal(m->ev.futex_wakes, 1);
		if (w.t.self->ev.futex_wakes != 0)
			print_error("%s: the last waiter's unlock woke nobody with a futex call\n",
				    all_variants[i]);
		assert_int_equal(w.t.self->ev.futex_wakes, 0);
		assert_int_equal(w.t.self->ev.acq_sleep, 1);
		/* Free and flagless: the fast path takes it. */
		assert_false(ops->lock(lock, m));
		ops->unlock(lock, m);
		free(m);
		free(w.t.self);
		test_lock_free(ops, lock);
	}
}

/* ---- the sched oracle's decisions, with slots the test writes ---- */

static struct oracle_sched_slot test_slots[4] cacheline_aligned;

/* A lock with the sched oracle (no budget), and its per-thread states
 * reading test_slots[id] in place of what the BPF program would keep. */
static void *sched_lock_new(const struct lock_ops *ops)
{
	assert_int_equal(oracle_sched_open_fake(8), 0);
	memset(test_slots, 0, sizeof(test_slots));
	for (size_t i = 0; i < sizeof(test_slots) / sizeof(test_slots[0]); i++)
		test_slots[i].on_cpu = 1;
	return kmutex_new(ops, 0, ORACLE_SCHED);
}

static struct lock_thread *sched_self_new(const struct lock_ops *ops, void *lock, unsigned int id)
{
	struct lock_thread *self = test_self_new(ops, lock, id);

	runstate(self)->slot = &test_slots[id];
	return self;
}

enum sched_event { OWNER_OFF_CPU, SPINNER_PREEMPTED };

/* M holds and runs; B spins on M; then M is switched out, or B is
 * preempted: B must stop spinning for that reason and sleep. */
static void spin_ends_on(const char *name, enum sched_event ev, enum spin_exit expect)
{
	const struct lock_ops *ops = find(name);
	void *lock = sched_lock_new(ops);
	struct lock_thread *m = sched_self_new(ops, lock, 0);
	struct taker b = { .ops = ops, .lock = lock, .self = sched_self_new(ops, lock, 1) };

	assert_false(ops->lock(lock, m));
	taker_start(&b);
	assert_true(wait_eq((const void *const *)&runstate(b.self)->watching, runstate(m)));
	/* Relaxed, as the BPF program's stores: the spinner polls them. */
	if (ev == OWNER_OFF_CPU)
		__atomic_store_n(&test_slots[0].on_cpu, 0, __ATOMIC_RELAXED);
	else
		__atomic_add_fetch(&test_slots[1].preempted, 1, __ATOMIC_RELAXED);
	if (!wait_eq(&runstate(b.self)->sleeping, 1))
		print_error("%s: the spinner kept spinning\n", name);
	assert_int_equal(__atomic_load_n(&runstate(b.self)->sleeping, __ATOMIC_ACQUIRE), 1);
	ops->unlock(lock, m);
	taker_join(&b);
	assert_int_equal(b.self->ev.spin_exit[expect], 1);
	assert_int_equal(b.self->ev.spin_exit[SPIN_EXIT_BUDGET], 0);
	assert_int_equal(b.self->ev.acq_sleep, 1);
	free(m);
	free(b.self);
	test_lock_free(ops, lock);
}

static void sched_owner_off_cpu_ends_the_spin(void **state)
{
	(void)state;
	for (size_t i = 1; i < N_VARIANTS; i++)
		spin_ends_on(all_variants[i], OWNER_OFF_CPU, SPIN_EXIT_OWNER_NOT_RUNNING);
}

static void sched_need_resched_ends_the_spin(void **state)
{
	(void)state;
	for (size_t i = 1; i < N_VARIANTS; i++)
		spin_ends_on(all_variants[i], SPINNER_PREEMPTED, SPIN_EXIT_NEED_RESCHED);
}

/* Spin-watch starts per thread (the seam's ORACLE_EV_WATCH). */
static uint32_t watches[4];

static void count_watches(enum oracle_event event, const struct oracle_runstate *me,
			  const struct oracle_runstate *owner)
{
	(void)owner;
	if (event != ORACLE_EV_WATCH)
		return;
	for (unsigned int i = 0; i < 4; i++)
		if (me->slot == &test_slots[i])
			__atomic_add_fetch(&watches[i], 1, __ATOMIC_RELAXED);
}

/*
 * The owner is off its CPU before B arrives.  From 3.10 on,
 * mutex_can_spin_on_owner() sends B to the wait list without spinning at
 * all; 2.6.29-3.9 had no such gate: B starts mutex_spin_on_owner(), which
 * gives up at its first look.  Either way the exit is "owner not running".
 */
static void can_spin_gate_is_era_exact(void **state)
{
	(void)state;
	for (size_t i = 1; i < N_VARIANTS; i++) {
		const struct lock_ops *ops = find(all_variants[i]);
		bool gated = strcmp(all_variants[i], "kmutex-spin") != 0 &&
			     strcmp(all_variants[i], "kmutex-fix") != 0;
		void *lock = sched_lock_new(ops);
		struct lock_thread *m = sched_self_new(ops, lock, 0);
		struct taker b = { .ops = ops, .lock = lock, .self = sched_self_new(ops, lock, 1) };

		assert_false(ops->lock(lock, m));
		__atomic_store_n(&test_slots[0].on_cpu, 0, __ATOMIC_RELAXED);
		memset(watches, 0, sizeof(watches));
		oracle_set_hook(count_watches);
		taker_start(&b);
		assert_true(wait_eq(&runstate(b.self)->sleeping, 1));
		oracle_set_hook(NULL);
		ops->unlock(lock, m);
		taker_join(&b);
		if (__atomic_load_n(&watches[1], __ATOMIC_RELAXED) != (gated ? 0u : 1u))
			print_error("%s: %u spin-on-owner phases, expected %u\n", all_variants[i],
				    watches[1], gated ? 0u : 1u);
		assert_int_equal(__atomic_load_n(&watches[1], __ATOMIC_RELAXED), gated ? 0 : 1);
		assert_int_equal(b.self->ev.spin_exit[SPIN_EXIT_OWNER_NOT_RUNNING], 1);
		free(m);
		free(b.self);
		test_lock_free(ops, lock);
	}
}

/*
 * M holds and runs; B spins on M at the head of the spinner queue; D waits
 * in the queue behind B.  Then D is preempted (need_resched), or B, D's
 * predecessor, is switched out.  3.10's MCS lock cannot be left: D stays.
 * 3.15's OSQ is left on need_resched, not for a preempted predecessor; 4.10's
 * also for a predecessor off its CPU (vcpu_is_preempted).
 */
static void queue_exit(const char *name, enum sched_event ev, bool leaves)
{
	const struct lock_ops *ops = find(name);
	void *lock = sched_lock_new(ops);
	struct lock_thread *m = sched_self_new(ops, lock, 0);
	struct taker b = { .ops = ops, .lock = lock, .self = sched_self_new(ops, lock, 1) };
	struct taker d = { .ops = ops, .lock = lock, .self = sched_self_new(ops, lock, 2) };

	assert_false(ops->lock(lock, m));
	taker_start(&b);
	assert_true(wait_eq((const void *const *)&runstate(b.self)->watching, runstate(m)));
	taker_start(&d);
	{
		/* D has long reached the queue by then. */
		double end = now_s() + QUEUE_SAMPLE_S;

		while (now_s() < end)
			pause_briefly();
	}
	if (ev == SPINNER_PREEMPTED)
		__atomic_add_fetch(&test_slots[2].preempted, 1, __ATOMIC_RELAXED);
	else
		__atomic_store_n(&test_slots[1].on_cpu, 0, __ATOMIC_RELAXED);
	if (leaves) {
		assert_true(wait_eq(&runstate(d.self)->sleeping, 1));
	} else {
		double end = now_s() + QUEUE_SAMPLE_S;

		while (now_s() < end) {
			assert_int_equal(__atomic_load_n(&runstate(d.self)->sleeping, __ATOMIC_RELAXED), 0);
			pause_briefly();
		}
	}
	ops->unlock(lock, m);
	taker_join(&b);
	taker_join(&d);
	if (d.self->ev.spin_exit[SPIN_EXIT_QUEUE_GAVE_UP] != (leaves ? 1u : 0u))
		print_error("%s: D left the queue %" PRIu64 " times, expected %u\n", name,
			    d.self->ev.spin_exit[SPIN_EXIT_QUEUE_GAVE_UP], leaves ? 1u : 0u);
	assert_int_equal(d.self->ev.spin_exit[SPIN_EXIT_QUEUE_GAVE_UP], leaves ? 1 : 0);
	free(m);
	free(b.self);
	free(d.self);
	test_lock_free(ops, lock);
}

static void spinner_queue_exits_are_era_exact(void **state)
{
	(void)state;
	queue_exit("kmutex-mcs", SPINNER_PREEMPTED, false);
	queue_exit("kmutex-osq", SPINNER_PREEMPTED, true);
	queue_exit("kmutex-handoff", SPINNER_PREEMPTED, true);
	queue_exit("kmutex-osq", OWNER_OFF_CPU, false);
	queue_exit("kmutex-handoff", OWNER_OFF_CPU, true);
}

static const struct scenario scenarios[] = {
	{ "kmutex-sleep", NEVER_SPINS },
	{ "kmutex-spin", KEEPS_SPINNING },
	{ "kmutex-fix", SLEEPS },
	{ "kmutex-mcs", SLEEPS },
	{ "kmutex-osq", SLEEPS },
	{ "kmutex-handoff", KEEPS_SPINNING },
	{ "kmutex-spin", TAKES_IT },
	{ "kmutex-fix", TAKES_IT },
	{ "kmutex-mcs", TAKES_IT },
	{ "kmutex-osq", TAKES_IT },
	{ "kmutex-handoff", TAKES_IT },
};

#define SCENARIO_TEST(i, what) \
	{ what, owner_changes_while_spinning, NULL, NULL, (void *)&scenarios[i] }

int main(void)
{
	const struct CMUnitTest tests[] = {
		SCENARIO_TEST(0, "A holds, B waits: kmutex-sleep never spins"),
		SCENARIO_TEST(1, "B spins on A, C takes over: kmutex-spin spins on C"),
		SCENARIO_TEST(2, "B spins on A, C takes over: kmutex-fix sleeps (owner changed)"),
		SCENARIO_TEST(3, "B spins on A, C takes over: kmutex-mcs sleeps (owner changed)"),
		SCENARIO_TEST(4, "B spins on A, C takes over: kmutex-osq sleeps (owner changed)"),
		SCENARIO_TEST(5, "B spins on A, C takes over: kmutex-handoff spins on C"),
		SCENARIO_TEST(6, "B spins on A, A releases: kmutex-spin takes it spinning"),
		SCENARIO_TEST(7, "B spins on A, A releases: kmutex-fix takes it spinning"),
		SCENARIO_TEST(8, "B spins on A, A releases: kmutex-mcs takes it spinning"),
		SCENARIO_TEST(9, "B spins on A, A releases: kmutex-osq takes it spinning"),
		SCENARIO_TEST(10, "B spins on A, A releases: kmutex-handoff takes it spinning"),
		cmocka_unit_test(one_spinner_per_owner),
		cmocka_unit_test(handoff_bounds_a_losing_waiter),
		cmocka_unit_test(rq_curr_sees_the_cpu_taken),
		cmocka_unit_test(every_variant_excludes_with_rq_curr),
		cmocka_unit_test(unknown_oracle_is_refused),
		cmocka_unit_test(wait_list_is_fifo_and_keeps_the_woken),
		cmocka_unit_test(last_waiter_clears_the_flag),
		cmocka_unit_test(sched_owner_off_cpu_ends_the_spin),
		cmocka_unit_test(sched_need_resched_ends_the_spin),
		cmocka_unit_test(can_spin_gate_is_era_exact),
		cmocka_unit_test(spinner_queue_exits_are_era_exact),
	};

	alarm(TEST_ALARM_S);
	return cmocka_run_group_tests_name("kmutex", tests, NULL, NULL);
}
