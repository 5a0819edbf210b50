/*
 * exec_misuse_prog.c — mutex misuse that glibc survives, and a mutex's
 * life, for tests/exec-misuse.t to run with and without lockbench's
 * preloaded library (docs/exec.md, "Misuse and POSIX edge cases").  It
 * knows nothing of lockbench and links nothing of it: each case checks
 * what glibc does (a wrong return code, a lost count or a crash is one
 * "FAIL" line and exit 1; a hang is ended by the alarm, SIGALRM).
 *
 *   exec_misuse_prog CASE [N]   cases:
 *     shared        a private mutex (all-zero, as the static initializer)
 *                   in a MAP_SHARED page, first used after fork by 4
 *                   processes: each in turn counts ROUNDS under it (the
 *                   total exact), then all at once with trylock (POSIX
 *                   leaves that undefined: only their survival is checked)
 *     init_held     pthread_mutex_init() of a mutex another thread holds:
 *                   0; the holder's unlock then 0; then 4 threads count
 *                   ROUNDS each under it, exactly
 *     destroy_held  pthread_mutex_destroy() of a held mutex another thread
 *                   waits on: EBUSY, the mutex still works; destroyed once
 *                   free; a new mutex then counts exactly
 *     extra_unlock  unlock of a free normal mutex (one unlock too many, and
 *                   one never locked): 0; then 4 threads count exactly
 *     free_held     N mutexes (default 100,000) each initialized, locked
 *                   and freed while held: "rss_growth_bytes B" printed
 *     many          N mutexes (default 100,000) each locked once and 8
 *                   of them, spread over the array (each printed
 *                   "hot_lock ADDRESS"), locked N/10 times more: "cpu_s S", the CPU time of that loop (the
 *                   process's: a loaded machine's waits are not in it)
 * Prints "ok CASE" last when every check passed.  An alarm of 60 s ends a
 * hang.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "exec_expect.h"

#define THREADS 4
#define ROUNDS 200  /* each thread's: the FIFO spinlocks, 4 threads on 2 CPUs, hand over
                     * a time slice per acquisition when a waiter is preempted (exec.t's -q) */
#define HOT 8       /* many: the hot mutexes */

/* ---- THREADS threads counting ROUNDS each under one mutex ---- */

struct count {
	pthread_mutex_t *m;
	long n;
};

static void *count_thread(void *arg)
{
	struct count *c = arg;

	for (int i = 0; i < ROUNDS; i++) {
		expect("pthread_mutex_lock", pthread_mutex_lock(c->m), 0);
		c->n++;
		expect("pthread_mutex_unlock", pthread_mutex_unlock(c->m), 0);
	}
	return NULL;
}

static void count_exact(pthread_mutex_t *m, const char *what)
{
	struct count c = { m, 0 };
	pthread_t th[THREADS];

	for (int i = 0; i < THREADS; i++)
		if (pthread_create(&th[i], NULL, count_thread, &c))
			fail("pthread_create", -1, 0);
	for (int i = 0; i < THREADS; i++)
		pthread_join(th[i], NULL);
	expect(what, c.n, (long)THREADS * ROUNDS);
}

/* A flag between two threads, by atomics only (no mutex of the program's). */
static int flag;

static void flag_set(int v)
{
	__atomic_store_n(&flag, v, __ATOMIC_RELEASE);
}

static void flag_await(int v)
{
	while (__atomic_load_n(&flag, __ATOMIC_ACQUIRE) != v)
		sched_yield();
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* ---- shared ---- */

struct shared {
	pthread_mutex_t m;  /* private: all zero, never initialized */
	long counter;
	int turn;           /* which child counts now */
	int go;             /* 1: all count at once */
};

static void shared_child(struct shared *s, int me)
{
	while (__atomic_load_n(&s->turn, __ATOMIC_ACQUIRE) != me)
		sched_yield();
	for (int i = 0; i < ROUNDS; i++) {
		expect("pthread_mutex_lock", pthread_mutex_lock(&s->m), 0);
		s->counter++;
		pthread_mutex_unlock(&s->m);
	}
	__atomic_store_n(&s->turn, me + 1, __ATOMIC_RELEASE);
	while (!__atomic_load_n(&s->go, __ATOMIC_ACQUIRE))
		sched_yield();
	for (int i = 0; i < ROUNDS; i++)
		if (pthread_mutex_trylock(&s->m) == 0)
			pthread_mutex_unlock(&s->m);
	_exit(0);
}

static void case_shared(void)
{
	struct shared *s = mmap(NULL, sizeof(*s), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	pid_t pid[THREADS];

	if (s == MAP_FAILED)
		fail("mmap", -1, 0);
	for (int i = 0; i < THREADS; i++) {
		pid[i] = fork();
		if (pid[i] < 0)
			fail("fork", -1, 0);
		if (!pid[i])
			shared_child(s, i);
	}
	while (__atomic_load_n(&s->turn, __ATOMIC_ACQUIRE) != THREADS)
		sched_yield();
	expect("the children's count, each in turn", s->counter, (long)THREADS * ROUNDS);
	__atomic_store_n(&s->go, 1, __ATOMIC_RELEASE);
	for (int i = 0; i < THREADS; i++) {
		int st;

		if (waitpid(pid[i], &st, 0) != pid[i])
			fail("waitpid", -1, 0);
		if (WIFSIGNALED(st))
			fail("a child killed by signal", WTERMSIG(st), 0);
		expect("a child's exit status", WEXITSTATUS(st), 0);
	}
}

/* ---- init_held ---- */

static pthread_mutex_t held = PTHREAD_MUTEX_INITIALIZER;
static int holder_unlock_rc;

static void *holder(void *arg)
{
	(void)arg;
	expect("pthread_mutex_lock", pthread_mutex_lock(&held), 0);
	flag_set(1);
	flag_await(2);
	holder_unlock_rc = pthread_mutex_unlock(&held);
	return NULL;
}

static void case_init_held(void)
{
	pthread_t th;

	flag_set(0);
	pthread_create(&th, NULL, holder, NULL);
	flag_await(1);
	expect("pthread_mutex_init of a held mutex", pthread_mutex_init(&held, NULL), 0);
	flag_set(2);
	pthread_join(th, NULL);
	expect("the holder's unlock after the init", holder_unlock_rc, 0);
	count_exact(&held, "the count under the re-initialized mutex");
}

/* ---- destroy_held ---- */

static void *waiter(void *arg)
{
	pthread_mutex_t *m = arg;

	flag_set(1);
	expect("the waiter's pthread_mutex_lock", pthread_mutex_lock(m), 0);
	expect("the waiter's pthread_mutex_unlock", pthread_mutex_unlock(m), 0);
	return NULL;
}

static void case_destroy_held(void)
{
	pthread_mutex_t *m = malloc(sizeof(*m)), *next;
	pthread_t th;

	if (!m)
		fail("malloc", -1, 0);
	flag_set(0);
	pthread_mutex_init(m, NULL);
	pthread_mutex_lock(m);
	pthread_create(&th, NULL, waiter, m);
	flag_await(1);
	sleep_ms(50);  /* the waiter in its lock() */
	expect("pthread_mutex_destroy of a held mutex", pthread_mutex_destroy(m), EBUSY);
	expect("its holder's unlock", pthread_mutex_unlock(m), 0);
	pthread_join(th, NULL);
	count_exact(m, "the count under the mutex that was not destroyed");
	expect("pthread_mutex_destroy once free", pthread_mutex_destroy(m), 0);
	free(m);
	/* A new mutex, used correctly: where the old one's lock was recycled
	 * with the waiter still in it, this is what hung. */
	next = malloc(sizeof(*next));
	if (!next)
		fail("malloc", -1, 0);
	pthread_mutex_init(next, NULL);
	count_exact(next, "the count under a new mutex");
	expect("pthread_mutex_destroy of the new mutex", pthread_mutex_destroy(next), 0);
	free(next);
}

/* ---- extra_unlock ---- */

static void case_extra_unlock(void)
{
	static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER, never = PTHREAD_MUTEX_INITIALIZER;

	expect("pthread_mutex_lock", pthread_mutex_lock(&m), 0);
	expect("pthread_mutex_unlock", pthread_mutex_unlock(&m), 0);
	expect("one pthread_mutex_unlock too many", pthread_mutex_unlock(&m), 0);
	count_exact(&m, "the count after one unlock too many");
	expect("pthread_mutex_unlock of a mutex never locked", pthread_mutex_unlock(&never), 0);
	count_exact(&never, "the count under the mutex unlocked before its first lock");
}

/* ---- free_held ---- */

static long rss_bytes(void)
{
	long pages = 0, rss = 0;
	FILE *f = fopen("/proc/self/statm", "r");

	if (!f || fscanf(f, "%ld %ld", &pages, &rss) != 2)
		fail("reading /proc/self/statm", -1, 0);
	fclose(f);
	return rss * sysconf(_SC_PAGESIZE);
}

static void case_free_held(long n)
{
	long before = rss_bytes();

	for (long i = 0; i < n; i++) {
		pthread_mutex_t *m = malloc(sizeof(*m));

		if (!m)
			fail("malloc", -1, 0);
		pthread_mutex_init(m, NULL);
		pthread_mutex_lock(m);
		free(m);  /* held, never unlocked nor destroyed */
	}
	printf("rss_growth_bytes %ld\n", rss_bytes() - before);
}

/* ---- many ---- */

static void case_many(long n)
{
	pthread_mutex_t *m = calloc((size_t)n, sizeof(*m));
	struct timespec t0, t1;

	if (!m || n < 2 * HOT)
		fail("calloc of the mutexes", n, 2 * HOT);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
	for (long i = 0; i < n; i++) {
		pthread_mutex_lock(&m[i]);
		pthread_mutex_unlock(&m[i]);
	}
	/* HOT mutexes spread over the array, each locked n/10 times more. */
	for (int h = 0; h < HOT; h++)
		for (long i = 0; i < n / 10; i++) {
			pthread_mutex_lock(&m[h * (n / HOT) + n / (2 * HOT)]);
			pthread_mutex_unlock(&m[h * (n / HOT) + n / (2 * HOT)]);
		}
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
	for (int h = 0; h < HOT; h++)
		printf("hot_lock %p\n", (void *)&m[h * (n / HOT) + n / (2 * HOT)]);
	printf("cpu_s %.6f\n", (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
}

int main(int argc, char **argv)
{
	long n = argc > 2 ? strtol(argv[2], NULL, 10) : 100000;

	alarm(60);
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc < 2)
		fail("no case named; cases", 0, 1);
	if (!strcmp(argv[1], "shared"))
		case_shared();
	else if (!strcmp(argv[1], "init_held"))
		case_init_held();
	else if (!strcmp(argv[1], "destroy_held"))
		case_destroy_held();
	else if (!strcmp(argv[1], "extra_unlock"))
		case_extra_unlock();
	else if (!strcmp(argv[1], "free_held"))
		case_free_held(n);
	else if (!strcmp(argv[1], "many"))
		case_many(n);
	else {
		printf("FAIL unknown case '%s'\n", argv[1]);
		return 2;
	}
	printf("ok %s\n", argv[1]);
	return 0;
}
