/*
 * none — takes no lock at all.  Timed like any lock, it measures the harness's
 * own cost per acquisition (two TSC reads, an indirect call, the histogram
 * update); run by the mutual-exclusion tests, it must lose updates, which is
 * what proves those tests can fail.
 */
#include "lock.h"

static int none_init(void *lock, const struct lock_params *params)
{
	(void)lock;
	(void)params;
	return 0;
}

static void none_destroy(void *lock)
{
	(void)lock;
}

static bool none_lock(void *lock, struct lock_thread *self)
{
	(void)lock;
	(void)self;
	return false;
}

static void none_unlock(void *lock, struct lock_thread *self)
{
	(void)lock;
	(void)self;
}

static bool none_trylock(void *lock, struct lock_thread *self)
{
	(void)lock;
	(void)self;
	return true;
}

const struct lock_ops lock_ops_none = {
	.name = "none",
	.description = "no lock at all: measures the harness's timing overhead; loses updates",
	.size = CACHELINE,
	.flags = LOCK_F_NO_EXCLUSION,
	.init = none_init,
	.destroy = none_destroy,
	.lock = none_lock,
	.unlock = none_unlock,
	.trylock = none_trylock,
};
