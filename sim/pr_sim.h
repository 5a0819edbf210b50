/*
 * pr_sim.h — the lock API's simulated backend (LOCKBENCH_SIM), as the issue 39
 * contract (sim-api.md) gives it: the pr_* names over the simulator's
 * sim_pr_* functions (pr_sim.c).  Values travel as uint64_t, pointers through
 * uintptr_t; sizes 1, 2, 4 and 8 only.  locks/pr.h includes this under
 * LOCKBENCH_SIM (until it lands, the engine's tests include it directly).
 */
#ifndef LOCKBENCH_SIM_PR_SIM_H
#define LOCKBENCH_SIM_PR_SIM_H

#include <stdbool.h>
#include <stdint.h>

#define PR_RELAXED __ATOMIC_RELAXED
#define PR_ACQUIRE __ATOMIC_ACQUIRE
#define PR_RELEASE __ATOMIC_RELEASE
#define PR_ACQ_REL __ATOMIC_ACQ_REL
#define PR_SEQ_CST __ATOMIC_SEQ_CST

enum sim_rmw { SIM_RMW_XCHG, SIM_RMW_ADD, SIM_RMW_SUB, SIM_RMW_AND, SIM_RMW_OR };

uint64_t sim_pr_load(const volatile void *p, unsigned size, int mo);
void sim_pr_store(volatile void *p, unsigned size, uint64_t v, int mo);
uint64_t sim_pr_rmw(volatile void *p, unsigned size, enum sim_rmw op, uint64_t v, int mo);
bool sim_pr_cas(volatile void *p, unsigned size, uint64_t *expected, uint64_t desired, int smo, int fmo);
void sim_pr_relax(void);
uint64_t sim_pr_clock(void);
bool sim_pr_clock_past(uint64_t deadline);
void sim_pr_futex_wait(uint32_t *w, uint32_t expected);
void sim_pr_futex_wake(uint32_t *w, int n);
void sim_pr_yield(void);
int sim_pr_cpu(void);

#define PR_SIZE_OK_(p) \
	_Static_assert(sizeof(*(p)) == 1 || sizeof(*(p)) == 2 || sizeof(*(p)) == 4 || sizeof(*(p)) == 8, \
		       "pr_*: an atomic of 1, 2, 4 or 8 bytes")
#define PR_TYPE_(p) __typeof__(*(p))

#define pr_load(p, mo) \
	__extension__({ PR_SIZE_OK_(p); (PR_TYPE_(p))(uintptr_t)sim_pr_load((p), sizeof(*(p)), (mo)); })
#define pr_store(p, v, mo) \
	__extension__({ PR_SIZE_OK_(p); sim_pr_store((p), sizeof(*(p)), (uint64_t)(uintptr_t)(v), (mo)); })
#define PR_RMW_(p, op, v, mo) \
	__extension__({ PR_SIZE_OK_(p); \
		(PR_TYPE_(p))(uintptr_t)sim_pr_rmw((p), sizeof(*(p)), (op), (uint64_t)(uintptr_t)(v), (mo)); })
#define pr_xchg(p, v, mo)      PR_RMW_(p, SIM_RMW_XCHG, v, mo)
#define pr_fetch_add(p, v, mo) PR_RMW_(p, SIM_RMW_ADD, v, mo)
#define pr_fetch_sub(p, v, mo) PR_RMW_(p, SIM_RMW_SUB, v, mo)
#define pr_fetch_and(p, v, mo) PR_RMW_(p, SIM_RMW_AND, v, mo)
#define pr_fetch_or(p, v, mo)  PR_RMW_(p, SIM_RMW_OR, v, mo)
#define pr_add_fetch(p, v, mo) ((PR_TYPE_(p))(pr_fetch_add(p, v, mo) + (v)))
#define pr_sub_fetch(p, v, mo) ((PR_TYPE_(p))(pr_fetch_sub(p, v, mo) - (v)))
#define pr_cas(p, expp, v, smo, fmo) \
	__extension__({ PR_SIZE_OK_(p); \
		uint64_t pr_exp_ = (uint64_t)(uintptr_t)*(expp); \
		bool pr_ok_ = sim_pr_cas((p), sizeof(*(p)), &pr_exp_, (uint64_t)(uintptr_t)(v), (smo), (fmo)); \
		if (!pr_ok_) \
			*(expp) = (PR_TYPE_(p))(uintptr_t)pr_exp_; \
		pr_ok_; })

static inline void pr_relax(void) { sim_pr_relax(); }
static inline uint64_t pr_clock(void) { return sim_pr_clock(); }
static inline bool pr_clock_past(uint64_t dl) { return sim_pr_clock_past(dl); }
static inline void pr_futex_wait(uint32_t *w, uint32_t expected) { sim_pr_futex_wait(w, expected); }
static inline void pr_futex_wake(uint32_t *w, int n) { sim_pr_futex_wake(w, n); }
static inline void pr_yield(void) { sim_pr_yield(); }
static inline int pr_cpu(void) { return sim_pr_cpu(); }

#endif
