/*
 * pr.h — the one door of lock code to shared memory, the clock, the futex
 * and the scheduler (named after Concurrency Kit's ck_pr): every load and
 * store of lock state with its order, compare-and-swap, exchange and
 * fetch-and-op, the pause of a spin loop, a spin budget's clock, the futex
 * wait and wake, the yield and the CPU number.  Lock code (locks/ but for
 * ck_*.c and pthread.c, which stay native-only) touches them no other way.
 *
 * Two backends, chosen at compile time (issue 39):
 * - native (the default): each name expands to the builtin or call the locks
 *   used before this header, so the machine code is the same instruction for
 *   instruction (scripts/objdump-same.sh checks it against an older build);
 * - LOCKBENCH_SIM: the same names over the sim_pr_* functions, which the
 *   simulator (sim/) defines: it performs each access on the real memory
 *   (its simulated threads take turns on one OS thread) and charges virtual
 *   time for it.  Values travel as uint64_t, pointers through uintptr_t; a
 *   value is first converted to the accessed type, so the simulator sees
 *   what the native atomic would store (a negative value sign-extended: it
 *   keeps the low `size` bytes, and computes a fetch-and-op modulo
 *   2^(8*size)).  Only objects of 1, 2, 4 or 8 bytes: any other size fails
 *   to compile.
 *
 * `mo` is always one of the PR_* orders (the __ATOMIC_* constants): the
 * weakest correct order, with a comment at the call naming its pair.
 * pr_cpu() needs _GNU_SOURCE defined before the first system include, as
 * sched_getcpu() does; it is declared only then.
 */
#ifndef LOCKBENCH_PR_H
#define LOCKBENCH_PR_H

#include <stdbool.h>
#include <stdint.h>

#include "arch.h"

#define PR_RELAXED __ATOMIC_RELAXED
#define PR_ACQUIRE __ATOMIC_ACQUIRE
#define PR_RELEASE __ATOMIC_RELEASE
#define PR_ACQ_REL __ATOMIC_ACQ_REL
#define PR_SEQ_CST __ATOMIC_SEQ_CST

#ifndef LOCKBENCH_SIM

#include <sched.h>

#include "futex_sys.h"

#define pr_load(p, mo)               __atomic_load_n((p), (mo))
#define pr_store(p, v, mo)           __atomic_store_n((p), (v), (mo))
#define pr_xchg(p, v, mo)            __atomic_exchange_n((p), (v), (mo))
#define pr_cas(p, expp, v, smo, fmo) __atomic_compare_exchange_n((p), (expp), (v), false, (smo), (fmo))
#define pr_fetch_add(p, v, mo)       __atomic_fetch_add((p), (v), (mo))
#define pr_fetch_sub(p, v, mo)       __atomic_fetch_sub((p), (v), (mo))
#define pr_fetch_and(p, v, mo)       __atomic_fetch_and((p), (v), (mo))
#define pr_fetch_or(p, v, mo)        __atomic_fetch_or((p), (v), (mo))
#define pr_add_fetch(p, v, mo)       __atomic_add_fetch((p), (v), (mo))
#define pr_sub_fetch(p, v, mo)       __atomic_sub_fetch((p), (v), (mo))

/* The spin-wait hint (arch.h). */
static inline void pr_relax(void)
{
	cpu_relax();
}

/* TSC cycles, unordered: for spin budgets, never for timing an interval. */
static inline uint64_t pr_clock(void)
{
	return tsc_now();
}

/* Whether the clock has passed a spin budget's deadline.  A macro, so that
 * the deadline is read after the counter, as the spin loops always did (a
 * function's argument would be loaded first: other instructions). */
#define pr_clock_past(deadline) (tsc_now() > (deadline))

/* FUTEX_WAIT_PRIVATE / FUTEX_WAKE_PRIVATE (futex_sys.h). */
static inline void pr_futex_wait(uint32_t *word, uint32_t expected)
{
	futex_wait(word, expected);
}

static inline void pr_futex_wake(uint32_t *word, int n)
{
	futex_wake(word, n);
}

static inline void pr_yield(void)
{
	sched_yield();
}

/* Whether a thread holding a spinlock in lock code can be preempted: a
 * userspace thread always can. */
static inline bool pr_holder_preemptible(void)
{
	return true;
}

#ifdef _GNU_SOURCE
/* The CPU this thread runs on, or -1. */
static inline int pr_cpu(void)
{
	return sched_getcpu();
}
#endif

#else /* LOCKBENCH_SIM: the simulator's backend (sim/) */

enum sim_rmw { SIM_RMW_XCHG, SIM_RMW_ADD, SIM_RMW_SUB, SIM_RMW_AND, SIM_RMW_OR };

uint64_t sim_pr_load(const volatile void *p, unsigned size, int mo);
void sim_pr_store(volatile void *p, unsigned size, uint64_t v, int mo);
/* Returns the old value. */
uint64_t sim_pr_rmw(volatile void *p, unsigned size, enum sim_rmw op, uint64_t v, int mo);
/* On failure *expected = the value found. */
bool sim_pr_cas(volatile void *p, unsigned size, uint64_t *expected, uint64_t desired, int smo, int fmo);
void sim_pr_relax(void);
uint64_t sim_pr_clock(void);  /* virtual TSC cycles of the calling simulated thread */
bool sim_pr_clock_past(uint64_t deadline);
void sim_pr_futex_wait(uint32_t *w, uint32_t expected);
void sim_pr_futex_wake(uint32_t *w, int n);
void sim_pr_yield(void);
bool sim_pr_holder_preemptible(void);  /* false under the simulator's kernel semantics */
int sim_pr_cpu(void);

/* The accessed object's size, refused unless 1, 2, 4 or 8 bytes. */
#define PR_SIZE(p)											\
	({												\
		_Static_assert(sizeof(*(p)) == 1 || sizeof(*(p)) == 2 || sizeof(*(p)) == 4 ||	\
			       sizeof(*(p)) == 8, "pr.h: an atomic of 1, 2, 4 or 8 bytes only");	\
		(unsigned)sizeof(*(p));									\
	})
/* A value of *p's type to the simulator's uint64_t, and back. */
#define PR_TO_U64(x)      ((uint64_t)(uintptr_t)(x))
#define PR_FROM_U64(p, u) ((__typeof__(*(p)))(uintptr_t)(u))

#define pr_load(p, mo) PR_FROM_U64((p), sim_pr_load((p), PR_SIZE(p), (mo)))
#define pr_store(p, v, mo)								\
	({										\
		__typeof__(*(p)) pr_v_ = (v);						\
		sim_pr_store((p), PR_SIZE(p), PR_TO_U64(pr_v_), (mo));			\
	})
#define PR_RMW(p, op, v, mo)								\
	({										\
		__typeof__(*(p)) pr_v_ = (v);						\
		PR_FROM_U64((p), sim_pr_rmw((p), PR_SIZE(p), (op), PR_TO_U64(pr_v_), (mo)));	\
	})
#define pr_xchg(p, v, mo)      PR_RMW((p), SIM_RMW_XCHG, (v), (mo))
#define pr_fetch_add(p, v, mo) PR_RMW((p), SIM_RMW_ADD, (v), (mo))
#define pr_fetch_sub(p, v, mo) PR_RMW((p), SIM_RMW_SUB, (v), (mo))
#define pr_fetch_and(p, v, mo) PR_RMW((p), SIM_RMW_AND, (v), (mo))
#define pr_fetch_or(p, v, mo)  PR_RMW((p), SIM_RMW_OR, (v), (mo))
/* The new value, computed here from the old one, in *p's type. */
#define pr_add_fetch(p, v, mo)								\
	({										\
		__typeof__(*(p)) pr_d_ = (v);						\
		(__typeof__(*(p)))(pr_fetch_add((p), pr_d_, (mo)) + pr_d_);		\
	})
#define pr_sub_fetch(p, v, mo)								\
	({										\
		__typeof__(*(p)) pr_d_ = (v);						\
		(__typeof__(*(p)))(pr_fetch_sub((p), pr_d_, (mo)) - pr_d_);		\
	})
/* As __atomic_compare_exchange_n (strong): on failure the value found is
 * written back to *expp. */
#define pr_cas(p, expp, v, smo, fmo)							\
	({										\
		__typeof__(*(p)) *pr_e_ = (expp);					\
		__typeof__(*(p)) pr_v_ = (v);						\
		uint64_t pr_x_ = PR_TO_U64(*pr_e_);					\
		bool pr_ok_ = sim_pr_cas((p), PR_SIZE(p), &pr_x_, PR_TO_U64(pr_v_), (smo), (fmo));	\
		if (!pr_ok_)								\
			*pr_e_ = PR_FROM_U64((p), pr_x_);				\
		pr_ok_;									\
	})

#define pr_relax()            sim_pr_relax()
#define pr_clock()            sim_pr_clock()
#define pr_clock_past(dl)     sim_pr_clock_past(dl)
#define pr_futex_wait(w, exp) sim_pr_futex_wait((w), (exp))
#define pr_futex_wake(w, n)   sim_pr_futex_wake((w), (n))
#define pr_yield()            sim_pr_yield()
#define pr_holder_preemptible() sim_pr_holder_preemptible()
#define pr_cpu()              sim_pr_cpu()

#endif /* LOCKBENCH_SIM */

#endif
