/*
 * registry.c — expands locks/locks.def into the table the harness searches.
 * It refers to every lock; no lock refers to it (what their options' set()
 * share is options.c's), so calls between the files of locks/ go one way.
 */
#include <string.h>

#include "lock.h"

#define LOCK(id, column, roles) extern const struct lock_ops lock_ops_##id;
#include "locks.def"
#undef LOCK

const struct lock_ops *const lock_registry[] = {
#define LOCK(id, column, roles) &lock_ops_##id,
#include "locks.def"
#undef LOCK
};

const size_t lock_registry_len = sizeof(lock_registry) / sizeof(lock_registry[0]);

/* A lock's roles are its locks.def line's; a test build may move them
 * (tests/registry-roles.c), to show that the planning goes by the role. */
#ifndef LOCK_ROLES
#define LOCK_ROLES(id, roles) (roles)
#endif

const struct lock_plan lock_plans[] = {
#define LOCK(id, column, roles) { column, LOCK_ROLES(id, roles) },
#include "locks.def"
#undef LOCK
};

const char *const spin_exit_name[SPIN_EXIT_NR] = {
#define SPIN_EXIT_NAME(id, name, title) [SPIN_EXIT_##id] = name,
	SPIN_EXIT_REASONS(SPIN_EXIT_NAME)
#undef SPIN_EXIT_NAME
};

const char *lock_registry_name(size_t i)
{
	return lock_registry[i]->name;
}

const struct lock_ops *lock_find(const char *name)
{
	for (size_t i = 0; i < lock_registry_len; i++)
		if (strcmp(lock_registry[i]->name, name) == 0)
			return lock_registry[i];
	return NULL;
}

const struct option_def *lock_option_find(const struct lock_ops *ops, const char *key, size_t klen)
{
	return option_find(ops->options, key, klen);
}
