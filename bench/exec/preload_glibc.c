/*
 * preload_glibc.c — glibc's own mutex calls, found next after the preloaded
 * library (dlsym RTLD_NEXT): for the mutexes it passes through, and for the
 * registry's `pthread` locks, whose copy in the library calls these in
 * place of pthread_mutex_* (the Makefile renames them).  Its own file so
 * that make bench's floor library (scripts/exec_floor.c) links it too.
 */
#define _GNU_SOURCE
#include <dlfcn.h>

#include "preload.h"

struct px_real px_real;
void px_real_resolve(void)
{
	px_real.init = (int (*)(pthread_mutex_t *, const pthread_mutexattr_t *))dlsym(RTLD_NEXT, "pthread_mutex_init");
	px_real.destroy = (int (*)(pthread_mutex_t *))dlsym(RTLD_NEXT, "pthread_mutex_destroy");
	px_real.lock = (int (*)(pthread_mutex_t *))dlsym(RTLD_NEXT, "pthread_mutex_lock");
	px_real.trylock = (int (*)(pthread_mutex_t *))dlsym(RTLD_NEXT, "pthread_mutex_trylock");
	px_real.unlock = (int (*)(pthread_mutex_t *))dlsym(RTLD_NEXT, "pthread_mutex_unlock");
	px_real.timedlock = (int (*)(pthread_mutex_t *, const struct timespec *))
		dlsym(RTLD_NEXT, "pthread_mutex_timedlock");
	px_real.clocklock = (int (*)(pthread_mutex_t *, clockid_t, const struct timespec *))
		dlsym(RTLD_NEXT, "pthread_mutex_clocklock");
}

/* glibc's own mutex, for the `pthread` locks' copy in this library (the
 * Makefile renames their pthread_mutex_* calls to these): through the
 * pointers dlsym found next after this library, never the interposed
 * calls, nor a sanitizer's interceptor of glibc's internal names. */
int px_glibc_mutex_init(pthread_mutex_t *m, const pthread_mutexattr_t *attr)
{
	px_real_ready();
	return px_real.init(m, attr);
}

int px_glibc_mutex_destroy(pthread_mutex_t *m)
{
	px_real_ready();
	return px_real.destroy(m);
}

int px_glibc_mutex_lock(pthread_mutex_t *m)
{
	return px_real.lock(m);
}

int px_glibc_mutex_trylock(pthread_mutex_t *m)
{
	return px_real.trylock(m);
}

int px_glibc_mutex_unlock(pthread_mutex_t *m)
{
	return px_real.unlock(m);
}
