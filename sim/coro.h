/*
 * coro.h — the simulator's coroutines: each simulated thread runs its code on
 * a stack of its own, and switches to the engine and back with coro_switch(),
 * which saves only what the System V x86-64 ABI makes a callee keep (rbx, rbp,
 * r12-r15 and the stack pointer).  Not ucontext: swapcontext() makes a
 * sigprocmask system call on every switch, and a simulation switches on
 * nearly every shared access.  The x87 control word and MXCSR are not saved:
 * no code run here changes them.  One OS thread runs all of them.
 */
#ifndef LOCKBENCH_SIM_CORO_H
#define LOCKBENCH_SIM_CORO_H

#include <stddef.h>

struct coro {
	void *sp;          /* the saved stack pointer while switched out */
	void *stack;       /* the mapping: a guard page, then the stack */
	size_t stack_len;  /* bytes mapped, the guard page included */
	void *tsan_fiber;  /* under ThreadSanitizer: its fiber (NULL: the OS thread's own) */
};

typedef void coro_fn(void *arg);

/*
 * A coroutine that will run fn(arg) on a fresh stack of `stack_bytes` (rounded
 * up to pages) below which a PROT_NONE guard page faults an overflow.  fn must
 * never return: it ends by switching away for good.  0, or -errno.
 */
int coro_init(struct coro *c, size_t stack_bytes, coro_fn *fn, void *arg);
void coro_free(struct coro *c);

/* Saves the running context into `from` and resumes `to`. */
void coro_switch(struct coro *from, struct coro *to);

#endif
