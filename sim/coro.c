/*
 * coro.c — coroutine stacks and the context switch (coro.h).
 */
#include "coro.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/*
 * coro_switch_raw(from = rdi, to = rsi): push the callee-saved registers, park
 * rsp in from->sp (offset 0), load to->sp and pop the same registers in the
 * reverse order; `ret` continues where `to` last switched out, or, the first
 * time, in coro_start.
 */
__asm__(".text\n"
	".globl coro_switch_raw\n"
	".type coro_switch_raw,@function\n"
	"coro_switch_raw:\n"
	"	pushq %rbp\n"
	"	pushq %rbx\n"
	"	pushq %r12\n"
	"	pushq %r13\n"
	"	pushq %r14\n"
	"	pushq %r15\n"
	"	movq %rsp, (%rdi)\n"
	"	movq (%rsi), %rsp\n"
	"	popq %r15\n"
	"	popq %r14\n"
	"	popq %r13\n"
	"	popq %r12\n"
	"	popq %rbx\n"
	"	popq %rbp\n"
	"	ret\n"
	".size coro_switch_raw, .-coro_switch_raw\n"
	/* A new coroutine's first `ret` lands here with fn in r12 and arg in
	 * r13 (coro_init's initial frame); the call needs rsp 16-aligned. */
	".type coro_start,@function\n"
	"coro_start:\n"
	"	andq $-16, %rsp\n"
	"	movq %r13, %rdi\n"
	"	callq *%r12\n"
	"	ud2\n"
	".size coro_start, .-coro_start\n");

void coro_start(void);

/*
 * ThreadSanitizer keeps a shadow call stack per thread: a switch of stacks it
 * is not told of would mix two coroutines' frames in one.  Each coroutine is
 * a fiber to it; a coro never initialised (the engine's own) is the OS
 * thread's current fiber.
 */
#if defined(__SANITIZE_THREAD__)
void *__tsan_get_current_fiber(void);
void *__tsan_create_fiber(unsigned flags);
void __tsan_destroy_fiber(void *fiber);
void __tsan_switch_to_fiber(void *fiber, unsigned flags);
#define TSAN_FIBERS 1
#else
#define TSAN_FIBERS 0
#endif

static void tsan_create(struct coro *c)
{
#if TSAN_FIBERS
	c->tsan_fiber = __tsan_create_fiber(0);
#else
	c->tsan_fiber = NULL;
#endif
}

static void tsan_destroy(struct coro *c)
{
#if TSAN_FIBERS
	if (c->tsan_fiber)
		__tsan_destroy_fiber(c->tsan_fiber);
#endif
	c->tsan_fiber = NULL;
}

void coro_switch_raw(struct coro *from, struct coro *to);

void coro_switch(struct coro *from, struct coro *to)
{
#if TSAN_FIBERS
	if (!from->tsan_fiber)
		from->tsan_fiber = __tsan_get_current_fiber();
	__tsan_switch_to_fiber(to->tsan_fiber ? to->tsan_fiber : __tsan_get_current_fiber(), 0);
#endif
	coro_switch_raw(from, to);
}

/* The initial frame, as coro_switch pops it: r15 r14 r13 r12 rbx rbp, then
 * the return address. */
enum { FRAME_R13 = 2, FRAME_R12 = 3, FRAME_RET = 6, FRAME_WORDS = 8 };

int coro_init(struct coro *c, size_t stack_bytes, coro_fn *fn, void *arg)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t len = (stack_bytes + page - 1) / page * page + page;
	uintptr_t *frame;
	void *m;

	m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (m == MAP_FAILED)
		return -errno;
	if (mprotect(m, page, PROT_NONE) != 0) {
		int e = errno;

		munmap(m, len);
		return -e;
	}
	c->stack = m;
	c->stack_len = len;
	frame = (uintptr_t *)((char *)m + len) - FRAME_WORDS;
	memset(frame, 0, FRAME_WORDS * sizeof(*frame));
	frame[FRAME_R12] = (uintptr_t)fn;
	frame[FRAME_R13] = (uintptr_t)arg;
	frame[FRAME_RET] = (uintptr_t)coro_start;
	c->sp = frame;
	tsan_create(c);
	return 0;
}

void coro_free(struct coro *c)
{
	if (c->stack)
		munmap(c->stack, c->stack_len);
	tsan_destroy(c);
	c->stack = NULL;
	c->sp = NULL;
}
