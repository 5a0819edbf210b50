/*
 * pthread, pthread-adaptive — glibc's mutex, as applications get it.
 *
 * `pthread` is PTHREAD_MUTEX_NORMAL (glibc's default: one CAS, then futex
 * sleep).  `pthread-adaptive` is PTHREAD_MUTEX_ADAPTIVE_NP: a bounded spin of
 * trylocks (glibc's tunable glibc.mutex.spin_count, default 100) whose length
 * adapts to recent history, then the same futex sleep.  Both are one lock
 * algorithm in glibc with a type switch, so both live in this file.
 *
 * Contention is detected with a trylock first: glibc's lock() does not say
 * whether it had to wait.
 */
#include <errno.h>
#include <pthread.h>

#include "lock.h"

struct pthread_lock {
	pthread_mutex_t mutex;
} cacheline_aligned;

static int pthread_lock_init_type(void *lock, int type)
{
	struct pthread_lock *l = lock;
	pthread_mutexattr_t attr;
	int err = pthread_mutexattr_init(&attr);

	if (err)
		return -err;
	err = pthread_mutexattr_settype(&attr, type);
	if (!err)
		err = pthread_mutex_init(&l->mutex, &attr);
	pthread_mutexattr_destroy(&attr);
	return -err;
}

static int pthread_normal_init(void *lock, const struct lock_params *params)
{
	(void)params;
	return pthread_lock_init_type(lock, PTHREAD_MUTEX_NORMAL);
}

static int pthread_adaptive_init(void *lock, const struct lock_params *params)
{
	(void)params;
	return pthread_lock_init_type(lock, PTHREAD_MUTEX_ADAPTIVE_NP);
}

static void pthread_lock_destroy(void *lock)
{
	struct pthread_lock *l = lock;

	pthread_mutex_destroy(&l->mutex);
}

static bool pthread_lock_lock(void *lock, struct lock_thread *self)
{
	struct pthread_lock *l = lock;

	(void)self;
	if (pthread_mutex_trylock(&l->mutex) == 0)
		return false;
	pthread_mutex_lock(&l->mutex);
	return true;
}

static void pthread_lock_unlock(void *lock, struct lock_thread *self)
{
	struct pthread_lock *l = lock;

	(void)self;
	pthread_mutex_unlock(&l->mutex);
}

static bool pthread_lock_trylock(void *lock, struct lock_thread *self)
{
	struct pthread_lock *l = lock;

	(void)self;
	return pthread_mutex_trylock(&l->mutex) == 0;
}

const struct lock_ops lock_ops_pthread = {
	.name = "pthread",
	.description = "glibc pthread_mutex_t, default (normal) type: CAS, then futex sleep",
	.size = sizeof(struct pthread_lock),
	.flags = LOCK_F_SLEEPS,
	.init = pthread_normal_init,
	.destroy = pthread_lock_destroy,
	.lock = pthread_lock_lock,
	.unlock = pthread_lock_unlock,
	.trylock = pthread_lock_trylock,
};

const struct lock_ops lock_ops_pthread_adaptive = {
	.name = "pthread-adaptive",
	.description = "glibc PTHREAD_MUTEX_ADAPTIVE_NP: bounded adaptive trylock spin, then futex sleep",
	.size = sizeof(struct pthread_lock),
	.flags = LOCK_F_SLEEPS,
	.init = pthread_adaptive_init,
	.destroy = pthread_lock_destroy,
	.lock = pthread_lock_lock,
	.unlock = pthread_lock_unlock,
	.trylock = pthread_lock_trylock,
};
