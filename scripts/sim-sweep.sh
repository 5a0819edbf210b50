# sim-sweep.sh — sourced by sim-scaling.sh, sim-sensitivity.sh and
# sim-validate-common.sh (issue 41's sweeps on a simulated machine, docs/sim.md
# "The seed's machine"; issue 39's checks): their arguments' checks, the
# registry's sets they drive and how they sum up a figure over seeds.  Needs PROG (the
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

# The locks and workloads the experiments drive come from the registry
# (`lockbench --list`, read by scripts/registry.sh), none from a name written
# here.  sweep_registry reads the list once (else one line and exit 2); then:
#   sweep_role KIND   the plan: lines of KIND, their first words, one a line
#                     (patch-lock: the patch table's locks, the first two the
#                     patch pair, baseline then fix; kernel-baseline ...);
#   sweep_models      the kernel mutex models: simulated, in the patch table
#                     and excluding (not no-exclusion), in --list's (the
#                     kernels') order;
#   sweep_workload ROLE  the first workload of ROLE (sweep, patch, kernel);
#   sweep_takes_dir NAME  the workload NAME makes files under --dir.
. "$top/scripts/registry.sh"
sweep_registry() { sweep_list=$("$LB" --list) || sweep_die "$LB --list failed"; }
sweep_role() { printf '%s\n' "$sweep_list" | registry_plan "$1" | awk '{ print $1 }'; }
sweep_models() {
	printf '%s\n' "$sweep_list" | registry_names simulated |
		awk -v patch=" $(sweep_role patch-lock | tr '\n' ' ') " -v noex=" $(sweep_role no-exclusion | tr '\n' ' ') " \
			'index(patch, " " $1 " ") && !index(noex, " " $1 " ")'
}
sweep_workload() { printf '%s\n' "$sweep_list" | registry_plan workload | awk -v r="$1" '$2 == r { print $1; exit }'; }
sweep_takes_dir() { in_list "$1" "$(sweep_role takes-dir | tr '\n' ' ')"; }
