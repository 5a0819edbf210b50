/* workloads.c — expands bench/workloads/workloads.def into the table the CLI searches. */
#include <string.h>

#include "workload.h"

#define WORKLOAD(id, role, full, quick) extern const struct workload_ops workload_ops_##id;
#include "workloads.def"
#undef WORKLOAD

const struct workload_ops *const workload_registry[] = {
#define WORKLOAD(id, role, full, quick) &workload_ops_##id,
#include "workloads.def"
#undef WORKLOAD
};

const size_t workload_registry_len = sizeof(workload_registry) / sizeof(workload_registry[0]);

const struct workload_plan workload_plans[] = {
#define WORKLOAD(id, role, full, quick) { role, full, quick },
#include "workloads.def"
#undef WORKLOAD
};

const char *const workload_role_names[] = {
	[WL_UNPLANNED] = "none", [WL_SWEEP] = "sweep", [WL_PATCH] = "patch", [WL_KERNEL] = "kernel",
};

const struct workload_ops *workload_find(const char *name)
{
	for (size_t i = 0; i < workload_registry_len; i++)
		if (strcmp(workload_registry[i]->name, name) == 0)
			return workload_registry[i];
	return NULL;
}

const struct option_def *workload_option_find(const struct workload_ops *wl, const char *key)
{
	return option_find(wl->options, key, strlen(key));
}
