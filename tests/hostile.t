#!/bin/sh
# hostile.t — a run started under hostile conditions ends promptly, with one
# line and the right status, and leaves nothing behind: every row of
# hostile.tsv (process, cgroup and descriptor limits, failed thread starts,
# memory that cannot be placed, a signal in each phase); then what a SIGKILL
# leaves, and which of it the next run removes.
LB=${LOCKBENCH:-bench/lockbench}
LBT=${LOCKBENCH_TEST:-build/tests/lockbench-test}
tmp=$(mktemp -d) || exit 1
cgroups=
trap 'for c in $cgroups; do rmdir "$c" 2>/dev/null; done; rm -rf "$tmp"' EXIT
. "$(dirname "$0")/tap.sh"
# Rows run as uid 65534 write below it.
chmod 755 "$tmp"

table=$(dirname "$0")/hostile.tsv
rows=$(grep -cv -e '^#' -e '^$' "$table")
echo "1..$((rows + 7))"

skip() { n=$((n + 1)); echo "ok $n # skip $1"; }
now() { date +%s.%N; }
# within T0 T1 SECONDS: T1 - T0 <= SECONDS
within() { awk -v a="$1" -v b="$2" -v s="$3" 'BEGIN { exit !(b - a <= s) }'; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }
# start_time PID: field 22 of /proc/PID/stat, what an owner stamp records
start_time() { sed 's/.*) //' "/proc/$1/stat" | cut -d' ' -f20; }
BOOT=$(cat /proc/sys/kernel/random/boot_id 2>/dev/null || echo -)

# The directory of a pids controller we may make children in (v1, else v2).
pids_parent() {
	for d in /sys/fs/cgroup/pids /sys/fs/cgroup; do
		[ -w "$d" ] || continue
		[ -f "$d/pids.max" ] || grep -qw pids "$d/cgroup.subtree_control" 2>/dev/null ||
			[ "$(basename "$d")" = pids ] || continue
		echo "$d"
		return 0
	done
	return 1
}

# make_cgroup LIMIT: a fresh pids cgroup with that pids.max; prints its path.
# (Run in a subshell: the caller records it for removal.)
make_cgroup() {
	parent=$(pids_parent) || return 1
	c="$parent/lockbench-test-$$-$n"
	mkdir "$c" 2>/dev/null || return 1
	[ -f "$c/pids.max" ] && echo "$1" >"$c/pids.max" && echo "$c" && return 0
	rmdir "$c"
	return 1
}

# Why a row must be skipped here, if it must.
as_nobody_ok=
unmet() {
	for need in $(echo "$1" | tr , ' '); do
		case $need in
		-) ;;
		root | cgroup)
			[ "$(id -u)" -eq 0 ] || { echo "needs root"; return; }
			command -v setpriv >/dev/null && command -v prlimit >/dev/null ||
				{ echo "needs setpriv and prlimit"; return; }
			[ -n "$as_nobody_ok" ] || as_nobody_ok=$(setpriv --reuid=65534 --regid=65534 --clear-groups \
				"$LB" --help >/dev/null 2>&1 && echo yes || echo no)
			[ "$as_nobody_ok" = yes ] || { echo "uid 65534 cannot run $LB"; return; }
			[ "$need" = root ] || pids_parent >/dev/null || { echo "no writable pids cgroup hierarchy"; return; }
			;;
		nosan) [ -z "${SANITIZER:-}" ] || { echo "RLIMIT_AS under a sanitizer"; return; } ;;
		*) echo "unknown need '$need'"; return ;;
		esac
	done
}

# wait_mark FILE PID: until the hook's pause wrote FILE (its pid), or PID ended.
wait_mark() {
	i=0
	while [ ! -s "$1" ] && [ $i -lt 300 ] && kill -0 "$2" 2>/dev/null; do
		sleep 0.1
		i=$((i + 1))
	done
	[ -s "$1" ]
}

# row NAME SETUP SECONDS STATUS MESSAGE ARGS: one TAP line.
row() {
	name=$1 setup=$2 secs=$3 want=$4 msg=$5 args=$6
	d="$tmp/row$n"
	mkdir -p "$d/out" "$d/tmp"
	chmod 1777 "$d" "$d/out" "$d/tmp"
	nproc= nofile= as= pids= hook= sig=
	for s in $(echo "$setup" | tr , ' '); do
		case $s in
		nproc=*) nproc=${s#*=} ;;
		nofile=*) nofile=${s#*=} ;;
		as=*) as=${s#*=} ;;
		pids=*) pids=${s#*=} ;;
		hook=*) hook=${s#*=} ;;
		kill=*) sig=${s#*=} ;;
		-) ;;
		*) not_ok "$name: unknown setup '$s'"; return ;;
		esac
	done
	bin=$LB
	[ -z "$hook" ] || bin=$LBT
	eval "set -- $args"
	set -- "$bin" "$@" -o "$d/out/o" --quiet
	[ -z "$nofile" ] || set -- prlimit --nofile="$nofile" "$@"
	[ -z "$as" ] || set -- prlimit --as=$((as * 1048576)) "$@"
	[ -z "$nproc" ] || set -- setpriv --reuid=65534 --regid=65534 --clear-groups prlimit --nproc="$nproc" "$@"
	if [ -n "$pids" ]; then
		cg=$(make_cgroup "$pids") || { skip "$name (cannot make a pids cgroup here)"; return; }
		cgroups="$cgroups $cg"
		# shellcheck disable=SC2016 # expanded by the inner shell
		set -- sh -c 'echo $$ >"$0" && exec "$@"' "$cg/cgroup.procs" "$@"
	fi
	t0=$(now)
	TMPDIR="$d/tmp" LOCKBENCH_TEST_HOOK="$hook" LOCKBENCH_TEST_MARK="$d/mark" \
		timeout -s KILL $((secs + 20)) "$@" >"$d/stdout" 2>"$d/stderr" &
	pid=$!
	if [ -n "$sig" ]; then
		wait_mark "$d/mark" "$pid" && t0=$(now) && kill -"$sig" "$(cat "$d/mark")"
	fi
	wait "$pid"
	rc=$?
	t1=$(now)
	[ -z "$pids" ] || rmdir "$cg"
	# The machine probe's warnings (a TSC check cut short on a loaded
	# machine) are not the run's message: only they may come besides it.
	lines=$(grep -vc '^lockbench: WARNING: ' "$d/stderr")
	why=
	[ "$rc" -eq "$want" ] || why="$why status $rc, not $want;"
	within "$t0" "$t1" "$secs" || why="$why took $(elapsed "$t0" "$t1") s, over $secs;"
	[ ! -s "$d/stdout" ] || why="$why output on stdout;"
	if [ "$want" -eq 0 ]; then
		[ "$lines" -eq 0 ] || why="$why $lines lines on stderr;"
		[ "$(ls -A "$d/out")" = o ] && [ -s "$d/out/o/summary.csv" ] || why="$why no whole result directory;"
	else
		[ "$lines" -eq 1 ] || why="$why $lines lines on stderr, not 1;"
		grep -qF -- "$msg" "$d/stderr" || why="$why message lacks '$msg';"
		empty "$d/out" || why="$why left in the output directory: $(ls -A "$d/out");"
	fi
	empty "$d/tmp" || why="$why left in TMPDIR: $(ls -A "$d/tmp");"
	if [ -z "$why" ]; then
		ok "$name ($(elapsed "$t0" "$t1") s)"
	else
		not_ok "$name:$why stderr: $(head -c 300 "$d/stderr")"
	fi
}

while IFS= read -r line <&3; do
	case $line in '' | '#'*) continue ;; esac
	set -f
	IFS='	'
	# shellcheck disable=SC2086 # split on tabs, no globbing
	set -- $line
	unset IFS
	set +f
	if [ $# -ne 7 ]; then
		not_ok "hostile.tsv: not 7 tab-separated columns: $line"
		continue
	fi
	reason=$(unmet "$2")
	if [ -n "$reason" ]; then
		skip "$1 ($reason)"
		continue
	fi
	row "$1" "$3" "$4" "$5" "$6" "$7"
done 3<"$table"

# --- orphans: what a SIGKILL leaves, and which of it the next run removes ---
o="$tmp/orphans"
mkdir -p "$o/out" "$o/tmp"
# paused NAME: a creat run paused in its measured interval, results to out/NAME
paused() {
	TMPDIR="$o/tmp" LOCKBENCH_TEST_HOOK=measure:0:pause LOCKBENCH_TEST_MARK="$o/$1.mark" \
		timeout -s KILL 60 "$LBT" -l pthread -w creat -t 2 -d 30 -o "$o/out/$1" --quiet 2>"$o/$1.err" &
	wait_mark "$o/$1.mark" $!
}
# stamped DIR PID START BOOT: a directory as a lockbench would leave it
stamped() { mkdir -p "$1" && echo "$2 $3 $4" >"$1/.lockbench-owner"; }

paused killed
killed=$(cat "$o/killed.mark")
kill -KILL "$killed"
wait
kpartial=$(ls -d "$o"/out/killed.partial-* 2>/dev/null)
kwdir=$(ls -d "$o"/tmp/lockbench-creat-* 2>/dev/null)
check "a SIGKILL leaves a staging and a workload directory, each stamped with pid $killed" \
	'[ -d "$kpartial" ] && [ -d "$kwdir" ] && [ "$(cut -d" " -f1 "$kpartial/.lockbench-owner")" = "$killed" ] &&
	 [ "$(cut -d" " -f1 "$kwdir/.lockbench-owner")" = "$killed" ]'

paused live
live=$(cat "$o/live.mark")
lpartial=$(ls -d "$o"/out/live.partial-* 2>/dev/null)
lwdir=$(ls -d "$o"/tmp/lockbench-creat-* | grep -vxF "$kwdir")
# A pid that is alive but another process now (this shell, a wrong start
# time); a process of an earlier boot; no stamp at all; another user's.
stamped "$o/out/reused.partial-AAAAAA" $$ 1 "$BOOT"
stamped "$o/tmp/lockbench-creat-BBBBBB" 1 "$(start_time 1)" 00000000-0000-0000-0000-000000000000
mkdir "$o/out/unstamped.partial-CCCCCC"
stamped "$o/out/theirs.partial-DDDDDD" "$killed" 1 "$BOOT"
theirs=no
[ "$(id -u)" -eq 0 ] && chown -R 65534 "$o/out/theirs.partial-DDDDDD" && theirs=yes

TMPDIR="$o/tmp" timeout -s KILL 60 "$LB" -l pthread -w creat -t 2 -d 0.1 --warmup 0 -o "$o/out/next" --quiet
rc=$?
check "the next run (exit $rc) removes the killed run's directories" \
	'[ $rc -eq 0 ] && [ ! -e "$kpartial" ] && [ ! -e "$kwdir" ]'
check "and keeps the live run's" '[ -d "$lpartial" ] && [ -d "$lwdir" ] && kill -0 "$live"'
check "it removes a stamp whose pid is another process now, and one of an earlier boot" \
	'[ ! -e "$o/out/reused.partial-AAAAAA" ] && [ ! -e "$o/tmp/lockbench-creat-BBBBBB" ]'
if [ $theirs = yes ]; then
	check "it keeps an unstamped directory and another user's" \
		'[ -d "$o/out/unstamped.partial-CCCCCC" ] && [ -d "$o/out/theirs.partial-DDDDDD" ]'
else
	check "it keeps an unstamped directory (another user's: needs root)" '[ -d "$o/out/unstamped.partial-CCCCCC" ]'
fi
check "a result directory carries no stamp" '[ -s "$o/out/next/summary.csv" ] && [ ! -e "$o/out/next/.lockbench-owner" ]'
kill -TERM "$live"
wait
check "the live run, stopped, removes its own" '[ ! -e "$lpartial" ] && [ ! -e "$lwdir" ] && grep -q "stopped by signal 15" "$o/live.err"'
