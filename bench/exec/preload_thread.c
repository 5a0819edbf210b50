/*
 * preload_thread.c — the preloaded library's per-thread records (preload.h's
 * struct px_thread) and lock_thread nodes: made on a thread's first lock,
 * merged and recycled when it exits (a pthread key's destructor), every
 * live one read at the process's exit, and after fork() in the child only
 * the forking thread's kept.  Records and nodes are recycled through pools,
 * never freed: a spinner may still read an exited owner's node (kmutex's
 * owner run-state), as the kernel's task_struct outlives its last use.
 * Below the other preload files: it calls none of them.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "preload.h"

struct px_config px_cfg;

/* This thread's record: initial-exec, so the lookup is one %fs load (a
 * preloaded library gets static TLS). */
__thread struct px_thread *px_me __attribute__((tls_model("initial-exec")));

/* Guards the live list, the pools and the merged figures of exited threads. */
static int px_global_lock;
static struct px_thread *px_live;          /* every live record */
static struct px_thread *px_pool_threads;  /* recycled records (live_next links) */
static struct px_node *px_pool_nodes;      /* recycled nodes */
static struct px_node *px_all_nodes;       /* every node made (all_next links) */
static struct bench_thread px_exited;      /* merged figures of exited threads */
static struct lock_events px_exited_ev;
static struct px_counts px_exited_c;
static struct px_tally px_exited_tally;    /* exited threads' tallies, added up */
static pthread_key_t px_exit_key;


/* Threads that never lock still count passthrough calls here (a recursive
 * mutex's user, before it has a record): relaxed, off the hot path. */

void px_spin_lock(int *word)
{
	/* Acquire: pairs with px_spin_unlock's release. */
	while (__atomic_exchange_n(word, 1, __ATOMIC_ACQUIRE))
		sched_yield();
}

void px_spin_unlock(int *word)
{
	__atomic_store_n(word, 0, __ATOMIC_RELEASE);
}

/* ---- nodes and thread records ---- */

/*
 * A recycled node's lock_thread zeroed a word at a time, relaxed atomic
 * stores: a kmutex spinner may still be reading its exited owner's
 * run-state through the owner hint it loaded (relaxed atomic loads of
 * words that read "running" as zero), as mutex_spin_on_owner read an
 * owner's thread_info that may have been freed (2.6.29-2.6.36:
 * probe_kernel_address).  Atomic on both sides, that read is no data
 * race; a memset would be one.
 */
typedef uint64_t __attribute__((may_alias)) px_any_word;  /* words of a lock's own types */

static void px_node_zero_lt(struct px_node *n)
{
	px_any_word *word = (px_any_word *)(void *)&n->lt;
	px_any_word *end = (px_any_word *)(void *)((char *)n + px_cfg.node_size);

	while (word < end)
		__atomic_store_n(word++, 0, __ATOMIC_RELAXED);
}

static void px_node_pool(struct px_node *n);

struct px_node *px_node_new(void)
{
	struct px_node *n;

	px_spin_lock(&px_global_lock);
	n = px_pool_nodes;
	if (n)
		px_pool_nodes = n->next;
	px_spin_unlock(&px_global_lock);
	if (n) {
		struct px_node *all = n->all_next;

		/* Zeroed as a benchmark's lock_thread is; the id says which thread. */
		memset(n, 0, offsetof(struct px_node, lt));
		px_node_zero_lt(n);
		n->all_next = all;
		return n;
	}
	n = aligned_alloc(CACHELINE, px_cfg.node_size);
	if (!n)
		return NULL;
	memset(n, 0, px_cfg.node_size);
	px_spin_lock(&px_global_lock);
	n->all_next = px_all_nodes;
	px_all_nodes = n;
	px_spin_unlock(&px_global_lock);
	return n;
}

void px_node_give(struct px_node *n)
{
	px_spin_lock(&px_global_lock);
	px_node_pool(n);
	px_spin_unlock(&px_global_lock);
}

/* ---- per-mutex tallies (preload.h, struct px_tally) ---- */

/* t's tally made to hold id, by t (px_global_lock held: others read it).
 * False when there is no memory. */
static bool px_tally_grow(struct px_tally *tally, uint32_t id)
{
	uint32_t cap = tally->cap ? tally->cap : 64;
	uint64_t *count;

	while (cap <= id)
		cap *= 2;
	count = calloc(cap, sizeof(*count));
	if (!count)
		return false;
	if (tally->cap)
		memcpy(count, tally->count, tally->cap * sizeof(*count));
	free(tally->count);
	tally->count = count;
	tally->cap = cap;
	return true;
}

void px_tally_first(struct px_thread *t, struct px_mutex *x)
{
	bool grown = false;

	if (x->id < PX_TALLY_IDS) {
		px_spin_lock(&px_global_lock);
		grown = px_tally_grow(&t->tally, x->id);
		px_spin_unlock(&px_global_lock);
	}
	if (grown)
		px_tally_one(t, x);
	else
		x->acquisitions++;  /* t holds x: the header's count is its to write */
}

/* One tally's count of id, and with take zeroed: the relaxed pair of its
 * thread's (px_global_lock held). */
static uint64_t px_tally_get(const struct px_tally *tally, uint32_t id, bool take)
{
	uint64_t v;

	if (id >= tally->cap)
		return 0;
	v = __atomic_load_n(&tally->count[id], __ATOMIC_RELAXED);
	if (take)
		__atomic_store_n(&tally->count[id], 0, __ATOMIC_RELAXED);
	return v;
}

uint64_t px_tally_sum(uint32_t id, bool take)
{
	uint64_t sum;

	px_spin_lock(&px_global_lock);
	sum = px_tally_get(&px_exited_tally, id, take);
	for (const struct px_thread *t = px_live; t; t = t->live_next)
		sum += px_tally_get(&t->tally, id, take);
	px_spin_unlock(&px_global_lock);
	return sum;
}

/* An exiting thread's tally added to the exited threads' (px_global_lock
 * held), and freed.  The larger array is kept and the smaller added into
 * it, so that no count waits on memory. */
static void px_tally_retire(struct px_tally *from)
{
	struct px_tally into = px_exited_tally;

	if (from->cap > into.cap) {
		px_exited_tally = *from;
		*from = into;
	}
	for (uint32_t id = 0; id < from->cap; id++)
		px_exited_tally.count[id] += from->count[id];
	free(from->count);
	from->count = NULL;
	from->cap = 0;
}

static void px_tally_zero(struct px_tally *tally)
{
	if (tally->cap)
		memset(tally->count, 0, tally->cap * sizeof(*tally->count));
}

static void px_node_pool(struct px_node *n)
{
	n->next = px_pool_nodes;
	px_pool_nodes = n;
}

static void px_counts_add(struct px_counts *into, const struct px_counts *c)
{
	const uint64_t *src = (const uint64_t *)c;
	uint64_t *dst = (uint64_t *)into;

	for (size_t i = 0; i < sizeof(*c) / sizeof(uint64_t); i++)
		dst[i] += src[i];
}

/* The harness's merge of one thread's figures (merge.c does it for a run;
 * here the totals are a bench_thread, so the exit report reads one). */
static void px_bench_add(struct bench_thread *into, const struct bench_thread *t)
{
	hist_merge(&into->acq, &t->acq);
	hist_merge(&into->acq_contended, &t->acq_contended);
	into->acquired += t->acquired;
	into->untimed_contended += t->untimed_contended;
}

static void px_events_add(struct lock_events *into, const struct lock_events *ev)
{
	const uint64_t *src = (const uint64_t *)ev;
	uint64_t *dst = (uint64_t *)into;

	for (size_t i = 0; i < sizeof(*ev) / sizeof(uint64_t); i++)
		dst[i] += src[i];
}

/* The node's and the spare nodes' events (px_global_lock held). */
static void px_thread_events(const struct px_thread *t, struct lock_events *ev)
{
	if (t->node)
		px_events_add(ev, &t->node->lt.ev);
	for (const struct px_node *n = px_spares(t); n; n = n->next)
		px_events_add(ev, &n->lt.ev);
}

void px_threads_merge(struct bench_thread *into, struct lock_events *ev, struct px_counts *c)
{
	px_spin_lock(&px_global_lock);
	px_bench_add(into, &px_exited);
	px_events_add(ev, &px_exited_ev);
	px_counts_add(c, &px_exited_c);
	/* Threads still running at exit are read as they stand. */
	for (const struct px_thread *t = px_live; t; t = t->live_next) {
		px_bench_add(into, &t->bt);
		px_thread_events(t, ev);
		px_counts_add(c, &t->c);
		c->threads++;
	}
	px_spin_unlock(&px_global_lock);
}

static void px_live_unlink(struct px_thread *t)
{
	if (t->live_prev)
		t->live_prev->live_next = t->live_next;
	else
		px_live = t->live_next;
	if (t->live_next)
		t->live_next->live_prev = t->live_prev;
}

/* The thread's figures go to the exited totals, its record and nodes to the
 * pools: recycled, never freed (a spinner may still read an owner's node). */
static void px_thread_retire(struct px_thread *t)
{
	struct px_node *n, *next;

	px_bench_add(&px_exited, &t->bt);
	px_thread_events(t, &px_exited_ev);
	px_counts_add(&px_exited_c, &t->c);
	px_exited_c.threads++;
	px_tally_retire(&t->tally);
	px_live_unlink(t);
	if (t->node)
		px_node_pool(t->node);
	for (n = px_spares(t); n; n = next) {
		next = n->next;
		px_node_pool(n);
	}
	t->live_next = px_pool_threads;
	px_pool_threads = t;
}

/* pthread key destructor: the thread is exiting. */
static void px_thread_exit(void *arg)
{
	struct px_thread *t = arg;

	px_me = NULL;
	px_spin_lock(&px_global_lock);
	px_thread_retire(t);
	px_spin_unlock(&px_global_lock);
}

static struct px_thread *px_thread_new(void)
{
	struct px_thread *t;

	px_spin_lock(&px_global_lock);
	t = px_pool_threads;
	if (t)
		px_pool_threads = t->live_next;
	px_spin_unlock(&px_global_lock);
	if (!t) {
		t = aligned_alloc(CACHELINE, sizeof(*t));
		if (!t)
			return NULL;
	}
	memset(t, 0, sizeof(*t));
	t->tid = gettid();
	hist_reset(&t->bt.acq);
	hist_reset(&t->bt.acq_contended);
	t->bt.lock_ops = px_cfg.ops;
	t->bt.cpu = -1;
	t->holds_thread = px_cfg.holds_thread;
	return t;
}

struct px_thread *px_self_slow(void)
{
	struct px_thread *t = px_thread_new();

	if (!t)
		return NULL;
	if (!px_cfg.holds_thread) {
		t->node = px_node_new();
		if (!t->node) {
			free(t);
			return NULL;
		}
	}
	px_spin_lock(&px_global_lock);
	/* The id orders the --timing streams: threads in order of first lock. */
	t->bt.id = (unsigned int)(px_exited_c.threads + 1);
	for (const struct px_thread *o = px_live; o; o = o->live_next)
		t->bt.id++;
	t->live_next = px_live;
	if (px_live)
		px_live->live_prev = t;
	px_live = t;
	px_spin_unlock(&px_global_lock);
	bench_timing_init(&t->bt, &px_cfg.cfg);
	px_me = t;
	pthread_setspecific(px_exit_key, t);
	return t;
}


/* The constructor's part: the exit key, the empty totals.  0 or -1. */
int px_thread_setup(void)
{
	hist_reset(&px_exited.acq);
	hist_reset(&px_exited.acq_contended);
	return pthread_key_create(&px_exit_key, px_thread_exit) ? -1 : 0;
}

/* ---- fork: px_global_lock held across it ---- */

void px_thread_fork_prepare(void)
{
	px_spin_lock(&px_global_lock);
}

void px_thread_fork_parent(void)
{
	px_spin_unlock(&px_global_lock);
}

/* The child has one thread, this one: the others' records go to the pool
 * unmerged (the parent reports them), and every figure starts from zero,
 * so that the child's exec-PID.csv counts only what the child did. */
void px_thread_fork_child(void)
{
	struct px_thread *self = px_me, *t, *next;

	for (t = px_live; t; t = next) {
		next = t->live_next;
		if (t != self)
			px_thread_retire(t);
	}
	memset(&px_exited, 0, sizeof(px_exited));
	hist_reset(&px_exited.acq);
	hist_reset(&px_exited.acq_contended);
	memset(&px_exited_ev, 0, sizeof(px_exited_ev));
	memset(&px_exited_c, 0, sizeof(px_exited_c));
	px_tally_zero(&px_exited_tally);
	if (self) {
		struct bench_thread *bt = &self->bt;

		hist_reset(&bt->acq);
		hist_reset(&bt->acq_contended);
		bt->acquired = bt->untimed_contended = 0;
		self->seen_ccount = self->seen_csum = 0;
		memset(&self->c, 0, sizeof(self->c));
		px_tally_zero(&self->tally);
		if (self->node)
			memset(&self->node->lt.ev, 0, sizeof(self->node->lt.ev));
		for (struct px_node *n = px_spares(self); n; n = n->next)
			memset(&n->lt.ev, 0, sizeof(n->lt.ev));
	}
	px_spin_unlock(&px_global_lock);
}
