/*
 * futex_sys.h — the two futex operations the sleeping locks use.  Private
 * futexes: the lock word is never shared between processes, so the kernel can
 * key the wait queue on (mm, address) and skip the page-cache lookup.
 */
#ifndef LOCKBENCH_FUTEX_SYS_H
#define LOCKBENCH_FUTEX_SYS_H

#include <linux/futex.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Sleeps while *word == expected.  Returns on wake-up, on a changed word
 * (EAGAIN) or on a signal (EINTR); callers re-check the word in every case. */
static inline void futex_wait(uint32_t *word, uint32_t expected)
{
	syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, expected, NULL, NULL, 0);
}

/* Wakes at most `n` waiters of `word`. */
static inline void futex_wake(uint32_t *word, int n)
{
	syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, n, NULL, NULL, 0);
}

#endif
