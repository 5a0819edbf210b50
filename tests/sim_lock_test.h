/*
 * sim_lock_test.h — a simulated lock by name (sim/registry_sim.h), for the
 * tests that run the real locks' simulated build (test_sim_kmutex.c,
 * test_sim_waitlock.c); include after cmocka.h.
 */
#ifndef LOCKBENCH_TESTS_SIM_LOCK_TEST_H
#define LOCKBENCH_TESTS_SIM_LOCK_TEST_H

#include <string.h>

#include "../locks/lock.h"
#include "../sim/registry_sim.h"

static inline const struct lock_ops *sim_lock(const char *name)
{
	for (size_t i = 0; i < sim_lock_registry_len; i++)
		if (strcmp(sim_lock_registry[i]->name, name) == 0)
			return sim_lock_registry[i];
	fail_msg("no simulated lock %s", name);
	return NULL;
}

#endif
