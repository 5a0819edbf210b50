#!/bin/sh
# exec-cond.t — condition variables under `lockbench --exec`
# (bench/exec/preload_cond.c, docs/exec.md's misuse table) as under glibc:
# tests/exec_cond_prog.c's cases, each run without the library (glibc's
# behaviour, which each case expects) and under `lockbench -l LOCK --exec`
# for every lock the library accepts: destroy right after a broadcast
# returns 0 and no woken waiter touches the freed condvar; a thread blocked
# in a wait is cancelled there, its cleanup handler run with the mutex
# held; a deadline already past (a negative tv_sec too) is ETIMEDOUT.
# Each run is bounded (timeout, and the program's own alarm).
LB=${LOCKBENCH:-bench/lockbench}
PROG=${EXEC_COND_PROG:-$(dirname "${EXEC_PROG:-build/tests/exec_prog}")/exec_cond_prog}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/tap.sh"
exec_preamble

cases="destroy cancel timeout"
locks=$("$LB" --list | awk '/^locks:/ { on = 1; next } /^[a-z]/ { on = 0 } on { print $1 }')
# The locks the library refuses (docs/exec.md; tests/exec.t checks the refusal).
refused="none ck-clh ck-anderson ck-cohort"
accepted=""
for l in $locks; do
	case " $refused " in *" $l "*) ;; *) accepted="$accepted $l" ;; esac
done
set -- $cases
ncases=$#
set -- $accepted
echo "1..$((ncases * ($# + 1)))"

# said: the program's FAIL line or last words, for a failed check's name.
said() { head -c 300 "$1" | tr '\n' ' '; }

for c in $cases; do
	timeout -s KILL 90 "$PROG" "$c" >"$tmp/out" 2>&1
	rc=$?
	check "glibc: exec_cond_prog $c (rc $rc: $(said "$tmp/out"))" \
		'[ "$rc" -eq 0 ] && grep -qx "ok $c" "$tmp/out"'
done

for l in $accepted; do
	for c in $cases; do
		start=$(date +%s)
		rm -rf "$tmp/r"
		timeout -s KILL 90 "$LB" -l "$l" --exec -o "$tmp/r" --quiet -- "$PROG" "$c" >"$tmp/out" 2>"$tmp/err"
		rc=$?
		echo "# $l $c: $(($(date +%s) - start)) s"
		check "$l: exec_cond_prog $c as under glibc (rc $rc: $(said "$tmp/r/program-stdout.txt" 2>/dev/null)$(said "$tmp/err"))" \
			'[ "$rc" -eq 0 ] && grep -qx "ok $c" "$tmp/r/program-stdout.txt"'
	done
done
