/*
 * arch.h — the only place that knows the machine: cache-line geometry, the
 * spin-wait hint and the time-stamp counter.  x86-64 only (rdtsc/rdtscp/pause);
 * everything else in lockbench is portable C11 with GNU extensions.
 */
#ifndef LOCKBENCH_ARCH_H
#define LOCKBENCH_ARCH_H

#include <stdint.h>

/*
 * 64 bytes is the x86 coherence unit.  Intel's adjacent-line prefetcher pulls
 * lines in 128-byte pairs, so two hot words 64 bytes apart can still bounce
 * together; CACHELINE_PAIR separates state that is written by different CPUs
 * on the hottest paths (the lock word from the data it protects).
 */
#define CACHELINE      64
#define CACHELINE_PAIR 128

#define cacheline_aligned __attribute__((aligned(CACHELINE)))
#define ALIGN_UP(x, a)    (((x) + (a) - 1) / (a) * (a))

#if !defined(__x86_64__)
#error "lockbench needs x86-64: it times with rdtsc/rdtscp and spins with pause"
#endif

/* The spin-wait hint: frees the sibling hyperthread, and avoids the memory-order
 * machine clear when the awaited line finally changes. */
static inline void cpu_relax(void)
{
	__builtin_ia32_pause();
}

/* Raw, unordered read: for coarse deadlines, never for timing an interval. */
static inline uint64_t tsc_now(void)
{
	return __builtin_ia32_rdtsc();
}

/*
 * Timing an interval [tsc_begin, tsc_end] (Intel SDM vol. 2B, RDTSC/RDTSCP):
 * - lfence does not let rdtsc start until every earlier instruction has
 *   completed, so the start stamp is not taken before the code ahead of it
 *   finishes.  The timed code may begin issuing while rdtsc reads the counter;
 *   that can hide a few cycles, never add any.
 * - rdtscp waits until every earlier instruction (the lock's acquiring
 *   atomic) has executed and earlier loads are globally visible before it
 *   reads the counter.  What follows it (the histogram update) may start
 *   early without changing the value read.
 * A trailing lfence on either side would make the bounds a few cycles
 * tighter and cost ~10 cycles per stamp (measured with `make bench`), a third
 * of the harness's whole overhead; the histograms' resolution is a factor of 2.
 */
static inline uint64_t tsc_begin(void)
{
	__builtin_ia32_lfence();
	return __builtin_ia32_rdtsc();
}

static inline uint64_t tsc_end(void)
{
	unsigned int aux;

	return __builtin_ia32_rdtscp(&aux);
}

/*
 * `out` = the initial-exec thread-local pointer `var` (declared with
 * tls_model("initial-exec")), read afresh from its TLS slot: the slot's
 * offset from the GOT, then %fs-relative.  volatile, so the compiler never
 * merges it with an earlier read of var nor keeps one in a register saved
 * across a call instead (bench/exec/preload.c: a push before a lock's
 * atomic, which drains the store buffer).  PIC or not.
 */
#define TLS_IE_READ(var, out) \
	__asm__ __volatile__("movq " #var "@gottpoff(%%rip), %0\n\tmovq %%fs:(%0), %0" : "=r"(out))

#endif
