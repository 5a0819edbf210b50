/*
 * test_kernel_locks.c — kernel lock capture (bench/kernel/kernel_locks.c, ksyms.c,
 * bpf/klock_maps.h):
 *
 * - the BPF side's bin and lock-type functions agree with the userspace
 *   histogram's bins and with perf's names for the tracepoint's flags;
 * - kallsyms parsing, lookup, the lock sections, and a kallsyms whose
 *   addresses kptr_restrict hides;
 * - the caller of a stack: the first frame after the lock code;
 * - the open-wait bookkeeping both sides compile (klock_task_begin / _end):
 *   made-up begin/begin/end sequences of a mutex that spins, sleeps, spins
 *   again, with a spinlock nested in its slow path, count each acquisition
 *   once and classify it by its begins' flags; and the stack budget;
 * - the real program (skipped, saying why, where it cannot load): threads
 *   creating and removing files in one directory wait for its lock; waits
 *   are recorded only between klock_start() and klock_stop(), and the
 *   figures agree with each other; threads read()ing one shared descriptor
 *   wait for its f_pos_lock, a kernel mutex: its waits' classes add up to
 *   the mutex's figures, and the lock's count is every wait while its
 *   stacks stop at the per-lock budget.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "../bench/kernel/kernel_locks.h"
#include "../bench/platform/tsc.h"

/* ---- bins and types ---- */

static void bins_match_the_histogram(void **state)
{
	(void)state;
	for (uint64_t v = 0; v < (1u << 16); v++)
		assert_int_equal(klock_bin(v), hist_bin(v));
	for (unsigned int b = 1; b < 64; b++) {
		uint64_t p = UINT64_C(1) << b;

		assert_int_equal(klock_bin(p - 1), hist_bin(p - 1));
		assert_int_equal(klock_bin(p), b);
		assert_int_equal(klock_bin(p + 1), hist_bin(p + 1));
	}
	assert_int_equal(klock_bin(UINT64_MAX), 63);
}

static void flags_name_the_lock_types(void **state)
{
	static const struct {
		unsigned int flags;
		const char *name;
	} cases[] = {
		{ KLOCK_F_SPIN, "spinlock" },
		{ KLOCK_F_SPIN | KLOCK_F_READ, "rwlock_read" },
		{ KLOCK_F_SPIN | KLOCK_F_WRITE, "rwlock_write" },
		{ KLOCK_F_READ, "rwsem_read" },
		{ KLOCK_F_WRITE, "rwsem_write" },
		{ KLOCK_F_MUTEX, "mutex" },
		{ KLOCK_F_MUTEX | KLOCK_F_SPIN, "mutex" },
		{ KLOCK_F_RT, "rt_mutex" },
		{ KLOCK_F_RT | KLOCK_F_WRITE, "rt_mutex" },
		{ KLOCK_F_PERCPU | KLOCK_F_READ, "percpu_rwsem" },
		{ KLOCK_F_PERCPU | KLOCK_F_WRITE, "percpu_rwsem" },
		{ KLOCK_F_PERCPU, "other" },
		{ 0, "other" },
		{ KLOCK_F_READ | KLOCK_F_WRITE, "other" },
		{ 1u << 6 | KLOCK_F_WRITE, "rwsem_write" },  /* bits above the six are not types */
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		assert_string_equal(klock_type_name[klock_type_of(cases[i].flags)], cases[i].name);
}

/* ---- kallsyms ---- */

/* Loads `text` as a kallsyms file (written to a temporary file and removed). */
static void load_fake(struct ksyms *ks, const char *text)
{
	char path[64], err[200];
	FILE *f;

	snprintf(path, sizeof(path), "/tmp/test_kernel_locks-XXXXXX");
	close(mkstemp(path));
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(ksyms_load(ks, path, err, sizeof(err)), 0);
	unlink(path);
}

static const char fake_kallsyms[] =
	"ffffffff81000000 T _stext\n"
	"ffffffff81200000 t do_unlinkat\n"
	"ffffffff81100000 T path_openat\n"
	"ffffffff81300000 D some_data\n"
	"ffffffff81400000 T queued_spin_lock_slowpath\n"
	"ffffffff82000000 T __sched_text_start\n"
	"ffffffff82000100 T rwsem_down_write_slowpath\n"
	"ffffffff82000800 T down_write\n"
	"ffffffff82001000 T __sched_text_end\n"
	"ffffffff82001000 T __lock_text_start\n"
	"ffffffff82001100 T _raw_spin_lock\n"
	"ffffffff82002000 T __lock_text_end\n"
	"ffffffffc0001000 t ext4_create\t[ext4]\n"
	"ffffffffc0100000 t bpf_prog_0123456789abcdef_on_begin\t[bpf]\n"
	"ffffffff81500000 T bpf_trace_run2\n"
	"garbage line\n";

static void kallsyms_names_addresses(void **state)
{
	struct ksyms ks;
	char err[200], buf[96];

	(void)state;
	load_fake(&ks, fake_kallsyms);
	assert_false(ks.hidden);
	ksyms_describe(&ks, 0xffffffff81200010, true, buf, sizeof(buf));
	assert_string_equal(buf, "do_unlinkat+0x10");
	ksyms_describe(&ks, 0xffffffff81100004, false, buf, sizeof(buf));
	assert_string_equal(buf, "path_openat");
	/* Data symbols are not text: the address falls in do_unlinkat. */
	ksyms_describe(&ks, 0xffffffff81300008, false, buf, sizeof(buf));
	assert_string_equal(buf, "do_unlinkat");
	ksyms_describe(&ks, 0xffffffffc0001004, true, buf, sizeof(buf));
	assert_string_equal(buf, "ext4_create+0x4");
	ksyms_describe(&ks, 0x1000, true, buf, sizeof(buf));
	assert_string_equal(buf, "0x1000");
	assert_true(ksyms_in_lock_code(&ks, 0xffffffff82000110));   /* .sched.text */
	assert_true(ksyms_in_lock_code(&ks, 0xffffffff82001110));   /* .spinlock.text */
	assert_false(ksyms_in_lock_code(&ks, 0xffffffff81400010));  /* a slow path in plain text */
	assert_false(ksyms_in_lock_code(&ks, 0xffffffff82002000));  /* the end is outside */
	ksyms_free(&ks);
	assert_int_equal(ksyms_load(&ks, "/nonexistent/kallsyms", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "/nonexistent/kallsyms"));
}

/* kptr_restrict: every address reads 0; lookups give the bare address. */
static void hidden_kallsyms_give_addresses(void **state)
{
	struct ksyms ks;
	char buf[96];
	struct klock_row row;
	const uint64_t frames[] = { 0xffffffff82000110, 0xffffffff81200020, 0 };

	(void)state;
	load_fake(&ks, "0000000000000000 T _stext\n0000000000000000 t do_unlinkat\n"
		  "0000000000000000 T __sched_text_start\n0000000000000000 T __sched_text_end\n");
	assert_true(ks.hidden);
	ksyms_describe(&ks, 0xffffffff81200020, true, buf, sizeof(buf));
	assert_string_equal(buf, "0xffffffff81200020");
	assert_false(ksyms_in_lock_code(&ks, 0xffffffff82000110));
	klock_name_caller(&ks, frames, 3, &row);
	assert_string_equal(row.caller, "0xffffffff82000110");
	assert_string_equal(row.stack, "0xffffffff82000110;0xffffffff81200020");
	ksyms_free(&ks);
}

/* ---- the caller of a stack ---- */

static void caller_is_the_first_frame_after_the_lock_code(void **state)
{
	static const struct {
		const char *what;
		uint64_t frames[8];
		size_t n;
		const char *caller, *stack;  /* stack NULL: not checked */
	} cases[] = {
		{ "tracing frames, the rwsem's slow path and entry, then the caller",
		  { 0xffffffffc0100200, 0xffffffff81500100, 0xffffffff82000140, 0xffffffff82000866, 0xffffffff81200160,
		    0xffffffff81000040 }, 8, "do_unlinkat",
		  "rwsem_down_write_slowpath+0x40;down_write+0x66;do_unlinkat+0x160;_stext+0x40" },
		{ "a slow path outside the lock sections, then the section's entry point",
		  { 0xffffffff81400020, 0xffffffff82001110, 0xffffffff81100030 }, 8, "path_openat", NULL },
		{ "no lock code at all: the innermost frame; n bounds a stack without a 0",
		  { 0xffffffff81100030, 0xffffffff81200010, 0xffffffff81000040 }, 2, "path_openat",
		  "path_openat+0x30;do_unlinkat+0x10" },
		{ "lock code only", { 0xffffffff82000140, 0xffffffff82001110, 0xffffffff81000040 }, 2,
		  "(lock code only)", NULL },
		{ "tracing frames only", { 0xffffffffc0100200, 0xffffffff81500100 }, 8, "(no stack)", NULL },
		{ "no stack", { 0 }, 8, "(no stack)", "-" },
	};
	struct ksyms ks;
	struct klock_row row;

	(void)state;
	load_fake(&ks, fake_kallsyms);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		print_message("# %s\n", cases[i].what);
		klock_name_caller(&ks, cases[i].frames, cases[i].n, &row);
		assert_string_equal(row.caller, cases[i].caller);
		if (cases[i].stack)
			assert_string_equal(row.stack, cases[i].stack);
	}
	ksyms_free(&ks);
}

/* ---- open waits: the begin/end bookkeeping and the mutex classes ---- */

#define M 0x1000   /* a mutex */
#define W 0x2000   /* its wait_lock, a spinlock taken inside its slow path */
#define SPIN_MUTEX (KLOCK_F_MUTEX | KLOCK_F_SPIN)

/* One tracepoint call: 'b'egin (flags) or 'e'nd, on a lock; `on`: capturing. */
struct step {
	char op;
	uint64_t lock;
	uint32_t flags;
	bool on;
};

/* What the program would have recorded from a sequence of calls. */
struct recorded {
	unsigned int waits, full, ignored;
	uint64_t lock[8];
	unsigned int type[8], cls[8];
};

static void run_steps(const struct step *s, size_t n, struct recorded *out)
{
	struct klock_task t = { 0 };
	struct klock_open_wait w;

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < n; i++) {
		if (s[i].op == 'b') {
			int r = klock_task_begin(&t, s[i].lock, s[i].flags, s[i].on);

			out->full += r == KLOCK_BEGIN_FULL;
			out->ignored += r == KLOCK_BEGIN_IGNORED;
			continue;
		}
		if (!klock_task_end(&t, s[i].lock, &w))
			continue;
		assert_true(out->waits < 8);
		out->lock[out->waits] = w.lock;
		out->type[out->waits] = klock_type_of(w.flags);
		out->cls[out->waits++] = klock_mutex_class_of(w.flags);
	}
	assert_int_equal(t.depth, 0);
}

#define RUN(out, ...)                                                   \
	do {                                                            \
		const struct step seq_[] = { __VA_ARGS__ };             \
		run_steps(seq_, sizeof(seq_) / sizeof(seq_[0]), out);   \
	} while (0)

/* One mutex acquisition: one wait, of `cls`. */
static void assert_one_mutex_wait(const struct recorded *r, unsigned int cls)
{
	assert_int_equal(r->waits, 1);
	assert_int_equal(r->lock[0], M);
	assert_int_equal(r->type[0], KLOCK_MUTEX);
	assert_string_equal(klock_mutex_class_name[r->cls[0]], klock_mutex_class_name[cls]);
}

static void mutex_waits_are_classified_once(void **state)
{
	struct recorded r;

	(void)state;
	/* The optimistic spin (or the trylock before it) got the lock. */
	RUN(&r, { 'b', M, SPIN_MUTEX, true }, { 'e', M, 0, true });
	assert_one_mutex_wait(&r, KLOCK_MUTEX_SPIN);
	/* It spun, failed, queued and slept. */
	RUN(&r, { 'b', M, SPIN_MUTEX, true }, { 'b', M, KLOCK_F_MUTEX, true }, { 'e', M, 0, true });
	assert_one_mutex_wait(&r, KLOCK_MUTEX_SPIN_SLEEP);
	/* Woken as the first waiter, it spun again and got it spinning: still
	 * one acquisition, and it slept. */
	RUN(&r, { 'b', M, SPIN_MUTEX, true }, { 'b', M, KLOCK_F_MUTEX, true }, { 'b', M, SPIN_MUTEX, true },
	    { 'e', M, 0, true });
	assert_one_mutex_wait(&r, KLOCK_MUTEX_SPIN_SLEEP);
	RUN(&r, { 'b', M, SPIN_MUTEX, true }, { 'b', M, KLOCK_F_MUTEX, true }, { 'b', M, SPIN_MUTEX, true },
	    { 'b', M, KLOCK_F_MUTEX, true }, { 'e', M, 0, true });
	assert_one_mutex_wait(&r, KLOCK_MUTEX_SPIN_SLEEP);
	/* Its first begin already the sleeping one. */
	RUN(&r, { 'b', M, KLOCK_F_MUTEX, true }, { 'e', M, 0, true });
	assert_one_mutex_wait(&r, KLOCK_MUTEX_SLEEP);
	RUN(&r, { 'b', M, KLOCK_F_MUTEX, true }, { 'b', M, SPIN_MUTEX, true }, { 'e', M, 0, true });
	assert_one_mutex_wait(&r, KLOCK_MUTEX_SLEEP);
}

static void nested_and_unmatched_waits(void **state)
{
	struct recorded r;

	(void)state;
	/* The wait_lock, contended inside the slow path between the two
	 * begins, is a wait of its own, and the mutex's is still one. */
	RUN(&r, { 'b', M, SPIN_MUTEX, true }, { 'b', W, KLOCK_F_SPIN, true }, { 'e', W, 0, true },
	    { 'b', M, KLOCK_F_MUTEX, true }, { 'e', M, 0, true });
	assert_int_equal(r.waits, 2);
	assert_int_equal(r.lock[0], W);
	assert_int_equal(r.type[0], KLOCK_SPINLOCK);
	assert_int_equal(r.lock[1], M);
	assert_string_equal(klock_mutex_class_name[r.cls[1]], "spin_sleep");
	/* An end for a lock that is not the innermost open wait's is not ours. */
	RUN(&r, { 'b', M, SPIN_MUTEX, true }, { 'e', W, 0, true }, { 'e', M, 0, true });
	assert_int_equal(r.waits, 1);
	/* Begun while capturing, slept after the stop: the same wait, and it slept. */
	RUN(&r, { 'b', M, SPIN_MUTEX, true }, { 'b', M, KLOCK_F_MUTEX, false }, { 'e', M, 0, false });
	assert_one_mutex_wait(&r, KLOCK_MUTEX_SPIN_SLEEP);
	/* Begun before capturing: not opened, not recorded. */
	RUN(&r, { 'b', M, SPIN_MUTEX, false }, { 'b', M, KLOCK_F_MUTEX, true }, { 'e', M, 0, true });
	assert_int_equal(r.ignored, 1);
	assert_one_mutex_wait(&r, KLOCK_MUTEX_SLEEP);
	/* Five waits open at once: the fifth is not timed. */
	RUN(&r, { 'b', 1, KLOCK_F_SPIN, true }, { 'b', 2, KLOCK_F_SPIN, true }, { 'b', 3, KLOCK_F_SPIN, true },
	    { 'b', 4, KLOCK_F_SPIN, true }, { 'b', 5, KLOCK_F_SPIN, true }, { 'e', 5, 0, true }, { 'e', 4, 0, true },
	    { 'e', 3, 0, true }, { 'e', 2, 0, true }, { 'e', 1, 0, true });
	assert_int_equal(r.full, 1);
	assert_int_equal(r.waits, KLOCK_NEST);
}

static void stacks_stop_at_the_budget(void **state)
{
	(void)state;
	assert_true(klock_stack_wanted(0, 0));
	assert_true(klock_stack_wanted(KLOCK_STACKS_PER_LOCK - 1, KLOCK_STACKS_MAX - 1));
	assert_false(klock_stack_wanted(KLOCK_STACKS_PER_LOCK, 0));
	assert_false(klock_stack_wanted(0, KLOCK_STACKS_MAX));
	/* The pairs map holds one entry per stack: it can never be full. */
	assert_true(KLOCK_PAIRS >= KLOCK_STACKS_MAX);
}

/* ---- the real program ---- */

#define CREATORS 16
#define BURST_S 0.3

static char load_failure[300];
static bool loaded;
static char dir[64];

struct creator {
	pthread_t tid;
	unsigned int id;
	double until;
	unsigned long ops;
	int err;
};

/* test-mutex V without a lock: every creat and unlink takes the directory's lock. */
static void *create_remove(void *arg)
{
	struct creator *c = arg;
	char path[128];

	snprintf(path, sizeof(path), "%s/f%u", dir, c->id);
	while (mono_now_s() < c->until) {
		int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0600);

		if (fd < 0 || close(fd) != 0 || unlink(path) != 0) {
			c->err = errno;
			break;
		}
		c->ops++;
	}
	return NULL;
}

/* CREATORS threads for BURST_S; the operations done. */
static unsigned long burst(void)
{
	struct creator c[CREATORS];
	unsigned long ops = 0;

	for (unsigned int i = 0; i < CREATORS; i++) {
		c[i] = (struct creator){ .id = i, .until = mono_now_s() + BURST_S };
		assert_int_equal(pthread_create(&c[i].tid, NULL, create_remove, &c[i]), 0);
	}
	for (unsigned int i = 0; i < CREATORS; i++) {
		assert_int_equal(pthread_join(c[i].tid, NULL), 0);
		assert_int_equal(c[i].err, 0);
		ops += c[i].ops;
	}
	return ops;
}

static int capture_setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/test_kernel_locks-dir-XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	loaded = klock_open(CREATORS, load_failure, sizeof(load_failure)) == 0;
	return 0;
}

static int capture_teardown(void **state)
{
	(void)state;
	klock_close();
	rmdir(dir);
	return 0;
}

static void skip_unless_loaded(void)
{
	if (!loaded) {
		print_message("# skip: kernel lock capture cannot load here: %s\n", load_failure);
		skip();
	}
}

/* Every figure of a collection agrees with the others. */
static void assert_consistent(const struct kernel_locks *k)
{
	uint64_t count = 0, bins = 0, sum = 0;

	for (unsigned int t = 0; t < KLOCK_TYPES; t++) {
		count += k->type[t].count;
		sum += k->type[t].sum;
	}
	for (unsigned int b = 0; b < HIST_BINS; b++)
		bins += k->all.bins[b];
	assert_true(k->captured);
	assert_int_equal(count, k->all.count);
	assert_int_equal(bins, k->all.count);
	assert_int_equal(sum, k->all.sum);
	/* The locks by their total wait, each lock's callers by theirs. */
	for (unsigned int i = 1; i < k->ntop; i++) {
		const struct klock_row *r = &k->top[i], *prev = &k->top[i - 1];

		assert_true(r->of.sum <= prev->of.sum);
		if (r->of.lock == prev->of.lock && r->of.type == prev->of.type)
			assert_true(r->sum <= prev->sum);
	}
}

static void records_only_between_start_and_stop(void **state)
{
	struct kernel_locks before, during, after;
	char err[200];
	unsigned long ops;

	(void)state;
	skip_unless_loaded();
	ops = burst();
	assert_int_equal(klock_collect(&before, err, sizeof(err)), 0);
	assert_consistent(&before);
	assert_int_equal(before.all.count, 0);
	klock_start(tsc_calibrate_hz(0.01));
	ops = burst();
	klock_stop();
	assert_int_equal(klock_collect(&during, err, sizeof(err)), 0);
	assert_consistent(&during);
	print_message("# %lu creat+unlink by %d threads: %llu kernel waits, %llu rwsem_write\n", ops, CREATORS,
		      (unsigned long long)during.all.count, (unsigned long long)during.type[KLOCK_RWSEM_WRITE].count);
	assert_true(during.type[KLOCK_RWSEM_WRITE].count > 0);
	assert_true(during.ntop > 0);
	assert_string_not_equal(during.top[0].caller, "(no stack)");
	burst();
	assert_int_equal(klock_collect(&after, err, sizeof(err)), 0);
	assert_int_equal(after.all.count, during.all.count);
	assert_int_equal(after.all.sum, during.all.sum);
}

/* ---- one shared descriptor: its f_pos_lock, a kernel mutex ---- */

#define READERS 8
#define SHARED_FILE_BYTES (1 << 20)

struct reader {
	pthread_t tid;
	int fd;
	double until;
	unsigned long reads;
	int err;
};

/* read() on a descriptor the process's threads share takes the file's
 * f_pos_lock (fdget_pos); at the end of the file, back to its start. */
static void *read_shared(void *arg)
{
	struct reader *r = arg;
	static __thread char buf[16384];

	while (mono_now_s() < r->until) {
		ssize_t got = read(r->fd, buf, sizeof(buf));

		if (got < 0 || (got == 0 && lseek(r->fd, 0, SEEK_SET) != 0)) {
			r->err = errno;
			break;
		}
		r->reads++;
	}
	return NULL;
}

/* READERS threads reading one descriptor for BURST_S; the reads done. */
static unsigned long read_burst(int fd)
{
	struct reader r[READERS];
	unsigned long reads = 0;

	for (unsigned int i = 0; i < READERS; i++) {
		r[i] = (struct reader){ .fd = fd, .until = mono_now_s() + BURST_S };
		assert_int_equal(pthread_create(&r[i].tid, NULL, read_shared, &r[i]), 0);
	}
	for (unsigned int i = 0; i < READERS; i++) {
		assert_int_equal(pthread_join(r[i].tid, NULL), 0);
		assert_int_equal(r[i].err, 0);
		reads += r[i].reads;
	}
	return reads;
}

/* An unlinked file of SHARED_FILE_BYTES in the test's directory, open. */
static int shared_file(void)
{
	char path[128];
	static char zeros[SHARED_FILE_BYTES];
	int fd;

	snprintf(path, sizeof(path), "%s/shared", dir);
	fd = open(path, O_RDWR | O_CREAT | O_EXCL, 0600);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, zeros, sizeof(zeros)), (ssize_t)sizeof(zeros));
	assert_int_equal(unlink(path), 0);
	assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
	return fd;
}

/* The mutex classes split the mutex's figures exactly. */
static void assert_classes_split_the_mutex(const struct kernel_locks *k)
{
	uint64_t count = 0, sum = 0, max = 0;

	for (unsigned int c = 0; c < KLOCK_MUTEX_CLASSES; c++) {
		count += k->mutex[c].count;
		sum += k->mutex[c].sum;
		max = k->mutex[c].max > max ? k->mutex[c].max : max;
	}
	assert_int_equal(count, k->type[KLOCK_MUTEX].count);
	assert_int_equal(sum, k->type[KLOCK_MUTEX].sum);
	assert_int_equal(max, k->type[KLOCK_MUTEX].max);
}

/* Every wait is in its lock's figures; stacks stop at the budget. */
static void assert_stacks_bounded(const struct kernel_locks *k)
{
	assert_int_equal(k->unpaired, 0);
	assert_int_equal(k->locks_count, k->all.count);
	assert_true(k->stacks <= KLOCK_STACKS_PER_LOCK * k->locks);
	assert_true(k->stacks <= KLOCK_STACKS_MAX);
	for (unsigned int i = 0; i < k->ntop; i++) {
		assert_true(k->top[i].of.stacks <= KLOCK_STACKS_PER_LOCK);
		assert_true(k->top[i].of.stacks <= k->top[i].of.count);
		assert_true(k->top[i].count <= k->top[i].of.stacks);
	}
}

static void mutex_waits_split_and_stacks_bounded(void **state)
{
	struct kernel_locks k;
	const struct klock_row *hot = NULL;
	char err[200];
	unsigned long reads;
	uint64_t callers = 0;
	int fd;

	(void)state;
	skip_unless_loaded();
	fd = shared_file();
	klock_start(tsc_calibrate_hz(0.01));
	reads = read_burst(fd);
	klock_stop();
	assert_int_equal(close(fd), 0);
	assert_int_equal(klock_collect(&k, err, sizeof(err)), 0);
	assert_consistent(&k);
	print_message("# %lu reads by %d threads: %llu mutex waits (spin %llu, spin then sleep %llu, sleep %llu), "
		      "%llu stacks for %llu locks\n", reads, READERS, (unsigned long long)k.type[KLOCK_MUTEX].count,
		      (unsigned long long)k.mutex[KLOCK_MUTEX_SPIN].count,
		      (unsigned long long)k.mutex[KLOCK_MUTEX_SPIN_SLEEP].count,
		      (unsigned long long)k.mutex[KLOCK_MUTEX_SLEEP].count, (unsigned long long)k.stacks,
		      (unsigned long long)k.locks);
	assert_true(k.type[KLOCK_MUTEX].count > 0);
	assert_classes_split_the_mutex(&k);
	assert_stacks_bounded(&k);
	/* The file's lock: the mutex waited on longest, its count every wait
	 * for it, its stacks those of its first waits only. */
	for (unsigned int i = 0; i < k.ntop && !hot; i++)
		if (k.top[i].of.type == KLOCK_MUTEX)
			hot = &k.top[i];
	assert_non_null(hot);
	for (unsigned int i = 0; i < k.ntop; i++)
		if (k.top[i].of.lock == hot->of.lock && k.top[i].of.type == KLOCK_MUTEX)
			callers += k.top[i].count;
	assert_true(hot->of.count <= k.type[KLOCK_MUTEX].count);
	assert_int_equal(hot->of.stacks, hot->of.count < KLOCK_STACKS_PER_LOCK ? hot->of.count : KLOCK_STACKS_PER_LOCK);
	assert_int_equal(callers, hot->of.stacks);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(bins_match_the_histogram),
		cmocka_unit_test(flags_name_the_lock_types),
		cmocka_unit_test(kallsyms_names_addresses),
		cmocka_unit_test(hidden_kallsyms_give_addresses),
		cmocka_unit_test(caller_is_the_first_frame_after_the_lock_code),
		cmocka_unit_test(mutex_waits_are_classified_once),
		cmocka_unit_test(nested_and_unmatched_waits),
		cmocka_unit_test(stacks_stop_at_the_budget),
		cmocka_unit_test_setup_teardown(records_only_between_start_and_stop, capture_setup, capture_teardown),
		cmocka_unit_test_setup_teardown(mutex_waits_split_and_stacks_bounded, capture_setup, capture_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
