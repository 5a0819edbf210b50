#!/bin/sh
# run-all-quick.t — `./run-all --quick` is a first look (issue 42): its plan
# fits the 5 minutes it promises on a 2-CPU machine, by the plan's own
# estimate (the plan is tested, not the wall time), while a full plan keeps
# every lock and thread count.
top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/tap.sh"
LB=${LOCKBENCH:-$top/bench/lockbench}
case $LB in /*) ;; *) LB=$PWD/$LB ;; esac
echo "1..5"

# planned NAME ARGS...: run-all ARGS into $tmp/NAME, stopped once its first
# run starts: its plan, and what it said before the runs in $tmp/NAME.out.
planned() {
	name=$1
	shift
	stop_at "^\[1/" "$tmp/$name.out" "$top/run-all" --lockbench "$LB" "$@" --out "$tmp/$name"
}
# secs M:SS: seconds
secs() { echo "$1" | awk -F: '{ print $1 * 60 + $2 }'; }

# --- the --quick plan: within 5 minutes on 2 CPUs, by its estimate ---
# The 5 minutes hold the whole command: the build when there is nothing to
# make (a few seconds), the runs and simulated runs the estimate counts, and
# the report after them (lbcompare, gnuplot), which took 26 s on this 2-CPU
# VM after a --quick run of 335 runs, under a load average of 7 to 21 from
# other sessions (docs/run-all.md): REPORT_S, that rounded up.
REPORT_S=30
ncpu=$(getconf _NPROCESSORS_ONLN)
planned quick --quick
est=$(sed -n 's/^run-all: [0-9]* runs in .*: about \([0-9]*:[0-9][0-9]\)$/\1/p' "$tmp/quick.out")
echo "# --quick on $ncpu CPUs: $(wc -l <"$tmp/quick/plan.txt") runs, about $est"
if [ "$ncpu" -eq 2 ]; then
	check "--quick's plan on 2 CPUs, with its report, fits 5 minutes by its estimate (about $est + ${REPORT_S} s)" \
		'[ -n "$est" ] && [ $(($(secs "$est") + REPORT_S)) -le 300 ]'
else
	ok "# skip the 5 minutes are promised for a 2-CPU machine; this one has $ncpu"
fi
plan=$tmp/quick/variants.txt
# The registry's locks, less Concurrency Kit's and the patch table's.
others=$("$LB" --list | awk '/^[a-z]+:$/ { sec = $0; next }
	sec == "locks:" && !/Concurrency Kit/ { l[++n] = $1 } sec == "plan:" && $1 == "patch-lock" { p[$2] = 1 }
	END { for (i = 1; i <= n; i++) if (!p[l[i]]) printf "%s ", l[i] }')
check "its sweep leaves out Concurrency Kit's locks and the patch table's, not the others" \
	'! grep -q "^sweep-counter-t[0-9]*-ck-" "$plan" && ! grep -q "^sweep-counter-t[0-9]*-kmutex-" "$plan" &&
	 ! grep -q "^sweep-counter-t[0-9]*-pthread " "$plan" && grep -q "^sweep-counter-t1-none " "$plan" &&
	 [ "$(grep "^sweep-counter-t4-" "$plan" | awk "{ print \$3 }" | tr "\n" " ")" = "$others" ] && [ -n "$others" ]'
check "the patch experiment keeps every lock of the patch table" \
	'[ "$(grep "^patch-creat-" "$plan" | awk "{ print \$3 }" | tr "\n" " ")" = "$("$LB" --list |
		awk "\$1 == \"patch-lock\" && (\$3 == \"always\" || \"$(grep -c -- " --kernel-locks" "$plan")\" > 0) { printf \"%s \", \$2 }")" ]'
check "the kernel experiment, where it runs, at one thread count (4x the CPUs); the programs under the pair and pthread" \
	'[ "$(grep "^kernel-" "$plan" | awk "{ print \$7 }" | sort -u | tr "\n" " ")" = "" ] ||
	 [ "$(grep "^kernel-" "$plan" | awk "{ print \$7 }" | sort -u | tr "\n" " ")" = "$((4 * ncpu)) " ] &&
	 { ! grep -q "^program-" "$plan" ||
	   [ "$(grep "^program-" "$plan" | awk "{ print \$6 }" | sort -u | tr "\n" " ")" = "kmutex-fix kmutex-spin pthread " ]; }'

# --- the full plan keeps everything ---
# --no-sim: the full plan's simulated section sizes fserver by a pilot of
# each model at 256 threads, which under make tsan's build outlasts
# stop_at's 90 s (it failed so); this check is of the real runs' plan.
planned full --no-sim
plan=$tmp/full/variants.txt
check "a full run's sweep keeps Concurrency Kit's locks and every kmutex model, and the kernel's three thread counts" \
	'grep -q "^sweep-counter-t1-ck-mcs " "$plan" && grep -q "^sweep-counter-t1-kmutex-sleep " "$plan" &&
	 { ! grep -q "^kernel-" "$plan" || [ "$(grep "^kernel-" "$plan" | awk "{ print \$7 }" | sort -un | wc -l)" -eq 3 ]; }'
