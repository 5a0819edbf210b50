/*
 * preload_frames.c — a mutex's call site as a few frames of its call, and
 * the first of them outside the program's lock wrapper (docs/exec.md,
 * "Call sites"; results/README.md, mutexes.csv).
 *
 * Recorded only where the site always was (preload.h, px_mutex.frames): a
 * mutex's first lock or init call, and its 1st, 2nd, 4th, 8th... contended
 * acquisition; never an uncontended lock, never an unlock.  And walked only
 * from a wrapper's call (px_frames_record).
 *
 * The walk is libgcc's _Unwind_Backtrace, the unwinder of C++ exceptions:
 * it reads each object's .eh_frame, which GCC and Clang emit by default on
 * x86-64, so it walks -O2 code built without frame pointers, where
 * following %rbp reads garbage.  With glibc >= 2.35 it finds an object's
 * unwind table through _dl_find_object, which neither allocates nor locks.
 * Not glibc's backtrace(): its first call dlopen()s libgcc_s (allocation
 * and the loader's lock) from inside pthread_mutex_lock.  Not raw stack
 * words resolved later: a word that looks like a return address need not
 * be one.  The unwinder can still lock one pthread mutex (libgcc's
 * object_mutex, taken when a program registered unwind tables itself,
 * __register_frame_info), which comes back into the interposer: a thread
 * already walking its stack then records the return address alone.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>
#include <unwind.h>

#include "preload.h"

static __thread bool px_walking __attribute__((tls_model("initial-exec")));

/* The interposer's own frames above the walk (pthread_cond_wait's, the
 * header's start, px_frames_record) are fewer than this: a bound on the
 * search for the call's return address, not a count. */
#define PX_OWN_FRAMES 24

struct px_walk {
	const void **frames;
	const void *site;
	unsigned int n, seen;
};

/* Frames skipped until the call's return address, then PX_FRAMES kept. */
static _Unwind_Reason_Code px_frame(struct _Unwind_Context *ctx, void *arg)
{
	struct px_walk *w = arg;
	const void *ip = (const void *)_Unwind_GetIP(ctx);

	if (!w->n && ip != w->site)
		return ++w->seen < PX_OWN_FRAMES ? _URC_NO_REASON : _URC_END_OF_STACK;
	w->frames[w->n++] = ip;
	return w->n < PX_FRAMES ? _URC_NO_REASON : _URC_END_OF_STACK;
}

/*
 * A lock wrapper, by what its code does once the pthread call returns: a
 * function whose whole job is the call (leveldb's port::Mutex::Lock, a
 * CondVar::Wait) only tests the result and returns, holding the mutex
 * (one that ends in a tail call, as libstdc++'s condition_variable::wait,
 * leaves no frame to pass), where a function holding a critical section goes on
 * to its work (a store, a call: Box::add with a lock_guard inlined writes
 * its count, then calls unlock).  So a frame is a wrapper's when, from its
 * return address, some path reaches the function's `ret` through register
 * instructions alone: tests and compares, conditional branches (taken:
 * forward, within the bytes read), register moves, clears and arithmetic,
 * pops, `leave`.  x86-64 only; elsewhere no frame is a wrapper's.
 */
#if defined(__x86_64__)

/* Bytes read from a return address: a wrapper's return path is a few
 * instructions, each at most 10 bytes. */
#define PX_CODE_BYTES 128
/* Instructions walked from a return address, every path together: a
 * result test and branch, a stack adjustment, six callee-saved pops, a
 * result move and the `ret` are 11. */
#define PX_WRAPPER_INSNS 16

/* Register-to-register ModRM (mod 11): no memory operand. */
static bool px_modrm_reg(uint8_t modrm)
{
	return (modrm & 0xc0) == 0xc0;
}

/* The length of the register-only instruction at c[0..) (what is left: n
 * bytes), or 0 for any other.  *ret: it returns; *jump: a conditional
 * branch's displacement, else 0. */
static unsigned int px_reg_insn(const uint8_t *c, unsigned int n, bool *ret, long *jump)
{
	unsigned int rex = n > 0 && (c[0] & 0xf0) == 0x40;
	const uint8_t *o = c + rex;
	uint8_t op;

	*ret = false;
	*jump = 0;
	if (n < rex + 2)
		return 0;
	op = o[0];
	if (!rex && (op == 0xc3 || (op == 0xf3 && o[1] == 0xc3))) { /* ret, rep ret */
		*ret = true;
		return 1;
	}
	if ((op >= 0x58 && op <= 0x5f) || op == 0xc9 || op == 0x90) /* pop, leave, nop */
		return rex + 1;
	if (!rex && op >= 0x70 && op <= 0x7f) {                     /* jcc rel8 */
		*jump = (int8_t)o[1];
		return 2;
	}
	if (!rex && op == 0x0f && o[1] >= 0x80 && o[1] <= 0x8f && n >= 6) { /* jcc rel32 */
		*jump = (int32_t)((uint32_t)o[2] | (uint32_t)o[3] << 8 | (uint32_t)o[4] << 16 |
				  (uint32_t)o[5] << 24);
		return 6;
	}
	switch (op) {
	case 0x01: case 0x03: case 0x29: case 0x2b: case 0x31: case 0x33: /* add, sub, xor */
	case 0x39: case 0x3b: case 0x84: case 0x85: case 0x89: case 0x8b: /* cmp, test, mov */
		return px_modrm_reg(o[1]) ? rex + 2 : 0;
	case 0x83:                                                         /* add/sub/cmp r, imm8 */
		return px_modrm_reg(o[1]) && n >= rex + 3 ? rex + 3 : 0;
	case 0x81:                                                         /* ... r, imm32 */
		return px_modrm_reg(o[1]) && n >= rex + 6 ? rex + 6 : 0;
	}
	if (op >= 0xb8 && op <= 0xbf)                                      /* mov r, imm */
		return rex && (c[0] & 0x08) ? (n >= 10 ? 10 : 0) : (n >= rex + 5 ? rex + 5 : 0); /* REX.W: imm64 */
	return 0;
}

/* Some path from code[at] reaches a `ret` through register instructions
 * alone, within *budget instructions. */
static bool px_path_returns(const uint8_t *code, unsigned int len, unsigned int at, unsigned int *budget)
{
	while (at < len && *budget > 0) {
		bool ret;
		long jump;
		unsigned int n = px_reg_insn(code + at, len - at, &ret, &jump);

		--*budget;
		if (!n)
			return false;
		if (ret)
			return true;
		at += n;
		if (jump > 0 && (unsigned long)jump < len - at &&
		    px_path_returns(code, len, at + (unsigned int)jump, budget))
			return true;
	}
	return false;
}

/* Up to PX_CODE_BYTES of the code after return address RA into CODE: its
 * length.  Read directly within RA's 4 KiB block (pages are at least that,
 * and RA's is mapped while its call is live: LIVE), else through the
 * kernel, which reads a byte past a mapping's end, or code unmapped since
 * (dlclose), as none rather than faulting. */
static unsigned int px_code_read(const void *ra, uint8_t *code, bool live)
{
	size_t room = 4096 - ((uintptr_t)ra & 4095);
	struct iovec to = { code, PX_CODE_BYTES }, from = { (void *)(uintptr_t)ra, PX_CODE_BYTES };
	ssize_t got;

	if (live && room >= PX_CODE_BYTES) {
		memcpy(code, ra, PX_CODE_BYTES);
		return PX_CODE_BYTES;
	}
	got = process_vm_readv(getpid(), &to, 1, &from, 1, 0);
	return got > 0 ? (unsigned int)got : 0;
}

/* RA's function is a wrapper's (above). */
static bool px_returns_at_once(const void *ra, bool live)
{
	uint8_t code[PX_CODE_BYTES];
	unsigned int len = px_code_read(ra, code, live), budget = PX_WRAPPER_INSNS;

	return len > 0 && px_path_returns(code, len, 0, &budget);
}

#else

static bool px_returns_at_once(const void *ra, bool live)
{
	(void)ra;
	(void)live;
	return false;
}

#endif

/* The stack walked only from a wrapper's call: a site that is not one
 * needs no callers, and most calls are their own site (a lock_guard, a C
 * function that locks), so they pay a read of a few instructions, not the
 * walk, which doubles the cost of starting a mutex (docs/exec.md, "Call
 * sites"). */
void px_frames_record(const void **frames, const void *site, bool walk)
{
	const void *got[PX_FRAMES] = { site };
	struct px_walk w = { got, site, 0, 0 };

	/* px_frame writes only from the frame that is SITE on: a walk that
	 * never met it leaves SITE alone. */
	if (walk && !px_walking && px_returns_at_once(site, true)) {
		px_walking = true;
		_Unwind_Backtrace(px_frame, &w);
		px_walking = false;
	}
	memcpy(frames, got, sizeof(got));
}

unsigned int px_site_frame(const void *const *frames)
{
	unsigned int i = 0;

	while (i + 1 < PX_FRAMES && frames[i + 1] && px_returns_at_once(frames[i], false))
		i++;
	return i;
}
