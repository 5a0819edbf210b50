#!/bin/sh
# sim-validate-kernel.sh — issue 39's "Checked against this machine", kernel
# part: today's mutex as the model has it (the newest kernel mutex model:
# the last of `lockbench --list`'s simulated locks in the patch table; kernel
# semantics) on the kernel workload (`workload NAME kernel`), simulated on
# PROFILE's 2 CPUs, against the running kernel's own lock on the same
# workload (lockbench's kernel row: `-l KERNEL-BASELINE -w WORKLOAD
# --kernel-locks`, the kernel's mutex waits timed by BPF), at 2, 4 and 8
# threads, REPS of each, interleaved.  Prints a markdown table: for
# contended acquisitions per operation, the contended acquisitions' mean
# cycles and the share of them that ended without sleeping (the kernel's
# `spin` class against the model's acq_spin + nosleep_unqueued: results/
# README.md, "Mutex waits by how they ended"), the real median with the
# order-statistic interval of the median (min..max of REPS), the simulated
# median over REPS seeds, sim/real, and whether it is within 1.5x (the
# issue's target); ops/s too, for the reader (no target).
#
#   scripts/sim-validate-kernel.sh [REPS [PROFILE]]   (default 5 here; run `make` first; root, BTF)
#   SIM_VALIDATE_THREADS overrides the list, SIM_VALIDATE_LOCK the model and
#   SIM_VALIDATE_WORKLOAD the workload; REAL_D and SIM_D the measured
#   seconds (real 0.5 after 0.1 of warm-up; simulated 0.05 after 0.02);
#   SIM_VALIDATE_DIR the real runs' file system (default /dev/shm, where the
#   calibration measured the kernel workload); SIM_VALIDATE_SAVE=DIR keeps every run's
#   figures (DIR/real-THREADS, DIR/sim-THREADS: "ops/s contended/op
#   contended-mean spin-share" a line); SIM_VALIDATE_REAL=DIR takes the real
#   figures from such a DIR instead of running them (not interleaved then).
#   SIM_VALIDATE_SCHED=MODEL: the simulated runs' scheduler (--sim-sched).
set -u
LC_ALL=C
export LC_ALL
REPS=${1:-5}
PROFILE=${2:-here}
THREADS=${SIM_VALIDATE_THREADS:-2 4 8}
REAL_D=${REAL_D:-0.5}
SIM_D=${SIM_D:-0.05}
WDIR=${SIM_VALIDATE_DIR:-/dev/shm}
top=$(cd "$(dirname "$0")/.." && pwd) || exit 2
PROG=sim-validate-kernel.sh
. "$top/scripts/sim-validate-common.sh"
LB=${LOCKBENCH:-$top/bench/lockbench}
case $REPS in '' | *[!0-9]* | 0) echo "sim-validate-kernel.sh: REPS '$REPS' is not a whole number >= 1" >&2; exit 2 ;; esac
[ -x "$LB" ] || { echo "sim-validate-kernel.sh: no $LB (run make first)" >&2; exit 2; }
sweep_registry
MODEL=${SIM_VALIDATE_LOCK:-$(sweep_models | tail -n 1)}
KERNEL=$(sweep_role kernel-baseline | head -n 1)
WORKLOAD=${SIM_VALIDATE_WORKLOAD:-$(sweep_workload kernel)}
[ -n "$MODEL" ] && [ -n "$KERNEL" ] && [ -n "$WORKLOAD" ] ||
	{ echo "sim-validate-kernel.sh: the registry has no kernel model, kernel baseline or kernel workload" >&2; exit 2; }
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT

# KIND THREADS REP: one run; "ops/s contended/op mean spin-share" appended to tmp/KIND-THREADS.
run() {
	d=$tmp/$1-$2-$3
	[ "$1" != real ] || ! reuse_real "real-$2" "$3" || return 0
	if [ "$1" = real ]; then
		"$LB" -l "$KERNEL" -w "$WORKLOAD" -t "$2" -d "$REAL_D" --warmup 0.1 --dir "$WDIR" --kernel-locks \
			--quiet -o "$d" 2>"$tmp/err"
	else
		"$LB" -l "$MODEL" -w "$WORKLOAD" -t "$2" -d "$SIM_D" --warmup 0.02 --sim "$PROFILE" --sim-cpus 2 \
			--sim-semantics kernel --sim-seed "$3" ${SIM_VALIDATE_SCHED:+--sim-sched "$SIM_VALIDATE_SCHED"} \
			--quiet -o "$d" 2>"$tmp/err"
	fi || { echo "sim-validate-kernel.sh: $1 -t $2: $(cat "$tmp/err")" >&2; exit 1; }
	# Real: the kernel's mutex waits (those of the one mutex the kernel
	# workload meets); simulated: the model's contended acquisitions.
	awk -F, -v kind="$1" '{ v[$1] = $2 } END {
		if (kind == "real") {
			c = v["kernel_contentions_mutex"]; s = v["kernel_wait_cycles_sum_mutex"]; sp = v["kernel_mutex_via_spin"]
		} else {
			c = v["contentions"]; s = v["contended_acq_cycles_sum"]; sp = v["acq_spin"] + v["nosleep_unqueued"]
		}
		if (v["ops_per_s"] == "") exit 1
		printf "%s %.6f %.1f %.4f\n", v["ops_per_s"], (v["ops"] > 0 ? c / v["ops"] : 0), (c > 0 ? s / c : 0),
			(c > 0 ? sp / c : 0)
	}' "$d/summary.csv" >>"$tmp/$1-$2" || { echo "sim-validate-kernel.sh: $1 -t $2: $d/summary.csv unreadable" >&2; exit 1; }
	rm -rf "$d"
}

rep=1
while [ "$rep" -le "$REPS" ]; do
	for t in $THREADS; do
		run real "$t" "$rep"
		run sim "$t" "$rep"
	done
	rep=$((rep + 1))
done
save_figures


echo "| threads | figure | real (f_pos_lock): median [min, max] | sim ($MODEL) | sim/real | within 1.5x |"
echo "|---|---|---|---|---|---|"
for t in $THREADS; do
	for k in 1 2 3 4; do
		echo "$t $k $(stats "$tmp/real-$t" "$k") $(stats "$tmp/sim-$t" "$k")"
	done
done | awk '
	function ratio(a, b) { return b > 0 ? a / b : (a > 0 ? "inf" : 1) }
	function met(r, f) { return r != "inf" && r >= 1 / f && r <= f ? "yes" : "**no**" }
	function fmt(r) { return r == "inf" ? "inf" : sprintf("%.2f", r) }
	BEGIN { name[1] = "ops/s"; name[2] = "contended/op"; name[3] = "contended mean, cycles"; name[4] = "ended without sleeping" }
	{
		r = ratio($6, $3)
		f = $2 == 2 || $2 == 4 ? "%.4f" : "%.0f"
		printf "| %s | %s | " f " [" f ", " f "] | " f " | %s | %s |\n", $1, name[$2], $3, $4, $5, $6, fmt(r),
			$2 == 1 ? "-" : met(r, 1.5)
	}'
