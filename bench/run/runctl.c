/*
 * runctl.c — the controls a run's main thread and its workers share: the
 * stop signal (also --exec's, exec/launcher/life.c), the tests' hook, and
 * the main thread's side of the start gate (the workers' side is
 * gate_wait() in worker.c).
 */
#define _GNU_SOURCE
#include <limits.h>
#include <linux/futex.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "runctl.h"
#include "../core/config.h"
#include "../platform/tsc.h"

static volatile sig_atomic_t stop_signal, stop_from_terminal;

/* A terminal's ^C or hangup is the kernel's (SI_KERNEL, drivers/tty/
 * n_tty.c's isig() through kill_pgrp()), sent to the whole foreground
 * process group; kill(1) and timeout(1) are SI_USER, sent to us alone. */
static void on_stop_signal(int sig, siginfo_t *si, void *ctx)
{
	(void)ctx;
	stop_signal = sig;
	stop_from_terminal = si && si->si_code == SI_KERNEL;
}

int bench_stop_signal(void)
{
	return stop_signal;
}

bool bench_stop_from_terminal(void)
{
	return stop_from_terminal;
}

int bench_stopped(char *err, size_t errlen, const char *what)
{
	snprintf(err, errlen, "stopped by signal %d; %s", stop_signal, what);
	return EXIT_SIGNAL;
}

int (*bench_test_hook)(const char *phase, unsigned int n);

/* The stop signals, and how this process found them: a child about to
 * exec a program gets them back (stop_signals_original()). */
static const int stop_signo[] = { SIGINT, SIGTERM, SIGHUP };
static struct sigaction stop_found[3];
static bool stop_found_saved;

/* SIGHUP's former handler is not kept: bench_catch_stop_signals() has
 * caught it in lockbench since main().  A SIGHUP ignored from the start
 * (nohup) stays ignored: a hangup is then not a stop.  SIGINT and SIGTERM
 * are caught even when ignored, as a shell ignores SIGINT for a background
 * job that a script still stops so. */
void stop_signals_catch(struct sigaction *old_int, struct sigaction *old_term)
{
	struct sigaction sa = { .sa_sigaction = on_stop_signal, .sa_flags = SA_SIGINFO };
	struct sigaction *old[] = { old_int, old_term, NULL };

	sigemptyset(&sa.sa_mask);
	for (unsigned int i = 0; i < sizeof(stop_signo) / sizeof(stop_signo[0]); i++) {
		if (!stop_found_saved)
			sigaction(stop_signo[i], NULL, &stop_found[i]);
		if (stop_signo[i] == SIGHUP && stop_found[i].sa_handler == SIG_IGN)
			continue;
		sigaction(stop_signo[i], &sa, old[i]);
	}
	stop_found_saved = true;
}

void stop_signals_block(sigset_t *old)
{
	sigset_t block;

	sigemptyset(&block);
	for (unsigned int i = 0; i < sizeof(stop_signo) / sizeof(stop_signo[0]); i++)
		sigaddset(&block, stop_signo[i]);
	sigprocmask(SIG_BLOCK, &block, old);
}

void stop_signals_original(void)
{
	for (unsigned int i = 0; stop_found_saved && i < sizeof(stop_signo) / sizeof(stop_signo[0]); i++)
		sigaction(stop_signo[i], &stop_found[i], NULL);
}

void bench_catch_stop_signals(void)
{
	stop_signals_catch(NULL, NULL);
}

/* Acquire: pairs with the release in thread_main() (worker.c), so a count
 * that takes in every thread orders their teardowns before what follows. */
unsigned int threads_done(struct bench_run *run)
{
	return __atomic_load_n(&run->threads_done, __ATOMIC_ACQUIRE);
}

void gate_set(struct bench_run *run, int state)
{
	pthread_mutex_lock(&run->gate_mutex);
	run->gate_state = state;
	pthread_cond_broadcast(&run->gate_cond);
	pthread_mutex_unlock(&run->gate_mutex);
}

bool gate_await(struct bench_run *run, unsigned int created, bool stoppable, double limit_s)
{
	double end = mono_now_s() + limit_s;
	bool all;

	pthread_mutex_lock(&run->gate_mutex);
	while (run->gate_ready < created && !(stoppable && stop_signal) && mono_now_s() < end) {
		struct timespec until;

		clock_gettime(CLOCK_MONOTONIC, &until);
		until.tv_nsec += (long)(WAIT_SLICE_S * 1e9);
		if (until.tv_nsec >= 1000000000L) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000L;
		}
		pthread_cond_timedwait(&run->ready_cond, &run->gate_mutex, &until);
	}
	all = run->gate_ready >= created;
	pthread_mutex_unlock(&run->gate_mutex);
	return all;
}

bool gate_await_ready(struct bench_run *run, unsigned int created)
{
	return gate_await(run, created, true, INFINITY) && !stop_signal;
}

/* The condition variables time out on CLOCK_MONOTONIC: a wall-clock step
 * must not stretch a wait slice. */
void gate_init(struct bench_run *run)
{
	pthread_condattr_t attr;

	pthread_mutex_init(&run->gate_mutex, NULL);
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&run->gate_cond, NULL);
	pthread_cond_init(&run->ready_cond, &attr);
	pthread_condattr_destroy(&attr);
}

void gate_sched_arrive(struct bench_run *run)
{
	/* Release: the main thread counts us after our policy change. */
	__atomic_add_fetch(&run->sched_arrived, 1, __ATOMIC_RELEASE);
	/* Acquire: pairs with gate_sched_release's store. */
	while (!__atomic_load_n(&run->sched_go, __ATOMIC_ACQUIRE))
		syscall(SYS_futex, &run->sched_go, FUTEX_WAIT_PRIVATE, 0, NULL, NULL, 0);
}

void gate_sched_release(struct bench_run *run, unsigned int created)
{
	struct timespec slice = { 0, (long)(WAIT_SLICE_S * 1e9) };

	/* Acquire: pairs with each worker's count. */
	while (__atomic_load_n(&run->sched_arrived, __ATOMIC_ACQUIRE) < created && !stop_signal &&
	       !__atomic_load_n(&run->failed, __ATOMIC_RELAXED))
		nanosleep(&slice, NULL);
	/* Release: the workers go on after the main thread's setup. */
	__atomic_store_n(&run->sched_go, 1, __ATOMIC_RELEASE);
	syscall(SYS_futex, &run->sched_go, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
}

void gate_destroy(struct bench_run *run)
{
	pthread_cond_destroy(&run->ready_cond);
	pthread_cond_destroy(&run->gate_cond);
	pthread_mutex_destroy(&run->gate_mutex);
}
