#!/bin/sh
# exec-misuse.t — mutex misuse that glibc survives, and a mutex's life,
# under `lockbench --exec`'s preloaded library (bench/exec/preload_mutex.c
# decides a mutex's life; docs/exec.md, "Misuse and POSIX edge cases"):
# tests/exec_misuse_prog.c's cases first on glibc alone (what the program
# checks is glibc's behaviour), then under every lock the library runs:
# a private mutex in a MAP_SHARED page used by 4 forked processes (no
# crash, the turns' count exact); pthread_mutex_init of a held mutex (0,
# the holder's unlock 0, then exact); pthread_mutex_destroy of a held,
# waited-on mutex (EBUSY, then exact, and a new mutex exact); one unlock
# too many (0, then exact); 100,000 mutexes freed while held (RSS grows by
# less than one cache line per mutex: a header or a queue node leaked per
# mutex would be more); 100,000 mutexes through the launcher (mutexes.csv
# holds the 8 hottest); and the registry's cost linear in the mutexes.
# Each run bounded (timeout, and the program's own alarm).
LB=${LOCKBENCH:-bench/lockbench}
SO=${LOCKBENCH_EXEC_SO:-build/liblockbench-exec.so}
PROG=${EXEC_MISUSE_PROG:-build/tests/exec_misuse_prog}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/tap.sh"
exec_preamble
LIMIT_S=30
N=100000

# A sanitizer build's library needs its runtime loaded before libc.
exec_preload "$SO"
# Under ThreadSanitizer the misuse is the point: its reports of a locked
# mutex destroyed and of an unlock of a free one are left out (the library's
# own `pthread` lock is glibc's mutex, which TSan watches: a header reset
# under a holder that freed its mutex destroys a locked one).
[ -n "$tsan" ] && export TSAN_OPTIONS="${TSAN_OPTIONS:+$TSAN_OPTIONS:}report_destroy_locked=0:report_mutex_bugs=0"

# run LOCK CASE [N]: the program under LOCK ("": glibc, no library); rc,
# its output in $tmp/out.
run() {
	lock=$1
	shift
	if [ -n "$lock" ]; then
		timeout -s KILL "$LIMIT_S" env LD_PRELOAD="$preload" LOCKBENCH_EXEC_LOCK="$lock" \
			LOCKBENCH_EXEC_TIMING=off "$PROG" "$@" >"$tmp/out" 2>"$tmp/err"
	else
		timeout -s KILL "$LIMIT_S" "$PROG" "$@" >"$tmp/out" 2>"$tmp/err"
	fi
	rc=$?
}
# what: the run's end in a few words (its FAIL line, or the signal).
what() {
	if [ "$rc" -gt 128 ]; then
		echo "killed by signal $((rc - 128))"
	else
		echo "exit $rc$(grep -h -m 1 '^FAIL' "$tmp/out" | head -c 160 | sed 's/^/: /')"
	fi
}
out() { awk -v k="$1" '$1 == k { print $2 }' "$tmp/out"; }

# case_ok NAME LOCK CASE: the case passed, as it does on glibc.
case_ok() {
	name=$3
	run "$2" "$name"
	check "$1: $name as glibc ($(what))" '[ "$rc" -eq 0 ] && grep -q "^ok $name\$" "$tmp/out"'
}

# free_held NAME LOCK: N mutexes freed while held leave RSS grown by less
# than a cache line each (a header or a node is at least one).
free_held() {
	if [ -n "$asan$tsan" ]; then
		ok "$1: free_held # skip a sanitizer keeps memory per freed block or mutex (ASan's quarantine, TSan's sync objects)"
		return
	fi
	run "$2" free_held "$N"
	g=$(out rss_growth_bytes)
	check "$1: $N mutexes freed while held, RSS +${g:-?} bytes ($(what))" \
		'[ "$rc" -eq 0 ] && [ -n "$g" ] && [ "$g" -lt $((N * 64)) ]'
}

# many LOCK: N mutexes through the launcher; mutexes.csv names the 8 hot ones.
many() {
	d=$tmp/many-$1
	rm -rf "$d"
	lb -l "$1" --exec --timing off -o "$d" -- "$PROG" many "$N"
	found=0
	for a in $(awk '$1 == "hot_lock" { print $2 }' "$d/program-stdout.txt" 2>/dev/null); do
		awk -F, -v a="$a" 'NR > 1 && $3 == a { f = 1 } END { exit !f }' "$d/mutexes.csv" && found=$((found + 1))
	done
	check "$1: $N mutexes, mutexes.csv names the 8 hottest ($found found, exit $rc)" \
		'[ "$rc" -eq 0 ] && [ "$found" -eq 8 ]'
}

locks=$("$LB" --list | awk '/^locks:/ { on = 1; next } /^[a-z]/ { on = 0 } on { print $1 }')
refused="none ck-clh ck-anderson ck-cohort"
nlocks=0
for l in $locks; do
	case " $refused " in *" $l "*) ;; *) nlocks=$((nlocks + 1)) ;; esac
done
cases="shared init_held destroy_held extra_unlock"
echo "1..$((5 + nlocks * 6 + 1))"

# glibc's own behaviour: what every lock must match.
for c in $cases; do
	case_ok glibc "" "$c"
done
free_held glibc ""

for l in $locks; do
	case " $refused " in *" $l "*) continue ;; esac
	start=$(date +%s)
	for c in $cases; do
		case_ok "$l" "$l" "$c"
	done
	free_held "$l" "$l"
	many "$l"
	echo "# $l: $(($(date +%s) - start)) s"
done

# The registry's cost per mutex does not grow with the mutexes: 4x the
# mutexes take about 4x the CPU time (a registry whose chains grow with
# the mutexes takes 16x); 8x is the two's geometric mean.  The least of
# two runs of each, as a loaded machine only adds time.
least() {
	best=""
	for i in 1 2; do
		run ticket many "$1"
		s=$(out cpu_s)
		[ -n "$s" ] && { [ -z "$best" ] || awk -v a="$s" -v b="$best" 'BEGIN { exit !(a < b) }'; } && best=$s
	done
	echo "${best:-none}"
}
small=$(least 125000)
large=$(least 500000)
check "125,000 then 500,000 mutexes started: CPU ${small} s then ${large} s, under 8x" \
	'[ "$small" != none ] && [ "$large" != none ] && awk -v s="$small" -v l="$large" "BEGIN { exit !(l < 8 * s) }"'
