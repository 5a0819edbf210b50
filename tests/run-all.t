#!/bin/sh
# run-all.t — ./run-all --quick end to end, and a resumed interrupted run.
# Uses the tree's own ./run-all (which builds bench/lockbench itself).
top=$(cd "$(dirname "$0")/.." && pwd)
# That build is the plain one whatever the test build is (run-all runs
# bench/lockbench, analysis/lbcompare and build/liblockbench-exec.so), so
# under a sanitizer this file would only repeat make test's run of it.
if [ -n "${SANITIZER:-}" ]; then
	echo "1..0 # skip ./run-all drives the tree's plain build: make test runs this (a sanitizer changes nothing here)"
	exit 0
fi
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/tap.sh"
is_png() { [ -s "$1" ] && [ "$(head -c 4 "$1" | tail -c 3)" = PNG ]; }
is_svg() { [ -s "$1" ] && grep -q "<svg" "$1"; }

echo "1..38"

# --- the whole quick suite ---
# One repetition (quick mode's default is 5: five times as long): the
# pipeline end to end; the rounds and the statistics are tested below.
# run-all drives the tree's own bench/lockbench (it builds it), so its real
# programs run under that build's library, not $LOCKBENCH_EXEC_SO (make
# tsan's: its runtime would be loaded after libc, by a launcher without it).
unset LOCKBENCH_EXEC_SO
start=$(date +%s)
"$top/run-all" --quick --reps 1 --out "$tmp/q" >"$tmp/q.out" 2>&1
rc=$?
secs=$(($(date +%s) - start))
# How long it took is printed, not tested: a timed assertion fails on a busy
# machine (it did, at 203 s under load 13); --quick's length is its plan's
# estimate, tested in run-all-quick.t.
echo "# ./run-all --quick --reps 1 took ${secs} s"
check "--quick exits 0" '[ $rc -eq 0 ]'
check "report.md exists" '[ -s "$tmp/q/report.md" ]'
check "report has the counter sweep table with numbers" \
	'grep -Eq "^\| 1 \| [0-9]+ \|" "$tmp/q/report.md"'
check "report links the patch table's full text, with the patch-style histogram" \
	'! grep -q "^### creat" "$tmp/q/report.md" ||
	 { grep -q "\`data/patch-creat.txt\`" "$tmp/q/report.md" && grep -q "acq time = 2^bin cycles" "$tmp/q/data/patch-creat.txt"; }'
pngs=0 bad=""
for img in $(grep -o 'plots/[^)]*\.png' "$tmp/q/report.md"); do
	pngs=$((pngs + 1))
	is_png "$tmp/q/$img" || bad="$bad $img"
	is_svg "$tmp/q/${img%.png}.svg" || bad="$bad ${img%.png}.svg"
done
check "every plot in the report is a non-empty PNG and SVG ($pngs plots)" '[ $pngs -ge 2 ] && [ -z "$bad" ]'
check "progress shows run counts and ETA" 'grep -q "^\[1/[0-9]*\] .*ETA" "$tmp/q.out"'
check "no run failed" 'grep -q "^None: all" "$tmp/q/report.md"'
# On 16 CPUs or fewer a plain run adds the patch experiment simulated on the
# seed's machine (docs/sim.md): after the real runs, its own section.
check "a small machine's plain run has the simulated section, on nehalem-ex-64 at 256 threads" \
	'[ "$(getconf _NPROCESSORS_ONLN)" -gt 16 ] ||
	 { grep -q "^sim-creat-t256-kmutex-spin-r1 .* --sim nehalem-ex-64 --sim-cpus 128 --sim-seed 1\$" "$tmp/q/plan.txt" &&
	   grep -qx "## Simulated: the seed.s machine" "$tmp/q/report.md" && grep -q "^run-all: [0-9]* simulated run(s)" "$tmp/q.out"; }'
check "the report states the timing mode" 'grep -q "^Acquisition timing: \`--timing all\` ([0-9]* run(s))" "$tmp/q/report.md"'
# A first look (issue 42): --quick's sweep leaves out Concurrency Kit's locks
# and the patch table's, and the report says so (a full plan keeps them:
# run-all-quick.t).
check "--quick's counter sweep leaves out Concurrency Kit's locks, and the report says what it left out" \
	'head -n 1 "$tmp/q/data/sweep-counter-ops_per_s.csv" | grep -q ",tas," &&
	 ! head -n 1 "$tmp/q/data/sweep-counter-ops_per_s.csv" | grep -q ",ck-" &&
	 grep -q "^\`--quick\`.s sweep leaves out Concurrency Kit.s locks" "$tmp/q/report.md"'

# Kernel lock capture (--kernel-locks): where it works, the real kernel's row
# in the patch tables and a column of the contended histogram's chart data;
# where it does not, one line saying why.
if grep -q -- ' --kernel-locks' "$tmp/q/plan.txt"; then
	check "the patch tables have the real kernel's row" \
		'grep -q "^| kernel [0-9]*\.[0-9]* [a-z_]* | [0-9]" "$tmp/q/report.md"'
	check "its histogram is in the same chart's data as the models'" \
		'head -n 1 "$tmp/q/data/hist-contended-creat-t$((4 * $(getconf _NPROCESSORS_ONLN))).csv" | grep -Eq ",kernel [0-9.]+( [a-z_]+)?\$"'
	# Models vs the running kernel's mutex: the registry's kernel workload
	# (fpos) at 4x the CPUs in --quick (a full run adds 1x and 2x:
	# run-all-quick.t), `none` first, then the patch table's other locks in
	# its order (lockbench --list's plan: section).
	ncpu=$(getconf _NPROCESSORS_ONLN)
	others=$("$top/bench/lockbench" --list | awk '$1 == "patch-lock" && $3 == "always" { printf " %s", $2 }')
	want="|t$((4 * ncpu)): none$others"
	have=$(awk '/^kernel-/ { t = $7; if (t != last) printf "|t%s:", t; last = t; printf " %s", $3 }' "$tmp/q/variants.txt")
	check "the plan has the models-vs-kernel experiment: fpos at 4x the CPUs, the kernel's none first, then the patch table's locks ($have)" \
		'[ "$have" = "$want" ] && [ "$(grep -c "^kernel-fpos-t[0-9]*-none -l none -w fpos .* --kernel-locks" "$tmp/q/variants.txt")" -eq 1 ]'
	check "the report's section: a table and a chart for it" \
		'grep -q "^## Models against the running kernel.s mutex$" "$tmp/q/report.md" &&
		 [ "$(grep -c "^| the kernel.s mutex: none | " "$tmp/q/report.md")" -eq 1 ] &&
		 [ "$(grep -c "^!\[contended acquisition times of the models and the kernel.s mutex waits, fpos" "$tmp/q/report.md")" -eq 1 ]'
else
	check "the report says once why there is no kernel row" \
		'[ "$(grep -c "^Kernel lock capture is unavailable here (" "$tmp/q/report.md")" -eq 1 ]'
	check "and why the models-vs-kernel experiment did not run" \
		'! grep -q "^kernel-" "$tmp/q/plan.txt" && grep -q "^\`fpos\`: not run: kernel lock capture is unavailable here (" "$tmp/q/report.md"'
	ok "# skip kernel lock capture unavailable: no kernel row to look for"
	ok "# skip kernel lock capture unavailable: no kernel section to look for"
fi

# Without kernel capture the models-vs-kernel experiment has no baseline: a
# lockbench whose capture fails (a stand-in for one without BPF) plans none
# of it and says why, in one line; with nothing else to run, before anything.
# lockbench --plan run-env probes capture with its own binary, not through
# the stand-in: the stand-in's run-env says what such a lockbench's would
# (plan-c.t checks the probe's failure itself).
printf '#!/bin/sh\nfor a in "$@"; do [ "$a" != --kernel-locks ] || { echo "lockbench: --kernel-locks: not permitted here (run-all.t)" >&2; exit 2; }; done\n[ "$*" != "--plan run-env" ] || { "%s" --plan run-env | sed "s/^KL=.*/KL=/; s/^KL_WHY=.*/KL_WHY=not permitted here (run-all.t)/"; exit; }\nexec "%s" "$@"\n' \
	"$top/bench/lockbench" "$top/bench/lockbench" >"$tmp/nokl-lb"
chmod +x "$tmp/nokl-lb"
"$top/run-all" --lockbench "$tmp/nokl-lb" --quick --reps 1 --workloads fpos --out "$tmp/nokl" >"$tmp/nokl.out" 2>"$tmp/nokl.err"
rc=$?
check "no capture, only the kernel experiment wanted: nothing to run, why in one line, exit 2 (rc=$rc)" \
	'[ $rc -eq 2 ] && [ ! -s "$tmp/nokl.out" ] && [ ! -e "$tmp/nokl" ] &&
	 grep -qx "run-all: nothing to run: no lock and workload left after the filters; models vs the running kernel.s mutex (fpos) not planned: kernel lock capture is unavailable here (not permitted here (run-all.t))" "$tmp/nokl.err"'
"$top/run-all" --lockbench "$tmp/nokl-lb" --quick --reps 1 --workloads fpos,counter --locks tas --threads 1 --out "$tmp/nokl" >"$tmp/nokl.out" 2>&1
rc=$?
check "no capture, with another workload: the rest runs, the line said before it (rc=$rc)" \
	'[ $rc -eq 0 ] && ! grep -q "^kernel-" "$tmp/nokl/plan.txt" && grep -q "^sweep-counter-t1-tas-r1 " "$tmp/nokl/plan.txt" &&
	 sed -n 2p "$tmp/nokl.out" | grep -qx "run-all: models vs the running kernel.s mutex (fpos) not planned: kernel lock capture is unavailable here (not permitted here (run-all.t))" &&
	 grep -qx "\`fpos\`: not run: kernel lock capture is unavailable here (not permitted here (run-all.t)), and without it the experiment has no baseline." "$tmp/nokl/report.md"'

# --- interrupted, then resumed ---
"$top/run-all" --quick --reps 2 --workloads counter --locks tas,futex --out "$tmp/r" >"$tmp/r.out" 2>&1 &
pid=$!
for i in $(seq 1 300); do
	[ "$(ls "$tmp"/r/runs/*/summary.csv 2>/dev/null | wc -l)" -ge 2 ] && break
	sleep 0.1
done
kill -TERM $pid
wait $pid
rc=$?
finished=$(ls "$tmp"/r/runs/*/summary.csv | wc -l)
total=$(wc -l <"$tmp/r/plan.txt")
cp "$tmp/r/plan.txt" "$tmp/r-plan-before"
check "an interrupted run exits 130 (got $rc)" '[ $rc -eq 130 ]'
check "it kept its finished runs ($finished of $total)" '[ $finished -ge 2 ] && [ $finished -lt $total ]'
check "it left no half-written run directory" '! ls -d "$tmp"/r/runs/*.partial-* >/dev/null 2>&1'
before=$(for d in "$tmp"/r/runs/*; do stat -c '%n %i' "$d"; done)
# What a lockbench killed outright leaves (bench/workloads/fileutil.h): a staging and a
# workload directory stamped by a process that is gone; and a live one's.
sleep 30 &
dead=$!
kill $dead
wait $dead 2>/dev/null
boot=$(cat /proc/sys/kernel/random/boot_id)
mkdir -p "$tmp/r/runs/gone.partial-AAAAAA" "$tmp/t/lockbench-creat-BBBBBB" "$tmp/r/runs/live.partial-CCCCCC"
echo "$dead 1 $boot" >"$tmp/r/runs/gone.partial-AAAAAA/.lockbench-owner"
echo "$dead 1 $boot" >"$tmp/t/lockbench-creat-BBBBBB/.lockbench-owner"
echo "$$ $(sed 's/.*) //' /proc/$$/stat | cut -d' ' -f20) $boot" >"$tmp/r/runs/live.partial-CCCCCC/.lockbench-owner"
TMPDIR="$tmp/t" "$top/run-all" --resume "$tmp/r" >"$tmp/resume.out" 2>&1
rc=$?
check "--resume removed a killed lockbench's directories and kept a live one's" \
	'[ ! -e "$tmp/r/runs/gone.partial-AAAAAA" ] && [ ! -e "$tmp/t/lockbench-creat-BBBBBB" ] &&
	 [ -d "$tmp/r/runs/live.partial-CCCCCC" ]'
rm -r "$tmp/r/runs/live.partial-CCCCCC"
after=$(for d in "$tmp"/r/runs/*; do stat -c '%n %i' "$d"; done)
check "--resume completes (exit $rc)" '[ $rc -eq 0 ] && [ "$(ls "$tmp"/r/runs/*/summary.csv | wc -l)" -eq $total ] && [ "$(ls "$tmp/r/runs" | wc -l)" -eq $total ]'
check "--resume did not redo finished runs" \
	'[ -z "$(echo "$before" | grep -vxF "$(echo "$after")")" ] && [ "$(grep -c "^\[" "$tmp/resume.out")" -eq $((total - finished)) ]'
check "--resume wrote the report" '[ -s "$tmp/r/report.md" ]'
check "--resume kept the plan and its order" 'cmp -s "$tmp/r-plan-before" "$tmp/r/plan.txt"'

# --- rounds: every variant once per round, each round in its own order ---
"$top/run-all" --quick --workloads counter --locks tas,ticket --threads 1,2 --reps 4 --order-seed 7 \
	--out "$tmp/s" >"$tmp/s.out" 2>&1
rc=$?
plan=$tmp/s/plan.txt
check "a run of 4 rounds exits 0 and plans 16 runs (rc=$rc)" '[ $rc -eq 0 ] && [ "$(wc -l <"$plan")" -eq 16 ]'
# Round r is plan lines 4r-3..4r: the 4 variants, each named -rR and run with --seed R.
bad=$(awk '{ r = int((NR - 1) / 4) + 1; v = $1; sub(/-r[0-9]+$/, "", v)
	if ($1 != v "-r" r || $NF != r || $(NF - 1) != "--seed") print "line " NR
	if (seen[r, v]++) print "twice in round " r ": " v }' "$plan")
check "each round runs every variant once, as NAME-rR with --seed R${bad:+ ($bad)}" '[ -z "$bad" ]'
orders=$(awk '{ v = $1; sub(/-r[0-9]+$/, "", v); o[int((NR - 1) / 4)] = o[int((NR - 1) / 4)] " " v }
	END { for (r in o) print o[r] }' "$plan" | sort -u | wc -l)
check "the rounds run in different orders ($orders distinct of 4)" '[ "$orders" -ge 2 ]'
check "variants.txt lists the variants in table order, tas first" \
	'[ "$(cut -d" " -f1 "$tmp/s/variants.txt" | tr "\n" " ")" = "sweep-counter-t1-tas sweep-counter-t1-ticket sweep-counter-t2-tas sweep-counter-t2-ticket " ]'
# The same seed plans the same order: a second run stopped as soon as it has its plan.
"$top/run-all" --quick --workloads counter --locks tas,ticket --threads 1,2 --reps 4 --order-seed 7 \
	--out "$tmp/s2" >/dev/null 2>&1 &
pid=$!
for i in $(seq 1 300); do
	[ -s "$tmp/s2/plan.txt" ] && break
	sleep 0.1
done
kill -TERM $pid
wait $pid
check "--order-seed 7 plans the same order again, and settings records it" \
	'cmp -s "$plan" "$tmp/s2/plan.txt" && grep -qx "ORDER_SEED=7" "$tmp/s/settings"'
check "the report says how the rounds were ordered and how to read the verdicts" \
	'grep -q "run in 4 round(s), each round every variant once in an order shuffled from seed 7" "$tmp/s/report.md" &&
	 grep -q "Mann-Whitney U test over the repetitions" "$tmp/s/report.md" &&
	 grep -q -- "--order-seed 7" "$tmp/s/report.md"'
check "its tables have 95% CIs and verdicts, and a differences table; the report, the sweep's verdicts" \
	'grep -q "Ops/sec \[95% CI\]  *ratio verdict" "$tmp/s/data/sweep-counter.txt" &&
	 grep -Eq "^\| 2 \| tas \| .*\`ticket\` [0-9.e+-]+x.* \|\$" "$tmp/s/report.md" &&
	 grep -Eq "^ticket  +Ops/sec +4:4 +[0-9.]+x .* (faster|slower|no difference)\$" "$tmp/s/data/sweep-counter.txt"'
check "it writes the statistics and the error bars' data" \
	'head -n 1 "$tmp/s/data/stats-counter-t2.csv" | grep -q "^variant,figure,runs,median,ci_lo,ci_hi," &&
	 head -n 1 "$tmp/s/data/sweep-counter-ops_per_s-ci.csv" | grep -qx "threads,tas,tas lo,tas hi,ticket,ticket lo,ticket hi"'
check "the report sums up the machine's noise during the runs" \
	'grep -A2 "^### Noise during the runs" "$tmp/s/report.md" | grep -Eq "^(Other processes used a median [0-9.]+%|These runs recorded no noise)"'

# --- --report with several hosts' directories: one report, hosts side by side ---
# The "other host" is a copy of the run above with its meta.csv naming
# another machine: real figures, only the identity differs.
cp -r "$tmp/s" "$tmp/vm" && cp -r "$tmp/s" "$tmp/box"
for m in "$tmp"/box/runs/*/meta.csv; do
	sed -i 's/^hostname,.*/hostname,bigbox/; s/^topology_pus_usable,.*/topology_pus_usable,64/; s/^topology_numa_nodes,.*/topology_numa_nodes,4/' "$m"
done
rm -f "$tmp/vm/report.md" "$tmp/box/report.md"
"$top/run-all" --report "$tmp/vm" "$tmp/box" --out "$tmp/hosts" >"$tmp/hosts.out" 2>"$tmp/hosts.err"
rc=$?
hr=$tmp/hosts/report.md
check "--report DIR DIR --out DIR writes each directory's report and one of both, silently (rc=$rc$(head -c 200 "$tmp/hosts.err"))" \
	'[ $rc -eq 0 ] && [ -s "$tmp/vm/report.md" ] && [ -s "$tmp/box/report.md" ] && [ -s "$hr" ] && [ ! -s "$tmp/hosts.err" ]'
check "the hosts' report names both hosts with CPU, PUs, NUMA nodes and kernel" \
	'grep -Eq "^  bigbox +.*64 PUs usable, 4 NUMA nodes; kernel " "$hr" && [ "$(grep -c "PUs usable" "$hr")" -ge 2 ]'
check "its counter table has a column per host and the locks as rows" \
	'grep -A1 "^== across hosts: workload counter" "$hr" | tail -n 1 | grep -q "bigbox, 2 threads" &&
	 [ "$(awk "/^== across hosts: workload counter/ { on = 1; next } on && /^(tas|ticket) / { n++ } on && /^\$/ { exit } END { print n + 0 }" "$hr")" -eq 2 ]'
cp "$tmp/s/report.md" "$tmp/s-report-before"
"$top/run-all" --report "$tmp/vm" "$tmp/box" --out "$tmp/s" >"$tmp/hosts2.out" 2>&1
rc=$?
check "--out naming a run-all run is refused in one line, its report untouched (rc=$rc)" \
	'[ $rc -eq 2 ] && [ "$(wc -l <"$tmp/hosts2.out")" -eq 1 ] && grep -q "is a run-all run" "$tmp/hosts2.out" &&
	 cmp -s "$tmp/s-report-before" "$tmp/s/report.md"'
"$top/run-all" --report "$tmp/vm" --out "$tmp/x" >"$tmp/hosts3.out" 2>&1
rc=$?
check "--out with one --report directory is refused (rc=$rc)" '[ $rc -eq 2 ] && [ ! -e "$tmp/x" ]'
