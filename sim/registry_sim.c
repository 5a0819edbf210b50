/*
 * registry_sim.c — the simulated build's registry (locks_sim.def): the only
 * global symbols of the partially linked simulated locks (the Makefile's
 * SIM_LOCKS), so their lock_ops_* and oracle_* stay apart from the native
 * ones in the same program.
 */
#include <string.h>

#include "../locks/lock.h"
#include "registry_sim.h"

#define LOCK(id) extern const struct lock_ops lock_ops_##id;
#include "locks_sim.def"
#undef LOCK

const struct lock_ops *const sim_lock_registry[] = {
#define LOCK(id) &lock_ops_##id,
#include "locks_sim.def"
#undef LOCK
};

const size_t sim_lock_registry_len = sizeof(sim_lock_registry) / sizeof(sim_lock_registry[0]);
