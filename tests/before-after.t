#!/bin/sh
# before-after.t — a before and an after of a change (issue 42): run-all
# --report BEFORE AFTER of two directories of one plan opens with each
# variant against itself (before -> after: ratio, interval, verdict, the
# table's notes); of two plans it says so in one line and shows the hosts
# side by side as before.  lbcompare never pools repetitions of two builds
# (meta.csv's lockbench_commit, lockbench_build_id) unless --pool-builds;
# given two hosts (two machines, or --dir BEFORE --dir AFTER) it compares
# each variant with itself across them.  The "other build" is a copy of
# real runs with meta.csv's build edited, so only the identity differs.
LB=${LOCKBENCH:-bench/lockbench}
CMP=${LBCOMPARE:-analysis/lbcompare}
top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/tap.sh"

echo "1..14"

# set_meta DIR KEY VALUE: every run's meta.csv under DIR (runs, or a run-all
# directory's runs/) says KEY is VALUE.
set_meta() {
	for m in "$1"/*/meta.csv "$1"/runs/*/meta.csv; do
		[ -f "$m" ] || continue
		awk -F, -v k="$2" -v v="$3" 'BEGIN { OFS = "," } $1 == k { $0 = k "," v } { print }' "$m" >"$m.new" &&
			mv "$m.new" "$m"
	done
}
# runs DIR CS [REPS]: REPS (4) repetitions of two locks on counter, 2
# threads, a critical section of CS cycles.
runs() {
	mkdir "$1"
	for r in $(seq "${3:-4}"); do
		for l in ticket mcs; do
			"$LB" -l $l -w counter -t 2 -d 0.05 --warmup 0 --seed $r --cs "$2" --quiet -o "$1/$l-r$r" \
				>/dev/null 2>&1 || echo "# $l r$r failed"
		done
	done
}

# --- README's recipe (tests/docs.t runs it) ---
# Its commands, continuation lines joined: the old build (--lockbench)
# makes the before, not the after, and the report of both follows.
recipe=$(awk '/^Before and after a change/ { on = 1 } on && /^```sh$/ { b = 1; next } b && /^```$/ { exit } b' "$top/README.md" |
	sed -e :a -e '/\\$/N; s/\\\n[[:space:]]*/ /; ta' | sed 's/ *#.*//')
check "README's before/after recipe: --lockbench drives the before, the report of both follows" \
	'printf "%s\n" "$recipe" | grep -q -- "--out /tmp/before .*--lockbench" &&
	 ! printf "%s\n" "$recipe" | grep -q -- "--out /tmp/after.*--lockbench" &&
	 printf "%s\n" "$recipe" | tail -n 1 | grep -q "^\./run-all --report /tmp/before /tmp/after" &&
	 ! grep -q "would pool" "$top/README.md"'

# --- lbcompare: two builds are not pooled ---
runs "$tmp/old" 0
cp -R "$tmp/old" "$tmp/new"
set_meta "$tmp/new" lockbench_build_id 00000000000000000000000000000000000000ff
old_id=$(awk -F, '$1 == "lockbench_build_id" { print $2 }' "$tmp/old/ticket-r1/meta.csv")
"$CMP" "$tmp/old" "$tmp/new" >"$tmp/out" 2>"$tmp/err"
rc=$?
check "runs of two builds (build ID) are refused in one line naming both (rc=$rc: $(head -c 300 "$tmp/err"))" \
	'[ $rc -eq 1 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && [ ! -s "$tmp/out" ] &&
	 grep -qF "build ID $old_id" "$tmp/err" && grep -qF "build ID 00000000000000000000000000000000000000ff" "$tmp/err" &&
	 grep -q -- "--pool-builds" "$tmp/err"'
cp -R "$tmp/old" "$tmp/other-commit"
set_meta "$tmp/other-commit" lockbench_commit 1234abc
"$CMP" "$tmp/old" "$tmp/other-commit" >"$tmp/out" 2>"$tmp/err"
rc=$?
check "runs of two commits are refused too (rc=$rc)" \
	'[ $rc -eq 1 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "lockbench 1234abc," "$tmp/err"'
"$CMP" --pool-builds "$tmp/old" "$tmp/new" >"$tmp/out" 2>"$tmp/err"
rc=$?
check "--pool-builds pools them: one variant of 8 repetitions (rc=$rc)" \
	'[ $rc -eq 0 ] && [ ! -s "$tmp/err" ] && grep -q "the median of 8 repetitions" "$tmp/out"'
"$CMP" --help >"$tmp/help"
check "--help names --pool-builds" 'grep -q "^--pool-builds: " "$tmp/help"'

# --- lbcompare: two hosts, each variant against itself ---
# The after's critical section is far longer (2M cycles, about a
# millisecond: at most ~1000 ops/s, where the empty one makes 10^5 and more
# even on a loaded 2-CPU machine): its throughput falls, which four
# repetitions a side could show (smallest p 0.029); six a side, so that
# one run of the empty section made slow by a neighbour cannot hide it.
runs "$tmp/fast" 0 6
runs "$tmp/slow" 2000000 6
set_meta "$tmp/slow" hostname after-box
"$CMP" "$tmp/fast" "$tmp/slow" >"$tmp/out" 2>"$tmp/err"
rc=$?
table=$(awk '/^== before -> after, each variant against itself: .* -> after-box, workload counter, 2 threads ==$/ { on = 1; next }
	on && /^$/ { exit } on { print }' "$tmp/out")
printf '%s\n' "$table" | sed 's/^/# /'
check "two hosts: a before -> after table with a row per lock, each 'slower' with its interval (rc=$rc)" \
	'[ $rc -eq 0 ] && [ "$(printf "%s\n" "$table" | grep -Ec "^(ticket|mcs) .*x \[[0-9.e+-]+\.\.[0-9.e+-]+\] +slower$")" -eq 2 ]'
check "and the table's chance note (2 verdicts tested)" \
	'printf "%s\n" "$table" | grep -q "^2 verdicts tested here, 2 of them a difference"'

# --- run-all --report BEFORE AFTER ---
plan="--quick --locks ticket,mcs --workloads counter --threads 2 --reps 2 --duration 0.05 --lockbench $LB"
"$top/run-all" $plan --order-seed 3 --out "$tmp/before" >/dev/null 2>&1 || echo "# run-all of the before failed"
"$top/run-all" $plan --order-seed 3 --out "$tmp/after" >/dev/null 2>&1 || echo "# run-all of the after failed"
set_meta "$tmp/after" lockbench_build_id 00000000000000000000000000000000000000ff
"$top/run-all" --report "$tmp/before" "$tmp/after" --out "$tmp/both" >"$tmp/out" 2>&1
rc=$?
r=$tmp/both/report.md
check "--report BEFORE AFTER of one plan: the first section is before -> after (rc=$rc)" \
	'[ $rc -eq 0 ] && [ "$(grep -m 1 "^## " "$r")" = "## Before → after: each variant against itself" ]'
check "with a row per variant: before, after, ratio and verdict" \
	'[ "$(grep -Ec "^\| (ticket|mcs) \| [0-9]+ \[[0-9]+–[0-9]+\] \| [0-9]+ \[[0-9]+–[0-9]+\] \| \*\*[0-9.]+x\*\*.*, (no difference|faster|slower) \|$" "$r")" -eq 2 ]'
check "and its notes: what 2 repetitions a side can show, what chance makes of the verdicts" \
	'grep -q "^With 2 repetitions a side no difference can be shown" "$r" && grep -q "^2 verdicts tested here" "$r"'
# Another plan (other threads): no before -> after, one line says why.
"$top/run-all" --quick --locks ticket,mcs --workloads counter --threads 1 --reps 2 --duration 0.05 --lockbench "$LB" \
	--out "$tmp/plan2" >/dev/null 2>&1 || echo "# run-all of the other plan failed"
"$top/run-all" --report "$tmp/before" "$tmp/plan2" --out "$tmp/both2" >"$tmp/out" 2>&1
rc=$?
r=$tmp/both2/report.md
check "--report of two plans: one line says so, no before -> after, the hosts side by side (rc=$rc)" \
	'[ $rc -eq 0 ] && [ "$(grep -c "^The two directories hold different plans" "$r")" -eq 1 ] &&
	 ! grep -q "Before → after" "$r" && grep -q "^== across hosts: workload counter" "$r"'
# lbcompare given the two directories' runs, labelled by --dir.
"$CMP" --dir "$tmp/before" --dir "$tmp/after" "$tmp/before/runs" "$tmp/after/runs" >"$tmp/out" 2>"$tmp/err"
rc=$?
check "lbcompare --dir BEFORE --dir AFTER: each variant before -> after, builds kept apart (rc=$rc)" \
	'[ $rc -eq 0 ] && grep -q "^== before -> after, each variant against itself: [^ ]*-dir1 -> [^ ]*-dir2, workload counter, 2 threads ==$" "$tmp/out" &&
	 [ "$(awk "/^== before -> after/ { on = 1; next } on && /^\$/ { exit } on && /^(ticket|mcs) / { n++ } END { print n + 0 }" "$tmp/out")" -eq 2 ]'
# One directory whose runs are of two builds (resumed with another
# lockbench): its report and data/ refuse to pool them, naming both.
cp -R "$tmp/before" "$tmp/mixed"
m=$(ls -d "$tmp"/mixed/runs/*-ticket-r1)/meta.csv
awk -F, 'BEGIN { OFS = "," } $1 == "lockbench_build_id" { $2 = "0000000000000000000000000000000000000abc" } { print }' \
	"$m" >"$m.new" && mv "$m.new" "$m"
"$top/run-all" --report "$tmp/mixed" >"$tmp/out" 2>&1
rc=$?
check "a directory of two builds: report.md and data/ say the two builds, pool nothing (rc=$rc)" \
	'[ $rc -eq 1 ] && grep -q "ticket on counter, 2 threads: its runs are of two builds, .*build ID 0000000000000000000000000000000000000abc" "$tmp/mixed/report.md" &&
	 grep -q "its runs are of two builds" "$tmp/mixed/data/sweep-counter.txt" && grep -q "lbcompare failed on the sweep-counter comparison" "$tmp/out"'
# A real program (--exec): each variant before -> after on its first metric.
if command -v sysbench >/dev/null 2>&1; then
	prog="--quick --workloads sysbench-mutex --locks kmutex-spin,kmutex-fix --reps 2 --duration 0.2 --lockbench $LB"
	"$top/run-all" $prog --order-seed 5 --out "$tmp/pa" >/dev/null 2>&1 || echo "# run-all of the program's before failed"
	"$top/run-all" $prog --order-seed 5 --out "$tmp/pb" >/dev/null 2>&1 || echo "# run-all of the program's after failed"
	"$top/run-all" --report "$tmp/pa" "$tmp/pb" --out "$tmp/pab" >/dev/null 2>&1
	rc=$?
	r=$tmp/pab/report.md
	check "--report BEFORE AFTER of a program's runs: each lock before -> after on its metric (rc=$rc)" \
		'grep -q "^### program: sysbench-mutex$" "$r" && grep -q "^\`sysbench-mutex\`, [0-9]* threads, total_time_s:$" "$r" &&
		 [ "$(grep -Ec "^\| kmutex-(spin|fix) \| [0-9.]+ \[[0-9.]+–[0-9.]+\] \| [0-9.]+ \[[0-9.]+–[0-9.]+\] \| \*\*[0-9.]+x\*\*" "$r")" -eq 2 ]'
else
	n=$((n + 1))
	echo "ok $n # skip sysbench is not installed: no program to run"
fi
