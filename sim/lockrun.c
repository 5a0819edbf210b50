/*
 * lockrun.c — a lock's run on the simulator (lockrun.h).
 */
#include "lockrun.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/splitmix64.h"
#include "pr_sim.h"

struct lr_thread {
	const struct sim_lockrun *r;
	struct sim *s;
	uint64_t rng;
	void *lock;
	struct lock_thread *self;
	unsigned *inside;
	uint64_t *data;                 /* the protected data's line (sim_lockrun.data_line), or NULL */
	struct sim_lockrun_result *out;
	bool measuring;                 /* past measure_from_cycles */
	struct lock_events base;        /* its events when it began measuring */
	struct sim_cpu_time cpu;        /* in the CPU window: sys so far, user at the end */
};

/* A duration in cycles: `fixed`, or a draw from `d` (ns). */
static uint64_t lr_time(struct lr_thread *lt, const struct sim_dist *d, uint64_t fixed)
{
	/* 53 bits of the stream: a uniform double in [0, 1). */
	double u = (double)(splitmix64(&lt->rng) >> 11) / (double)(UINT64_C(1) << 53);

	return d ? sim_cycles(lt->s, sim_dist_at(d, u)) : fixed;
}

/* At the first acquisition of the measured interval: the events so far
 * are the warm-up's, left out of the thread's measured ones. */
static void lr_measure_start(struct lr_thread *lt)
{
	if (lt->measuring || sim_now() < lt->r->measure_from_cycles)
		return;
	lt->measuring = true;
	lt->base = lt->self->ev;
}

/* lock(), counted and reported when measured. */
static void lr_lock(struct lr_thread *lt)
{
	const struct sim_lockrun *r = lt->r;
	uint64_t t0;
	bool contended;

	lr_measure_start(lt);
	t0 = sim_now();
	contended = r->ops->lock(lt->lock, lt->self);
	if (!lt->measuring)
		return;
	lt->out->contended += contended;
	lt->out->acquisitions++;
	if (r->on_acquire)
		r->on_acquire(r->ctx, lt->self->id, sim_now() - t0, contended);
}

static void lr_body(void *arg)
{
	struct lr_thread *lt = arg;
	const struct sim_lockrun *r = lt->r;
	uint64_t end = r->duration_cycles, hold, outside;

	if (r->ops->thread_init)
		r->ops->thread_init(lt->lock, lt->self);
	while (sim_now() < end) {
		uint64_t k0 = sim_exec_self();

		if (r->kernel_section)
			sim_kernel_enter();
		lr_lock(lt);
		/* Plain: one simulated thread runs at a time; another one
		 * inside meanwhile means the lock let two in. */
		lt->out->overlaps += (*lt->inside)++ != 0;
		if (lt->data)
			pr_store(lt->data, pr_load(lt->data, PR_RELAXED) + 1, PR_RELAXED);
		hold = lr_time(lt, r->hold_dist, r->hold_cycles);
		outside = r->kernel_section ? (hold < r->outside_cycles ? hold : r->outside_cycles) : 0;
		sim_work(hold - outside);
		(*lt->inside)--;
		r->ops->unlock(lt->lock, lt->self);
		if (outside)
			sim_work(outside);  /* the call's part outside its lock (lockrun.h) */
		if (r->kernel_section) {
			sim_kernel_exit();
			lt->cpu.sys += sim_exec_self() - k0;
		}
		if (r->after_unlock)
			r->after_unlock(r->ctx, lt->self->id, &lt->self->ev);
		sim_work(lr_time(lt, r->gap_dist, r->gap_cycles));
	}
	lt->cpu.user = sim_exec_self() - lt->cpu.sys;
}

/* to += e - base, field by field. */
static void sum_events(struct lock_events *to, const struct lock_events *e, const struct lock_events *base)
{
	const uint64_t *src = (const uint64_t *)e, *b = (const uint64_t *)base;
	uint64_t *dst = (uint64_t *)to;

	/* struct lock_events is uint64_t fields only */
	_Static_assert(sizeof(*e) % sizeof(uint64_t) == 0, "lock_events: uint64_t fields");
	for (size_t i = 0; i < sizeof(*e) / sizeof(uint64_t); i++)
		dst[i] += src[i] - b[i];
}

/* Thread i's measured events (none if it never began measuring). */
static void lr_thread_events(const struct lr_thread *lt, struct lock_events *out)
{
	memset(out, 0, sizeof(*out));
	if (lt->measuring)
		sum_events(out, &lt->self->ev, &lt->base);
	out->preempt_seen = lt->self->ev.preempt_seen;  /* a flag, not a count */
}

/* The lock and its threads' records, zeroed and cache-line aligned. */
static int lr_alloc(const struct sim_lockrun *r, void **lock, struct lr_thread **lt)
{
	size_t tsize = LOCK_THREAD_SIZE(r->ops);
	*lock = aligned_alloc(CACHELINE, ALIGN_UP(r->ops->size ? r->ops->size : 1, CACHELINE));
	*lt = calloc(r->threads, sizeof(**lt));
	if (!*lock || !*lt)
		return -ENOMEM;
	memset(*lock, 0, ALIGN_UP(r->ops->size ? r->ops->size : 1, CACHELINE));
	for (unsigned i = 0; i < r->threads; i++) {
		(*lt)[i].self = aligned_alloc(CACHELINE, tsize);
		if (!(*lt)[i].self)
			return -ENOMEM;
		memset((*lt)[i].self, 0, tsize);
		(*lt)[i].self->id = i;
		(*lt)[i].self->node = -1;
	}
	return 0;
}

static void lr_free(const struct sim_lockrun *r, void *lock, struct lr_thread *lt)
{
	for (unsigned i = 0; lt && i < r->threads; i++)
		free(lt[i].self);
	free(lt);
	free(lock);
}

/* prepare() (kmutex: settles its oracle, the simulated sched here), then init(). */
static int lr_start(const struct sim_lockrun *r, void *lock, struct lock_params *params,
		    struct sim_lockrun_result *out, char *err, size_t errlen)
{
	int rc;

	params->threads = r->threads;
	if (r->ops->prepare && r->ops->prepare(&params->settings, r->threads, out->note, sizeof(out->note)) < 0)
		return snprintf(err, errlen, "sim: %s: %s", r->ops->name, out->note), -1;
	if ((rc = r->ops->init(lock, params)) != 0)
		return snprintf(err, errlen, "sim: %s: init: %s", r->ops->name, strerror(-rc)), -1;
	return 0;
}

static int lr_run(struct sim *s, const struct sim_lockrun *r, struct lr_thread *lt, void *lock, unsigned *inside,
		  uint64_t *data, struct sim_lockrun_result *out, char *err, size_t errlen)
{
	int rc;

	/* Each thread's CPU time over the measured interval, as a real run's
	 * getrusage() before and after it: its time on a CPU in that span of
	 * virtual time, whatever its acquisitions were doing. */
	sim_cpu_window(s, r->measure_from_cycles, r->duration_cycles);
	for (unsigned i = 0; i < r->threads; i++) {
		/* each thread's own stream, apart from the engine's */
		lt[i] = (struct lr_thread){ .r = r, .s = s, .rng = r->seed ^ (UINT64_C(0x5851f42d4c957f2d) * (i + 1)),
					    .lock = lock, .self = lt[i].self, .inside = inside, .data = data, .out = out };
		if (sim_spawn(s, lr_body, &lt[i]) < 0)
			return snprintf(err, errlen, "sim: cannot start simulated thread %u", i), -1;
	}
	rc = sim_run(s, r->duration_cycles + sim_cycles(s, 1e9));
	if (rc != 0)
		return snprintf(err, errlen, "sim: %s: %s", r->ops->name,
				rc < 0 ? "no thread can go on (a lost wake-up)" :
					 "still running a simulated second past the run's end"),
		       -1;
	for (unsigned i = 0; i < r->threads; i++) {
		struct lock_events ev;

		lr_thread_events(&lt[i], &ev);
		sum_events(&out->ev, &ev, &(struct lock_events){ 0 });
		if (r->thread_ev)
			r->thread_ev[i] = ev;
		if (r->thread_cpu)
			r->thread_cpu[i] = lt[i].cpu;
	}
	out->ev.preempt_seen = out->ev.preempt_seen != 0;
	return 0;
}

int sim_lockrun(struct sim *s, const struct sim_lockrun *r, struct sim_lockrun_result *out, char *err,
		size_t errlen)
{
	struct lock_params params;
	struct lr_thread *lt = NULL;
	void *lock = NULL;
	unsigned inside = 0;
	/* a line of its own, its neighbours untouched */
	uint64_t *data = r->data_line ? aligned_alloc(CACHELINE, CACHELINE) : NULL;
	int rc;

	memset(out, 0, sizeof(*out));
	memset(&params, 0, sizeof(params));
	params.settings = r->settings;
	if (r->threads == 0 || r->threads > SIM_MAX_THREADS)
		return snprintf(err, errlen, "sim: %u threads (1 to %d)", r->threads, SIM_MAX_THREADS), -1;
	if (lr_alloc(r, &lock, &lt) < 0 || (r->data_line && !data)) {
		lr_free(r, lock, lt);
		free(data);
		return snprintf(err, errlen, "sim: out of memory"), -1;
	}
	if (data)
		memset(data, 0, CACHELINE);
	rc = lr_start(r, lock, &params, out, err, errlen);
	out->settings = params.settings;
	if (rc == 0) {
		rc = lr_run(s, r, lt, lock, &inside, data, out, err, errlen);
		if (r->ops->destroy)
			r->ops->destroy(lock);
	}
	lr_free(r, lock, lt);
	free(data);
	return rc;
}
