/*
 * topology.h — the machine as hwloc sees it.  One topology per process,
 * loaded on first use and shared by placement (placement.c), the run
 * metadata (machine.c) and `lockbench --topology`.  Tests and --topology can
 * swap in an XML topology (`lstopo --of xml`) to see another machine.
 *
 * Not thread-safe: used by the main thread before any worker starts.
 */
#ifndef LOCKBENCH_TOPOLOGY_H
#define LOCKBENCH_TOPOLOGY_H

#include <stddef.h>
#include <stdio.h>

#include <hwloc.h>

/* Environment variable naming an XML topology for --topology to show. */
#define TOPOLOGY_XML_ENV "LOCKBENCH_TOPOLOGY_XML"

/* The topology in use, loaded once; NULL with a one-line message in err. */
hwloc_topology_t topology_get(char *err, size_t errlen);

/* From now on topology_get() loads `xml_path` instead of this machine (NULL:
 * this machine again).  Drops the topology loaded so far. */
void topology_use_xml(const char *xml_path);

/* True when the loaded topology is this machine's (CPUs can be bound). */
int topology_is_this_machine(hwloc_topology_t topo);

/*
 * The CPUs placement may use, as a new bitmap (hwloc_bitmap_free it): the
 * topology's allowed PUs (cgroup cpuset, offline CPUs removed) and, on this
 * machine, only those the calling thread may run on (taskset, numactl).
 * NULL with a message in err when none is left.
 */
hwloc_bitmap_t topology_usable_cpus(hwloc_topology_t topo, char *err, size_t errlen);

/* Objects of one kind in the topology (0 when hwloc has none). */
unsigned int topology_count(hwloc_topology_t topo, hwloc_obj_type_t type);

/*
 * `lockbench --topology`: what hwloc sees (packages, NUMA nodes, caches,
 * cores, PUs); lockbench.c follows it with placement_print_orders().  Shows
 * the XML named by $LOCKBENCH_TOPOLOGY_XML instead when it is set.  Returns 0,
 * or -1 after one line on stderr.
 */
int topology_report(FILE *out);

#endif
