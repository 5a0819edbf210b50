/*
 * simrun.h — a simulated run (lockbench --sim PROFILE; docs/sim.md, "Running
 * a simulation"): the lock's simulated build (sim/locks_sim.def) on the
 * profile's virtual machine, each acquisition's hold and the gap after it
 * drawn from the profile's times of the workload, its result in the same
 * struct bench_result as a real run's, for the same result files.
 */
#ifndef LOCKBENCH_SIMRUN_H
#define LOCKBENCH_SIMRUN_H

#include <stdbool.h>
#include <stddef.h>

#include "../core/config.h"
#include "../core/result.h"

/*
 * Runs cfg (cfg->sim_profile set) and fills res; returns an enum
 * bench_exit: EXIT_USAGE for what the command line asked that cannot be
 * simulated (an unknown profile, a lock with no simulated build, a workload
 * the profile has no times for), EXIT_RUNTIME when the simulation fails,
 * EXIT_INVARIANT when the lock let two threads in.  One-line message in err.
 * Release res with bench_result_free() (run.h).
 */
int bench_simrun(const struct bench_config *cfg, struct bench_result *res, char *err, size_t errlen);

/* Whether lock NAME has a simulated build (--list marks it). */
bool bench_sim_lock(const char *name);

/* The semantics a run of cfg's lock gets: kernel or user (never DEFAULT). */
int bench_sim_semantics(const struct bench_config *cfg);

#endif
