/*
 * ck-fas, ck-cas, ck-dec, ck-ticket, ck-ticket-pb — Concurrency Kit's
 * one-word spinlocks (ck_spinlock.h, libck-dev 0.7.1), each as ck ships it:
 *
 * - ck-fas: test-and-set by fetch-and-store, then spinning on reads until the
 *   word looks free (ck's default ck_spinlock_t);
 * - ck-cas: the same with compare-and-swap;
 * - ck-dec: an atomic decrement from 1 to 0 takes it;
 * - ck-ticket: the FIFO ticket lock; on x86-64 ck packs the next ticket and the
 *   one being served into one 32-bit word, and its unlock is a locked 16-bit
 *   increment of the served half (lockbench's `ticket` keeps two words and
 *   releases with a plain store);
 * - ck-ticket-pb: the ticket lock with proportional backoff: between two
 *   looks at the word a waiter spins for (its distance from the head) << c
 *   iterations, with c = 0 as ck's own regression benchmark calls it
 *   (regressions/ck_spinlock/ticket_pb.h).
 *
 * All five have a ck trylock, which the adapter makes its first attempt
 * (locks/ck.h says why); one X-macro expands the lock_ops of each.
 */
#include <ck_spinlock.h>

#include "ck.h"

#define CK_TICKET_PB_SHIFT 0

/* X(id, name, ck type prefix, the blocking acquisition of `l`, description) */
#define CK_WORD_LOCKS(X)                                                                         \
	X(ck_fas, "ck-fas", ck_spinlock_fas, ck_spinlock_fas_lock(l),                            \
	  "Concurrency Kit ck_spinlock_fas: fetch-and-store test-and-set, spins on reads")      \
	X(ck_cas, "ck-cas", ck_spinlock_cas, ck_spinlock_cas_lock(l),                            \
	  "Concurrency Kit ck_spinlock_cas: compare-and-swap test-and-set, spins on reads")     \
	X(ck_dec, "ck-dec", ck_spinlock_dec, ck_spinlock_dec_lock(l),                            \
	  "Concurrency Kit ck_spinlock_dec: atomic decrement from 1 to 0 takes it")             \
	X(ck_ticket, "ck-ticket", ck_spinlock_ticket, ck_spinlock_ticket_lock(l),                \
	  "Concurrency Kit ck_spinlock_ticket: FIFO ticket lock in one word")                   \
	X(ck_ticket_pb, "ck-ticket-pb", ck_spinlock_ticket,                                      \
	  ck_spinlock_ticket_lock_pb(l, CK_TICKET_PB_SHIFT),                                      \
	  "Concurrency Kit ck_spinlock_ticket_lock_pb: ticket lock, proportional backoff")

static void ck_word_destroy(void *lock)
{
	(void)lock;
}

#define CK_WORD_LOCK_DEFINE(id, lock_name, kind, lock_call, desc)                               \
	struct id##_lock {                                                                       \
		kind##_t word;                                                                   \
	} cacheline_aligned;                                                                     \
                                                                                                 \
	static int id##_init(void *lock, const struct lock_params *params)                       \
	{                                                                                        \
		(void)params;                                                                    \
		kind##_init(&((struct id##_lock *)lock)->word);                                  \
		return 0;                                                                        \
	}                                                                                        \
                                                                                                 \
	static bool id##_trylock(void *lock, struct lock_thread *self)                           \
	{                                                                                        \
		(void)self;                                                                      \
		if (!kind##_trylock(&((struct id##_lock *)lock)->word))                          \
			return false;                                                            \
		CK_ACQUIRED(lock);                                                               \
		return true;                                                                     \
	}                                                                                        \
                                                                                                 \
	/* A failed trylock first is what "contended" means (locks/ck.h). */                    \
	static bool id##_lock(void *lock, struct lock_thread *self)                              \
	{                                                                                        \
		kind##_t *l = &((struct id##_lock *)lock)->word;                                 \
		bool contended = !kind##_trylock(l);                                             \
                                                                                                 \
		(void)self;                                                                      \
		if (contended)                                                                   \
			lock_call;                                                               \
		CK_ACQUIRED(lock);                                                               \
		return contended;                                                                \
	}                                                                                        \
                                                                                                 \
	static void id##_unlock(void *lock, struct lock_thread *self)                            \
	{                                                                                        \
		(void)self;                                                                      \
		CK_RELEASING(lock);                                                              \
		kind##_unlock(&((struct id##_lock *)lock)->word);                                \
	}                                                                                        \
                                                                                                 \
	const struct lock_ops lock_ops_##id = {                                                  \
		.name = lock_name,                                                               \
		.description = desc,                                                             \
		.size = sizeof(struct id##_lock),                                                \
		.init = id##_init,                                                               \
		.destroy = ck_word_destroy,                                                      \
		.lock = id##_lock,                                                               \
		.unlock = id##_unlock,                                                           \
		.trylock = id##_trylock,                                                         \
	};

CK_WORD_LOCKS(CK_WORD_LOCK_DEFINE)
