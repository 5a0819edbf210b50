/*
 * exec_expect.h — the checks of the plain pthread programs that the --exec
 * tests run under lockbench's preloaded library (tests/exec_prog.c,
 * tests/exec_misuse_prog.c): a wrong result is one "FAIL" line on stdout,
 * which the .t files quote, and exit 1.  Header-only: the programs link
 * nothing of lockbench's.
 */
#ifndef LOCKBENCH_TESTS_EXEC_EXPECT_H
#define LOCKBENCH_TESTS_EXEC_EXPECT_H

#include <stdio.h>
#include <stdlib.h>

static void fail(const char *what, long got, long want)
{
	printf("FAIL %s: %ld, expected %ld\n", what, got, want);
	fflush(stdout);
	exit(1);
}

static inline void expect(const char *what, long got, long want)
{
	if (got != want)
		fail(what, got, want);
}

#endif
