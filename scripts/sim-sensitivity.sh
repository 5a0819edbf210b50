#!/bin/sh
# sim-sensitivity.sh — issue 41's "What the answer depends on" (docs/sim.md,
# "The seed's machine"): every numeric constant of PROFILE (default
# nehalem-ex-64) but its topology — the latencies, the clock, the kernel's
# costs, the scheduler's parameters and HZ, and the workloads' times as one
# scale — halved and doubled, one at a time, and for each the fix/spin ratio
# of ops/s: the patch workload, the patch pair's baseline ("spin") against
# its fix (`lockbench --list`'s first two patch-lock lines), kernel semantics, 64
# simulated CPUs, 128 threads, REPS seeds (one ratio per seed, the two locks'
# runs with that seed; its median and [min, max], as scripts/sim-scaling.sh).
#
# Prints a markdown table sorted by the largest change from the unmodified
# profile's ratio (either way: the larger of |log(ratio / unmodified)| of the
# two), and how long it took.  The profile itself is never written: each
# variant is a copy in a temporary directory whose changed line says, as
# every profile constant must say its source, "derived: x0.5 of ... for the
# sensitivity table".  A whole-number key (HZ, nr_latency, scaling_cap) is
# rounded to a whole number; the table gives the value each run used.  A
# ratio reads nan where the baseline made no acquisition in a run (too short
# a run), 0 where the fix made none; either sorts first.
#
#   scripts/sim-sensitivity.sh [REPS [SIM_D]]   (default 3 0.05; run make first)
#   SIM_D: simulated seconds measured, after SIM_WARMUP (0.02) of warm-up;
#   SIM_SENS_PROFILE (a name in sim/profiles/ or a path), SIM_SENS_CPUS (64)
#   override the profile and the CPUs (threads: twice the CPUs).
set -u
LC_ALL=C
export LC_ALL
REPS=${1:-3}
SIM_D=${2:-0.05}
PROFILE=${SIM_SENS_PROFILE:-nehalem-ex-64}
NCPU=${SIM_SENS_CPUS:-64}
SIM_WARMUP=${SIM_WARMUP:-0.02}
top=$(cd "$(dirname "$0")/.." && pwd) || exit 2
LB=${LOCKBENCH:-$top/bench/lockbench}
PROG=sim-sensitivity.sh
. "$top/scripts/sim-sweep.sh"
sweep_args "$REPS" "$SIM_D" "$SIM_WARMUP" "$NCPU"
sweep_registry
PAIR=$(sweep_role patch-lock | head -n 2 | tr '\n' ' ')
WORKLOAD=$(sweep_workload patch)
# shellcheck disable=SC2086 # the pair, two words
[ "$(echo $PAIR | wc -w)" -eq 2 ] && [ -n "$WORKLOAD" ] || sweep_die "the registry has no patch pair or no patch workload"
case $PROFILE in
*/* | *.profile) SRC=$PROFILE ;;
*) SRC=$top/sim/profiles/$PROFILE.profile ;;
esac
if [ ! -f "$SRC" ] || [ ! -r "$SRC" ]; then sweep_die "no profile $SRC"; fi
tmp=$(mktemp -d) || exit 2
trap '[ -n "${SIM_SENS_KEEP:-}" ] || rm -rf "$tmp"' EXIT
t0=$(date +%s)
NAME=${SRC#"$top"/}

# The constants varied: each numeric key but topology.*, one per line;
# every workload.* line together as "workload.*".
keys=$(awk '/^[a-z0-9._-]+ = [-0-9.eE+]+ +#/ && $1 !~ /^topology\./ && $1 !~ /^workload\./ { print $1 }
	/^workload\./ && !w++ { print "workload.*" }' "$SRC")
[ -n "$keys" ] || sweep_die "$SRC has no numeric constants"

# KEY FACTOR OUTFILE: the profile with KEY's value (every point of each
# workload.* time line: acq_per_op is a count) times FACTOR, its source saying so.  Whole-number keys
# are rounded (at least 1).
variant() {
	awk -v key="$1" -v f="$2" -v name="$NAME" '
		BEGIN { CONVFMT = "%.10g" }
		function num(x, whole) { x *= f; if (whole) { x = int(x + 0.5); if (x < 1) x = 1 }; return x "" }
		function src(old) { return "# derived: x" f " of " old ", " name "'"'"'s " $1 ", for the sensitivity table" }
		# acq_per_op is a count of the workload (its locked calls an op), no time: kept
		key == "workload.*" && /^workload\.[a-z0-9_-]+\.[a-z_]+ = / && $1 !~ /\.acq_per_op$/ {
			out = $1 " ="; old = ""
			for (i = 3; i <= NF && $i != "#"; i++) {
				old = old (old == "" ? "" : " ") $i
				if (split($i, pt, "%:") == 2) out = out " " pt[1] "%:" num(pt[2], 0)
				else out = out " " num($i, 0)
			}
			print out "  " src(old); next
		}
		$1 == key && $2 == "=" {
			whole = key ~ /\.(hz|nr_latency|scaling_cap)$/
			print $1 " = " num($3, whole) "  " src($3); next
		}
		{ print }' "$SRC" >"$3"
}
# The value a variant gave KEY (the first point of the first workload line for workload.*).
value_of() { awk -v key="$1" '$1 == key || (key == "workload.*" && $1 ~ /^workload\./) { print $3; exit }' "$2"; }

# TAG PROFILEFILE: REPS seeds of both locks; "median min max" of the per-seed ratio into tmp/TAG.
ratio() {
	: >"$tmp/r"
	s=1
	while [ "$s" -le "$REPS" ]; do
		for l in $PAIR; do
			rm -rf "$tmp/run"
			"$LB" -l "$l" -w "$WORKLOAD" -t $((NCPU * 2)) -d "$SIM_D" --warmup "$SIM_WARMUP" --sim "$2" \
				--sim-cpus "$NCPU" --sim-semantics kernel --sim-seed "$s" --quiet -o "$tmp/run" 2>"$tmp/err" ||
				{ echo "sim-sensitivity.sh: $1: lockbench -l $l: $(cat "$tmp/err")" >&2; exit 1; }
			awk -F, '$1 == "ops_per_s" { printf "%s ", $2 }' "$tmp/run/summary.csv" >>"$tmp/r"
		done
		echo >>"$tmp/r"
		s=$((s + 1))
	done
	awk '{ print ($1 > 0 ? $2 / $1 : "nan") }' "$tmp/r" | sweep_median >"$tmp/$1"
}

cp "$SRC" "$tmp/base.profile"
ratio base "$tmp/base.profile"
i=0
for k in $keys; do
	i=$((i + 1))
	for f in 0.5 2; do
		variant "$k" "$f" "$tmp/v.profile"
		cmp -s "$SRC" "$tmp/v.profile" && sweep_die "$k: the variant x$f changed nothing"
		ratio "k$i-$f" "$tmp/v.profile"
		value_of "$k" "$tmp/v.profile" >"$tmp/k$i-$f.value"
	done
	echo "$k $(value_of "$k" "$SRC")" >"$tmp/k$i.key"
done
t1=$(date +%s)

read -r bm blo bhi <"$tmp/base"
printf 'Unmodified %s: fix/spin ops/s %.2f [%.2f, %.2f] (median [min, max] of %s seeds), %s CPUs, %s threads, %s simulated s each.\n' \
	"$NAME" "$bm" "$blo" "$bhi" "$REPS" "$NCPU" $((NCPU * 2)) "$SIM_D"
echo
echo "| constant | value | x0.5: value | fix/spin ops/s | vs unmodified | x2: value | fix/spin ops/s | vs unmodified |"
echo "|---|---|---|---|---|---|---|---|"
j=1
while [ "$j" -le "$i" ]; do
	echo "$(cat "$tmp/k$j.key") $(cat "$tmp/k$j-0.5.value") $(cat "$tmp/k$j-0.5") $(cat "$tmp/k$j-2.value") $(cat "$tmp/k$j-2")"
	j=$((j + 1))
done | awk -v b="$bm" '
	# the change against the unmodified ratio, and its size either way
	# (none left: no acquisition of the fix in a run, larger than any)
	function ch(r) { return b > 0 ? r / b : 1 }
	function lg(x) { return x > 0 ? (log(x) < 0 ? -log(x) : log(x)) : 1e9 }
	{
		h = ch($4); d = ch($8); e = lg(h) > lg(d) ? lg(h) : lg(d)
		printf "%.6f| %s | %s | %s | %.2f [%.2f, %.2f] | %.2fx | %s | %.2f [%.2f, %.2f] | %.2fx |\n",
			e, $1, $2, $3, $4, $5, $6, h, $7, $8, $9, $10, d
	}' | sort -t'|' -k1,1gr | cut -d'|' -f2- | sed 's/^/|/'
echo
echo "sim-sensitivity.sh: $((t1 - t0)) s for $(((2 * i + 1) * 2 * REPS)) simulated runs ($i constants)"
