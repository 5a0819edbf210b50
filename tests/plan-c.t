#!/bin/sh
# plan-c.t — `lockbench --plan` (bench/plan.c), run-all's planning in C:
# `check` takes run-all's --locks, --workloads and --duration as the
# registries do, refusing in run-all's words (the nearest name, the valid
# ones); `rounds` shuffles each round's variants as run-all's make_plan did in awk
# (the reference below, kept here as the oracle: the same seed must make the
# same plan.txt as a run-all before the move), and `seconds` costs a plan by
# its rule: each run's -d and --warmup and its overhead, a simulated run's
# CPU time shared among the lanes, TIMES over; `budget` trims a plan to
# --budget's slot and `preflight` picks run-all's instant run per workload,
# each as run-all's shell did (kept below as the oracles).  Bad arguments:
# one line, 2.
top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/tap.sh"
LB=${LOCKBENCH:-$top/bench/lockbench}
case $LB in /*) ;; *) LB=$PWD/$LB ;; esac
echo "1..87"

# The shuffle as scripts/plan.sh's make_plan wrote it before issue 43.
awk_rounds() { # FILE REPS SEED
	reps=$2 seed=$3 awk '
		function rand31() { state = (state * 16807) % 2147483647; return state }
		{ name[NR] = $1; sub(/^[^ ]* /, ""); args[NR] = $0 }
		END {
			reps = ENVIRON["reps"] + 0; seed = ENVIRON["seed"] + 0
			for (r = 1; r <= reps; r++) {
				state = (seed + r * 48271) % 2147483647
				if (state == 0) state = 1
				for (i = 0; i < 8; i++) rand31()
				for (i = 1; i <= NR; i++) order[i] = i
				for (i = NR; i > 1; i--) {
					j = 1 + rand31() % i
					t = order[i]; order[i] = order[j]; order[j] = t
				}
				for (i = 1; i <= NR; i++)
					print name[order[i]] "-r" r " " args[order[i]] \
						(index(" " args[order[i]] " ", " --sim ") ? " --sim-seed " : " --seed ") r
			}
		}' "$1"
}

# --- rounds ---
for i in $(seq 1 40); do echo "v$i -l tas -w counter -t $i -d 0.3"; done >"$tmp/v40"
echo "sim-a -l kmutex-spin -w fserver --sim nehalem-ex-64 -t 256 -d 0.2" >>"$tmp/v40"
echo "last-sim -l tas -w counter --simx 1 -d 0.3 --sim" >>"$tmp/v40"
echo "simx -l tas -w counter --simx 1 -d 0.3" >>"$tmp/v40"
echo "$(printf 'long%.0s' $(seq 1 100)) -l tas -w counter -d 0.3" >>"$tmp/v40"
same=1
for rs in "1 1" "3 7" "2 2147483646" "5 123456789" "1 2147435376"; do
	set -- $rs
	"$LB" --plan rounds "$tmp/v40" "$1" "$2" >"$tmp/c.out" 2>"$tmp/c.err" || same=0
	awk_rounds "$tmp/v40" "$1" "$2" >"$tmp/a.out"
	cmp -s "$tmp/c.out" "$tmp/a.out" || { same=0; echo "# reps $1 seed $2 differ: $(diff "$tmp/a.out" "$tmp/c.out" | head -n 4)"; }
done
check "rounds: the same plan as run-all's awk shuffle, for five reps and seeds (the largest, one whose first state is 0), a 400-letter name whole" \
	'[ $same = 1 ] && [ ! -s "$tmp/c.err" ]'
"$LB" --plan rounds "$tmp/v40" 3 7 >"$tmp/r3"
check "rounds: each round runs every variant once" \
	'for r in 1 2 3; do [ "$(grep -c -- "-r$r " "$tmp/r3")" -eq 44 ] || exit 1; done; [ "$(wc -l <"$tmp/r3")" -eq 132 ]'
check "rounds: a round's order is its own (rounds 1 and 2 differ)" \
	'[ "$(grep -- "-r1 " "$tmp/r3" | cut -d" " -f1 | sed "s/-r1$//")" != "$(grep -- "-r2 " "$tmp/r3" | cut -d" " -f1 | sed "s/-r2$//")" ]'
check "rounds: a simulated variant takes --sim-seed, the others --seed; --simx is not --sim, a last --sim is" \
	'grep -q "^sim-a-r2 .* --sim nehalem-ex-64 -t 256 -d 0.2 --sim-seed 2$" "$tmp/r3" &&
	 grep -q "^last-sim-r3 .* --sim --sim-seed 3$" "$tmp/r3" &&
	 grep -q "^simx-r1 .* --simx 1 -d 0.3 --seed 1$" "$tmp/r3" && grep -q "^v40-r1 .* -d 0.3 --seed 1$" "$tmp/r3"'
"$LB" --plan rounds "$tmp/v40" 3 8 >"$tmp/r3b"
check "rounds: another seed, another order" '! cmp -s "$tmp/r3" "$tmp/r3b"'

# --- seconds ---
secs() { "$LB" --plan seconds "$@"; }
printf 'a -l tas -w counter -t 4 -d 100 --warmup 0\n' >"$tmp/d100"
printf 'a -l tas -w counter -t 4 -d 0 --warmup 0\n' >"$tmp/d0"
printf 'a -l tas -w counter -t 4 -d 0 --warmup 50\n' >"$tmp/w50"
printf 'a -l tas -w counter -t 64 -d 100 --warmup 0\n' >"$tmp/t64"
check "seconds: -d adds its seconds" '[ $(( $(secs "$tmp/d100" 1 1) - $(secs "$tmp/d0" 1 1) )) -eq 100 ]'
check "seconds: --warmup adds its seconds" '[ $(( $(secs "$tmp/w50" 1 1) - $(secs "$tmp/d0" 1 1) )) -eq 50 ]'
check "seconds: a real run's threads cost nothing more" '[ "$(secs "$tmp/t64" 1 1)" = "$(secs "$tmp/d100" 1 1)" ]'
cat "$tmp/d100" "$tmp/d100" "$tmp/d100" >"$tmp/3x"
check "seconds: TIMES over is each line TIMES over, and lanes leave real runs alone" \
	'[ "$(secs "$tmp/d100" 3 1)" = "$(secs "$tmp/3x" 1 1)" ] && [ "$(secs "$tmp/d100" 1 8)" = "$(secs "$tmp/d100" 1 1)" ]'
printf 's -l kmutex-spin -w fserver --sim nehalem-ex-64 -t 256 -d 1000 --warmup 0\n' >"$tmp/sim"
printf 's -l kmutex-spin -w fserver --sim nehalem-ex-64 -t 512 -d 1000 --warmup 0\n' >"$tmp/sim2t"
one=$(secs "$tmp/sim" 1 1)
check "seconds: a simulated run costs by its threads (twice the threads, twice the cost, within rounding)" \
	'two=$(secs "$tmp/sim2t" 1 1); [ $((two - 2 * one)) -le 1 ] && [ $((2 * one - two)) -le 1 ] && [ "$one" -gt 100 ]'
check "seconds: ... and shares the lanes (4 lanes, a quarter, within rounding)" \
	'q=$(secs "$tmp/sim" 1 4); [ $((4 * q - one)) -le 2 ] && [ $((one - 4 * q)) -le 2 ]'

# --- cost: run-all's lines on what a plan costs ---
# The lines as run-all printed them before issue 43 (kept as the oracle).
sh_cost() { # PLAN REPS SIM_LANES SIM DIR DIR_WHY SIM_WHY KERNEL_WHY
	SIM_LANES=$3 SIM=$4 DIR=$5 DIR_WHY=$6 SIM_WHY=$7 KERNEL_WHY=$8
	cost=$(secs "$1" 1 "$SIM_LANES")
	echo "run-all: $(wc -l <"$1") runs in $2 round(s), each round every variant once in its own order (plan.txt): about $((cost / 60)):$(printf %02d $((cost % 60)))"
	[ -z "$KERNEL_WHY" ] || echo "run-all: $KERNEL_WHY"
	if grep -q -e ' --sim ' "$1"; then
		grep -e ' --sim ' "$1" >"$tmp/sims.txt"
		sc=$(secs "$tmp/sims.txt" 1 "$SIM_LANES")
		echo "run-all: of which $(wc -l <"$tmp/sims.txt") simulated on $SIM, after the real runs, $SIM_LANES at a time: about $((sc / 60)):$(printf %02d $((sc % 60)))"
	fi
	[ -z "$SIM_WHY" ] || echo "$SIM_WHY" | tr ';' '\n' | sed 's/^ *//; s/^\([a-z0-9-]*\): /run-all: \1 is not simulated: /'
	! grep -q -- ' --dir ' "$1" || echo "run-all: the file workloads make their files in $DIR ($DIR_WHY)"
}
{ cat "$tmp/d100" "$tmp/w50"; printf 'c -l tas -w creat -t 2 -d 3 --dir /x/y --seed 1\n'; cat "$tmp/sim" "$tmp/sim2t"; } >"$tmp/mixed"
printf 'a -l tas -w counter -d 61 --warmup 0\nb -l tas -w counter -d 1 --warmup 0' >"$tmp/open-end"
printf 'a -l tas -w counter --dirx 1 -d 5 --simx 2 --sim\n' >"$tmp/near"
same=1 ncase=0
while IFS='|' read -r plan reps lanes sim dir dirwhy simwhy kwhy; do
	ncase=$((ncase + 1))
	"$LB" --plan cost "$tmp/$plan" "$reps" "$lanes" "$sim" "$dir" "$dirwhy" "$simwhy" "$kwhy" >"$tmp/c.out" 2>"$tmp/c.err" || same=0
	sh_cost "$tmp/$plan" "$reps" "$lanes" "$sim" "$dir" "$dirwhy" "$simwhy" "$kwhy" >"$tmp/a.out"
	cmp -s "$tmp/c.out" "$tmp/a.out" && [ ! -s "$tmp/c.err" ] ||
		{ same=0; echo "# case $ncase differs: $(diff "$tmp/a.out" "$tmp/c.out" | head -n 6)"; }
done <<COSTS
d100|1|1|||||
mixed|3|4|nehalem-ex-64|/x/y|RUNALL_TMPFS: a tmpfs|ck-mcs: no model;  kmutex-fix: too big; ;Odd: as it is;x-1:no space; :empty;a b: two words|no kernel capture: KL off
mixed|1|1|nehalem-ex-64|/tmp|tmpfs|only one: reason|
sim|2|64|p|d|w|;|
open-end|1000|65536|||||k
near|1|2|s|d|w|a:|
COSTS
check "cost: the lines run-all printed (runs, rounds, KERNEL_WHY, the simulated share on LANES, SIM_WHY's reasons, the file workloads' DIR), for $ncase plans" \
	'[ $same = 1 ]'
usage_error "cost: LANES 0" "'0' is not a whole number of lanes" --plan cost "$tmp/d100" 1 0 "" "" "" "" ""
usage_error "cost: no such file" "cannot read '$tmp/none'" --plan cost "$tmp/none" 1 1 "" "" "" "" ""
usage_error "cost: seven arguments" "takes 8 arguments, not 7" --plan cost "$tmp/d100" 1 1 "" "" "" ""

# --- bad arguments ---
usage_error "rounds: REPS 0" "'0' is not a whole number of rounds" --plan rounds "$tmp/v40" 0 7
usage_error "rounds: a seed past 2147483646" "'2147483647' is not a whole seed" --plan rounds "$tmp/v40" 1 2147483647
usage_error "seconds: no such file" "cannot read '$tmp/none'" --plan seconds "$tmp/none" 1 1
usage_error "an unknown WHAT" "'order' is not rounds, seconds, cost, check, variants, sim, budget, preflight, programs or run-env" --plan order "$tmp/v40" 1 1

# --- check: run-all's --locks, --workloads, --duration ---
. "$top/scripts/registry.sh"
"$LB" --list >"$tmp/list"
locks=$(registry_names locks <"$tmp/list" | tr "\n" " ")
names=$(registry_names workloads <"$tmp/list" | tr "\n" " ")$(registry_names programs <"$tmp/list" | tr "\n" " ")
prog=$(registry_names programs <"$tmp/list" | head -n 1)
check "check: a good list, every lock, every workload and program, durations: silent, exit 0" \
	'"$LB" --plan check --locks "$(echo $locks | tr " " ,)" >"$tmp/o" 2>&1 &&
	 "$LB" --plan check --workloads "$(echo $names | tr " " ,)" >>"$tmp/o" 2>&1 &&
	 "$LB" --plan check --duration "2,creat=0.5,$prog=86400" >>"$tmp/o" 2>&1 && [ ! -s "$tmp/o" ]'
usage_error "check: an unknown lock, the nearest named" "--locks: unknown name 'mcss': did you mean 'mcs'? (valid: $(echo $locks))" \
	--plan check --locks tas,mcss
usage_error "check: an unknown workload: workloads and programs are valid" "--workloads: unknown name 'fservr': did you mean 'fserver'? (valid: $(echo $names))" \
	--plan check --workloads fservr
usage_error "check: a name far from any: no guess" "--locks: unknown name 'zzzzzz' (valid:" --plan check --locks zzzzzz
usage_error "check: not a list" "--locks: 'mcs,,tas' is not a comma-separated list of names" --plan check --locks mcs,,tas
usage_error "check: two durations for every workload" "--duration: two durations for every workload ('2,creat=1,3'); one" \
	--plan check --duration 2,creat=1,3
usage_error "check: a workload's duration twice" "--duration: creat is given twice" --plan check --duration creat=5,creat=6
usage_error "check: seconds out of range (0.01 to 86400)" "--duration: '0.001' is not a number of seconds from 0.01 to 86400" \
	--plan check --duration 0.001
usage_error "check: seconds as lockbench's -d takes them (no trailing dot)" "--duration: '5.' (for creat) is not a number of seconds" \
	--plan check --duration creat=5.
usage_error "check: an unknown workload in --duration" "--duration: unknown name 'crat': did you mean 'creat'?" \
	--plan check --duration crat=5

# --- variants: variants.txt's lines from the registries (roles read here
# from --list's plan: section, the test's own view of them) ---
pl() { "$LB" --list | awk -v w="$1" '/^plan:$/ { on = 1; next } /^[a-z]+:$/ { on = 0 } on && $1 == w { print $2, $3 }'; }
v() { "$LB" --plan variants "$@" </dev/null; }
first_word() { sed 's/ .*//'; }
patch_always=$(pl patch-lock | awk '$2 == "always" { printf "%s ", $1 }')
kbase=$(pl kernel-baseline | awk 'NR == 1 { print $1 }')
pbase=$(pl program-baseline | awk 'NR == 1 { print $1 }')
noex=$(pl no-exclusion | awk '{ printf "%s ", $1 }')
numa=$(pl numa-only | awk 'NR == 1 { print $1 }')
ck=$(pl concurrency-kit | awk 'NR == 1 { print $1 }')
sw=$(pl workload | awk '{ print $1 }' | while read -r w; do "$LB" --list | grep -q "^  workload $w sweep " && echo "$w"; done | head -n 1)
pw=$(pl workload | awk '{ print $1 }' | while read -r w; do "$LB" --list | grep -q "^  workload $w patch " && echo "$w"; done | head -n 1)
kw=$(pl workload | awk '{ print $1 }' | while read -r w; do "$LB" --list | grep -q "^  workload $w kernel " && echo "$w"; done | head -n 1)
prog=$(pl program | awk '$2 == "patch" { print $1; exit }')
v --cpus 3 --workloads "$sw" --locks "$pbase" >"$tmp/sw"
check "variants: the sweep's threads 1, 2, 4 ... and twice the CPUs (3 CPUs: 1 2 4 6)" \
	'[ "$(sed "s/.* -t \([0-9]*\) .*/\1/" "$tmp/sw" | tr "\n" " ")" = "1 2 4 6 " ]'
v --cpus 3 --workloads "$sw" --locks "$pbase" --sweep-drop 1 >"$tmp/sw1"
check "variants: --sweep-drop 1 leaves out the second count, never the first or the last (1 4 6)" \
	'[ "$(sed "s/.* -t \([0-9]*\) .*/\1/" "$tmp/sw1" | tr "\n" " ")" = "1 4 6 " ]'
v --cpus 2 --workloads "$sw" >"$tmp/swall"
check "variants: a lock that excludes nothing ($noex) is swept at 1 thread only" \
	'(for l in $noex; do [ "$(grep -c -- " -l $l " "$tmp/swall")" -eq 1 ] && grep -q "^sweep-$sw-t1-$l " "$tmp/swall" || exit 1; done)'
check "variants: the NUMA-only lock ($numa) is not swept on one node, is on two, and is with --locks naming it" \
	'! grep -q " -l $numa " "$tmp/swall" && v --cpus 2 --workloads "$sw" --numa-nodes 2 | grep -q " -l $numa " &&
	v --cpus 2 --workloads "$sw" --locks "$numa" | grep -q " -l $numa "'
v --cpus 2 --workloads "$sw" --quick >"$tmp/swq"
check "variants: --quick's sweep leaves out Concurrency Kit's ($ck) and the patch table's locks, not with --locks" \
	'! grep -q " -l $ck " "$tmp/swq" && (for l in $patch_always; do ! grep -q " -l $l " "$tmp/swq" || exit 1; done) &&
	grep -q " -l $ck " "$tmp/swall" && v --cpus 2 --workloads "$sw" --quick --locks "$ck" | grep -q " -l $ck "'
v --cpus 2 --workloads "$pw" >"$tmp/pw"
check "variants: the patch experiment runs the patch table's locks in column order at 4x the CPUs, no kernel row without capture" \
	'[ "$(sed "s/.* -l \([^ ]*\) .*/\1/" "$tmp/pw" | tr "\n" " ")" = "$patch_always" ] && ! grep -qv " -t 8 " "$tmp/pw"'
check "variants: no models-vs-kernel runs without kernel capture; with it, its baseline first at 1x, 2x, 4x the CPUs" \
	'[ -z "$(v --cpus 2 --workloads "$kw")" ] &&
	[ "$(v --cpus 2 --workloads "$kw" --kernel-locks | grep -- "-l $kbase " | sed "s/.* -t \([0-9]*\) .*/\1/" | tr "\n" " ")" = "2 4 8 " ] &&
	[ -z "$(v --cpus 2 --workloads "$kw" --kernel-locks | awk "NR % $(echo $patch_always $kbase | wc -w) == 1" | grep -v -- "-l $kbase ")" ]'
check "variants: --kernel-drop 1 keeps the kernel experiment's first and last counts" \
	'[ "$(v --cpus 2 --workloads "$kw" --kernel-locks --kernel-drop 1 | grep -- "-l $kbase " | sed "s/.* -t \([0-9]*\) .*/\1/" | tr "\n" " ")" = "2 8 " ]'
check "variants: --dir on the workloads that make files alone; --kernel-locks on every line" \
	'v --cpus 2 --workloads "$pw,$sw" --dir /x --kernel-locks --locks "$pbase" >"$tmp/d" &&
	grep "^patch-" "$tmp/d" | grep -q " --kernel-locks --dir /x$" && grep "^sweep-" "$tmp/d" | grep -q " --kernel-locks$" &&
	! grep "^sweep-" "$tmp/d" | grep -q -- "--dir"'
check "variants: --duration: every workload's, and one workload's own" \
	'v --cpus 2 --duration "2,$pw=5" --workloads "$pw,$sw" --locks "$pbase" >"$tmp/dur" &&
	grep "^patch-" "$tmp/dur" | grep -q " -d 5 " && grep "^sweep-" "$tmp/dur" | grep -q " -d 2 " && ! grep -qv " -d [25] " "$tmp/dur"'
v --cpus 2 --workloads "$prog" >"$tmp/prog"
check "variants: a program runs under the programs' baseline first, then the patch table's locks that exclude; --quick the first three" \
	'[ "$(head -n 1 "$tmp/prog" | sed "s/.* -l \([^ ]*\) .*/\1/")" = "$pbase" ] &&
	(for l in $noex; do ! grep -q " -l $l " "$tmp/prog" || exit 1; done) &&
	[ "$(wc -l <"$tmp/prog")" -eq $(echo $patch_always | wc -w) ] &&
	[ "$(v --cpus 2 --workloads "$prog" --quick | wc -l)" -eq 3 ] && [ -z "$(v --cpus 2 --workloads "$prog" --skip " x $prog")" ]'
set -- $patch_always
printf 'sim-a -l %s -w x -t 4 --sim p\nsim-b -l %s -w x -t 4 --sim p\nsim-c -l %s -w x -t 4 --sim p\n' "$1" "$2" "$3" >"$tmp/sims"
"$LB" --plan variants --cpus 2 --workloads "$sw,$prog" <"$tmp/sims" >"$tmp/withsims"
check "variants: the simulated lines from stdin between the sweep and the programs; --quick keeps only the patch pair's" \
	'[ "$(cut -c1-3 "$tmp/withsims" | uniq | tr "\n" " ")" = "swe sim pro " ] && [ "$(grep -c "^sim-" "$tmp/withsims")" -eq 3 ] &&
	[ "$("$LB" --plan variants --cpus 2 --quick --locks "" --workloads "$prog" <"$tmp/sims" | grep "^sim-" | first_word | tr "\n" " ")" = "sim-a sim-b " ]'
usage_error "variants: an unknown option, one line" "--plan variants: option '--cpu' is not one of" --plan variants --cpu 2

# --- variants --why: what run-all says of the plan, by the same rules ---
set -- $patch_always
pair2=$2 third=$3
why() { "$LB" --plan variants --cpus 2 "$@"; }
check "why dropped: a lock of --locks in no run, why for each wanted workload; the workload, why; a planned one, nothing" \
	'[ "$(why --locks "$ck" --workloads "$pw" --why dropped </dev/null)" = "--locks: $ck is in no run: $pw runs only the patch table'"'"'s locks ($(echo $patch_always))
--workloads: $pw is in no run: none of --locks is in the patch table ($(echo $patch_always))" ] &&
	[ -z "$(why --locks "$pbase" --workloads "$sw" --why dropped </dev/null)" ]'
check "why dropped: the simulated lines on stdin are planned runs; --sim-only: they alone (a sweep lock is in none)" \
	'! why --locks "$third" --workloads "$pw" --sim-only --why dropped <"$tmp/sims" | grep -q "^--locks" &&
	why --locks "$pbase" --workloads "$sw,$pw" --sim-only --why dropped <"$tmp/sims" | grep -q "^--locks: $pbase is in no run: " &&
	[ -z "$(why --locks "$pbase" --workloads "$sw,$pw" --why dropped <"$tmp/sims" | grep "^--locks")" ]'
check "why dropped: a program under none of --locks: the locks it runs under; a lock that excludes nothing: swept at 1 thread only" \
	'why --locks "$ck" --workloads "$prog" --why dropped </dev/null | grep -qx "^--workloads: $prog is in no run: none of --locks is a lock it runs under ($pbase .*)" &&
	why --locks "$(echo $noex | first_word)" --workloads "$sw" --threads 2 --why dropped </dev/null |
		grep -qx -- "--locks: $(echo $noex | first_word) is in no run: $sw sweeps $(echo $noex | first_word) (it excludes nothing) only at 1 thread"'
check "why kernel: a kernel workload wanted and no capture: the line with --kl-why; with capture, or none wanted, nothing" \
	'[ "$(why --workloads "$kw" --why kernel --kl-why "no BTF")" = "models vs the running kernel'"'"'s mutex ($(pl workload | awk "\$2 == \"kernel\" { print \$1 }" | tr "\n" " " | sed "s/ $//")) not planned: kernel lock capture is unavailable here (no BTF)" ] &&
	[ -z "$(why --workloads "$kw" --why kernel --kernel-locks)" ] && [ -z "$(why --workloads "$sw" --why kernel)" ]'
check "why budget: a sweep point while the sweep has 3+ counts, then the kernel middle count, then none; what was dropped" \
	'[ "$(why --cpus 3 --workloads "$sw,$kw" --kernel-locks --why budget)" = sweep ] &&
	[ "$(why --cpus 3 --workloads "$sw,$kw" --kernel-locks --sweep-drop 2 --why budget)" = "kernel
sweep points 2 4" ] &&
	[ "$(why --cpus 3 --workloads "$sw,$kw" --kernel-locks --sweep-drop 2 --kernel-drop 1 --why budget)" = "none
sweep points 2 4
kernel experiment threads 6" ] && [ "$(why --cpus 3 --workloads "$kw" --why budget)" = none ]'
usage_error "variants: --why of an unknown kind" "--plan variants: --why 'all' is not dropped, kernel or budget" --plan variants --cpus 2 --why all

# --- sim: the simulated section (bench/plan_sim.c): probes, pilots, sizing,
# the choice, and its lines (docs/run-all.md, "The simulated section") ---
sim() { "$LB" --plan sim --cpus 2 "$@" </dev/null; }
simlocks=$(registry_names simulated <"$tmp/list" | tr "\n" " ")
# The patch table's locks that exclude and have a simulated build, in order.
sl=$(for l in $patch_always; do case " $noex " in *" $l "*) ;; *) case " $simlocks " in *" $l "*) printf "%s " $l ;; esac ;; esac; done)
set -- $sl
s1=$1 s2=$2
# The profile's CPUs and a job's acquisitions, as its meta.csv says them.
"$LB" --sim nehalem-ex-64 -l "$s1" -w fserver -t 1 -d 0.01 --warmup 0 --quiet -o "$tmp/m" >/dev/null 2>&1
pcpus=$(awk -F, '$1 == "sim_cpus" { print $2 }' "$tmp/m/meta.csv") apo=$(awk -F, '$1 == "sim_acq_per_op" { print $2 }' "$tmp/m/meta.csv")
sim --quick >"$tmp/sq"
# The patch workloads: each runs every one of those locks.
npw=$(pl workload | awk '$2 == "patch"' | wc -l)
check "sim: a plain run on a small machine takes nehalem-ex-64's section, --quick's short runs unsized, at twice its CPUs ($pcpus)" \
	'[ "$(sed -n 1p "$tmp/sq")" = "SIM nehalem-ex-64" ] &&
	grep -qx "variant sim-$pw-t$((2 * pcpus))-$s1 -l $s1 -w $pw -t $((2 * pcpus)) -d 0.05 --warmup 0.0125 --sim nehalem-ex-64 --sim-cpus $pcpus" "$tmp/sq" &&
	[ "$(grep -c "^variant " "$tmp/sq")" -eq $(( $(echo $sl | wc -w) * $npw )) ] && ! grep -q "^say" "$tmp/sq"'
none=1
for o in "--no-sim" "--cpus 17" "--locks $s1" "--workloads $pw" "--threads 2" "--duration 1"; do
	sim --quick $o >"$tmp/none" 2>&1 && [ ! -s "$tmp/none" ] || { none=0; echo "# $o: $(head -c 200 "$tmp/none")"; }
done
check "sim: no section (silent, exit 0) with --no-sim, on more than 16 CPUs, or asked for --locks, --workloads, --threads or --duration" \
	'[ $none = 1 ]'
# Sizing's oracle, run-all's sim_pilot and sim_size_one before the move:
# each lock's pilot, the slowest's pace, SIM_JOBS jobs rounded up to 2 digits.
for l in "$s1" "$s2"; do
	"$LB" --sim nehalem-ex-64 --sim-cpus 32 -l "$l" -w fserver -t 64 -d 0.05 --warmup 0.05 --quiet -o "$tmp/p$l" >/dev/null 2>&1
	awk -F, -v l="$l" '$1 == "acquisitions" { print l, $2 / 64 / 0.05 }' "$tmp/p$l/summary.csv"
done | sort -g -k2,2 | head -n 1 >"$tmp/slow"
read -r slow rate <"$tmp/slow"
want_d=$(awk -v a="$apo" -v r="$rate" 'BEGIN { s = 3 * a / r; e = 1; while (s >= 100 * e) e *= 10; while (s < 10 * e) e /= 10
	printf "%.6g\n", (s / e == int(s / e) ? s / e : int(s / e) + 1) * e }')
sim --sim nehalem-ex-64 --sim-cpus 32 --threads 64 --workloads fserver,creat --locks "$s1,$s2" >"$tmp/sz"
check "sim: a job of $apo acquisitions: 3 jobs at the slowest pilot's pace ($slow, $rate), 2 digits up (-d $want_d), said; the default warm-up" \
	'grep -qx "say simulated fserver at 64 threads: 3 jobs of $apo acquisitions a thread take $want_d simulated s a run at $slow'"'"'s pace, the slowest ($(printf %.0f "$rate") acquisitions a thread a simulated s in a pilot)" "$tmp/sz" &&
	grep -qx "variant sim-fserver-t64-$s2 -l $s2 -w fserver -t 64 -d $want_d --warmup 0.05 --sim nehalem-ex-64 --sim-cpus 32" "$tmp/sz" &&
	grep -qx "variant sim-creat-t64-$s1 -l $s1 -w creat -t 64 -d 0.2 --warmup 0.05 --sim nehalem-ex-64 --sim-cpus 32" "$tmp/sz"'
grep -v "^workload\.creat\." "$top/sim/profiles/nehalem-ex-64.profile" | sed "s/^name = .*/name = nocreat/" >"$tmp/nocreat.profile"
(cd "$tmp" && "$LB" --plan sim --cpus 2 --sim ./nocreat.profile --sim-cpus 2 --threads 2,3 --duration fserver=0.01 --locks "$s1" </dev/null) >"$tmp/nc"
check "sim: a workload the profile has no times for in SIM_WHY; --duration's own -d (a quarter of it warm-up); --threads; a path made absolute" \
	'[ "$(cat "$tmp/nc")" = "SIM $tmp/nocreat.profile
SIM_WHY creat: the profile has no workload.creat times (lockbench: --sim: profile nocreat has no times for workload creat)
variant sim-fserver-t2-$s1 -l $s1 -w fserver -t 2 -d 0.01 --warmup 0.0025 --sim $tmp/nocreat.profile --sim-cpus 2
variant sim-fserver-t3-$s1 -l $s1 -w fserver -t 3 -d 0.01 --warmup 0.0025 --sim $tmp/nocreat.profile --sim-cpus 2" ]'
usage_error "sim: an unknown profile, lockbench's own line" "--plan sim: --sim: sim profile 'nosuch': no nosuch.profile in" --plan sim --cpus 2 --sim nosuch
grep -v "^workload\.\(creat\|fserver\)\." "$tmp/nocreat.profile" >"$tmp/none.profile"
usage_error "sim: no patch workload the profile has times for: each said" \
	"--plan sim: --sim: no patch workload to simulate (creat: the profile has no workload.creat times (" --plan sim --cpus 2 --sim "$tmp/none.profile"
usage_error "sim: a profile name plan lines cannot carry" "--sim: 'a b': not a profile name or path of letters" --plan sim --cpus 2 --sim "a b"
usage_error "sim: a profile path that is no file" "--sim: '$tmp/no.profile' is not a profile file" --plan sim --cpus 2 --sim "$tmp/no.profile"
usage_error "sim: none of --locks simulated: the ones that are" "--sim: nothing to run: none of --locks has a simulated build ($(echo $sl))" \
	--plan sim --cpus 2 --sim nehalem-ex-64 --locks "$pbase"
usage_error "sim: --sim-cpus without --sim" "--plan sim: --sim-only and --sim-cpus go with --sim PROFILE" --plan sim --cpus 2 --sim-cpus 4
# An option given empty is as if not given: --warmup keeps its default
# (printf of a NULL --warmup printed "(null)" into every line).
check "variants: --warmup given empty is the default 0.5, never '(null)'" \
	'"$LB" --plan variants --cpus 2 --warmup "" </dev/null >"$tmp/empty-warmup" && [ -s "$tmp/empty-warmup" ] &&
	! grep -q "(null)" "$tmp/empty-warmup" && grep -q -e " --warmup 0.5" "$tmp/empty-warmup" &&
	[ "$(grep -e " --warmup" "$tmp/empty-warmup" | grep -vc -e " --warmup 0.5")" = 0 ]'
# --- budget: run-all's --budget trimming (run-all's fit_budget before
# issue 43, kept here as the oracle: the same settings and lines) ---
sh_budget() { # MINUTES REPS LANES SECTION OPTIONS... (stdin: the simulated lines)
	minutes=$1 reps=$2 lanes=$3 sect=$4
	shift 4
	cat >"$tmp/bsims"
	sd=0 kd=0 sim=kept limit=$((minutes * 60)) reps0=$reps
	floor=$((reps < 4 ? reps : 4))
	bv() { if [ $sim = kept ]; then "$LB" --plan variants "$@" --sweep-drop $sd --kernel-drop $kd <"$tmp/bsims"
		else "$LB" --plan variants "$@" --sweep-drop $sd --kernel-drop $kd </dev/null; fi; }
	cost() { bv "$@" >"$tmp/bv" && "$LB" --plan seconds "$tmp/bv" $reps $lanes; }
	dropped() {
		{ [ "$sect" != sim ] || [ $sim = kept ] || echo "the simulated section"
		  bv "$@" --why budget | sed 1d
		  [ $reps -eq $reps0 ] || echo "repetitions $reps0 to $reps"; } |
			awk '{ s = s (NR > 1 ? ", " : "") $0 } END { print s == "" ? "nothing" : s }'
	}
	full=$(cost "$@") c=$full say=""
	while [ "$c" -gt $limit ]; do
		step=$(bv "$@" --why budget | head -n 1)
		if [ "$sect" = sim ] && [ $sim = kept ]; then sim=dropped
		elif [ "$step" = sweep ]; then sd=$((sd + 1))
		elif [ "$step" = kernel ]; then kd=1
		elif [ $reps -gt $floor ]; then reps=$((reps - 1))
		else
			bd=$(dropped "$@")
			[ "$bd" != nothing ] &&
				say="die --budget $minutes: the plan needs about $(fmt "$full"); even with $bd dropped it takes about $(fmt "$c"): give it more minutes, or fewer --locks or --workloads" ||
				say="die --budget $minutes: the plan needs about $(fmt "$full") and has nothing --budget may drop: give it more minutes, or fewer --locks or --workloads"
			break
		fi
		c=$(cost "$@")
	done
	printf 'reps %s\nsweep-drop %s\nkernel-drop %s\nsim %s\n' $reps $sd $kd $sim
	if [ -n "$say" ]; then echo "$say"
	elif [ "$c" -lt "$full" ]; then echo "say --budget $minutes: the plan needs about $(fmt "$full"); dropped $(dropped "$@") to fit (about $(fmt "$c"))"; fi
}
fmt() { printf '%d:%02d' $(($1 / 60)) $(($1 % 60)); }
set -- $patch_always
printf 'sim-a -l %s -w %s -t 64 -d 20 --warmup 1 --sim p\nsim-b -l %s -w %s -t 64 -d 20 --warmup 1 --sim p\n' "$1" "$pw" "$2" "$pw" >"$tmp/bsim"
same=1 cases=0
for c in "100000 10 2 sim" "1 10 2 sim" "30 10 2 sim" "12 10 2 sim" "8 10 2 sim" "6 10 2 -" "4 3 2 sim" "3 2 1 -" "20 6 2 sim" \
	"5 10 2 - --quick" "2 5 2 sim --quick" "9 7 2 sim --kernel-locks" "5 4 2 - --workloads $sw --threads 1,2" \
	"14 6 4 sim --threads 1,2,3,4,5,6,7,8 --workloads $sw,$kw --kernel-locks" "1 6 2 - --sim-only" \
	"1 10 2 - --workloads $sw --threads 1,2" "15 10 2 - --workloads $sw --threads 1,2"; do
	set -- $c
	b=$1 r=$2 l=$3 s=$4
	shift 4
	"$LB" --plan budget $b $r $l $s --cpus 2 "$@" <"$tmp/bsim" >"$tmp/c.out" 2>"$tmp/c.err" || same=0
	sh_budget $b $r $l $s --cpus 2 "$@" <"$tmp/bsim" >"$tmp/a.out"
	cases=$((cases + 1))
	cmp -s "$tmp/c.out" "$tmp/a.out" || { same=0; echo "# budget $c differs: $(diff "$tmp/a.out" "$tmp/c.out" | tr '\n' ' ')"; }
	cat "$tmp/c.out" >>"$tmp/all.out"
done
check "budget: the same settings and line as run-all's shell loop, for $cases slots (fits, trims, refuses)" \
	'[ $same = 1 ] && [ ! -s "$tmp/c.err" ]'
check "budget: the cases trim each way: the simulated section, a sweep point, the kernel count, repetitions (alone too), a refusal, a fit" \
	'grep -q "^sim dropped" "$tmp/all.out" && grep -q "^sweep-drop [1-9]" "$tmp/all.out" && grep -q "^kernel-drop 1" "$tmp/all.out" &&
	 grep -q "^say .*repetitions" "$tmp/all.out" && grep -q "^die .*nothing --budget may drop" "$tmp/all.out" &&
	 grep -q "^die .*even with" "$tmp/all.out" && grep -q "^say " "$tmp/all.out" &&
	 grep -q "^say .*dropped repetitions 10 to [5-9] to fit" "$tmp/all.out"'
bud() { "$LB" --plan budget "$@" --cpus 2 <"$tmp/bsim"; }
full=$("$LB" --plan variants --cpus 2 <"$tmp/bsim" >"$tmp/fv" && "$LB" --plan seconds "$tmp/fv" 10 2)
nosim=$("$LB" --plan variants --cpus 2 </dev/null >"$tmp/nv" && "$LB" --plan seconds "$tmp/nv" 10 2)
m=$(( (nosim + 59) / 60 ))
check "budget: a slot the plan fits only without the simulated section: that alone goes ($m min: $(fmt $nosim) of $(fmt $full))" \
	'[ $((m * 60)) -lt $full ] && [ "$(bud $m 10 2 sim)" = "reps 10
sweep-drop 0
kernel-drop 0
sim dropped
say --budget $m: the plan needs about $(fmt $full); dropped the simulated section to fit (about $(fmt $nosim))" ]'
check "budget: --sim's section (SECTION -) is the plan: never dropped; a slot it fits: nothing said" \
	'bud $m 10 2 - | grep -qx "sim kept" && [ "$(bud 100000 10 2 sim | tr "\n" " ")" = "reps 10 sweep-drop 0 kernel-drop 0 sim kept " ]'
check "budget: repetitions down to 4 at the least, or --reps if fewer" \
	'bud 1 10 2 sim | grep -qx "reps 4" && bud 1 3 2 sim | grep -qx "reps 3" && bud 1 1 2 sim | grep -qx "reps 1"'
usage_error "budget: 0 minutes" "--plan budget: '0' is not a whole number of minutes" --plan budget 0 4 1 sim --cpus 2
usage_error "budget: SECTION neither sim nor -" "--plan budget: 'x' is not sim or -" --plan budget 5 4 1 x --cpus 2
usage_error "budget: too few arguments" "--plan budget: takes MINUTES REPS LANES SECTION OPTIONS..., not 2" --plan budget 5 4
usage_error "budget: a bad option, as variants says it" "--plan variants: option '--cpu' is not one of" --plan budget 5 4 1 - --cpu 2

# --- preflight: run-all's instant run per workload (run-all's awk before
# issue 43, kept here as the oracle) ---
awk_preflight() { # PLAN BOUND
	awk '{ t = 0; w = ""
		for (i = 2; i < NF; i++) { if ($i == "-t") t = $(i + 1) + 0; if ($i == "-w" || $i == "--program") w = $(i + 1) }
		if (index($0, " --sim ")) w = w " sim"
		if (!(w in most) || t > most[w]) { most[w] = t; line[w] = $0 } }
		END { for (w in line) print line[w] }' "$1" | LC_ALL=C sort | while read -r name args; do
		case " $args " in
		*" --program "*) printf '%s\t2\t%s\t-\t%s\n' "$name" \
			"$(echo "$args" | p="$2" awk '{ for (i = 1; i < NF; i++) if ($i == "-d") d = $(i + 1) + 0
				b = ENVIRON["p"] != "" ? ENVIRON["p"] : (20 * d > 120 ? 20 * d : 120); printf "%d", b }')" "$args" ;;
		*" --sim "*) printf '%s\t1 2\t-\t-d 0.001 --warmup 0\t%s\n' "$name" "$args" ;;
		*) printf '%s\t1 2\t-\t-d 0.01 --warmup 0 --max-ops 1\t%s\n' "$name" "$args" ;;
		esac
	done
}
cat >"$tmp/pf" <<'PLAN'
b-r1 -l tas -w counter -t 4 -d 1 --seed 1
a-r1 -l tas -w counter -t 8 -d 1 --seed 1
c-r1 -l mcs -w counter -t 8 -d 1 --seed 1
Z-r1 -l tas -w creat -t 2 -d 0.5 --dir /x --seed 1
s-r1 -l tas -w counter -t 256 -d 0.2 --sim p --sim-seed 1
s2-r1 -l tas -w counter -t 512 -d 0.2 --sim p --sim-seed 1
p-r1 -l tas --program prog -d 7.5 --seed 1
q-r1 -l tas --program prog -d 9 --seed 1
r-r1 -l tas --program other -d 1 --seed 1
n-r1 -l tas -t 3 -d 1 --seed 1
m-r1 -l tas -w counter -t 8 -d 1 -t
PLAN
"$LB" --plan preflight "$tmp/pf" "" >"$tmp/c.out" 2>"$tmp/c.err"
awk_preflight "$tmp/pf" "" >"$tmp/a.out"
check "preflight: each workload's line with the most threads (the first of equals), simulated apart, a program's bound 20x its -d, >= 120" \
	'cmp -s "$tmp/a.out" "$tmp/c.out" && [ ! -s "$tmp/c.err" ] && [ "$(cut -f1 "$tmp/c.out" | tr "\n" " ")" = "Z-r1 a-r1 n-r1 p-r1 r-r1 s2-r1 " ] &&
	 grep -q "^p-r1	2	150	-	-l tas --program prog -d 7.5 --seed 1$" "$tmp/c.out" && grep -q "^r-r1	2	120	" "$tmp/c.out"'
"$LB" --plan preflight "$tmp/pf" 30 >"$tmp/c.out"
awk_preflight "$tmp/pf" 30 >"$tmp/a.out"
check "preflight: a BOUND given is every program's" 'cmp -s "$tmp/a.out" "$tmp/c.out" && grep -q "^r-r1	2	30	" "$tmp/c.out"'
usage_error "preflight: a bound not whole seconds" "--plan preflight: '0' is not whole seconds from 1 to 9999" --plan preflight "$tmp/pf" 0
usage_error "preflight: no such plan" "--plan preflight: cannot read '$tmp/no-such-plan'" --plan preflight "$tmp/no-such-plan" ""

# --- programs: the programs run-all cannot run here and why (its
# skip_programs until issue 43), by the registry's roles and commands ---
# The patch programs and the command each starts, from --list.
progs=$("$LB" --list | awk '/^[a-z]+:$/ { s = $0; next } s == "plan:" && $1 == "program" && $3 == "patch" { p[$2] = 1 }
	s == "programs:" { c[$1] = $2; o[++n] = $1 } END { for (i = 1; i <= n; i++) if (p[o[i]]) print o[i], c[o[i]] }')
mkdir "$tmp/nocmd"
for d in /usr/bin /bin; do cp -s "$d"/* "$tmp/nocmd/" 2>/dev/null; done
echo "$progs" | while read -r p c; do rm -f "$tmp/nocmd/$c"; done
PATH=$tmp/nocmd "$LB" --plan programs --cpus 2 >"$tmp/np.out" 2>&1
check "programs: each patch program whose command is not on PATH, a line in registry order ($(echo $progs))" \
	'[ -n "$progs" ] && [ "$(cat "$tmp/np.out")" = "$(echo "$progs" | while read -r p c; do echo "$p '"'"'$c'"'"' is not on PATH"; done)" ]'
LOCKBENCH_EXEC_SO=$tmp/no-such.so "$LB" --plan programs --cpus 2 >"$tmp/nx.out" 2>&1
check "programs: where --exec cannot run a program, every one, with lockbench's own line" \
	'[ "$(wc -l <"$tmp/nx.out")" = "$(echo "$progs" | wc -l)" ] &&
	 [ "$(grep -c " lockbench --exec cannot run here (lockbench: --exec: .*no-such.so.*)\$" "$tmp/nx.out")" = "$(echo "$progs" | wc -l)" ]'
first=$(echo "$progs" | awk 'NR == 1 { print $1 }')
check "programs: none under --sim-only, none where --workloads names no program, only those it names" \
	'[ -z "$(PATH=$tmp/nocmd "$LB" --plan programs --cpus 2 --sim-only)" ] &&
	 [ -z "$(PATH=$tmp/nocmd "$LB" --plan programs --cpus 2 --workloads "$("$LB" --list | awk "/^workloads:\$/ { getline; print \$1; exit }")")" ] &&
	 [ "$(PATH=$tmp/nocmd "$LB" --plan programs --cpus 2 --workloads "$first" | cut -d" " -f1)" = "$first" ]'

# --- run-env: this machine's run-env text (run-all's shell until issue 43:
# the registries read from --list by scripts/registry.sh, the NUMA nodes from
# --topology's text, the kernel-lock probe; kept below as the oracle) ---
shell_run_env() { # the registry lines of run-env as run-all's shell wrote them
	LIST=$("$LB" --list)
	lb_list() { printf '%s\n' "$LIST"; }
	PLAN_WORKLOADS=$(lb_list | registry_plan workload)
	printf 'ALL_LOCKS=%s\nALL_WORKLOADS=%s\n' "$(lb_list | registry_names locks | tr "\n" " ")" \
		"$(lb_list | registry_names workloads | tr "\n" " ")"
	printf 'KERNEL_WORKLOADS=%s\nNUMA_ONLY_LOCKS=%s\n' \
		"$(echo "$PLAN_WORKLOADS" | awk '$2 == "kernel" { printf "%s%s", (n++ ? " " : ""), $1 }')" \
		"$(lb_list | registry_plan numa-only | tr "\n" " ")"
	printf 'PATCH_PAIR=%s\nPATCH_WORKLOADS=%s\nPROGRAM_BASE=%s\nKERNEL_BASE=%s\nCK_LOCKS=%s\n' \
		"$(lb_list | registry_plan patch-lock | awk 'NR <= 2 { printf "%s%s", (NR > 1 ? " " : ""), $1 }')" \
		"$(echo "$PLAN_WORKLOADS" | awk '$2 == "patch" { printf "%s%s", (n++ ? " " : ""), $1 }')" \
		"$(lb_list | registry_plan program-baseline | head -n 1)" "$(lb_list | registry_plan kernel-baseline | head -n 1)" \
		"$(lb_list | registry_plan concurrency-kit | tr "\n" " ")"
}
"$LB" --plan run-env >"$tmp/env.out" 2>"$tmp/env.err"
check "run-env: the registries' names and roles as run-all's shell read them from --list, in run-env's order, exit 0" \
	'[ ! -s "$tmp/env.err" ] && [ "$(grep -v "^NCPU=\|^NUMA_NODES=\|^KL=\|^KL_WHY=" "$tmp/env.out")" = "$(shell_run_env)" ] &&
	 [ "$(cut -d= -f1 "$tmp/env.out" | tr "\n" " ")" = "NCPU NUMA_NODES ALL_LOCKS ALL_WORKLOADS KL KL_WHY KERNEL_WORKLOADS NUMA_ONLY_LOCKS PATCH_PAIR PATCH_WORKLOADS PROGRAM_BASE KERNEL_BASE CK_LOCKS " ]'
xml=$top/tests/topo-2pack-numa.xml
LOCKBENCH_TOPOLOGY_XML=$xml "$LB" --plan run-env >"$tmp/env2.out"
nodes=$(LOCKBENCH_TOPOLOGY_XML=$xml "$LB" --topology | sed -n 's/.* \([0-9][0-9]*\) NUMA node(s).*/\1/p')
pus=$(LOCKBENCH_TOPOLOGY_XML=$xml "$LB" --topology | sed -n 's/.* \([0-9][0-9]*\) PU(s).*/\1/p')
check "run-env: NCPU and NUMA_NODES are the topology's ($pus PUs, $nodes nodes in $(basename "$xml"); this machine's without it)" \
	'[ "$nodes" -ge 2 ] && grep -qx "NUMA_NODES=$nodes" "$tmp/env2.out" && grep -qx "NCPU=$pus" "$tmp/env2.out" &&
	 grep -qx "NUMA_NODES=$("$LB" --topology | sed -n "s/.* \([0-9][0-9]*\) NUMA node(s).*/\1/p")" "$tmp/env.out" &&
	 grep -qx "NCPU=$("$LB" --topology | sed -n "s/.* \([0-9][0-9]*\) PU(s).*/\1/p")" "$tmp/env.out"'
# The kernel-lock probe as run-all ran it: the kernel baseline on the first
# workload, one thread; its stderr's last line less lockbench's prefix.
kb=$(registry_plan kernel-baseline <"$tmp/list" | head -n 1)
w1=$(registry_names workloads <"$tmp/list" | head -n 1)
if kl_why=$("$LB" --kernel-locks -l "$kb" -w "$w1" -t 1 -d 0.01 --warmup 0 2>&1 >/dev/null); then kl=--kernel-locks; else kl=""; fi
kl_why=$(printf '%s\n' "$kl_why" | tail -n 1)
[ -n "$kl" ] || kl_why=${kl_why#lockbench: --kernel-locks: }
check "run-env: KL and KL_WHY as the probe found them here (KL='$kl')" \
	'grep -qx -- "KL=$kl" "$tmp/env.out" && [ "$(sed -n "s/^KL_WHY=//p" "$tmp/env.out")" = "$kl_why" ]'
usage_error "run-env: takes no argument" "--plan run-env: takes 0 arguments, not 1" --plan run-env x
# Where capture fails (here: as an unprivileged user, setpriv), KL empty
# and KL_WHY the probe's last line less lockbench's prefix, as run-all's
# shell made it.
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null && setpriv --reuid=65534 --regid=65534 --clear-groups true 2>/dev/null; then
	nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
	nobody "$LB" --plan run-env >"$tmp/env3.out" 2>&1
	if no_why=$(nobody "$LB" --kernel-locks -l "$kb" -w "$w1" -t 1 -d 0.01 --warmup 0 2>&1 >/dev/null); then
		ok "# skip kernel lock capture works unprivileged here: no failing probe to compare"
	else
		no_why=$(printf '%s\n' "$no_why" | tail -n 1)
		check "run-env: no capture (unprivileged): KL empty, KL_WHY the probe's line less 'lockbench: --kernel-locks: ' ($no_why)" \
			'grep -qx "KL=" "$tmp/env3.out" && [ "$(sed -n "s/^KL_WHY=//p" "$tmp/env3.out")" = "${no_why#lockbench: --kernel-locks: }" ] &&
			 [ "${no_why#lockbench: --kernel-locks: }" != "$no_why" ]'
	fi
else
	ok "# skip not root, or no setpriv: no unprivileged probe to compare"
fi

# --- check --threads: run-all's thread counts, in -t's own range ---
tmax=$("$LB" --help | sed -n 's/^ *-t, --threads N .* 1\.\.\([0-9][0-9]*\).*/\1/p')
check "check --threads: counts from 1 to -t's largest ($tmax, as --help says): silent, exit 0" \
	'[ -n "$tmax" ] && [ -z "$("$LB" --plan check --threads "1,2,$tmax" 2>&1)" ]'
usage_error "check --threads: one past -t's largest" "--threads: '$((tmax + 1))' is not a thread count: whole numbers from 1 to $tmax, comma-separated" \
	--plan check --threads "4,$((tmax + 1))"
usage_error "check --threads: 0, and a leading zero" "--threads: '0' is not a thread count: whole numbers from 1 to $tmax" --plan check --threads 1,0
usage_error "check --threads: a leading zero" "--threads: '01' is not a thread count" --plan check --threads 01
usage_error "check --threads: not a list" "--threads: '1,,2' is not a comma-separated list of thread counts" --plan check --threads 1,,2
usage_error "check --threads: a trailing comma" "--threads: '2,' is not a comma-separated list of thread counts" --plan check --threads 2,
usage_error "check --threads: not digits" "--threads: '2x' is not a comma-separated list of thread counts" --plan check --threads 2x
