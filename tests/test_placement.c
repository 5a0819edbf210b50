/*
 * test_placement.c — each --pin policy's CPU order on two synthetic
 * two-socket topologies (hwloc XML in tests/, made with lstopo; see the
 * comment above each expected order), wrapping, CPU lists, the process's
 * allowed CPUs on this machine, and where libnuma puts memory.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <numa.h>
#include <numaif.h>

#include "../bench/platform/memory.h"
#include "../bench/platform/placement.h"
#include "../bench/platform/topology.h"

/*
 * lstopo -i "pack:2 l3:1(size=32MiB) core:2 l2:1(size=1MiB) l1d:1(size=48KiB) pu:2(indexes=2*4:1*2)"
 *        --of xml tests/topo-2pack-smt.xml
 * Two packages of two cores of two hardware threads, numbered as Linux numbers
 * Intel boxes: first threads 0-3 (package 0: 0,1; package 1: 2,3), siblings +4.
 */
#define SMT_XML "tests/topo-2pack-smt.xml"
/*
 * lstopo -i "pack:2 group:2 [numa(memory=8GiB)] l3:1(size=16MiB) core:2 l2:1(size=1MiB) pu:1"
 *        --of xml tests/topo-2pack-numa.xml
 * Two packages, each split into two NUMA nodes (sub-NUMA clusters) of two
 * single-threaded cores: node n holds CPUs 2n and 2n+1.
 */
#define NUMA_XML "tests/topo-2pack-numa.xml"

struct expected_order {
	const char *policy;
	int cpus[8];
};

static void check_orders(const char *xml, const struct expected_order *want, size_t n)
{
	char err[256] = "";

	topology_use_xml(xml);
	for (size_t i = 0; i < n; i++) {
		int *order;
		int len = placement_order(want[i].policy, &order, err, sizeof(err));

		if (len != 8)
			fail_msg("%s on %s: %d CPUs (%s)", want[i].policy, xml, len, err);
		for (int k = 0; k < 8; k++)
			if (order[k] != want[i].cpus[k])
				fail_msg("%s on %s: entry %d is CPU %d, want %d", want[i].policy, xml, k,
					 order[k], want[i].cpus[k]);
		free(order);
	}
	topology_use_xml(NULL);
}

static void smt_orders(void **state)
{
	static const struct expected_order want[] = {
		/* a core's two threads, then the next core, then the next package */
		{ "compact", { 0, 4, 1, 5, 2, 6, 3, 7 } },
		/* every core once (package 0 first), then every SMT sibling */
		{ "cores",   { 0, 1, 2, 3, 4, 5, 6, 7 } },
		/* packages alternate; inside one, cores before siblings */
		{ "scatter", { 0, 2, 1, 3, 4, 6, 5, 7 } },
		{ "rr",      { 0, 1, 2, 3, 4, 5, 6, 7 } },
	};

	(void)state;
	check_orders(SMT_XML, want, sizeof(want) / sizeof(want[0]));
}

static void numa_orders(void **state)
{
	static const struct expected_order want[] = {
		{ "compact", { 0, 1, 2, 3, 4, 5, 6, 7 } },
		{ "cores",   { 0, 1, 2, 3, 4, 5, 6, 7 } },
		/* packages alternate, then the two NUMA nodes inside each */
		{ "scatter", { 0, 4, 2, 6, 1, 5, 3, 7 } },
		{ "rr",      { 0, 1, 2, 3, 4, 5, 6, 7 } },
	};

	(void)state;
	check_orders(NUMA_XML, want, sizeof(want) / sizeof(want[0]));
}

static void more_threads_wrap_around(void **state)
{
	static const int compact[8] = { 0, 4, 1, 5, 2, 6, 3, 7 };
	int cpu_of_thread[19];
	char err[256] = "";

	(void)state;
	topology_use_xml(SMT_XML);
	if (placement_plan("compact", 19, cpu_of_thread, err, sizeof(err)) != 0)
		fail_msg("compact, 19 threads: %s", err);
	for (int i = 0; i < 19; i++)
		assert_int_equal(cpu_of_thread[i], compact[i % 8]);
	topology_use_xml(NULL);
}

static void cpu_lists(void **state)
{
	static const int want[] = { 7, 0, 1, 2, 3, 3 };
	int cpu_of_thread[8], *order;
	char err[256] = "";

	(void)state;
	topology_use_xml(SMT_XML);
	assert_int_equal(placement_order("list:7,0-2,3,3", &order, err, sizeof(err)), 6);
	assert_memory_equal(order, want, sizeof(want));
	free(order);
	assert_int_equal(placement_plan("list:5", 3, cpu_of_thread, err, sizeof(err)), 0);
	assert_int_equal(cpu_of_thread[0], 5);
	assert_int_equal(cpu_of_thread[2], 5);
	static const char *const bad[] = { "list:", "list:a", "list:3-1", "list:0-", "list:1,",
					   "list:,1", "list:1-2-3", "list:-1", "list:1 2" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		if (placement_plan(bad[i], 2, cpu_of_thread, err, sizeof(err)) == 0)
			fail_msg("'%s' accepted", bad[i]);
		assert_non_null(strstr(err, "not a CPU list"));
	}
	assert_int_equal(placement_plan("list:2,8", 2, cpu_of_thread, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "CPU 8 is not usable by this process (usable: 0-7)"));
	topology_use_xml(NULL);
}

static void unknown_and_none(void **state)
{
	int cpu_of_thread[3] = { 7, 7, 7 }, *order = (int *)&order;
	char err[256] = "";

	(void)state;
	assert_int_equal(placement_plan("sideways", 1, cpu_of_thread, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "unknown policy 'sideways' (valid: cores, compact"));
	assert_int_equal(placement_plan("none", 3, cpu_of_thread, err, sizeof(err)), 0);
	for (int i = 0; i < 3; i++)
		assert_int_equal(cpu_of_thread[i], -1);
	assert_int_equal(placement_order("none", &order, err, sizeof(err)), 0);
	assert_null(order);
}

static void missing_xml_fails(void **state)
{
	int *order;
	char err[256] = "";

	(void)state;
	topology_use_xml("tests/no-such-topology.xml");
	assert_int_equal(placement_order("cores", &order, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "no-such-topology.xml"));
	topology_use_xml(NULL);
}

/* On this machine, a policy uses only the CPUs this thread may run on. */
static void only_allowed_cpus(void **state)
{
	cpu_set_t saved, one;
	int last = -1, *order;
	char err[256] = "";

	(void)state;
	topology_use_xml(NULL);
	assert_int_equal(sched_getaffinity(0, sizeof(saved), &saved), 0);
	if (CPU_COUNT(&saved) < 2)
		skip();
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &saved))
			last = c;
	CPU_ZERO(&one);
	CPU_SET(last, &one);
	assert_int_equal(sched_setaffinity(0, sizeof(one), &one), 0);
	for (const char *const *p = placement_policies; *p; p++) {
		int n = placement_order(*p, &order, err, sizeof(err));

		if (n != 1 || order[0] != last)
			fail_msg("%s with only CPU %d allowed: %d CPUs, first %d (%s)", *p, last, n,
				 n > 0 ? order[0] : -1, err);
		free(order);
	}
	assert_int_equal(placement_order("list:0", &order, err, sizeof(err)), last == 0 ? 1 : -1);
	if (last == 0)
		free(order);
	assert_int_equal(sched_setaffinity(0, sizeof(saved), &saved), 0);
	assert_int_equal(placement_order("cores", &order, err, sizeof(err)), CPU_COUNT(&saved));
	free(order);
}

/* Blocks are aligned, zeroed, and on the node asked for. */
static void memory_on_its_node(void **state)
{
	int node = 0;
	unsigned char *p;

	(void)state;
	if (mem_numa()) {
		struct bitmask *allowed = numa_get_mems_allowed();

		for (int n = 0; n <= numa_max_node(); n++)
			if (numa_bitmask_isbitset(allowed, (unsigned int)n))
				node = n;   /* the last node we may use: not the default one */
		numa_bitmask_free(allowed);
	}
	p = mem_alloc_node(5000, node);
	assert_non_null(p);
	assert_int_equal((uintptr_t)p % 128, 0);
	for (int i = 0; i < 5000; i++)
		assert_int_equal(p[i], 0);
	memset(p, 1, 5000);
	if (mem_numa()) {
		int where = -1;

		assert_int_equal(get_mempolicy(&where, NULL, 0, p, MPOL_F_NODE | MPOL_F_ADDR), 0);
		assert_int_equal(where, node);
	}
	mem_free(p, 5000);
	mem_free(NULL, 64);
}

static void lock_node_resolution(void **state)
{
	char err[256] = "";

	(void)state;
	assert_int_equal(mem_resolve_node(-1, -1, err, sizeof(err)), -1);
	assert_int_equal(mem_resolve_node(0, -1, err, sizeof(err)), 0);
	assert_int_equal(mem_resolve_node(-1, 0, err, sizeof(err)), mem_node_of_cpu(0));
	if (mem_numa())
		assert_int_equal(mem_node_of_cpu(0), numa_node_of_cpu(0));
	assert_int_equal(mem_resolve_node(4095, 0, err, sizeof(err)), -2);
	assert_non_null(strstr(err, "--lock-node 4095"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(smt_orders),
		cmocka_unit_test(numa_orders),
		cmocka_unit_test(more_threads_wrap_around),
		cmocka_unit_test(cpu_lists),
		cmocka_unit_test(unknown_and_none),
		cmocka_unit_test(missing_xml_fails),
		cmocka_unit_test(only_allowed_cpus),
		cmocka_unit_test(memory_on_its_node),
		cmocka_unit_test(lock_node_resolution),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
