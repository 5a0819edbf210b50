/*
 * pr_sim.h — the lock API's simulated backend, as the simulator's own code
 * and tests see it: locks/pr.h with LOCKBENCH_SIM, whose pr_* names are
 * macros over the sim_pr_* functions that sim/pr_sim.c defines.  The one
 * place those functions and enum sim_rmw are declared is locks/pr.h.
 */
#ifndef LOCKBENCH_SIM_PR_SIM_H
#define LOCKBENCH_SIM_PR_SIM_H

#ifndef LOCKBENCH_SIM
#define LOCKBENCH_SIM
#endif
#include "../locks/pr.h"

#endif
