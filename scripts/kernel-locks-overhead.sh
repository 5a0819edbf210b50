#!/bin/sh
# kernel-locks-overhead.sh [LOCKBENCH] — what `--kernel-locks` costs a run:
# the same run with the capture off and on, alternating, ROUNDS pairs in one
# invocation (so a shared machine's drift hits both alike), medians of
# ops/s, their ratio, and each side's spread.  `make bench` runs it after
# the uncontended figures.  Target: within 3% of ops/s on each.
#
# Every workload of the registry (`lockbench --list`), in its order:
#   one whose threads meet on no kernel lock: the programs' baseline lock
#     (program-baseline: glibc's futexes, few or no kernel lock waits; the
#     program runs for nothing but others'), threads = CPUs
#   one whose threads also meet on a kernel lock (meets-in-kernel): the
#     kernel baseline (kernel-baseline: a lock that excludes nothing), 4x
#     the CPUs: every wait on the kernel's lock (a directory's i_rwsem,
#     rwsems, a file's f_pos_lock mutex) runs the program -- up to hundreds
#     of thousands of waits a second, the case a per-wait cost shows most
#
# File workloads run in OVERHEAD_DIR (default /dev/shm where writable, else
# lockbench's default, $TMPDIR): the lock, not a shared disk, is what the
# capture must not disturb.  OVERHEAD_ROUNDS (default 5) and
# OVERHEAD_SECONDS (default 1, per run) from the environment.
set -u
# Figures read and printed with a decimal point, whatever the caller's locale.
LC_ALL=C
export LC_ALL
LB=${1:-bench/lockbench}
ROUNDS=${OVERHEAD_ROUNDS:-5}
SECONDS_PER_RUN=${OVERHEAD_SECONDS:-1}
NCPU=$(getconf _NPROCESSORS_ONLN)
if [ -z "${OVERHEAD_DIR:-}" ] && [ -d /dev/shm ] && [ -w /dev/shm ]; then
	OVERHEAD_DIR=/dev/shm
fi
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

# The registry's sets (scripts/registry.sh): no workload or lock named here.
. "$(dirname "$0")/registry.sh"
"$LB" --list >"$tmp/list" || { echo "kernel-locks-overhead.sh: $LB --list failed" >&2; exit 1; }
role() { registry_plan "$1" <"$tmp/list" | awk '{ print $1 }' | tr '\n' ' '; }
WORKLOADS=$(registry_names workloads <"$tmp/list" | tr '\n' ' ')
IN_KERNEL=$(role meets-in-kernel) TAKES_DIR=$(role takes-dir)
PROGRAM_BASE=$(role program-baseline) KERNEL_BASE=$(role kernel-baseline)
PROGRAM_BASE=${PROGRAM_BASE%% *} KERNEL_BASE=${KERNEL_BASE%% *}
# shellcheck disable=SC2086 # the first workload
set -- $WORKLOADS
[ -n "$PROGRAM_BASE" ] && [ -n "$KERNEL_BASE" ] && [ $# -gt 0 ] ||
	{ echo "kernel-locks-overhead.sh: the registry has no program or kernel baseline, or no workload" >&2; exit 1; }

why=$("$LB" --kernel-locks -l "$KERNEL_BASE" -w "$1" -t 1 -d 0.01 --warmup 0 2>&1 >/dev/null)
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

# "MEDIAN LEAST LARGEST" of the figures on stdin (scripts/median.awk: the one median)
stats_of() { sort -g | awk -f "$(dirname "$0")/median.awk"; }
median() { stats_of | cut -d' ' -f1; }
# spread: "min-max" of the figures, as % of their median.
spread() {
	stats_of | awk '{ printf "%+.0f..%+.0f%%", 100 * ($2 / $1 - 1), 100 * ($3 / $1 - 1) }'
}

# measure NAME ARGS...: ROUNDS pairs, off then on.
measure() {
	name=$1
	shift
	: >"$tmp/off" && : >"$tmp/on"
	for _ in $(seq 1 "$ROUNDS"); do
		ops_per_s "$@" >>"$tmp/off"
		ops_per_s "$@" --kernel-locks >>"$tmp/on"
	done
	off=$(median <"$tmp/off")
	on=$(median <"$tmp/on")
	awk -v n="$name" -v off="$off" -v on="$on" -v so="$(spread <"$tmp/off")" -v sn="$(spread <"$tmp/on")" 'BEGIN {
		d = off > 0 ? 100 * (on / off - 1) : 0
		printf "  %-8s off %12.0f  on %12.0f ops/s  %+6.2f%%  (target within 3%%: %s; spread off %s, on %s)\n",
			n, off, on, d, (d >= -3 ? "ok" : "MISSED"), so, sn
	}'
}

echo "kernel lock capture overhead (median of $ROUNDS alternating pairs, ${SECONDS_PER_RUN} s each, capture off vs on;"
where=${OVERHEAD_DIR:-the default directory (\$TMPDIR or /tmp)}
echo "  file workloads in $where; load average before: $(cut -d' ' -f1-3 /proc/loadavg)):"
for w in $WORKLOADS; do
	dir=
	! in_list "$w" "$TAKES_DIR" || dir=${OVERHEAD_DIR:-}
	if in_list "$w" "$IN_KERNEL"; then
		measure "$w" -l "$KERNEL_BASE" -w "$w" -t $((4 * NCPU)) -d "$SECONDS_PER_RUN" ${dir:+--dir "$dir"}
	else
		measure "$w" -l "$PROGRAM_BASE" -w "$w" -t "$NCPU" -d "$SECONDS_PER_RUN" ${dir:+--dir "$dir"}
	fi
done
echo "  (load average after: $(cut -d' ' -f1-3 /proc/loadavg))"
