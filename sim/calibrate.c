/*
 * calibrate.c — lbcalibrate: measures this machine and writes its profile
 * for the simulator (sim/profile.h; docs/sim.md, "Calibration").
 *
 *   build/sim/lbcalibrate [-o FILE] [--trials N] [--name NAME] [--dir DIR]
 *   (--dir: where creat's, fpos's and fserver's files are made: default /dev/shm when it
 *   is a writable tmpfs, as run-all's file workloads, else $TMPDIR or /tmp)
 *   build/sim/lbcalibrate --check FILE|NAME    (loads a profile, prints it)
 *   build/sim/lbcalibrate --pairs              (the CPUs it would measure between)
 *
 * Every figure is a median over trials, written with its spread (the 10th
 * and 90th percentiles of the trials) and how, when and on what it was
 * measured.  What this machine has no way to measure (a latency between SMT
 * siblings where there is no SMT, between sockets with one socket) is not
 * written: a comment line says why.  The scheduler's tunables are not
 * measured: they are cited from the kernel's source (2.6.34's CFS, and
 * today's EEVDF as the second choice).
 *
 * The measurements want a quiet machine: each runs its threads pinned, and
 * the spread says how much the machine moved under them.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/futex.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#ifdef LOCKBENCH_ZLIB
#include <zlib.h>
#endif

#include "profile.h"
#include "../common/safefile.h"
#include "../locks/arch.h"
#include "../bench/core/harness.h"
#include "../bench/platform/fsinfo.h"
#include "../bench/run/run.h"
#include "../bench/platform/topology.h"
#include "../bench/platform/tsc.h"
#include "../bench/workloads/fileutil.h"

#define PROG "lbcalibrate"
#define DEFAULT_TRIALS 200
#define MAX_TRIALS 100000
#define NO_CPU (-1)
/* How long a waker lets its waiter sleep before the timed wake: long enough
 * for the waiter's CPU to be idle, short beside the trial count. */
#define WAKE_SETTLE_NS 200000

/* The kinds of CPU pair a line can move between (lat.smt, .socket, .remote). */
enum pair_kind { PAIR_SMT, PAIR_SOCKET, PAIR_REMOTE, N_PAIRS };
static const char *const pair_keys[N_PAIRS] = { "lat.smt", "lat.socket", "lat.remote" };
static const char *const pair_words[N_PAIRS] = { "one core", "two cores of one package", "two packages" };
static const char *const pair_missing[N_PAIRS] = { "hwloc shows no usable SMT sibling of the first usable CPU",
	"hwloc shows no usable CPU on another core of the first usable CPU's package",
	"hwloc shows no usable CPU in another package than the first usable CPU's" };

/* A median and its spread over trials, in the unit measured. */
struct est {
	double med, lo, hi;   /* lo, hi: 10th and 90th percentiles */
	unsigned n;
};

struct calib {
	unsigned trials;
	double ghz;
	struct est tsc;
	char when[32], host[128], what[256];   /* for every source comment */
	char load[64];                         /* /proc/loadavg's first three, at the start */
	int cpu_a, cpu_b;                      /* the first two usable CPUs (cpu_b NO_CPU: one) */
	int partner[N_PAIRS];                  /* cpu_a's first partner of each kind, or NO_CPU */
	unsigned sockets, cores_per_socket, threads_per_core;
};

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The median and spread of v[0..n) (sorted in place). */
static struct est estimate(double *v, unsigned n)
{
	struct est e = { 0, 0, 0, n };

	if (n == 0)
		return e;
	qsort(v, n, sizeof(v[0]), cmp_double);
	e.med = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	e.lo = v[n / 10];
	e.hi = v[(n * 9) / 10 - (n >= 10 ? 1 : 0)];
	return e;
}

static int pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

static long futex(uint32_t *w, int op, uint32_t v)
{
	return syscall(SYS_futex, w, op, v, NULL, NULL, 0);
}

static void spin_ns(double ghz, double ns)
{
	uint64_t end = tsc_now() + (uint64_t)(ns * ghz);

	while (tsc_now() < end)
		cpu_relax();
}

/* ---- the machine: topology and the measured pair ---- */

static hwloc_obj_t pu_of(hwloc_topology_t t, int cpu)
{
	return hwloc_get_pu_obj_by_os_index(t, (unsigned)cpu);
}

/* Whether CPUs a and b share an object of TYPE. */
static int share(hwloc_topology_t t, int a, int b, hwloc_obj_type_t type)
{
	hwloc_obj_t x = hwloc_get_ancestor_obj_by_type(t, type, pu_of(t, a));
	hwloc_obj_t y = hwloc_get_ancestor_obj_by_type(t, type, pu_of(t, b));

	return x && x == y;
}

static int read_topology(struct calib *c)
{
	char err[256];
	hwloc_topology_t t = topology_get(err, sizeof(err));
	hwloc_bitmap_t usable;
	unsigned pk, cores, pus;

	if (!t || !(usable = topology_usable_cpus(t, err, sizeof(err)))) {
		fprintf(stderr, PROG ": %s\n", err);
		return -1;
	}
	pk = topology_count(t, HWLOC_OBJ_PACKAGE);
	cores = topology_count(t, HWLOC_OBJ_CORE);
	pus = topology_count(t, HWLOC_OBJ_PU);
	c->sockets = pk ? pk : 1;
	c->cores_per_socket = cores ? cores / c->sockets : pus / c->sockets;
	c->threads_per_core = cores ? pus / cores : 1;
	c->cpu_a = hwloc_bitmap_first(usable);
	c->cpu_b = NO_CPU;
	for (int k = 0; k < N_PAIRS; k++)
		c->partner[k] = NO_CPU;
	/* cpu_a's first partner of each kind, in the OS's CPU order */
	for (int b = hwloc_bitmap_next(usable, c->cpu_a); b >= 0; b = hwloc_bitmap_next(usable, b)) {
		enum pair_kind k = share(t, c->cpu_a, b, HWLOC_OBJ_CORE) ? PAIR_SMT :
				   share(t, c->cpu_a, b, HWLOC_OBJ_PACKAGE) ? PAIR_SOCKET : PAIR_REMOTE;

		if (c->cpu_b == NO_CPU)
			c->cpu_b = b;
		if (c->partner[k] == NO_CPU)
			c->partner[k] = b;
	}
	hwloc_bitmap_free(usable);
	return 0;
}

/* ---- coherence: line transfer, hit, locked RMW, pause, memory ---- */

struct pingpong {
	_Alignas(64) uint64_t line;    /* the line that travels */
	_Alignas(64) uint64_t rounds;  /* round trips in all, warm-up included */
	int cpu;
	int pin_rc;
};

/* B: answers each odd value with the next even one. */
static void *pong(void *arg)
{
	struct pingpong *pp = arg;

	pp->pin_rc = pin(pp->cpu);
	for (uint64_t i = 0; i < pp->rounds; i++) {
		while (__atomic_load_n(&pp->line, __ATOMIC_ACQUIRE) != 2 * i + 1)
			;   /* no pause: it would add its own latency to every way */
		__atomic_store_n(&pp->line, 2 * i + 2, __ATOMIC_RELEASE);  /* pairs with ping's acquire load */
	}
	return NULL;
}

/* This thread on the pair's first CPU, FN's (which pins itself) on the second. */
static int pair_start(const struct calib *c, pthread_t *th, void *(*fn)(void *), void *arg)
{
	return pin(c->cpu_a) || pthread_create(th, NULL, fn, arg) ? -1 : 0;
}

/* Half a round trip of a store-then-poll ping-pong between the pair, in
 * cycles: each way the line is read from the other core's cache and then
 * written (an upgrade).  Per trial ROUNDS round trips.  (write_coherence
 * writes two thirds of it: the simulator's transfer.) */
static int measure_transfer(const struct calib *c, int partner, struct est *out)
{
	const unsigned rounds = 200, warm = 1000;
	struct pingpong *pp = aligned_alloc(64, sizeof(*pp));
	double *v = calloc(c->trials, sizeof(double));
	pthread_t th;
	int rc = -1;

	if (!pp || !v)
		goto out;
	memset(pp, 0, sizeof(*pp));
	pp->cpu = partner;
	pp->rounds = warm + (uint64_t)rounds * c->trials;
	if (pair_start(c, &th, pong, pp))
		goto out;
	for (uint64_t i = 0, t = 0; i < pp->rounds; t++) {
		uint64_t n = i < warm ? warm : rounds, t0 = tsc_begin();

		for (uint64_t end = i + n; i < end; i++) {
			__atomic_store_n(&pp->line, 2 * i + 1, __ATOMIC_RELEASE);  /* pairs with pong's acquire */
			while (__atomic_load_n(&pp->line, __ATOMIC_ACQUIRE) != 2 * i + 2)
				;
		}
		if (i > warm)
			v[t - 1] = (double)(tsc_end() - t0) / (2.0 * (double)n);
	}
	if (pthread_join(th, NULL) == 0 && pp->pin_rc == 0) {
		*out = estimate(v, c->trials);
		rc = 0;
	}
out:
	free(pp);
	free(v);
	return rc;
}

/* c->trials trials of ONE (each returns its trial's figure): their median
 * and spread. */
static struct est over_trials(const struct calib *c, double (*one)(void *), void *arg)
{
	double *v = calloc(c->trials, sizeof(double));
	struct est e = { 0 };

	if (!v)
		return e;
	for (unsigned t = 0; t < c->trials; t++)
		v[t] = one(arg);
	e = estimate(v, c->trials);
	free(v);
	return e;
}

enum { RING_LINES = 64, RING_PASSES = 2000, RMW_OPS = 4000, PAUSE_OPS = 2000 };

/* A dependent chain of loads around RING_LINES lines of one page (in L1):
 * cycles per load, the loop's own cost spread over 8 loads a pass. */
static double hit_trial(void *ring)
{
	void **p = ring;
	uint64_t t0 = tsc_begin();

	for (unsigned i = 0; i < RING_PASSES; i++) {
		p = *p; p = *p; p = *p; p = *p;
		p = *p; p = *p; p = *p; p = *p;
	}
	__asm__ volatile("" : : "r"(p));
	return (double)(tsc_end() - t0) / (8.0 * RING_PASSES);
}

static struct est measure_hit(const struct calib *c)
{
	void **ring = aligned_alloc(64, RING_LINES * 64);
	struct est e = { 0 };

	if (!ring)
		return e;
	for (unsigned i = 0; i < RING_LINES; i++)   /* a stride of 5 lines: no two neighbours in a row */
		ring[i * 8] = &ring[((i + 5) % RING_LINES) * 8];
	e = over_trials(c, hit_trial, ring);
	free(ring);
	return e;
}

/* A locked fetch-add on a line this CPU holds, back to back: cycles each. */
static double rmw_trial(void *word)
{
	uint64_t t0 = tsc_begin();

	for (unsigned i = 0; i < RMW_OPS; i++)
		__atomic_fetch_add((uint64_t *)word, 1, __ATOMIC_SEQ_CST);
	return (double)(tsc_end() - t0) / RMW_OPS;
}

static double pause_trial(void *unused)
{
	uint64_t t0 = tsc_begin();

	(void)unused;
	for (unsigned i = 0; i < PAUSE_OPS; i++)
		cpu_relax();
	return (double)(tsc_end() - t0) / PAUSE_OPS;
}

/* One load of a line just flushed from every cache (clflush, mfence): its
 * cycles, the timer's own median cost (*floor) taken off. */
static double mem_trial(void *floor)
{
	static _Alignas(64) volatile uint64_t line[8];
	uint64_t t0;

	__builtin_ia32_clflush((const void *)line);
	__builtin_ia32_mfence();
	t0 = tsc_begin();
	(void)line[0];
	return (double)(tsc_end() - t0) - *(double *)floor;
}

/* ---- the kernel: a system call, the futex calls, a wake-up, a switch ---- */

/* The calls timed together, one of each in turn, each call timed alone: a
 * trial's figure for a kind is the median of its CALLS_PER_TRIAL calls, so
 * a preemption inside a trial moves no figure, and a busy machine weighs on
 * every kind alike. */
enum { CALL_GETPPID, CALL_WAKE, CALL_WAIT, N_CALLS, CALLS_PER_TRIAL = 101 };

/* ns per call of each kind, the TSC pair's own median cost taken off:
 * v[kind][trial]. */
static void time_calls(const struct calib *c, void (*const fn[N_CALLS])(void *), void *arg, double *v[N_CALLS])
{
	double one[N_CALLS][CALLS_PER_TRIAL], floor = (double)tsc_timer_overhead();

	for (unsigned t = 0; t < c->trials; t++) {
		for (unsigned i = 0; i < CALLS_PER_TRIAL; i++)
			for (int k = 0; k < N_CALLS; k++) {
				uint64_t t0 = tsc_begin();

				fn[k](arg);
				one[k][i] = ((double)(tsc_end() - t0) - floor) / c->ghz;
			}
		for (int k = 0; k < N_CALLS; k++)
			v[k][t] = estimate(one[k], CALLS_PER_TRIAL).med;
	}
}

static void call_getppid(void *arg)
{
	(void)arg;
	syscall(SYS_getppid);
}

static void call_wake_none(void *w)
{
	futex(w, FUTEX_WAKE_PRIVATE, 1);
}

/* The value is not the expected one: FUTEX_WAIT checks it and returns EAGAIN. */
static void call_wait_changed(void *w)
{
	futex(w, FUTEX_WAIT_PRIVATE, *(uint32_t *)w + 1);
}

struct waker {
	_Alignas(64) uint32_t word;     /* the futex */
	_Alignas(64) uint32_t go, ready;
	uint64_t woke;                  /* the waiter's TSC on return */
	unsigned trials;
	int cpu, pin_rc;
};

static void *waiter(void *arg)
{
	struct waker *w = arg;

	w->pin_rc = pin(w->cpu);
	for (uint32_t i = 1; i <= w->trials; i++) {
		while (__atomic_load_n(&w->go, __ATOMIC_ACQUIRE) != i)   /* pairs with the waker's release */
			cpu_relax();
		__atomic_store_n(&w->ready, i, __ATOMIC_RELEASE);
		while (__atomic_load_n(&w->word, __ATOMIC_ACQUIRE) == 0)
			futex(&w->word, FUTEX_WAIT_PRIVATE, 0);
		__atomic_store_n(&w->woke, tsc_end(), __ATOMIC_RELEASE);  /* pairs with the waker's acquire */
	}
	return NULL;
}

/* The waker's TSC before FUTEX_WAKE to the woken thread's TSC after its
 * FUTEX_WAIT returned, on another CPU that was idle (the waiter slept
 * WAKE_SETTLE_NS first): ns.  Needs two CPUs and TSCs that agree. */
static int measure_wake(const struct calib *c, struct est *out)
{
	struct waker *w = aligned_alloc(64, sizeof(*w));
	double *v = calloc(c->trials, sizeof(double));
	pthread_t th;
	int rc = -1;

	if (!w || !v)
		goto out;
	memset(w, 0, sizeof(*w));
	w->trials = c->trials;
	w->cpu = c->cpu_b;
	if (pair_start(c, &th, waiter, w))
		goto out;
	for (uint32_t i = 1; i <= c->trials; i++) {
		uint64_t t0;

		__atomic_store_n(&w->word, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&w->woke, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&w->go, i, __ATOMIC_RELEASE);   /* pairs with the waiter's acquire */
		while (__atomic_load_n(&w->ready, __ATOMIC_ACQUIRE) != i)
			cpu_relax();
		spin_ns(c->ghz, WAKE_SETTLE_NS);
		t0 = tsc_begin();
		__atomic_store_n(&w->word, 1, __ATOMIC_RELEASE);
		futex(&w->word, FUTEX_WAKE_PRIVATE, 1);
		while (__atomic_load_n(&w->woke, __ATOMIC_ACQUIRE) == 0)
			cpu_relax();
		v[i - 1] = (double)(w->woke - t0) / c->ghz;
	}
	if (pthread_join(th, NULL) == 0 && w->pin_rc == 0) {
		*out = estimate(v, c->trials);
		rc = 0;
	}
out:
	free(w);
	free(v);
	return rc;
}

struct switcher {
	_Alignas(64) uint32_t turn;
	uint32_t rounds;           /* in all, for the partner */
	int cpu, pin_rc;
};

/* Takes turns FROM..TO-1 of its parity: waits (asleep) for each, passes it on. */
static void take_turns(struct switcher *s, int parity, uint32_t from, uint32_t to)
{
	for (uint32_t i = from; i < to; i++) {
		uint32_t want = 2 * i + (uint32_t)parity, cur;

		while ((cur = __atomic_load_n(&s->turn, __ATOMIC_ACQUIRE)) != want)
			futex(&s->turn, FUTEX_WAIT_PRIVATE, cur);
		__atomic_store_n(&s->turn, want + 1, __ATOMIC_RELEASE);  /* pairs with the other's acquire */
		futex(&s->turn, FUTEX_WAKE_PRIVATE, 1);
	}
}

static void *other_turns(void *arg)
{
	struct switcher *s = arg;

	s->pin_rc = pin(s->cpu);
	take_turns(s, 1, 0, s->rounds);
	return NULL;
}

/* Two threads on one CPU passing a turn through a futex: each pass is one
 * switch (with one FUTEX_WAKE and one sleeping FUTEX_WAIT): ns per switch.
 * A trial is short (tens of us) so that most trials run between another
 * process's slices on a busy machine, and the median is of those; the
 * partner thread lives through all of them (its start is not timed). */
static int measure_switch(const struct calib *c, struct est *out)
{
	enum { ROUNDS = 10, WARM = 100 };
	struct switcher *s = aligned_alloc(64, sizeof(*s));
	double *v = calloc(c->trials, sizeof(double));
	pthread_t th;
	int rc = -1;

	if (!s || !v || pin(c->cpu_a))
		goto out;
	memset(s, 0, sizeof(*s));
	s->rounds = WARM + ROUNDS * c->trials;
	s->cpu = c->cpu_a;
	if (pthread_create(&th, NULL, other_turns, s))
		goto out;
	take_turns(s, 0, 0, WARM);
	for (unsigned t = 0; t < c->trials; t++) {
		uint32_t from = WARM + t * ROUNDS;
		uint64_t t0 = tsc_begin();

		take_turns(s, 0, from, from + ROUNDS);
		v[t] = (double)(tsc_end() - t0) / (2.0 * ROUNDS) / c->ghz;
	}
	if (pthread_join(th, NULL) == 0 && s->pin_rc == 0) {
		*out = estimate(v, c->trials);
		rc = 0;
	}
out:
	free(s);
	free(v);
	return rc;
}

/* CONFIG_HZ of the running kernel, from its build config; 0 if unreadable. */
static unsigned config_hz(char *where, size_t len)
{
	char line[256], path[300];
	struct utsname u;
	unsigned hz = 0;

#ifdef LOCKBENCH_ZLIB
	gzFile gz = gzopen("/proc/config.gz", "rb");

	if (gz) {
		while (!hz && gzgets(gz, line, sizeof(line)))
			if (sscanf(line, "CONFIG_HZ=%u", &hz) == 1)
				snprintf(where, len, "CONFIG_HZ in /proc/config.gz");
		gzclose(gz);
	}
#endif
	if (!hz && uname(&u) == 0) {
		FILE *f;

		snprintf(path, sizeof(path), "/boot/config-%.200s", u.release);
		if ((f = fopen(path, "r"))) {
			while (!hz && fgets(line, sizeof(line), f))
				if (sscanf(line, "CONFIG_HZ=%u", &hz) == 1)
					snprintf(where, len, "CONFIG_HZ in %.90s", path);
			fclose(f);
		}
	}
	return hz;
}

/* ---- the workloads' kernel times ---- */

/* The Q-quantile of sorted v[0..n) (nearest rank below). */
static double quantile(const double *v, size_t n, double q)
{
	return v[(size_t)floor(q * (double)(n - 1))];
}

/* "0%:A 1%:B ... 100%:Z" of the samples (sorted here), in ns. */
static void dist_text(double *v, size_t n, char *out, size_t len)
{
	static const double qs[] = { 0, 1, 5, 10, 25, 50, 75, 90, 95, 99, 99.9, 100 };
	size_t at = 0;

	qsort(v, n, sizeof(v[0]), cmp_double);
	out[0] = '\0';
	for (size_t i = 0; i < sizeof(qs) / sizeof(qs[0]) && at < len; i++)
	{
		double x = quantile(v, n, qs[i] / 100);

		/* whole ns from 1000 up, 3 significant digits below (counter's hold is < 1 ns) */
		at += (size_t)snprintf(out + at, len - at, x >= 1000 ? "%s%g%%:%.0f" : "%s%g%%:%.3g", i ? " " : "",
				       qs[i], x);
	}
}

/* One workload's samples: a hold per call that takes the kernel's lock,
 * a gap from each call's return to the next one's start. */
struct wl_times {
	double *hold, *gap;   /* ns */
	size_t nh, ng, cap;
	uint64_t last_end;    /* TSC at the previous call's return (0: none yet) */
	struct est outside;   /* creat: a call that takes no lock, ns (below) */
	/* The batch being taken (wl_batch_begin): where its samples start,
	 * and the thread's context switches before it. */
	size_t batch_nh, batch_ng;
	long csw0;
	size_t calls, dropped;  /* calls timed, and those dropped with their batch */
};

/* Calls a batch times: the batches' rusage calls are ~2 per WL_BATCH calls. */
#define WL_BATCH 16
/* A workload's calls timed at most, as a multiple of the samples it wants:
 * a machine that switches this thread out in nearly every batch gives up. */
#define WL_MAX_TRIES 20

static int wl_alloc(struct wl_times *w, size_t cap)
{
	*w = (struct wl_times){ .hold = calloc(cap, sizeof(double)), .gap = calloc(cap, sizeof(double)), .cap = cap };
	return w->hold && w->gap ? 0 : -1;
}

static void wl_free(struct wl_times *w)
{
	free(w->hold);
	free(w->gap);
}

/* The thread's context switches so far, voluntary and involuntary; -1 if
 * it cannot say (every batch is dropped then, and the workload refused). */
static long thread_switches(void)
{
	struct rusage ru;

	return getrusage(RUSAGE_THREAD, &ru) == 0 ? ru.ru_nvcsw + ru.ru_nivcsw : -1;
}

/*
 * The samples are taken in batches of WL_BATCH calls, and a batch during
 * which the thread was switched out is dropped whole: the simulator
 * schedules its threads itself, so a hold or gap that held another task's
 * time would count a preemption twice (one sample of 21 ms among 10000,
 * linearly interpolated to the distribution's top, was most of fpos's mean
 * hold before).  The rusage calls fall between batches, in no gap: a
 * batch's first call has none.  What it cannot see: the hypervisor taking
 * the virtual CPU away (steal time) is no switch of this thread's.
 */
static void wl_batch_begin(struct wl_times *w)
{
	w->last_end = 0;
	w->batch_nh = w->nh;
	w->batch_ng = w->ng;
	w->csw0 = thread_switches();
}

static void wl_batch_end(struct wl_times *w)
{
	long now = thread_switches();

	w->calls += w->nh - w->batch_nh;
	if (now < 0 || now != w->csw0) {
		w->dropped += w->nh - w->batch_nh;
		w->nh = w->batch_nh;
		w->ng = w->batch_ng;
	}
}

/* Whether a workload's loop goes on: fewer than `want` samples kept, and
 * not yet WL_MAX_TRIES times as many calls timed. */
static bool wl_more(const struct wl_times *w, size_t want)
{
	return w->nh < want && w->calls < want * WL_MAX_TRIES;
}

/* A call timed from T0 to T1 (TSC). */
static void wl_note(struct wl_times *w, uint64_t t0, uint64_t t1, double ghz)
{
	if (w->nh == w->cap)
		return;
	if (w->last_end)
		w->gap[w->ng++] = (double)(t0 - w->last_end) / ghz;
	w->hold[w->nh++] = (double)(t1 - t0) / ghz;
	w->last_end = t1;
}

/* A fresh directory under DIR for a workload's files. */
static int wl_dir(struct wdir *d, const char *dir)
{
	*d = (struct wdir){ .parent_fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), .fd = -1 };
	if (d->parent_fd >= 0 && wdir_make_at(d, dir, "lockbench-calibrate-") == 0)
		return 0;
	fprintf(stderr, PROG ": cannot make a directory in %s: %s\n", dir, strerror(errno));
	wdir_remove(d);
	return -1;
}

/* An open (O_RDONLY) of a file that is there: the call's entry and exit,
 * the path walk to a cached positive dentry and the open itself, none of it
 * under the directory's i_rwsem.  Its median estimates the part of a
 * creating call's time that lies outside the lock. */
static int open_existing(const struct calib *c, const struct wdir *d, struct wl_times *w)
{
	double *v = calloc(c->trials, sizeof(double));
	int fd = fu_create(d->fd, "keep"), rc = -1;

	if (!v || fd < 0 || close(fd) != 0)
		goto out;
	for (unsigned t = 0; t < c->trials; t++) {
		uint64_t t0 = tsc_begin();

		fd = openat(d->fd, "keep", O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
		v[t] = (double)(tsc_end() - t0) / c->ghz;
		if (fd < 0 || close(fd) != 0)
			goto out;
	}
	w->outside = estimate(v, c->trials);
	rc = fu_unlink(d->fd, "keep", 0);
out:
	if (rc)
		fprintf(stderr, PROG ": creat: %s/keep: %s\n", d->path, strerror(errno));
	free(v);
	return rc;
}

/*
 * creat as the kernel sees it, one thread, no lock: the workload's own
 * calls (fu_create, close, fu_unlink, bench/workloads/fileutil.h) on a
 * fresh directory under DIR.  hold: each creating and each unlinking
 * system call from just before it to just after it returns (the directory's
 * i_rwsem is held inside, for less than that: the call's entry and exit,
 * the path walk before the lock and the work after it are counted in);
 * gap: from one of those calls' return to the next one's start (the
 * close() after the create, and the loop).
 */
static int measure_creat(const struct calib *c, const char *dir, struct wl_times *w)
{
	size_t want = (size_t)c->trials * 40;  /* a create and an unlink a turn */
	struct wdir d;
	int rc = -1;

	if (wl_alloc(w, want + WL_BATCH) || wl_dir(&d, dir))
		return -1;
	while (wl_more(w, want)) {
		wl_batch_begin(w);
		for (unsigned k = 0; k < WL_BATCH / 2; k++) {
			uint64_t t0 = tsc_begin(), t1;
			int fd = fu_create(d.fd, "c0");

			t1 = tsc_end();
			if (fd < 0 || close(fd) != 0) {
				fprintf(stderr, PROG ": creat: %s/c0: %s\n", d.path, strerror(errno));
				goto out;
			}
			wl_note(w, t0, t1, c->ghz);
			t0 = tsc_begin();
			if (fu_unlink(d.fd, "c0", 0) != 0) {
				fprintf(stderr, PROG ": creat: unlink %s/c0: %s\n", d.path, strerror(errno));
				goto out;
			}
			wl_note(w, t0, tsc_end(), c->ghz);
		}
		wl_batch_end(w);
	}
	if (w->nh < want)
		fprintf(stderr, PROG ": creat: %zu of %zu calls kept: this thread was switched out in nearly every "
			"batch of %d\n", w->nh, w->calls, WL_BATCH);
	else
		rc = open_existing(c, &d, w);
out:
	wdir_remove(&d);
	return rc;
}

/* fpos's file: FPOS_FILE_BLOCKS blocks of FPOS_READ bytes (fpos.c's
 * FPOS_BLOCKS and its default --read-size). */
#define FPOS_READ 16384
#define FPOS_FILE_BLOCKS 64

static int fpos_file(struct wdir *d, char *buf)
{
	int fd = fu_create(d->fd, "fpos-data");

	memset(buf, 0, FPOS_READ);
	for (int i = 0; fd >= 0 && i < FPOS_FILE_BLOCKS; i++)
		if (write(fd, buf, FPOS_READ) != FPOS_READ) {
			close(fd);
			fd = -1;
		}
	/* written through fu_create()'s write-only descriptor: read through another */
	if (fd >= 0 && close(fd) == 0 && (fd = openat(d->fd, "fpos-data", O_RDONLY | O_NOFOLLOW | O_CLOEXEC)) >= 0)
		return fd;
	fprintf(stderr, PROG ": fpos: %s/fpos-data: %s\n", d->path, strerror(errno));
	if (fd >= 0)
		close(fd);
	return -1;
}

/* A read() of the fpos file through a write-only descriptor: the call's
 * entry and exit and the descriptor's lookup (ksys_read's fdget_pos, which
 * takes f_pos_lock only when the file is shared), then vfs_read()'s first
 * check refuses it (-EBADF: not FMODE_READ) before any of the read's work.
 * Its median estimates the part of fpos's calls outside f_pos_lock. */
static int read_refused(const struct calib *c, const struct wdir *d, uint64_t *buf, struct wl_times *w)
{
	double *v = calloc(c->trials, sizeof(double));
	int fd = openat(d->fd, "fpos-data", O_WRONLY | O_NOFOLLOW | O_CLOEXEC), rc = -1;

	for (unsigned t = 0; v && fd >= 0 && t < c->trials; t++) {
		uint64_t t0 = tsc_begin();
		ssize_t n = read(fd, buf, FPOS_READ);

		v[t] = (double)(tsc_end() - t0) / c->ghz;
		if (n != -1 || errno != EBADF) {
			fprintf(stderr, PROG ": fpos: a read() of a write-only descriptor was not refused (EBADF)\n");
			goto out;
		}
	}
	if (v && fd >= 0) {
		w->outside = estimate(v, c->trials);
		rc = 0;
	} else {
		fprintf(stderr, PROG ": fpos: %s/fpos-data: %s\n", d->path, strerror(errno));
	}
out:
	if (fd >= 0)
		close(fd);
	free(v);
	return rc;
}

/*
 * fpos as the kernel sees it, one thread, no lock: read() of 16 KiB blocks
 * from one file in turn, rewound by lseek() at its end, as fpos.c does.
 * hold: each read() and lseek() (the calls that take the file's
 * f_pos_lock when threads share it; one thread alone does not take it, so
 * the uncontended lock and unlock are not in these); gap: from one call's
 * return to the next one's start (the check of a block's first and last
 * words, and the loop); outside: read_refused().
 */
static int measure_fpos(const struct calib *c, const char *dir, struct wl_times *w)
{
	size_t want = (size_t)c->trials * 20;
	uint64_t *buf = aligned_alloc(64, FPOS_READ), sum = 0;
	struct wdir d;
	int fd = -1, rc = -1;

	/* room for a batch's reads past `want`, and an lseek per file's blocks */
	if (!buf || wl_alloc(w, want + want / FPOS_FILE_BLOCKS + 2 * WL_BATCH) || wl_dir(&d, dir))
		goto out_buf;
	if ((fd = fpos_file(&d, (char *)buf)) < 0)
		goto out;
	while (wl_more(w, want)) {
		wl_batch_begin(w);
		for (unsigned k = 0; k < WL_BATCH; k++) {
			uint64_t t0 = tsc_begin();
			ssize_t n = read(fd, buf, FPOS_READ);

			wl_note(w, t0, tsc_end(), c->ghz);
			if (n == 0) {
				t0 = tsc_begin();
				n = lseek(fd, -(off_t)FPOS_READ * FPOS_FILE_BLOCKS, SEEK_CUR);
				wl_note(w, t0, tsc_end(), c->ghz);
				if (n != 0)
					n = -1;
			}
			if (n < 0) {
				fprintf(stderr, PROG ": fpos: %s/fpos-data: %s\n", d.path, strerror(errno));
				goto out;
			}
			sum += buf[0] + buf[FPOS_READ / 8 - 1];
		}
		wl_batch_end(w);
	}
	__asm__ volatile("" : : "r"(sum));
	if (w->nh >= want)
		rc = read_refused(c, &d, buf, w);
	else
		fprintf(stderr, PROG ": fpos: %zu of %zu calls kept: this thread was switched out in nearly every "
			"batch of %d\n", w->nh, w->calls, WL_BATCH);
out:
	if (fd >= 0)
		close(fd);
	wdir_remove(&d);
out_buf:
	free(buf);
	return rc;
}

/*
 * fserver as the kernel sees it: the workload itself, run in-process
 * (bench_run, one thread, pinned) under a pseudo-lock that excludes nothing
 * and records the TSC at each lock()'s return and each unlock()'s start:
 * every locked call of the mix (LOCKED() in fserver.h: one system call
 * between the two), in the order and proportions its jobs make them, with
 * the unlocked tests, the close()s and the next job's shuffle between them.
 * Running the workload, rather than calling its tests, keeps one copy of
 * the mix (fserver_mix.c's table is private to the workload).  --timing off:
 * no TSC pair and histogram record of the harness's inside the hold.
 */
struct fs_record {
	uint64_t *locked, *unlocked;   /* TSC after lock(), before unlock() */
	long *switches;                /* the thread's context switches before each WL_BATCH calls' first */
	size_t n, cap;                 /* recorded; room, sized before the run */
	uint64_t calls;                /* lock() calls, recorded or not */
};
/* One thread writes it (the run's worker); read after bench_run() joins it. */
static struct fs_record fs_rec;

static int rec_init(void *lock, const struct lock_params *params)
{
	(void)lock;
	(void)params;
	return 0;
}

static void rec_destroy(void *lock)
{
	(void)lock;
}

static bool rec_lock(void *lock, struct lock_thread *self)
{
	(void)lock;
	(void)self;
	if (fs_rec.n < fs_rec.cap) {
		/* in the gap before a batch's first call: that gap is not kept */
		if (fs_rec.n % WL_BATCH == 0)
			fs_rec.switches[fs_rec.n / WL_BATCH] = thread_switches();
		fs_rec.locked[fs_rec.n] = tsc_begin();
	}
	fs_rec.calls++;
	return false;
}

static void rec_unlock(void *lock, struct lock_thread *self)
{
	(void)lock;
	(void)self;
	if (fs_rec.n < fs_rec.cap)
		fs_rec.unlocked[fs_rec.n++] = tsc_end();
}

static const struct lock_ops rec_ops = {
	.name = "lbcalibrate-record", .description = "records each locked call's TSC, one thread",
	.size = CACHELINE, .init = rec_init, .destroy = rec_destroy, .lock = rec_lock, .unlock = rec_unlock,
};

/* creat's operations run to count its locked calls an operation. */
#define CREAT_COUNTED_OPS 100

/* JOBS ops of workload NAME on one thread, in DIR; the recorder holds CAP calls. */
static int workload_ops(const struct calib *c, const char *dir, const char *name, uint64_t jobs, size_t cap)
{
	static struct bench_config cfg;
	struct bench_result res;
	char err[512], pin[32];
	int status;

	fs_rec = (struct fs_record){ .locked = calloc(cap ? cap : 1, sizeof(uint64_t)),
				     .unlocked = calloc(cap ? cap : 1, sizeof(uint64_t)),
				     .switches = calloc(cap / WL_BATCH + 1, sizeof(long)), .cap = cap };
	if (!fs_rec.locked || !fs_rec.unlocked || !fs_rec.switches) {
		fprintf(stderr, PROG ": %s: out of memory\n", name);
		return -1;
	}
	snprintf(pin, sizeof(pin), "list:%d", c->cpu_a);
	/* the run ends after its jobs (max_ops); the duration only bounds it */
	cfg = (struct bench_config){ .lock = &rec_ops, .workload = workload_find(name), .threads = 1,
		.duration_s = 600, .pin = pin, .lock_node = -1, .seed = 1, .max_ops = jobs, .dir = dir,
		.timing = TIMING_OFF, .quiet = true };
	status = bench_run(&cfg, &res, err, sizeof(err));
	if (status == EXIT_OK && res.ops_all != jobs) {
		snprintf(err, sizeof(err), "%llu jobs done of %llu", (unsigned long long)res.ops_all,
			 (unsigned long long)jobs);
		status = EXIT_RUNTIME;
	}
	bench_result_free(&res);
	if (status != EXIT_OK)
		fprintf(stderr, PROG ": %s: %s\n", name, err);
	return status == EXIT_OK ? 0 : -1;
}

static void fs_record_free(void)
{
	free(fs_rec.locked);
	free(fs_rec.unlocked);
	free(fs_rec.switches);
	fs_rec = (struct fs_record){ 0 };
}

/*
 * fserver's times: a first job, not recorded, counts a job's locked calls
 * (and warms the code and the file system's caches); then as many jobs as
 * give creat's number of calls (2 x 20 x trials), whole jobs, all recorded.
 * hold: each call, from lock()'s return to unlock(); gap: from one call's
 * unlock to the next one's lock, every pair in a row (the one between two
 * jobs too: one in a job's worth).
 */
static int measure_fserver(const struct calib *c, const char *dir, struct wl_times *w, uint64_t *per_job)
{
	uint64_t jobs;
	int rc = -1;

	if (workload_ops(c, dir, "fserver", 1, 0) != 0)
		goto out;
	if ((*per_job = fs_rec.calls) == 0) {
		fprintf(stderr, PROG ": fserver: a job made no locked call\n");
		goto out;
	}
	jobs = ((uint64_t)c->trials * 40 + *per_job - 1) / *per_job;
	jobs = jobs < 2 ? 2 : jobs;
	fs_record_free();
	if (workload_ops(c, dir, "fserver", jobs, (size_t)(jobs * *per_job)) != 0)
		goto out;
	/* acq_per_op holds only if every job makes the same calls */
	if (fs_rec.calls != jobs * *per_job) {
		fprintf(stderr, PROG ": fserver: %llu jobs made %llu locked calls, not %llu each\n",
			(unsigned long long)jobs, (unsigned long long)fs_rec.calls, (unsigned long long)*per_job);
		goto out;
	}
	if (wl_alloc(w, fs_rec.n)) {
		fprintf(stderr, PROG ": fserver: out of memory\n");
		goto out;
	}
	/* Batch by batch, as creat's and fpos's (wl_batch_begin): a batch the
	 * thread was switched out in is dropped, and the last one, whose end
	 * no reading follows, with it. */
	for (size_t b = 0; (b + 1) * WL_BATCH < fs_rec.n; b++) {
		bool switched = fs_rec.switches[b] < 0 || fs_rec.switches[b + 1] != fs_rec.switches[b];

		w->last_end = 0;
		w->calls += WL_BATCH;
		if (switched) {
			w->dropped += WL_BATCH;
			continue;
		}
		for (size_t i = b * WL_BATCH; i < (b + 1) * WL_BATCH; i++)
			wl_note(w, fs_rec.locked[i], fs_rec.unlocked[i], c->ghz);
	}
	rc = 0;
out:
	fs_record_free();
	return rc;
}

/* counter's critical section, as bench/workloads/counter.c runs it under a
 * lock that excludes (read, --cs work, write back + 1), with no --cs. */
enum { COUNTER_BATCH = 1000, COUNTER_RUNS = 5 };

static double counter_trial(void *value)
{
	volatile uint64_t *c = value;
	uint64_t t0 = tsc_begin();

	for (unsigned i = 0; i < COUNTER_BATCH; i++) {
		uint64_t v = *c;

		busy_loops(0);
		*c = v + 1;
	}
	return (double)(tsc_end() - t0) / COUNTER_BATCH;
}

/* lockbench's whole loop for one counter operation under `none`, one
 * thread (bench_run(), 0.3 s): its CPU time per operation (getrusage of
 * the measured interval), ns, a mean per run. */
static int counter_op_ns(const struct calib *c, struct est *out)
{
	static struct bench_config cfg;
	double v[COUNTER_RUNS];
	char err[512], pin[32];

	snprintf(pin, sizeof(pin), "list:%d", c->cpu_a);
	for (int i = 0; i < COUNTER_RUNS; i++) {
		struct bench_result res;

		cfg = (struct bench_config){ .lock = lock_find("none"), .workload = workload_find("counter"),
			.threads = 1, .duration_s = 0.3, .warmup_s = 0.05, .pin = pin, .lock_node = -1, .seed = 1,
			.quiet = true };
		if (bench_run(&cfg, &res, err, sizeof(err)) != EXIT_OK || res.ops == 0) {
			fprintf(stderr, PROG ": counter: %s\n", err);
			return -1;
		}
		/* CPU time, not wall time: another process sharing the CPU
		 * would otherwise count as the loop's */
		v[i] = (res.usage.user_s + res.usage.sys_s) * 1e9 / (double)res.ops;
		bench_result_free(&res);
	}
	*out = estimate(v, COUNTER_RUNS);
	return 0;
}

/*
 * counter: hold, the critical section's own work, timed over batches of
 * COUNTER_BATCH (one is below the TSC's resolution: the distribution is of
 * batch means); gap, the rest of lockbench's loop per operation (bench_run()
 * of counter under `none`: measured time / operations, less the hold), a
 * mean given as one point.
 */
static int write_counter(FILE *f, const struct calib *c)
{
	static _Alignas(64) uint64_t value;
	struct est hold, op;
	double *v = calloc(c->trials, sizeof(double));
	char text[1024];

	if (!v || counter_op_ns(c, &op)) {
		free(v);
		return -1;
	}
	for (unsigned t = 0; t < c->trials; t++)
		v[t] = counter_trial(&value) / c->ghz;
	hold = estimate(v, c->trials);
	if (op.med <= hold.med) {
		fprintf(stderr, PROG ": counter: an operation (%.1f ns) measured no longer than its hold (%.1f ns)\n",
			op.med, hold.med);
		free(v);
		return -1;
	}
	dist_text(v, c->trials, text, sizeof(text));
	fprintf(f, "workload.counter.hold = %s  # measured: counter's critical section (read, busy_loops(0), write "
		"back + 1) on a line held here, batches of %d, each batch's mean; %s on %s (%s)\n", text,
		COUNTER_BATCH, c->when, c->host, c->what);
	fprintf(f, "workload.counter.gap = 100%%:%.1f  # measured: a mean, not a distribution: lockbench -l none -w "
		"counter -t 1 -d 0.3 run in-process (bench_run) %d times, the thread's CPU time / operations (median "
		"%.1f ns, p10 %.1f, p90 %.1f), less the hold's median %.1f: the harness's loop and the timing of "
		"each acquisition; %s on %s (%s)\n", op.med - hold.med, COUNTER_RUNS, op.med, op.lo,
		op.hi, hold.med, c->when, c->host, c->what);
	free(v);
	return 0;
}

/* ---- the profile's text ---- */

static void source(FILE *f, const struct calib *c, const char *how, const struct est *e, const char *unit)
{
	fprintf(f, "  # measured: %s; median of %u trials (p10 %.*f, p90 %.*f %s); %s on %s (%s)\n", how, e->n,
		e->lo < 100 ? 2 : 0, e->lo, e->hi < 100 ? 2 : 0, e->hi, unit, c->when, c->host, c->what);
}

static void not_measurable(FILE *f, const char *key, const char *why)
{
	fprintf(f, "# %s: not measurable here: %s\n", key, why);
}

static void write_topology(FILE *f, const struct calib *c)
{
	fprintf(f, "topology.sockets = %u  # measured: hwloc packages; %s on %s (%s)\n", c->sockets, c->when, c->host,
		c->what);
	fprintf(f, "topology.cores_per_socket = %u  # measured: hwloc cores / packages; %s on %s (%s)\n",
		c->cores_per_socket, c->when, c->host, c->what);
	fprintf(f, "topology.threads_per_core = %u  # measured: hwloc PUs / cores; %s on %s (%s)\n",
		c->threads_per_core, c->when, c->host, c->what);
	fprintf(f, "clock.tsc_ghz = %.4f", c->tsc.med);
	source(f, c, "TSC ticks against CLOCK_MONOTONIC_RAW over 0.1 s busy (bench/platform/tsc.c)", &c->tsc, "GHz");
}

/* Each kind of pair's latency under its key, or a comment line saying why
 * this machine has no such pair. */
static int write_coherence(FILE *f, const struct calib *c)
{
	char how[200];
	struct est e;

	for (int k = 0; k < N_PAIRS; k++) {
		int b = c->partner[k];

		if (b == NO_CPU) {
			not_measurable(f, pair_keys[k], pair_missing[k]);
			continue;
		}
		if (measure_transfer(c, b, &e)) {
			fprintf(stderr, PROG ": cannot ping-pong between CPUs %d and %d\n", c->cpu_a, b);
			return -1;
		}
		/* The simulator hands a line over (a store, then the other
		 * core's load) in 1.5 transfers (sim/events.c, line_in_flight):
		 * its transfer is two thirds of the way measured here, so that
		 * the model's own ping-pong takes the time this one took. */
		snprintf(how, sizeof(how), "two thirds of half a round trip (median %.1f) of a store-then-poll "
			 "ping-pong of one line, CPUs %d and %d (hwloc: %s), 200 round trips a trial: the simulator's "
			 "hand-over takes 1.5 transfers", e.med, c->cpu_a, b, pair_words[k]);
		e.med *= 2.0 / 3.0;
		e.lo *= 2.0 / 3.0;
		e.hi *= 2.0 / 3.0;
		fprintf(f, "%s = %.1f", pair_keys[k], e.med);
		source(f, c, how, &e, "cycles");
	}
	return 0;
}

static void write_cpu_costs(FILE *f, const struct calib *c)
{
	static _Alignas(64) uint64_t word;
	double floor = (double)tsc_timer_overhead();
	struct est hit = measure_hit(c), rmw = over_trials(c, rmw_trial, &word);
	struct est pause = over_trials(c, pause_trial, NULL), mem = over_trials(c, mem_trial, &floor);
	struct est extra = rmw;

	fprintf(f, "lat.hit = %.2f", hit.med);
	source(f, c, "a dependent chain of loads around 64 lines of one page (L1), 16000 loads a trial", &hit,
	       "cycles");
	fprintf(f, "lat.mem = %.1f", mem.med);
	source(f, c, "one load of a line just flushed (clflush, mfence), the TSC pair's median cost taken off", &mem,
	       "cycles");
	/* The extra is the RMW's time beyond a hit: its trials' spread is the RMW's. */
	extra.med = fmax(0, rmw.med - hit.med);
	fprintf(f, "lat.atomic_extra = %.2f", extra.med);
	source(f, c, "back-to-back lock xadd (__atomic_fetch_add, seq_cst) on a line held here, 4000 a trial, "
	       "less lat.hit; the spread is the RMW's own", &extra, "cycles");
	fprintf(f, "lat.pause = %.2f", pause.med);
	source(f, c, "back-to-back pause (cpu_relax), 2000 a trial", &pause, "cycles");
}

/* Whether the pair's TSCs agree.  On a busy machine one 50 ms check may see
 * the other CPU too seldom to bound the offset at all (sk.pairs 0: no
 * answer, not a disagreement), so it is asked up to five times; a pair
 * seen running backwards is refused at once. */
static bool tsc_pair_agrees(const int pair[2], struct tsc_skew *sk)
{
	for (int attempt = 0; attempt < 5; attempt++) {
		if (tsc_skew_check(pair, 2, 0.05 * (attempt + 1), 0, sk))
			return false;
		if (sk->backwards)
			return false;
		if (sk->pairs == 1)
			return true;
	}
	return false;
}

/* A wake-up across CPUs and a switch on one. */
static int write_sleeps(FILE *f, const struct calib *c)
{
	const int pair[2] = { c->cpu_a, c->cpu_b };
	struct tsc_skew sk;
	struct est wake, sw;
	char how[400];

	/* The wake-up is timed across the pair: their TSCs must agree, and the
	 * bound on their offset (bench/platform/tsc.c) goes into the source. */
	if (!tsc_pair_agrees(pair, &sk)) {
		fprintf(stderr, PROG ": the TSCs of CPUs %d and %d do not agree, or could not be compared: "
			"no wake-up latency across them\n", c->cpu_a, c->cpu_b);
		return -1;
	}
	if (measure_wake(c, &wake) || measure_switch(c, &sw)) {
		fprintf(stderr, PROG ": cannot run the futex threads on CPUs %d and %d\n", c->cpu_a, c->cpu_b);
		return -1;
	}
	snprintf(how, sizeof(how), "TSC before FUTEX_WAKE_PRIVATE on CPU %d to TSC after the woken thread's FUTEX_WAIT "
		 "returned on CPU %d, idle 200 us before (their TSCs agree within %.0f ns)", c->cpu_a, c->cpu_b,
		 (double)sk.bound / c->ghz);
	fprintf(f, "kernel.wake_latency_ns = %.0f", wake.med);
	source(f, c, how, &wake, "ns");
	fprintf(f, "kernel.context_switch_ns = %.0f", sw.med);
	source(f, c, "two threads on one CPU passing a turn through a futex, 20 passes a trial: one switch, "
	       "one FUTEX_WAKE and one sleeping FUTEX_WAIT a pass", &sw, "ns");
	return 0;
}

static int write_kernel(FILE *f, const struct calib *c)
{
	static void (*const fn[N_CALLS])(void *) = { call_getppid, call_wake_none, call_wait_changed };
	static uint32_t word;
	double *v[N_CALLS] = { calloc(c->trials, sizeof(double)), calloc(c->trials, sizeof(double)),
			       calloc(c->trials, sizeof(double)) };
	struct est sys, wake_call, wait_call;
	int rc = -1;

	if (!v[0] || !v[1] || !v[2])
		goto out;
	time_calls(c, fn, &word, v);
	/* The futex calls' own work: each batch less the getppid batch beside it. */
	for (unsigned t = 0; t < c->trials; t++) {
		v[CALL_WAKE][t] -= v[CALL_GETPPID][t];
		v[CALL_WAIT][t] -= v[CALL_GETPPID][t];
	}
	sys = estimate(v[CALL_GETPPID], c->trials);
	wake_call = estimate(v[CALL_WAKE], c->trials);
	wait_call = estimate(v[CALL_WAIT], c->trials);
	fprintf(f, "kernel.syscall_ns = %.1f", sys.med);
	source(f, c, "syscall(SYS_getppid), each call timed alone (the TSC pair's cost taken off), a trial the "
	       "median of 101", &sys, "ns");
	if (wake_call.med <= 0 || wait_call.med <= 0) {
		fprintf(stderr, PROG ": a futex call measured no slower than getppid: not written\n");
		goto out;
	}
	fprintf(f, "kernel.futex_wake_ns = %.1f", wake_call.med);
	source(f, c, "FUTEX_WAKE_PRIVATE with no waiter, timed as getppid in turn with it, less the trial's "
	       "getppid (entry and exit)", &wake_call, "ns");
	fprintf(f, "kernel.futex_wait_ns = %.1f", wait_call.med);
	source(f, c, "FUTEX_WAIT_PRIVATE on a changed value (returns EAGAIN), timed as getppid in turn with it, less "
	       "the trial's getppid (entry and exit)", &wait_call, "ns");
	rc = 0;
out:
	for (int k = 0; k < N_CALLS; k++)
		free(v[k]);
	return rc ? rc : write_sleeps(f, c);
}

/* The running kernel's scheduler model: EEVDF from 6.6 (commit
 * 5e963f2bd465, "sched/fair: Commit to EEVDF"), else CFS, whose 2.6.34
 * form is the one simulated. */
static void write_sched_model(FILE *f, const struct calib *c)
{
	struct utsname u;
	unsigned major = 0, minor = 0;

	if (uname(&u) != 0 || sscanf(u.release, "%u.%u", &major, &minor) != 2) {
		fputs("sched.model = cfs-2.6.34  # derived: the running kernel's release was not readable; "
		      "the seed's era's scheduler\n", f);
		return;
	}
	if (major > 6 || (major == 6 && minor >= 6))
		fprintf(f, "sched.model = eevdf-6.x  # measured: the running kernel is Linux %.60s, and Linux runs "
			"EEVDF from 6.6 (commit 5e963f2bd465, \"sched/fair: Commit to EEVDF\"); %s on %s\n",
			u.release, c->when, c->host);
	else
		fprintf(f, "sched.model = cfs-2.6.34  # measured: the running kernel is Linux %.60s, before EEVDF "
			"(6.6): a CFS, of which 2.6.34's is the one simulated; %s on %s\n", u.release, c->when, c->host);
}

/* The schedulers: the running kernel's model, 2.6.34's CFS (the seed's
 * era), today's EEVDF. */
static void write_sched(FILE *f, const struct calib *c)
{
	char where[128] = "";
	unsigned hz = config_hz(where, sizeof(where));

	write_sched_model(f, c);
	fputs("sched.cfs-2.6.34.hz = 250  # cited: Linux 2.6.34 kernel/Kconfig.hz: default HZ_250\n"
	      "sched.cfs-2.6.34.latency_ns = 5000000  # cited: Linux 2.6.34 kernel/sched_fair.c: "
	      "normalized_sysctl_sched_latency = 5000000ULL\n"
	      "sched.cfs-2.6.34.min_granularity_ns = 1000000  # cited: Linux 2.6.34 kernel/sched_fair.c: "
	      "normalized_sysctl_sched_min_granularity = 1000000ULL\n"
	      "sched.cfs-2.6.34.wakeup_granularity_ns = 1000000  # cited: Linux 2.6.34 kernel/sched_fair.c: "
	      "normalized_sysctl_sched_wakeup_granularity = 1000000UL\n"
	      "sched.cfs-2.6.34.nr_latency = 5  # cited: Linux 2.6.34 kernel/sched_fair.c: "
	      "static unsigned int sched_nr_latency = 5\n"
	      "sched.cfs-2.6.34.scaling = log  # cited: Linux 2.6.34 kernel/sched_fair.c: sysctl_sched_tunable_scaling "
	      "= SCHED_TUNABLESCALING_LOG; kernel/sched.c update_sysctl(): each tunable = (1 + ilog2(cpus)) x normalized\n"
	      "sched.cfs-2.6.34.scaling_cap = 8  # cited: Linux 2.6.34 kernel/sched.c get_update_sysctl_factor(): "
	      "cpus = min_t(int, num_online_cpus(), 8)\n", f);
	if (hz)
		fprintf(f, "sched.eevdf-6.x.hz = %u  # measured: %s; %s on %s (%s)\n", hz, where, c->when, c->host,
			c->what);
	else
		fputs("sched.eevdf-6.x.hz = 250  # cited: Linux 6.18 kernel/Kconfig.hz: default HZ_250 "
		      "(the running kernel's config was not readable)\n", f);
	fputs("sched.eevdf-6.x.min_granularity_ns = 700000  # cited: Linux 6.15+ kernel/sched/fair.c: "
	      "normalized_sysctl_sched_base_slice = 700000ULL (commit 2ae891b82695, \"sched: Reduce the default "
	      "slice to avoid tasks getting an extra tick\"); EEVDF's base slice, in min_granularity's place\n"
	      "sched.eevdf-6.x.scaling = log  # cited: Linux 6.18 kernel/sched/fair.c: sysctl_sched_tunable_scaling = "
	      "SCHED_TUNABLESCALING_LOG; update_sysctl() scales sched_base_slice by 1 + ilog2(cpus)\n"
	      "sched.eevdf-6.x.scaling_cap = 8  # cited: Linux 6.18 kernel/sched/fair.c get_update_sysctl_factor(): "
	      "cpus = min_t(unsigned int, num_online_cpus(), 8)\n"
	      "# sched.eevdf-6.x.latency_ns, wakeup_granularity_ns, nr_latency: EEVDF has none (removed in 6.6)\n", f);
}

/* The medians of the even (creating) and odd (unlinking) samples. */
static void split_kinds(const double *v, size_t n, struct est *even, struct est *odd)
{
	double *a = calloc(n, sizeof(double)), *b = calloc(n, sizeof(double));
	unsigned na = 0, nb = 0;

	*even = *odd = (struct est){ 0 };
	if (a && b) {
		for (size_t i = 0; i < n; i++) {
			if (i % 2)
				b[nb++] = v[i];
			else
				a[na++] = v[i];
		}
		*even = estimate(a, na);
		*odd = estimate(b, nb);
	}
	free(a);
	free(b);
}

/* The two lines of one workload: hold, then gap. */
static void write_times(FILE *f, const struct calib *c, const char *name, struct wl_times *w, const char *hold_how,
			const char *gap_how)
{
	char text[1024];

	dist_text(w->hold, w->nh, text, sizeof(text));
	fprintf(f, "workload.%s.hold = %s  # measured: %s, %zu calls (of %zu timed: %zu in batches of %d during "
		"which the thread was switched out dropped); %s on %s (%s)\n", name, text, hold_how, w->nh, w->calls,
		w->dropped, WL_BATCH, c->when, c->host, c->what);
	dist_text(w->gap, w->ng, text, sizeof(text));
	fprintf(f, "workload.%s.gap = %s  # measured: %s, %zu gaps; %s on %s (%s)\n", name, text, gap_how, w->ng,
		c->when, c->host, c->what);
}

static void write_fpos_outside(FILE *f, const struct calib *c, const struct wl_times *w)
{
	fprintf(f, "workload.fpos.outside_ns = %.0f", w->outside.med);
	source(f, c, "read() of the same file through a write-only descriptor: the call's entry and exit and the "
	       "descriptor's lookup (ksys_read's fdget_pos), then vfs_read refuses it (EBADF, not FMODE_READ) "
	       "before any of the read's work, none of it under f_pos_lock (Linux 6.x fs/read_write.c); an "
	       "estimate of the part of fpos's calls outside the lock", &w->outside, "ns");
}

/* fserver's two lines (measure_fserver); no outside_ns: docs/sim.md says why. */
static int write_fserver(FILE *f, const struct calib *c, const char *dir, const struct fs_info *fs)
{
	struct wl_times w = { 0 };
	uint64_t per_job = 0;
	char how[1024];

	if (measure_fserver(c, dir, &w, &per_job) != 0) {
		wl_free(&w);
		return -1;
	}
	snprintf(how, sizeof(how), "fserver's locked calls (creat, unlink, mkdir, rmdir, getdents, link, fstatat, "
		 "open, pread, pwrite, fdatasync: %llu a job) in %.200s (%s), the workload itself run in-process "
		 "(bench_run, -t 1, --timing off) under a pseudo-lock that records the TSC at each lock()'s return "
		 "and unlock()'s start, a first job not recorded: each call; the kernel's own locks are held inside "
		 "for less", (unsigned long long)per_job, dir, fs->type);
	write_times(f, c, "fserver", &w, how, "from one locked call's unlock to the next one's lock (the mix's "
		    "unlocked tests, the close()s, the harness's loop; between two jobs, the next one's shuffle)");
	fprintf(f, "workload.fserver.acq_per_op = %llu  # measured: the locked calls of one job (a simulated run "
		"counts a job per that many acquisitions), counted by the pseudo-lock over a first job; %s on %s (%s)\n",
		(unsigned long long)per_job, c->when, c->host, c->what);
	wl_free(&w);
	return 0;
}

static int write_workloads(FILE *f, const struct calib *c, const char *dir)
{
	struct wl_times w = { 0 };
	struct fs_info *fs = calloc(1, sizeof(*fs));
	struct est create, unlink;
	char how[1024];
	int rc = -1;

	if (!fs)
		return -1;
	fsinfo_probe(fs, dir);
	if (measure_creat(c, dir, &w) == 0) {
		split_kinds(w.hold, w.nh, &create, &unlink);
		snprintf(how, sizeof(how), "creat's calls alone (fu_create O_CREAT|O_EXCL, fu_unlink) in %.200s (%s on "
			 "%.100s), one thread, no lock (create median %.0f, unlink median %.0f): each from TSC before to "
			 "TSC after; the directory's i_rwsem is held inside for less (entry, exit, the path walk before "
			 "it and the work after it counted in: workload.creat.outside_ns)", dir, fs->type, fs->source,
			 create.med, unlink.med);
		write_times(f, c, "creat", &w, how, "from one of those calls' return to the next one's start "
			    "(close() after the create; the loop)");
		fprintf(f, "workload.creat.outside_ns = %.0f", w.outside.med);
		source(f, c, "open() O_RDONLY of a file that is there, in the same directory: the call's entry and exit, "
		       "the walk to a cached dentry and the open, none of it under the directory's i_rwsem; an "
		       "estimate of the part of a creating call outside the lock", &w.outside, "ns");
		/* A real creat op is more than one acquisition: a simulated op must
		 * be as many, or its ops/s is not the real run's (nor test-mutex V's). */
		if (workload_ops(c, dir, "creat", CREAT_COUNTED_OPS, 0) != 0 || fs_rec.calls % CREAT_COUNTED_OPS ||
		    !fs_rec.calls) {
			fs_record_free();
			fprintf(stderr, PROG ": creat: its locked calls are no whole number an operation\n");
			wl_free(&w);
			free(fs);
			return -1;
		}
		fprintf(f, "workload.creat.acq_per_op = %llu  # measured: the locked calls of %d operations of the creat "
			"workload (bench_run, one thread) under lbcalibrate's recording pseudo-lock, over the operations "
			"(its create and its unlink; the close between takes none); %s on %s (%s)\n",
			(unsigned long long)(fs_rec.calls / CREAT_COUNTED_OPS), CREAT_COUNTED_OPS, c->when, c->host, c->what);
		fs_record_free();
		wl_free(&w);
		if (measure_fpos(c, dir, &w) == 0) {
			snprintf(how, sizeof(how), "fpos's calls alone: read() of 16 KiB blocks of a 1 MiB file in "
				 "%.200s (%s), lseek() back at its end, one thread, no lock: each from TSC before to TSC "
				 "after; a shared file's f_pos_lock is held inside for less (one thread alone does not "
				 "take it)", dir, fs->type);
			write_times(f, c, "fpos", &w, how, "from one of those calls' return to the next one's start "
				    "(the block's first and last words read; the loop)");
			write_fpos_outside(f, c, &w);
			rc = write_counter(f, c);
		}
	}
	wl_free(&w);
	if (rc == 0)
		rc = write_fserver(f, c, dir, fs);
	free(fs);
	return rc;
}

/* ---- main ---- */

/* When, where and on what: for every source comment. */
static void describe(struct calib *c)
{
	char line[256], model[128] = "unknown CPU";
	time_t now = time(NULL);
	struct utsname u;
	FILE *f = fopen("/proc/cpuinfo", "r"), *f2;

	strftime(c->when, sizeof(c->when), "%Y-%m-%d %H:%M UTC", gmtime(&now));
	snprintf(c->load, sizeof(c->load), "unknown");
	if ((f2 = fopen("/proc/loadavg", "r"))) {
		if (!fgets(c->load, sizeof(c->load), f2))
			snprintf(c->load, sizeof(c->load), "unknown");
		c->load[strcspn(c->load, "\n")] = '\0';
		fclose(f2);
	}
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "model name : %127[^\n]", model) == 1)
			break;
	if (f)
		fclose(f);
	if (uname(&u) != 0)
		memset(&u, 0, sizeof(u));
	snprintf(c->host, sizeof(c->host), "%.100s", u.nodename[0] ? u.nodename : "unknown host");
	snprintf(c->what, sizeof(c->what), "%.100s, %u x %u x %u CPUs, Linux %.60s", model, c->sockets,
		 c->cores_per_socket, c->threads_per_core, u.release);
}

static int measure_tsc(struct calib *c)
{
	enum { RUNS = 5 };
	double v[RUNS];

	for (int i = 0; i < RUNS; i++)
		v[i] = tsc_calibrate_hz(0.1) / 1e9;
	c->tsc = estimate(v, RUNS);
	c->ghz = c->tsc.med;
	return c->ghz > 0 ? 0 : -1;
}

static int write_profile(FILE *f, struct calib *c, const char *name, const char *dir)
{
	fprintf(f, "# lockbench machine profile (docs/sim.md): written by " PROG " --trials %u, %s on %s\n"
		"# %s; /proc/loadavg at the start: %s\n"
		"# a source on every constant; what could not be measured here is said, not invented\n",
		c->trials, c->when, c->host, c->what, c->load);
	fprintf(f, "name = %s\n\n# topology and clock\n", name);
	write_topology(f, c);
	fputs("\n# coherence, in TSC cycles\n", f);
	if (write_coherence(f, c))
		return -1;
	write_cpu_costs(f, c);
	fputs("\n# the kernel's costs, ns\n", f);
	if (write_kernel(f, c))
		return -1;
	fputs("\n# schedulers: the first is used unless the run asks for the other\n", f);
	write_sched(f, c);
	fputs("\n# the workloads' times in the kernel, ns: CUMULATIVE-PERCENT:NS points\n", f);
	return write_workloads(f, c, dir);
}

static void print_dist(const char *what, const struct sim_dist *d)
{
	printf("  %-6s p50 %.4g ns, p90 %.4g ns, max %.4g ns (%u points)\n", what, sim_dist_at(d, 0.5),
	       sim_dist_at(d, 0.9), d->ns[d->n - 1], d->n);
}

/* --check: load a profile and say what it holds. */
static int check(const char *what)
{
	struct sim_profile *p = calloc(1, sizeof(*p));
	char err[512];

	if (!p || sim_profile_find(what, p, err, sizeof(err))) {
		fprintf(stderr, PROG ": %s\n", p ? err : strerror(errno));
		free(p);
		return 1;
	}
	printf("%s: %u x %u x %u CPUs, TSC %.3f GHz\n", p->name, p->sockets, p->cores_per_socket,
	       p->threads_per_core, p->tsc_ghz);
	printf("  cycles: hit %.1f, smt %.1f, socket %.1f, remote %.1f, mem %.1f, atomic +%.1f, pause %.1f\n",
	       p->lat_hit, p->lat_smt, p->lat_socket, p->lat_remote, p->lat_mem, p->atomic_extra, p->pause_cycles);
	printf("  sched %s: HZ %u, latency %.0f ns, min granularity %.0f ns, wakeup granularity %.0f ns\n",
	       p->sched_model, p->hz, p->sched_latency_ns, p->sched_min_granularity_ns,
	       p->sched_wakeup_granularity_ns);
	printf("  ns: wake %.0f, switch %.0f, syscall %.0f, futex wait %.0f, futex wake %.0f\n", p->wake_latency_ns,
	       p->context_switch_ns, p->syscall_ns, p->futex_wait_ns, p->futex_wake_ns);
	for (unsigned i = 0; i < p->n_workloads; i++) {
		printf("  workload %s\n", p->workloads[i].name);
		print_dist("hold", &p->workloads[i].hold);
		print_dist("gap", &p->workloads[i].gap);
		if (sim_profile_has(p->workloads[i].outside_ns))
			printf("  outside the lock %.0f ns a hold\n", p->workloads[i].outside_ns);
		if (p->workloads[i].acq_per_op)
			printf("  %u acquisitions an operation\n", p->workloads[i].acq_per_op);
	}
	free(p);
	return sf_close_stdout(PROG, false) ? 1 : 0;
}

/* --pairs: the CPUs each measurement would use, measuring nothing; on the
 * topology in $LOCKBENCH_TOPOLOGY_XML where it is set (tests/sim-calibrate.t
 * shows another machine's pairs this way). */
static int pairs(void)
{
	const char *xml = getenv(TOPOLOGY_XML_ENV);
	struct calib c = { 0 };

	if (xml && *xml)
		topology_use_xml(xml);
	if (read_topology(&c))
		return 1;
	printf("topology: %u sockets x %u cores x %u threads\n", c.sockets, c.cores_per_socket, c.threads_per_core);
	for (int k = 0; k < N_PAIRS; k++) {
		if (c.partner[k] == NO_CPU)
			printf("%s: not measurable (%s)\n", pair_keys[k], pair_missing[k]);
		else
			printf("%s: CPUs %d and %d (%s)\n", pair_keys[k], c.cpu_a, c.partner[k], pair_words[k]);
	}
	if (c.cpu_b == NO_CPU)
		printf("kernel.wake_latency_ns: not measurable (one usable CPU)\n");
	else
		printf("kernel.wake_latency_ns: CPUs %d and %d\n", c.cpu_a, c.cpu_b);
	return sf_close_stdout(PROG, false) ? 1 : 0;
}

static int usage(const char *why)
{
	fprintf(stderr, PROG ": %s (usage: " PROG " [-o FILE] [--trials N] [--name NAME] [--dir DIR] | "
		PROG " --check FILE|NAME | " PROG " --pairs)\n", why);
	return 2;
}

struct opts {
	const char *out, *name, *dir, *check;
	unsigned trials;
	bool pairs;
};

/* Where the file workloads' calls are timed unless --dir says: as run-all
 * runs them, on /dev/shm where it is a writable tmpfs (issue 25), else in
 * $TMPDIR or /tmp. */
static const char *default_dir(void)
{
	const char *tmp = getenv("TMPDIR");
	struct statfs st;

	if (statfs("/dev/shm", &st) == 0 && fsinfo_magic_name((unsigned long long)st.f_type) &&
	    strcmp(fsinfo_magic_name((unsigned long long)st.f_type), "tmpfs") == 0 && access("/dev/shm", W_OK) == 0)
		return "/dev/shm";
	return tmp && *tmp ? tmp : "/tmp";
}

static int parse_opts(int argc, char **argv, struct opts *o)
{
	*o = (struct opts){ NULL, "here", default_dir(), NULL, DEFAULT_TRIALS, false };
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		char *end;

		if (strcmp(a, "--pairs") == 0) {
			o->pairs = true;
			continue;
		}
		if (strcmp(a, "-o") && strcmp(a, "--trials") && strcmp(a, "--name") && strcmp(a, "--dir") &&
		    strcmp(a, "--check"))
			return usage("unknown option");
		if (!v)
			return usage("an option without its value");
		i++;
		if (strcmp(a, "--trials") == 0) {
			unsigned long n;

			errno = 0;
			n = strtoul(v, &end, 10);
			if (*v < '0' || *v > '9' || *end || errno || n < 10 || n > MAX_TRIALS)
				return usage("--trials: a whole number from 10 to 100000");
			o->trials = (unsigned)n;
		} else if (strcmp(a, "--name") == 0) {
			if (!*v || strlen(v) >= 64 || strspn(v, "abcdefghijklmnopqrstuvwxyz0123456789._-") != strlen(v))
				return usage("--name: a-z, 0-9, '.', '_', '-', under 64 characters");
			o->name = v;
		} else {
			*(strcmp(a, "-o") == 0 ? &o->out : strcmp(a, "--dir") == 0 ? &o->dir : &o->check) = v;
		}
	}
	return 0;
}

/* OUT's folder opened into D and OUT started in it: the stream, or NULL
 * after one line on stderr. */
static FILE *out_open(const char *out, struct sf_dir *d, struct sf_out *so)
{
	const char *slash = strrchr(out, '/');
	char err[512], dirpath[PATH_MAX];
	FILE *f;

	snprintf(dirpath, sizeof(dirpath), "%.*s", slash ? (int)(slash - out) + (slash == out) : 1,
		 slash ? out : ".");
	if (sf_dir_open(d, dirpath, err, sizeof(err)) == 0) {
		if ((f = sf_out_open(so, d, slash ? slash + 1 : out, err, sizeof(err))))
			return f;
		sf_dir_close(d);
	}
	fprintf(stderr, PROG ": %s\n", err);
	return NULL;
}

/* OUT written (RC 0) or given up (RC not 0), then loaded back: what this
 * writes is what the loader takes.  0, or 1 after one line on stderr. */
static int out_close(const char *out, struct sf_dir *d, struct sf_out *so, int rc)
{
	struct sim_profile *back = NULL;
	char err[512];

	if (rc)
		sf_out_abort(so);
	else if (sf_out_commit(so, err, sizeof(err)))
		rc = fprintf(stderr, PROG ": %s\n", err);
	sf_dir_close(d);
	if (rc == 0 && (!(back = calloc(1, sizeof(*back))) || sim_profile_load(out, back, err, sizeof(err))))
		rc = fprintf(stderr, PROG ": the profile written does not load: %s\n", back ? err : strerror(errno));
	free(back);
	return rc ? 1 : 0;
}

/* The profile into o->out (standard output without).  It is measured into
 * memory first: a measurement that fails leaves nothing half written, on
 * standard output either. */
static int calibrate(const struct opts *o)
{
	struct calib c = { .trials = o->trials };
	char *text = NULL;
	size_t len = 0;
	struct sf_out so;
	struct sf_dir d;
	FILE *mem, *f = stdout;
	int rc;

	if (read_topology(&c))
		return 1;
	/* the wake-up latency needs a pair: refused before anything is measured */
	if (c.cpu_b == NO_CPU) {
		fprintf(stderr, PROG ": one usable CPU: the wake-up latency needs two\n");
		return 1;
	}
	if (measure_tsc(&c))
		return 1;
	describe(&c);
	if (o->out && !(f = out_open(o->out, &d, &so)))
		return 1;
	if (!(mem = open_memstream(&text, &len))) {
		rc = fprintf(stderr, PROG ": %s\n", strerror(errno));
	} else {
		rc = write_profile(mem, &c, o->name, o->dir);
		if (fclose(mem) != 0)
			rc = fprintf(stderr, PROG ": %s\n", strerror(errno));
	}
	if (rc == 0 && fwrite(text, 1, len, f) != len)
		rc = fprintf(stderr, PROG ": cannot write the profile: %s\n", strerror(errno));
	free(text);
	if (o->out)
		rc = out_close(o->out, &d, &so, rc);
	return rc || sf_close_stdout(PROG, rc != 0) ? 1 : 0;
}

int main(int argc, char **argv)
{
	struct opts o;
	int rc = parse_opts(argc, argv, &o);

	if (rc)
		return rc;
	if (o.pairs)
		return pairs();
	return o.check ? check(o.check) : calibrate(&o);
}
