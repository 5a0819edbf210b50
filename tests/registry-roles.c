/*
 * registry-roles.c — the registry of build/tests/lockbench-roles: locks.def's,
 * but with three roles on other locks (tests/run-all-roles.t): NUMA-only on
 * ttas instead of ck_cohort, the programs' baseline on kmutex_fix instead of
 * pthread, Concurrency Kit's on tas instead of ck_mcs.  A planner that goes
 * by the role plans this build's locks differently from the real one's; one
 * that goes by a lock's name does not.
 */

/* MOVED(X): 1 where the macro X is defined as 1, else 0 (the kernel's
 * IS_ENABLED: a defined X expands to the placeholder's "0," and shifts the
 * 1 into second place). */
#define ROLES_PLACEHOLDER_1 0,
#define ROLES_SECOND(ignored, val, ...) val
#define MOVED(x) MOVED_(x)
#define MOVED_(val) MOVED__(ROLES_PLACEHOLDER_##val)
#define MOVED__(arg_or_junk) ROLES_SECOND(arg_or_junk 1, 0)

/* The locks whose role is toggled: taken from one, given to the other. */
#define NUMA_ck_cohort 1
#define NUMA_ttas 1
#define BASE_pthread 1
#define BASE_kmutex_fix 1
#define CK_ck_mcs 1
#define CK_tas 1

#define LOCK_ROLES(id, roles)                                                                      \
	((roles) ^ (LOCK_R_NUMA_ONLY * MOVED(NUMA_##id)) ^ (LOCK_R_PROGRAM_BASE * MOVED(BASE_##id)) ^ \
	 (LOCK_R_CK * MOVED(CK_##id)))

#include "../locks/registry.c"
