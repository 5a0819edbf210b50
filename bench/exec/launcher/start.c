/*
 * start.c — the program started (launcher_internal.h): its LD_PRELOAD
 * (the library, a sanitizer's runtime, the user's own), its environment
 * (the library's settings), its output to the private directory, and
 * --kernel-locks' capture loaded for it before it may exec; then waited
 * for (life.c).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "launcher_internal.h"
#include "../../platform/tsc.h"
#include "../../run/runctl.h"

#define EXEC_KLOCK_TASKS 16384        /* --kernel-locks: the program's threads (tids) tracked */

/* ld.so splits LD_PRELOAD at spaces and colons (glibc's elf/rtld.c) and has
 * no escape: a path that holds one goes in as a link of that name in the
 * private directory, whose own path must hold neither.  *out: what goes in. */
static int preload_entry(struct exec_run *x, const char *path, const char *link, char *out, size_t outlen,
			 char *err, size_t errlen)
{
	char target[PATH_MAX];

	if (!strpbrk(path, " :")) {
		snprintf(out, outlen, "%s", path);
		return 0;
	}
	if (strpbrk(x->outer, " :"))
		return fail(err, errlen, EXIT_USAGE, "--exec: LD_PRELOAD cannot carry '%s' (a space or a colon), nor a "
			    "link to it in '%s': set TMPDIR to a directory whose path holds neither", path, x->outer);
	if (!realpath(path, target) || symlinkat(target, x->wd.fd, link) != 0)
		return fail(err, errlen, EXIT_RUNTIME, "--exec: a link to '%s' in '%s': %s", path, x->outer,
			    strerror(errno));
	if (snprintf(out, outlen, "%s/%s", x->outer, link) >= (int)outlen)
		return fail(err, errlen, EXIT_USAGE, "--exec: '%s/%s': %s", x->outer, link, strerror(ENAMETOOLONG));
	return 0;
}

/* The program's LD_PRELOAD, the user's own kept whole after ours.  A
 * sanitizer build's library needs the sanitizer's runtime loaded before
 * libc: this process's own (elf.c's exec_so_matches() saw that it has the
 * one the library needs).  AddressSanitizer's goes first.  ThreadSanitizer's goes
 * after the library: in front of it, TSan's interceptors would take the
 * program's pthread calls, and its condvar wait calls the library's inside
 * a "blocking call" that leaves our locks' atomics untracked, so every
 * re-lock in a wait would be reported as a race (docs/exec.md,
 * "ThreadSanitizer"). */
int exec_preload_list(struct exec_run *x, const char *so, char *err, size_t errlen)
{
	char lib[PATH_MAX], san[PATH_MAX] = "", sanitizer[PATH_MAX];
	const char *old = getenv("LD_PRELOAD");
	bool tsan_after = exec_own_sanitizer(sanitizer) == SAN_TSAN;
	int status = preload_entry(x, so, "lib-exec.so", lib, sizeof(lib), err, errlen);

	if (!status && *sanitizer)
		status = preload_entry(x, sanitizer, "lib-sanitizer.so", san, sizeof(san), err, errlen);
	if (status)
		return status;
	if (asprintf(&x->preload, "%s%s%s%s%s", tsan_after ? lib : san, *san ? " " : "", tsan_after ? san : lib,
		     old && *old ? " " : "", old ? old : "") < 0) {
		x->preload = NULL;
		return fail(err, errlen, EXIT_RUNTIME, "--exec: out of memory");
	}
	return 0;
}

/* The program's environment: its LD_PRELOAD and the library's settings. */
static void child_env(const struct exec_run *x)
{
	const struct bench_config *cfg = x->cfg;
	char sanitizer[PATH_MAX], timing[40], seed[24];

	setenv("LD_PRELOAD", x->preload, 1);
	if (exec_own_sanitizer(sanitizer) != SAN_NONE)
		setenv("ASAN_OPTIONS", "verify_asan_link_order=0", 0);
	setenv("LOCKBENCH_EXEC_LOCK", cfg->lock->name, 1);
	setenv("LOCKBENCH_EXEC_LOCK_OPTS", cfg->exec_lock_opts ? cfg->exec_lock_opts : "", 1);
	if (cfg->timing == TIMING_SAMPLE)
		snprintf(timing, sizeof(timing), "sample:%" PRIu64, cfg->timing_sample);
	else
		snprintf(timing, sizeof(timing), "%s", cfg->timing == TIMING_OFF ? "off" : "all");
	setenv("LOCKBENCH_EXEC_TIMING", timing, 1);
	snprintf(seed, sizeof(seed), "%" PRIu64, cfg->seed);
	setenv("LOCKBENCH_EXEC_SEED", seed, 1);
	setenv("LOCKBENCH_EXEC_OUT", x->dir, 1);
	if (x->pin_env)
		setenv("LOCKBENCH_EXEC_PIN", x->pin_env, 1);
	else
		unsetenv("LOCKBENCH_EXEC_PIN");
}

/* In the child: output to the private directory, the environment, a wait
 * for the launcher's go (one byte on go_fd: the kernel lock capture is
 * following this pid by then; none: give up), exec.  A failed exec's errno
 * goes up the report pipe. */
static void __attribute__((noreturn)) child(const struct exec_run *x, int report_fd, int go_fd)
{
	int out = openat(x->dir_fd, "program-stdout.txt", O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0644);
	int errfd = openat(x->dir_fd, "program-stderr.txt", O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0644);
	int e;
	char go;
	ssize_t n;

	if (out < 0 || errfd < 0 || dup2(out, 1) < 0 || dup2(errfd, 2) < 0) {
		e = errno;
		(void)!write(report_fd, &e, sizeof(e));
		_exit(127);
	}
	close(out);
	close(errfd);
	close(x->dir_fd);
	child_env(x);
	/* The launcher killed outright (SIGKILL: nothing to catch) still stops
	 * the program, as a stop signal would; the kernel drops this when the
	 * program changes its credentials (a daemon's -u) and in its forks.  A
	 * launcher dead before this closed the go pipe: no exec then. */
	if (prctl(PR_SET_PDEATHSIG, SIGTERM) != 0) {
		e = errno;
		(void)!write(report_fd, &e, sizeof(e));
		_exit(127);
	}
	do
		n = read(go_fd, &go, 1);
	while (n < 0 && errno == EINTR);
	if (n != 1)
		_exit(127);
	execvp(x->cfg->exec_argv[0], x->cfg->exec_argv);
	e = errno;
	(void)!write(report_fd, &e, sizeof(e));
	_exit(127);
}

/* --kernel-locks: the capture loaded for the child's tgid (its threads to
 * come share it) and started, before the child may exec. */
static int kernel_follow(const struct exec_run *x, char *err, size_t errlen)
{
	char why[400];

	if (!x->cfg->kernel_locks)
		return 0;
	if (klock_open_tgid(x->pid, EXEC_KLOCK_TASKS, why, sizeof(why)) != 0)
		return fail(err, errlen, EXIT_USAGE, "--kernel-locks: %s", why);
	klock_start(x->machine.tsc_hz);
	return 0;
}

/* After the program: what the capture recorded; unloaded either way. */
static int kernel_collect(struct exec_run *x, char *err, size_t errlen)
{
	int status = 0;

	if (!x->cfg->kernel_locks)
		return 0;
	klock_stop();
	if (klock_collect(&x->kernel, err, errlen) != 0)
		status = EXIT_RUNTIME;
	klock_close();
	return status;
}

static void close_pair(int fd[2])
{
	close(fd[0]);
	close(fd[1]);
}

int exec_run_program(struct exec_run *x, char *err, size_t errlen)
{
	sigset_t mask;
	int pipefd[2], gofd[2], e = 0, status;
	double t0;
	ssize_t n;

	if (bench_stop_signal())
		return bench_stopped(err, errlen, "nothing run, nothing written");
	if (pipe2(pipefd, O_CLOEXEC) != 0)
		return fail(err, errlen, EXIT_RUNTIME, "--exec: pipe: %s", strerror(errno));
	if (pipe2(gofd, O_CLOEXEC) != 0) {
		close_pair(pipefd);
		return fail(err, errlen, EXIT_RUNTIME, "--exec: pipe: %s", strerror(errno));
	}
	fflush(NULL);
	/* A stop signal that comes between the fork and the exec reaches the
	 * child as the program would take it: it was blocked until the child
	 * had the signals back as lockbench found them. */
	stop_signals_block(&mask);
	x->pid = fork();
	if (x->pid == 0) {
		stop_signals_original();
		sigprocmask(SIG_SETMASK, &mask, NULL);
		close(gofd[1]);  /* else the go pipe never reads end-of-file */
		child(x, pipefd[1], gofd[0]);
	}
	sigprocmask(SIG_SETMASK, &mask, NULL);
	if (x->pid < 0) {
		close_pair(pipefd);
		close_pair(gofd);
		return fail(err, errlen, EXIT_RUNTIME, "--exec: fork: %s", strerror(errno));
	}
	close(pipefd[1]);
	close(gofd[0]);
	status = kernel_follow(x, err, errlen);
	t0 = mono_now_s();
	/* Go, or (capture refused) the pipe closed: the child ends unrun. */
	if (!status && write(gofd[1], "g", 1) != 1)
		status = fail(err, errlen, EXIT_RUNTIME, "--exec: pipe: %s", strerror(errno));
	close(gofd[1]);
	do
		n = read(pipefd[0], &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	close(pipefd[0]);
	exec_program_wait(x, t0);
	if (status) {
		klock_close();
		return status;
	}
	if (n == sizeof(e)) {
		klock_close();
		return fail(err, errlen, EXIT_USAGE, "--exec: cannot run '%s': %s", x->cfg->exec_argv[0], strerror(e));
	}
	return kernel_collect(x, err, errlen);
}
