/*
 * kernel_locks.c — loads bpf/kernel_locks.bpf.c for this process, switches it
 * on and off at the measured interval's ends, and reads what it recorded
 * (kernel_locks.h).  Built with the program embedded (a libbpf skeleton) when
 * the Makefile found clang, bpftool and libbpf (LOCKBENCH_BPF); otherwise
 * klock_open() says so.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "kernel_locks.h"
#include "../../locks/bpfload.h"

#ifdef LOCKBENCH_BPF
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "kernel_locks.skel.h"
#endif

#define KALLSYMS "/proc/kallsyms"

int klock_open(unsigned int threads, char *why, size_t whylen)
{
	return klock_open_tgid(getpid(), threads, why, whylen);
}

const char *const klock_type_name[KLOCK_TYPES] = {
#define KLOCK_TYPE_NAME(id, name) [KLOCK_##id] = #name,
	KLOCK_TYPE_LIST(KLOCK_TYPE_NAME)
#undef KLOCK_TYPE_NAME
};

const char *const klock_mutex_class_name[KLOCK_MUTEX_CLASSES] = {
#define KLOCK_MUTEX_CLASS_NAME(id, name) [KLOCK_MUTEX_##id] = #name,
	KLOCK_MUTEX_CLASS_LIST(KLOCK_MUTEX_CLASS_NAME)
#undef KLOCK_MUTEX_CLASS_NAME
};

/* Appends "sep text" to buf (len bytes), dropping what does not fit whole. */
static void append_frame(char *buf, size_t len, const char *text)
{
	size_t used = strlen(buf), need = strlen(text) + (used ? 1 : 0);

	if (used + need < len)
		snprintf(buf + used, len - used, "%s%s", used ? ";" : "", text);
}

/* The program's own frames atop every stack: bpf_prog_<tag>_on_begin,
 * bpf_trace_run2 (and __bpf_trace_* where a kernel has them). */
static bool tracing_frame(const struct ksyms *ks, uint64_t addr)
{
	const struct ksym *s = ksyms_find(ks, addr);

	return s && (strncmp(s->name, "bpf_", 4) == 0 || strncmp(s->name, "__bpf_", 6) == 0);
}

/*
 * The caller is the first frame after the lock code.  The stack, taken at
 * contention_begin, opens with the tracing frames (left out of `stack` too),
 * then the lock's slow path and its entry point in the kernel's lock
 * sections (_raw_spin_lock in .spinlock.text; down_write,
 * rwsem_down_write_slowpath, mutex_lock in .sched.text), then whoever took
 * the lock.  The slow path may lie outside those sections
 * (queued_spin_lock_slowpath): what counts is the last lock-section frame.
 * Without any (or without symbols) the innermost frame stands for the caller.
 */
void klock_name_caller(const struct ksyms *ks, const uint64_t *frames, size_t n, struct klock_row *row)
{
	size_t depth = 0, top = 0, first, caller;
	char frame[96];

	while (depth < n && frames[depth])
		depth++;
	while (top < depth && tracing_frame(ks, frames[top]))
		top++;
	first = top;
	while (first < depth && !ksyms_in_lock_code(ks, frames[first]))
		first++;
	caller = first;
	while (caller < depth && ksyms_in_lock_code(ks, frames[caller]))
		caller++;
	if (first == depth)  /* no lock-section frame */
		caller = top;
	if (caller == depth)
		snprintf(row->caller, sizeof(row->caller), "%s", top < depth ? "(lock code only)" :
			 row->stack_id == KLOCK_STACK_NOT_TAKEN ? "(no stack taken)" : "(no stack)");
	else
		ksyms_describe(ks, frames[caller], false, row->caller, sizeof(row->caller));
	row->stack[0] = '\0';
	for (size_t i = top; i < depth; i++) {
		ksyms_describe(ks, frames[i], true, frame, sizeof(frame));
		append_frame(row->stack, sizeof(row->stack), frame);
	}
	if (!row->stack[0])
		snprintf(row->stack, sizeof(row->stack), "-");
}

#ifdef LOCKBENCH_BPF

/* Longest total wait first; then most waits. */
static int longest_first(uint64_t xsum, uint64_t xcount, uint64_t ysum, uint64_t ycount)
{
	if (xsum != ysum)
		return (xsum < ysum) - (xsum > ysum);
	return (xcount < ycount) - (xcount > ycount);
}

static int lock_by_sum(const void *a, const void *b)
{
	const struct klock_lock *x = a, *y = b;

	return longest_first(x->sum, x->count, y->sum, y->count);
}

static int row_by_sum(const void *a, const void *b)
{
	const struct klock_row *x = a, *y = b;

	return longest_first(x->sum, x->count, y->sum, y->count);
}

static struct {
	struct kernel_locks_bpf *skel;
	int ncpus;
} cap;

/* The tracepoints are BTF types "btf_trace_<name>"; libbpf fails with ESRCH
 * when they are missing. */
static void load_failed(int err, char *why, size_t whylen)
{
	char said[200];

	bpfload_failed(err, said, sizeof(said));
	if (err == -ESRCH)
		bpfload_why(why, whylen, "the kernel has no lock:contention_begin/contention_end tracepoints "
			    "(Linux 5.19 or later has them): %s", said);
	else
		bpfload_why(why, whylen, "%s", said);
}

static int capture_load(pid_t tgid, unsigned int threads, char *why, size_t whylen)
{
	struct kernel_locks_bpf *skel = kernel_locks_bpf__open();
	int err;

	if (!skel) {
		err = -errno;
		bpfload_why(why, whylen, "cannot open the BPF object: %s", strerror(errno));
		return err;
	}
	skel->rodata->target_tgid = (uint32_t)tgid;
	/* The workers, the main thread, and room for helpers. */
	err = bpf_map__set_max_entries(skel->maps.tasks, threads + 64);
	if (!err)
		err = kernel_locks_bpf__load(skel);
	if (!err)
		err = kernel_locks_bpf__attach(skel);
	if (!err && !skel->bss)
		err = -ENOTSUP;  /* a kernel that cannot map global data (before 5.7) */
	if (err) {
		load_failed(err, why, whylen);
		kernel_locks_bpf__destroy(skel);
		return err;
	}
	cap.skel = skel;
	return 0;
}

int klock_open_tgid(pid_t tgid, unsigned int threads, char *why, size_t whylen)
{
	int err = bpfload_check(why, whylen);

	if (err)
		return err;
	klock_close();
	cap.ncpus = libbpf_num_possible_cpus();
	if (cap.ncpus <= 0) {
		bpfload_why(why, whylen, "cannot count the possible CPUs: %s", strerror(-cap.ncpus));
		return cap.ncpus ? cap.ncpus : -EINVAL;
	}
	bpfload_quiet_begin();
	err = capture_load(tgid, threads, why, whylen);
	bpfload_quiet_end();
	return err;
}

/* The rate, then the flag.  Release: the program reads the flag at a begin
 * and the rate at that wait's end, so every wait it records sees the rate. */
void klock_start(double tsc_hz)
{
	uint64_t mult = tsc_hz > 0 ? (uint64_t)(tsc_hz / 1e9 * (double)(1u << KLOCK_MULT_SHIFT) + 0.5) : 0;

	if (!cap.skel)
		return;
	__atomic_store_n(&cap.skel->bss->ns_to_cycles_mult, mult, __ATOMIC_RELAXED);
	__atomic_store_n(&cap.skel->bss->capturing, 1, __ATOMIC_RELEASE);
}

void klock_stop(void)
{
	if (cap.skel)
		__atomic_store_n(&cap.skel->bss->capturing, 0, __ATOMIC_RELAXED);
}

void klock_close(void)
{
	if (cap.skel)
		kernel_locks_bpf__destroy(cap.skel);
	cap.skel = NULL;
}

/* One key's per-CPU values of a map into vals (ncpus of `size` bytes). */
static int lookup_cpus(struct bpf_map *map, const void *key, size_t keysize, void *vals, size_t size)
{
	return bpf_map__lookup_elem(map, key, keysize, vals, size * (size_t)cap.ncpus, 0);
}

/* The per-CPU type stats, summed into the histograms. */
static int collect_types(struct kernel_locks *out, char *err, size_t errlen)
{
	struct klock_type_stats *per = calloc((size_t)cap.ncpus, sizeof(*per));

	if (!per) {
		snprintf(err, errlen, "kernel locks: out of memory");
		return -1;
	}
	hist_reset(&out->all);
	for (uint32_t t = 0; t < KLOCK_TYPES; t++) {
		struct hist *h = &out->type[t];

		hist_reset(h);
		if (lookup_cpus(cap.skel->maps.type_stats, &t, sizeof(t), per, sizeof(*per)) != 0) {
			snprintf(err, errlen, "kernel locks: cannot read the type stats: %s", strerror(errno));
			free(per);
			return -1;
		}
		for (int c = 0; c < cap.ncpus; c++) {
			struct hist one = { .count = per[c].count, .sum = per[c].sum, .contended = per[c].count,
					    .min = per[c].count ? per[c].min : UINT64_MAX, .max = per[c].max };

			memcpy(one.bins, per[c].bins, sizeof(one.bins));
			hist_merge(h, &one);
		}
		hist_merge(&out->all, h);
	}
	free(per);
	return 0;
}

/* The mutex waits by class, summed over the CPUs. */
static int collect_mutex_classes(struct kernel_locks *out, char *err, size_t errlen)
{
	struct klock_stats *per = calloc((size_t)cap.ncpus, sizeof(*per));

	if (!per) {
		snprintf(err, errlen, "kernel locks: out of memory");
		return -1;
	}
	for (uint32_t k = 0; k < KLOCK_MUTEX_CLASSES; k++) {
		if (lookup_cpus(cap.skel->maps.mutex_classes, &k, sizeof(k), per, sizeof(*per)) != 0) {
			snprintf(err, errlen, "kernel locks: cannot read the mutex classes: %s", strerror(errno));
			free(per);
			return -1;
		}
		for (int c = 0; c < cap.ncpus; c++) {
			out->mutex[k].count += per[c].count;
			out->mutex[k].sum += per[c].sum;
			out->mutex[k].max = per[c].max > out->mutex[k].max ? per[c].max : out->mutex[k].max;
		}
	}
	free(per);
	return 0;
}

static int collect_misses(struct kernel_locks *out, char *err, size_t errlen)
{
	struct klock_misses *per = calloc((size_t)cap.ncpus, sizeof(*per));
	uint32_t zero = 0;

	if (!per || lookup_cpus(cap.skel->maps.misses, &zero, sizeof(zero), per, sizeof(*per)) != 0) {
		snprintf(err, errlen, "kernel locks: cannot read the miss counts: %s", per ? strerror(errno) : "out of memory");
		free(per);
		return -1;
	}
	for (int c = 0; c < cap.ncpus; c++) {
		out->untimed += per[c].untimed;
		out->unpaired += per[c].unpaired;
	}
	free(per);
	return 0;
}

/* One key's per-CPU stats in `map`, summed; -1 when it cannot be read. */
static int sum_cpus(struct bpf_map *map, const void *key, size_t keysize, struct klock_stats *per,
		    struct klock_stats *out)
{
	if (lookup_cpus(map, key, keysize, per, sizeof(*per)) != 0)
		return -1;
	memset(out, 0, sizeof(*out));
	for (int c = 0; c < cap.ncpus; c++) {
		out->count += per[c].count;
		out->sum += per[c].sum;
		out->max = per[c].max > out->max ? per[c].max : out->max;
	}
	return 0;
}

/* What collect_rows() reads: every lock and every (lock, stack) pair. */
struct klock_tables {
	struct klock_lock *locks;
	struct klock_row *pairs;
	size_t nlocks, npairs;
	struct klock_stats *per;   /* ncpus, scratch */
};

/* The per-lock table's entries (the CPUs' pending waits come after). */
static void read_locks(struct klock_tables *tb, struct kernel_locks *out)
{
	struct klock_lock_key key, *prev = NULL;
	struct klock_stats s;

	while (tb->nlocks < KLOCK_LOCKS &&
	       bpf_map__get_next_key(cap.skel->maps.locks, prev, &key, sizeof(key)) == 0) {
		prev = &key;
		if (sum_cpus(cap.skel->maps.locks, &key, sizeof(key), tb->per, &s) != 0)
			continue;
		tb->locks[tb->nlocks++] = (struct klock_lock){ .lock = key.lock, .count = s.count, .sum = s.sum,
			.max = s.max, .type = key.type < KLOCK_TYPES ? key.type : KLOCK_OTHER };
		out->locks_count += s.count;
	}
}

/* Lock (lock, type)'s entry in the table, made when missing; NULL when full. */
static struct klock_lock *lock_entry(struct klock_tables *tb, uint64_t lock, unsigned int type)
{
	for (size_t i = 0; i < tb->nlocks; i++)
		if (tb->locks[i].lock == lock && tb->locks[i].type == type)
			return &tb->locks[i];
	if (tb->nlocks == KLOCK_LOCKS)
		return NULL;
	tb->locks[tb->nlocks] = (struct klock_lock){ .lock = lock, .type = type };
	return &tb->locks[tb->nlocks++];
}

/* The waits each CPU's cache still held for its last lock (klock_maps.h). */
static int read_pending(struct klock_tables *tb, struct kernel_locks *out, char *err, size_t errlen)
{
	struct klock_cpu_cache *per = calloc((size_t)cap.ncpus, sizeof(*per));
	uint32_t zero = 0;

	if (!per || lookup_cpus(cap.skel->maps.cpu_cache, &zero, sizeof(zero), per, sizeof(*per)) != 0) {
		snprintf(err, errlen, "kernel locks: cannot read the CPUs' pending waits: %s",
			 per ? strerror(errno) : "out of memory");
		free(per);
		return -1;
	}
	for (int c = 0; c < cap.ncpus; c++) {
		struct klock_lock *l;

		if (!per[c].count)
			continue;
		l = lock_entry(tb, per[c].lock, per[c].type < KLOCK_TYPES ? per[c].type : KLOCK_OTHER);
		if (!l) {
			out->unpaired += per[c].count;
			continue;
		}
		l->count += per[c].count;
		l->sum += per[c].sum;
		l->max = per[c].max > l->max ? per[c].max : l->max;
		out->locks_count += per[c].count;
	}
	out->locks = tb->nlocks;
	free(per);
	return 0;
}

static void read_pairs(struct klock_tables *tb, struct kernel_locks *out)
{
	struct klock_pair_key key, *prev = NULL;
	struct klock_stats s;

	while (tb->npairs < KLOCK_PAIRS &&
	       bpf_map__get_next_key(cap.skel->maps.pairs, prev, &key, sizeof(key)) == 0) {
		struct klock_row *r = &tb->pairs[tb->npairs];

		prev = &key;
		if (sum_cpus(cap.skel->maps.pairs, &key, sizeof(key), tb->per, &s) != 0)
			continue;
		memset(r, 0, sizeof(*r));
		r->of.lock = key.lock;
		r->of.type = key.type < KLOCK_TYPES ? key.type : KLOCK_OTHER;
		r->stack_id = key.stack_id;
		r->count = s.count;
		r->sum = s.sum;
		r->max = s.max;
		tb->npairs++;
	}
	out->pairs = tb->npairs;
}

/* Lock `l`'s callers as rows at out->top (longest sampled wait first), or
 * one "(no stack taken)" row when none of its waits took a stack. */
static void lock_rows(const struct klock_tables *tb, struct klock_lock *l, struct kernel_locks *out)
{
	unsigned int first = out->ntop;

	for (size_t i = 0; i < tb->npairs; i++)
		if (tb->pairs[i].of.lock == l->lock && tb->pairs[i].of.type == l->type)
			l->stacks += tb->pairs[i].count;
	for (size_t i = 0; i < tb->npairs && out->ntop < KLOCK_TOP; i++)
		if (tb->pairs[i].of.lock == l->lock && tb->pairs[i].of.type == l->type)
			out->top[out->ntop++] = tb->pairs[i];
	if (out->ntop == first)
		out->top[out->ntop++] = (struct klock_row){ .stack_id = KLOCK_STACK_NOT_TAKEN };
	for (unsigned int i = first; i < out->ntop; i++)
		out->top[i].of = *l;
}

/*
 * The top-locks table: the locks by their exact total wait, longest first,
 * each followed by its callers, until KLOCK_TOP rows.  A lock's callers
 * come from its waits that took a stack (its first KLOCK_STACKS_PER_LOCK):
 * their shares are a sample's, its count and cycles every wait's.
 */
static int collect_rows(struct kernel_locks *out, char *err, size_t errlen)
{
	struct klock_tables tb = { .locks = calloc(KLOCK_LOCKS, sizeof(*tb.locks)),
				   .pairs = calloc(KLOCK_PAIRS, sizeof(*tb.pairs)),
				   .per = calloc((size_t)cap.ncpus, sizeof(*tb.per)) };
	int rc = -1;

	if (!tb.locks || !tb.pairs || !tb.per) {
		snprintf(err, errlen, "kernel locks: out of memory");
		goto out;
	}
	read_locks(&tb, out);
	if (read_pending(&tb, out, err, errlen) == 0) {
		read_pairs(&tb, out);
		qsort(tb.locks, tb.nlocks, sizeof(*tb.locks), lock_by_sum);
		qsort(tb.pairs, tb.npairs, sizeof(*tb.pairs), row_by_sum);
		for (size_t i = 0; i < tb.nlocks && out->ntop < KLOCK_TOP; i++)
			lock_rows(&tb, &tb.locks[i], out);
		rc = 0;
	}
out:
	free(tb.locks);
	free(tb.pairs);
	free(tb.per);
	return rc;
}

/* Names each top row's caller from its stack, with /proc/kallsyms. */
static void name_callers(struct kernel_locks *out)
{
	uint64_t frames[KLOCK_STACK_DEPTH];
	struct ksyms ks;
	char why[100];

	if (out->ntop == 0)
		return;
	if (ksyms_load(&ks, KALLSYMS, why, sizeof(why)) != 0)
		snprintf(out->callers_note, sizeof(out->callers_note), "no kernel symbols (%s): callers are addresses", why);
	else if (ks.hidden)
		snprintf(out->callers_note, sizeof(out->callers_note),
			 "kernel symbols hidden (%s reads address 0: kptr_restrict): callers are addresses", KALLSYMS);
	for (unsigned int i = 0; i < out->ntop; i++) {
		int32_t id = out->top[i].stack_id;

		memset(frames, 0, sizeof(frames));
		if (id < 0 || bpf_map__lookup_elem(cap.skel->maps.stacks, &id, sizeof(id), frames, sizeof(frames), 0) != 0)
			frames[0] = 0;
		klock_name_caller(&ks, frames, KLOCK_STACK_DEPTH, &out->top[i]);
	}
	ksyms_free(&ks);
}

int klock_collect(struct kernel_locks *out, char *err, size_t errlen)
{
	struct utsname u;

	memset(out, 0, sizeof(*out));
	if (!cap.skel) {
		snprintf(err, errlen, "kernel locks: no capture loaded");
		return -1;
	}
	if (collect_types(out, err, errlen) || collect_mutex_classes(out, err, errlen) ||
	    collect_misses(out, err, errlen) || collect_rows(out, err, errlen))
		return -1;
	/* (The program's atomic adds are done: the threads are joined.) */
	out->stacks = __atomic_load_n(&cap.skel->bss->stacks_wanted, __ATOMIC_RELAXED);
	if (out->stacks > KLOCK_STACKS_MAX)
		out->stacks = KLOCK_STACKS_MAX;
	name_callers(out);
	snprintf(out->release, sizeof(out->release), "%s", uname(&u) == 0 ? u.release : "unknown");
	out->captured = true;
	return 0;
}

#else /* !LOCKBENCH_BPF */

int klock_open_tgid(pid_t tgid, unsigned int threads, char *why, size_t whylen)
{
	(void)tgid;
	(void)threads;
	return bpfload_check(why, whylen);
}

void klock_start(double tsc_hz)
{
	(void)tsc_hz;
}

void klock_stop(void)
{
}

void klock_close(void)
{
}

int klock_collect(struct kernel_locks *out, char *err, size_t errlen)
{
	memset(out, 0, sizeof(*out));
	snprintf(err, errlen, "kernel locks: lockbench was built without BPF");
	return -1;
}

#endif
