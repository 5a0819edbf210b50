/*
 * oracle_sched.c — loads the sched oracle's BPF program (bpf/sched_oracle.bpf.c)
 * for this process and hands each thread its slot.  Built with the program
 * embedded (a libbpf skeleton) when the Makefile found clang, bpftool and
 * libbpf (LOCKBENCH_BPF); otherwise oracle_sched_open() says so and the
 * kmutex models fall back to the runstate oracle.
 *
 * Slots: one per registered thread, handed out in order and wrapping around
 * at the capacity (a thread that outlives `capacity` later registrations
 * shares its slot — the harness sizes the capacity to the run's threads, so
 * a run never wraps).  A thread registers once per load: its tid goes into
 * the program's tid -> slot map with one bpf() call, off every hot path.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "bpfload.h"
#include "oracle.h"

#ifdef LOCKBENCH_BPF
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "sched_oracle.skel.h"
#endif

static struct {
	struct oracle_sched_slot *slots;
	unsigned int capacity;
	unsigned int next;           /* next slot to hand out (atomic) */
	unsigned int generation;     /* bumped by every open: invalidates thread caches */
	bool fake;
	bool sees_resched;           /* the need_resched program is attached */
#ifdef LOCKBENCH_BPF
	struct sched_oracle_bpf *skel;
	size_t mapped_bytes;
#endif
} sched;

static __thread struct oracle_sched_slot *slot_cached;
static __thread unsigned int slot_generation;

bool oracle_sched_sees_resched(void)
{
	return oracle_sched_is_open() && (sched.fake || sched.sees_resched);
}

bool oracle_sched_is_open(void)
{
	/* Acquire: pairs with the release store that published the slots. */
	return __atomic_load_n(&sched.slots, __ATOMIC_ACQUIRE) != NULL;
}

static void sched_publish(struct oracle_sched_slot *slots, unsigned int capacity, bool fake)
{
	sched.capacity = capacity;
	sched.fake = fake;
	__atomic_store_n(&sched.next, 0, __ATOMIC_RELAXED);
	__atomic_add_fetch(&sched.generation, 1, __ATOMIC_RELAXED);
	/* Release: a thread that sees the slots sees their capacity. */
	__atomic_store_n(&sched.slots, slots, __ATOMIC_RELEASE);
}

int oracle_sched_open_fake(unsigned int threads)
{
	struct oracle_sched_slot *slots;

	if (oracle_sched_is_open() && !sched.fake)
		return -EBUSY;
	if (oracle_sched_is_open() && sched.capacity >= threads)
		return 0;
	slots = aligned_alloc(CACHELINE, ALIGN_UP(sizeof(*slots) * threads, CACHELINE));
	if (!slots)
		return -ENOMEM;
	memset(slots, 0, sizeof(*slots) * threads);
	/* The old array, if any, stays allocated: threads may still read it. */
	sched_publish(slots, threads, true);
	return 0;
}

#ifdef LOCKBENCH_BPF

static int sched_load(unsigned int capacity, char *why, size_t whylen)
{
	struct sched_oracle_bpf *skel = sched_oracle_bpf__open();
	size_t bytes = ALIGN_UP(sizeof(struct oracle_sched_slot) * capacity, (size_t)sysconf(_SC_PAGESIZE));
	void *slots;
	int err;

	if (!skel) {
		bpfload_why(why, whylen, "cannot open the BPF object: %s", strerror(errno));
		return -errno;
	}
	skel->rodata->target_tgid = (uint32_t)getpid();
	/* need_resched() as it is set: only where the kernel has the tracepoint. */
	sched.sees_resched = libbpf_find_vmlinux_btf_id("sched_set_need_resched_tp", BPF_TRACE_RAW_TP) > 0;
	bpf_program__set_autoload(skel->progs.on_need_resched, sched.sees_resched);
	err = bpf_map__set_max_entries(skel->maps.slots, capacity);
	if (!err)
		err = bpf_map__set_max_entries(skel->maps.slot_of_tid, capacity);
	if (!err)
		err = sched_oracle_bpf__load(skel);
	if (!err)
		err = sched_oracle_bpf__attach(skel);
	if (err) {
		bpfload_failed(err, why, whylen);
		sched_oracle_bpf__destroy(skel);
		return err;
	}
	slots = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, bpf_map__fd(skel->maps.slots), 0);
	if (slots == MAP_FAILED) {
		err = -errno;
		bpfload_why(why, whylen, "cannot map the BPF slots: %s", strerror(errno));
		sched_oracle_bpf__destroy(skel);
		return err;
	}
	/* A previous load stays mapped and attached: threads of an earlier
	 * run in this process may still read its slots (tests do). */
	sched.skel = skel;
	sched.mapped_bytes = bytes;
	sched_publish(slots, capacity, false);
	return 0;
}

int oracle_sched_open(unsigned int threads, char *why, size_t whylen)
{
	int err;

	if (threads == 0)
		threads = 1;
	if (oracle_sched_is_open() && !sched.fake && sched.capacity >= threads)
		return 0;
	err = bpfload_check(why, whylen);
	if (err)
		return err;
	bpfload_quiet_begin();
	err = sched_load(threads, why, whylen);
	bpfload_quiet_end();
	return err;
}

/* Puts this thread's tid into the program's map. */
static int sched_register(unsigned int index)
{
	uint32_t tid = (uint32_t)syscall(SYS_gettid);

	if (sched.fake)
		return 0;
	return bpf_map__update_elem(sched.skel->maps.slot_of_tid, &tid, sizeof(tid), &index,
				    sizeof(index), BPF_ANY);
}

#else /* !LOCKBENCH_BPF */

int oracle_sched_open(unsigned int threads, char *why, size_t whylen)
{
	(void)threads;
	if (oracle_sched_is_open() && !sched.fake)
		return 0;
	return bpfload_check(why, whylen);
}

static int sched_register(unsigned int index)
{
	(void)index;
	return 0;
}

#endif

void oracle_sched_untraced_switch_in(struct oracle_sched_slot *slot)
{
	int cpu = sched_getcpu();

	/* Relaxed, as the program's own stores: spinners read them as hints. */
	if (cpu >= 0)
		__atomic_store_n(&slot->cpu, (uint32_t)cpu, __ATOMIC_RELAXED);
	__atomic_store_n(&slot->on_cpu, 1, __ATOMIC_RELAXED);
}

struct oracle_sched_slot *oracle_sched_slot_self(void)
{
	struct oracle_sched_slot *slots = __atomic_load_n(&sched.slots, __ATOMIC_ACQUIRE);
	unsigned int generation = __atomic_load_n(&sched.generation, __ATOMIC_RELAXED);
	unsigned int index;

	if (!slots)
		return NULL;
	if (slot_cached && slot_generation == generation)
		return slot_cached;
	index = __atomic_fetch_add(&sched.next, 1, __ATOMIC_RELAXED) % sched.capacity;
	if (sched_register(index) != 0)
		return NULL;
	/* Registered and running: until its next switch-in is traced, the
	 * slot says so only because we say it. */
	oracle_sched_untraced_switch_in(&slots[index]);
	slot_cached = &slots[index];
	slot_generation = generation;
	return slot_cached;
}
