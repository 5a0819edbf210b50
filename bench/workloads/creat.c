/*
 * creat — Ingo Molnar's test-mutex in "V" mode (lkml, 8 Jan 2006,
 * http://lkml.org/lkml/2006/1/8/50; the seed patch ran `mutex-test V 256 10`).
 * Every task creates, closes and unlinks its own file in one shared
 * directory, so the contended lock is that directory's inode mutex, which the
 * kernel takes inside creat() and inside unlink().  The lock under test stands
 * in for that mutex; one operation is
 *
 *     lock; creat(own file); unlock; close; lock; unlink(own file); unlock
 *
 * that is two timed acquisitions.  Substitutions: the file is created with
 * O_EXCL|O_NOFOLLOW (it is always new) instead of creat()'s O_TRUNC, relative
 * to the directory's descriptor.  The copy of test-mutex.c posted on lkml
 * times creat+close of a file it unlinks only at exit; its usage line and
 * Documentation/mutex-design.txt describe creat+unlink+close, which is what
 * this does.  At the stop an operation is never left with its file made: a
 * thread whose creat lock() returns only after the run stopped unlocks at
 * once and abandons the operation (WL_OP_ABANDONED: one acquisition, not
 * counted in ops), so no thread queues twice after --duration.
 *
 * Besides the histograms it reports what test-mutex printed:
 *  - ops/s: the summary's rate;
 *  - average cost per op: mean wall-clock (TSC) time of one operation, in µs;
 *  - average deviance per op: the absolute difference between the costs of
 *    a thread's consecutive operations, summed, divided by the operations
 *    and halved, exactly as test-mutex computed it;
 *  - CPU utilisation: the workers' CPU time over measured time x CPUs
 *    allowed (test-mutex's earlier output read the whole machine's).
 * --cs adds busy work inside both critical sections; --dir chooses where the
 * private directory goes (fileutil.h lists the safety guarantees).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "fileutil.h"
#include "workload.h"

struct creat_shared {
	struct wdir dir;
	uint64_t created, removed;    /* summed by thread_teardown, read after the join */
};

/* Written only by its thread; read by figures() after the join. */
struct creat_thread {
	uint64_t created, removed;    /* whole run, warm-up included: for verify() */
	uint64_t timed_ops;           /* operations in the cost figures below */
	uint64_t cost_sum, cost_max;  /* TSC cycles of one whole operation */
	uint64_t dev_sum, prev_cost;  /* |cost - previous cost|, summed */
	int dirfd;
	char name[24];                /* this thread's file */
};

static int creat_thread_setup(struct bench_thread *t)
{
	struct creat_thread *ct = t->wl;
	const struct creat_shared *cs = t->wl_shared;

	ct->dirfd = cs->dir.fd;
	snprintf(ct->name, sizeof(ct->name), "c%u", t->id);
	return 0;
}

/*
 * The harness zeroes t->ops when the measured interval starts; the cost
 * figures follow it, so they cover exactly the operations it counts.
 */
static void cost_window_follow(struct creat_thread *ct, const struct bench_thread *t)
{
	if (ct->timed_ops == t->ops)
		return;
	ct->timed_ops = 0;
	ct->cost_sum = ct->cost_max = ct->dev_sum = ct->prev_cost = 0;
}

static void cost_record(struct creat_thread *ct, uint64_t cost)
{
	if (ct->timed_ops)
		ct->dev_sum += cost > ct->prev_cost ? cost - ct->prev_cost : ct->prev_cost - cost;
	ct->prev_cost = cost;
	ct->cost_sum += cost;
	if (cost > ct->cost_max)
		ct->cost_max = cost;
	ct->timed_ops++;
}

static int creat_fail(struct bench_thread *t, int err, const char *what)
{
	const struct creat_thread *ct = t->wl;
	const struct creat_shared *cs = t->wl_shared;

	return bench_fail(t, err, "creat: %s %s: %s (in %s)", what, ct->name, strerror(err),
			  cs->dir.path);
}

/* What locked_create() returns when the run stopped while it waited. */
#define CREATE_STOPPED (-2)

/*
 * lock; create the thread's file; unlock: the descriptor, or -1 with *err.
 * A thread that gets the lock only after the run stopped (a FIFO lock under
 * oversubscription can keep it queued for seconds) creates nothing, so it
 * need not queue again for the unlink: CREATE_STOPPED, and the op is
 * abandoned.  Once created, the file is always unlinked under the lock.
 */
static int locked_create(struct bench_thread *t, struct creat_thread *ct, int *err)
{
	int fd;

	bench_lock(t);
	if (bench_stopping(t)) {
		bench_unlock(t);
		return CREATE_STOPPED;
	}
	busy_loops(t->cs_loops);
	fd = fu_create(ct->dirfd, ct->name);
	*err = errno;
	bench_unlock(t);
	return fd;
}

static int locked_unlink(struct bench_thread *t, struct creat_thread *ct, int *err)
{
	int rc;

	bench_lock(t);
	busy_loops(t->cs_loops);
	rc = fu_unlink(ct->dirfd, ct->name, 0);
	*err = errno;
	bench_unlock(t);
	return rc;
}

static int creat_op(struct bench_thread *t)
{
	struct creat_thread *ct = t->wl;
	uint64_t t0;
	int fd, err;

	cost_window_follow(ct, t);
	t0 = tsc_begin();
	fd = locked_create(t, ct, &err);
	if (fd == CREATE_STOPPED)
		return WL_OP_ABANDONED;
	if (fd < 0)
		return creat_fail(t, err, "create");
	ct->created++;
	if (close(fd) != 0)
		return creat_fail(t, errno, "close");
	if (locked_unlink(t, ct, &err) != 0)
		return creat_fail(t, err, "unlink");
	ct->removed++;
	cost_record(ct, tsc_end() - t0);
	return WL_OP_DONE;
}

static void creat_thread_teardown(struct bench_thread *t)
{
	const struct creat_thread *ct = t->wl;
	struct creat_shared *cs = t->wl_shared;

	/* Relaxed: verify() reads the sums after the join, which orders them. */
	__atomic_fetch_add(&cs->created, ct->created, __ATOMIC_RELAXED);
	__atomic_fetch_add(&cs->removed, ct->removed, __ATOMIC_RELAXED);
}

static int creat_setup(void *shared, const struct bench_config *cfg, char *err, size_t errlen)
{
	struct creat_shared *cs = shared;

	return wdir_create(&cs->dir, cfg, "creat", err, errlen);
}

static void creat_teardown(void *shared, const struct bench_config *cfg)
{
	struct creat_shared *cs = shared;

	(void)cfg;
	wdir_remove(&cs->dir);
}

/* Every operation created one file and removed it, and nothing is left. */
static int creat_verify(void *shared, uint64_t ops_all, char *err, size_t errlen)
{
	const struct creat_shared *cs = shared;
	long left = wdir_entries(&cs->dir);

	if (cs->created != ops_all || cs->removed != ops_all) {
		snprintf(err, errlen, "creat invariant FAILED: %" PRIu64 " operations, but %" PRIu64
			 " files created and %" PRIu64 " removed", ops_all, cs->created, cs->removed);
		return -1;
	}
	if (left < 0) {
		snprintf(err, errlen, "creat: cannot read %s: %s", cs->dir.path, strerror(errno));
		return -1;
	}
	if (left > 0) {
		snprintf(err, errlen, "creat invariant FAILED: %ld entries left in %s after %" PRIu64
			 " operations", left, cs->dir.path, ops_all);
		return -1;
	}
	return 0;
}

/* Figures of the measured interval, summed over the threads. */
struct creat_totals {
	uint64_t ops, cost_sum, cost_max, dev_sum, created, removed;
};

static void creat_sum(const struct bench_result *res, struct creat_totals *sum)
{
	memset(sum, 0, sizeof(*sum));
	for (unsigned int i = 0; i < res->cfg->threads; i++) {
		const struct bench_thread *t = res->threads[i];
		const struct creat_thread *ct = t->wl;

		sum->created += ct->created;
		sum->removed += ct->removed;
		/* Reset by the harness after this thread's last op: no measured ops. */
		if (ct->timed_ops != t->ops)
			continue;
		sum->ops += ct->timed_ops;
		sum->cost_sum += ct->cost_sum;
		sum->dev_sum += ct->dev_sum;
		if (ct->cost_max > sum->cost_max)
			sum->cost_max = ct->cost_max;
	}
}

static void creat_figures(const struct bench_result *res, struct figures *out)
{
	struct creat_totals sum;
	double us_per_cycle = res->tsc_hz > 0 ? 1e6 / res->tsc_hz : 0;
	double ops, cpu_s = res->usage.user_s + res->usage.sys_s;
	double capacity_s = res->measured_s * fu_cpus_allowed();

	creat_sum(res, &sum);
	ops = sum.ops ? (double)sum.ops : 1;
	figure_add(out, "op_cost_us_mean", "avg cost/op us", "%.2f",
		   (double)sum.cost_sum / ops * us_per_cycle);
	figure_add(out, "op_cost_us_max", "max cost/op us", "%.2f", (double)sum.cost_max * us_per_cycle);
	figure_add(out, "op_deviance_us_mean", "deviance/op us", "%.2f",
		   (double)sum.dev_sum / ops / 2.0 * us_per_cycle);
	figure_add(out, "cpu_utilisation_pct", "cpu util %", "%.1f",
		   capacity_s > 0 ? 100.0 * cpu_s / capacity_s : 0);
	figure_add(out, "files_created", "files created", "%" PRIu64, sum.created);
	figure_add(out, "files_removed", "files removed", "%" PRIu64, sum.removed);
}

const struct workload_ops workload_ops_creat = {
	.name = "creat",
	.description = "test-mutex V: lock; creat own file; unlock; close; lock; unlink; unlock (--dir)",
	.unit = "ops",
	.meets_in_kernel = true,
	.shared_size = sizeof(struct creat_shared),
	.thread_size = sizeof(struct creat_thread),
	.fds_shared = WDIR_FDS,
	.fds_per_thread = 1,        /* its file, between creat and close */
	.takes_dir = true,
	.setup = creat_setup,
	.thread_setup = creat_thread_setup,
	.op = creat_op,
	.thread_teardown = creat_thread_teardown,
	.verify = creat_verify,
	.teardown = creat_teardown,
	.figures = creat_figures,
};
