/*
 * preload.c — the interposed pthread_mutex_* calls of `lockbench --exec`
 * (docs/exec.md), and each thread's record.
 *
 * A normal/default mutex (kind 0, PTHREAD_MUTEX_INITIALIZER included) runs
 * the registry lock named by LOCKBENCH_EXEC_LOCK; every other kind goes to
 * glibc, counted.  The path from a pthread_mutex_t to its lock is two
 * loads of the mutex's own line (the header pointer, its check word, which
 * also tells other kinds apart: px_fast) and the thread's record through
 * initial-exec TLS: no table, no lock.  A timed lock() is bench_lock() on
 * the thread's struct bench_thread, as in a benchmark; an untimed one
 * (px_lock_untimed) keeps the same --timing countdown and exact counts with
 * nothing before the lock's own call but loads.
 *
 * The environment (set by the launcher, bench/exec/launcher/start.c):
 *   LOCKBENCH_EXEC_LOCK       the registry lock; unset: every call to glibc
 *   LOCKBENCH_EXEC_LOCK_OPTS  its --lock-opt KEY=VALUE, one per line
 *   LOCKBENCH_EXEC_TIMING     all | off | sample:N
 *   LOCKBENCH_EXEC_SEED       the --timing sampler's seed
 *   LOCKBENCH_EXEC_OUT        where each process writes exec-PID.csv at exit
 *   LOCKBENCH_EXEC_PIN        --pin: the CPU order "CPU,CPU,...", thread i of
 *                             the program (creation order, main first) on
 *                             CPU i mod n (preload_pin.c); unset: unpinned
 * A bad value ends the program before main() with one line and status 127.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "preload.h"

/* ---- lock and unlock ---- */

/* A node's first use by this thread, for the lock in t->bt.lock; out of
 * line, returning n, so that the fast path keeps nothing across it. */
static struct px_node * __attribute__((noinline)) px_node_ready(struct px_thread *t, struct px_node *n)
{
	n->lt.id = t->bt.id;
	n->lt.node = -1;
	if (px_cfg.ops->thread_init)
		px_cfg.ops->thread_init(t->bt.lock, &n->lt);
	n->inited = true;
	return n;
}

/* LOCK_F_HOLDS_THREAD with no spare node left: a new one, ready. */
static struct px_node * __attribute__((noinline)) px_node_more(struct px_thread *t)
{
	struct px_node *n = px_node_new();

	if (!n)
		abort();  /* no memory for a queue node: no way to wait */
	return px_node_ready(t, n);
}

/* The node for this lock(), where it is ready (px_thread's `spare`: a
 * free node under LOCK_F_HOLDS_THREAD, whose holder keeps its node until
 * unlock, else the thread's own); NULL where that would call out (no free
 * node left, or the node's first use), and the caller takes
 * px_node_get()'s way instead.  One load: alone, it is the fast path's,
 * where nothing must live across a call before the lock's own.  A free
 * node stays first on the list until the lock is taken (px_held): only
 * this thread takes from or gives to its list, so the fast path keeps no
 * register for it across the lock's call. */
static inline struct px_node *px_node_ready_one(const struct px_thread *t)
{
	return t->spare;
}

/* px_node_ready_one()'s NULL: a new free node (LOCK_F_HOLDS_THREAD with
 * none left; nodes on the list are ready: new ones are made so, and the
 * others were used), or the thread's own node made ready for its first use
 * (a record's own node is made with it, px_self_slow()). */
static struct px_node * __attribute__((noinline)) px_node_first(struct px_thread *t)
{
	struct px_node *n;

	if (!px_cfg.holds_thread) {
		t->spare = px_node_ready(t, t->node);
		return t->spare;
	}
	n = px_node_more(t);
	n->next = t->spare;
	t->spare = n;
	return n;
}

/* The node for this lock(), whatever it takes. */
static inline struct px_node *px_node_get(struct px_thread *t)
{
	struct px_node *n = px_node_ready_one(t);

	return __builtin_expect(n != NULL, 1) ? n : px_node_first(t);
}

/* Figures of t's contended acquisition of x, written holding it:
 * acq_contended changes only on contended timed acquisitions, so what it
 * gained since the last one is this one's (nothing, for an untimed one).
 * The call's frames on its 1st, 2nd, 4th, 8th... contention: a walk of
 * the stack costs microseconds (docs/exec.md, "Call sites"), here inside
 * the program's critical section, so at most 64 in a mutex's life, and
 * the site still follows the calls that contend as their numbers grow. */
static void px_contended(struct px_thread *t, struct px_mutex *x, const void *site)
{
	x->contentions++;
	x->contended_timed += t->bt.acq_contended.count - t->seen_ccount;
	x->contended_cycles += t->bt.acq_contended.sum - t->seen_csum;
	t->seen_ccount = t->bt.acq_contended.count;
	t->seen_csum = t->bt.acq_contended.sum;
	if (!(x->contentions & (x->contentions - 1)))
		px_frames_record(x->frames, site, true);
}

/*
 * t now holds x, taken with the node px_node_get() chose: the mark of a
 * held mutex (owner_lt, preload.h), and its count.  A LOCK_F_HOLDS_THREAD
 * lock's holder takes its node off the spares, names it in the mark, and
 * counts on the header's second line beside it (plain: only the holder
 * writes it); every other lock's holder names its own node and counts in
 * its own tally.  The record's copy of the flag, not px_cfg's: called after
 * the lock call, it keeps only the record and the header.
 */
static inline void px_held(struct px_thread *t, struct px_mutex *x)
{
	if (t->holds_thread) {
		struct px_node *n = t->spare;

		t->spare = n->next;
		x->owner_lt = &n->lt;
		x->acquisitions++;
	} else {
		x->owner_lt = &t->node->lt;
		px_tally_one(t, x);
	}
}

/* A timed acquisition (--timing all, sample:N's sampled ones): bench_lock()
 * on the record, as in a benchmark, out of line, where its TSC reads and
 * histograms keep their registers to themselves. */
static void __attribute__((noinline)) px_lock_timed(struct px_thread *t, struct px_mutex *x, struct px_node *n,
						    const void *site)
{
	struct bench_thread *bt = &t->bt;
	uint64_t contended_before = bt->acq.contended;

	bt->lock = PX_LOCK(x);
	bt->lt = &n->lt;
	bench_lock(bt);
	if (bt->acq.contended != contended_before)
		px_contended(t, x, site);
	px_held(t, x);
}

/* An untimed acquisition that was contended: its count and figures, out of
 * line (the fast path keeps no register for them). */
static void __attribute__((noinline)) px_contended_untimed(struct px_thread *t, struct px_mutex *x,
							   const void *site)
{
	t->bt.untimed_contended++;
	px_contended(t, x, site);
}

/* This thread's record again, after a call: the same px_me, read where
 * it is needed rather than kept in a register saved across the lock's call
 * (arch.h, TLS_IE_READ). */
static inline struct px_thread *px_me_again(void)
{
	struct px_thread *t;

	TLS_IE_READ(px_me, t);
	return t;
}

/*
 * An untimed acquisition (--timing off, sample:N between its timed ones):
 * the lock's call, then the countdown and the count, the mark and the
 * tally: bench_lock_untimed_on()'s exact counts with none of its other
 * stores, and none before the lock's atomic, which waits for every earlier
 * store to drain (a locked instruction); the record is found again after
 * the call (px_me_again), so only the header is kept across it.  The
 * harness's watchdog words (waiting_since) are left alone: nothing watches
 * a program.  `untimed` is not counted: an acquisition is timed
 * (acq.count) or not, so the report takes it as acquired - acq.count
 * (preload_out.c).
 */
static inline bool px_lock_untimed(struct px_mutex *x, struct px_node *n)
{
	return px_cfg.ops->lock(PX_LOCK(x), &n->lt);
}

/* After px_lock_untimed(): the countdown, the count, the mark, the tally. */
static inline void px_untimed_held(struct px_mutex *x)
{
	struct px_thread *t = px_me_again();

	t->bt.timing_skip--;
	__atomic_store_n(&t->bt.acquired, t->bt.acquired + 1, __ATOMIC_RELAXED);
	px_held(t, x);
}

/* The interposed call's caller, read where it is needed: the compiler
 * barrier keeps the read from being hoisted above the lock's call into a
 * register saved across it (GCC's code hoisting does, for the two paths
 * that need it), on the fast path that needs none. */
#define PX_SITE() __extension__({ __asm__ __volatile__("" ::: "memory"); __builtin_return_address(0); })

/* lock() of x by t with node n, timed or not as --timing's countdown says;
 * site: the caller's, for a contended one. */
static inline void px_lock_on(struct px_thread *t, struct px_mutex *x, struct px_node *n, const void *site)
{
	if (__builtin_expect(t->bt.timing_skip == 0, 0)) {
		px_lock_timed(t, x, n, site);
		return;
	}
	if (__builtin_expect(px_lock_untimed(x, n), 0))
		px_contended_untimed(px_me_again(), x, site);
	px_untimed_held(x);
}

/* unlock() of x by t.  A free mutex (no mark: one unlock too many, or a
 * mutex re-initialized while held) is left alone, as glibc's normal mutex
 * answers 0 and stays unlocked: the lock's own unlock() on a free lock
 * would corrupt it (a ticket lock served past its tickets, an MCS unlock
 * waiting for a successor that never comes).  The mark is cleared before
 * the lock's release, which orders it before the next holder's.  A
 * LOCK_F_HOLDS_THREAD node goes back to the thread's spares first: only
 * this thread takes from them, and not before unlock() has returned; so
 * nothing is left to do after the call.  The
 * lock and node go to unlock() in registers, not through t->bt (as
 * bench_unlock() would take them): stored and read straight back, they
 * would wait on a store-to-load forwarding before the unlock's store or
 * atomic (futex 33.8 -> 32.2 cycles a lock+unlock, scripts/exec_cost). */
static inline void px_release(struct px_thread *t, struct px_mutex *x)
{
	struct lock_thread *lt = x->owner_lt;

	if (__builtin_expect(lt == NULL, 0))
		return;
	x->owner_lt = NULL;
	if (!px_cfg.holds_thread) {
		lt = &t->node->lt;
	} else {
		struct px_node *n = px_node_of(lt);

		n->next = t->spare;
		t->spare = n;
	}
	t->bt.lock_ops->unlock(PX_LOCK(x), lt);
}

/* A trylock through the lock's own trylock(): no histogram (the harness
 * times lock() only), counted by the caller: one trylock() call, or a poll
 * of one timedlock(). */
static int px_try(struct px_thread *t, struct px_mutex *x, const void *site)
{
	struct px_node *n;

	t->bt.lock = PX_LOCK(x);
	n = px_node_get(t);
	if (!px_cfg.ops->trylock(PX_LOCK(x), &n->lt))
		return EBUSY;
	px_held(t, x);
	if (!x->frames[0])
		px_frames_record(x->frames, site, true);
	return 0;
}

/* ---- the interposed calls ---- */

static inline bool px_inert(void)
{
	return __builtin_expect(px_cfg.ops == NULL, 0);
}

/* A passthrough call, counted on the caller's record when it has one. */
static void px_count_passthrough(void)
{
	struct px_thread *t = px_inert() ? NULL : px_self();

	if (t)
		t->c.passthrough_locks++;
}

static bool px_normal_attr(const pthread_mutexattr_t *attr)
{
	int type, pshared, robust, protocol;

	if (!attr)
		return true;
	if (pthread_mutexattr_gettype(attr, &type) || pthread_mutexattr_getpshared(attr, &pshared) ||
	    pthread_mutexattr_getrobust(attr, &robust) || pthread_mutexattr_getprotocol(attr, &protocol))
		return false;
	return (type == PTHREAD_MUTEX_NORMAL || type == PTHREAD_MUTEX_DEFAULT) &&
	       pshared == PTHREAD_PROCESS_PRIVATE && robust == PTHREAD_MUTEX_STALLED &&
	       protocol == PTHREAD_PRIO_NONE;
}

PX_EXPORT int pthread_mutex_init(pthread_mutex_t *m, const pthread_mutexattr_t *attr)
{
	px_real_ready();
	if (px_inert() || !px_normal_attr(attr)) {
		struct px_thread *t = px_inert() ? NULL : px_self();

		if (t)
			t->c.passthrough_inits++;
		return px_real.init(m, attr);
	}
	return px_mutex_init(m, __builtin_return_address(0));
}

PX_EXPORT int pthread_mutex_destroy(pthread_mutex_t *m)
{
	px_real_ready();
	if (px_inert() || px_passthrough(m))
		return px_real.destroy(m);
	return px_mutex_destroy(m);
}

/* lock() of a mutex left to glibc (or of any, the library inert), counted. */
static int __attribute__((noinline)) px_pass_lock(pthread_mutex_t *m)
{
	px_real_ready();
	px_count_passthrough();
	return px_real.lock(m);
}

/* lock() of a mutex of ours off the fast path: not started yet, or the
 * thread's first lock. */
static int __attribute__((noinline)) px_lock_ours(pthread_mutex_t *m, const void *site)
{
	struct px_thread *t;
	struct px_mutex *x;

	x = px_mutex_get(m, site);
	t = px_self();
	if (!x || !t)
		return ENOMEM;
	t->bt.lock = PX_LOCK(x);
	px_lock_on(t, x, px_node_get(t), site);
	return 0;
}

/* lock() of any mutex: pthread_mutex_lock's slow path, the condvars' every
 * path.  Its halves are out of line, so that neither a passed-through call
 * nor the fast path that falls back here saves registers for the other. */
int px_lock_any(pthread_mutex_t *m, const void *site)
{
	if (px_inert() || px_passthrough(m))
		return px_pass_lock(m);
	return px_lock_ours(m, site);
}

/*
 * The fast path: the thread has a record (made only once a lock is named,
 * so the library is not inert) and the mutex is a started one of ours.
 * Anything else, px_lock_any(), which passes other kinds to glibc.  The
 * kind is not read here: the check word answers for it (preload.h,
 * px_mutex_of).  A mutex of another kind was last written whole by
 * glibc's init or an initializer (its word 3 glibc's robust-list link, 0
 * unless robust), and its word 0 is glibc's lock word and count; for it to
 * pass, that word would have to equal its address ^ this process's random
 * key: the same 2^-64 chance on which a copy of a started mutex's bytes is
 * told from the mutex, for one load and branch fewer on every call.
 */
static inline struct px_mutex *px_fast(struct px_thread *t, pthread_mutex_t *m)
{
	if (__builtin_expect(t == NULL, 0))
		return NULL;
	return px_mutex_of(m);
}

/* The library inert (no lock named; the thread then has no record): the
 * real call, reached as the floor library reaches it (a load, a test, a
 * jump through the pointer).  NULL before the constructor has found it. */
#define PX_INERT_CALL(fn, ...) do {                                                     \
		if (__builtin_expect(px_inert() && px_real.fn != NULL, 0))                     \
			return px_real.fn(__VA_ARGS__);                                         \
	} while (0)

PX_EXPORT int pthread_mutex_lock(pthread_mutex_t *m)
{
	struct px_thread *t = px_me;
	struct px_mutex *x;
	struct px_node *n;

	if (__builtin_expect(t == NULL, 0))
		PX_INERT_CALL(lock, m);
	x = px_fast(t, m);
	if (__builtin_expect(x == NULL, 0))
		return px_lock_any(m, __builtin_return_address(0));
	n = px_node_ready_one(t);
	if (__builtin_expect(n == NULL, 0))
		return px_lock_ours(m, __builtin_return_address(0));
	if (__builtin_expect(t->bt.timing_skip == 0, 0)) {
		px_lock_timed(t, x, n, PX_SITE());
		return 0;
	}
	if (__builtin_expect(px_lock_untimed(x, n), 0))
		px_contended_untimed(px_me_again(), x, PX_SITE());
	px_untimed_held(x);
	return 0;
}

static int __attribute__((noinline)) px_pass_unlock(pthread_mutex_t *m)
{
	px_real_ready();
	return px_real.unlock(m);
}

static int __attribute__((noinline)) px_unlock_ours(pthread_mutex_t *m)
{
	struct px_thread *t;
	struct px_mutex *x;

	x = px_mutex_find(m);
	t = px_self();
	/* Never started: never locked, free; glibc's normal mutex answers 0. */
	if (!x)
		return 0;
	if (!t)
		return ENOMEM;
	px_release(t, x);
	return 0;
}

/* unlock() of any mutex, as px_lock_any(). */
int px_unlock_any(pthread_mutex_t *m)
{
	if (px_inert() || px_passthrough(m))
		return px_pass_unlock(m);
	return px_unlock_ours(m);
}

PX_EXPORT int pthread_mutex_unlock(pthread_mutex_t *m)
{
	struct px_thread *t = px_me;
	struct px_mutex *x;

	if (__builtin_expect(t == NULL, 0))
		PX_INERT_CALL(unlock, m);
	x = px_fast(t, m);
	if (__builtin_expect(x == NULL, 0))
		return px_unlock_any(m);
	px_release(t, x);
	return 0;
}

PX_EXPORT int pthread_mutex_trylock(pthread_mutex_t *m)
{
	const void *site = __builtin_return_address(0);
	struct px_thread *t;
	struct px_mutex *x;
	int rc;

	if (px_inert() || px_passthrough(m)) {
		px_real_ready();
		px_count_passthrough();
		return px_real.trylock(m);
	}
	x = px_mutex_get(m, site);
	t = px_self();
	if (!x || !t)
		return ENOMEM;
	t->c.trylocks++;
	rc = px_try(t, x, site);
	t->c.trylock_busy += rc == EBUSY;
	return rc;
}

/* True once clock `clk` has reached `abs`. */
static bool px_past(clockid_t clk, const struct timespec *abs)
{
	struct timespec now;

	clock_gettime(clk, &now);
	return now.tv_sec > abs->tv_sec || (now.tv_sec == abs->tv_sec && now.tv_nsec >= abs->tv_nsec);
}

/*
 * A timed lock: lock_ops has no timed wait, so trylock() polled with a
 * sleep doubling from 1 us to 1 ms, until the deadline.  Not the lock's own
 * waiting policy (docs/exec.md says so); counted apart.
 */
static int px_timed(pthread_mutex_t *m, clockid_t clk, const struct timespec *abs, const void *site)
{
	struct px_thread *t;
	struct px_mutex *x;
	long nap_ns = 1000;

	if (abs->tv_nsec < 0 || abs->tv_nsec >= 1000000000L)
		return EINVAL;
	x = px_mutex_get(m, site);
	t = px_self();
	if (!x || !t)
		return ENOMEM;
	t->c.timedlocks++;
	for (;;) {
		struct timespec nap = { 0, nap_ns };

		if (px_try(t, x, site) == 0)
			return 0;
		if (px_past(clk, abs)) {
			t->c.timedlock_timeouts++;
			return ETIMEDOUT;
		}
		nanosleep(&nap, NULL);
		if (nap_ns < 1000000)
			nap_ns *= 2;
	}
}

PX_EXPORT int pthread_mutex_timedlock(pthread_mutex_t *m, const struct timespec *abs)
{
	px_real_ready();
	if (px_inert() || px_passthrough(m)) {
		px_count_passthrough();
		return px_real.timedlock(m, abs);
	}
	return px_timed(m, CLOCK_REALTIME, abs, __builtin_return_address(0));
}

PX_EXPORT int pthread_mutex_clocklock(pthread_mutex_t *m, clockid_t clk, const struct timespec *abs)
{
	px_real_ready();
	if (px_inert() || px_passthrough(m)) {
		px_count_passthrough();
		return px_real.clocklock(m, clk, abs);
	}
	if (clk != CLOCK_REALTIME && clk != CLOCK_MONOTONIC)
		return EINVAL;
	return px_timed(m, clk, abs, __builtin_return_address(0));
}

/* ---- fork ---- */

static void px_fork_prepare(void)
{
	px_mutex_fork_prepare();
	px_thread_fork_prepare();
}

static void px_fork_parent(void)
{
	px_thread_fork_parent();
	px_mutex_fork_parent();
}

static void px_fork_child(void)
{
	px_thread_fork_child();
	px_mutex_fork_child();
}

/* ---- setup, from the environment ---- */

static void __attribute__((noreturn, format(printf, 1, 2))) px_die(const char *fmt, ...)
{
	va_list ap;

	fputs("lockbench exec: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	_exit(127);
}

static void px_setup_opts(const struct lock_ops *ops, const char *opts)
{
	char line[256], err[200];

	while (opts && *opts) {
		const char *end = strchr(opts, '\n');
		size_t len = end ? (size_t)(end - opts) : strlen(opts);
		const char *eq;
		const struct option_def *o;

		if (len >= sizeof(line))
			px_die("--lock-opt too long");
		memcpy(line, opts, len);
		line[len] = '\0';
		opts = end ? end + 1 : NULL;
		if (!len)
			continue;
		eq = strchr(line, '=');
		if (!eq || !(o = lock_option_find(ops, line, (size_t)(eq - line))))
			px_die("--lock-opt '%s': no such option of %s", line, ops->name);
		if (o->set(px_cfg.params.settings.bytes, eq + 1, err, sizeof(err)))
			px_die("--lock-opt %s: %s", line, err);
	}
}

static void px_setup_timing(const char *timing, const char *seed)
{
	uint64_t n;

	px_cfg.cfg.timing = TIMING_ALL;
	if (!timing || !strcmp(timing, "all"))
		;
	else if (!strcmp(timing, "off"))
		px_cfg.cfg.timing = TIMING_OFF;
	else if (!strncmp(timing, "sample:", 7) && lock_parse_u64(timing + 7, 2, UINT64_MAX / 4, &n)) {
		px_cfg.cfg.timing = TIMING_SAMPLE;
		px_cfg.cfg.timing_sample = n;
	} else
		px_die("LOCKBENCH_EXEC_TIMING '%s': not all, off or sample:N (N >= 2)", timing);
	if (seed && !lock_parse_u64(seed, 0, UINT64_MAX, &px_cfg.cfg.seed))
		px_die("LOCKBENCH_EXEC_SEED '%s': not an integer", seed);
}

/* A lock the interposer can run: the program's threads and mutexes come
 * and go unannounced.  px_cfg.ops is set last: until then every call,
 * prepare()'s libraries' included, goes to glibc. */
static void px_setup_lock(const char *name)
{
	const struct lock_ops *ops = lock_find(name);
	char msg[256];
	int rc;

	if (!ops)
		px_die("no lock '%s'", name);
	if (ops->flags & LOCK_F_NO_EXCLUSION)
		px_die("%s takes no lock: a program would run unprotected", name);
	if (ops->flags & LOCK_F_PER_LOCK_THREAD)
		px_die("%s sizes its state for a fixed set of threads: not usable with --exec", name);
	px_setup_opts(ops, getenv("LOCKBENCH_EXEC_LOCK_OPTS"));
	msg[0] = '\0';
	/* Room for the threads of any program the oracle may register. */
	rc = ops->prepare ? ops->prepare(&px_cfg.params.settings, 4096, msg, sizeof(msg)) : 0;
	if (rc < 0)
		px_die("%s: %s", name, msg);
	snprintf(px_cfg.prepare_note, sizeof(px_cfg.prepare_note), "%s", rc > 0 ? msg : "");
	px_cfg.holds_thread = ops->flags & LOCK_F_HOLDS_THREAD;
	px_cfg.mutex_size = ALIGN_UP(sizeof(struct px_mutex) + ops->size, CACHELINE);
	px_cfg.node_size = ALIGN_UP(offsetof(struct px_node, lt) + LOCK_THREAD_SIZE(ops), CACHELINE);
	px_cfg.cfg.lock = ops;
	px_cfg.cfg.lock_params = px_cfg.params;
	__atomic_store_n(&px_cfg.ops, ops, __ATOMIC_RELEASE);
}

static void __attribute__((constructor)) px_setup(void)
{
	const char *name = getenv("LOCKBENCH_EXEC_LOCK");
	const char *out = getenv("LOCKBENCH_EXEC_OUT");
	const char *pin = getenv("LOCKBENCH_EXEC_PIN");

	px_real_resolve();
	if (px_pin_setup(pin))
		px_die("LOCKBENCH_EXEC_PIN '%s': not a list of CPU numbers", pin);
	if (!name || !*name)
		return;
	px_cfg.key = px_key_draw();
	px_setup_timing(getenv("LOCKBENCH_EXEC_TIMING"), getenv("LOCKBENCH_EXEC_SEED"));
	if (out && snprintf(px_cfg.out_dir, sizeof(px_cfg.out_dir), "%s", out) >= (int)sizeof(px_cfg.out_dir))
		px_die("LOCKBENCH_EXEC_OUT too long");
	if (px_thread_setup())
		px_die("no thread-specific key left");
	pthread_atfork(px_fork_prepare, px_fork_parent, px_fork_child);
	px_setup_lock(name);
}

static void __attribute__((destructor)) px_teardown(void)
{
	if (!px_inert())
		px_write_figures();
}
