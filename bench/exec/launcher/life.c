/*
 * life.c — the program's life (launcher_internal.h; docs/exec.md, "The
 * program's life"): every process it starts is waited for, a daemon's too
 * (this process is their subreaper); a stop signal to lockbench is the
 * benchmark's (runctl.h), passed on to them, the rest killed after a
 * grace; and how it ended, as the run's verdict.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "launcher_internal.h"
#include "../exec_file.h"
#include "../../platform/tsc.h"
#include "../../run/runctl.h"

/* After a stop signal, the program's processes have this long to end before
 * SIGKILL: a server's orderly shutdown (closing connections, writing its
 * state) takes a moment, and a user who signalled wants it soon.  A second
 * signal does not cut it short: timeout(1) sends its signal twice, to its
 * child and to its process group. */
#define EXEC_STOP_GRACE_S 5.0
#define EXEC_STOP_GRACE_TEXT "5 s"

/* Signals every child of this process (its /proc/PID/stat's parent is us:
 * a pid not reaped cannot be another's), those in our own process group
 * too unless a terminal sent the stop to that whole group already; signal
 * 0 counts them.  Lockbench makes no other child.  How many there were. */
static unsigned int children_signal(int sig, bool own_group)
{
	unsigned int n = 0;
	DIR *d = opendir("/proc");
	struct dirent *e;
	pid_t self = getpid(), group = getpgrp();

	while (d && (e = readdir(d))) {
		char path[64], stat[512], *paren;
		int ppid, pgrp;
		FILE *f;

		if (e->d_name[0] < '1' || e->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%.20s/stat", e->d_name);
		f = fopen(path, "re");
		if (!f)
			continue;
		stat[0] = '\0';
		(void)!fgets(stat, sizeof(stat), f);
		fclose(f);
		/* "PID (COMM) STATE PPID PGRP...": COMM may hold ") ". */
		paren = strrchr(stat, ')');
		if (!paren || sscanf(paren + 1, " %*c %d %d", &ppid, &pgrp) != 2 || ppid != self ||
		    (!own_group && pgrp == group))
			continue;
		n += kill((pid_t)atoi(e->d_name), sig) == 0;
	}
	if (d)
		closedir(d);
	return n;
}

/* Every process that has ended, reaped (the program's own status kept).
 * True when none is left. */
static bool reap(struct exec_run *x)
{
	int status;
	pid_t p;

	while ((p = waitpid(-1, &status, WNOHANG)) > 0) {
		if (p == x->pid) {
			x->status = status;
			x->main_done = true;
		}
		if (x->kill_sent && WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL)
			x->killed++;
	}
	return p < 0 && errno == ECHILD;
}

/* A stop signal goes on to the program's processes once; after the grace,
 * what is left is killed. */
static void pass_stop(struct exec_run *x)
{
	int sig = bench_stop_signal();

	if (!sig)
		return;
	if (!x->stop_sig) {
		x->stop_sig = sig;
		x->stop_s = mono_now_s();
		children_signal(sig, !bench_stop_from_terminal());
	} else if (mono_now_s() - x->stop_s > EXEC_STOP_GRACE_S) {
		/* Again each slice: a killed parent's orphans come to us next. */
		x->kill_sent = true;
		children_signal(SIGKILL, true);
	}
}

/* The CPU the program's reaped processes used, since `before`. */
static void usage_since(struct exec_run *x, const struct rusage *before)
{
	struct rusage now;

	getrusage(RUSAGE_CHILDREN, &now);
	x->ru.ru_utime.tv_sec = now.ru_utime.tv_sec - before->ru_utime.tv_sec;
	x->ru.ru_utime.tv_usec = now.ru_utime.tv_usec - before->ru_utime.tv_usec;
	x->ru.ru_stime.tv_sec = now.ru_stime.tv_sec - before->ru_stime.tv_sec;
	x->ru.ru_stime.tv_usec = now.ru_stime.tv_usec - before->ru_stime.tv_usec;
	x->ru.ru_nvcsw = now.ru_nvcsw - before->ru_nvcsw;
	x->ru.ru_nivcsw = now.ru_nivcsw - before->ru_nivcsw;
}

/* SIGCHLD's handler: its coming ends exec_program_wait()'s ppoll(). */
static void on_child(int sig)
{
	(void)sig;
}

/*
 * Until every process of the program has ended: the one started, and every
 * one it left behind — a daemon's forked child, which PR_SET_CHILD_SUBREAPER
 * makes ours when its parent exits (said once, then).  Asleep in ppoll()
 * until a child ends or a stop signal comes: both are blocked but while
 * ppoll() waits (it unblocks them atomically, so none comes unseen between
 * a look and the sleep), and the launcher costs the program's CPUs nothing
 * meanwhile.  After a stop, in slices, to kill what is left on time.
 */
void exec_program_wait(struct exec_run *x, double t0)
{
	struct sigaction chld = { .sa_handler = on_child, .sa_flags = SA_NOCLDSTOP }, old_chld;
	struct timespec slice = { 0, (long)(WAIT_SLICE_S * 1e9) };
	struct rusage before;
	sigset_t mask, waiting;

	getrusage(RUSAGE_CHILDREN, &before);
	sigemptyset(&chld.sa_mask);
	sigaction(SIGCHLD, &chld, &old_chld);
	stop_signals_block(&mask);
	sigemptyset(&waiting);
	sigaddset(&waiting, SIGCHLD);
	sigprocmask(SIG_BLOCK, &waiting, NULL);
	while (!reap(x)) {
		if (x->main_done && !x->waiting_said && !x->stop_sig) {
			unsigned int left = children_signal(0, true);

			x->waiting_said = true;
			fprintf(stderr, "lockbench: --exec: %s exited; waiting for the %u process%s it left running "
				"(SIGTERM or ^C to lockbench stops %s)\n", x->cfg->exec_argv[0], left,
				left == 1 ? "" : "es", left == 1 ? "it" : "them");
		}
		pass_stop(x);
		ppoll(NULL, 0, x->stop_sig ? &slice : NULL, &mask);
	}
	sigprocmask(SIG_SETMASK, &mask, NULL);
	sigaction(SIGCHLD, &old_chld, NULL);
	x->wall_s = mono_now_s() - t0;
	usage_since(x, &before);
}

/* The library's line on the program's standard error saying why the main
 * process's figures were not written: "PATH: REASON" into why, or false. */
static bool library_said(const struct exec_run *x, char *why, size_t whylen)
{
	FILE *f = exec_open_private(x, "program-stderr.txt");
	char prefix[128], *line = NULL;
	size_t cap = 0, total = 0, n = (size_t)snprintf(prefix, sizeof(prefix), EXEC_NOT_WRITTEN, (int)x->pid);
	ssize_t len;
	bool found = false;

	while (f && !found && (len = getline(&line, &cap, f)) > 0 && total < EXEC_OUTPUT_MAX) {
		total += (size_t)len;
		if (!strncmp(line, prefix, n)) {
			snprintf(why, whylen, "%.*s", (int)strcspn(line + n, "\n"), line + n);
			found = true;
		}
	}
	free(line);
	if (f)
		fclose(f);
	return found;
}

/* What the program did, as the run's verdict: 0, or EXIT_RUNTIME and why. */
int exec_program_verdict(const struct exec_run *x, char *err, size_t errlen)
{
	char why[PATH_MAX + 100];

	if (exec_private_full(x))
		return fail(err, errlen, EXIT_RUNTIME, "--exec: the file system of the private directory %s is full: "
			    "the program's output is cut where it filled%s", x->outer,
			    x->main_written ? "" : ", and its figures were lost");
	if (WIFSIGNALED(x->status))
		return fail(err, errlen, EXIT_RUNTIME, "--exec: %s was killed by signal %d (%s)%s", x->cfg->exec_argv[0],
			    WTERMSIG(x->status), strsignal(WTERMSIG(x->status)),
			    x->main_written ? "" : "; its figures were lost");
	if (WEXITSTATUS(x->status) != 0)
		return fail(err, errlen, EXIT_RUNTIME, "--exec: %s exited with status %d", x->cfg->exec_argv[0],
			    WEXITSTATUS(x->status));
	if (!x->main_written && library_said(x, why, sizeof(why)))
		return fail(err, errlen, EXIT_RUNTIME, "--exec: %s: its figures could not be written to %s",
			    x->cfg->exec_argv[0], why);
	if (!x->main_written)
		return fail(err, errlen, EXIT_RUNTIME, "--exec: %s wrote no figures (it ended by _exit() or exec "
			    "of a program the library could not enter)", x->cfg->exec_argv[0]);
	return 0;
}

/* A stopped run's one line: the signal, how the program ended, what was
 * killed, and that what was gathered is kept all the same. */
int exec_stop_verdict(const struct exec_run *x, char *err, size_t errlen)
{
	char how[512];
	size_t n;

	if (WIFSIGNALED(x->status))
		n = (size_t)snprintf(how, sizeof(how), "%s was killed by signal %d (%s)", x->cfg->exec_argv[0],
				     WTERMSIG(x->status), strsignal(WTERMSIG(x->status)));
	else
		n = (size_t)snprintf(how, sizeof(how), "%s exited with status %d", x->cfg->exec_argv[0],
				     WEXITSTATUS(x->status));
	if (x->killed && n < sizeof(how))
		n += (size_t)snprintf(how + n, sizeof(how) - n, ", %u process%s killed after a grace of "
				      EXEC_STOP_GRACE_TEXT, x->killed, x->killed == 1 ? "" : "es");
	if (!x->main_written && n < sizeof(how))
		snprintf(how + n, sizeof(how) - n, ", its figures lost");
	return fail(err, errlen, EXIT_SIGNAL, "stopped by signal %d; %s; what it gathered is %s", x->stop_sig, how,
		    x->cfg->out_dir ? "written" : "shown");
}
