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
 * coro_switch(from = rdi, to = rsi): push the callee-saved registers, park
 * rsp in from->sp (offset 0), load to->sp and pop the same registers in the
 * reverse order; `ret` continues where `to` last switched out, or, the first
 * time, in coro_start.
 */
__asm__(".text\n"
	".globl coro_switch\n"
	".type coro_switch,@function\n"
	"coro_switch:\n"
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
	".size coro_switch, .-coro_switch\n"
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
	return 0;
}

void coro_free(struct coro *c)
{
	if (c->stack)
		munmap(c->stack, c->stack_len);
	c->stack = NULL;
	c->sp = NULL;
}
