#!/bin/sh
# exec-life.t — the program's life under `lockbench --exec` (bench/exec/launcher/life.c,
# docs/exec.md "The program's life"), with a small server of our own
# (tests/exec_life_prog.c): SIGTERM, SIGHUP or `timeout` to the launcher stops
# the server, writes what was gathered, says how it stopped in one line and
# exits 130, leaving no server process and no private directory; a server
# that ignores SIGTERM is killed after the grace; under nohup a hangup is no
# stop; a benchmark run stops on SIGHUP too; SIGKILL to the launcher still
# ends the server, and stale private directories are swept; run-all stopped
# during sysbench leaves no sysbench and no cut-short run; a server that drops
# privileges to nobody, daemonises, or chdir()s under a relative TMPDIR keeps
# its figures (or, under a TMPDIR it cannot reach, the library's reason is
# quoted); a full TMPDIR and a missing one are named; a library path with a
# space and a colon, and a user's LD_PRELOAD over 16 KB, reach the program
# whole.  Every check fails on the launcher before this test (issue 40,
# items 9-13).
LB=$(readlink -f "${LOCKBENCH:-bench/lockbench}")
PROG=${EXEC_PROG:-build/tests/exec_prog}
LIFE=$(readlink -f "${EXEC_LIFE_PROG:-$(dirname "$PROG")/exec_life_prog}")
tmp=$(mktemp -d) || exit 1
# The server kills whatever a failed check left running.
cleanup() {
	for f in "$tmp"/*.pid; do [ -s "$f" ] && kill -KILL "$(cat "$f")" 2>/dev/null; done
	umount "$tmp/full" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
. "$(dirname "$0")/tap.sh"
exec_preamble
LOCKBENCH_EXEC_SO=$(readlink -f "$LOCKBENCH_EXEC_SO")
# Traversable by nobody, as a TMPDIR must be for a server that drops to it.
chmod 711 "$tmp"
export TMPDIR="$tmp/t"
mkdir -m 711 "$TMPDIR"

# started NAME ARGS...: the launcher runs the server ARGS (-o $tmp/NAME) in
# the background until the file $tmp/NAME.pid appears (10 s at most), and its
# threads lock a moment.  lbpid is the launcher's pid.
started() {
	name=$1
	shift
	rm -f "$tmp/$name.pid"
	$hup_dfl "$LB" -l pthread --exec -o "$tmp/$name" --quiet -- "$LIFE" "$@" >"$tmp/out" 2>"$tmp/err" &
	lbpid=$!
	i=0
	while [ ! -s "$tmp/$name.pid" ] && [ "$i" -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	sleep 0.3
}
# stopped SIG: the launcher sent SIG, and waited for (60 s at most): rc its
# status, alive whether it still ran when signalled, took_s its time after.
stopped() {
	alive=no
	kill -0 "$lbpid" 2>/dev/null && alive=yes
	t0=$(date +%s.%N)
	kill -"$1" "$lbpid" 2>/dev/null
	# The guard ends with the launcher (and holds no pipe prove waits on).
	(i=0; while [ "$i" -lt 600 ] && kill -0 "$lbpid" 2>/dev/null; do sleep 0.1; i=$((i + 1)); done
	 kill -KILL "$lbpid" 2>/dev/null) >/dev/null 2>&1 &
	wait "$lbpid"
	rc=$?
	took_s=$(awk -v s="$t0" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }')
}
gone() { ! kill -0 "$(cat "$tmp/$1.pid")" 2>/dev/null; }
leftovers() { find "$TMPDIR" -maxdepth 1 -name 'lockbench-exec-*' | wc -l; }
# complete NAME: the result directory is whole, the server exited 0, and
# its acquisitions are its own count of its lock calls.
complete() {
	r=$tmp/$1
	[ -f "$r/summary.csv" ] && [ -f "$r/mutexes.csv" ] && [ -f "$r/checks.csv" ] &&
		[ "$(val "$r" program_figures_lost)" = 0 ] && [ "$(val "$r" program_exit_status)" = 0 ] &&
		[ "$(val "$r" acquisitions)" = "$(awk '$1 == "lock_calls" { s += $2 } END { print s + 0 }' "$r/program-stdout.txt")" ] &&
		[ "$(val "$r" acquisitions)" -gt 0 ]
}
said() { head -c 300 "$tmp/err" | tr '\n' '|'; }

# The launcher is started with SIGHUP at its default action whatever this
# shell inherited: under nohup (or a CI runner that ignores SIGHUP) the
# shell cannot undo an ignored signal (POSIX), and a launcher that inherits
# SIGHUP ignored rightly takes a hangup for no stop (the nohup check below).
hup_dfl="env --default-signal=HUP"

echo "1..20"

# 9: stop signals to the launcher.
started term pidfile "$tmp/term.pid" serve 60
stopped TERM
check "SIGTERM to the launcher: exit 130, one line 'stopped by signal 15' ($(said))" \
	'one_line 130 && grep -q "stopped by signal 15" "$tmp/err"'
check "... the result directory is complete: the server's lock calls, its figures kept, program_stop_signal 15" \
	'complete term && [ "$(val "$tmp/term" program_stop_signal)" = 15 ]'
check "... no server process and no private directory left ($(leftovers))" \
	'gone term && [ "$(leftovers)" -eq 0 ]'

started hup pidfile "$tmp/hup.pid" serve 60
stopped HUP
check "SIGHUP to the launcher: exit 130, stopped by signal 1, complete, the server gone ($(said))" \
	'one_line 130 && grep -q "stopped by signal 1\b" "$tmp/err" && complete hup && gone hup'

started deaf pidfile "$tmp/deaf.pid" ignore-term serve 60
stopped TERM
check "a server that ignores SIGTERM: killed after the grace, said, exit 130, gone (took $took_s s: $(said))" \
	'one_line 130 && grep -q "killed" "$tmp/err" && [ "$(val "$tmp/deaf" program_signal)" = 9 ] && gone deaf &&
	 [ "$(leftovers)" -eq 0 ]'

# nohup: a SIGHUP ignored from the start is no stop (the run goes on to its end).
(trap '' HUP; exec "$LB" -l pthread --exec -o "$tmp/nohup" --quiet -- "$LIFE" pidfile "$tmp/nohup.pid" serve 1 \
	>"$tmp/out" 2>"$tmp/err") &
lbpid=$!
i=0
while [ ! -s "$tmp/nohup.pid" ] && [ "$i" -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
stopped HUP
check "under nohup (SIGHUP ignored) a hangup does not stop the run: exit 0, program_stop_signal 0 ($(said))" \
	'[ "$rc" -eq 0 ] && [ "$(val "$tmp/nohup" program_stop_signal)" = 0 ] && complete nohup'

# The benchmark's own run stops on SIGHUP as on SIGTERM: one handler for both.
$hup_dfl "$LB" -l pthread -w counter -t 1 -d 30 --warmup 0 -o "$tmp/bench" >"$tmp/out" 2>"$tmp/err" &
lbpid=$!
sleep 1
stopped HUP
check "a benchmark run stopped by SIGHUP: exit 130, 'stopped by signal 1', nothing written ($(said))" \
	'one_line 130 && grep -q "stopped by signal 1; nothing written" "$tmp/err" && [ ! -e "$tmp/bench" ]'

rm -f "$tmp/to.pid"
timeout -s TERM 2 "$LB" -l pthread --exec -o "$tmp/to" --quiet -- "$LIFE" pidfile "$tmp/to.pid" serve 60 \
	>"$tmp/out" 2>"$tmp/err"
rc=$?
check "timeout 2 lockbench --exec: the server stopped and gone, the directory complete (exit $rc: $(said))" \
	'[ "$rc" -eq 124 ] && complete to && gone to && [ "$(leftovers)" -eq 0 ]'

# SIGKILL to the launcher (nothing to catch): the server still gets SIGTERM
# (PR_SET_PDEATHSIG) and ends; the stamped private directory stays for the
# next run's sweep (below).
started killed pidfile "$tmp/killed.pid" serve 60
stopped KILL
i=0
while ! gone killed && [ "$i" -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
check "SIGKILL to the launcher: the server ends too" 'gone killed'
killed_dir=$(find "$TMPDIR" -maxdepth 1 -name 'lockbench-exec-*')

stale=$TMPDIR/lockbench-exec-Zz9Qq1
mkdir -m 700 "$stale" && echo "999999999 1 -" >"$stale/.lockbench-owner"
"$LB" -l pthread --exec --quiet -- "$LIFE" serve 0.05 >"$tmp/out" 2>"$tmp/err"
check "stale private directories (the killed launcher's, one of a pid gone) are swept by the next run" \
	'[ -n "$killed_dir" ] && [ ! -e "$killed_dir" ] && [ ! -e "$stale" ]'

# run-all stopped while a program of its plan runs: run-all signals
# lockbench, which stops the program; the cut-short run is not kept.
# descendant PID NAME: a process named NAME below PID.
descendant() {
	for c in $(ps -o pid= --ppid "$1"); do
		[ "$(ps -o comm= -p "$c")" = "$2" ] && { echo "$c"; return; }
		descendant "$c" "$2"
	done
}
if command -v sysbench >/dev/null 2>&1; then
	top=$(cd "$(dirname "$0")/.." && pwd)
	"$top/run-all" --lockbench "$LB" --reps 1 --workloads sysbench-threads --locks pthread --threads 2 \
		--out "$tmp/ra" >"$tmp/ra.out" 2>&1 &
	lbpid=$!
	sb=""
	i=0
	while [ -z "$sb" ] && [ "$i" -lt 300 ]; do
		grep -q '^\[1/' "$tmp/ra.out" && sb=$(descendant "$lbpid" sysbench)
		sleep 0.1
		i=$((i + 1))
	done
	stopped TERM
	check "run-all stopped by SIGTERM during sysbench: exit 130, sysbench gone, no cut-short run kept (took $took_s s)" \
		'[ -n "$sb" ] && [ "$rc" -eq 130 ] && ! kill -0 "$sb" 2>/dev/null && [ -z "$(ls -A "$tmp/ra/runs")" ]'
else
	ok "run-all stopped by SIGTERM during sysbench # skip sysbench not installed"
fi

# 10: a server that drops privileges to nobody (the issue's done-when).
started drop pidfile "$tmp/drop.pid" drop serve 60
stopped TERM
check "a server that drops to nobody, stopped by SIGTERM: one line, a complete directory, no server, no private directory ($(said))" \
	'one_line 130 && grep -q "stopped by signal 15" "$tmp/err" && complete drop && gone drop &&
	 [ "$(leftovers)" -eq 0 ]'

mkdir -m 700 "$tmp/closed"
TMPDIR=$tmp/closed "$LB" -l pthread --exec -o "$tmp/closed-run" --quiet -- "$LIFE" drop serve 0.1 \
	>"$tmp/out" 2>"$tmp/err"
rc=$?
check "... under a TMPDIR nobody cannot search: one line, exit 1, the library's reason quoted ($(said))" \
	'one_line 1 && grep -q "could not be written to .*Permission denied" "$tmp/err" &&
	 grep -q "^lockbench-exec: pid [0-9]*: figures not written" "$tmp/closed-run/program-stderr.txt"'

# 11: a daemon: the parent exits at once, the child serves on.
started daemon daemon pidfile "$tmp/daemon.pid" serve 60
stopped TERM
check "a daemonising server: the launcher waits for it, then SIGTERM stops it: both processes' figures, its output ($alive, $(said))" \
	'[ "$alive" = yes ] && [ "$rc" -eq 130 ] && grep -q "stopped by signal 15" "$tmp/err" &&
	 [ "$(val "$tmp/daemon" program_processes)" = 2 ] && complete daemon && gone daemon'
check "... and says, once, that it waits for the processes the program left" \
	'[ "$(grep -c "waiting for" "$tmp/err")" -eq 1 ]'

# 12: a relative TMPDIR and a program that chdir()s; a full TMPDIR; a missing one.
mkdir -m 711 "$tmp/rel"
(cd "$tmp" && TMPDIR=rel "$LB" -l pthread --exec -o "$tmp/rel-run" --quiet -- "$LIFE" chdir / serve 0.2 \
	>"$tmp/out" 2>"$tmp/err")
rc=$?
check "a relative TMPDIR and a server that chdir()s: exit 0, figures kept ($(said))" \
	'[ "$rc" -eq 0 ] && complete rel-run && [ -z "$(ls -A "$tmp/rel")" ]'

mkdir "$tmp/full"
if mount -t tmpfs -o size=128k tmpfs "$tmp/full" 2>/dev/null; then
	TMPDIR=$tmp/full "$LB" -l pthread --exec -o "$tmp/full-run" --quiet -- "$LIFE" output 1000000 serve 0.1 \
		>"$tmp/out" 2>"$tmp/err"
	rc=$?
	check "a full TMPDIR: exit 1, one line naming it and saying it is full ($(said))" \
		'one_line 1 && grep -qF "$tmp/full" "$tmp/err" && grep -q "full" "$tmp/err"'
else
	ok "a full TMPDIR # skip cannot mount a tmpfs here"
fi

TMPDIR=$tmp/none "$LB" -l pthread --exec --quiet -- "$LIFE" serve 0.1 >"$tmp/out" 2>"$tmp/err"
rc=$?
check "a missing TMPDIR: exit 2, one line naming it ($(said))" 'one_line 2 && grep -qF "$tmp/none" "$tmp/err"'

# 13: LD_PRELOAD's separators in the library's path; a long user LD_PRELOAD.
mkdir "$tmp/a b:c"
cp "$LOCKBENCH_EXEC_SO" "$tmp/a b:c/liblockbench-exec.so"
LOCKBENCH_EXEC_SO="$tmp/a b:c/liblockbench-exec.so" "$LB" -l pthread --exec -o "$tmp/sep" --quiet -- \
	"$LIFE" serve 0.2 >"$tmp/out" 2>"$tmp/err"
rc=$?
check "a library path with a space and a colon: interposed, figures kept ($(said))" '[ "$rc" -eq 0 ] && complete sep'

# Entries that load nothing new: libc, or under a sanitizer build its runtime
# (which must come first in the launcher, which runs with it too).
lib=$(ldd "$LB" | awk '$1 ~ /^lib[at]san\.so/ { print $3 }')
[ -n "$lib" ] || lib=$(ldd "$LIFE" | awk '$1 ~ /^libc\.so/ { print $3 }')
long=$lib
while [ "${#long}" -lt 16384 ]; do long="$long:$lib"; done
LD_PRELOAD=$long "$LB" -l pthread --exec -o "$tmp/long" --quiet -- "$LIFE" preload >"$tmp/out" 2>"$tmp/err"
rc=$?
tail64=$(printf '%s' "$long" | tail -c 64)
check "a user's LD_PRELOAD of ${#long} bytes reaches the program whole (exit $rc)" \
	'[ "$rc" -eq 0 ] && [ "$(awk "\$1 == \"preload_tail\" { print \$2 }" "$tmp/long/program-stdout.txt")" = "$tail64" ] &&
	 [ "$(awk "\$1 == \"preload_length\" { print \$2 }" "$tmp/long/program-stdout.txt")" -gt "${#long}" ]'
