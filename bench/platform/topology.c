/*
 * topology.c — one hwloc topology per process, and `lockbench --topology`.
 */
#include <stdlib.h>
#include <string.h>

#include "topology.h"

static hwloc_topology_t loaded;
static char *xml_override;

void topology_use_xml(const char *xml_path)
{
	if (loaded)
		hwloc_topology_destroy(loaded);
	loaded = NULL;
	free(xml_override);
	xml_override = xml_path ? strdup(xml_path) : NULL;
}

hwloc_topology_t topology_get(char *err, size_t errlen)
{
	hwloc_topology_t topo;

	if (loaded)
		return loaded;
	if (hwloc_topology_init(&topo) != 0) {
		snprintf(err, errlen, "hwloc: cannot initialise a topology");
		return NULL;
	}
	if (xml_override && hwloc_topology_set_xml(topo, xml_override) != 0) {
		snprintf(err, errlen, "hwloc: cannot read topology XML '%s'", xml_override);
		hwloc_topology_destroy(topo);
		return NULL;
	}
	if (hwloc_topology_load(topo) != 0) {
		snprintf(err, errlen, "hwloc: cannot load the %s topology",
			 xml_override ? xml_override : "machine's");
		hwloc_topology_destroy(topo);
		return NULL;
	}
	loaded = topo;
	return loaded;
}

int topology_is_this_machine(hwloc_topology_t topo)
{
	return hwloc_topology_is_thissystem(topo);
}

hwloc_bitmap_t topology_usable_cpus(hwloc_topology_t topo, char *err, size_t errlen)
{
	hwloc_bitmap_t usable = hwloc_bitmap_dup(hwloc_topology_get_topology_cpuset(topo));
	hwloc_bitmap_t bound = hwloc_bitmap_alloc();

	if (!usable || !bound) {
		snprintf(err, errlen, "hwloc: out of memory");
		goto fail;
	}
	hwloc_bitmap_and(usable, usable, hwloc_topology_get_allowed_cpuset(topo));
	if (topology_is_this_machine(topo)) {
		if (hwloc_get_cpubind(topo, bound, HWLOC_CPUBIND_THREAD) != 0) {
			snprintf(err, errlen, "hwloc: cannot read this thread's CPU binding");
			goto fail;
		}
		hwloc_bitmap_and(usable, usable, bound);
	}
	if (hwloc_bitmap_iszero(usable)) {
		snprintf(err, errlen, "no CPU of the topology is usable by this process");
		goto fail;
	}
	hwloc_bitmap_free(bound);
	return usable;
fail:
	hwloc_bitmap_free(usable);
	hwloc_bitmap_free(bound);
	return NULL;
}

unsigned int topology_count(hwloc_topology_t topo, hwloc_obj_type_t type)
{
	int n = hwloc_get_nbobjs_by_type(topo, type);

	return n > 0 ? (unsigned int)n : 0;
}

/* ---- lockbench --topology ---- */

/* Bytes as KiB/MiB/GiB, exact when they divide. */
static void size_text(uint64_t bytes, char *buf, size_t len)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	double v = (double)bytes;
	int u = 0;

	while (v >= 1024 && u < 4) {
		v /= 1024;
		u++;
	}
	if (v == (double)(uint64_t)v)
		snprintf(buf, len, "%.0f %s", v, unit[u]);
	else
		snprintf(buf, len, "%.1f %s", v, unit[u]);
}

static void obj_label(hwloc_obj_t obj, char *buf, size_t len)
{
	char type[32], size[32];

	hwloc_obj_type_snprintf(type, sizeof(type), obj, 0);
	if (hwloc_obj_type_is_cache(obj->type)) {
		size_text(obj->attr->cache.size, size, sizeof(size));
		snprintf(buf, len, "%s %s", type, size);
	} else if (obj->type == HWLOC_OBJ_NUMANODE) {
		size_text(obj->attr->numanode.local_memory, size, sizeof(size));
		snprintf(buf, len, "%s P#%u (%s)", type, obj->os_index, size);
	} else if (obj->os_index != HWLOC_UNKNOWN_INDEX && obj->type != HWLOC_OBJ_MACHINE) {
		snprintf(buf, len, "%s P#%u", type, obj->os_index);
	} else {
		snprintf(buf, len, "%s", type);
	}
}

/* One line per object, lstopo-style: single-child chains share a line. */
static void print_tree(FILE *out, hwloc_obj_t obj, int depth)
{
	char line[512], label[96], cpus[256];
	size_t used = 0;
	hwloc_obj_t o = obj;

	for (;;) {
		obj_label(o, label, sizeof(label));
		used += (size_t)snprintf(line + used, sizeof(line) - used, "%s%s", used ? " + " : "", label);
		if (used >= sizeof(line) || o->arity != 1 || o->memory_arity != 0)
			break;
		o = o->children[0];
	}
	hwloc_bitmap_list_snprintf(cpus, sizeof(cpus), o->cpuset);
	if (o->type == HWLOC_OBJ_PU)
		fprintf(out, "%*s%s\n", 2 * depth + 2, "", line);
	else
		fprintf(out, "%*s%s  [cpus %s]\n", 2 * depth + 2, "", line, cpus);
	for (hwloc_obj_t m = o->memory_first_child; m; m = m->next_sibling) {
		obj_label(m, label, sizeof(label));
		fprintf(out, "%*s%s\n", 2 * depth + 4, "", label);
	}
	for (unsigned int c = 0; c < o->arity; c++)
		print_tree(out, o->children[c], depth + 1);
}

static void print_counts(FILE *out, hwloc_topology_t topo, hwloc_const_bitmap_t usable)
{
	unsigned int cores = topology_count(topo, HWLOC_OBJ_CORE);
	unsigned int pus = topology_count(topo, HWLOC_OBJ_PU);
	char cpus[256];

	hwloc_bitmap_list_snprintf(cpus, sizeof(cpus), usable);
	fprintf(out, "  %u package(s), %u NUMA node(s), %u core(s), %u PU(s)",
		topology_count(topo, HWLOC_OBJ_PACKAGE), topology_count(topo, HWLOC_OBJ_NUMANODE),
		cores, pus);
	if (cores)
		fprintf(out, " (%s)", pus > cores ? "SMT: more than one PU per core" : "one PU per core");
	fprintf(out, "; usable by this process: %s\n", cpus);
}

int topology_report(FILE *out)
{
	const char *xml = getenv(TOPOLOGY_XML_ENV);
	char err[256];
	hwloc_topology_t topo;
	hwloc_bitmap_t usable;

	if (xml && *xml)
		topology_use_xml(xml);
	topo = topology_get(err, sizeof(err));
	usable = topo ? topology_usable_cpus(topo, err, sizeof(err)) : NULL;
	if (!usable) {
		fprintf(stderr, "lockbench: --topology: %s\n", err);
		return -1;
	}
	if (topology_is_this_machine(topo))
		fprintf(out, "topology of this machine (hwloc %s):\n", HWLOC_VERSION);
	else
		fprintf(out, "topology from %s (not this machine; hwloc %s):\n",
			xml_override ? xml_override : "hwloc's environment", HWLOC_VERSION);
	print_counts(out, topo, usable);
	print_tree(out, hwloc_get_root_obj(topo), 0);
	hwloc_bitmap_free(usable);
	return 0;
}
