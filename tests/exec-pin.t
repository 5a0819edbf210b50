#!/bin/sh
# exec-pin.t — `lockbench --exec --pin POLICY` (bench/exec/preload_pin.c,
# docs/exec.md): each of the program's threads, in creation order with the
# main thread first, runs on entry i mod n of the policy's CPU order as
# `lockbench --topology` prints it (six threads: the order wraps wherever
# there are fewer than six CPUs), read by the program itself
# (sched_getaffinity, tests/exec_prog.c's affinity case); summary.csv's
# `pin` and the pinned count, meta.csv's pin_order; without --pin no thread
# is pinned (each keeps the launcher's CPUs) and `pin` is none; a bad
# policy is one line, exit 2, nothing written.
LB=${LOCKBENCH:-bench/lockbench}
PROG=${EXEC_PROG:-build/tests/exec_prog}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/tap.sh"
exec_preamble

echo "1..9"

# affinities DIR: the program's "affinity I CPUS" lines as "I CPUS".
affinities() { awk '$1 == "affinity" { print $2, $3 }' "$1/program-stdout.txt"; }
# order POLICY: the policy's CPU order, comma-separated, as --topology prints it.
order() { "$LB" --topology | awk -v p="$1" '$1 == p && $2 ~ /^[0-9]/ { print $2; exit }'; }
# expected ORDER: "I CPU" for threads 0..5, thread i on entry i mod n.
expected() {
	echo "$1" | awk -F, '{ for (i = 0; i < 6; i++) print i, $(i % NF + 1) }'
}

cores=$(order cores)
lb -l kmutex-fix --exec --pin cores -o "$tmp/cores" --quiet -- "$PROG" affinity
check "--pin cores: exit 0 ($(head -c 200 "$tmp/err"))" '[ "$rc" -eq 0 ]'
check "--pin cores: thread i on entry i mod n of the order $cores ($(affinities "$tmp/cores" | tr '\n' ';'))" \
	'[ -n "$cores" ] && [ "$(affinities "$tmp/cores")" = "$(expected "$cores")" ]'
check "summary.csv: pin cores, 6 threads pinned, none failed; meta.csv's pin_order" \
	'[ "$(val "$tmp/cores" pin)" = cores ] && [ "$(val "$tmp/cores" program_threads_pinned)" = 6 ] &&
	 [ "$(val "$tmp/cores" program_pin_failures)" = 0 ] &&
	 [ "$(awk -F, "\$1 == \"pin_order\" { gsub(/ /, \",\", \$2); print \$2 }" "$tmp/cores/meta.csv")" = "$cores" ]'

# The launcher limited to one CPU (taskset): the policy orders the usable
# CPUs only, so every thread is on that one.
last=$(echo "$cores" | awk -F, '{ print $NF }')
one=$(taskset -c "$last" "$LB" --topology | awk '$1 == "rr" && $2 ~ /^[0-9]/ { print $2; exit }')
rc=1
timeout -s KILL 60 taskset -c "$last" "$LB" -l pthread --exec --pin rr -o "$tmp/one" --quiet -- "$PROG" affinity \
	>"$tmp/out" 2>"$tmp/err" && rc=0
check "--pin rr under taskset -c $last: order $one, every thread there ($(affinities "$tmp/one" | tr '\n' ';'))" \
	'[ "$rc" -eq 0 ] && [ "$one" = "$last" ] && [ "$(affinities "$tmp/one")" = "$(expected "$one")" ]'

# An explicit order, the last CPU first: creation order, not CPU number.
first=$(echo "$cores" | cut -d, -f1)
if [ "$first" != "$last" ]; then
	lb -l kmutex-spin --exec --pin "list:$last,$first" -o "$tmp/list" --quiet -- "$PROG" affinity
	check "--pin list:$last,$first: the main thread on $last, thread 1 on $first, ... ($(affinities "$tmp/list" | tr '\n' ';'))" \
		'[ "$rc" -eq 0 ] && [ "$(affinities "$tmp/list")" = "$(expected "$last,$first")" ]'
else
	ok "--pin list: reversed # skip one CPU here"
fi

# Without --pin: every thread keeps the launcher's CPUs.
mine=$("$PROG" affinity | awk '$1 == "affinity" && $2 == 0 { print $3 }')
lb -l kmutex-fix --exec -o "$tmp/none" --quiet -- "$PROG" affinity
check "no --pin: every thread on the launcher's CPUs $mine, none pinned, pin none" \
	'[ "$rc" -eq 0 ] && [ "$(affinities "$tmp/none" | awk "{ print \$2 }" | sort -u)" = "$mine" ] &&
	 [ "$(affinities "$tmp/none" | wc -l)" -eq 6 ] && [ "$(val "$tmp/none" pin)" = none ] &&
	 [ "$(val "$tmp/none" program_threads_pinned)" = 0 ]'
check "threads.csv: the program's row has no one CPU (-1)" \
	'[ "$(awk -F, "NR == 2 { print \$2 }" "$tmp/none/threads.csv")" = -1 ]'

# A bad policy: one line, exit 2, nothing written, the program never run.
lb -l kmutex-fix --exec --pin nosuch -o "$tmp/bad" -- "$PROG" affinity
check "--pin nosuch: one line, exit 2, no directory ($(cat "$tmp/err"))" \
	'[ "$rc" -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && [ ! -e "$tmp/bad" ] && ! grep -q affinity "$tmp/out"'
# The library refuses a bad CPU list itself (the launcher never writes one).
# (A sanitizer build's library needs its runtime loaded first, as exec.t does.)
preload=$(readlink -f "$LOCKBENCH_EXEC_SO")
asan=$(ldd "$LOCKBENCH_EXEC_SO" 2>/dev/null | awk '/libasan/ { print $3; exit }')
[ -n "$asan" ] && preload="$asan $preload"
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
LD_PRELOAD=$preload LOCKBENCH_EXEC_LOCK=pthread LOCKBENCH_EXEC_PIN=0,x "$PROG" affinity >"$tmp/out" 2>"$tmp/err"
rc=$?
check "LOCKBENCH_EXEC_PIN 0,x: the library's one line, status 127 ($(cat "$tmp/err"))" \
	'[ "$rc" -eq 127 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "LOCKBENCH_EXEC_PIN" "$tmp/err"'
