/*
 * launcher_internal.h — what the files of `lockbench --exec`'s launcher
 * share (launcher.h is its one entry): one run's state, struct exec_run,
 * and the calls from one job's file to another's.  Each file calls only
 * those listed after it (scripts/layers.sh refuses a cycle):
 *   launcher.c  exec_run_and_report(): the checks, the setup, the run in order
 *   write.c     the result written: the report, mutexes.csv, the program's output
 *   figures.c   the library's files read, merged into one bench_result
 *   metric.c    --metric: parsed, and matched in the program's output (bounded)
 *   sites.c     mutexes.csv's call sites named (libdwfl, C++ demangled)
 *   start.c     the program started: its LD_PRELOAD and environment, fork, exec
 *   life.c      its life: stop signals passed on, every process waited for,
 *               how it ended as the run's verdict
 *   private.c   the private directory: made, its files opened, its fullness
 *   elf.c       the preloaded library found, and checked against this
 *               lockbench's sanitizer
 * (programs.c, --program's registry, is the CLI's, not a run's.)  The
 * preloaded library itself is bench/exec/'s preload*.c, one folder up: it
 * is built into liblockbench-exec.so, these into lockbench.
 */
#ifndef LOCKBENCH_EXEC_LAUNCHER_INTERNAL_H
#define LOCKBENCH_EXEC_LAUNCHER_INTERNAL_H

#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/types.h>

#include "metric.h"
#include "../../core/config.h"
#include "../../core/harness.h"
#include "../../core/result.h"
#include "../../kernel/kernel_locks.h"
#include "../../output/outdir.h"
#include "../../platform/machine.h"
#include "../../workloads/fileutil.h"

#define EXEC_MAX_MUTEXES 4096         /* rows read from all processes' files */

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
	/* The program's life (exec_program_wait(), life.c). */
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

/* err gets the one-line message; the status is returned. */
static inline int fail(char *err, size_t errlen, int status, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static inline int fail(char *err, size_t errlen, int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return status;
}

/* The program's threads run where the kernel puts them unless --pin says. */
static inline const char *exec_pin(const struct bench_config *cfg)
{
	return cfg->pin_asked ? cfg->pin : "none";
}

/* elf.c */
enum sanitizer { SAN_ASAN, SAN_TSAN, SAN_NONE };
/* This process's sanitizer, its runtime's path in path[PATH_MAX] ("" for
 * none): the first loaded object that is one. */
enum sanitizer exec_own_sanitizer(char *path);
/* The library: $LOCKBENCH_EXEC_SO, else the one this build made; NULL
 * with err set if it cannot be read or is not of this lockbench's build. */
const char *exec_so(char *err, size_t errlen);

/* private.c */
/* The private directory made (x->outer, x->wd) with its inner one for the
 * library's files (x->dir, x->dir_fd): 0, or an exit status and err. */
int exec_private_dir(struct exec_run *x, char *err, size_t errlen);
/* A regular file of the private directory, opened to read, or NULL. */
FILE *exec_open_private(const struct exec_run *x, const char *name);
/* Whether the private directory's file system is full. */
bool exec_private_full(const struct exec_run *x);

/* life.c */
/* Until every process of the program has ended, a stop signal passed on;
 * x->status, x->wall_s (from t0) and x->ru set. */
void exec_program_wait(struct exec_run *x, double t0);
/* How the program ended, as the run's verdict: 0, or EXIT_RUNTIME and err. */
int exec_program_verdict(const struct exec_run *x, char *err, size_t errlen);
/* A stopped run's verdict: EXIT_SIGNAL, and its one line in err. */
int exec_stop_verdict(const struct exec_run *x, char *err, size_t errlen);

/* start.c */
/* x->preload: the program's LD_PRELOAD, the library (so) first. */
int exec_preload_list(struct exec_run *x, const char *so, char *err, size_t errlen);
/* The program started, waited for (and --kernel-locks' capture of it
 * collected): 0, or an exit status and err. */
int exec_run_program(struct exec_run *x, char *err, size_t errlen);

/* metric.c */
/* The length of --metric's NAME, before its `:` or `=`. */
size_t exec_metric_name_len(const char *text);
/* --metric's TEXT into m: 0, or EXIT_USAGE and err. */
int exec_metric_parse(struct exec_metric *m, const char *text, char *err, size_t errlen);
/* Each metric's first match in the program's output: 0, or EXIT_RUNTIME
 * and err naming the first one missing. */
int exec_metrics_match(struct exec_run *x, char *err, size_t errlen);

/* figures.c */
/* Every process's exec-PID.csv and mutexes-PID.csv read into x: 0, or -1
 * (errno) if the private directory cannot be listed. */
int exec_read_library_files(struct exec_run *x);
/* The run as a benchmark's result, its one "thread" the program. */
int exec_build_result(struct exec_run *x, struct bench_result *res);

/* write.c */
/* The result printed, and written to od with -o (else the program's output
 * shown): verdict, or EXIT_RUNTIME and err if writing failed. */
int exec_report(struct exec_run *x, struct outdir *od, int verdict, char *err, size_t errlen);

#endif
