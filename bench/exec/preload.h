/*
 * preload.h — the preloaded library of `lockbench --exec` (docs/exec.md):
 * the state it keeps for a program's mutexes, threads and condition
 * variables.  Built as a shared object (liblockbench-exec.so) from PIC
 * copies of locks/, bench/platform's histograms and bench/core's timed
 * acquisition: a program's lock() goes through the same bench_lock() as a
 * benchmark's, into the same per-thread histograms.
 *
 * Files, each calling only those before it: preload_glibc.c (glibc's own
 * mutex calls, found next after the library), preload_thread.c (the settings,
 * the per-thread records and nodes), preload_mutex.c (a mutex's lock:
 * started, found, destroyed), preload_out.c (the figures written at exit,
 * exec_file.h's format), preload.c (the interposed mutex calls, the setup
 * from the environment), preload_cond.c (condition variables over any lock).
 * preload_frames.c, which calls none of them, records and reads a call's
 * frames (a mutex's call site).
 */
#ifndef LOCKBENCH_PRELOAD_H
#define LOCKBENCH_PRELOAD_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../core/config.h"
#include "../core/harness.h"

/* ---- preload_frames.c ---- */

/* Frames recorded of a mutex's call: the call's return address (in the
 * function that called pthread_*) and three callers above it, enough for
 * a wrapper of a wrapper (px_site_frame).  On the header's first line,
 * which has room for four. */
#define PX_FRAMES 4
/* FRAMES[0..PX_FRAMES) := the return addresses of the calling thread's
 * stack from SITE (the interposed call's return address) up, 0 past the
 * stack's end, where WALK and SITE is in a lock wrapper (px_site_frame's
 * rule); else SITE alone, and so where the stack cannot be walked (no
 * unwind information, or the thread is already walking it: the unwinder
 * locked a mutex).  Off the fast path: the walk costs microseconds. */
void px_frames_record(const void **frames, const void *site, bool walk);
/* The first of FRAMES outside the program's lock wrappers: the index of
 * the first frame whose function does more than return once the call
 * returns (px_returns_at_once, preload_frames.c), or of the last frame
 * recorded. */
unsigned int px_site_frame(const void *const *frames);

/*
 * One started mutex: this header, then the registry lock's state
 * (ops->size bytes, cache-line aligned).  Type-stable memory: a header is
 * recycled (preload_mutex.c's free list) but never returned to malloc, so
 * a late read by a thread still leaving unlock() touches a lock, never
 * freed memory.  Its first line, which the fast path reads (the id),
 * changes only when a mutex starts or is destroyed (its chain, under the
 * registry's lock) and at a sampled contended acquisition (its frames,
 * px_contended: at most 64 times in its life); the second is written by
 * the lock's holder: owner_lt on every acquisition and release (the line
 * the holder has just fetched for its own acquisition's count or
 * contention figures, and that no other thread reads on the fast path),
 * the figures where they must be.
 */
struct px_mutex {
	pthread_mutex_t *addr;        /* the pthread_mutex_t it serves: set at start, then read-only */
	struct px_mutex *hnext;       /* its registry bucket's chain (px_reg_lock) */
	uint32_t id;                  /* its acquisitions' index in every thread's px_tally: the
	                               * header's for life (a recycled header keeps it) */
	const void *frames[PX_FRAMES]; /* the call site: return addresses, innermost first
	                               * (px_frames_record), of its first lock call (written by the
	                               * thread starting it), then of each contended one whose number
	                               * is a power of two (1st, 2nd, 4th...: by its holder) */
	/* Written only by the thread holding the lock, plain: exact without atomics. */
	struct lock_thread *owner_lt cacheline_aligned; /* held: the node lock() was given (the one
	                               * unlock() needs, LOCK_F_HOLDS_THREAD); NULL: free.  Set after
	                               * the lock's acquire, cleared before its release, so the lock
	                               * orders every write of it: the one mark of a mutex's life
	                               * (unlock of a free mutex, destroy or init of a held one) */
	uint64_t acquisitions;        /* lock(), trylock(), timedlock() and condvar re-locks that took
	                               * it and are in no thread's tally (LOCK_F_HOLDS_THREAD locks
	                               * count here: px_held), and, once destroyed, every one */
	uint64_t contentions;         /* lock() calls that missed their first attempt */
	uint64_t contended_timed;     /* contended ones that were timed (--timing) */
	uint64_t contended_cycles;    /* their acquisition cycles */
} cacheline_aligned;

#define PX_LOCK(x) ((void *)((char *)(x) + sizeof(struct px_mutex)))

/* A lock_thread with a link, for locks whose node is held lock to unlock. */
struct px_node {
	struct px_node *next;         /* a thread's spare nodes, or the pool's */
	struct px_node *all_next;     /* every node made: none is ever unreachable (a fork's child
	                               * loses the threads that held some) */
	bool inited;                  /* thread_init() done for its current thread */
	struct lock_thread lt;
};

/*
 * Acquisitions per mutex, counted by each thread in its own memory: a
 * count in the mutex's header would be one more line that every holder
 * writes and the next one must fetch (docs/exec.md measures it).  Indexed
 * by the header's id; grown by its thread, to take an id past its end,
 * under px_global_lock, which other threads hold to read and zero it (a
 * mutex destroyed, the exit report).  An id past PX_TALLY_IDS, or one
 * there was no memory to grow for, counts on the header instead.
 */
#define PX_TALLY_IDS (1u << 20)    /* a thread's tally is at most 8 MiB */
struct px_tally {
	uint64_t *count;           /* count[id]: its thread's relaxed load and store; others read
	                            * (and zero) it under px_global_lock */
	uint32_t cap;              /* ids it holds */
};

/* Per-thread counters besides the harness's own (bench_thread). */
struct px_counts {
	uint64_t trylocks, trylock_busy;    /* trylock() calls, those that found it held */
	uint64_t timedlocks, timedlock_timeouts;
	uint64_t cond_waits, cond_timeouts, cond_signals, cond_broadcasts;
	uint64_t passthrough_locks;         /* lock/trylock/timedlock on a mutex left to glibc */
	uint64_t passthrough_inits;         /* pthread_mutex_init() of such a mutex */
	uint64_t mutex_inits, mutex_starts, mutex_destroys, mutex_restarts;
	uint64_t threads;                   /* threads that used a lock (merged records) */
};

/* One per thread that locks: the harness's record, then the preload's. */
struct px_thread {
	struct bench_thread bt;      /* histograms, untimed counts, --timing countdown */
	struct px_node *node;        /* its own node (every lock without LOCK_F_HOLDS_THREAD) */
	struct px_node *spare;       /* the node the next lock() takes, ready for use: under
	                              * LOCK_F_HOLDS_THREAD the first of the thread's free nodes
	                              * (next links them), else `node` once its first use made it
	                              * ready; NULL: px_node_first()'s way.  One load for the fast
	                              * path (preload.c) whatever the lock */
	bool holds_thread;           /* px_cfg.holds_thread, read beside the record's other fields */
	uint64_t seen_ccount, seen_csum; /* bt.acq_contended's count and sum then */
	struct px_counts c;
	struct px_thread *live_next, *live_prev; /* every live record (px_global_lock) */
	pid_t tid;
	struct px_tally tally;       /* its acquisitions of each mutex (px_tally_one) */
} cacheline_aligned;

/* t's free nodes (LOCK_F_HOLDS_THREAD; else none: `spare` is then `node`). */
static inline struct px_node *px_spares(const struct px_thread *t)
{
	return t->holds_thread ? t->spare : NULL;
}

static inline struct px_node *px_node_of(struct lock_thread *lt)
{
	return (struct px_node *)(void *)((char *)lt - offsetof(struct px_node, lt));
}

/* The interposed calls: the only symbols the library exports (it is built
 * -fvisibility=hidden, so none of lockbench's names can meet a program's). */
#define PX_EXPORT __attribute__((visibility("default")))

/* Fork generations whose mutexes a process adopts by their check word. */
#define PX_KEY_GENERATIONS 8

/* The lock every interposed mutex runs, set once by the constructor. */
struct px_config {
	const struct lock_ops *ops;  /* NULL: inert, every call goes to glibc */
	struct lock_params params;   /* the settings after prepare() */
	struct bench_config cfg;     /* --timing and the seed, for bench_timing_init() */
	bool holds_thread;           /* ops has LOCK_F_HOLDS_THREAD */
	size_t mutex_size;           /* sizeof(px_mutex) + the lock's size, rounded */
	size_t node_size;            /* sizeof(px_node) + LOCK_THREAD_SIZE(ops), rounded */
	uintptr_t key;               /* mixes the mutex check word: random per process, drawn
	                              * anew in a fork's child (px_mutex_fork_child) */
	uintptr_t key_old[PX_KEY_GENERATIONS]; /* the ancestors' keys, the parent's first: a
	                              * mutex they started is adopted (px_mutex_start) */
	char out_dir[512];           /* where the figures go at exit; "" none */
	char prepare_note[256];      /* prepare()'s fallback note */
};
extern struct px_config px_cfg;

/* The real glibc functions, for mutexes passed through (dlsym RTLD_NEXT). */
struct px_real {
	int (*init)(pthread_mutex_t *, const pthread_mutexattr_t *);
	int (*destroy)(pthread_mutex_t *);
	int (*lock)(pthread_mutex_t *);
	int (*trylock)(pthread_mutex_t *);
	int (*unlock)(pthread_mutex_t *);
	int (*timedlock)(pthread_mutex_t *, const struct timespec *);
	int (*clocklock)(pthread_mutex_t *, clockid_t, const struct timespec *);
};
extern struct px_real px_real;
void px_real_resolve(void);

/* Before the constructor (another library's constructor locking): glibc's. */
static inline void px_real_ready(void)
{
	if (__builtin_expect(!px_real.lock, 0))
		px_real_resolve();
}

/* glibc's mutex, for the `pthread` locks' copy in this library. */
int px_glibc_mutex_init(pthread_mutex_t *m, const pthread_mutexattr_t *attr);
int px_glibc_mutex_destroy(pthread_mutex_t *m);
int px_glibc_mutex_lock(pthread_mutex_t *m);
int px_glibc_mutex_trylock(pthread_mutex_t *m);
int px_glibc_mutex_unlock(pthread_mutex_t *m);

/* A tiny test-and-set lock with sched_yield, for the preload's own slow
 * paths (starting a mutex, a thread's exit): never a pthread mutex, which
 * would be our own (preload_thread.c). */
void px_spin_lock(int *word);
void px_spin_unlock(int *word);

/* ---- preload_mutex.c ---- */

/* The mutex word: 0 not started, PX_STARTING being started, else a header. */
#define PX_STARTING ((uintptr_t)1)

static inline uintptr_t *px_word(pthread_mutex_t *m)
{
	return (uintptr_t *)(void *)m;
}

/* The check word, in the bytes glibc keeps a robust mutex's list in. */
static inline uintptr_t *px_check(pthread_mutex_t *m)
{
	return (uintptr_t *)(void *)((char *)m + 24);
}

static inline bool px_passthrough(const pthread_mutex_t *m)
{
	/* Normal/default private mutexes have kind 0, PTHREAD_MUTEX_INITIALIZER
	 * too; every other kind and flag (recursive, errorcheck, adaptive,
	 * robust, PI, PP, process-shared) makes it non-zero.  Never changed
	 * while the mutex is in use: a plain read. */
	return m->__data.__kind != 0;
}

/* The header of a started mutex, or NULL (never started, destroyed, or a
 * copy of another's bytes).  Acquire: pairs with px_mutex_start's release
 * store, so the header's fields are seen set. */
static inline struct px_mutex *px_mutex_of(pthread_mutex_t *m)
{
	uintptr_t p = __atomic_load_n(px_word(m), __ATOMIC_ACQUIRE);

	/* The check word relaxed: another process sharing the page (a
	 * private mutex in MAP_SHARED memory, misused) may write it. */
	if (__builtin_expect(p > PX_STARTING &&
			     __atomic_load_n(px_check(m), __ATOMIC_RELAXED) == (p ^ (uintptr_t)m ^ px_cfg.key), 1))
		return (struct px_mutex *)p;
	return NULL;
}

/*
 * A mutex's life, decided in preload_mutex.c alone:
 * - px_mutex_start: a zeroed mutex's first use, or bytes that are not a
 *   started mutex of this process (a copy, garbage, a sibling process's
 *   stamp in a shared page): one CAS decides who builds its lock; a mutex
 *   an ancestor process started (before fork) is adopted, its lock state
 *   kept (a lock held across fork stays held, as glibc's).  A header left
 *   at the address (freed unDestroyed) is reset, never inherited held: the
 *   node a holder left in it goes back to the pool.
 * - px_mutex_init: a held mutex's header is orphaned (never recycled: its
 *   holder and waiters may still be in it) and m starts afresh.
 * - px_mutex_destroy: EBUSY while held (glibc's answer), else recycled.
 * - unlock of a free mutex (px_release): nothing done, 0, as glibc's
 *   normal mutex answers; the lock's state is never touched.
 */
/* Starts m (lazily, race-free), and returns its header; NULL when out of
 * memory (errno ENOMEM). */
struct px_mutex *px_mutex_start(pthread_mutex_t *m, const void *site);
/* m's header when m is a started mutex of this process, its ancestors'
 * adopted; else NULL, m untouched (unlock and destroy start nothing). */
struct px_mutex *px_mutex_find(pthread_mutex_t *m);
/* pthread_mutex_init(): m's bytes made a fresh, unlocked mutex of ours. */
int px_mutex_init(pthread_mutex_t *m, const void *site);
/* pthread_mutex_destroy(): EBUSY while held; else its lock recycled, its
 * figures kept, m zeroed, 0. */
int px_mutex_destroy(pthread_mutex_t *m);
/* The started mutex's header, or the one just started. */
static inline struct px_mutex *px_mutex_get(pthread_mutex_t *m, const void *site)
{
	struct px_mutex *x = px_mutex_of(m);

	return x ? x : px_mutex_start(m, site);
}

/* Calls fn on the PX_MUTEX_ROWS hottest of the started mutexes and the
 * destroyed ones kept, the most contended first (then the most acquired,
 * as the launcher ranks them), with its acquisitions, every thread's tally
 * summed (the registry lock held: fn must not lock). */
#define PX_MUTEX_ROWS 64
typedef void px_mutex_fn(const struct px_mutex *x, uint64_t acquisitions, bool destroyed, void *ctx);
void px_mutex_hottest(px_mutex_fn *fn, void *ctx);
/* A process's key for the check words: random, never 0. */
uintptr_t px_key_draw(void);
/* After fork(), in the child: the figures of every mutex zeroed, a new key. */
void px_mutex_fork_child(void);
void px_mutex_fork_prepare(void);
void px_mutex_fork_parent(void);

/* ---- preload_thread.c ---- */

/* This thread's record: initial-exec TLS, so the lookup is one %fs load
 * (a preloaded library gets static TLS). */
extern __thread struct px_thread *px_me __attribute__((tls_model("initial-exec")));
/* The record made on the thread's first lock; NULL when out of memory. */
struct px_thread *px_self_slow(void);

/* This thread's record, made on first use; NULL when out of memory. */
static inline struct px_thread *px_self(void)
{
	struct px_thread *t = px_me;

	return __builtin_expect(t != NULL, 1) ? t : px_self_slow();
}
/* One acquisition of x by t, in t's tally: a relaxed load and store, as
 * only t writes it but others read it.  Inline; an id past the tally's
 * end, out of line. */
void px_tally_first(struct px_thread *t, struct px_mutex *x);
static inline void px_tally_one(struct px_thread *t, struct px_mutex *x)
{
	uint32_t id = x->id;

	if (__builtin_expect(id < t->tally.cap, 1)) {
		uint64_t *n = &t->tally.count[id];

		__atomic_store_n(n, __atomic_load_n(n, __ATOMIC_RELAXED) + 1, __ATOMIC_RELAXED);
	} else {
		px_tally_first(t, x);
	}
}
/* Mutex `id`'s acquisitions in every thread's tally, live and exited; with
 * take, zeroed there (the mutex destroyed: the header keeps the sum). */
uint64_t px_tally_sum(uint32_t id, bool take);

/* A zeroed node, from the pool or new; NULL when out of memory. */
struct px_node *px_node_new(void);
/* A node no thread will use again (its holder's mutex reset under it), to
 * the pool. */
void px_node_give(struct px_node *n);
/* The constructor's part (the exit key): 0, or -1. */
int px_thread_setup(void);
/* Every thread's figures merged (live records read as they stand), for the
 * exit report: the harness's, the lock's events, the preload's. */
void px_threads_merge(struct bench_thread *into, struct lock_events *ev, struct px_counts *c);
/* fork(): the records' lock held across it; in the child only the forking
 * thread's record kept, every figure zeroed (the child reports its own). */
void px_thread_fork_prepare(void);
void px_thread_fork_parent(void);
void px_thread_fork_child(void);

/* ---- preload.c ---- */

/* The interposed lock/unlock of any mutex (ours or passed through), for
 * the condition variables; site: their caller's. */
int px_lock_any(pthread_mutex_t *m, const void *site);
int px_unlock_any(pthread_mutex_t *m);

/* ---- preload_pin.c ---- */

/* --pin: LOCKBENCH_EXEC_PIN's CPU order (NULL or "": none), the calling
 * (main) thread pinned first; from the constructor.  0, or -1 when the
 * list is not CPU numbers (or no memory). */
int px_pin_setup(const char *list);
/* This process's threads pinned, and those sched_setaffinity() refused. */
void px_pin_counts(uint64_t *pinned, uint64_t *failed);

/* ---- preload_out.c ---- */

/* Writes exec-PID.csv under px_cfg.out_dir (once; at exit). */
void px_write_figures(void);

#endif
