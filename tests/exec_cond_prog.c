/*
 * exec_cond_prog.c — a pthread program that uses condition variables at
 * the edges POSIX allows, for tests/exec-cond.t to run under `lockbench
 * --exec` with every lock it accepts, and without it (glibc's behaviour is
 * what each case expects).  It knows nothing of lockbench; each case checks
 * its own results and exits 1 with one "FAIL" line at the first wrong one,
 * or prints "ok CASE".  An alarm of 60 s ends a hang.
 *
 *   exec_cond_prog CASE...   cases:
 *     destroy  pthread_cond_destroy right after a broadcast, while the woken
 *              are still leaving their waits (POSIX's rationale for destroy
 *              frees a condvar so): by the broadcaster after its unlock, and
 *              by the first woken waiter, holding the mutex; destroy must
 *              return 0, and the condvar's page is then filled with a
 *              pattern that must stay intact (nothing of a wait writes it
 *              after destroy returned) or unmapped (a read is SIGSEGV)
 *     cancel   pthread_cancel of a thread blocked in pthread_cond_wait,
 *              _timedwait and _clockwait (cancellation points), and of one
 *              with the cancel pending when it calls them, over a normal
 *              and an errorcheck mutex: the thread ends PTHREAD_CANCELED,
 *              its cleanup handler runs with the mutex held (errorcheck:
 *              held by the cancelled thread), and the condvar is then
 *              destroyed at once
 *     timeout  timed waits whose deadline has passed (tv_sec negative, the
 *              clock's zero, a second ago) return ETIMEDOUT, and a tv_nsec
 *              out of range or a clock glibc cannot wait on EINVAL, on every
 *              clock a condvar can wait on; the mutex is held after each
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

/* One "FAIL" line, then exit 1. */
static void __attribute__((format(printf, 1, 2))) fail(const char *fmt, ...)
{
	va_list ap;

	fputs("FAIL ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
	exit(1);
}

/* A call's return, an error number (or 0), as expected, or FAIL naming both. */
static void expect(const char *what, int got, int want)
{
	const char *g = strerrorname_np(got), *w = strerrorname_np(want);

	if (got != want)
		fail("%s: %s (%d), expected %s (%d)", what, got ? (g ? g : "?") : "0", got, want ? (w ? w : "?") : "0",
		     want);
}

static struct timespec in_ms(clockid_t clk, long ms)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	ts.tv_sec += ms / 1000;
	ts.tv_nsec += (ms % 1000) * 1000000L;
	if (ts.tv_nsec >= 1000000000L) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000L;
	}
	return ts;
}

/* Joins t within 10 s (a thread stuck in a wait fails the case); its value. */
static void *join(pthread_t t, const char *what)
{
	struct timespec dl = in_ms(CLOCK_REALTIME, 10000);
	void *ret = NULL;

	expect(what, pthread_timedjoin_np(t, &ret, &dl), 0);
	return ret;
}

static pthread_t spawn(void *(*fn)(void *), void *arg)
{
	pthread_t t;

	expect("pthread_create", pthread_create(&t, NULL, fn, arg), 0);
	return t;
}

/* ---- destroy ---- */

#define DESTROY_ROUNDS 120
#define DESTROY_WAITERS 4
#define PATTERN 0x5a

static pthread_mutex_t d_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
	pthread_cond_t *c;   /* this round's, alone in its page */
	int in_wait;         /* waiters that have called the wait (d_lock) */
	int go;              /* the broadcast's predicate (d_lock) */
	int waiter_destroys; /* the first woken destroys it, else the broadcaster */
	int destroyed;       /* d_lock */
	long page;
} d;

/* The condvar's page after destroy: a pattern to find intact later, or
 * gone, so that a late access is SIGSEGV. */
static void d_release(pthread_cond_t *c, int round)
{
	if (round % 2)
		expect("munmap", munmap(c, d.page), 0);
	else
		memset(c, PATTERN, d.page);
}

static void *d_waiter(void *arg)
{
	int round = (int)(intptr_t)arg;

	expect("lock", pthread_mutex_lock(&d_lock), 0);
	d.in_wait++;
	while (!d.go)
		expect("pthread_cond_wait woken by the broadcast", pthread_cond_wait(d.c, &d_lock), 0);
	if (d.waiter_destroys && !d.destroyed) {
		d.destroyed = 1;
		expect("pthread_cond_destroy by the first woken waiter, the others still leaving",
		       pthread_cond_destroy(d.c), 0);
		d_release(d.c, round);
	}
	expect("unlock", pthread_mutex_unlock(&d_lock), 0);
	return NULL;
}

static void destroy_round(int round, int waiter_destroys)
{
	pthread_t t[DESTROY_WAITERS];
	pthread_cond_t *c = mmap(NULL, d.page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (c == MAP_FAILED)
		fail("mmap: %s", strerror(errno));
	expect("pthread_cond_init", pthread_cond_init(c, NULL), 0);
	d.c = c;
	d.in_wait = d.go = d.destroyed = 0;
	d.waiter_destroys = waiter_destroys;
	for (int i = 0; i < DESTROY_WAITERS; i++)
		t[i] = spawn(d_waiter, (void *)(intptr_t)round);
	/* Holding the mutex with every waiter counted: each has called the
	 * wait, which has let the mutex go. */
	for (;;) {
		expect("lock", pthread_mutex_lock(&d_lock), 0);
		if (d.in_wait == DESTROY_WAITERS)
			break;
		expect("unlock", pthread_mutex_unlock(&d_lock), 0);
		sched_yield();
	}
	d.go = 1;
	expect("pthread_cond_broadcast", pthread_cond_broadcast(c), 0);
	expect("unlock", pthread_mutex_unlock(&d_lock), 0);
	if (!waiter_destroys) {
		expect("pthread_cond_destroy right after the broadcast", pthread_cond_destroy(c), 0);
		d_release(c, round);
	}
	for (int i = 0; i < DESTROY_WAITERS; i++)
		join(t[i], "a woken waiter returns");
	if (round % 2 == 0) {
		for (long i = 0; i < d.page; i++)
			if (((unsigned char *)c)[i] != PATTERN)
				fail("the destroyed condvar's page written after destroy returned, at byte %ld", i);
		expect("munmap", munmap(c, d.page), 0);
	}
}

static void case_destroy(void)
{
	d.page = sysconf(_SC_PAGESIZE);
	for (int round = 0; round < DESTROY_ROUNDS; round++)
		destroy_round(round, round % 4 >= 2);
}

/* ---- cancel ---- */

enum wait_kind { W_WAIT, W_TIMED, W_CLOCK, W_KINDS };
static const char *const wait_name[W_KINDS] = { "pthread_cond_wait", "pthread_cond_timedwait",
						 "pthread_cond_clockwait" };

struct cancel_case {
	pthread_mutex_t m;
	pthread_cond_t c;
	enum wait_kind kind;
	int pending;         /* cancelled before it waits */
	int ready;           /* atomic: the thread holds m */
	int cancelled;       /* atomic: pthread_cancel was called */
	int handler_ran;     /* atomics, set by the cleanup handler */
	int trylock_rc, unlock_rc;
	int wait_rc;         /* a wait that returned (it must not) */
};

static void cancel_cleanup(void *arg)
{
	struct cancel_case *k = arg;

	/* Held (by anyone): EBUSY; an errorcheck mutex's unlock succeeds
	 * only for its owner. */
	k->trylock_rc = pthread_mutex_trylock(&k->m);
	k->unlock_rc = pthread_mutex_unlock(&k->m);
	__atomic_store_n(&k->handler_ran, 1, __ATOMIC_RELEASE);
}

static int wait_once(struct cancel_case *k)
{
	struct timespec dl;

	switch (k->kind) {
	case W_WAIT:
		return pthread_cond_wait(&k->c, &k->m);
	case W_TIMED:
		dl = in_ms(CLOCK_REALTIME, 50000);
		return pthread_cond_timedwait(&k->c, &k->m, &dl);
	default:
		dl = in_ms(CLOCK_MONOTONIC, 50000);
		return pthread_cond_clockwait(&k->c, &k->m, CLOCK_MONOTONIC, &dl);
	}
}

static void *cancel_waiter(void *arg)
{
	struct cancel_case *k = arg;

	expect("lock", pthread_mutex_lock(&k->m), 0);
	__atomic_store_n(&k->ready, 1, __ATOMIC_RELEASE);
	/* sched_yield is no cancellation point: the cancel stays pending. */
	while (k->pending && !__atomic_load_n(&k->cancelled, __ATOMIC_ACQUIRE))
		sched_yield();
	pthread_cleanup_push(cancel_cleanup, k);
	/* Nothing signals: only the cancel ends this loop. */
	for (;;) {
		int rc = wait_once(k);

		if (rc != 0 && rc != ETIMEDOUT) {
			k->wait_rc = rc;
			break;
		}
	}
	pthread_cleanup_pop(0);
	pthread_mutex_unlock(&k->m);
	return NULL;
}

static void cancel_one(enum wait_kind kind, int errorcheck, int pending)
{
	struct cancel_case k = { .kind = kind, .pending = pending };
	pthread_mutexattr_t ma;
	char base[120], what[200];
	pthread_t t;
	void *ret;

	expect("pthread_mutexattr_init", pthread_mutexattr_init(&ma), 0);
	expect("pthread_mutexattr_settype", pthread_mutexattr_settype(&ma, errorcheck ? PTHREAD_MUTEX_ERRORCHECK :
							PTHREAD_MUTEX_NORMAL), 0);
	expect("pthread_mutex_init", pthread_mutex_init(&k.m, &ma), 0);
	expect("pthread_cond_init", pthread_cond_init(&k.c, NULL), 0);
	t = spawn(cancel_waiter, &k);
	while (!__atomic_load_n(&k.ready, __ATOMIC_ACQUIRE))
		sched_yield();
	if (!pending) {
		/* Taken only once the waiter's wait has let it go; then a
		 * moment for it to be asleep. */
		expect("lock", pthread_mutex_lock(&k.m), 0);
		expect("unlock", pthread_mutex_unlock(&k.m), 0);
		usleep(20000);
	}
	expect("pthread_cancel", pthread_cancel(t), 0);
	__atomic_store_n(&k.cancelled, 1, __ATOMIC_RELEASE);
	snprintf(base, sizeof(base), "%s over a%s mutex, cancelled %s", wait_name[kind],
		 errorcheck ? "n errorcheck" : " normal", pending ? "before it waits" : "in its wait");
	snprintf(what, sizeof(what), "%s: the join (0, else it was never cancelled)", base);
	ret = join(t, what);
	if (k.wait_rc)
		fail("%s: the wait returned %d", base, k.wait_rc);
	if (ret != PTHREAD_CANCELED)
		fail("%s: the thread ended, not cancelled", base);
	if (!__atomic_load_n(&k.handler_ran, __ATOMIC_ACQUIRE))
		fail("%s: its cleanup handler never ran", base);
	snprintf(what, sizeof(what), "%s: the mutex held in its cleanup handler (trylock)", base);
	expect(what, k.trylock_rc, EBUSY);
	snprintf(what, sizeof(what), "%s: the handler's unlock (an errorcheck mutex's: by its owner)", base);
	expect(what, k.unlock_rc, 0);
	expect("the mutex free after the cancelled waiter's handler", pthread_mutex_trylock(&k.m), 0);
	expect("unlock", pthread_mutex_unlock(&k.m), 0);
	expect("pthread_cond_destroy after a cancelled waiter", pthread_cond_destroy(&k.c), 0);
	expect("pthread_mutex_destroy", pthread_mutex_destroy(&k.m), 0);
	expect("pthread_mutexattr_destroy", pthread_mutexattr_destroy(&ma), 0);
}

static void case_cancel(void)
{
	for (int kind = 0; kind < W_KINDS; kind++)
		for (int errorcheck = 0; errorcheck < 2; errorcheck++)
			for (int pending = 0; pending < 2; pending++)
				cancel_one(kind, errorcheck, pending);
}

/* ---- timeout ---- */

/* One timed wait of c (clock_attr: its attribute's clock) over m, held. */
static void timed_one(pthread_cond_t *c, pthread_mutex_t *m, const char *how, clockid_t clk, int clockwait,
		      struct timespec abs, int want)
{
	char what[160];
	int rc = clockwait ? pthread_cond_clockwait(c, m, clk, &abs) : pthread_cond_timedwait(c, m, &abs);

	snprintf(what, sizeof(what), "%s, clock %d, deadline {%lld, %ld} (%s)",
		 clockwait ? "pthread_cond_clockwait" : "pthread_cond_timedwait", (int)clk, (long long)abs.tv_sec,
		 abs.tv_nsec, how);
	expect(what, rc, want);
	strcat(what, ": the mutex held after it");
	expect(what, pthread_mutex_trylock(m), EBUSY);
}

static void timed_clock(pthread_cond_t *c, pthread_mutex_t *m, clockid_t clk, int clockwait)
{
	struct timespec ago = in_ms(clk, -1000);

	timed_one(c, m, "tv_sec -1", clk, clockwait, (struct timespec){ -1, 0 }, ETIMEDOUT);
	timed_one(c, m, "tv_sec -1, tv_nsec 999999999", clk, clockwait, (struct timespec){ -1, 999999999 },
		  ETIMEDOUT);
	timed_one(c, m, "tv_sec very negative", clk, clockwait, (struct timespec){ -(1LL << 40), 0 }, ETIMEDOUT);
	timed_one(c, m, "the clock's zero", clk, clockwait, (struct timespec){ 0, 0 }, ETIMEDOUT);
	if (ago.tv_sec >= 0)
		timed_one(c, m, "a second ago", clk, clockwait, ago, ETIMEDOUT);
	timed_one(c, m, "tv_nsec 1000000000", clk, clockwait, (struct timespec){ 1, 1000000000L }, EINVAL);
	timed_one(c, m, "tv_nsec -1", clk, clockwait, (struct timespec){ 1, -1 }, EINVAL);
	timed_one(c, m, "tv_sec -1, tv_nsec -1", clk, clockwait, (struct timespec){ -1, -1 }, EINVAL);
}

static void case_timeout(void)
{
	pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
	pthread_cond_t c = PTHREAD_COND_INITIALIZER, cm;
	pthread_condattr_t ca;

	expect("pthread_condattr_init", pthread_condattr_init(&ca), 0);
	expect("pthread_condattr_setclock", pthread_condattr_setclock(&ca, CLOCK_MONOTONIC), 0);
	expect("pthread_cond_init", pthread_cond_init(&cm, &ca), 0);
	expect("lock", pthread_mutex_lock(&m), 0);
	timed_clock(&c, &m, CLOCK_REALTIME, 0);
	timed_clock(&cm, &m, CLOCK_MONOTONIC, 0);
	timed_clock(&c, &m, CLOCK_REALTIME, 1);
	timed_clock(&c, &m, CLOCK_MONOTONIC, 1);
	timed_one(&c, &m, "a clock no condvar waits on", CLOCK_PROCESS_CPUTIME_ID, 1, in_ms(CLOCK_REALTIME, 1000),
		  EINVAL);
	expect("unlock", pthread_mutex_unlock(&m), 0);
	expect("pthread_cond_destroy", pthread_cond_destroy(&c), 0);
	expect("pthread_cond_destroy", pthread_cond_destroy(&cm), 0);
	expect("pthread_condattr_destroy", pthread_condattr_destroy(&ca), 0);
}

int main(int argc, char **argv)
{
	alarm(60);
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc < 2) {
		fprintf(stderr, "usage: exec_cond_prog destroy|cancel|timeout...\n");
		return 2;
	}
	for (int i = 1; i < argc; i++) {
		const char *c = argv[i];

		if (!strcmp(c, "destroy"))
			case_destroy();
		else if (!strcmp(c, "cancel"))
			case_cancel();
		else if (!strcmp(c, "timeout"))
			case_timeout();
		else {
			fprintf(stderr, "exec_cond_prog: no case '%s' (destroy, cancel, timeout)\n", c);
			return 2;
		}
		printf("ok %s\n", c);
	}
	return 0;
}
