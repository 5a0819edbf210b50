/*
 * test_pr_sim.c — locks/pr.h's simulated backend (LOCKBENCH_SIM), without
 * the simulator: this file defines the sim_pr_* functions itself, on plain
 * memory, and compiles the locks' own sources against them.  It checks
 * - the macros' value conversions for every size and for pointers: a value
 *   stored and loaded back, a fetch-and-op's old value and the wrap of its
 *   new one in the accessed type, compare-and-swap's write-back of the value
 *   found, the memory order passed through;
 * - tas, ttas, ticket, mcs, futex and every kmutex model, one thread at a
 *   time, through the sim macros: uncontended, and contended with the owner
 *   released from inside the waiter's futex wait (the fake's hook), which
 *   runs the spin phase to its budget on the fake clock, the wait list, the
 *   slow unlock and the wake — each lock must then be held by the waiter.
 *   The fake remembers the value of every word it last read or wrote and
 *   counts a word found changed behind its back: a lock that still wrote a
 *   word natively fails that count, and one that still made a native futex
 *   call would sleep for good (alarm() ends the run);
 * - what only counting a lock's atomics can show: the kmutex's "once more"
 *   xchg before joining the wait list (3.12-3.16: whenever the count reads
 *   >= 0, kmutex-mcs and kmutex-osq), and the slow unlock's window from the
 *   failed release to holding wait_lock, timed on the fake clock.
 */
#define _GNU_SOURCE
#define LOCKBENCH_SIM
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

/* The locks' sources, their lock_ops renamed so that none clashes with the
 * library's native ones (whose objects this test then never links). */
#define lock_ops_tas            sim_ops_tas
#define lock_ops_ttas           sim_ops_ttas
#define lock_ops_ticket         sim_ops_ticket
#define lock_ops_mcs            sim_ops_mcs
#define lock_ops_futex          sim_ops_futex
#define lock_ops_kmutex_sleep   sim_ops_kmutex_sleep
#define lock_ops_kmutex_spin    sim_ops_kmutex_spin
#define lock_ops_kmutex_fix     sim_ops_kmutex_fix
#define lock_ops_kmutex_mcs     sim_ops_kmutex_mcs
#define lock_ops_kmutex_osq     sim_ops_kmutex_osq
#define lock_ops_kmutex_handoff sim_ops_kmutex_handoff
#include "../locks/tas.c"
#include "../locks/ttas.c"
#include "../locks/ticket.c"
#include "../locks/mcs.c"
#include "../locks/futex.c"
#include "../locks/oracle.c"
#include "../locks/spinq.c"
#include "../locks/kmutex_spin.c"
#include "../locks/kmutex_wait.c"
#include "../locks/kmutex.c"

#include "lockutil.h"

/* ---- the fake backend: plain memory, counted ---- */

/* The words seen through the fake, with the value it left in each. */
#define FAKE_WORDS 512
struct fake_word {
	const volatile void *p;
	unsigned size;
	uint64_t v;
};

static struct {
	unsigned long loads, stores, rmws, cases, relaxes, futex_waits, futex_wakes;
	unsigned long native_writes;  /* words found changed since the fake last saw them */
	unsigned nwords;
	struct fake_word words[FAKE_WORDS];
	unsigned last_size;
	int last_mo;
	uint64_t now;                /* the fake clock: each read advances it */
	void (*on_wait)(void);       /* called once, in a futex wait that would sleep */
} fake;

static uint64_t fake_get(const volatile void *p, unsigned size)
{
	switch (size) {
	case 1: return *(const volatile uint8_t *)p;
	case 2: return *(const volatile uint16_t *)p;
	case 4: return *(const volatile uint32_t *)p;
	default: return *(const volatile uint64_t *)p;
	}
}

static void fake_put(volatile void *p, unsigned size, uint64_t v)
{
	switch (size) {
	case 1: *(volatile uint8_t *)p = (uint8_t)v; break;
	case 2: *(volatile uint16_t *)p = (uint16_t)v; break;
	case 4: *(volatile uint32_t *)p = (uint32_t)v; break;
	default: *(volatile uint64_t *)p = v; break;
	}
}

static struct fake_word *fake_word_of(const volatile void *p)
{
	for (unsigned i = 0; i < fake.nwords; i++)
		if (fake.words[i].p == p)
			return &fake.words[i];
	assert_true(fake.nwords < FAKE_WORDS);
	fake.words[fake.nwords].p = p;
	return &fake.words[fake.nwords++];
}

/* Before an access that reads *p: has anything but the fake written it? */
static void fake_check(const volatile void *p, unsigned size)
{
	struct fake_word *w = fake_word_of(p);

	if (w->size == size && fake_get(p, size) != w->v)
		fake.native_writes++;
}

/* After an access: the value the fake leaves there. */
static void fake_remember(const volatile void *p, unsigned size)
{
	struct fake_word *w = fake_word_of(p);

	w->size = size;
	w->v = fake_get(p, size);
}

static void fake_saw(unsigned size, int mo)
{
	assert_true(size == 1 || size == 2 || size == 4 || size == 8);
	assert_true(mo >= __ATOMIC_RELAXED && mo <= __ATOMIC_SEQ_CST);
	fake.last_size = size;
	fake.last_mo = mo;
}

uint64_t sim_pr_load(const volatile void *p, unsigned size, int mo)
{
	fake_saw(size, mo);
	fake.loads++;
	fake_check(p, size);
	fake_remember(p, size);
	return fake_get(p, size);
}

void sim_pr_store(volatile void *p, unsigned size, uint64_t v, int mo)
{
	fake_saw(size, mo);
	fake.stores++;
	fake_put(p, size, v);
	fake_remember(p, size);
}

uint64_t sim_pr_rmw(volatile void *p, unsigned size, enum sim_rmw op, uint64_t v, int mo)
{
	uint64_t old = fake_get(p, size), new = v;

	fake_saw(size, mo);
	fake.rmws++;
	fake_check(p, size);
	if (op == SIM_RMW_ADD)
		new = old + v;
	else if (op == SIM_RMW_SUB)
		new = old - v;
	else if (op == SIM_RMW_AND)
		new = old & v;
	else if (op == SIM_RMW_OR)
		new = old | v;
	fake_put(p, size, new);
	fake_remember(p, size);
	return old;
}

bool sim_pr_cas(volatile void *p, unsigned size, uint64_t *expected, uint64_t desired, int smo, int fmo)
{
	uint64_t cur = fake_get(p, size), mask = size == 8 ? UINT64_MAX : (UINT64_C(1) << (8 * size)) - 1;
	bool swap = cur == (*expected & mask);

	fake_saw(size, fmo);
	fake_saw(size, smo);
	fake.cases++;
	fake_check(p, size);
	if (swap)
		fake_put(p, size, desired);
	else
		*expected = cur;
	fake_remember(p, size);
	return swap;
}

void sim_pr_relax(void)
{
	fake.relaxes++;
	fake.now += 10;
}

/* Each read of the fake clock advances it by this many cycles. */
#define FAKE_CLOCK_STEP 100

uint64_t sim_pr_clock(void)
{
	return fake.now += FAKE_CLOCK_STEP;
}

bool sim_pr_clock_past(uint64_t deadline)
{
	return (fake.now += FAKE_CLOCK_STEP) > deadline;
}

/* As FUTEX_WAIT: returns at once unless *w == expected; then "sleeps" by
 * running the test's hook (the owner's unlock), once. */
void sim_pr_futex_wait(uint32_t *w, uint32_t expected)
{
	void (*hook)(void) = fake.on_wait;

	fake.futex_waits++;
	if (*w != expected || !hook)
		return;
	fake.on_wait = NULL;
	hook();
}

void sim_pr_futex_wake(uint32_t *w, int n)
{
	(void)w;
	assert_int_equal(n, 1);
	fake.futex_wakes++;
}

void sim_pr_yield(void)
{
}

int sim_pr_cpu(void)
{
	return 0;
}

/* As a userspace holder: the kmutex models' wait_lock stays test-and-set,
 * the form whose accesses these tests count. */
bool sim_pr_holder_preemptible(void)
{
	return true;
}

/* ---- the macros ---- */

/* store, load, xchg and both outcomes of cas, for any type T: a and b differ. */
#define CHECK_MOVES(T, a, b)									\
	do {											\
		T x_;									\
		T e_;									\
		pr_store(&x_, (a), PR_RELEASE);							\
		assert_true(x_ == (a) && fake.last_size == sizeof(T) && fake.last_mo == PR_RELEASE);	\
		assert_true(pr_load(&x_, PR_ACQUIRE) == (a) && fake.last_mo == PR_ACQUIRE);	\
		assert_true(pr_xchg(&x_, (b), PR_ACQ_REL) == (a) && x_ == (b));		\
		e_ = (a);									\
		assert_false(pr_cas(&x_, &e_, (a), PR_ACQUIRE, PR_RELAXED));			\
		assert_true(e_ == (b) && x_ == (b));						\
		assert_true(pr_cas(&x_, &e_, (a), PR_ACQUIRE, PR_RELAXED));			\
		assert_true(e_ == (b) && x_ == (a));						\
	} while (0)

static void test_moves_every_size(void **state)
{
	int here, there;

	(void)state;
	CHECK_MOVES(uint8_t, 0xfe, 0x01);
	CHECK_MOVES(uint16_t, 0xfedc, 0x0102);
	CHECK_MOVES(uint32_t, 0xfedcba98u, 0x01020304u);
	CHECK_MOVES(uint64_t, UINT64_C(0xfedcba9876543210), UINT64_C(0x0102030405060708));
	CHECK_MOVES(int32_t, -2, 7);
	CHECK_MOVES(int64_t, INT64_MIN, -1);
	CHECK_MOVES(bool, true, false);
	CHECK_MOVES(int *, &here, &there);
	CHECK_MOVES(const int *, &here, NULL);
}

/* A failed cas writes back the value found, not a neighbour's bytes: the
 * expected word sits beside memory that differs. */
static void test_cas_writes_back_only_its_size(void **state)
{
	struct { uint16_t word, next; } m = { 0x1234, 0xffff };
	uint16_t expected = 0x4321;

	(void)state;
	assert_false(pr_cas(&m.word, &expected, 7, PR_ACQUIRE, PR_RELAXED));
	assert_int_equal(expected, 0x1234);
	assert_int_equal(m.next, 0xffff);
	assert_int_equal(fake.last_size, 2);
}

static void test_fetch_ops_wrap_in_type(void **state)
{
	uint8_t b = 0xff;
	uint16_t h = 0;
	uint32_t w = 0xf0u;
	int32_t s = -5;
	uint64_t d = UINT64_MAX;

	(void)state;
	assert_int_equal(pr_fetch_add(&b, 1, PR_RELAXED), 0xff);
	assert_int_equal(b, 0);
	assert_int_equal(pr_add_fetch(&b, 0xff, PR_RELAXED), 0xff);
	assert_int_equal(pr_add_fetch(&b, 2, PR_RELAXED), 1);      /* wraps: 0x101 in 8 bits */
	assert_int_equal(pr_sub_fetch(&h, 1, PR_RELEASE), 0xffff);  /* 0 - 1 in 16 bits */
	assert_int_equal(pr_fetch_sub(&h, 0xfffe, PR_RELEASE), 0xffff);
	assert_int_equal(h, 1);
	assert_int_equal(pr_fetch_and(&w, ~0x10u, PR_RELAXED), 0xf0);
	assert_int_equal(pr_fetch_or(&w, 0x3u, PR_RELAXED), 0xe0);
	assert_int_equal(w, 0xe3);
	assert_int_equal(pr_add_fetch(&s, 3, PR_RELAXED), -2);     /* signed, through the sign */
	assert_int_equal(pr_sub_fetch(&s, -10, PR_RELAXED), 8);
	assert_int_equal(pr_fetch_add(&s, -9, PR_RELAXED), 8);
	assert_int_equal(s, -1);
	assert_true(pr_add_fetch(&d, 2, PR_SEQ_CST) == 1);
	assert_int_equal(fake.last_mo, PR_SEQ_CST);
}

/* ---- the locks, through the macros ---- */

static unsigned long fake_accesses(void)
{
	return fake.loads + fake.stores + fake.rmws + fake.cases;
}

/* Lock, trylock while held, unlock, trylock, unlock: each step through the fake. */
static void check_uncontended(const struct lock_ops *ops)
{
	void *lock = lock_new_standalone(ops);
	struct lock_thread *a = lock_thread_new_standalone(ops, lock, 0);
	struct lock_thread *b = lock_thread_new_standalone(ops, lock, 1);
	unsigned long before = fake_accesses();

	assert_false(ops->lock(lock, a));
	assert_true(fake_accesses() > before);
	before = fake_accesses();
	assert_false(ops->trylock(lock, b));
	assert_true(fake_accesses() > before);
	before = fake_accesses();
	ops->unlock(lock, a);
	assert_true(fake_accesses() > before);
	assert_true(ops->trylock(lock, b));
	ops->unlock(lock, b);
	assert_int_equal(fake.futex_waits + fake.futex_wakes, 0);
	assert_int_equal(fake.native_writes, 0);
	assert_int_equal(a->ev.unlock_window_cycles + b->ev.unlock_window_cycles, 0);
	free(a);
	free(b);
	lock_free_standalone(ops, lock);
}

static struct {
	const struct lock_ops *ops;
	void *lock;
	struct lock_thread *owner;
} held;

static void release_held(void)
{
	held.ops->unlock(held.lock, held.owner);
}

/* A holds it; B's lock() must wait, sleep once, be woken by A's unlock
 * (run from inside B's futex wait), and then hold the lock. */
static void check_contended(const struct lock_ops *ops)
{
	void *lock = lock_new_standalone(ops);
	struct lock_thread *a = lock_thread_new_standalone(ops, lock, 0);
	struct lock_thread *b = lock_thread_new_standalone(ops, lock, 1);
	struct lock_thread *c = lock_thread_new_standalone(ops, lock, 2);

	memset(&fake, 0, sizeof(fake));
	assert_false(ops->lock(lock, a));
	held.ops = ops;
	held.lock = lock;
	held.owner = a;
	fake.on_wait = release_held;
	assert_true(ops->lock(lock, b));
	assert_null(fake.on_wait);
	assert_int_equal(fake.futex_wakes, 1);
	assert_false(ops->trylock(lock, c));  /* B holds it */
	ops->unlock(lock, b);
	assert_true(ops->trylock(lock, c));
	ops->unlock(lock, c);
	assert_int_equal(fake.native_writes, 0);
	if (ops->flags & LOCK_F_PHASES) {
		assert_int_equal(b->ev.acq_sleep, 1);
		assert_int_equal(b->ev.futex_waits, 1);
		assert_int_equal(a->ev.futex_wakes, 1);
	}
	if (ops->options == kmutex_options) {
		/* A's unlock took wait_lock once, uncontended: one clock step
		 * from its failed release to holding it. */
		assert_int_equal(a->ev.unlock_slow, 1);
		assert_int_equal(a->ev.unlock_window_cycles, FAKE_CLOCK_STEP);
	}
	free(a);
	free(b);
	free(c);
	lock_free_standalone(ops, lock);
}

static void test_spinlocks(void **state)
{
	const struct lock_ops *spinlocks[] = { &sim_ops_tas, &sim_ops_ttas, &sim_ops_ticket, &sim_ops_mcs };

	(void)state;
	for (size_t i = 0; i < sizeof(spinlocks) / sizeof(spinlocks[0]); i++) {
		memset(&fake, 0, sizeof(fake));
		check_uncontended(spinlocks[i]);
	}
}

static void test_futex(void **state)
{
	(void)state;
	memset(&fake, 0, sizeof(fake));
	check_uncontended(&sim_ops_futex);
	check_contended(&sim_ops_futex);
}

static const struct lock_ops *const kmutexes[] = {
	&sim_ops_kmutex_sleep, &sim_ops_kmutex_spin, &sim_ops_kmutex_fix,
	&sim_ops_kmutex_mcs, &sim_ops_kmutex_osq, &sim_ops_kmutex_handoff,
};

static void test_kmutex_models(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(kmutexes) / sizeof(kmutexes[0]); i++) {
		memset(&fake, 0, sizeof(fake));
		check_uncontended(kmutexes[i]);
		check_contended(kmutexes[i]);
	}
}

/* The spinning models spin on a running owner until the budget, read on
 * the fake clock: pr_clock_past() is how their spin ends. */
static void test_kmutex_spin_ends_on_sim_clock(void **state)
{
	(void)state;
	for (size_t i = 1; i < sizeof(kmutexes) / sizeof(kmutexes[0]); i++) {
		void *lock = lock_new_standalone(kmutexes[i]);
		struct lock_thread *a = lock_thread_new_standalone(kmutexes[i], lock, 0);
		struct lock_thread *b = lock_thread_new_standalone(kmutexes[i], lock, 1);

		memset(&fake, 0, sizeof(fake));
		assert_false(kmutexes[i]->lock(lock, a));
		held.ops = kmutexes[i];
		held.lock = lock;
		held.owner = a;
		fake.on_wait = release_held;
		assert_true(kmutexes[i]->lock(lock, b));
		assert_int_equal(b->ev.spin_exit[SPIN_EXIT_BUDGET], 1);
		assert_true(fake.now >= ORACLE_USERSPACE_SPIN_BUDGET);
		assert_true(fake.relaxes > 0);
		kmutexes[i]->unlock(lock, b);
		free(a);
		free(b);
		lock_free_standalone(kmutexes[i], lock);
	}
}

/* The count as 1 - count (KM_COUNT_*) before each "once more"; the xchg
 * it makes, and whether it takes the lock. */
static void check_once_more(const char *name, const struct lock_ops *ops, bool tries_nonneg)
{
	static const struct {
		uint32_t state;
		bool nonneg;  /* count >= 0 */
	} counts[] = { { KM_COUNT_FREE, true }, { KM_COUNT_LOCKED, true }, { KM_COUNT_CONTENDED, false } };

	for (size_t i = 0; i < sizeof(counts) / sizeof(counts[0]); i++) {
		struct kmutex *l = lock_new_standalone(ops);
		unsigned long rmws;
		bool taken;

		l->state = counts[i].state;
		memset(&fake, 0, sizeof(fake));
		taken = km_try_before_queueing(l);
		rmws = fake.rmws;
		if (rmws != (tries_nonneg && counts[i].nonneg ? 1u : 0u))
			print_error("%s: count %d: %lu xchg\n", name, 1 - (int)counts[i].state, rmws);
		assert_int_equal(rmws, tries_nonneg && counts[i].nonneg ? 1 : 0);
		assert_true(taken == (rmws && counts[i].state == KM_COUNT_FREE));
		lock_free_standalone(ops, l);
	}
}

/* 3.12-3.16 try "once more" whenever the count reads >= 0 (an xchg(count,
 * 0) on a held, unmarked lock too); 2.6.x never before joining the list. */
static void test_kmutex_once_more(void **state)
{
	(void)state;
	check_once_more("kmutex-spin", &sim_ops_kmutex_spin, false);
	check_once_more("kmutex-fix", &sim_ops_kmutex_fix, false);
	check_once_more("kmutex-mcs", &sim_ops_kmutex_mcs, true);
	check_once_more("kmutex-osq", &sim_ops_kmutex_osq, true);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_moves_every_size),
		cmocka_unit_test(test_cas_writes_back_only_its_size),
		cmocka_unit_test(test_fetch_ops_wrap_in_type),
		cmocka_unit_test(test_spinlocks),
		cmocka_unit_test(test_futex),
		cmocka_unit_test(test_kmutex_models),
		cmocka_unit_test(test_kmutex_spin_ends_on_sim_clock),
		cmocka_unit_test(test_kmutex_once_more),
	};

	alarm(60);  /* a lock that slept natively would never return */
	return cmocka_run_group_tests(tests, NULL, NULL);
}
