#!/bin/sh
# pr-size.t — locks/pr.h's simulated backend (LOCKBENCH_SIM) takes atomics of
# 1, 2, 4 and 8 bytes and pointers, and refuses any other size at compile
# time, with its own message (the simulator's functions take only those).
top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/tap.sh"
echo "1..2"

# compile TYPE: a function doing each kind of access on a TYPE, syntax only.
compile() {
	cat >"$tmp/t.c" <<EOC
#include "pr.h"
typedef $1 T;
int f(T *p, T v);
int f(T *p, T v)
{
	T e = v;

	pr_store(p, pr_load(p, PR_ACQUIRE), PR_RELEASE);
	(void)pr_xchg(p, v, PR_ACQ_REL);
	return pr_cas(p, &e, v, PR_ACQUIRE, PR_RELAXED);
}
EOC
	${CC:-cc} -std=gnu11 -Wall -Wextra -Werror -DLOCKBENCH_SIM -I"$top/locks" -fsyntax-only "$tmp/t.c" \
		>"$tmp/err" 2>&1
}

ok_sizes=1
for t in uint8_t uint16_t uint32_t uint64_t int64_t _Bool 'void *' 'const char *'; do
	compile "$t" || { ok_sizes=0; echo "# $t: $(head -c 300 "$tmp/err")"; }
done
check "1, 2, 4 and 8 bytes and pointers compile" '[ $ok_sizes -eq 1 ]'
compile 'struct { unsigned char b[3]; }'
rc=$?
check "a 3-byte object is refused by pr.h's own assertion (rc=$rc)" \
	'[ $rc -ne 0 ] && grep -q "an atomic of 1, 2, 4 or 8 bytes only" "$tmp/err"'
