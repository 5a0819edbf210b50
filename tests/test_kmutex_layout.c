/*
 * test_kmutex_layout.c — the kmutex's `--lock-opt layout=` (locks/kmutex.c),
 * and its `wait-lock=` (the wait_lock: kmutex_wait.c):
 * - layout=kernel puts the lock word, the owner, the spinner-queue tail,
 *   wait_lock and the wait list on one cache line, as struct mutex has
 *   them; layout=lines (the default) keeps the tail and the wait list each
 *   on a line of its own, apart from the owner word's;
 * - every kmutex model still excludes with either layout (a plain counter,
 *   threads oversubscribed), and says which layout it ran with;
 * - an unknown layout is refused with one line naming the valid ones;
 * - natively wait-lock=auto is tas-yield; every model excludes with each
 *   wait_lock and says which it ran with; an unknown one is one line (the
 *   ticket's FIFO order and the simulator's default: test_sim_waitlock.c).
 * White-box: it reads struct kmutex (locks/kmutex_internal.h).
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "kmutex_util.h"
#include "lockutil.h"
#include "../locks/kmutex_internal.h"

#define LAYOUT_THREADS 4
#define LAYOUT_OPS_PER_THREAD 20000

static const char *const models[] = {
	"kmutex-sleep", "kmutex-spin", "kmutex-fix", "kmutex-mcs", "kmutex-osq", "kmutex-handoff",
};
#define NMODELS (sizeof(models) / sizeof(models[0]))

/* A kmutex with --lock-opt key=value (value NULL: the default). */
static struct kmutex *kmutex_with(const struct lock_ops *ops, const char *key, const char *value)
{
	size_t size = ALIGN_UP(ops->size, CACHELINE_PAIR);
	void *lock = aligned_alloc(CACHELINE_PAIR, size);
	struct lock_params params = { 0 };

	assert_non_null(lock);
	if (value)
		test_lock_opt(ops, &params, key, value);
	memset(lock, 0, size);
	assert_int_equal(ops->init(lock, &params), 0);
	return lock;
}

static struct kmutex *kmutex_with_layout(const struct lock_ops *ops, const char *layout)
{
	return kmutex_with(ops, "layout", layout);
}

static uintptr_t line_of(const volatile void *p)
{
	return (uintptr_t)p / CACHELINE;
}

static void test_kernel_layout_is_one_line(void **state)
{
	(void)state;
	for (size_t i = 0; i < NMODELS; i++) {
		struct kmutex *l = kmutex_with_layout(find(models[i]), "kernel");
		uintptr_t line = line_of(&l->state);

		assert_true(line_of(&l->owner) == line);
		assert_true(line_of(&l->queue->tail) == line);
		assert_true(line_of(&l->wait->lock) == line);
		assert_true(line_of(&l->wait->first) == line && line_of(&l->wait->last) == line);
		free(l);
	}
}

static void test_lines_layout_is_three_lines(void **state)
{
	(void)state;
	for (size_t i = 0; i < NMODELS; i++) {
		struct kmutex *l = kmutex_with_layout(find(models[i]), NULL);
		uintptr_t word = line_of(&l->state), tail = line_of(&l->queue->tail), wait = line_of(&l->wait->lock);

		assert_true(line_of(&l->owner) == word);
		assert_true(tail != word && wait != word && wait != tail);
		assert_true(line_of(&l->wait->last) == wait);
		free(l);
	}
}

struct counter_run {
	const struct lock_ops *ops;
	void *lock;
	uint64_t counter;  /* plain: only the lock protects it */
	unsigned int next_id;
	/* Freed after every thread is joined: the lock's owner hint may still
	 * point into a finished thread's run-state, which a spinner reads. */
	struct lock_thread *self[LAYOUT_THREADS];
};

static void *count_main(void *arg)
{
	struct counter_run *r = arg;
	unsigned int id = __atomic_fetch_add(&r->next_id, 1, __ATOMIC_RELAXED);
	struct lock_thread *self = lock_thread_new_standalone(r->ops, r->lock, id);

	r->self[id] = self;
	for (int i = 0; i < LAYOUT_OPS_PER_THREAD; i++) {
		r->ops->lock(r->lock, self);
		r->counter++;
		r->ops->unlock(r->lock, self);
	}
	return NULL;
}

/* settings_figures' value of `key` (a figure's name, the option's with _). */
struct shown {
	const char *key;
	char value[16];
};

static void put_shown(void *ctx, const char *key, const char *value)
{
	struct shown *sh = ctx;

	if (strcmp(key, sh->key) == 0)
		snprintf(sh->value, sizeof(sh->value), "%s", value);
}

/* Each model with each value of option `key`: no update lost, and the
 * figure `figure` says shown_as[j]. */
static void every_value_excludes(const char *key, const char *figure, const char *const *values,
				 const char *const *shown_as, size_t nvalues)
{
	for (size_t i = 0; i < NMODELS; i++)
		for (size_t j = 0; j < nvalues; j++) {
			const struct lock_ops *ops = find(models[i]);
			struct counter_run r = { .ops = ops, .lock = kmutex_with(ops, key, values[j]) };
			struct lock_params params = { 0 };
			pthread_t tid[LAYOUT_THREADS];
			struct shown shown = { figure, "" };

			for (int t = 0; t < LAYOUT_THREADS; t++)
				assert_int_equal(pthread_create(&tid[t], NULL, count_main, &r), 0);
			for (int t = 0; t < LAYOUT_THREADS; t++)
				assert_int_equal(pthread_join(tid[t], NULL), 0);
			for (int t = 0; t < LAYOUT_THREADS; t++)
				free(r.self[t]);
			assert_int_equal(r.counter, (uint64_t)LAYOUT_THREADS * LAYOUT_OPS_PER_THREAD);
			test_lock_opt(ops, &params, key, values[j]);
			ops->settings_figures(&params.settings, put_shown, &shown);
			assert_string_equal(shown.value, shown_as[j]);
			free(r.lock);
		}
}

static void test_every_layout_excludes(void **state)
{
	const char *const layouts[] = { "lines", "kernel" };

	(void)state;
	every_value_excludes("layout", "layout", layouts, layouts, 2);
}

/* A value refused with one line that names the valid ones. */
static void refused(const char *key, const char *value, const char *says, const char *valid)
{
	const struct lock_ops *ops = find("kmutex-fix");
	const struct option_def *o = lock_option_find(ops, key, strlen(key));
	struct lock_params params = { 0 };
	char err[256] = "";

	assert_non_null(o);
	assert_int_equal(o->set(params.settings.bytes, value, err, sizeof(err)), -1);
	assert_non_null(strstr(err, says));
	assert_non_null(strstr(err, valid));
	assert_null(strchr(err, '\n'));
}

static void test_unknown_layout_refused(void **state)
{
	(void)state;
	refused("layout", "Kernel", "unknown layout 'Kernel'", "lines kernel");
}

/* A userspace holder can be preempted: auto is tas-yield natively. */
static void test_native_wait_lock_default_is_tas_yield(void **state)
{
	(void)state;
	for (size_t i = 0; i < NMODELS; i++) {
		struct kmutex *dflt = kmutex_with(find(models[i]), "wait-lock", NULL);
		struct kmutex *ticket = kmutex_with(find(models[i]), "wait-lock", "ticket");

		assert_false(dflt->wait_ticket);
		assert_true(ticket->wait_ticket);
		free(dflt);
		free(ticket);
	}
}

static void test_every_wait_lock_excludes(void **state)
{
	const char *const kinds[] = { "tas-yield", "ticket", "auto" };
	const char *const shown_as[] = { "tas-yield", "ticket", "tas-yield" };

	(void)state;
	every_value_excludes("wait-lock", "wait_lock", kinds, shown_as, 3);
}

static void test_unknown_wait_lock_refused(void **state)
{
	(void)state;
	refused("wait-lock", "tickets", "unknown wait-lock 'tickets'", "auto tas-yield ticket");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kernel_layout_is_one_line),
		cmocka_unit_test(test_lines_layout_is_three_lines),
		cmocka_unit_test(test_every_layout_excludes),
		cmocka_unit_test(test_unknown_layout_refused),
		cmocka_unit_test(test_native_wait_lock_default_is_tas_yield),
		cmocka_unit_test(test_every_wait_lock_excludes),
		cmocka_unit_test(test_unknown_wait_lock_refused),
	};

	alarm(TEST_ALARM_S);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
