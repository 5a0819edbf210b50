/*
 * preload_mutex.c — a program's mutex becoming one of ours, and the one
 * place that decides its life (preload.h lists the rules): started (at
 * pthread_mutex_init, or lazily at first use of a zeroed one), adopted
 * after fork, found again, re-initialized, destroyed.
 *
 * In the mutex's own 40 bytes: word 0 points at the header (struct
 * px_mutex, then the lock), word 3 holds that pointer ^ the mutex's address
 * ^ a per-process key; glibc's kind (bytes 16-19) stays 0.  A copy of a
 * mutex's bytes elsewhere, or garbage, fails the check and is started anew;
 * the lock calls never look further (preload.h, px_mutex_of).  A fork's
 * child draws a new key: a pointer stamped by another process (a private
 * mutex in a MAP_SHARED page, which POSIX leaves undefined and glibc
 * survives) points into that process's memory, never to be followed here;
 * the child adopts its ancestors' stamps only where its own registry
 * holds that very header at that address.
 *
 * The registry — a hash of started mutexes by address, under one spinlock,
 * doubled as it fills — is for the slow paths only: a mutex started at an
 * address whose last mutex was never destroyed (freed, its memory reused)
 * takes that header back, reset, rather than leak one per reuse; an
 * ancestor's mutex is adopted by it; and the exit report lists the hottest
 * mutexes.  Destroyed headers are recycled through a free list; the most
 * contended destroyed mutexes' figures are kept for mutexes.csv.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "preload.h"

#define PX_BUCKETS_MIN 4096
#define PX_KEPT 64     /* destroyed mutexes kept for the report: the most contended */

static int px_reg_lock;
static struct px_mutex *px_bucket_min[PX_BUCKETS_MIN];  /* before the first growth */
static struct px_mutex **px_bucket = px_bucket_min;
static unsigned int px_bucket_bits = 12;     /* log2 of the buckets */
static size_t px_started;                    /* headers in the registry */
static struct px_mutex *px_free;             /* recycled headers (hnext links) */
static struct px_mutex px_kept[PX_KEPT];     /* destroyed ones' figures (addr: where it was) */
static unsigned int px_kept_n;
static uint32_t px_ids;                      /* headers made: the next one's id */

_Static_assert(sizeof(pthread_mutex_t) >= 32, "the header pointer and its check need 32 bytes");
_Static_assert(offsetof(struct __pthread_mutex_s, __kind) == 16, "glibc's kind is not where expected");
_Static_assert((1u << 12) == PX_BUCKETS_MIN, "px_bucket_bits starts at PX_BUCKETS_MIN");

/* Fibonacci hashing: the top bits of the address's multiple. */
static size_t px_hash(const pthread_mutex_t *m, unsigned int bits)
{
	uintptr_t a = (uintptr_t)m >> 3;

	return (size_t)((a * UINT64_C(0x9e3779b97f4a7c15)) >> (64 - bits));
}

static struct px_mutex **px_slot(const pthread_mutex_t *m)
{
	struct px_mutex **p = &px_bucket[px_hash(m, px_bucket_bits)];

	while (*p && (*p)->addr != m)
		p = &(*p)->hnext;
	return p;
}

/* Twice the buckets once the registry holds twice as many mutexes: chains
 * stay short, so starting a million mutexes takes linear time.  Without
 * the memory it keeps the table it has (longer chains, nothing lost).
 * Registry held. */
static void px_registry_grow(void)
{
	unsigned int bits = px_bucket_bits + 1;
	struct px_mutex **b = calloc((size_t)1 << bits, sizeof(*b));

	if (!b)
		return;
	for (size_t i = 0; i < ((size_t)1 << px_bucket_bits); i++)
		for (struct px_mutex *x = px_bucket[i], *next; x; x = next) {
			size_t h = px_hash(x->addr, bits);

			next = x->hnext;
			x->hnext = b[h];
			b[h] = x;
		}
	if (px_bucket != px_bucket_min)
		free(px_bucket);
	px_bucket = b;
	px_bucket_bits = bits;
}

static void px_registry_add(struct px_mutex *x)
{
	struct px_mutex **slot;

	if (++px_started > ((size_t)2 << px_bucket_bits))
		px_registry_grow();
	slot = &px_bucket[px_hash(x->addr, px_bucket_bits)];
	x->hnext = *slot;
	*slot = x;
}

static void px_registry_unlink(struct px_mutex **slot)
{
	*slot = (*slot)->hnext;
	px_started--;
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

/* A header whose mutex is gone (freed undestroyed, its address reused) or
 * destroyed, its figures kept and its lock destroyed.  A holder's node left
 * in it goes back to the pool (LOCK_F_HOLDS_THREAD: the holder will never
 * unlock it, and would otherwise leak one per mutex freed while held);
 * other locks' owner_lt is their thread's own node.  Registry held. */
static void px_retire(struct px_mutex *x)
{
	px_keep(x);
	if (px_cfg.holds_thread && x->owner_lt)
		px_node_give(px_node_of(x->owner_lt));
	x->owner_lt = NULL;
	px_cfg.ops->destroy(PX_LOCK(x));
}

/* A new header's memory, cut from slabs of PX_SLAB: one aligned_alloc
 * per header left glibc's bins a free remainder each (memalign splits
 * its chunk), which every later malloc walked — a million mutexes took
 * seconds.  Headers are never freed (type-stable), so slabs never are.
 * Registry held. */
#define PX_SLAB 256
static struct px_mutex *px_header_alloc(void)
{
	static char *slab;
	static unsigned int left;
	struct px_mutex *x;

	if (!left) {
		slab = aligned_alloc(CACHELINE, PX_SLAB * px_cfg.mutex_size);
		if (!slab)
			return NULL;
		left = PX_SLAB;
	}
	x = (struct px_mutex *)(void *)slab;
	slab += px_cfg.mutex_size;
	left--;
	return x;
}

/* A header for m, its lock initialized: the stale one at m's address
 * (retired first), a recycled one, or a new one.  Registry held. */
static struct px_mutex *px_header_for(pthread_mutex_t *m, bool *restarted)
{
	struct px_mutex **slot = px_slot(m), *x = *slot;
	uint32_t id;

	*restarted = x != NULL;
	if (x) {
		px_registry_unlink(slot);
		px_retire(x);
	} else if (px_free) {
		x = px_free;
		px_free = x->hnext;
	} else if (!(x = px_header_alloc())) {
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
	px_registry_add(x);
	return x;
}

/* Builds m's header and publishes it in m's bytes (word 0 is PX_STARTING,
 * ours).  NULL, word 0 back to 0, when there is no memory.  site: the
 * call's return address, its callers walked for a lock call (LOCKING),
 * not for pthread_mutex_init(): a function that returns straight after
 * its last init (an init loop's end) is no wrapper, as one that returns
 * holding the mutex it locked is. */
static struct px_mutex *px_publish(pthread_mutex_t *m, const void *site, bool locking)
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
	px_frames_record(x->frames, site, locking);
	if (t) {
		t->c.mutex_starts++;
		t->c.mutex_restarts += restarted;
	}
	__atomic_store_n(px_check(m), (uintptr_t)x ^ (uintptr_t)m ^ px_cfg.key, __ATOMIC_RELAXED);
	/* Release: pairs with px_mutex_of's acquire load; the header and the
	 * check word are seen before the pointer. */
	__atomic_store_n(px_word(m), (uintptr_t)x, __ATOMIC_RELEASE);
	return x;
}

/*
 * m stamped by an ancestor process (its check word made with a key this
 * process inherited) and this process's registry holding that header at
 * m's address: the mutex started before fork, its lock state this
 * process's copy.  Re-stamped with this process's key, so the fast path
 * finds it from now on.  A sibling's stamp (its own key) or an ancestor's
 * pointer this registry does not hold is never followed: NULL.
 */
static struct px_mutex *px_adopt(pthread_mutex_t *m, uintptr_t p)
{
	uintptr_t check = __atomic_load_n(px_check(m), __ATOMIC_RELAXED);
	struct px_mutex *x = NULL;
	unsigned int g = 0;

	while (g < PX_KEY_GENERATIONS && px_cfg.key_old[g] && check != (p ^ (uintptr_t)m ^ px_cfg.key_old[g]))
		g++;
	if (g == PX_KEY_GENERATIONS || !px_cfg.key_old[g])
		return NULL;
	px_spin_lock(&px_reg_lock);
	if (*px_slot(m) == (struct px_mutex *)p) {
		x = (struct px_mutex *)p;
		__atomic_store_n(px_check(m), p ^ (uintptr_t)m ^ px_cfg.key, __ATOMIC_RELAXED);
	}
	px_spin_unlock(&px_reg_lock);
	return x;
}

struct px_mutex *px_mutex_find(pthread_mutex_t *m)
{
	struct px_mutex *x = px_mutex_of(m);
	uintptr_t p;

	if (x)
		return x;
	p = __atomic_load_n(px_word(m), __ATOMIC_ACQUIRE);
	return p > PX_STARTING ? px_adopt(m, p) : NULL;
}

struct px_mutex *px_mutex_start(pthread_mutex_t *m, const void *site)
{
	for (;;) {
		uintptr_t seen = __atomic_load_n(px_word(m), __ATOMIC_ACQUIRE);
		struct px_mutex *x = px_mutex_find(m);

		if (x)
			return x;
		if (seen == PX_STARTING) {
			/* Another thread is building it: a few hundred cycles. */
			sched_yield();
			continue;
		}
		/* Zero, or bytes that are not ours (a copy, garbage, another
		 * process's stamp): whoever swaps in PX_STARTING builds it.
		 * Acquire on success: orders our writes of the header after
		 * the claim. */
		if (__atomic_compare_exchange_n(px_word(m), &seen, PX_STARTING, false,
						__ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
			return px_publish(m, site, true);
	}
}

/* pthread_mutex_init() of a mutex still held: its header leaves the
 * registry without being reset or recycled (its holder's unlock, and its
 * waiters, may still be in its lock: glibc's init leaves them on a
 * free word too), its figures kept; it is never reused. */
static void px_orphan(struct px_mutex *x)
{
	px_spin_lock(&px_reg_lock);
	struct px_mutex **slot = px_slot(x->addr);

	if (*slot == x) {
		px_registry_unlink(slot);
		px_keep(x);
	}
	px_spin_unlock(&px_reg_lock);
}

int px_mutex_init(pthread_mutex_t *m, const void *site)
{
	struct px_thread *t = px_self();
	struct px_mutex *x = px_mutex_find(m);

	/* Held: a new header for m; the holder's unlock then finds m free.
	 * Free: px_publish resets the header at m's address. */
	if (x && x->owner_lt)
		px_orphan(x);
	/* Every byte glibc's kind or anyone's check could read, fresh. */
	memset(m, 0, sizeof(*m));
	if (t)
		t->c.mutex_inits++;
	__atomic_store_n(px_word(m), PX_STARTING, __ATOMIC_RELAXED);
	return px_publish(m, site, false) ? 0 : ENOMEM;
}

int px_mutex_destroy(pthread_mutex_t *m)
{
	struct px_mutex *x = px_mutex_find(m);
	struct px_thread *t = px_self();

	/* glibc's answer for a normal mutex that is locked. */
	if (x && x->owner_lt)
		return EBUSY;
	if (t)
		t->c.mutex_destroys++;
	if (x) {
		px_spin_lock(&px_reg_lock);
		struct px_mutex **slot = px_slot(m);

		if (*slot == x) {
			px_registry_unlink(slot);
			px_retire(x);
			x->addr = NULL;
			x->hnext = px_free;
			px_free = x;
		}
		px_spin_unlock(&px_reg_lock);
	}
	memset(m, 0, sizeof(*m));
	return 0;
}

/* ---- the exit report's rows ---- */

struct px_row {
	const struct px_mutex *x;
	uint64_t acquisitions;
	bool destroyed;
};

/* a ranks below b: fewer contentions, then fewer acquisitions (the
 * launcher's order, bench/exec/launcher/write.c's by_contention). */
static bool px_row_below(const struct px_row *a, const struct px_row *b)
{
	if (a->x->contentions != b->x->contentions)
		return a->x->contentions < b->x->contentions;
	return a->acquisitions < b->acquisitions;
}

/* The hottest PX_MUTEX_ROWS kept in a min-heap (heap[0] the least of
 * them): a million mutexes cost a million compares and a few sifts. */
struct px_top {
	struct px_row heap[PX_MUTEX_ROWS];
	unsigned int n;
};

static void px_top_sift(struct px_top *top, unsigned int i)
{
	for (;;) {
		unsigned int least = i, l = 2 * i + 1, r = l + 1;
		struct px_row swap;

		if (l < top->n && px_row_below(&top->heap[l], &top->heap[least]))
			least = l;
		if (r < top->n && px_row_below(&top->heap[r], &top->heap[least]))
			least = r;
		if (least == i)
			return;
		swap = top->heap[i];
		top->heap[i] = top->heap[least];
		top->heap[least] = swap;
		i = least;
	}
}

static void px_top_add(struct px_top *top, const struct px_mutex *x, uint64_t acquisitions, bool destroyed)
{
	struct px_row row = { x, acquisitions, destroyed };

	if (!acquisitions)
		return;
	if (top->n < PX_MUTEX_ROWS) {
		unsigned int i = top->n++;

		top->heap[i] = row;
		/* Up: a parent above its child moves down. */
		while (i && px_row_below(&top->heap[i], &top->heap[(i - 1) / 2])) {
			struct px_row swap = top->heap[i];

			top->heap[i] = top->heap[(i - 1) / 2];
			top->heap[(i - 1) / 2] = swap;
			i = (i - 1) / 2;
		}
	} else if (px_row_below(&top->heap[0], &row)) {
		top->heap[0] = row;
		px_top_sift(top, 0);
	}
}

void px_mutex_hottest(px_mutex_fn *fn, void *ctx)
{
	static struct px_top top;  /* at exit, once: off the stack */
	struct px_row order[PX_MUTEX_ROWS];
	unsigned int n;

	px_spin_lock(&px_reg_lock);
	top.n = 0;
	for (size_t b = 0; b < ((size_t)1 << px_bucket_bits); b++)
		for (const struct px_mutex *x = px_bucket[b]; x; x = x->hnext)
			px_top_add(&top, x, x->acquisitions + px_tally_sum(x->id, false), false);
	for (unsigned int i = 0; i < px_kept_n; i++)
		px_top_add(&top, &px_kept[i], px_kept[i].acquisitions, true);
	/* Popping the least each time fills the order from its end. */
	for (n = top.n; top.n; ) {
		order[--top.n] = top.heap[0];
		top.heap[0] = top.heap[top.n];
		px_top_sift(&top, 0);
	}
	for (unsigned int i = 0; i < n; i++)
		fn(order[i].x, order[i].acquisitions, order[i].destroyed, ctx);
	px_spin_unlock(&px_reg_lock);
}

/* ---- fork ---- */

uintptr_t px_key_draw(void)
{
	uintptr_t key;

	if (getrandom(&key, sizeof(key), GRND_NONBLOCK) != sizeof(key))
		key = (uintptr_t)tsc_now() * UINT64_C(0x9e3779b97f4a7c15);
	return key | 1;  /* never 0: key_old's end mark */
}

void px_mutex_fork_prepare(void)
{
	px_spin_lock(&px_reg_lock);
}

void px_mutex_fork_parent(void)
{
	px_spin_unlock(&px_reg_lock);
}

/* The child's figures start from zero, and it draws its own key: the
 * parent's goes to the ancestors' (px_adopt), the oldest forgotten. */
void px_mutex_fork_child(void)
{
	for (size_t b = 0; b < ((size_t)1 << px_bucket_bits); b++)
		for (struct px_mutex *x = px_bucket[b]; x; x = x->hnext) {
			x->acquisitions = x->contentions = 0;
			x->contended_timed = x->contended_cycles = 0;
		}
	px_kept_n = 0;
	memmove(&px_cfg.key_old[1], &px_cfg.key_old[0], sizeof(px_cfg.key_old) - sizeof(px_cfg.key_old[0]));
	px_cfg.key_old[0] = px_cfg.key;
	px_cfg.key = px_key_draw();
	px_spin_unlock(&px_reg_lock);
}
