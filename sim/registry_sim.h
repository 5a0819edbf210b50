/*
 * registry_sim.h — the locks built against the simulator (locks_sim.def),
 * as struct lock_ops whose code runs only in a simulated thread.
 */
#ifndef LOCKBENCH_SIM_REGISTRY_SIM_H
#define LOCKBENCH_SIM_REGISTRY_SIM_H

#include <stddef.h>

struct lock_ops;
extern const struct lock_ops *const sim_lock_registry[];
extern const size_t sim_lock_registry_len;

#endif
