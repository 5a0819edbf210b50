/*
 * counter — the smallest contended workload: lock; read the shared counter,
 * do --cs cycles of work, write it back plus one; unlock; --think cycles of
 * work.  The read and the write are separated by the critical-section work,
 * so any two threads inside at once lose an update, and after the join the
 * counter must equal the number of operations done.
 */
#include <inttypes.h>
#include <stdio.h>

#include "workload.h"

struct counter_shared {
	uint64_t value;
} cacheline_aligned;

/*
 * Under a real lock the counter is a plain variable, so ThreadSanitizer checks
 * each lock's acquire/release ordering through it.  Under `none` the same
 * lost-update window is made of relaxed atomics: racy by design, but defined.
 */
static void counter_bump(struct bench_thread *t, struct counter_shared *c)
{
	uint64_t v;

	if (t->lock_ops->flags & LOCK_F_NO_EXCLUSION) {
		v = __atomic_load_n(&c->value, __ATOMIC_RELAXED);
		busy_loops(t->cs_loops);
		__atomic_store_n(&c->value, v + 1, __ATOMIC_RELAXED);
		return;
	}
	v = c->value;
	busy_loops(t->cs_loops);
	c->value = v + 1;
}

static int counter_op(struct bench_thread *t)
{
	bench_lock(t);
	counter_bump(t, t->wl_shared);
	bench_unlock(t);
	return 0;
}

static int counter_verify(void *shared, uint64_t ops_all, char *err, size_t errlen)
{
	const struct counter_shared *c = shared;

	if (c->value == ops_all)
		return 0;
	snprintf(err, errlen,
		 "counter invariant FAILED: counter is %" PRIu64 " after %" PRIu64
		 " operations (%" PRId64 " lost): the lock did not exclude",
		 c->value, ops_all, (int64_t)(ops_all - c->value));
	return -1;
}

const struct workload_ops workload_ops_counter = {
	.name = "counter",
	.description = "lock; read, --cs work, write back counter+1; unlock; --think work",
	.unit = "ops",
	.shared_size = sizeof(struct counter_shared),
	.op = counter_op,
	.verify = counter_verify,
};
