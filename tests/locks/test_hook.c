/*
 * test_hook.c — not a lock: the test build's lockbench only (the Makefile
 * links every .c file in tests/locks into build/tests/lockbench-test).  It drives
 * bench_test_hook (bench/run/runctl.h) from the environment, so that a test can
 * fail a start-up step, or stop a run, at an exact phase instead of by
 * timing luck:
 *
 *   LOCKBENCH_TEST_HOOK=PHASE:N:ACTION   (PHASE and N as in run.h)
 *     ACTION an errno name (EAGAIN, ENOMEM, EMFILE, ...): that step of
 *            worker N fails with it ("place", "start", "setup");
 *     TERM, INT: the process sends itself that signal there;
 *     pause: it waits there (at most PAUSE_MAX_S) until a stop signal
 *            comes, having first written its pid into the file
 *            LOCKBENCH_TEST_MARK names, if set: the test's cue to send one.
 *
 * Why a hook and not a delay compiled into lockbench: the shipped binary
 * reads no such variable and only tests a NULL pointer at a few phase
 * boundaries (never on the timed path).  A malformed setting is a one-line
 * error and exit status 2, like a bad option.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../../bench/run/runctl.h"

#define PAUSE_MAX_S 30

enum hook_action { HOOK_FAIL, HOOK_SIGNAL, HOOK_PAUSE };

static struct {
	char phase[16];
	unsigned int n;
	enum hook_action action;
	int value;              /* the errno, or the signal */
	const char *mark;
} hook;

static const struct { const char *name; int value; } errno_names[] = {
	{ "EAGAIN", EAGAIN }, { "ENOMEM", ENOMEM }, { "EMFILE", EMFILE },
	{ "ENFILE", ENFILE }, { "EACCES", EACCES }, { "ENOSPC", ENOSPC },
};

static void pause_until_stop(void)
{
	struct timespec slice = { .tv_sec = 0, .tv_nsec = 10 * 1000 * 1000 };

	/* Written beside it and renamed: the test never reads half a pid. */
	if (hook.mark) {
		char tmp[4096];
		FILE *f;

		snprintf(tmp, sizeof(tmp), "%s.tmp", hook.mark);
		f = fopen(tmp, "we");
		if (f) {
			fprintf(f, "%ld\n", (long)getpid());
			if (fclose(f) == 0)
				rename(tmp, hook.mark);
		}
	}
	for (int i = 0; i < PAUSE_MAX_S * 100 && !bench_stop_signal(); i++)
		nanosleep(&slice, NULL);
}

static int run_hook(const char *phase, unsigned int n)
{
	if (strcmp(phase, hook.phase) != 0 || n != hook.n)
		return 0;
	switch (hook.action) {
	case HOOK_FAIL:
		return hook.value;
	case HOOK_SIGNAL:
		kill(getpid(), hook.value);
		return 0;
	case HOOK_PAUSE:
		pause_until_stop();
		return 0;
	}
	return 0;
}

static int parse_action(const char *action)
{
	if (strcmp(action, "pause") == 0) {
		hook.action = HOOK_PAUSE;
		return 0;
	}
	if (strcmp(action, "TERM") == 0 || strcmp(action, "INT") == 0) {
		hook.action = HOOK_SIGNAL;
		hook.value = action[0] == 'T' ? SIGTERM : SIGINT;
		return 0;
	}
	for (size_t i = 0; i < sizeof(errno_names) / sizeof(errno_names[0]); i++)
		if (strcmp(action, errno_names[i].name) == 0) {
			hook.action = HOOK_FAIL;
			hook.value = errno_names[i].value;
			return 0;
		}
	return -1;
}

__attribute__((constructor)) static void test_hook_install(void)
{
	const char *spec = getenv("LOCKBENCH_TEST_HOOK");
	char action[16];
	int used = 0;

	if (!spec || !spec[0])
		return;
	if (sscanf(spec, "%15[a-z]:%u:%15[A-Za-z]%n", hook.phase, &hook.n, action, &used) != 3 ||
	    spec[used] != '\0' || parse_action(action) != 0) {
		fprintf(stderr, "lockbench: LOCKBENCH_TEST_HOOK: '%s' is not PHASE:N:ACTION\n", spec);
		_exit(2);
	}
	hook.mark = getenv("LOCKBENCH_TEST_MARK");
	bench_test_hook = run_hook;
}
