#!/bin/sh
# sim-scaling.sh — issue 41's "Where the fix begins" (docs/sim.md, "The seed's
# machine"): the patch workload (`lockbench --list`'s first `workload NAME
# patch`), the patch pair's baseline ("spin", the first patch-lock) against
# its fix (the second), kernel semantics, on PROFILE's machine (default
# nehalem-ex-64) at 2, 4, 8, 16, 32, 64 and 128 simulated CPUs, threads = 2 x
# CPUs, REPS seeds each; beside them this machine's real 2-CPU point
# (lockbench -l SPIN|FIX -w WORKLOAD -t 4, REPS real runs of each,
# interleaved) and the same simulated on this machine's profile (--sim here
# --sim-cpus 2 -t 4, REPS seeds).
#
# For each point, the fix/spin ratio of ops/s and of CPU time per operation
# (cpu_us_per_op: a simulated run's is virtual, docs/sim.md): one ratio per
# seed (the fix's run with seed s over the spin's with seed s; real: per
# round, the two runs of one round), then their median and [min, max] over
# the REPS of them: for the median, a distribution-free interval of
# 1 - 2/2^REPS (94% at 5), as scripts/sim-validate.sh gives it.
#
# Prints a markdown table and how long it took; writes OUT.dat (CSV, one row
# per point: machine,cpus,threads, each ratio's median,lo,hi, then the two
# locks' medians) and OUT.svg and OUT.png (scripts/sim-scaling.gp) where
# gnuplot is.
#
#   scripts/sim-scaling.sh [REPS [SIM_D [OUT]]]   (default 5 0.05 sim-scaling; run make first)
#   SIM_D: simulated seconds measured, after SIM_WARMUP (0.02) of warm-up.
#   SIM_SCALING_PROFILE, SIM_SCALING_CPUS override the profile and the CPU
#   counts; REAL_D the real runs' measured seconds (0.5, after 0.1 of warm-up;
#   0 leaves the real runs out), SIM_SCALING_DIR their --dir (default /dev/shm
#   when writable, as run-all runs the workloads that make files).
set -u
LC_ALL=C
export LC_ALL
REPS=${1:-5}
SIM_D=${2:-0.05}
OUT=${3:-sim-scaling}
PROFILE=${SIM_SCALING_PROFILE:-nehalem-ex-64}
CPUS=${SIM_SCALING_CPUS:-2 4 8 16 32 64 128}
SIM_WARMUP=${SIM_WARMUP:-0.02}
REAL_D=${REAL_D:-0.5}
top=$(cd "$(dirname "$0")/.." && pwd) || exit 2
LB=${LOCKBENCH:-$top/bench/lockbench}
PROG=sim-scaling.sh
. "$top/scripts/sim-sweep.sh"
# shellcheck disable=SC2086 # the CPU counts, split on purpose
sweep_args "$REPS" "$SIM_D" "$SIM_WARMUP" $CPUS
[ "$REAL_D" = 0 ] || sweep_seconds "$REAL_D" || sweep_die "REAL_D '$REAL_D' is not a number of seconds >= 0"
(: >"$OUT.dat") 2>/dev/null || sweep_die "cannot write $OUT.dat"
sweep_registry
# shellcheck disable=SC2046 # the pair's two names
set -- $(sweep_role patch-lock | head -n 2)
SPIN=${1:-} FIX=${2:-}
WORKLOAD=$(sweep_workload patch)
[ -n "$FIX" ] && [ -n "$WORKLOAD" ] || sweep_die "the registry has no patch pair or no patch workload"
DIR=${SIM_SCALING_DIR:-/dev/shm}
[ -d "$DIR" ] && [ -w "$DIR" ] || DIR=${TMPDIR:-/tmp}
tmp=$(mktemp -d) || exit 2
trap '[ -n "${SIM_SCALING_KEEP:-}" ] || rm -rf "$tmp"' EXIT
t0=$(date +%s)

# FILE ARGS...: one lockbench run, its "ops_per_s cpu_us_per_op" appended to FILE.
run() {
	f=$1 d=$tmp/run
	shift
	rm -rf "$d"
	"$LB" "$@" --quiet -o "$d" 2>"$tmp/err" ||
		{ echo "sim-scaling.sh: lockbench $*: $(cat "$tmp/err")" >&2; exit 1; }
	awk -F, '$1 == "ops_per_s" { o = $2 } $1 == "cpu_us_per_op" { c = $2 } END { print o, c }' \
		"$d/summary.csv" >>"$tmp/$f"
}
# KEY LOCK CPUS PROFILE SEED: a simulated run into tmp/KEY-LOCK.
sim() {
	run "$1-$2" -l "$2" -w "$WORKLOAD" -t $(($3 * 2)) -d "$SIM_D" --warmup "$SIM_WARMUP" --sim "$4" --sim-cpus "$3" \
		--sim-semantics kernel --sim-seed "$5"
}

# This machine's real point first, the two locks interleaved round by round:
# a disturbance of the machine falls on both alike.  The load is printed:
# unlike a simulated figure, a real one depends on it.
load0=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)
if [ "$REAL_D" != 0 ]; then
	rep=1
	while [ "$rep" -le "$REPS" ]; do
		for l in "$SPIN" "$FIX"; do
			run "real-$l" -l "$l" -w "$WORKLOAD" -t 4 -d "$REAL_D" --warmup 0.1 --dir "$DIR"
		done
		rep=$((rep + 1))
	done
fi
load1=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)
t1=$(date +%s)
seed=1
while [ "$seed" -le "$REPS" ]; do
	for l in "$SPIN" "$FIX"; do
		sim here-2 "$l" 2 here "$seed"
		for n in $CPUS; do
			sim "sim-$n" "$l" "$n" "$PROFILE" "$seed"
		done
	done
	seed=$((seed + 1))
done
t2=$(date +%s)

# KEY: "median min max" of the fix/spin ratio of each column (ops/s, CPU per
# op), one ratio per line pair, then the two locks' medians of each column.
ratios() {
	paste -d' ' "$tmp/$1-$FIX" "$tmp/$1-$SPIN" | awk '
		function r(a, b) { return b > 0 ? a / b : "nan" }
		{ print r($1, $3), r($2, $4), $3, $1, $4, $2 }' >"$tmp/ratios"
	for k in 1 2 3 4 5 6; do
		cut -d' ' -f "$k" "$tmp/ratios" | sweep_median | { read -r m lo hi; [ "$k" -le 2 ] && echo "$m $lo $hi" || echo "$m"; }
	done | tr '\n' ' '
}
{
	echo "machine,cpus,threads,ops_ratio,ops_lo,ops_hi,cpu_ratio,cpu_lo,cpu_hi,spin_ops_s,fix_ops_s,spin_cpu_us_op,fix_cpu_us_op"
	for n in $CPUS; do
		echo "$PROFILE $n $((n * 2)) $(ratios "sim-$n")"
	done
	echo "here-simulated 2 4 $(ratios here-2)"
	[ "$REAL_D" = 0 ] || echo "here-real 2 4 $(ratios real)"
} | awk 'NR == 1 { print; next } { $1 = $1; gsub(/ /, ","); print }' >"$OUT.dat"

echo "| machine | CPUs | threads | spin ops/s | fix ops/s | fix/spin ops/s: median [min, max] | spin CPU µs/op | fix CPU µs/op | fix/spin CPU per op: median [min, max] |"
echo "|---|---|---|---|---|---|---|---|---|"
awk -F, 'NR > 1 {
	printf "| %s | %s | %s | %.0f | %.0f | %.2f [%.2f, %.2f] | %.2f | %.2f | %.2f [%.2f, %.2f] |\n",
		$1, $2, $3, $10, $11, $4, $5, $6, $12, $13, $7, $8, $9 }' "$OUT.dat"

# The chart, as run-all draws one: gnuplot in a directory of its own, every
# text a gnuplot string (gp_string).
if command -v gnuplot >/dev/null 2>&1; then
	. "$top/scripts/files.sh"
	cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null)
	machine="simulated: $PROFILE, $REPS seeds of $SIM_D s each; real and here-simulated: $(hostname), ${cpu:-?}, 2 CPUs"
	mkdir "$tmp/plot" && cp "$OUT.dat" "$tmp/plot/in.csv" || exit 1
	for fmt in svg png; do
		(cd "$tmp/plot" && gnuplot -e "gpdir=$(gp_string "$top/scripts"); in='in.csv'; out='out'; fmt='$fmt'; \
			machine=$(gp_string "$machine"); profile=$(gp_string "$PROFILE"); \
			spin=$(gp_string "$SPIN"); fix=$(gp_string "$FIX"); workload=$(gp_string "$WORKLOAD")" \
			"$top/scripts/sim-scaling.gp") &&
			cp "$tmp/plot/out.$fmt" "$OUT.$fmt" || echo "sim-scaling.sh: gnuplot failed for $OUT.$fmt" >&2
	done
else
	echo "sim-scaling.sh: gnuplot not found: no chart" >&2
fi
t3=$(date +%s)
echo
echo "sim-scaling.sh: $((t3 - t0)) s in all: real runs $((t1 - t0)) s (load average ${load0:-?} before, ${load1:-?} after), simulated $((t2 - t1)) s; $OUT.dat written"
