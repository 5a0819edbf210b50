/*
 * exec_floor.c — make bench's floor for lockbench --exec's interposer
 * (scripts/exec-bench.sh): a preloaded library whose pthread_mutex_lock and
 * pthread_mutex_unlock are the registry lock LOCKBENCH_EXEC_LOCK and nothing
 * else.  The lock's state is found through a pointer in the mutex's first
 * word, the thread's node through initial-exec TLS; no kinds, no checks, no
 * counts, no timing.  What is left is what any interposer pays to reach a
 * lock from a program's call (the PLT's jump, the two loads), so
 * `exec_cost program` under it against `exec_cost direct LOCK` is the
 * least a library can cost; under liblockbench-exec.so, what ours adds.
 *
 * For exec_cost's one static, zeroed mutex locked by one thread only: a
 * lock is made on its first lock and never freed, LOCK_F_HOLDS_THREAD locks
 * get the thread's one node (never nested here), and every other
 * pthread_mutex_* call, and every other kind, is glibc's.
 *
 * With LOCKBENCH_EXEC_LOCK unset, lock and unlock are glibc's, called
 * through the pointer dlsym found: the thinnest interposer there is, which
 * exec-bench.sh runs sysbench under (any program, any number of threads)
 * beside liblockbench-exec.so passing everything through.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "../bench/exec/preload.h"
#include "../locks/standalone.h"

static const struct lock_ops *floor_ops;
static __thread struct lock_thread *floor_node __attribute__((tls_model("initial-exec")));

__attribute__((constructor)) static void floor_setup(void)
{
	const char *name = getenv("LOCKBENCH_EXEC_LOCK");

	px_real_resolve();
	if (!name)
		return;
	floor_ops = lock_find(name);
	if (!floor_ops) {
		fprintf(stderr, "exec_floor: LOCKBENCH_EXEC_LOCK names no lock\n");
		exit(127);
	}
}

/* m's lock, made on its first use (one thread: no race to settle). */
static void * __attribute__((noinline)) floor_start(pthread_mutex_t *m)
{
	void *lock = lock_new_standalone(floor_ops);

	*(void **)(void *)m = lock;
	floor_node = lock_thread_new_standalone(floor_ops, lock, 0);
	return lock;
}

PX_EXPORT int pthread_mutex_lock(pthread_mutex_t *m)
{
	const struct lock_ops *ops = floor_ops;
	void *lock;

	if (__builtin_expect(ops == NULL, 0))
		return px_real.lock(m);
	lock = *(void **)(void *)m;
	if (__builtin_expect(lock == NULL, 0))
		lock = floor_start(m);
	ops->lock(lock, floor_node);
	return 0;
}

PX_EXPORT int pthread_mutex_unlock(pthread_mutex_t *m)
{
	const struct lock_ops *ops = floor_ops;

	if (__builtin_expect(ops == NULL, 0))
		return px_real.unlock(m);
	ops->unlock(*(void **)(void *)m, floor_node);
	return 0;
}
