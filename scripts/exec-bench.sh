#!/bin/sh
# exec-bench.sh — `make bench`'s figures for lockbench --exec (docs/exec.md):
# 1. the interposer's cost: an uncontended lock+unlock through it
#    (exec_cost program, the library preloaded, --timing off) against the
#    same lock driven by lockbench directly (exec_cost direct LOCK), per lock
#    it accepts, and under the floor library (exec_floor.c: an interposer
#    that only finds the lock, the least any can cost); and glibc's mutex
#    with no library, with the library inert (no lock named: every call
#    passed to glibc), under the floor library with no lock named (glibc's
#    calls through a pointer: what passing through must cost) and as the
#    programs' baseline lock (`lockbench --list`'s program-baseline);
# 2. sysbench (where installed) under the patch pair (the first two
#    patch-lock lines), the programs' baseline lock (with --timing all, off
#    and sample:64), the library inert, the floor library
#    passing through, and with no library: `threads` (events in 2 s, 8
#    threads: more is better) and `mutex` (seconds for fixed work, 8 threads
#    on 4 mutexes: less is better), REPS runs each (MUTEX_REPS of `mutex`),
#    interleaved: the medians, and each variant's speed against no library
#    as lbcompare states a ratio (scripts/ratio.c: Hodges-Lehmann, Moses'
#    95% interval, the Mann-Whitney verdict), so that a target such as
#    >= 0.95x is met only where the interval's low end reaches it.
# The per-lock costs: the least of PAIRS runs of each side, alternating,
# each the least of its trials (exec_cost.c): on a shared machine another
# job only ever adds cycles to an uncontended loop, and while others keep
# the CPUs busy most trials carry some.  Their median beside it, and `*`
# where a side's worst run is over 1.3x its least: on a VM the same run
# reads 26 or 44 cycles from one time to the next (bimodal), and the least
# is then the only figure to compare.  Issue 40's targets, against the floor:
# interposed - floor <= 3 cycles, glibc through the inert library <= glibc + 3.
# Printed, not asserted: a busy machine moves every figure.
#
#   scripts/exec-bench.sh [LOCKBENCH [EXEC_COST [LIBRARY [FLOOR_LIBRARY [RATIO]]]]]
set -u
LB=${1:-bench/lockbench}
COST=${2:-build/scripts/exec_cost}
SO=$(readlink -f "${3:-build/liblockbench-exec.so}")
FLOOR=$(readlink -f "${4:-build/scripts/libexec-floor.so}")
RATIO=${5:-build/scripts/ratio}
REPS=${EXEC_BENCH_REPS:-9}
# `mutex` runs last a quarter of a second, and from one to the next they
# vary by a tenth: at 41 of each the ratio's 95% interval was +-2% to +-8%
# in this tree's runs, at 9 +-12% (0.898x [0.799..1.039]).
MUTEX_REPS=${EXEC_BENCH_MUTEX_REPS:-41}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

# The registry's sets (scripts/registry.sh): no lock named here.
. "$(dirname "$0")/registry.sh"
"$LB" --list >"$tmp/list" || { echo "exec-bench.sh: $LB --list failed" >&2; exit 1; }
# The locks with an oracle option: runstate on both sides (the direct lock
# cannot load sched).
ORACLE_LOCKS=$(registry_plan option <"$tmp/list" | awk '$1 == "lock" && $3 == "oracle" { print $2 }' | tr '\n' ' ')
opts_of() { ! in_list "$1" "$ORACLE_LOCKS" || echo oracle=runstate; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2fx", a / b; else print "-" }'; }
# "MEDIAN LEAST LARGEST" of the numbers in FILE (scripts/median.awk: the one median)
stats_of() { sort -g "$1" | awk -f "$(dirname "$0")/median.awk"; }
# median of the numbers in FILE
median() { stats_of "$1" | cut -d' ' -f1; }
# the least of the numbers in FILE
least() { stats_of "$1" | cut -d' ' -f2; }
# "LEAST/MEDIAN", and * where the largest is over 1.3x the least (a bimodal spread)
spread() { stats_of "$1" | awk '$1 == "-" { print "-"; next } { printf "%s/%s%s\n", $2, $1, ($3 > 1.3 * $2) ? "*" : "" }'; }
# B - A, and whether it is at most 3 (issue 40's targets)
over() { awk -v a="$1" -v b="$2" 'BEGIN { d = b - a; printf "%+.1f %s", d, (d <= 3) ? "met" : "missed" }'; }
PAIRS=${EXEC_BENCH_PAIRS:-7}

echo "--exec interposition cost: uncontended lock+unlock, TSC cycles (the least of $PAIRS runs, alternating, each the least of 9 x 200000), --timing off, load average $(cut -d' ' -f1 /proc/loadavg)"
echo "(floor: an interposer that only finds the lock, scripts/exec_floor.c; ratios to direct; medians after the /; *: a worst run over 1.3x the least; target: interposed - floor <= 3)"
printf '%-16s %8s %13s %13s %8s %8s %7s %s\n' lock direct floor interposed ratio floor i-floor target
# LIBRARY preloaded for lock $1, exec_cost's program run once.
program_under() {
	LD_PRELOAD="$2" LOCKBENCH_EXEC_LOCK="$1" LOCKBENCH_EXEC_TIMING=off \
		LOCKBENCH_EXEC_LOCK_OPTS="$(opts_of "$1")" "$COST" program
}
for l in $(registry_names locks <"$tmp/list"); do
	if ! i=$(program_under "$l" "$SO" 2>"$tmp/err"); then
		printf '%-16s %s\n' "$l" "refused: $(sed 's/^lockbench exec: //' "$tmp/err" | head -n 1)"
		continue
	fi
	# PAIRS runs of each, alternating, so a busy spell of the machine hits all three.
	echo "$i" >"$tmp/i"
	: >"$tmp/d"
	: >"$tmp/f"
	for p in $(seq "$PAIRS"); do
		"$COST" direct "$l" >>"$tmp/d"
		program_under "$l" "$FLOOR" >>"$tmp/f"
		[ "$p" -eq "$PAIRS" ] || program_under "$l" "$SO" >>"$tmp/i"
	done
	d=$(least "$tmp/d")
	f=$(least "$tmp/f")
	i=$(least "$tmp/i")
	printf '%-16s %8s %13s %13s %8s %8s %7s %s\n' "$l" "$d" "$(spread "$tmp/f")" "$(spread "$tmp/i")" \
		"$(ratio "$i" "$d")" "$(ratio "$f" "$d")" $(over "$f" "$i")
done
: >"$tmp/plain"
: >"$tmp/inert"
: >"$tmp/pass"
for p in $(seq "$PAIRS"); do
	"$COST" program >>"$tmp/plain"
	LD_PRELOAD="$SO" "$COST" program >>"$tmp/inert"
	LD_PRELOAD="$FLOOR" "$COST" program >>"$tmp/pass"
done
plain=$(least "$tmp/plain")
inert=$(least "$tmp/inert")
pass=$(least "$tmp/pass")
printf 'glibc mutex: no library %s, library inert (passed through) %s (%s; %s, target <= +3: %s), floor passing through %s (%s)\n' \
	"$(spread "$tmp/plain")" "$(spread "$tmp/inert")" "$(ratio "$inert" "$plain")" $(over "$plain" "$inert") \
	"$(spread "$tmp/pass")" "$(ratio "$pass" "$plain")"

command -v sysbench >/dev/null 2>&1 || { echo "sysbench: not installed (scripts/deps.sh installs it)"; exit 0; }
# nolib: no library; pass: the floor library with no lock named (glibc's
# lock and unlock through a pointer: the thinnest interposer); inert: the
# library preloaded with no lock named (every call passed to glibc);
# LOCK-off: --exec --timing off; LOCK-sN: --timing sample:N; else --exec
# (timing all).
BASE=$(registry_plan program-baseline <"$tmp/list" | head -n 1)
PAIR=$(registry_plan patch-lock <"$tmp/list" | head -n 2 | cut -d' ' -f1 | tr '\n' ' ')
variants="nolib pass inert${BASE:+ $BASE $BASE-off $BASE-s64} $PAIR"
# Runs sysbench ARGS... as variant $1.
sb() {
	v=$1
	shift
	case $v in
	nolib) sysbench "$@" ;;
	pass) LD_PRELOAD="$FLOOR" sysbench "$@" ;;
	inert) LD_PRELOAD="$SO" sysbench "$@" ;;
	*-off) "$LB" -l "${v%-off}" --exec --timing off --quiet -- sysbench "$@" ;;
	*-s[0-9]*) "$LB" -l "${v%-s*}" --exec --timing "sample:${v##*-s}" --quiet -- sysbench "$@" ;;
	*) "$LB" -l "$v" --exec --quiet -- sysbench "$@" ;;
	esac
}
for r in $(seq "$(( REPS > MUTEX_REPS ? REPS : MUTEX_REPS ))"); do
	for v in $variants; do
		if [ "$r" -le "$REPS" ]; then
			sb "$v" threads --threads=8 --time=2 run >"$tmp/out" 2>&1
			awk '/total number of events:/ { print $NF }' "$tmp/out" >>"$tmp/threads-$v"
		fi
		if [ "$r" -le "$MUTEX_REPS" ]; then
			sb "$v" mutex --threads=8 --mutex-num=4 --mutex-locks=200000 --mutex-loops=100 run >"$tmp/out2" 2>&1
			awk '/total time:/ { sub(/s$/, "", $NF); print $NF }' "$tmp/out2" >>"$tmp/mutex-$v"
		fi
	done
done
# "RATIO [LO..HI] VERDICT" of X's runs to Y's (scripts/ratio.c: lbcompare's
# Hodges-Lehmann ratio, Moses' 95% interval, Mann-Whitney), as speed: more
# than 1 is faster than no library.
speed() {
	[ "$1" != "$2" ] || { printf 'the base'; return; }
	"$RATIO" "$1" "$2" | awk '{ printf "%sx %s %s", $1, ($2 == "-") ? "(too few runs for 95%)" : "[" $2 ".." $3 "]",
		($5 == "same") ? "no difference" : ($5 == "higher") ? "faster" : "slower" }'
}
echo "sysbench through --exec (LOCK: --timing all; LOCK-off: --timing off; LOCK-sN: --timing sample:N; inert: the library preloaded, no lock named; pass: the floor library, no lock named), $REPS runs each of threads and $MUTEX_REPS of mutex, interleaved ($(getconf _NPROCESSORS_ONLN) CPUs, load average $(cut -d' ' -f1 /proc/loadavg) at the end): threads = events in 2 s (more is better), mutex = seconds (less is better); speed against no library, with its 95% interval and verdict"
printf '%-14s %9s %-36s %9s %s\n' variant threads speed mutex_s speed
for v in $variants; do
	printf '%-14s %9s %-36s %9s %s\n' "$([ "$v" = nolib ] && echo "no library" || echo "$v")" \
		"$(median "$tmp/threads-$v")" "$(speed "$tmp/threads-$v" "$tmp/threads-nolib")" \
		"$(median "$tmp/mutex-$v")" "$(speed "$tmp/mutex-nolib" "$tmp/mutex-$v")"
done
