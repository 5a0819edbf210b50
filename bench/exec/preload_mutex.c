/*
 * preload_mutex.c — a program's mutex becoming one of ours: started (at
 * pthread_mutex_init, or lazily at first use of a zeroed one), found again,
 * destroyed.
 *
 * In the mutex's own 40 bytes: word 0 points at the header (struct
 * px_mutex, then the lock), word 3 holds that pointer ^ the mutex's address
 * ^ a per-process key; glibc's kind (bytes 16-19) stays 0.  A copy of a
 * mutex's bytes elsewhere, or garbage, fails the check and is started anew;
 * the lock calls never look further (preload.h, px_mutex_of).
 *
 * The registry — a hash of started mutexes by address, under one spinlock
 * — is for the slow paths only: a mutex started at an address whose last
 * mutex was never destroyed (freed, its memory reused) takes that header
 * back, reset, rather than leak one per reuse; and the exit report lists
 * every mutex.  Destroyed headers are recycled through a free list; the
 * most contended destroyed mutexes' figures are kept for mutexes.csv.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "preload.h"

#define PX_BUCKETS 4096
#define PX_KEPT 64     /* destroyed mutexes kept for the report: the most contended */

static int px_reg_lock;
static struct px_mutex *px_bucket[PX_BUCKETS];
static struct px_mutex *px_free;             /* recycled headers (hnext links) */
static struct px_mutex px_kept[PX_KEPT];     /* destroyed ones' figures (addr: where it was) */
static unsigned int px_kept_n;
static uint32_t px_ids;                      /* headers made: the next one's id */

_Static_assert(sizeof(pthread_mutex_t) >= 32, "the header pointer and its check need 32 bytes");
_Static_assert(offsetof(struct __pthread_mutex_s, __kind) == 16, "glibc's kind is not where expected");

static unsigned int px_hash(const pthread_mutex_t *m)
{
	uintptr_t a = (uintptr_t)m >> 3;

	return (unsigned int)((a * UINT64_C(0x9e3779b97f4a7c15)) >> 52) % PX_BUCKETS;
}

static struct px_mutex **px_slot(const pthread_mutex_t *m)
{
	struct px_mutex **p = &px_bucket[px_hash(m)];

	while (*p && (*p)->addr != m)
		p = &(*p)->hnext;
	return p;
}

/* Keeps a destroyed mutex's figures when it is among the most contended,
 * its acquisitions taken from the threads' tallies first: its id goes with
 * the header to the next mutex, which must count from zero. */
static void px_keep(struct px_mutex *x)
{
	unsigned int least = 0;

	x->acquisitions += px_tally_sum(x->id, true);
	if (!x->acquisitions)
		return;
	if (px_kept_n < PX_KEPT) {
		px_kept[px_kept_n++] = *x;
		return;
	}
	for (unsigned int i = 1; i < PX_KEPT; i++)
		if (px_kept[i].contentions < px_kept[least].contentions)
			least = i;
	if (x->contentions > px_kept[least].contentions)
		px_kept[least] = *x;
}

/* A header for m, its lock initialized: the stale one at m's address
 * (its figures kept first), a recycled one, or a new one.  Registry held. */
static struct px_mutex *px_header_for(pthread_mutex_t *m, bool *restarted)
{
	struct px_mutex **slot = px_slot(m), *x = *slot;
	uint32_t id;

	*restarted = x != NULL;
	if (x) {
		px_keep(x);
		*slot = x->hnext;
		px_cfg.ops->destroy(PX_LOCK(x));
	} else if (px_free) {
		x = px_free;
		px_free = x->hnext;
	} else if (!(x = aligned_alloc(CACHELINE, px_cfg.mutex_size))) {
		return NULL;
	} else {
		x->id = px_ids++;
	}
	id = x->id;
	memset(x, 0, px_cfg.mutex_size);
	x->id = id;
	if (px_cfg.ops->init(PX_LOCK(x), &px_cfg.params)) {
		x->hnext = px_free;
		px_free = x;
		return NULL;
	}
	x->addr = m;
	slot = &px_bucket[px_hash(m)];
	x->hnext = *slot;
	*slot = x;
	return x;
}

/* Builds m's header and publishes it in m's bytes (word 0 is PX_STARTING,
 * ours).  NULL, word 0 back to 0, when there is no memory. */
static struct px_mutex *px_publish(pthread_mutex_t *m, const void *site)
{
	struct px_thread *t = px_self();
	struct px_mutex *x;
	bool restarted;

	px_spin_lock(&px_reg_lock);
	x = px_header_for(m, &restarted);
	px_spin_unlock(&px_reg_lock);
	if (!x) {
		__atomic_store_n(px_word(m), 0, __ATOMIC_RELEASE);
		errno = ENOMEM;
		return NULL;
	}
	x->site = site;
	if (t) {
		t->c.mutex_starts++;
		t->c.mutex_restarts += restarted;
	}
	*px_check(m) = (uintptr_t)x ^ (uintptr_t)m ^ px_cfg.key;
	/* Release: pairs with px_mutex_of's acquire load; the header and the
	 * check word are seen before the pointer. */
	__atomic_store_n(px_word(m), (uintptr_t)x, __ATOMIC_RELEASE);
	return x;
}

struct px_mutex *px_mutex_start(pthread_mutex_t *m, const void *site)
{
	for (;;) {
		uintptr_t seen = __atomic_load_n(px_word(m), __ATOMIC_ACQUIRE);
		struct px_mutex *x = px_mutex_of(m);

		if (x)
			return x;
		if (seen == PX_STARTING) {
			/* Another thread is building it: a few hundred cycles. */
			sched_yield();
			continue;
		}
		/* Zero, or bytes that are not ours (a copy, garbage): whoever
		 * swaps in PX_STARTING builds it.  Acquire on success: orders
		 * our writes of the header after the claim. */
		if (__atomic_compare_exchange_n(px_word(m), &seen, PX_STARTING, false,
						__ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
			return px_publish(m, site);
	}
}

int px_mutex_init(pthread_mutex_t *m, const void *site)
{
	struct px_thread *t = px_self();

	/* Every byte glibc's kind or anyone's check could read, fresh. */
	memset(m, 0, sizeof(*m));
	if (t)
		t->c.mutex_inits++;
	__atomic_store_n(px_word(m), PX_STARTING, __ATOMIC_RELAXED);
	return px_publish(m, site) ? 0 : ENOMEM;
}

void px_mutex_destroy(pthread_mutex_t *m)
{
	struct px_mutex *x = px_mutex_of(m);
	struct px_thread *t = px_self();

	if (t)
		t->c.mutex_destroys++;
	if (x) {
		px_spin_lock(&px_reg_lock);
		struct px_mutex **slot = px_slot(m);

		if (*slot == x) {
			*slot = x->hnext;
			px_keep(x);
			px_cfg.ops->destroy(PX_LOCK(x));
			x->addr = NULL;
			x->hnext = px_free;
			px_free = x;
		}
		px_spin_unlock(&px_reg_lock);
	}
	memset(m, 0, sizeof(*m));
}

void px_mutex_each(px_mutex_fn *fn, void *ctx)
{
	px_spin_lock(&px_reg_lock);
	for (unsigned int b = 0; b < PX_BUCKETS; b++)
		for (const struct px_mutex *x = px_bucket[b]; x; x = x->hnext)
			fn(x, x->acquisitions + px_tally_sum(x->id, false), false, ctx);
	for (unsigned int i = 0; i < px_kept_n; i++)
		fn(&px_kept[i], px_kept[i].acquisitions, true, ctx);
	px_spin_unlock(&px_reg_lock);
}

void px_mutex_fork_prepare(void)
{
	px_spin_lock(&px_reg_lock);
}

void px_mutex_fork_parent(void)
{
	px_spin_unlock(&px_reg_lock);
}

void px_mutex_fork_child(void)
{
	for (unsigned int b = 0; b < PX_BUCKETS; b++)
		for (struct px_mutex *x = px_bucket[b]; x; x = x->hnext) {
			x->acquisitions = x->contentions = 0;
			x->contended_timed = x->contended_cycles = 0;
		}
	px_kept_n = 0;
	px_spin_unlock(&px_reg_lock);
}
