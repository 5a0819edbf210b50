/*
 * placement.c — each policy's CPU order, read off the hwloc topology.
 *
 * Every order lists each usable CPU once (except list:, which says what it
 * says); placement_plan() wraps threads around it.  The orders are defined on
 * hwloc's tree, not on OS numbers, so a policy means the same thing on every
 * machine: the synthetic two-socket topologies in tests/ check them.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "placement.h"
#include "topology.h"

#define LIST_PREFIX "list:"
#define LIST_MAX_ENTRIES 65536

const char *const placement_policies[] = { "cores", "compact", "scatter", "rr", NULL };

const char placement_help[] =
	"                            cores     one thread per physical core, package by package, then SMT siblings\n"
	"                            compact   fill a core's hardware threads, then the next core, then package\n"
	"                            scatter   round-robin across packages, NUMA nodes and caches, then cores\n"
	"                            list:CPUS an explicit CPU list in that order, e.g. list:0-3,8\n"
	"                            rr        the usable CPUs in OS numbering\n"
	"                            none      not pinned: the kernel places the threads\n";

static const char policy_names[] = "cores, compact, scatter, list:CPUS, rr, none";

/* ---- orders on the hwloc tree ---- */

/* compact: PUs in hwloc's logical order, a depth-first walk of the tree. */
static int order_compact(hwloc_topology_t topo, hwloc_const_bitmap_t usable, int *out)
{
	int n = 0;
	hwloc_obj_t pu = NULL;

	while ((pu = hwloc_get_next_obj_by_type(topo, HWLOC_OBJ_PU, pu)) != NULL)
		if (hwloc_bitmap_isset(usable, pu->os_index))
			out[n++] = (int)pu->os_index;
	return n;
}

/* The k-th usable PU of `core` (in logical order), or -1. */
static int core_pu(hwloc_const_bitmap_t usable, hwloc_obj_t core, int k)
{
	int id, seen = 0;

	hwloc_bitmap_foreach_begin(id, core->cpuset)
		if (hwloc_bitmap_isset(usable, (unsigned int)id) && seen++ == k)
			return id;
	hwloc_bitmap_foreach_end();
	return -1;
}

/* cores: the first usable PU of every core in logical order, then the second
 * of every core, and so on.  Without Core objects every PU is a core. */
static int order_cores(hwloc_topology_t topo, hwloc_const_bitmap_t usable, int *out)
{
	int n = 0, total = hwloc_bitmap_weight(usable);

	if (hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE) == 0)
		return order_compact(topo, usable, out);
	for (int k = 0; n < total; k++) {
		hwloc_obj_t core = NULL;
		int found = 0;

		while ((core = hwloc_get_next_obj_by_type(topo, HWLOC_OBJ_CORE, core)) != NULL) {
			int cpu = core_pu(usable, core, k);

			if (cpu >= 0) {
				out[n++] = cpu;
				found = 1;
			}
		}
		if (!found)
			break;  /* usable PUs outside any core: hwloc never makes these */
	}
	return n;
}

/*
 * scatter: the order of an object is its children's orders interleaved, one
 * CPU from each child in turn (children with nothing usable left are
 * skipped).  At the top this alternates packages; inside a package it
 * alternates NUMA nodes (hwloc hangs each under the object that holds its
 * CPUs), then shared caches, then cores; a core's SMT siblings come last.
 */
static int order_scatter_obj(hwloc_obj_t obj, hwloc_const_bitmap_t usable, int *out)
{
	int *child_cpus[obj->arity ? obj->arity : 1], child_n[obj->arity ? obj->arity : 1];
	int n = 0, failed = 0;

	if (obj->type == HWLOC_OBJ_PU) {
		if (!hwloc_bitmap_isset(usable, obj->os_index))
			return 0;
		out[0] = (int)obj->os_index;
		return 1;
	}
	if (obj->arity == 1)
		return order_scatter_obj(obj->children[0], usable, out);
	for (unsigned int c = 0; c < obj->arity; c++) {
		int weight = hwloc_bitmap_weight(obj->children[c]->cpuset);

		child_cpus[c] = malloc(sizeof(int) * (size_t)(weight > 0 ? weight : 1));
		child_n[c] = 0;
		if (!child_cpus[c])
			failed = 1;
		else
			child_n[c] = order_scatter_obj(obj->children[c], usable, child_cpus[c]);
		if (child_n[c] < 0)
			failed = 1;
	}
	for (int round = 0; !failed; round++) {
		int took = 0;

		for (unsigned int c = 0; c < obj->arity; c++)
			if (round < child_n[c]) {
				out[n++] = child_cpus[c][round];
				took = 1;
			}
		if (!took)
			break;
	}
	for (unsigned int c = 0; c < obj->arity; c++)
		free(child_cpus[c]);
	return failed ? -1 : n;
}

/* rr: the usable CPUs in OS numbering. */
static int order_rr(hwloc_const_bitmap_t usable, int *out)
{
	int id, n = 0;

	hwloc_bitmap_foreach_begin(id, usable)
		out[n++] = id;
	hwloc_bitmap_foreach_end();
	return n;
}

/* ---- list:CPUS ---- */

static int parse_cpu(const char **p, long *cpu)
{
	char *end;

	if (**p < '0' || **p > '9')
		return -1;
	errno = 0;
	*cpu = strtol(*p, &end, 10);
	if (errno || *cpu > INT_MAX)
		return -1;
	*p = end;
	return 0;
}

static int list_append(int **out, int *n, int *cap, int cpu)
{
	if (*n == *cap) {
		int grown_cap = *cap ? *cap * 2 : 16;
		int *grown = realloc(*out, sizeof(int) * (size_t)grown_cap);

		if (!grown)
			return -1;
		*out = grown;
		*cap = grown_cap;
	}
	(*out)[(*n)++] = cpu;
	return 0;
}

/* Parses "0-3,8" in order, keeping repeats; every CPU must be usable. */
static int order_list(const char *text, hwloc_const_bitmap_t usable, int **order,
		      char *err, size_t errlen)
{
	const char *p = text;
	int *out = NULL, n = 0, cap = 0;
	long bad_cpu = -1;
	char avail[256];

	for (;;) {
		long lo, hi;

		if (parse_cpu(&p, &lo) != 0)
			goto syntax;
		hi = lo;
		if (*p == '-' && (++p, parse_cpu(&p, &hi) != 0 || hi < lo))
			goto syntax;
		if (*p != ',' && *p != '\0')
			goto syntax;
		for (long cpu = lo; cpu <= hi; cpu++) {
			bad_cpu = cpu;
			if (!hwloc_bitmap_isset(usable, (unsigned int)cpu))
				goto unusable;
			if (n == LIST_MAX_ENTRIES) {
				snprintf(err, errlen, "--pin list:%s: more than %d CPUs", text, LIST_MAX_ENTRIES);
				goto fail;
			}
			if (list_append(&out, &n, &cap, (int)cpu) != 0) {
				snprintf(err, errlen, "--pin list:%s: out of memory", text);
				goto fail;
			}
		}
		if (*p++ == '\0')
			break;
	}
	*order = out;
	return n;
syntax:
	snprintf(err, errlen, "--pin list:%s: not a CPU list (like 0-3,8)", text);
	goto fail;
unusable:
	hwloc_bitmap_list_snprintf(avail, sizeof(avail), usable);
	snprintf(err, errlen, "--pin list:%s: CPU %ld is not usable by this process (usable: %s)",
		 text, bad_cpu, avail);
fail:
	free(out);
	return -1;
}

/* ---- the policies ---- */

static int order_of(hwloc_topology_t topo, const char *policy, hwloc_const_bitmap_t usable,
		    int **order, char *err, size_t errlen)
{
	int weight = hwloc_bitmap_weight(usable), n = -1;
	int *out;

	if (strncmp(policy, LIST_PREFIX, strlen(LIST_PREFIX)) == 0)
		return order_list(policy + strlen(LIST_PREFIX), usable, order, err, errlen);
	out = malloc(sizeof(int) * (size_t)weight);
	if (!out) {
		snprintf(err, errlen, "--pin %s: out of memory", policy);
		return -1;
	}
	if (strcmp(policy, "compact") == 0)
		n = order_compact(topo, usable, out);
	else if (strcmp(policy, "cores") == 0)
		n = order_cores(topo, usable, out);
	else if (strcmp(policy, "scatter") == 0)
		n = order_scatter_obj(hwloc_get_root_obj(topo), usable, out);
	else if (strcmp(policy, "rr") == 0)
		n = order_rr(usable, out);
	else
		snprintf(err, errlen, "--pin: unknown policy '%s' (valid: %s)", policy, policy_names);
	if (n < 0 && strcmp(policy, "scatter") == 0)
		snprintf(err, errlen, "--pin %s: out of memory", policy);
	else if (n == 0)
		snprintf(err, errlen, "--pin %s: no usable CPU in the topology", policy);
	if (n <= 0) {
		free(out);
		return -1;
	}
	*order = out;
	return n;
}

int placement_order(const char *policy, int **order, char *err, size_t errlen)
{
	hwloc_topology_t topo;
	hwloc_bitmap_t usable;
	int n;

	*order = NULL;
	if (strcmp(policy, "none") == 0)
		return 0;
	topo = topology_get(err, errlen);
	if (!topo)
		return -1;
	usable = topology_usable_cpus(topo, err, errlen);
	if (!usable)
		return -1;
	n = order_of(topo, policy, usable, order, err, errlen);
	hwloc_bitmap_free(usable);
	return n;
}

int placement_plan(const char *policy, unsigned int nthreads, int *cpu_of_thread,
		   char *err, size_t errlen)
{
	int *order;
	int n = placement_order(policy, &order, err, errlen);

	if (n < 0)
		return -1;
	for (unsigned int i = 0; i < nthreads; i++)
		cpu_of_thread[i] = n ? order[i % (unsigned int)n] : -1;
	free(order);
	return 0;
}

void placement_print_orders(FILE *out)
{
	char err[256];

	fprintf(out, "placement orders (OS CPU numbers; thread i runs on entry i mod n):\n");
	for (const char *const *p = placement_policies; *p; p++) {
		int *order;
		int n = placement_order(*p, &order, err, sizeof(err));

		fprintf(out, "  %-8s ", *p);
		for (int i = 0; i < n; i++)
			fprintf(out, "%s%d", i ? "," : "", order[i]);
		if (n < 0)
			fprintf(out, "(%s)", err);
		fprintf(out, "%s\n", strcmp(*p, PLACEMENT_DEFAULT) == 0 ? "   (default)" : "");
		free(order);
	}
}
