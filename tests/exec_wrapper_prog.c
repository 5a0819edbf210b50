/*
 * exec_wrapper_prog.c — a pthread program that locks through its own lock
 * wrappers, as servers do (leveldb's port::Mutex::Lock, a CondVar::Wait),
 * for tests/exec-sites.t: mutexes.csv must name each wrapper's caller as
 * the site and the wrapper apart.  Built -O2 without frame pointers and
 * with its symbols exported (-rdynamic), so that a stripped copy still
 * names its functions by the dynamic symbol table.  It knows nothing of
 * lockbench; it prints each mutex's address ("NAME ADDRESS") and exits 0
 * when every count is exact.
 *
 *   wrapped  two threads add to a total through add_wrapped(), which locks
 *            with mutex_lock() (the wrapper: lock, test, return)
 *   direct   the same through add_direct(), which calls pthread_mutex_lock
 *            itself: its own site, no wrapper
 *   queue    a producer and two consumers, each locking with mutex_lock()
 *            and the consumers waiting with cond_wait() (the condvar's
 *            wrapper), in produce() and consume(); a broadcast wakes both,
 *            so their re-locks inside the wait contend too
 *   inited   the last of the mutexes init_locks() initializes in a loop,
 *            then locked once: its site is the init call, which returns
 *            straight to init_locks()'s end, yet init_locks() is no lock
 *            wrapper (it returns holding nothing)
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ROUNDS 100000
#define ITEMS 20000

/* Out of line and never cloned (a clone is named NAME.constprop.0). */
#ifdef __clang__
#define OWN_FRAME __attribute__((noinline))
#else
#define OWN_FRAME __attribute__((noipa))
#endif

static pthread_mutex_t wrapped_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t direct_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t queue_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t queue_cond = PTHREAD_COND_INITIALIZER;
static pthread_mutex_t inited[4];
static long wrapped_total, direct_total, queued, consumed;

static void fail(const char *what, int rc)
{
	fprintf(stderr, "FAIL %s: %s\n", what, strerror(rc));
	exit(1);
}

/* The wrappers: the call, its result checked, nothing else. */
OWN_FRAME void mutex_lock(pthread_mutex_t *m)
{
	int rc = pthread_mutex_lock(m);

	if (rc)
		fail("pthread_mutex_lock", rc);
}

OWN_FRAME void mutex_unlock(pthread_mutex_t *m)
{
	int rc = pthread_mutex_unlock(m);

	if (rc)
		fail("pthread_mutex_unlock", rc);
}

OWN_FRAME void cond_wait(pthread_cond_t *c, pthread_mutex_t *m)
{
	int rc = pthread_cond_wait(c, m);

	if (rc)
		fail("pthread_cond_wait", rc);
}

/* The critical sections: the sites. */
OWN_FRAME void add_wrapped(void)
{
	mutex_lock(&wrapped_lock);
	wrapped_total++;
	mutex_unlock(&wrapped_lock);
}

OWN_FRAME void add_direct(void)
{
	int rc = pthread_mutex_lock(&direct_lock);

	if (rc)
		fail("pthread_mutex_lock", rc);
	direct_total++;
	pthread_mutex_unlock(&direct_lock);
}

OWN_FRAME void produce(void)
{
	mutex_lock(&queue_lock);
	queued++;
	pthread_cond_broadcast(&queue_cond);
	mutex_unlock(&queue_lock);
}

OWN_FRAME void consume(void)
{
	mutex_lock(&queue_lock);
	while (queued == 0)
		cond_wait(&queue_cond, &queue_lock);
	queued--;
	consumed++;
	mutex_unlock(&queue_lock);
}

OWN_FRAME void init_locks(void)
{
	for (int i = 0; i < 4; i++)
		pthread_mutex_init(&inited[i], NULL);
}

static void *adder(void *arg)
{
	(void)arg;
	for (int i = 0; i < ROUNDS; i++) {
		add_wrapped();
		add_direct();
	}
	return NULL;
}

static void *consumer(void *arg)
{
	(void)arg;
	for (int i = 0; i < ITEMS / 2; i++)
		consume();
	return NULL;
}

int main(void)
{
	pthread_t t[4];
	int rc;

	printf("wrapped %p\ndirect %p\nqueue %p\ninited %p\n", (void *)&wrapped_lock, (void *)&direct_lock,
	       (void *)&queue_lock, (void *)&inited[3]);
	fflush(stdout);
	init_locks();
	pthread_mutex_lock(&inited[3]);
	pthread_mutex_unlock(&inited[3]);
	for (int i = 0; i < 4; i++)
		if ((rc = pthread_create(&t[i], NULL, i < 2 ? adder : consumer, NULL)))
			fail("pthread_create", rc);
	for (int i = 0; i < ITEMS; i++)
		produce();
	for (int i = 0; i < 4; i++)
		if ((rc = pthread_join(t[i], NULL)))
			fail("pthread_join", rc);
	if (wrapped_total != 2L * ROUNDS || direct_total != 2L * ROUNDS || consumed != ITEMS) {
		fprintf(stderr, "FAIL totals %ld %ld %ld\n", wrapped_total, direct_total, consumed);
		return 1;
	}
	printf("ok\n");
	return 0;
}
