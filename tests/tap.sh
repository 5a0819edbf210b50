# tap.sh — the TAP helpers every tests/*.t sources: numbered ok / not ok lines.
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
# A failure is also said on stderr, which prove shows without -v: a CI log
# that keeps only prove's output still names what failed and why.
not_ok() { n=$((n + 1)); echo "not ok $n - $1"; echo "# Failed test $n - $1" >&2; }
# check NAME SHELL-CONDITION
check() { if eval "$2"; then ok "$1"; else not_ok "$1"; fi; }

# usage_error NAME EXPECTED-SUBSTRING ARGS...: "$LB" ARGS exits 2 with exactly
# one stderr line containing the substring and nothing on stdout.  Needs $LB
# (the lockbench binary) and $tmp (a scratch directory).
usage_error() {
	name=$1 want=$2
	shift 2
	"$LB" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	lines=$(wc -l <"$tmp/err")
	if [ "$rc" -eq 2 ] && [ "$lines" -eq 1 ] && grep -qF -- "$want" "$tmp/err" && [ ! -s "$tmp/out" ]; then
		ok "$name"
	else
		not_ok "$name (rc=$rc, stderr lines=$lines: $(head -c 200 "$tmp/err"))"
	fi
}

# empty DIR: DIR exists and holds nothing (what a workload or a failed run
# must leave behind).
empty() { [ -d "$1" ] && [ -z "$(ls -A "$1")" ]; }

# val RUNDIR KEY: KEY's value in the run's summary.csv (results/README.md).
val() { awk -F, -v k="$2" '$1 == k { print $2 }' "$1/summary.csv"; }

# capture_probe: where `lockbench --kernel-locks` can run here, $skip is
# empty; else it is a TAP skip directive saying why, and $why the message.
# Then capture NAME CONDITION is a check that needs the capture.  Needs $LB.
capture_probe() {
	if why=$("$LB" --kernel-locks -l none -w counter -t 1 -d 0.01 --warmup 0 2>&1 >/dev/null); then
		skip=""
	else
		skip="# skip kernel lock capture unavailable here: ${why#lockbench: }"
	fi
}
capture() { if [ -n "$skip" ]; then ok "$1 $skip"; else check "$1" "$2"; fi; }

# exec_preamble: an --exec test's start: LOCKBENCH_EXEC_SO exported (this
# build's library unless set), and exec_tsan_options.  Then lb ARGS... runs
# "$LB" ARGS bounded, rc its status, stdout in $tmp/out, stderr in $tmp/err.
exec_preamble() {
	export LOCKBENCH_EXEC_SO="${LOCKBENCH_EXEC_SO:-build/liblockbench-exec.so}"
	exec_tsan_options
}

# exec_preload SO: $preload, the LD_PRELOAD list that runs library SO as the
# launcher does (a sanitizer build's runtime loaded before libc:
# AddressSanitizer's first, ThreadSanitizer's after the library; the
# launcher, bench/exec/launcher/start.c, says why); $asan and $tsan, those runtimes'
# paths ("" without); ASAN_OPTIONS let the order be.
exec_preload() {
	preload=$(readlink -f "$1")
	asan=$(ldd "$1" 2>/dev/null | awk '/libasan/ { print $3; exit }')
	tsan=$(ldd "$1" 2>/dev/null | awk '/libtsan/ { print $3; exit }')
	[ -n "$asan" ] && preload="$asan $preload"
	[ -n "$tsan" ] && preload="$preload $tsan"
	export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
}

# exec_tsan [FILE]: FILE (a library or program; else $LOCKBENCH_EXEC_SO, else
# this build's library) is built with ThreadSanitizer.
exec_tsan() { ldd "${1:-${LOCKBENCH_EXEC_SO:-build/liblockbench-exec.so}}" 2>/dev/null | grep -q libtsan; }
# exec_tsan_options [SO]: under it, TSAN_OPTIONS gets tests/exec-tsan.supp
# (exec_prog's deliberate misuse: the file says which and why), for the
# programs the test runs.
exec_tsan_options() {
	exec_tsan "$@" || return 0
	export TSAN_OPTIONS="${TSAN_OPTIONS:+$TSAN_OPTIONS:}suppressions=$(cd "$(dirname "$0")" && pwd)/exec-tsan.supp"
}
lb() { timeout -s KILL 120 "$LB" "$@" >"$tmp/out" 2>"$tmp/err"; rc=$?; }
# one_line STATUS: lb's run exited STATUS with one line on stderr, besides the
# machine probe's warnings (a loaded machine's TSC check cut short).
one_line() { [ "$rc" -eq "$1" ] && [ "$(grep -vc '^lockbench: WARNING: ' "$tmp/err")" -eq 1 ]; }

# stop_at PATTERN OUT CMD...: CMD in the background, its stdout and stderr in
# OUT, sent SIGTERM once a line of OUT matches PATTERN (grep) or CMD has
# ended (within 90 s); $rc its exit status.  run-all stops cleanly on SIGTERM:
# stopped at "^\[1/" (its first run started) it has made its plan.
stop_at() {
	sa_pat=$1 sa_out=$2
	shift 2
	"$@" >"$sa_out" 2>&1 &
	sa_pid=$!
	for sa_i in $(seq 1 900); do
		grep -q -- "$sa_pat" "$sa_out" && break
		kill -0 $sa_pid 2>/dev/null || break
		sleep 0.1
	done
	kill -TERM $sa_pid 2>/dev/null
	wait $sa_pid
	rc=$?
}

# set_keys DIR KEY=VALUE...: each KEY set to VALUE in DIR/summary.csv (added where
# absent); KEY= with nothing after it removes the key.
set_keys() {
	into=$1
	shift
	awk -F, -v edits="$*" '
		BEGIN { n = split(edits, e, " "); for (i = 1; i <= n; i++) { split(e[i], kv, "="); want[kv[1]] = kv[2]; order[i] = kv[1] } }
		$1 in want { next }
		{ print }
		END { for (i = 1; i <= n; i++) if (want[order[i]] != "") print order[i] "," want[order[i]] }' \
		"$into/summary.csv" >"$into/summary.new" && mv "$into/summary.new" "$into/summary.csv"
}

# lbcompare_refuses NAME WANT RUN...: "$CMP" RUN... is refused in one line:
# exit 1, nothing on stdout, one stderr line naming a bad/summary.csv and
# WANT.  Needs $CMP and $tmp.
lbcompare_refuses() {
	name=$1 want=$2
	shift 2
	"$CMP" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	check "$name: refused in one line" \
		'[ $rc -eq 1 ] && [ ! -s "$tmp/out" ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] &&
		 grep -q "bad/summary.csv" "$tmp/err" && grep -qF -- "$want" "$tmp/err"'
}
