# sim-sweep.sh — sourced by sim-scaling.sh and sim-sensitivity.sh (issue 41's
# sweeps on a simulated machine, docs/sim.md "The seed's machine"): their
# arguments' checks and how they sum up a figure over seeds.  Needs PROG (the
# script's name, for messages) and LB (the lockbench binary).

sweep_die() { echo "$PROG: $*" >&2; exit 2; }

# sweep_args REPS SIM_D SIM_WARMUP CPUS...: each checked, else one line and exit 2.
sweep_args() {
	case $1 in '' | *[!0-9]* | 0) sweep_die "REPS '$1' is not a whole number >= 1" ;; esac
	sweep_seconds "$2" || sweep_die "SIM_D '$2' is not a number of seconds > 0"
	sweep_seconds "$3" || sweep_die "SIM_WARMUP '$3' is not a number of seconds > 0"
	shift 3
	[ $# -gt 0 ] || sweep_die "no CPU count"
	for sa_n in "$@"; do
		case $sa_n in '' | *[!0-9]* | 0*) sweep_die "a CPU count '$sa_n' is not a whole number >= 1" ;; esac
		[ "$sa_n" -le 256 ] || sweep_die "a CPU count '$sa_n' is above 256 (--sim-cpus)"
	done
	[ -x "$LB" ] || sweep_die "no $LB (run make first)"
}

# sweep_seconds X: X is a decimal number above 0.
sweep_seconds() { awk -v x="$1" 'BEGIN { exit !(x ~ /^[0-9]*\.?[0-9]+$/ && x + 0 > 0) }'; }

# sweep_median: numbers on stdin, one a line; "median min max" on stdout.  For
# the median of REPS seeds, [min, max] is a distribution-free interval of
# 1 - 2/2^REPS (94% at 5), as scripts/sim-validate.sh gives it.
# scripts/median.awk is the one median of every script.
sweep_median() { sort -g | awk -f "$top/scripts/median.awk"; }
