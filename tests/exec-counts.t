#!/bin/sh
# exec-counts.t — --exec's trylock and timedlock counts are the program's
# calls (bench/exec/preload.c): a pthread_mutex_timedlock that polls the
# lock's trylock() until its deadline is one timedlock, never a trylock per
# poll.  exec_prog's `timed` case (tests/exec_prog.c) makes 2 trylock calls
# on a held mutex (case_trylock_timed's and case_cond_timeout's probe), and
# 3 timed locks: a timedlock and a clocklock of a held mutex that time out
# after 30 ms each, and a timedlock of a free one (its EINVAL deadline is
# refused before any lock is looked at).
LB=${LOCKBENCH:-bench/lockbench}
PROG=${EXEC_PROG:-build/tests/exec_prog}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/tap.sh"
exec_preamble

locks="kmutex-fix ticket"
echo "1..$(echo $locks | wc -w)"
for l in $locks; do
	lb -l "$l" --exec -o "$tmp/$l" --quiet -- "$PROG" timed
	got="trylocks $(val "$tmp/$l" trylocks) busy $(val "$tmp/$l" trylock_busy)"
	got="$got timedlocks $(val "$tmp/$l" timedlocks) timeouts $(val "$tmp/$l" timedlock_timeouts)"
	check "$l: 2 trylocks (both busy), 3 timedlocks (2 timed out), whatever the polls ($got)" \
		'[ "$rc" -eq 0 ] && [ "$got" = "trylocks 2 busy 2 timedlocks 3 timeouts 2" ]'
done
