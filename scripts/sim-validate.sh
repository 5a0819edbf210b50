#!/bin/sh
# sim-validate.sh — issue 39's "Checked against this machine", userspace part:
# the sweep workload with every simulated lock that excludes (`lockbench
# --list`'s simulated: less its no-exclusion locks) at 1, 2, 4 and 8
# threads, real runs on this machine against simulated ones (PROFILE, default
# here, on 2 simulated CPUs, userspace semantics), REPS of each, interleaved.
# Prints a markdown table: for acquisitions/s (the issue's ops/s: a
# simulated op is one acquisition) and contended acquisitions per
# acquisition, the real median with the order-statistic interval of the median
# (min..max of REPS: 1 - 2/2^REPS, 94% at 5), the simulated median over REPS
# seeds, sim/real, and whether it is within 1.5x; then each lock's
# acquisitions/s against the first lock's (the ratios' base) at the same
# threads, real and simulated, and whether the simulated ratio is within
# 1.25x of the real one (the issue's targets).
#
#   scripts/sim-validate.sh [REPS [PROFILE]]   (default 5 here; run `make` first)
#   SIM_VALIDATE_LOCKS, SIM_VALIDATE_THREADS override the lists; REAL_D and
#   SIM_D the measured seconds (real: 0.2 after 0.1 of warm-up; simulated:
#   0.05 after 0.02, simulated seconds: a simulated second of the sweep
#   workload at one thread is ~20 M acquisitions, ~20 s here).
#   SIM_VALIDATE_WORKLOAD: the sweep workload (--list's `workload NAME sweep`,
#   default) or another workload the profile has times for (a file workload's
#   real runs make their files under SIM_VALIDATE_DIR, default /dev/shm, as the
#   calibration measured them).  SIM_VALIDATE_SAVE=DIR keeps every run's two
#   figures there (DIR/real-LOCK-THREADS, DIR/sim-...: "acq/s contended/acq" a
#   line); SIM_VALIDATE_REAL=DIR takes the real figures from such a DIR instead
#   of running them (a profile or simulator changed since: the sim side again,
#   the real side as measured then; the table is then not interleaved).
#   SIM_VALIDATE_SCHED=MODEL: the simulated runs' scheduler (--sim-sched;
#   default the profile's: here, cfs-2.6.34; this machine runs eevdf-6.x).
set -u
LC_ALL=C
export LC_ALL
REPS=${1:-5}
PROFILE=${2:-here}
THREADS=${SIM_VALIDATE_THREADS:-1 2 4 8}
REAL_D=${REAL_D:-0.2}
SIM_D=${SIM_D:-0.05}
WDIR=${SIM_VALIDATE_DIR:-/dev/shm}
top=$(cd "$(dirname "$0")/.." && pwd) || exit 2
PROG=sim-validate.sh
. "$top/scripts/sim-validate-common.sh"
LB=${LOCKBENCH:-$top/bench/lockbench}
case $REPS in '' | *[!0-9]* | 0) echo "sim-validate.sh: REPS '$REPS' is not a whole number >= 1" >&2; exit 2 ;; esac
[ -x "$LB" ] || { echo "sim-validate.sh: no $LB (run make first)" >&2; exit 2; }
sweep_registry
LOCKS=${SIM_VALIDATE_LOCKS:-$(printf '%s\n' "$sweep_list" | registry_names simulated |
	awk -v noex=" $(sweep_role no-exclusion | tr '\n' ' ') " '!index(noex, " " $1 " ")' | tr '\n' ' ')}
WORKLOAD=${SIM_VALIDATE_WORKLOAD:-$(sweep_workload sweep)}
# shellcheck disable=SC2086 # the list's first word
BASE=$(set -- $LOCKS; echo "${1:-}")
[ -n "$BASE" ] || { echo "sim-validate.sh: no lock to run (SIM_VALIDATE_LOCKS is empty)" >&2; exit 2; }
tmp=$(mktemp -d) || exit 2
trap '[ -n "${SIM_VALIDATE_KEEP:-}" ] || rm -rf "$tmp"' EXIT
dirarg=
! sweep_takes_dir "$WORKLOAD" || dirarg=--dir

# KIND LOCK THREADS REP: one run, its "acquisitions/s contended/acquisition" appended to tmp/KIND-LOCK-THREADS.
run() {
	d=$tmp/$1-$2-$3-$4
	[ "$1" != real ] || ! reuse_real "real-$2-$3" "$4" || return 0
	if [ "$1" = real ]; then
		"$LB" -l "$2" -w "$WORKLOAD" -t "$3" -d "$REAL_D" --warmup 0.1 ${dirarg:+"$dirarg" "$WDIR"} \
			--quiet -o "$d" 2>"$tmp/err"
	else
		"$LB" -l "$2" -w "$WORKLOAD" -t "$3" -d "$SIM_D" --warmup 0.02 --sim "$PROFILE" --sim-cpus 2 \
			--sim-semantics user --sim-seed "$4" ${SIM_VALIDATE_SCHED:+--sim-sched "$SIM_VALIDATE_SCHED"} \
			--quiet -o "$d" 2>"$tmp/err"
	fi || { echo "sim-validate.sh: $1 $2 -t $3: $(cat "$tmp/err")" >&2; exit 1; }
	# Acquisitions a second, not ops/s: a simulated op is one acquisition,
	# a real op may be more (a file workload's create and unlink: two).
	awk -F, '$1 == "measured_s" { m = $2 } $1 == "acquisitions" { a = $2 } $1 == "contentions" { c = $2 }
		END { if (m <= 0) exit 1; printf "%.3f %.6f\n", a / m, (a > 0 ? c / a : 0) }' "$d/summary.csv" \
		>>"$tmp/$1-$2-$3" || { echo "sim-validate.sh: $1 $2 -t $3: $d/summary.csv unreadable" >&2; exit 1; }
	rm -rf "$d"
}

# Interleaved: a disturbance of the machine falls on every lock alike.
rep=1
while [ "$rep" -le "$REPS" ]; do
	for t in $THREADS; do
		for l in $LOCKS; do
			run real "$l" "$t" "$rep"
			run sim "$l" "$t" "$rep"
		done
	done
	rep=$((rep + 1))
done
save_figures


echo "| lock | threads | real acq/s: median [min, max] | sim acq/s | sim/real | within 1.5x | real contended/acq: median [min, max] | sim contended/acq | sim/real | within 1.5x | acq/s vs $BASE: real | sim | within 1.25x |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|"
for t in $THREADS; do
	# shellcheck disable=SC2046 # the medians' words, split on purpose
	set -- $(stats "$tmp/real-$BASE-$t" 1) $(stats "$tmp/sim-$BASE-$t" 1)
	base_real=$1 base_sim=$4
	for l in $LOCKS; do
		echo "$l $t $(stats "$tmp/real-$l-$t" 1) $(stats "$tmp/sim-$l-$t" 1) $(stats "$tmp/real-$l-$t" 2)" \
			"$(stats "$tmp/sim-$l-$t" 2) $base_real $base_sim"
	done
done | awk -v base="$BASE" '
	# a/b, and whether it is within f of 1 either way ("both 0" counts as met)
	function ratio(a, b) { return b > 0 ? a / b : (a > 0 ? "inf" : 1) }
	function met(r, f) { return r != "inf" && r >= 1 / f && r <= f ? "yes" : "**no**" }
	function fmt(r) { return r == "inf" ? "inf" : sprintf("%.2f", r) }
	{
		ro = ratio($6, $3); rc = ratio($12, $9)
		lr = ratio($3, $15); ls = ratio($6, $16); rr = lr == "inf" || ls == "inf" ? "inf" : ratio(ls, lr)
		printf "| %s | %s | %.0f [%.0f, %.0f] | %.0f | %s | %s | %.4f [%.4f, %.4f] | %.4f | %s | %s | %s | %s | %s |\n",
			$1, $2, $3, $4, $5, $6, fmt(ro), met(ro, 1.5), $9, $10, $11, $12, fmt(rc), met(rc, 1.5),
			fmt(lr), fmt(ls), $1 == base ? "-" : met(rr, 1.25)
	}'
