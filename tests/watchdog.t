#!/bin/sh
# watchdog.t — a lock that never lets go (broken-lost-unlock, only in the test
# build's lockbench) is caught: exit status 4 long before the run would end,
# a diagnosis of every thread and the lock's state, the workload's files gone,
# no result directory; run-all records it as a failed run and goes on.
LBT=${LOCKBENCH_TEST:-build/tests/lockbench-test}
LB=$LBT
top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/tap.sh"
BROKEN=broken-lost-unlock
# timed NAME ARGS...: runs "$LBT" ARGS; sets rc and secs (wall, whole seconds)
timed() {
	name=$1
	shift
	start=$(date +%s)
	"$LBT" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"
	rc=$?
	secs=$(($(date +%s) - start))
}

echo "1..19"

check "the broken lock is in the test build only" \
	'"$LBT" --list | grep -q "^  $BROKEN " && ! "${LOCKBENCH:-bench/lockbench}" --list | grep -q "broken"'

timed counter -l $BROKEN -t 4 -d 20 --watchdog 1 -o "$tmp/res"
check "a stuck lock exits with status 4 (rc=$rc)" '[ $rc -eq 4 ]'
check "well before the run's 20 s (${secs} s)" '[ $secs -lt 10 ]'
last=$(tail -n 1 "$tmp/counter.err")
check "the last line says it all" \
	'echo "$last" | grep -q "^lockbench: watchdog: no lock acquisition for 1.0 s: lock $BROKEN, workload counter; 4 of 4 threads waiting in lock()"'
check "one line per thread, each waiting in lock() and for how long" \
	'[ "$(grep -c "^lockbench: watchdog: thread [0-3] (cpu -\{0,1\}[0-9]*): waiting in lock() for [0-9.]* s" "$tmp/counter.err")" -eq 4 ]'
check "the lock's state words: held, 1001 unlock() calls" \
	'grep -q "^lockbench: watchdog: lock state (32-bit words of [0-9]* bytes): 0x00000001 0x000003e9" "$tmp/counter.err"'
check "nothing on stdout, every stderr line is the watchdog's" \
	'[ ! -s "$tmp/counter.out" ] && ! grep -qv "^lockbench: watchdog: " "$tmp/counter.err"'
check "no result directory, no staging left" '! ls -d "$tmp"/res* >/dev/null 2>&1'

for wl in creat fserver; do
	mkdir "$tmp/dir-$wl"
	timed $wl -l $BROKEN -w $wl -t 4 -d 20 --watchdog 1 --dir "$tmp/dir-$wl"
	check "$wl: status 4 (rc=$rc, ${secs} s)" '[ $rc -eq 4 ] && [ $secs -lt 10 ]'
	check "$wl: the workload's files are removed" 'empty "$tmp/dir-$wl"'
done

timed default -l $BROKEN -t 2 -d 0.5
check "the default limit is 5 s for a short run (rc=$rc, ${secs} s)" \
	'[ $rc -eq 4 ] && [ $secs -ge 5 ] && grep -q "no lock acquisition for 5.0 s" "$tmp/default.err"'

timed healthy -l futex -t 4 -d 1 --watchdog 0.5
check "a healthy lock under a short watchdog runs to the end (rc=$rc)" '[ $rc -eq 0 ] && [ ! -s "$tmp/healthy.err" ]'

"$LBT" -l $BROKEN -t 4 -d 60 --watchdog 60 >"$tmp/int.out" 2>"$tmp/int.err" &
pid=$!
sleep 1
kill -INT $pid
start=$(date +%s)
wait $pid
rc=$?
secs=$(($(date +%s) - start))
check "SIGINT still ends a stuck run: status 130 in ${secs} s" '[ $rc -eq 130 ] && [ $secs -le 5 ]'
check "with one line saying the threads are stuck" \
	'[ "$(wc -l <"$tmp/int.err")" -eq 1 ] && grep -q "4 of 4 threads did not leave lock $BROKEN" "$tmp/int.err"'

# run-all drives the test build's lockbench: the broken run fails, the rest go on.
RUNALL_LOCKBENCH=$LBT "$top/run-all" --quick --locks $BROKEN,tas --workloads counter --threads 2 \
	--out "$tmp/ra" >"$tmp/ra.out" 2>&1
rc=$?
check "run-all finishes, exit 1: a run failed (rc=$rc)" '[ $rc -eq 1 ] && [ -s "$tmp/ra/report.md" ]'
check "the broken run is listed as failed with exit status 4" \
	'grep -q "^- \`[^\`]*$BROKEN[^\`]*\` (exit status 4" "$tmp/ra/report.md"'
check "the other lock's run finished" 'ls "$tmp"/ra/runs/*tas*/summary.csv >/dev/null 2>&1'
