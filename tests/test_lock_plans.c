/*
 * test_lock_plans.c — the locks' roles in locks/locks.def (struct lock_plan)
 * are ones run-all can plan from: the patch table's columns 1..N each once,
 * its pair (1, 2) locks that exclude, one programs' baseline that --exec can
 * run, one kernel baseline that excludes nothing and has its column.  The
 * check is shown to catch each fault on a made-up table first.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "../locks/lock.h"

#define KNOWN_ROLES (LOCK_R_NUMA_ONLY | LOCK_R_PROGRAM_BASE | LOCK_R_KERNEL_BASE | LOCK_R_CK)

/* The lock of N holding ROLE, when exactly one does; NULL otherwise. */
static const struct lock_ops *only_one(const struct lock_plan *plans, const struct lock_ops *const *ops, size_t n,
				       unsigned int role)
{
	const struct lock_ops *found = NULL;

	for (size_t i = 0; i < n; i++)
		if (plans[i].roles & role) {
			if (found)
				return NULL;
			found = ops[i];
		}
	return found;
}

/* The patch table's columns are 1..K, each once, K >= 2, and the pair
 * (columns 1 and 2) excludes: NULL, or what is wrong. */
static const char *columns_fault(const struct lock_plan *plans, const struct lock_ops *const *ops, size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		k += plans[i].column != 0;
	if (k < 2)
		return "no patch pair: fewer than two columns";
	for (unsigned int c = 1; c <= k; c++) {
		size_t holders = 0;
		for (size_t i = 0; i < n; i++)
			if (plans[i].column == c) {
				holders++;
				if (c <= 2 && (ops[i]->flags & LOCK_F_NO_EXCLUSION))
					return "a lock of the patch pair excludes nothing";
			}
		if (holders != 1)
			return "a column missing or held twice";
	}
	return NULL;
}

/* What the planning needs of the roles (lockbench --plan variants: a program's locks, the NUMA skip,
 * the --kernel-locks probe): NULL, or what is wrong. */
static const char *plans_fault(const struct lock_plan *plans, const struct lock_ops *const *ops, size_t n)
{
	const struct lock_ops *pb = only_one(plans, ops, n, LOCK_R_PROGRAM_BASE);
	const struct lock_ops *kb = only_one(plans, ops, n, LOCK_R_KERNEL_BASE);
	const char *fault = columns_fault(plans, ops, n);

	for (size_t i = 0; i < n && !fault; i++) {
		if (plans[i].roles & ~(unsigned int)KNOWN_ROLES)
			fault = "a role outside enum lock_role";
		if ((plans[i].roles & LOCK_R_KERNEL_BASE) && !plans[i].column)
			fault = "the kernel baseline has no patch-table column";
	}
	if (fault)
		return fault;
	if (!pb)
		return "not exactly one programs' baseline";
	/* --exec runs it: a lock that excludes, not bound to one lock's threads. */
	if (pb->flags & (LOCK_F_NO_EXCLUSION | LOCK_F_PER_LOCK_THREAD))
		return "the programs' baseline cannot run a program";
	if (!kb)
		return "not exactly one kernel baseline";
	if (!(kb->flags & LOCK_F_NO_EXCLUSION))
		return "the kernel baseline excludes: the kernel's own lock would not be alone";
	return NULL;
}

/* The Concurrency Kit role is on exactly the locks whose description says
 * they are Concurrency Kit's (--quick leaves those out of its sweep by the
 * role, run-env's CK_LOCKS): the first lock that differs, or NULL. */
static const char *ck_role_fault(const struct lock_plan *plans, const struct lock_ops *const *ops, size_t n)
{
	static const char ck[] = "Concurrency Kit";

	for (size_t i = 0; i < n; i++) {
		bool says = ops[i]->description && !strncmp(ops[i]->description, ck, sizeof(ck) - 1);

		if (says != !!(plans[i].roles & LOCK_R_CK))
			return ops[i]->name;
	}
	return NULL;
}

static void registry_plans_hold(void **state)
{
	const char *fault = plans_fault(lock_plans, lock_registry, lock_registry_len);
	const char *ck = ck_role_fault(lock_plans, lock_registry, lock_registry_len);

	(void)state;
	if (fault)
		fail_msg("locks/locks.def: %s", fault);
	if (ck)
		fail_msg("locks/locks.def: %s: LOCK_R_CK and its description disagree", ck);
}

/* ---- the check catches each fault ---- */

static const struct lock_ops open_lock = { .name = "open", .flags = LOCK_F_NO_EXCLUSION };
static const struct lock_ops plain_a = { .name = "a" }, plain_b = { .name = "b" }, plain_c = { .name = "c" };
static const struct lock_ops node_bound = { .name = "node-bound", .flags = LOCK_F_PER_LOCK_THREAD };
static const struct lock_ops *const made_up[] = { &open_lock, &plain_a, &plain_b, &plain_c, &node_bound };
#define MADE_UP_N (sizeof(made_up) / sizeof(made_up[0]))

/* A good table: a, b the pair, c the programs' baseline, `open` the kernel's. */
static void good(struct lock_plan *p)
{
	const struct lock_plan g[MADE_UP_N] = {
		{ 4, LOCK_R_KERNEL_BASE }, { 1, 0 }, { 2, 0 }, { 3, LOCK_R_PROGRAM_BASE }, { 0, LOCK_R_NUMA_ONLY },
	};
	memcpy(p, g, sizeof(g));
}

static void expect_fault(const struct lock_plan *p, const char *want)
{
	const char *fault = plans_fault(p, made_up, MADE_UP_N);

	assert_non_null(fault);
	assert_string_equal(fault, want);
}

static void made_up_faults(void **state)
{
	struct lock_plan p[MADE_UP_N];

	(void)state;
	good(p);
	assert_null(plans_fault(p, made_up, MADE_UP_N));
	good(p), p[3].column = 5;
	expect_fault(p, "a column missing or held twice");
	good(p), p[3].column = 2;
	expect_fault(p, "a column missing or held twice");
	good(p), p[1].column = 0, p[2].column = 0, p[3].column = 0, p[0].column = 1;
	expect_fault(p, "no patch pair: fewer than two columns");
	good(p), p[0].column = 1, p[1].column = 4;
	expect_fault(p, "a lock of the patch pair excludes nothing");
	good(p), p[2].roles = 1u << 7;
	expect_fault(p, "a role outside enum lock_role");
	good(p), p[0].column = 0, p[3].column = 0, p[4].column = 3;
	p[4].roles = 0, p[3].roles = LOCK_R_PROGRAM_BASE;
	expect_fault(p, "the kernel baseline has no patch-table column");
	good(p), p[2].roles = LOCK_R_PROGRAM_BASE;
	expect_fault(p, "not exactly one programs' baseline");
	good(p), p[3].roles = 0, p[4].roles = LOCK_R_PROGRAM_BASE;
	expect_fault(p, "the programs' baseline cannot run a program");
	good(p), p[0].roles = 0;
	expect_fault(p, "not exactly one kernel baseline");
	good(p), p[0].roles = 0, p[3].roles = LOCK_R_PROGRAM_BASE | LOCK_R_KERNEL_BASE;
	expect_fault(p, "the kernel baseline excludes: the kernel's own lock would not be alone");
}

/* ck_role_fault names a Concurrency Kit lock without the role, and a lock
 * with the role that is not Concurrency Kit's. */
static void made_up_ck_faults(void **state)
{
	static const struct lock_ops ck = { .name = "ck", .description = "Concurrency Kit ck_spinlock_x: made up" };
	static const struct lock_ops own = { .name = "own", .description = "the suite's own" };
	const struct lock_ops *const ops[] = { &own, &ck };
	struct lock_plan p[2] = { { 0, 0 }, { 0, LOCK_R_CK } };

	(void)state;
	assert_null(ck_role_fault(p, ops, 2));
	p[1].roles = 0;
	assert_string_equal(ck_role_fault(p, ops, 2), "ck");
	p[1].roles = LOCK_R_CK, p[0].roles = LOCK_R_CK;
	assert_string_equal(ck_role_fault(p, ops, 2), "own");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(made_up_faults),
		cmocka_unit_test(made_up_ck_faults),
		cmocka_unit_test(registry_plans_hold),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
