/*
 * exec_prog.c — an ordinary pthread program for tests/exec.t to run under
 * lockbench's preloaded library (LD_PRELOAD=liblockbench-exec.so) with every
 * lock it accepts.  It knows nothing of lockbench: each case checks its own
 * results exactly (a lost update, a missed wake-up or a wrong error code
 * exits 1 with one line), and it tallies the lock() calls it made on
 * normal mutexes (pthread_mutex_lock, and the re-lock inside each
 * pthread_cond_*wait) and the passed-through ones, which exec.t compares
 * with what the library counted.
 *
 *   exec_prog [-q] CASE...   cases: counter prodcons trylock timed static
 *                       recursive fork threads reuse, or all; and apart
 *                       (not in all): destroy, a destroyed mutex's count
 *                       ("destroyed_lock ADDRESS N", and "next_lock
 *                       ADDRESS 1" of the one made after it); affinity,
 *                       each thread's CPU affinity printed ("affinity I
 *                       CPUS", I in creation order, 0 the main thread),
 *                       and fpos, threads that
 *                       read() one shared descriptor and so meet on the
 *                       kernel's f_pos_lock mutex; -q: 1/100th
 *                       of the counter's and the queue's rounds (the FIFO
 *                       spinlocks, oversubscribed, hand over a time slice
 *                       per acquisition)
 *
 * Prints "counter_lock ADDRESS N" (the lock() calls on the counter's mutex,
 * all of them from threads that have exited by then), "pid N", "lock_calls
 * N" and "passthrough_calls N" last.  An alarm of 120 s
 * ends a hung run (a lost wake-up) with SIGALRM.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "exec_expect.h"

static uint64_t lock_calls, passthrough_calls;  /* atomics: tallied by every thread */
static uint64_t counter_lock_calls;             /* of lock_calls, those on counter_lock */
static pthread_mutex_t counter_lock = PTHREAD_MUTEX_INITIALIZER;

static void tally(uint64_t *counter, uint64_t n)
{
	__atomic_fetch_add(counter, n, __ATOMIC_RELAXED);
}

static void lock(pthread_mutex_t *m)
{
	expect("pthread_mutex_lock", pthread_mutex_lock(m), 0);
	tally(&lock_calls, 1);
	if (m == &counter_lock)
		tally(&counter_lock_calls, 1);
}

static void unlock(pthread_mutex_t *m)
{
	expect("pthread_mutex_unlock", pthread_mutex_unlock(m), 0);
}

static pthread_t spawn(void *(*fn)(void *), void *arg)
{
	pthread_attr_t attr;
	pthread_t t;

	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 64 * 1024);
	expect("pthread_create", pthread_create(&t, &attr, fn, arg), 0);
	pthread_attr_destroy(&attr);
	return t;
}

/* ---- counter: a static PTHREAD_MUTEX_INITIALIZER, lazily started by
 * whichever thread gets there first ---- */

#define COUNTER_THREADS 4
static int counter_iters = 20000;  /* -q: 200 */
static pthread_mutex_t child_lock = PTHREAD_MUTEX_INITIALIZER;  /* fork's child's */
static long counter;

static void *counter_thread(void *arg)
{
	for (int i = 0; i < counter_iters; i++) {
		lock(arg);
		counter++;
		unlock(arg);
	}
	return NULL;
}

static void case_counter(pthread_mutex_t *m)
{
	pthread_t t[COUNTER_THREADS];

	counter = 0;
	for (int i = 0; i < COUNTER_THREADS; i++)
		t[i] = spawn(counter_thread, m);
	for (int i = 0; i < COUNTER_THREADS; i++)
		pthread_join(t[i], NULL);
	expect("counter", counter, (long)COUNTER_THREADS * counter_iters);
}

/* ---- prodcons: a bounded queue, two condvars, signal and broadcast ---- */

#define PC_SLOTS 4
static long pc_items = 5000;      /* -q: 20 */
#define PC_PRODUCERS 2
#define PC_CONSUMERS 3
static struct {
	pthread_mutex_t m;
	pthread_cond_t not_empty, not_full;
	long slot[PC_SLOTS];
	int head, count, producers_left;
	long consumed_sum, consumed_n;
} pc = { .m = PTHREAD_MUTEX_INITIALIZER, .not_empty = PTHREAD_COND_INITIALIZER,
	 .not_full = PTHREAD_COND_INITIALIZER };

static void pc_wait(pthread_cond_t *c)
{
	expect("pthread_cond_wait", pthread_cond_wait(c, &pc.m), 0);
	tally(&lock_calls, 1);
}

static void *producer(void *arg)
{
	long base = (long)(intptr_t)arg * pc_items;

	for (long i = 1; i <= pc_items; i++) {
		lock(&pc.m);
		while (pc.count == PC_SLOTS)
			pc_wait(&pc.not_full);
		pc.slot[(pc.head + pc.count++) % PC_SLOTS] = base + i;
		pthread_cond_signal(&pc.not_empty);
		unlock(&pc.m);
	}
	lock(&pc.m);
	if (--pc.producers_left == 0)
		pthread_cond_broadcast(&pc.not_empty);  /* the consumers may stop */
	unlock(&pc.m);
	return NULL;
}

static void *consumer(void *arg)
{
	(void)arg;
	for (;;) {
		long v;

		lock(&pc.m);
		while (pc.count == 0 && pc.producers_left)
			pc_wait(&pc.not_empty);
		if (pc.count == 0) {
			unlock(&pc.m);
			return NULL;
		}
		v = pc.slot[pc.head];
		pc.head = (pc.head + 1) % PC_SLOTS;
		pc.count--;
		pc.consumed_sum += v;
		pc.consumed_n++;
		pthread_cond_signal(&pc.not_full);
		unlock(&pc.m);
	}
}

static void case_prodcons(void)
{
	pthread_t t[PC_PRODUCERS + PC_CONSUMERS];
	long want = 0;

	pc.producers_left = PC_PRODUCERS;
	for (int i = 0; i < PC_CONSUMERS; i++)
		t[i] = spawn(consumer, NULL);
	for (int i = 0; i < PC_PRODUCERS; i++)
		t[PC_CONSUMERS + i] = spawn(producer, (void *)(intptr_t)i);
	for (int i = 0; i < PC_PRODUCERS + PC_CONSUMERS; i++)
		pthread_join(t[i], NULL);
	for (long p = 0; p < PC_PRODUCERS; p++)
		want += p * pc_items * pc_items + (long)pc_items * (pc_items + 1) / 2;
	expect("prodcons items", pc.consumed_n, (long)PC_PRODUCERS * pc_items);
	expect("prodcons sum", pc.consumed_sum, want);
}

/* ---- trylock and timed locks against a holder thread ---- */

static pthread_mutex_t held_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t gate_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t gate_cond = PTHREAD_COND_INITIALIZER;
static int gate;  /* 1: the holder holds held_lock; 2: it may let go */

static void gate_set(int v)
{
	lock(&gate_lock);
	gate = v;
	pthread_cond_broadcast(&gate_cond);
	unlock(&gate_lock);
}

static void gate_await(int v)
{
	lock(&gate_lock);
	while (gate != v) {
		expect("pthread_cond_wait", pthread_cond_wait(&gate_cond, &gate_lock), 0);
		tally(&lock_calls, 1);
	}
	unlock(&gate_lock);
}

static void *holder(void *arg)
{
	(void)arg;
	lock(&held_lock);
	gate_set(1);
	gate_await(2);
	unlock(&held_lock);
	return NULL;
}

static struct timespec deadline_in(clockid_t clk, long ms)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	ts.tv_nsec += ms * 1000000L;
	ts.tv_sec += ts.tv_nsec / 1000000000L;
	ts.tv_nsec %= 1000000000L;
	return ts;
}

static int past(clockid_t clk, const struct timespec *ts)
{
	struct timespec now;

	clock_gettime(clk, &now);
	return now.tv_sec > ts->tv_sec || (now.tv_sec == ts->tv_sec && now.tv_nsec >= ts->tv_nsec);
}

static void case_trylock_timed(int timed)
{
	pthread_t t;
	struct timespec ts;

	gate = 0;
	t = spawn(holder, NULL);
	gate_await(1);
	expect("trylock of a held mutex", pthread_mutex_trylock(&held_lock), EBUSY);
	if (timed) {
		ts = deadline_in(CLOCK_REALTIME, 30);
		expect("timedlock of a held mutex", pthread_mutex_timedlock(&held_lock, &ts), ETIMEDOUT);
		expect("timedlock returned after its deadline", past(CLOCK_REALTIME, &ts), 1);
		ts = deadline_in(CLOCK_MONOTONIC, 30);
		expect("clocklock of a held mutex", pthread_mutex_clocklock(&held_lock, CLOCK_MONOTONIC, &ts),
		       ETIMEDOUT);
		expect("clocklock returned after its deadline", past(CLOCK_MONOTONIC, &ts), 1);
		ts.tv_nsec = 1000000000L;
		expect("timedlock with a bad deadline", pthread_mutex_timedlock(&held_lock, &ts), EINVAL);
	}
	gate_set(2);
	pthread_join(t, NULL);
	if (timed) {
		ts = deadline_in(CLOCK_REALTIME, 10000);
		expect("timedlock of a free mutex", pthread_mutex_timedlock(&held_lock, &ts), 0);
	} else {
		expect("trylock of a free mutex", pthread_mutex_trylock(&held_lock), 0);
	}
	unlock(&held_lock);
}

/* A condvar wait that times out returns holding the mutex. */
static void *probe_trylock(void *arg)
{
	return (void *)(intptr_t)pthread_mutex_trylock(arg);
}

static void case_cond_timeout(void)
{
	pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
	pthread_cond_t c;
	pthread_condattr_t ca;
	struct timespec ts;
	void *rc;

	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	expect("pthread_cond_init", pthread_cond_init(&c, &ca), 0);
	lock(&m);
	ts = deadline_in(CLOCK_MONOTONIC, 20);
	expect("cond_timedwait (monotonic) times out", pthread_cond_timedwait(&c, &m, &ts), ETIMEDOUT);
	tally(&lock_calls, 1);
	expect("cond_timedwait returned after its deadline", past(CLOCK_MONOTONIC, &ts), 1);
	ts = deadline_in(CLOCK_REALTIME, 20);
	expect("cond_clockwait (realtime) times out", pthread_cond_clockwait(&c, &m, CLOCK_REALTIME, &ts),
	       ETIMEDOUT);
	tally(&lock_calls, 1);
	pthread_join(spawn(probe_trylock, &m), &rc);
	expect("the mutex is held after a timeout", (long)(intptr_t)rc, EBUSY);
	unlock(&m);
	expect("pthread_cond_destroy", pthread_cond_destroy(&c), 0);
	pthread_condattr_destroy(&ca);
	pthread_mutex_destroy(&m);
}

/* ---- static initializers and kinds glibc keeps ---- */

static pthread_mutex_t errcheck = PTHREAD_ERRORCHECK_MUTEX_INITIALIZER_NP;
static pthread_mutex_t recursive = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;

static void case_static(void)
{
	pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

	/* errorcheck is glibc's: a second lock by its owner is refused. */
	expect("errorcheck lock", pthread_mutex_lock(&errcheck), 0);
	expect("errorcheck relock", pthread_mutex_lock(&errcheck), EDEADLK);
	expect("errorcheck unlock", pthread_mutex_unlock(&errcheck), 0);
	expect("errorcheck unlock of a free mutex", pthread_mutex_unlock(&errcheck), EPERM);
	tally(&passthrough_calls, 2);
	lock(&m);
	expect("trylock of an initializer-started mutex held", pthread_mutex_trylock(&m), EBUSY);
	unlock(&m);
	pthread_mutex_destroy(&m);
}

/* ---- recursive: glibc's, in threads and under a condvar ---- */

#define REC_THREADS 3
#define REC_ITERS 3000
static long rec_count;

static void *recursive_thread(void *arg)
{
	(void)arg;
	for (int i = 0; i < REC_ITERS; i++) {
		expect("recursive lock", pthread_mutex_lock(&recursive), 0);
		expect("recursive relock", pthread_mutex_lock(&recursive), 0);
		rec_count++;
		pthread_mutex_unlock(&recursive);
		pthread_mutex_unlock(&recursive);
	}
	tally(&passthrough_calls, 2 * REC_ITERS);
	return NULL;
}

static void case_recursive(void)
{
	pthread_t t[REC_THREADS];
	pthread_mutexattr_t a;
	pthread_mutex_t m;
	pthread_cond_t c = PTHREAD_COND_INITIALIZER;
	struct timespec ts;

	rec_count = 0;
	for (int i = 0; i < REC_THREADS; i++)
		t[i] = spawn(recursive_thread, NULL);
	for (int i = 0; i < REC_THREADS; i++)
		pthread_join(t[i], NULL);
	expect("recursive count", rec_count, (long)REC_THREADS * REC_ITERS);
	/* pthread_mutex_init with a recursive attribute: passed through too. */
	pthread_mutexattr_init(&a);
	pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
	expect("init recursive", pthread_mutex_init(&m, &a), 0);
	expect("lock recursive", pthread_mutex_lock(&m), 0);
	ts = deadline_in(CLOCK_REALTIME, 10);
	expect("cond_timedwait on a recursive mutex", pthread_cond_timedwait(&c, &m, &ts), ETIMEDOUT);
	expect("unlock recursive", pthread_mutex_unlock(&m), 0);
	tally(&passthrough_calls, 2);
	pthread_mutex_destroy(&m);
	pthread_mutexattr_destroy(&a);
}

/* ---- fork from a threaded program ---- */

static volatile int spinning_stop;

static void *busy_locker(void *arg)
{
	long n = 0;

	(void)arg;
	while (!__atomic_load_n(&spinning_stop, __ATOMIC_RELAXED)) {
		lock(&counter_lock);
		counter++;
		unlock(&counter_lock);
		n++;
	}
	return (void *)n;
}

static void case_fork(void)
{
	pthread_t t[2];
	pid_t pid;
	int status;

	spinning_stop = 0;
	counter = 0;
	for (int i = 0; i < 2; i++)
		t[i] = spawn(busy_locker, NULL);
	usleep(20000);
	pid = fork();
	if (pid == 0) {
		/* The child: one thread.  A mutex no other thread used, and
		 * new threads, work (counter_lock may be held by a thread that
		 * is gone, with glibc too, so it is left alone).  exit(), not
		 * _exit(): the library writes the child's own figures, which
		 * exec.t compares with COUNTER_THREADS * counter_iters. */
		case_counter(&child_lock);
		exit(0);
	}
	if (pid < 0)
		fail("fork", errno, 0);
	__atomic_store_n(&spinning_stop, 1, __ATOMIC_RELAXED);
	for (int i = 0; i < 2; i++) {
		void *n;

		pthread_join(t[i], &n);
	}
	expect("waitpid", waitpid(pid, &status, 0), pid);
	expect("the forked child's exit status", status, 0);
}

/* ---- 1,000 threads created and joined ---- */

#define MANY 1000
#define MANY_BATCH 100
static long many_sum;

static void *many_thread(void *arg)
{
	lock(&counter_lock);
	many_sum += (long)(intptr_t)arg;
	unlock(&counter_lock);
	return NULL;
}

static void case_threads(void)
{
	pthread_t t[MANY_BATCH];

	many_sum = 0;
	for (int b = 0; b < MANY; b += MANY_BATCH) {
		for (int i = 0; i < MANY_BATCH; i++)
			t[i] = spawn(many_thread, (void *)(intptr_t)(b + i + 1));
		for (int i = 0; i < MANY_BATCH; i++)
			pthread_join(t[i], NULL);
	}
	expect("1000 threads' sum", many_sum, (long)MANY * (MANY + 1) / 2);
}

/* ---- destroy: a mutex locked by a thread that has exited and by this
 * one, then destroyed (its count kept, and taken from the threads'); a
 * mutex made next takes its recycled lock and counts from zero ---- */

#define DESTROY_ROUNDS 1000

static void *destroy_thread(void *arg)
{
	for (int i = 0; i < DESTROY_ROUNDS; i++) {
		lock(arg);
		unlock(arg);
	}
	return NULL;
}

static void case_destroy(void)
{
	pthread_mutex_t *m = malloc(sizeof(*m)), *next = malloc(sizeof(*next));

	if (!m || !next)
		fail("malloc", 0, 1);
	expect("init", pthread_mutex_init(m, NULL), 0);
	pthread_join(spawn(destroy_thread, m), NULL);
	lock(m);
	unlock(m);
	expect("destroy", pthread_mutex_destroy(m), 0);
	expect("init of the next", pthread_mutex_init(next, NULL), 0);
	lock(next);
	unlock(next);
	expect("destroy of the next", pthread_mutex_destroy(next), 0);
	printf("destroyed_lock %p %d\nnext_lock %p 1\n", (void *)m, DESTROY_ROUNDS + 1, (void *)next);
	free(m);
	free(next);
}

/* ---- reuse: a mutex freed without destroy, its memory a new mutex; a
 * copy of a mutex's bytes is a mutex of its own ---- */

struct boxed {
	pthread_mutex_t m;
	long n;
};

static void case_reuse(void)
{
	for (int round = 0; round < 50; round++) {
		struct boxed *b = malloc(sizeof(*b)), copy;
		void *rc;

		if (!b)
			fail("malloc", 0, 1);
		memset(b, 0, sizeof(*b));  /* = PTHREAD_MUTEX_INITIALIZER */
		lock(&b->m);
		b->n++;
		unlock(&b->m);
		/* The copy of an unlocked mutex; then the original held: the
		 * copy is free, and the original's trylock sees it held. */
		memcpy(&copy, b, sizeof(copy));
		lock(&b->m);
		expect("trylock of a copy while the original is held", pthread_mutex_trylock(&copy.m), 0);
		pthread_join(spawn(probe_trylock, &b->m), &rc);
		expect("the original held while its copy is too", (long)(intptr_t)rc, EBUSY);
		unlock(&copy.m);
		unlock(&b->m);
		free(b);  /* no pthread_mutex_destroy: the next round may reuse it */
	}
}

/* ---- affinity: where --pin put each thread (launcher's test, exec-pin.t) ---- */

#define AFFINITY_THREADS 5
static char affinity_of[AFFINITY_THREADS + 1][256];

/* This thread's allowed CPUs, "0,1", into affinity_of[i]. */
static void *affinity_read(void *arg)
{
	intptr_t i = (intptr_t)arg;
	cpu_set_t set;
	size_t n = 0;

	expect("sched_getaffinity", sched_getaffinity(0, sizeof(set), &set), 0);
	affinity_of[i][0] = '\0';
	for (int c = 0; c < CPU_SETSIZE && n < sizeof(affinity_of[i]) - 8; c++)
		if (CPU_ISSET(c, &set))
			n += (size_t)snprintf(affinity_of[i] + n, sizeof(affinity_of[i]) - n, "%s%d", n ? "," : "", c);
	return NULL;
}

/* One thread at a time, so that creation order is the index. */
static void case_affinity(void)
{
	affinity_read((void *)(intptr_t)0);
	for (intptr_t i = 1; i <= AFFINITY_THREADS; i++)
		pthread_join(spawn(affinity_read, (void *)i), NULL);
	for (int i = 0; i <= AFFINITY_THREADS; i++)
		printf("affinity %d %s\n", i, affinity_of[i]);
}

/* ---- fpos: a kernel mutex (the file's f_pos_lock) met by read()s ---- */

#define FPOS_THREADS 4
#define FPOS_READS 20000
static int fpos_fd;

static void *fpos_thread(void *arg)
{
	char c;

	(void)arg;
	for (int i = 0; i < FPOS_READS; i++)
		if (read(fpos_fd, &c, 1) < 0)
			fail("read", errno, 0);
	return NULL;
}

static void case_fpos(void)
{
	static const char data[4096];
	pthread_t t[FPOS_THREADS];

	/* An unnamed temporary file (a memfd has no position lock: it is not
	 * opened as a regular file is); threads sharing it through their one
	 * descriptor table take its position lock on every read(). */
	FILE *f = tmpfile();

	fpos_fd = f ? fileno(f) : -1;
	if (fpos_fd < 0 || write(fpos_fd, data, sizeof(data)) != (ssize_t)sizeof(data) || lseek(fpos_fd, 0, SEEK_SET))
		fail("tmpfile", errno, 0);
	for (int i = 0; i < FPOS_THREADS; i++)
		t[i] = spawn(fpos_thread, NULL);
	for (int i = 0; i < FPOS_THREADS; i++)
		pthread_join(t[i], NULL);
	fclose(f);
}

int main(int argc, char **argv)
{
	alarm(120);
	setvbuf(stdout, NULL, _IOLBF, 0);
	for (int i = 1; i < argc; i++) {
		const char *c = argv[i];

		if (!strcmp(c, "-q")) {
			counter_iters = 200;
			pc_items = 20;
			continue;
		}
		int all = !strcmp(c, "all");

		if (all || !strcmp(c, "counter"))
			case_counter(&counter_lock);
		if (all || !strcmp(c, "prodcons"))
			case_prodcons();
		if (all || !strcmp(c, "trylock"))
			case_trylock_timed(0);
		if (all || !strcmp(c, "timed")) {
			case_trylock_timed(1);
			case_cond_timeout();
		}
		if (all || !strcmp(c, "static"))
			case_static();
		if (all || !strcmp(c, "recursive"))
			case_recursive();
		if (all || !strcmp(c, "fork"))
			case_fork();
		if (all || !strcmp(c, "threads"))
			case_threads();
		if (all || !strcmp(c, "reuse"))
			case_reuse();
		if (!strcmp(c, "destroy"))
			case_destroy();
		if (!strcmp(c, "affinity"))
			case_affinity();
		if (!strcmp(c, "fpos"))
			case_fpos();
		printf("ok %s\n", c);
	}
	printf("counter_lock %p %lu\n", (void *)&counter_lock, (unsigned long)counter_lock_calls);
	printf("pid %d\nlock_calls %lu\npassthrough_calls %lu\n", (int)getpid(), (unsigned long)lock_calls,
	       (unsigned long)passthrough_calls);
	return 0;
}
