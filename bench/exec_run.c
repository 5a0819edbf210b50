/*
 * exec_run.c — `lockbench -l LOCK --exec [-o DIR] [--metric NAME=REGEX]...
 * -- PROGRAM ARGS...` (docs/exec.md).
 *
 * The program runs with liblockbench-exec.so (bench/exec/) preloaded, told
 * the lock, its settings, --timing and --seed through the environment, its
 * standard output and error captured to files in a private directory where
 * each of its processes also leaves exec-PID.csv and mutexes-PID.csv at its
 * exit (exec_file.h).  Once it has exited those are merged into one struct
 * bench_result — the program's figures as one "thread" — and written by
 * the same report code as a benchmark's (summary.csv, hist*.csv, checks.csv,
 * meta.csv...), with the program's own figures among summary.csv's keys
 * (program_*, metric_*), its output (program-stdout.txt,
 * program-stderr.txt) and mutexes.csv (the most contended mutexes, their
 * call sites symbolized with elfutils' libdwfl where it is installed).
 *
 * The program's life is the launcher's (docs/exec.md, "The program's
 * life"): every process it starts is waited for, a daemon's too (this
 * process is their subreaper); a stop signal to lockbench is the
 * benchmark's (runctl.h), passed on to them, and what they gathered is
 * written; the private directory is stamped and swept as the file
 * workloads' is (fileutil.h), and its inner directory takes the figures of a
 * process that has dropped its privileges.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <link.h>
#include <poll.h>
#include <regex.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include "exec_metric.h"
#include "exec_sites.h"
#include "exec_run.h"
#include "exec/exec_file.h"
#include "output/outdir.h"
#include "output/report.h"
#include "kernel/kernel_locks.h"
#include "platform/elfdeps.h"
#include "platform/placement.h"
#include "platform/tsc.h"
#include "run/checks.h"
#include "run/runctl.h"
#include "workloads/fileutil.h"
#include "../common/safefile.h"
#include "../common/text.h"
#include "../locks/bpfload.h"

#ifndef LOCKBENCH_EXEC_SO
#define LOCKBENCH_EXEC_SO "build/liblockbench-exec.so"
#endif
#define EXEC_MUTEX_ROWS 20            /* mutexes.csv: the most contended */
#define EXEC_MAX_MUTEXES 4096         /* rows read from all processes' files */
#define EXEC_KLOCK_TASKS 16384        /* --kernel-locks: the program's threads (tids) tracked */
/* After a stop signal, the program's processes have this long to end before
 * SIGKILL: a server's orderly shutdown (closing connections, writing its
 * state) takes a moment, and a user who signalled wants it soon.  A second
 * signal does not cut it short: timeout(1) sends its signal twice, to its
 * child and to its process group. */
#define EXEC_STOP_GRACE_S 5.0
#define EXEC_STOP_GRACE_TEXT "5 s"

/* What an --exec run is, where a benchmark has its workload. */
static const struct workload_ops exec_workload = {
	.name = "exec",
	.description = "a program run under the preloaded library (--exec)",
	.unit = "runs",
};

struct exec_metric {
	char name[32];
	regex_t re;
	bool compiled, found;
	bool lower;                     /* NAME:lower=: lower is better */
	char value[40];
};

struct exec_mutex {
	char mutex[32], object[512], address[24];
	char wrapper_object[512], wrapper_address[24]; /* "-", "0": no wrapper */
	int pid, destroyed;
	uint64_t acquisitions, contentions, contended_timed, contended_cycles;
};

/* One --exec run's state. */
struct exec_run {
	const struct bench_config *cfg;
	struct bench_config rcfg;       /* cfg as the report sees it: one "thread", the program */
	struct wdir wd;                 /* the private directory, stamped (fileutil.h) */
	char outer[PATH_MAX];           /* its absolute path */
	char dir[512];                  /* its inner one, absolute: LOCKBENCH_EXEC_OUT (preload.h's size) */
	int dir_fd;                     /* the inner one */
	char *preload;                  /* the program's LD_PRELOAD */
	pid_t pid;
	int status;
	struct rusage ru;               /* all the program's processes */
	double wall_s;                  /* until the last of them ended */
	/* The program's life (program_wait()). */
	bool main_done, waiting_said;
	int stop_sig;                   /* the stop signal passed on, or 0 */
	double stop_s;
	bool kill_sent;
	unsigned int killed;            /* processes SIGKILL ended */
	struct exec_metric metric[EXEC_METRICS_MAX];
	unsigned int nmetrics;
	struct exec_metric_scan scan;
	/* merged from exec-PID.csv */
	struct bench_thread *prog;      /* the merged figures, and its lock_thread */
	struct lock_thread *prog_lt;
	uint64_t counts[32];            /* EXEC_COUNTS, in order */
	unsigned int processes;
	bool main_written;
	struct lock_settings settings;
	bool settings_read;
	char prepare_note[256];
	struct exec_mutex *mutexes;
	unsigned int nmutexes;
	/* --pin: the policy's CPU order, and as LOCKBENCH_EXEC_PIN */
	int *pin_order;
	int pin_order_n;
	char *pin_env;
	uint64_t threads_pinned, pin_failures;   /* the library's, all processes */
	struct machine_info machine;    /* probed before the program runs */
	struct kernel_locks kernel;     /* --kernel-locks: the program's */
};

enum {
#define EXEC_COUNT(name) EC_##name,
	EXEC_COUNTS
#undef EXEC_COUNT
	EC_NR
};
static const char *const exec_count_name[] = {
#define EXEC_COUNT(name) #name,
	EXEC_COUNTS
#undef EXEC_COUNT
};

static int fail(char *err, size_t errlen, int status, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static int fail(char *err, size_t errlen, int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return status;
}

/* ---- before the program runs: what can be refused is ---- */

/* The length of --metric's NAME, before its `:` or `=`. */
static size_t metric_name_len(const char *text)
{
	return strcspn(text, ":=");
}

/* NAME[:higher|:lower]=REGEX: NAME [a-z0-9_], REGEX an extended regex
 * with a group; higher is better unless it says lower. */
static int metric_parse(struct exec_metric *m, const char *text, char *err, size_t errlen)
{
	const char *eq = strchr(text, '=');
	size_t len = metric_name_len(text);
	const char *better = text + len;
	char why[160];
	int rc;

	if (!eq || len == 0 || len >= sizeof(m->name) || strspn(text, "abcdefghijklmnopqrstuvwxyz0123456789_") != len ||
	    !(better == eq || (better + 6 == eq && !strncmp(better, ":lower", 6)) ||
	      (better + 7 == eq && !strncmp(better, ":higher", 7))))
		return fail(err, errlen, EXIT_USAGE, "--metric '%s': not NAME=REGEX or NAME:lower=REGEX (or :higher) "
			    "with NAME of [a-z0-9_], at most %zu characters", text, sizeof(m->name) - 1);
	memcpy(m->name, text, len);
	m->name[len] = '\0';
	m->lower = better[0] == ':' && better[1] == 'l';
	rc = regcomp(&m->re, eq + 1, REG_EXTENDED | REG_NEWLINE);
	if (rc) {
		regerror(rc, &m->re, why, sizeof(why));
		return fail(err, errlen, EXIT_USAGE, "--metric %s: bad regex '%s': %s", m->name, eq + 1, why);
	}
	m->compiled = true;
	if (m->re.re_nsub < 1)
		return fail(err, errlen, EXIT_USAGE, "--metric %s: the regex has no (group) to capture the value",
			    m->name);
	if (exec_metric_backref(eq + 1))
		return fail(err, errlen, EXIT_USAGE, "--metric %s: the regex has a backreference (\\N): its "
			    "match time has no bound", m->name);
	return 0;
}

static int exec_check(struct exec_run *x, char *err, size_t errlen)
{
	const struct bench_config *cfg = x->cfg;

	if (cfg->lock->flags & LOCK_F_NO_EXCLUSION)
		return fail(err, errlen, EXIT_USAGE, "--exec: lock %s takes no lock: the program would run "
			    "unprotected", cfg->lock->name);
	if (cfg->lock->flags & LOCK_F_PER_LOCK_THREAD)
		return fail(err, errlen, EXIT_USAGE, "--exec: lock %s sizes its state for a fixed set of threads, "
			    "which a program does not announce", cfg->lock->name);
	if (cfg->kernel_locks) {
		char why[400];

		/* Asked before the program is started; the load itself must wait
		 * for its pid (run_program). */
		if (bpfload_check(why, sizeof(why)) != 0)
			return fail(err, errlen, EXIT_USAGE, "--kernel-locks: %s", why);
	}
	for (unsigned int i = 0; i < cfg->exec_metrics_n; i++) {
		for (unsigned int j = 0; j < i; j++)
			if (metric_name_len(cfg->exec_metrics[j]) == metric_name_len(cfg->exec_metrics[i]) &&
			    strncmp(cfg->exec_metrics[j], cfg->exec_metrics[i], metric_name_len(cfg->exec_metrics[i])) == 0)
				return fail(err, errlen, EXIT_USAGE, "--metric: '%.*s' given twice%s",
					    (int)metric_name_len(cfg->exec_metrics[i]), cfg->exec_metrics[i],
					    cfg->exec_program && i == cfg->exec_metrics_n - 1 ? " (--program's own)" : "");
		x->nmetrics++;
		if (metric_parse(&x->metric[i], cfg->exec_metrics[i], err, errlen))
			return EXIT_USAGE;
	}
	return 0;
}

/* The program's threads run where the kernel puts them unless --pin says. */
static const char *exec_pin(const struct bench_config *cfg)
{
	return cfg->pin_asked ? cfg->pin : "none";
}

enum sanitizer { SAN_ASAN, SAN_TSAN, SAN_NONE };
static const char *const sanitizer_libs[SAN_NONE] = { "libasan.so", "libtsan.so" };
static const char *const sanitizer_names[SAN_NONE] = { "AddressSanitizer", "ThreadSanitizer" };

/* Which sanitizer's runtime a library's file name (a DT_NEEDED soname, or
 * a path's last part) is. */
static enum sanitizer sanitizer_of(const char *file)
{
	for (int i = 0; i < SAN_NONE; i++)
		if (!strncmp(file, sanitizer_libs[i], strlen(sanitizer_libs[i])))
			return (enum sanitizer)i;
	return SAN_NONE;
}

static int find_sanitizer(struct dl_phdr_info *info, size_t size, void *data)
{
	const char *base = info->dlpi_name ? strrchr(info->dlpi_name, '/') : NULL;

	(void)size;
	if (base && sanitizer_of(base + 1) != SAN_NONE) {
		snprintf(data, PATH_MAX, "%s", info->dlpi_name);
		return 1;
	}
	return 0;
}

/* This process's sanitizer, its runtime's path in path[PATH_MAX] ("" for
 * none): the first loaded object that is one. */
static enum sanitizer own_sanitizer(char *path)
{
	path[0] = '\0';
	dl_iterate_phdr(find_sanitizer, path);
	return *path ? sanitizer_of(strrchr(path, '/') + 1) : SAN_NONE;
}

/* elf_needed_each()'s fn: 1 + the sanitizer a needed name is, else 0. */
static int needs_sanitizer(const char *needed, void *ctx)
{
	enum sanitizer san = sanitizer_of(needed);

	(void)ctx;
	return san == SAN_NONE ? 0 : 1 + (int)san;
}

/* The library must be built for this lockbench's sanitizer, if any: a
 * sanitizer build of it needs the runtime loaded before libc, which only
 * a launcher running that runtime puts there (child_env()), and a plain
 * build under ThreadSanitizer's runtime would leave every lock's atomics
 * unseen by it.  (A plain library under AddressSanitizer works.) */
static int exec_so_matches(const char *so, char *err, size_t errlen)
{
	char own[PATH_MAX], why[PATH_MAX + 200];
	int needed;
	enum sanitizer lib_san, own_san = own_sanitizer(own);

	needed = elf_needed_each(so, needs_sanitizer, NULL, why, sizeof(why));
	if (needed < 0)
		return fail(err, errlen, EXIT_USAGE, "--exec: the preloaded library %s", why);
	lib_san = needed ? (enum sanitizer)(needed - 1) : SAN_NONE;
	if (lib_san != SAN_NONE && lib_san != own_san)
		return fail(err, errlen, EXIT_USAGE, "--exec: the preloaded library %s is a %s build and this "
			    "lockbench is not: run the lockbench of its build", so, sanitizer_names[lib_san]);
	if (own_san == SAN_TSAN && lib_san != own_san)
		return fail(err, errlen, EXIT_USAGE, "--exec: this lockbench is a %s build and the preloaded "
			    "library %s is not: give it the library of its build ($LOCKBENCH_EXEC_SO)",
			    sanitizer_names[own_san], so);
	return 0;
}

/* The library: $LOCKBENCH_EXEC_SO, else the one this build made. */
static const char *exec_so(char *err, size_t errlen)
{
	const char *so = getenv("LOCKBENCH_EXEC_SO");

	if (!so || !*so)
		so = LOCKBENCH_EXEC_SO;
	for (const char *c = so; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f) {
			/* The path is in every message below: one line each. */
			fail(err, errlen, EXIT_USAGE, "--exec: $LOCKBENCH_EXEC_SO holds a control character");
			return NULL;
		}
	if (access(so, R_OK) != 0) {
		fail(err, errlen, EXIT_USAGE, "--exec: the preloaded library %s: %s (make builds it; "
		     "$LOCKBENCH_EXEC_SO names another)", so, strerror(errno));
		return NULL;
	}
	return exec_so_matches(so, err, errlen) ? NULL : so;
}

/* ---- the program ---- */

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
 * libc: this process's own (exec_so_matches() saw that it has the one the
 * library needs).  AddressSanitizer's goes first.  ThreadSanitizer's goes
 * after the library: in front of it, TSan's interceptors would take the
 * program's pthread calls, and its condvar wait calls the library's inside
 * a "blocking call" that leaves our locks' atomics untracked, so every
 * re-lock in a wait would be reported as a race (docs/exec.md,
 * "ThreadSanitizer"). */
static int preload_list(struct exec_run *x, const char *so, char *err, size_t errlen)
{
	char lib[PATH_MAX], san[PATH_MAX] = "", sanitizer[PATH_MAX];
	const char *old = getenv("LD_PRELOAD");
	bool tsan_after = own_sanitizer(sanitizer) == SAN_TSAN;
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
	if (own_sanitizer(sanitizer) != SAN_NONE)
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

/* SIGCHLD's handler: its coming ends program_wait()'s ppoll(). */
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
static void program_wait(struct exec_run *x, double t0)
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

static int run_program(struct exec_run *x, char *err, size_t errlen)
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
	program_wait(x, t0);
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

/* ---- the library's files ---- */

/* A regular file of the private directory, read: never a link or a FIFO
 * the program may have left there. */
static FILE *open_private(const struct exec_run *x, const char *name)
{
	int fd = openat(x->dir_fd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	FILE *f;

	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || !(f = fdopen(fd, "r"))) {
		close(fd);
		return NULL;
	}
	return f;
}

static bool parse_u64(const char *s, uint64_t *v)
{
	char *end;

	errno = 0;
	*v = strtoull(s, &end, 10);
	return !errno && end != s && (*end == '\0' || *end == '\n');
}

static int hexval(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

static void read_settings(struct exec_run *x, const char *hex)
{
	size_t len = strcspn(hex, "\n");

	if (x->settings_read || len != 2 * sizeof(x->settings.bytes))
		return;
	for (size_t i = 0; i < sizeof(x->settings.bytes); i++) {
		int hi = hexval(hex[2 * i]), lo = hexval(hex[2 * i + 1]);

		if (hi < 0 || lo < 0)
			return;
		x->settings.bytes[i] = (unsigned char)(hi << 4 | lo);
	}
	x->settings_read = true;
}

/* One KEY,VALUE of a histogram NAME (acq or acq_contended) into h. */
static bool hist_key(struct hist *h, const char *name, const char *key, uint64_t v)
{
	size_t n = strlen(name);
	unsigned int bin;
	char tail;

	if (strncmp(key, name, n) != 0 || key[n] != '_')
		return false;
	key += n + 1;
	if (!strcmp(key, "count"))
		h->count += v;
	else if (!strcmp(key, "sum"))
		h->sum += v;
	else if (!strcmp(key, "contended"))
		h->contended += v;
	else if (!strcmp(key, "min"))
		h->min = v && v < h->min ? v : h->min;
	else if (!strcmp(key, "max"))
		h->max = v > h->max ? v : h->max;
	else if (sscanf(key, "bin_%u%c", &bin, &tail) == 1 && bin < HIST_BINS)
		h->bins[bin] += v;
	else
		return false;
	return true;
}

static void event_key(struct lock_events *ev, const char *key, uint64_t v)
{
#define EXEC_EVENT(name) if (!strcmp(key, #name)) { ev->name += v; return; }
	EXEC_EVENTS
#undef EXEC_EVENT
	for (int r = 0; r < SPIN_EXIT_NR; r++)
		if (!strncmp(key, "spin_exit_", 10) && !strcmp(key + 10, spin_exit_name[r]))
			ev->spin_exit[r] += v;
}

/* One process's exec-PID.csv, added to the merged figures. */
static void read_figures(struct exec_run *x, const char *name)
{
	FILE *f = open_private(x, name);
	char line[1024];
	struct bench_thread *t = x->prog;

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *comma = strchr(line, ',');
		uint64_t v;

		if (!comma)
			continue;
		*comma = '\0';
		if (!strcmp(line, "settings_hex")) {
			read_settings(x, comma + 1);
			continue;
		}
		if (!strcmp(line, "prepare_note")) {
			snprintf(x->prepare_note, sizeof(x->prepare_note), "%.*s", (int)strcspn(comma + 1, "\n"), comma + 1);
			continue;
		}
		if (!strcmp(line, "pid") && parse_u64(comma + 1, &v) && (pid_t)v == x->pid)
			x->main_written = true;
		if (!parse_u64(comma + 1, &v))
			continue;
		if (!strcmp(line, "acquisitions"))
			t->acquired += v;
		else if (!strcmp(line, EXEC_KEY_PINNED))
			x->threads_pinned += v;
		else if (!strcmp(line, EXEC_KEY_PIN_FAILED))
			x->pin_failures += v;
		else if (!strcmp(line, "untimed"))
			t->untimed += v;
		else if (!strcmp(line, "untimed_contended"))
			t->untimed_contended += v;
		else if (!strncmp(line, "ev_", 3))
			event_key(&x->prog_lt->ev, line + 3, v);
		else if (!hist_key(&t->acq_contended, "acq_contended", line, v))
			hist_key(&t->acq, "acq", line, v);
		for (int c = 0; c < EC_NR; c++)
			if (!strcmp(line, exec_count_name[c]))
				x->counts[c] += v;
	}
	fclose(f);
	x->processes++;
}

/* One process's mutexes-PID.csv rows. */
static void read_mutexes(struct exec_run *x, const char *name, int pid)
{
	FILE *f = open_private(x, name);
	char line[2048];  /* two paths of up to 511 bytes, and the figures */

	if (!f)
		return;
	while (fgets(line, sizeof(line), f) && x->nmutexes < EXEC_MAX_MUTEXES) {
		struct exec_mutex *m = &x->mutexes[x->nmutexes];

		if (sscanf(line, "%31[^,],%d,%" SCNu64 ",%" SCNu64 ",%" SCNu64 ",%" SCNu64 ",%511[^,],%23[^,],%511[^,],%23[^,\n]",
			   m->mutex, &m->destroyed, &m->acquisitions, &m->contentions, &m->contended_timed,
			   &m->contended_cycles, m->object, m->address, m->wrapper_object, m->wrapper_address) == 10) {
			m->pid = pid;
			x->nmutexes++;
		}
	}
	fclose(f);
}

static int read_library_files(struct exec_run *x)
{
	int fd = dup(x->dir_fd);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *e;

	if (!d) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	while ((e = readdir(d))) {
		int pid;
		char tail;

		if (sscanf(e->d_name, EXEC_FILE_PREFIX "-%d.cs%c", &pid, &tail) == 2 && tail == 'v')
			read_figures(x, e->d_name);
		else if (sscanf(e->d_name, EXEC_MUTEX_PREFIX "-%d.cs%c", &pid, &tail) == 2 && tail == 'v')
			read_mutexes(x, e->d_name, pid);
	}
	closedir(d);
	return 0;
}

/* ---- metrics from the program's output ---- */

static void metric_scan_file(struct exec_run *x, const char *name)
{
	FILE *f = open_private(x, name);
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;

	if (!f)
		return;
	exec_metric_scan_file(&x->scan, name);
	while ((n = getline(&line, &cap, f)) > 0 && exec_metric_scan_line(&x->scan, line, (size_t)n)) {
		for (unsigned int i = 0; i < x->nmetrics; i++) {
			struct exec_metric *m = &x->metric[i];
			regmatch_t g[2];

			if (m->found || regexec(&m->re, line, 2, g, 0) != 0 || g[1].rm_so < 0)
				continue;
			snprintf(m->value, sizeof(m->value), "%.*s", (int)(g[1].rm_eo - g[1].rm_so), line + g[1].rm_so);
			m->found = true;
		}
	}
	free(line);
	fclose(f);
}

/* Each metric's first match, stdout first; a match that is not a number
 * is not a figure.  0, or EXIT_RUNTIME with the first missing one named. */
static int metric_scan(struct exec_run *x, char *err, size_t errlen)
{
	int status = 0;

	metric_scan_file(x, "program-stdout.txt");
	metric_scan_file(x, "program-stderr.txt");
	for (unsigned int i = 0; i < x->nmetrics; i++) {
		struct exec_metric *m = &x->metric[i];

		if (m->found) {
			if (!text_unsigned_decimal(m->value)) {
				if (!status)
					status = fail(err, errlen, EXIT_RUNTIME, "--metric %s: matched '%s', not a number "
						      "as lbcompare reads one (digits[.digits]: no sign, exponent, hex, "
						      "nan or inf)", m->name, m->value);
				m->found = false;
			}
		} else if (!status) {
			status = fail(err, errlen, EXIT_RUNTIME, "--metric %s: no match in the program's output%s%s%s",
				      m->name, x->scan.cut[0] ? " (" : "", x->scan.cut, x->scan.cut[0] ? ")" : "");
		}
	}
	return status;
}

/* ---- the result ---- */

/* summary.csv's `program` and `program_threads_asked`: --program's name
 * and -t, or PROGRAM's basename with every byte outside [A-Za-z0-9._+-]
 * made `_` (at most 64) and 0. */
static void program_identity(const struct exec_run *x, struct figures *fg)
{
	const char *argv0 = x->cfg->exec_argv[0], *base = strrchr(argv0, '/');
	char name[65];
	size_t n = 0;

	base = base && base[1] ? base + 1 : argv0;
	for (; base[n] && n < sizeof(name) - 1; n++)
		name[n] = strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._+-", base[n]) ?
			base[n] : '_';
	name[n] = '\0';
	figure_add(fg, "program", "program name", "%s", x->cfg->exec_program ? x->cfg->exec_program : name);
	figure_add(fg, "program_threads_asked", x->cfg->exec_threads_asked ? "threads asked (-t)" : "threads asked (-t; 0: none)",
		   "%u", x->cfg->exec_threads_asked);
}

static void program_figures(struct exec_run *x, struct bench_result *res)
{
	struct figures *fg = &res->extra;
	int code = WIFEXITED(x->status) ? WEXITSTATUS(x->status) : -1;
	int sig = WIFSIGNALED(x->status) ? WTERMSIG(x->status) : 0;

	program_identity(x, fg);
	figure_add(fg, "program_exit_status", "program exit status", "%d", code);
	figure_add(fg, "program_signal", "program killed by signal", "%d", sig);
	figure_add(fg, "program_stop_signal", "run stopped by signal", "%d", x->stop_sig);
	figure_add(fg, "program_wall_s", "program wall time, s", "%.6f", x->wall_s);
	figure_add(fg, "program_cpu_user_s", "program user CPU, s", "%.6f",
		   (double)x->ru.ru_utime.tv_sec + x->ru.ru_utime.tv_usec / 1e6);
	figure_add(fg, "program_cpu_sys_s", "program system CPU, s", "%.6f",
		   (double)x->ru.ru_stime.tv_sec + x->ru.ru_stime.tv_usec / 1e6);
	figure_add(fg, "program_processes", "processes that wrote figures", "%u", x->processes);
	figure_add(fg, "program_figures_lost", "main process figures lost", "%d", !x->main_written);
	figure_add(fg, "program_threads", "threads that locked", "%" PRIu64, x->counts[EC_threads]);
	figure_add(fg, "passthrough_locks", "locks passed to glibc", "%" PRIu64, x->counts[EC_passthrough_locks]);
	figure_add(fg, "trylocks", "trylocks (busy)", "%" PRIu64, x->counts[EC_trylocks]);
	figure_add(fg, "trylock_busy", "trylocks that found it held", "%" PRIu64, x->counts[EC_trylock_busy]);
	figure_add(fg, "timedlocks", "timed locks", "%" PRIu64, x->counts[EC_timedlocks]);
	figure_add(fg, "timedlock_timeouts", "timed locks timed out", "%" PRIu64, x->counts[EC_timedlock_timeouts]);
	figure_add(fg, "cond_waits", "condvar waits", "%" PRIu64, x->counts[EC_cond_waits]);
	figure_add(fg, "cond_timeouts", "condvar waits timed out", "%" PRIu64, x->counts[EC_cond_timeouts]);
	figure_add(fg, "mutexes_started", "mutexes started", "%" PRIu64, x->counts[EC_mutex_starts]);
	figure_add(fg, "program_threads_pinned", "threads pinned (--pin)", "%" PRIu64, x->threads_pinned);
	figure_add(fg, "program_pin_failures", "threads --pin could not pin", "%" PRIu64, x->pin_failures);
	for (unsigned int i = 0; i < x->nmetrics; i++) {
		char key[48];

		snprintf(key, sizeof(key), "metric_better_%s", x->metric[i].name);
		figure_add(fg, key, key, "%s", x->metric[i].lower ? "lower" : "higher");
		if (!x->metric[i].found)
			continue;
		snprintf(key, sizeof(key), "metric_%s", x->metric[i].name);
		figure_add(fg, key, key, "%s", x->metric[i].value);
	}
}

static int build_result(struct exec_run *x, struct bench_result *res)
{
	struct bench_thread *t = x->prog;

	memset(res, 0, sizeof(*res));
	x->rcfg = *x->cfg;
	x->rcfg.workload = &exec_workload;
	x->rcfg.threads = 1;
	x->rcfg.pin = exec_pin(x->cfg);
	x->rcfg.duration_s = x->wall_s;
	x->rcfg.warmup_s = 0;
	res->cfg = &x->rcfg;
	res->threads = &x->prog;
	t->lt = x->prog_lt;
	t->cpu = -1;  /* the program's threads: not one CPU */
	t->ops = t->ops_all = 1;
	t->usage.user_s = (double)x->ru.ru_utime.tv_sec + x->ru.ru_utime.tv_usec / 1e6;
	t->usage.sys_s = (double)x->ru.ru_stime.tv_sec + x->ru.ru_stime.tv_usec / 1e6;
	t->usage.vol_csw = (uint64_t)x->ru.ru_nvcsw;
	t->usage.invol_csw = (uint64_t)x->ru.ru_nivcsw;
	res->acq = t->acq;
	res->acq_contended = t->acq_contended;
	res->acquisitions = t->acquired;
	res->contentions = t->acq.contended + t->untimed_contended;
	res->ev = x->prog_lt->ev;
	res->ops = res->ops_all = 1;
	res->measured_s = x->wall_s;
	res->ops_per_s = x->wall_s > 0 ? 1 / x->wall_s : 0;
	res->ops_min = res->ops_max = 1;
	res->usage = t->usage;
	res->lock_node = -1;
	res->invariant = INVARIANT_NONE;
	res->lock_params = x->cfg->lock_params;
	if (x->settings_read)
		res->lock_params.settings = x->settings;
	res->timer_overhead = tsc_timer_overhead();
	res->machine = x->machine;
	res->tsc_hz = res->machine.tsc_hz;
	res->pin_order = x->pin_order;
	res->pin_order_n = x->pin_order_n;
	res->kernel = x->kernel;
	program_figures(x, res);
	checks_evaluate(res);
	return 0;
}

/* ---- mutexes.csv ---- */

#if __has_include(<elfutils/libdwfl.h>)
#include <elfutils/libdwfl.h>
#define EXEC_LIBDW 1
#endif

/* libdwfl, loaded when there is a table to write (dlopen: lockbench links
 * nothing of elfutils, so its static build is unchanged). */
struct dw {
	void *so;
#ifdef EXEC_LIBDW
	Dwfl *(*begin)(const Dwfl_Callbacks *);
	Dwfl_Module *(*report_offline)(Dwfl *, const char *, const char *, int);
	int (*report_end)(Dwfl *, int (*)(Dwfl_Module *, void *, const char *, Dwarf_Addr, void *), void *);
	Elf *(*getelf)(Dwfl_Module *, GElf_Addr *);
	const char *(*addrname)(Dwfl_Module *, GElf_Addr);
	Dwfl_Line *(*getsrc)(Dwfl_Module *, Dwarf_Addr);
	const char *(*lineinfo)(Dwfl_Line *, Dwarf_Addr *, int *, int *, Dwarf_Word *, Dwarf_Word *);
	void (*end)(Dwfl *);
	Dwfl_Callbacks cb;
#endif
};

static bool dw_open(struct dw *dw)
{
	memset(dw, 0, sizeof(*dw));
#ifdef EXEC_LIBDW
	dw->so = exec_sites_can_dlopen() ? dlopen("libdw.so.1", RTLD_NOW | RTLD_LOCAL) : NULL;
	if (!dw->so)
		return false;
	*(void **)&dw->begin = dlsym(dw->so, "dwfl_begin");
	*(void **)&dw->report_offline = dlsym(dw->so, "dwfl_report_offline");
	*(void **)&dw->report_end = dlsym(dw->so, "dwfl_report_end");
	*(void **)&dw->getelf = dlsym(dw->so, "dwfl_module_getelf");
	*(void **)&dw->addrname = dlsym(dw->so, "dwfl_module_addrname");
	*(void **)&dw->getsrc = dlsym(dw->so, "dwfl_module_getsrc");
	*(void **)&dw->lineinfo = dlsym(dw->so, "dwfl_lineinfo");
	*(void **)&dw->end = dlsym(dw->so, "dwfl_end");
	*(void **)&dw->cb.find_debuginfo = dlsym(dw->so, "dwfl_standard_find_debuginfo");
	*(void **)&dw->cb.section_address = dlsym(dw->so, "dwfl_offline_section_address");
	if (dw->begin && dw->report_offline && dw->report_end && dw->getelf && dw->addrname && dw->getsrc &&
	    dw->lineinfo && dw->end && dw->cb.find_debuginfo && dw->cb.section_address)
		return true;
	dlclose(dw->so);
	dw->so = NULL;
#endif
	return false;
}

/* The function and file:line of a return address (hex) in `object` (its
 * own ELF addresses): the call before it, so the address less one. */
static void symbolize(struct dw *dw, const char *object, const char *address, char *fn, size_t fnlen, char *src,
		      size_t srclen)
{
	snprintf(fn, fnlen, "-");
	snprintf(src, srclen, "-");
#ifdef EXEC_LIBDW
	uint64_t addr = strtoull(address, NULL, 16);
	Dwfl *d;
	Dwfl_Module *mod;
	GElf_Addr bias = 0;

	if (!dw->so || !addr || object[0] != '/' || !(d = dw->begin(&dw->cb)))
		return;
	mod = dw->report_offline(d, "", object, -1);
	dw->report_end(d, NULL, NULL);
	if (mod && dw->getelf(mod, &bias)) {
		const char *name = dw->addrname(mod, addr - 1 + bias);
		Dwfl_Line *line = dw->getsrc(mod, addr - 1 + bias);
		int lineno = 0;
		const char *file = line ? dw->lineinfo(line, NULL, &lineno, NULL, NULL, NULL) : NULL;

		exec_site_function(name, elf_has_symtab(object), fn, fnlen);
		if (file)
			snprintf(src, srclen, "%s:%d", file, lineno);
	}
	dw->end(d);
#else
	(void)dw;
	(void)object;
	(void)address;
#endif
}

/* A CSV field as written: its commas and line ends become ';'. */
static void csv_field(char *s)
{
	for (; *s; s++)
		if (*s == ',' || *s == '\n' || *s == '\r')
			*s = ';';
}

static int by_contention(const void *a, const void *b)
{
	const struct exec_mutex *x = a, *y = b;

	if (x->contentions != y->contentions)
		return x->contentions < y->contentions ? 1 : -1;
	return x->acquisitions < y->acquisitions ? 1 : x->acquisitions > y->acquisitions ? -1 : 0;
}

static void write_mutexes(struct exec_run *x, FILE *f)
{
	struct dw dw;
	bool have_dw = dw_open(&dw);

	qsort(x->mutexes, x->nmutexes, sizeof(*x->mutexes), by_contention);
	fprintf(f, "rank,pid,mutex,destroyed,acquisitions,contentions,contended_timed,contended_cycles_mean,"
		   "site_object,site_address,site_function,site_source,wrapper_object,wrapper_address,"
		   "wrapper_function\n");
	for (unsigned int i = 0; i < x->nmutexes && i < EXEC_MUTEX_ROWS; i++) {
		struct exec_mutex *m = &x->mutexes[i];
		char fn[256], src[512], wfn[256], wsrc[512];

		symbolize(&dw, m->object, m->address, fn, sizeof(fn), src, sizeof(src));
		symbolize(&dw, m->wrapper_object, m->wrapper_address, wfn, sizeof(wfn), wsrc, sizeof(wsrc));
		csv_field(fn);
		csv_field(src);
		csv_field(wfn);
		csv_field(m->object);
		csv_field(m->wrapper_object);
		fprintf(f, "%u,%d,%s,%d,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%.1f,%s,%s,%s,%s,%s,%s,%s\n", i + 1,
			m->pid, m->mutex, m->destroyed, m->acquisitions, m->contentions, m->contended_timed,
			m->contended_timed ? (double)m->contended_cycles / (double)m->contended_timed : 0.0,
			m->object, m->address, have_dw ? fn : "-", have_dw ? src : "-", m->wrapper_object,
			m->wrapper_address, have_dw ? wfn : "-");
	}
	if (dw.so)
		dlclose(dw.so);
}

/* A file of the private directory copied into the result directory. */
static int copy_output(struct exec_run *x, const struct outdir *od, const char *name, char *err, size_t errlen)
{
	FILE *in = open_private(x, name);
	struct sf_out out;
	char buf[65536];
	size_t n;

	if (!sf_out_open(&out, &od->files, name, err, errlen)) {
		if (in)
			fclose(in);
		return -1;
	}
	while (in && (n = fread(buf, 1, sizeof(buf), in)) > 0)
		fwrite(buf, 1, n, out.f);
	if (in)
		fclose(in);
	return sf_out_commit(&out, err, errlen);
}

static int write_exec_files(struct exec_run *x, const struct outdir *od, char *err, size_t errlen)
{
	struct sf_out out;

	if (!sf_out_open(&out, &od->files, "mutexes.csv", err, errlen))
		return -1;
	write_mutexes(x, out.f);
	if (sf_out_commit(&out, err, errlen) ||
	    copy_output(x, od, "program-stdout.txt", err, errlen) ||
	    copy_output(x, od, "program-stderr.txt", err, errlen))
		return -1;
	return 0;
}

/* Without -o the program's output is shown after it ends. */
static void show_output(struct exec_run *x, const char *name, FILE *to)
{
	FILE *in = open_private(x, name);
	char buf[65536];
	size_t n;

	while (in && (n = fread(buf, 1, sizeof(buf), in)) > 0)
		fwrite(buf, 1, n, to);
	if (in)
		fclose(in);
}

/* ---- the run ---- */

/* The private directory and everything the program and library left in it. */
static void cleanup(struct exec_run *x)
{
	if (x->dir_fd >= 0)
		close(x->dir_fd);
	wdir_remove(&x->wd);
	for (unsigned int i = 0; i < x->nmetrics; i++)
		if (x->metric[i].compiled)
			regfree(&x->metric[i].re);
	free(x->mutexes);
	free(x->pin_order);
	free(x->pin_env);
	free(x->preload);
	free(x->prog);
	free(x->prog_lt);
}

/* The private directory's file system has no block (or no inode) left for
 * an unprivileged writer: the program's output was cut where it filled, and
 * a process's figures were not written.  A file system that counts no
 * blocks or inodes (btrfs's inodes) is never called full. */
static bool private_full(const struct exec_run *x)
{
	struct statvfs sv;

	return fstatvfs(x->dir_fd, &sv) == 0 &&
	       ((sv.f_blocks && !sv.f_bavail) || (sv.f_files && !sv.f_favail));
}

/* The library's line on the program's standard error saying why the main
 * process's figures were not written: "PATH: REASON" into why, or false. */
static bool library_said(const struct exec_run *x, char *why, size_t whylen)
{
	FILE *f = open_private(x, "program-stderr.txt");
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
static int program_verdict(const struct exec_run *x, char *err, size_t errlen)
{
	char why[PATH_MAX + 100];

	if (private_full(x))
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

/*
 * The private directory goes under --dir, else $TMPDIR, else /tmp, as the
 * file workloads' does (wdir_create(): stamped with this process, stale ones
 * swept first), so a caller (a test) can keep it apart and see it gone.  Its
 * path is made absolute: the program may chdir().  Inside, the library's
 * directory has a name no one can guess (128 random bits) and is writable by
 * all (sticky): a process that drops its privileges (a daemon's -u nobody)
 * still writes its figures there; the outer one, 0711, cannot be listed.
 */
static int private_dir(struct exec_run *x, char *err, size_t errlen)
{
	char why[PATH_MAX + 200], inner[48];
	unsigned char bits[16];
	int st = wdir_create(&x->wd, x->cfg, "exec", why, sizeof(why));

	if (st != WL_SETUP_OK)
		return fail(err, errlen, st == WL_SETUP_USAGE ? EXIT_USAGE : EXIT_RUNTIME, "--exec: private directory: %s",
			    why);
	if (!realpath(x->wd.path, x->outer))
		return fail(err, errlen, EXIT_RUNTIME, "--exec: private directory %s: %s", x->wd.path, strerror(errno));
	if (getrandom(bits, sizeof(bits), 0) != (ssize_t)sizeof(bits))
		return fail(err, errlen, EXIT_RUNTIME, "--exec: getrandom: %s", strerror(errno));
	snprintf(inner, sizeof(inner), "figures-");
	for (size_t i = 0; i < sizeof(bits); i++)
		snprintf(inner + 8 + 2 * i, sizeof(inner) - 8 - 2 * i, "%02x", bits[i]);
	if (snprintf(x->dir, sizeof(x->dir), "%s/%s", x->outer, inner) >= (int)sizeof(x->dir))
		return fail(err, errlen, EXIT_USAGE, "--exec: private directory %s: %s (the library takes %zu bytes)",
			    x->outer, strerror(ENAMETOOLONG), sizeof(x->dir) - 1);
	/* Modes set by fchmod: the umask would take the others' bits. */
	if (fchmod(x->wd.fd, 0711) != 0 || mkdirat(x->wd.fd, inner, 0700) != 0 ||
	    fchmodat(x->wd.fd, inner, 01733, 0) != 0 ||
	    (x->dir_fd = openat(x->wd.fd, inner, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0)
		return fail(err, errlen, EXIT_RUNTIME, "--exec: private directory %s: %s", x->dir, strerror(errno));
	return 0;
}

static int exec_setup(struct exec_run *x, char *err, size_t errlen)
{
	int status = private_dir(x, err, errlen);

	if (status)
		return status;
	x->prog = aligned_alloc(CACHELINE, sizeof(*x->prog));
	x->prog_lt = aligned_alloc(CACHELINE, ALIGN_UP(sizeof(*x->prog_lt), CACHELINE));
	x->mutexes = calloc(EXEC_MAX_MUTEXES, sizeof(*x->mutexes));
	if (!x->prog || !x->prog_lt || !x->mutexes)
		return fail(err, errlen, EXIT_RUNTIME, "--exec: out of memory");
	memset(x->prog, 0, sizeof(*x->prog));
	memset(x->prog_lt, 0, sizeof(*x->prog_lt));
	hist_reset(&x->prog->acq);
	hist_reset(&x->prog->acq_contended);
	return 0;
}

/* --pin: the policy's CPU order, as a benchmark's (placement.h), passed
 * to the library as LOCKBENCH_EXEC_PIN "CPU,CPU,...", which places thread
 * i (creation order, the main thread first) on CPU i mod n.  Then the
 * machine probed as a benchmark's is, on those CPUs (every usable one
 * unpinned): before the program, so that the kernel lock capture has the
 * TSC rate from its start. */
static int exec_place(struct exec_run *x, char *err, size_t errlen)
{
	static const int cpu_unpinned = -1;
	size_t len = 0, cap;

	x->pin_order_n = placement_order(exec_pin(x->cfg), &x->pin_order, err, errlen);
	if (x->pin_order_n < 0) {
		x->pin_order_n = 0;
		return EXIT_USAGE;
	}
	if (x->pin_order_n > 0) {
		cap = (size_t)x->pin_order_n * 12 + 1;
		x->pin_env = malloc(cap);
		if (!x->pin_env)
			return fail(err, errlen, EXIT_RUNTIME, "--exec: out of memory");
		x->pin_env[0] = '\0';
		for (int i = 0; i < x->pin_order_n; i++)
			len += (size_t)snprintf(x->pin_env + len, cap - len, "%s%d", i ? "," : "", x->pin_order[i]);
	}
	if (x->pin_order_n > 0)
		machine_probe(&x->machine, x->pin_order, (unsigned int)x->pin_order_n);
	else
		machine_probe(&x->machine, &cpu_unpinned, 1);
	return 0;
}

static int exec_report(struct exec_run *x, struct outdir *od, int verdict, char *err, size_t errlen)
{
	struct bench_result res;
	int status = verdict;

	build_result(x, &res);
	if (!x->cfg->quiet) {
		report_print(&res, stdout);
		printf("program         %s: exit %d, signal %d, wall %.3f s, user %.3f s, sys %.3f s\n",
		       x->cfg->exec_argv[0], WIFEXITED(x->status) ? WEXITSTATUS(x->status) : -1,
		       WIFSIGNALED(x->status) ? WTERMSIG(x->status) : 0, x->wall_s, res.usage.user_s, res.usage.sys_s);
		for (unsigned int i = 0; i < x->nmetrics; i++)
			printf("metric          %s = %s\n", x->metric[i].name, x->metric[i].found ? x->metric[i].value : "(none)");
	}
	if (!x->cfg->out_dir) {
		show_output(x, "program-stdout.txt", stdout);
		show_output(x, "program-stderr.txt", stderr);
	} else if (report_write(&res, od, err, errlen) || write_exec_files(x, od, err, errlen) ||
		   outdir_commit(od, err, errlen)) {
		status = EXIT_RUNTIME;
	} else if (!x->cfg->quiet) {
		printf("results: %s\n", od->final);
	}
	/* Nothing of res is allocated: its one thread is x's (cleanup()). */
	return status;
}

/* A stopped run's one line: the signal, how the program ended, what was
 * killed, and that what was gathered is kept all the same. */
static int stop_verdict(const struct exec_run *x, char *err, size_t errlen)
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

/* The program run and its figures read and reported; the verdict in err. */
static int exec_program(struct exec_run *x, const char *so, struct outdir *od, char *err, size_t errlen)
{
	char verdict_err[1024], metric_err[1024];
	int status = exec_setup(x, err, errlen), verdict, metrics;

	if (!status)
		status = preload_list(x, so, err, errlen);
	if (!status)
		status = exec_place(x, err, errlen);
	if (!status)
		status = run_program(x, err, errlen);
	if (!status && read_library_files(x) != 0)
		status = fail(err, errlen, EXIT_RUNTIME, "--exec: %s: %s", x->dir, strerror(errno));
	if (status)
		return status;
	/* Metrics are read from a failed program's output too. */
	metrics = metric_scan(x, metric_err, sizeof(metric_err));
	verdict = program_verdict(x, verdict_err, sizeof(verdict_err));
	if (!verdict && metrics) {
		verdict = metrics;
		snprintf(verdict_err, sizeof(verdict_err), "%s", metric_err);
	}
	if (x->stop_sig)
		verdict = stop_verdict(x, verdict_err, sizeof(verdict_err));
	status = exec_report(x, od, verdict, err, errlen);
	if (status == verdict && verdict)
		snprintf(err, errlen, "%s", verdict_err);
	return status;
}

int exec_run_and_report(const struct bench_config *cfg)
{
	/* Aligned as its members ask (a cache line): calloc() promises 16 bytes. */
	struct exec_run *x = aligned_alloc(_Alignof(struct exec_run), sizeof(*x));
	struct outdir od;
	char err[1024] = "";
	const char *so;
	int status;

	if (!x) {
		fprintf(stderr, "lockbench: --exec: out of memory\n");
		return EXIT_RUNTIME;
	}
	memset(x, 0, sizeof(*x));
	x->cfg = cfg;
	x->dir_fd = x->wd.fd = x->wd.parent_fd = -1;
	bench_catch_stop_signals();
	status = exec_check(x, err, sizeof(err));
	/* The program's orphans (a daemon's child) become ours to wait for. */
	if (!status && prctl(PR_SET_CHILD_SUBREAPER, 1) != 0)
		status = fail(err, sizeof(err), EXIT_RUNTIME, "--exec: PR_SET_CHILD_SUBREAPER: %s", strerror(errno));
	so = status ? NULL : exec_so(err, sizeof(err));
	if (!status && !so)
		status = EXIT_USAGE;
	if (!status && cfg->out_dir && outdir_open(&od, cfg->out_dir, err, sizeof(err)) != 0)
		status = EXIT_USAGE;
	else if (!status) {
		status = exec_program(x, so, &od, err, sizeof(err));
		if (cfg->out_dir)
			outdir_abort(&od);
	}
	text_one_line(err);
	if (status)
		fprintf(stderr, "lockbench: %s\n", err);
	cleanup(x);
	free(x);
	return status;
}
