#!/bin/sh
# exec.t — the preloaded library of `lockbench --exec` (bench/exec/,
# docs/exec.md) inside an ordinary pthread program (tests/exec_prog.c),
# under every lock it accepts: the program's own exact checks (counter,
# producer/consumer over condvars, trylock, timed locks and waits, static
# initializers, recursive and errorcheck mutexes passed through, fork from
# a threaded program, 1,000 threads, mutexes freed unDestroyed and copied)
# pass, and the library's exec-PID.csv counts exactly the lock() calls the
# program made, its passthrough calls, and the forked child's apart.  Each
# run is bounded (timeout, and the program's own alarm).
LB=${LOCKBENCH:-bench/lockbench}
SO=${LOCKBENCH_EXEC_SO:-build/liblockbench-exec.so}
PROG=${EXEC_PROG:-build/tests/exec_prog}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/tap.sh"
LIMIT_S=120

# A sanitizer build's library needs its runtime loaded before libc.
exec_preload "$SO"
exec_tsan_options "$SO"
# The cases of a full run, and the forked child's acquisitions at -q and at
# full rounds.  ThreadSanitizer starts no thread in a child forked from a
# threaded process ("starting new threads after multi-threaded fork is not
# supported"; with die_after_fork=0 the child reports a reused thread id and
# exits 66): there every case but fork.
cases=all cases_name=all child_q=800 child_full=80000
if [ -n "$tsan" ]; then
	cases="counter prodcons trylock timed static recursive threads reuse" cases_name="all but fork"
	child_q="" child_full=""
fi

# key FILE KEY: KEY's value in a key,value file.
key() { awk -F, -v k="$2" '$1 == k { print $2 }' "$1" 2>/dev/null; }
# out KEY: the program's "KEY N" line.
out() { awk -v k="$1" '$1 == k { print $2 }' "$tmp/out"; }

# run DIR LOCK ARGS...: the program under LOCK, its figures in DIR; sets rc.
run() {
	d=$1 lock=$2
	shift 2
	rm -rf "$d"
	mkdir "$d"
	timeout -s KILL "$LIMIT_S" env LD_PRELOAD="$preload" LOCKBENCH_EXEC_LOCK="$lock" \
		LOCKBENCH_EXEC_OUT="$d" ${TIMING:+LOCKBENCH_EXEC_TIMING="$TIMING"} \
		${OPTS:+LOCKBENCH_EXEC_LOCK_OPTS="$OPTS"} "$PROG" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
}

# calls KEY: the lock calls of the program's "KEY ADDRESS N" line.
calls() { awk -v k="$1" '$1 == k { print $3 }' "$tmp/out"; }
# row FILE ADDRESS DESTROYED: the acquisitions in mutexes.csv FILE's row of
# the mutex at ADDRESS, destroyed (1) or not (0).
row() { awk -F, -v a="${2:-none}" -v d="$3" '$1 == a && $2 == d { print $3 }' "$1" 2>/dev/null; }

# sum_bins FILE NAME: the sum of NAME's histogram bins.
sum_bins() { awk -F, -v p="$2_bin_" 'index($1, p) == 1 { s += $2 } END { print s + 0 }' "$1"; }
phases() { awk -F, '$1 ~ /^ev_acq_(fast|spin|nosleep|sleep)$/ { s += $2 } END { print s + 0 }' "$1"; }

# verdict NAME DIR CHILD: the figures of a run of $cases agree with the
# program's (CHILD: the forked child's acquisitions; empty: no child).
verdict() {
	name=$1 d=$2
	pid=$(out pid)
	main="$d/exec-$pid.csv"
	child=$(ls "$d"/exec-*.csv 2>/dev/null | grep -v "/exec-$pid.csv" | head -n 1)
	acq=$(key "$main" acquisitions)
	why=""
	[ "$rc" -eq 0 ] && grep -q "^ok ${cases##* }\$" "$tmp/out" || why="exit $rc: $(head -c 200 "$tmp/out" "$tmp/err" | tr '\n' ' ')"
	[ -z "$why" ] && [ "$acq" != "$(out lock_calls)" ] && why="acquisitions $acq, the program locked $(out lock_calls)"
	[ -z "$why" ] && [ "$(key "$main" passthrough_locks)" != "$(out passthrough_calls)" ] &&
		why="passthrough_locks $(key "$main" passthrough_locks), the program $(out passthrough_calls)"
	[ -z "$why" ] && [ "$(key "$child" acquisitions)" != "$3" ] &&
		why="the forked child's acquisitions $(key "$child" acquisitions), it locked $3"
	[ -z "$why" ] && [ "$(sum_bins "$main" acq)" != "$(key "$main" acq_count)" ] && why="bins != acq_count"
	[ -z "$why" ] && [ $(( $(key "$main" acq_count) + $(key "$main" untimed) )) -ne "$acq" ] &&
		why="timed + untimed != acquisitions"
	[ -z "$why" ] && [ "$(key "$main" acq_contended_count)" != "$(key "$main" acq_contended)" ] &&
		why="contended histogram != contended timed acquisitions"
	p=$(phases "$main")
	[ -z "$why" ] && [ "$p" -ne 0 ] && [ "$p" -ne "$acq" ] && why="phases $p != acquisitions $acq"
	# The counter's mutex, locked by threads that exited before the report:
	# its row counts them exactly (each thread's tally, folded at its exit).
	row=$(row "$d/mutexes-$pid.csv" "$(out counter_lock)" 0)
	calls=$(calls counter_lock)
	[ -z "$why" ] && [ "${row:-none}" != "${calls:-?}" ] &&
		why="counter_lock's mutexes.csv acquisitions ${row:-none}, the program locked it ${calls:-?} times"
	check "$name${why:+: $why}" '[ -z "$why" ]'
}

locks=$("$LB" --list | awk '/^locks:/ { on = 1; next } /^[a-z]/ { on = 0 } on { print $1 }')
refused="none ck-clh ck-anderson ck-cohort"
nlocks=0
for l in $locks; do
	case " $refused " in *" $l "*) ;; *) nlocks=$((nlocks + 1)) ;; esac
done
echo "1..$((nlocks + 4 + 1 + 4 + 7 + 2))"

# Every lock, quick rounds (the FIFO spinlocks, oversubscribed, crawl).
for l in $locks; do
	case " $refused " in *" $l "*) continue ;; esac
	start=$(date +%s)
	run "$tmp/r-$l" "$l" -q $cases
	echo "# $l: $(($(date +%s) - start)) s"
	verdict "$l: exec_prog -q $cases_name, counts exact" "$tmp/r-$l" "$child_q"
done

# The patch table's locks and glibc's, full rounds.
for l in kmutex-spin kmutex-fix pthread futex; do
	run "$tmp/f-$l" "$l" $cases
	out pid >"$tmp/pid-$l"
	verdict "$l: exec_prog $cases_name (20,000 rounds a thread), counts exact" "$tmp/f-$l" "$child_full"
done

# ThreadSanitizer's interceptors in front of the library (its runtime
# preloaded first): they call glibc's condvar by version, dlvsym(RTLD_NEXT,
# "pthread_cond_wait", "GLIBC_2.3.2"), which must find the library's
# (bench/exec/preload_cond.map); glibc's would wait on our mutex bytes as
# its own and never return.  Its reports are not what this checks (it
# calls our wait as a "blocking call", in which it tracks none of our
# locks' atomics): exitcode=0.
if [ -n "$tsan" ]; then
	saved_preload=$preload saved_limit=$LIMIT_S saved_tsan_options=$TSAN_OPTIONS
	preload="$tsan $(readlink -f "$SO")" LIMIT_S=30 TSAN_OPTIONS="$TSAN_OPTIONS:exitcode=0"
	run "$tmp/v" kmutex-fix -q prodcons timed
	preload=$saved_preload LIMIT_S=$saved_limit TSAN_OPTIONS=$saved_tsan_options
	check "TSan's interceptors in front: its versioned condvar calls reach the library's, the waits return (exit $rc)" \
		'[ "$rc" -eq 0 ] && grep -q "^ok timed$" "$tmp/out"'
else
	ok "# skip only ThreadSanitizer's interceptors here look the condvar calls up by version"
fi

# Locks the interposer cannot run, and bad settings: one line, status 127.
for l in none ck-clh; do
	run "$tmp/x" "$l" counter
	check "$l refused: one line, exit 127 ($(head -c 120 "$tmp/err"))" \
		'[ "$rc" -eq 127 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && [ ! -s "$tmp/out" ]'
done
run "$tmp/x" no-such-lock counter
check "an unknown lock: one line, exit 127" '[ "$rc" -eq 127 ] && grep -q "no lock" "$tmp/err"'
OPTS="oracle=nonsense" run "$tmp/x" kmutex-fix counter
check "a bad --lock-opt: one line, exit 127" '[ "$rc" -eq 127 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ]'

# --timing off and sample:N: the counts stay exact, the histograms shrink.
TIMING=off run "$tmp/t-off" kmutex-fix counter timed
f="$tmp/t-off/exec-$(out pid).csv"
check "--timing off: acquisitions exact, none timed" \
	'[ "$rc" -eq 0 ] && [ "$(key "$f" acquisitions)" = "$(out lock_calls)" ] && [ "$(key "$f" acq_count)" = 0 ]'
TIMING=sample:16 run "$tmp/t-s" kmutex-fix counter
f="$tmp/t-s/exec-$(out pid).csv"
check "--timing sample:16: acquisitions exact, about 1 in 16 timed" \
	'[ "$rc" -eq 0 ] && [ "$(key "$f" acquisitions)" = "$(out lock_calls)" ] &&
	 [ "$(key "$f" acq_count)" -gt 0 ] && [ $(($(key "$f" acq_count) * 4)) -lt "$(key "$f" acquisitions)" ]'
TIMING=sometimes run "$tmp/x" kmutex-fix counter
check "a bad --timing: exit 127" '[ "$rc" -eq 127 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ]'

# Without a lock named the library passes everything to glibc and writes nothing.
run "$tmp/inert" "" $cases
check "no lock named: the program runs on glibc's, no figures" \
	'[ "$rc" -eq 0 ] && grep -q "^ok ${cases##* }\$" "$tmp/out" && empty "$tmp/inert"'

# A destroyed mutex's row: its count from a thread that exited and from
# one still running, taken when it was destroyed; the mutex made next
# recycles its lock and its id, and counts from zero.  kmutex-fix counts in
# the threads' own arrays, mcs (LOCK_F_HOLDS_THREAD) on the mutex's header.
for l in kmutex-fix mcs; do
	run "$tmp/d-$l" "$l" destroy
	rows="$tmp/d-$l/mutexes-$(out pid).csv"
	why=""
	for what in destroyed_lock next_lock; do
		row=$(row "$rows" "$(out "$what")" 1) calls=$(calls "$what")
		[ -n "$calls" ] && [ "$row" = "$calls" ] || why="$why $what's row ${row:-none}, its lock calls ${calls:-none};"
	done
	check "$l: a destroyed mutex keeps its count, the next one counts from zero${why:+:$why}" \
		'[ "$rc" -eq 0 ] && [ -z "$why" ]'
done

# mutexes-PID.csv: the program's mutexes, the busiest its counter's lock
# (taken in counter_thread), sites in the program's own file.
fix_pid=$(cat "$tmp/pid-kmutex-fix")
m="$tmp/f-kmutex-fix/mutexes-$fix_pid.csv"
top=$(tail -n +2 "$m" | sort -t, -k3,3nr | head -n 1)
check "mutexes.csv: header, one row per mutex taken" \
	'[ "$(head -n 1 "$m")" = "mutex,destroyed,acquisitions,contentions,contended_timed,contended_cycles,site_object,site_address,wrapper_object,wrapper_address" ] &&
	 [ "$(tail -n +2 "$m" | wc -l)" -ge 5 ]'
check "mutexes.csv: the busiest mutex's call site is in the program ($top)" \
	'[ "$(echo "$top" | cut -d, -f7)" = "$(readlink -f "$PROG")" ] && [ "$(echo "$top" | cut -d, -f8)" != 0x0 ]'
contended=$(tail -n +2 "$m" | awk -F, '{ s += $4 } END { print s + 0 }')
check "mutexes.csv: contentions per mutex sum to at most the process's ($contended)" \
	'[ "$contended" -le "$(key "$tmp/f-kmutex-fix/exec-$fix_pid.csv" contentions)" ] && [ "$contended" -gt 0 ]'
