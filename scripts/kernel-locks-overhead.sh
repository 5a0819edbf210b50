#!/bin/sh
# kernel-locks-overhead.sh [LOCKBENCH] — what `--kernel-locks` costs a run:
# the same run with the capture off and on, alternating, ROUNDS pairs in one
# invocation (so a shared machine's drift hits both alike), medians of
# ops/s and their ratio.  `make bench` runs it after the uncontended figures.
#
#   counter: -l pthread -w counter, threads = CPUs (the target: within 3%)
#   creat:   -l none -w creat, 4x the CPUs: every wait for the directory
#            lock runs the program, the worst case for its cost
#
# OVERHEAD_ROUNDS (default 5) and OVERHEAD_SECONDS (default 1, per run) from
# the environment.
set -u
# Figures read and printed with a decimal point, whatever the caller's locale.
LC_ALL=C
export LC_ALL
LB=${1:-bench/lockbench}
ROUNDS=${OVERHEAD_ROUNDS:-5}
SECONDS_PER_RUN=${OVERHEAD_SECONDS:-1}
NCPU=$(getconf _NPROCESSORS_ONLN)
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

why=$("$LB" --kernel-locks -l none -w counter -t 1 -d 0.01 --warmup 0 --quiet 2>&1 >/dev/null)
if [ $? -ne 0 ]; then
	echo "kernel lock capture overhead: not measured (${why#lockbench: })"
	exit 0
fi

# ops_per_s ARGS...: one run's figure.
ops_per_s() {
	rm -rf "$tmp/r"
	"$LB" "$@" --quiet -o "$tmp/r" 2>"$tmp/err" || { echo "lockbench $*: $(cat "$tmp/err")" >&2; exit 1; }
	awk -F, '$1 == "ops_per_s" { print $2 }' "$tmp/r/summary.csv"
}

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# measure NAME TARGET ARGS...: ROUNDS pairs, off then on.
measure() {
	name=$1 target=$2
	shift 2
	: >"$tmp/off" && : >"$tmp/on"
	for i in $(seq 1 "$ROUNDS"); do
		ops_per_s "$@" >>"$tmp/off"
		ops_per_s "$@" --kernel-locks >>"$tmp/on"
	done
	off=$(median <"$tmp/off")
	on=$(median <"$tmp/on")
	awk -v n="$name" -v off="$off" -v on="$on" -v t="$target" -v r="$ROUNDS" 'BEGIN {
		d = 100 * (on / off - 1)
		printf "  %-8s off %12.0f  on %12.0f ops/s  %+6.2f%%", n, off, on, d
		if (t != "") printf "  (target within %s%%: %s)", t, (d >= -t ? "ok" : "MISSED")
		printf "\n"
	}'
}

echo "kernel lock capture overhead (median of $ROUNDS alternating pairs, ${SECONDS_PER_RUN} s each, capture off vs on):"
measure counter 3 -l pthread -w counter -t "$NCPU" -d "$SECONDS_PER_RUN"
measure creat "" -l none -w creat -t $((4 * NCPU)) -d "$SECONDS_PER_RUN"
