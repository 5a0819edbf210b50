/*
 * exec_life_prog.c — a small server for tests/exec-life.t: the life a
 * daemon leads under `lockbench --exec`.  Linked with nothing of
 * lockbench's.  Its words run in order:
 *   pidfile FILE  writes its pid into FILE (after `daemon` and before
 *                 `drop`, as a daemon writes its own); its stop signals
 *                 are caught by then
 *   daemon        forks; the parent exits 0 at once, the child calls
 *                 setsid() and goes on (a daemon's double life)
 *   drop          drops to nobody (65534), as a daemon's `-u nobody`
 *   chdir DIR     changes its working directory
 *   ignore-term   ignores SIGTERM (only SIGKILL ends it then)
 *   output BYTES  writes BYTES of filler to standard output
 *   preload       prints its LD_PRELOAD's length and its last 64 bytes
 *   serve SECONDS two threads lock and unlock one mutex until SIGTERM,
 *                 SIGINT or SIGHUP (or SECONDS), then it prints
 *                 "lock_calls N" and returns from main (exit 0)
 */
#define _GNU_SOURCE
#include <grp.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define NOBODY 65534

/* Set by the handler, read by the threads: atomic (relaxed: nothing else
 * is published through it). */
static int stop;
static pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
static unsigned long counter;

static void on_stop(int sig)
{
	(void)sig;
	__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
}

static void die(const char *what)
{
	perror(what);
	exit(2);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void *server_thread(void *arg)
{
	double end = now_s() + *(const double *)arg;
	unsigned long calls = 0;
	struct timespec nap = { 0, 1000000 };

	while (!__atomic_load_n(&stop, __ATOMIC_RELAXED) && now_s() < end) {
		for (int i = 0; i < 100; i++) {
			if (pthread_mutex_lock(&mutex) != 0)
				die("pthread_mutex_lock");
			counter++;
			pthread_mutex_unlock(&mutex);
			calls++;
		}
		nanosleep(&nap, NULL);
	}
	return (void *)calls;
}

static void write_pidfile(const char *pidfile)
{
	FILE *f = fopen(pidfile, "w");

	if (!f || fprintf(f, "%d\n", (int)getpid()) < 0 || fclose(f) != 0)
		die(pidfile);
}

static void serve(double seconds)
{
	pthread_t t[2];
	unsigned long calls = 0;

	for (int i = 0; i < 2; i++)
		if (pthread_create(&t[i], NULL, server_thread, &seconds) != 0)
			die("pthread_create");
	for (int i = 0; i < 2; i++) {
		void *n;

		pthread_join(t[i], &n);
		calls += (unsigned long)n;
	}
	printf("lock_calls %lu\npid %d\n", calls, (int)getpid());
	if (counter != calls)
		printf("lost updates %lu\n", calls - counter);
}

static void drop(void)
{
	if (setgroups(0, NULL) != 0 || setgid(NOBODY) != 0 || setuid(NOBODY) != 0)
		die("drop");
}

static void daemonise(void)
{
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid > 0)
		exit(0);
	if (setsid() < 0)
		die("setsid");
}

static void output(long bytes)
{
	static const char line[] = "filler filler filler filler filler filler filler filler filler filler\n";

	for (long n = 0; n < bytes; n += (long)sizeof(line) - 1)
		fputs(line, stdout);
	fflush(stdout);
}

static void show_preload(void)
{
	const char *p = getenv("LD_PRELOAD");
	size_t n = p ? strlen(p) : 0;

	printf("preload_length %zu\npreload_tail %s\n", n, p && n > 64 ? p + n - 64 : p ? p : "");
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_stop };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	for (int i = 1; i < argc; i++) {
		const char *w = argv[i], *arg = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(w, "pidfile") && arg)
			write_pidfile(argv[++i]);
		else if (!strcmp(w, "daemon"))
			daemonise();
		else if (!strcmp(w, "drop"))
			drop();
		else if (!strcmp(w, "chdir") && arg) {
			if (chdir(argv[++i]) != 0)
				die(arg);
		} else if (!strcmp(w, "ignore-term"))
			signal(SIGTERM, SIG_IGN);
		else if (!strcmp(w, "output") && arg)
			output(atol(argv[++i]));
		else if (!strcmp(w, "preload"))
			show_preload();
		else if (!strcmp(w, "serve") && arg)
			serve(atof(argv[++i]));
		else {
			fprintf(stderr, "exec_life_prog: bad word '%s'\n", w);
			return 2;
		}
	}
	return 0;
}
