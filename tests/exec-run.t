#!/bin/sh
# exec-run.t — `lockbench --exec` (bench/exec/launcher/, docs/exec.md): the
# result directory of a program run (summary.csv's counts equal the lock()
# calls the program made, its checks, the program's figures and a --metric,
# mutexes.csv with call sites in the program, its output kept); a program
# that fails, is killed, or whose metric is missing or not a number: one
# line, exit 1, the directory says what happened; a preloaded library that
# is missing, not a 64-bit shared object, or built for another sanitizer
# than the launcher: one line, exit 2; lbcompare reads two such
# directories; sysbench's threads and mutex tests under kmutex-spin,
# kmutex-fix and pthread (skipped where sysbench is not installed).
LB=${LOCKBENCH:-bench/lockbench}
LBC=${LBCOMPARE:-analysis/lbcompare}
PROG=${EXEC_PROG:-build/tests/exec_prog}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/tap.sh"
exec_preamble

# prog_out DIR KEY: the program's "KEY N" line, as kept in DIR.
prog_out() { awk -v k="$2" '$1 == k { print $2 }' "$1/program-stdout.txt"; }

echo "1..29"

r=$tmp/prog
lb -l kmutex-fix --exec -o "$r" --quiet --metric 'pid=^pid ([0-9]+)' -- "$PROG" counter prodcons timed
check "a program run: exit 0, quiet ($(head -c 200 "$tmp/err"))" '[ "$rc" -eq 0 ] && [ ! -s "$tmp/out" ]'
check "summary.csv: lock, workload exec, acquisitions = the program's lock() calls ($(val "$r" acquisitions))" \
	'[ "$(val "$r" lock)" = kmutex-fix ] && [ "$(val "$r" workload)" = exec ] &&
	 [ "$(val "$r" acquisitions)" = "$(prog_out "$r" lock_calls)" ]'
check "checks.csv: histogram and phases ok" \
	'grep -q "^histogram_total,ok," "$r/checks.csv" && grep -q "^acquisition_phases,ok," "$r/checks.csv"'
check "the program's figures: exit 0, no signal, wall and CPU, 4+ threads" \
	'[ "$(val "$r" program_exit_status)" = 0 ] && [ "$(val "$r" program_signal)" = 0 ] &&
	 [ -n "$(val "$r" program_wall_s)" ] && [ -n "$(val "$r" program_cpu_user_s)" ] &&
	 [ "$(val "$r" program_threads)" -ge 4 ] && [ "$(val "$r" program_figures_lost)" = 0 ]'
check "--metric pid: the program's own pid line ($(val "$r" metric_pid))" \
	'[ -n "$(val "$r" metric_pid)" ] && [ "$(val "$r" metric_pid)" = "$(prog_out "$r" pid)" ]'
check "timed and condvar figures: timeouts counted" \
	'[ "$(val "$r" timedlock_timeouts)" -ge 2 ] && [ "$(val "$r" cond_timeouts)" -ge 2 ]'
check "mutexes.csv: header and rows, the program's file as call site" \
	'head -n 1 "$r/mutexes.csv" | grep -q "^rank,pid,mutex,destroyed,acquisitions,contentions" &&
	 [ "$(awk -F, "NR > 1 && \$9 == \"$(readlink -f "$PROG")\"" "$r/mutexes.csv" | wc -l)" -ge 2 ]'
if ldconfig -p 2>/dev/null | grep -q 'libdw\.so\.1'; then
	check "mutexes.csv: sites symbolized (libdw): exec_prog.c lines" \
		'awk -F, "NR > 1 { print \$12 }" "$r/mutexes.csv" | grep -q "exec_prog\.c:[0-9]"'
else
	ok "mutexes.csv: sites symbolized # skip libdw.so.1 not installed"
fi
check "the program's output kept" 'grep -q "^ok prodcons" "$r/program-stdout.txt" && [ -f "$r/program-stderr.txt" ]'

# Bad ends: one line, exit 1, and the directory says what happened.
lb -l kmutex-fix --exec -o "$tmp/x3" --quiet -- sh -c 'exit 3'
check "a program that exits 3: one line, exit 1, program_exit_status 3 ($(cat "$tmp/err"))" \
	'one_line 1 && grep -q "exited with status 3" "$tmp/err" && [ "$(val "$tmp/x3" program_exit_status)" = 3 ]'
lb -l kmutex-fix --exec -o "$tmp/x9" --quiet -- sh -c 'kill -9 $$'
check "a program killed by SIGKILL: one line, exit 1, program_signal 9, figures lost" \
	'one_line 1 && grep -q "killed by signal 9" "$tmp/err" && [ "$(val "$tmp/x9" program_signal)" = 9 ] &&
	 [ "$(val "$tmp/x9" program_figures_lost)" = 1 ]'
lb -l kmutex-fix --exec -o "$tmp/xm" --quiet --metric 'x=^nothing like this ([0-9]+)' -- "$PROG" counter
check "a metric that matches nothing: one line, exit 1, no metric_x ($(cat "$tmp/err"))" \
	'one_line 1 && grep -q "metric x: no match" "$tmp/err" && [ -z "$(val "$tmp/xm" metric_x)" ] &&
	 [ -n "$(val "$tmp/xm" acquisitions)" ]'
lb -l kmutex-fix --exec -o "$tmp/xn" --quiet --metric 'x=^(ok) counter' -- "$PROG" counter
check "a metric that is not a number: one line, exit 1" 'one_line 1 && grep -q "not a number" "$tmp/err"'
lb -l kmutex-fix --exec --quiet -- "$PROG" counter
check "without -o the program's output follows" '[ "$rc" -eq 0 ] && grep -q "^ok counter" "$tmp/out"'

# A library that cannot be this launcher's: one line, exit 2, before any
# program starts ($tmp/started stays absent; a plain library that is not
# lockbench's passes this check, and its run ends with no figures).  The
# fakes beside exec_prog (tests/exec_fake_lib.c) need "libtsan.so.2" or
# nothing.
fake=$(dirname "$PROG")
if exec_tsan "$LB"; then tsan_lb=yes; else tsan_lb=; fi
bad_so() { LOCKBENCH_EXEC_SO=$1 lb -l tas --exec --quiet -- sh -c ": >'$tmp/started'"; }
bad_so "$tmp/no-such.so"
check "a library that is not there: one line, exit 2" 'one_line 2 && grep -q "No such file" "$tmp/err"'
bad_so "$tmp/two
lines.so"
check "a library path with a newline: one line, exit 2" 'one_line 2 && grep -q "control character" "$tmp/err"'
printf 'not a library\n' >"$tmp/text.so"
bad_so "$tmp/text.so"
check "a library that is not ELF: one line, exit 2 ($(cat "$tmp/err"))" 'one_line 2 && grep -q "not an ELF file" "$tmp/err"'
mkfifo "$tmp/fifo.so"
bad_so "$tmp/fifo.so"
check "a FIFO for the library: one line, exit 2, not waited on" 'one_line 2 && grep -q "not a regular file" "$tmp/err"'
head -c 100 "$LOCKBENCH_EXEC_SO" >"$tmp/cut.so"
bad_so "$tmp/cut.so"
check "a library cut short: one line, exit 2 ($(cat "$tmp/err"))" 'one_line 2 && grep -q "not inside the file" "$tmp/err"'
bad_so "$PROG"
check "a program for the library: one line, exit 2" 'one_line 2 && grep -q "not a shared library" "$tmp/err"'
bad_so "$fake/libneeds-tsan.so"
if [ -n "$tsan_lb" ]; then
	ok "a ThreadSanitizer library refused by a plain launcher # skip this lockbench is ThreadSanitizer's"
else
	check "a ThreadSanitizer library refused by a plain launcher: one line, exit 2 ($(cat "$tmp/err"))" \
		'one_line 2 && grep -q "is a ThreadSanitizer build and this lockbench is not" "$tmp/err"'
fi
check "no program was started for a refused library" '[ ! -e "$tmp/started" ]'
bad_so "$fake/libfake-tsan.so"
if [ -n "$tsan_lb" ]; then
	check "a plain library refused by a ThreadSanitizer launcher: one line, exit 2 ($(cat "$tmp/err"))" \
		'one_line 2 && grep -q "is a ThreadSanitizer build and the preloaded library .* is not" "$tmp/err"'
else
	ok "a plain library refused by a ThreadSanitizer launcher # skip this lockbench is not ThreadSanitizer's"
fi

# The launcher's private directory (under $TMPDIR) is gone after a run that
# succeeded and after one whose program failed.
mkdir "$tmp/priv"
TMPDIR="$tmp/priv" lb -l kmutex-fix --exec -o "$tmp/xp" --quiet -- "$PROG" counter
rc_ok=$rc
TMPDIR="$tmp/priv" lb -l kmutex-fix --exec -o "$tmp/xp3" --quiet -- sh -c 'exit 3'
check "the private directory is removed after a run (exit $rc_ok) and a failed one (exit $rc): $(ls -A "$tmp/priv")" \
	'[ "$rc_ok" -eq 0 ] && [ "$rc" -eq 1 ] && [ -z "$(ls -A "$tmp/priv")" ]'

# lbcompare reads --exec directories.
lb -l kmutex-spin --exec -o "$tmp/c-spin" --quiet -- "$PROG" counter
"$LBC" "$tmp/c-spin" "$r" >"$tmp/cmp" 2>&1
check "lbcompare reads two --exec directories (exit $?)" 'grep -q "^== program .* under the interposer" "$tmp/cmp"'

# sysbench, short: its threads test (condvars, mutexes) and mutex test.
if command -v sysbench >/dev/null 2>&1; then
	for l in kmutex-spin kmutex-fix pthread; do
		lb -l "$l" --exec -o "$tmp/sb-$l" --quiet --metric 'events=total number of events: *([0-9]+)' -- \
			sysbench threads --threads=4 --time=1 run
		check "sysbench threads under $l: exit 0, events $(val "$tmp/sb-$l" metric_events), acquisitions $(val "$tmp/sb-$l" acquisitions)" \
			'[ "$rc" -eq 0 ] && [ "$(val "$tmp/sb-$l" metric_events)" -gt 0 ] && [ "$(val "$tmp/sb-$l" acquisitions)" -gt 0 ]'
	done
	lb -l kmutex-fix --exec -o "$tmp/sm" --quiet -- sysbench mutex --threads=4 --mutex-num=16 \
		--mutex-locks=20000 --mutex-loops=10 run
	check "sysbench mutex under kmutex-fix: at least its 4 x 20000 locks ($(val "$tmp/sm" acquisitions))" \
		'[ "$rc" -eq 0 ] && [ "$(val "$tmp/sm" acquisitions)" -ge 80000 ]'
else
	for t in 1 2 3 4; do ok "sysbench # skip sysbench not installed (scripts/deps.sh installs it)"; done
fi
