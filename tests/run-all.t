#!/bin/sh
# run-all.t — ./run-all --quick end to end, and a resumed interrupted run.
# Uses the tree's own ./run-all (which builds bench/lockbench itself).
top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/tap.sh"
is_png() { [ -s "$1" ] && [ "$(head -c 4 "$1" | tail -c 3)" = PNG ]; }
is_svg() { [ -s "$1" ] && grep -q "<svg" "$1"; }

echo "1..20"

# --- the whole quick suite ---
start=$(date +%s)
"$top/run-all" --quick --out "$tmp/q" >"$tmp/q.out" 2>&1
rc=$?
secs=$(($(date +%s) - start))
echo "# ./run-all --quick took ${secs} s"
check "--quick exits 0" '[ $rc -eq 0 ]'
check "--quick finishes within 3 minutes (${secs} s)" '[ $secs -lt 180 ]'
check "report.md exists" '[ -s "$tmp/q/report.md" ]'
check "report has the counter sweep table with numbers" \
	'grep -Eq "^\| 1 \| [0-9]+ \|" "$tmp/q/report.md"'
check "report has the patch-style histogram" \
	'! grep -q "^### creat" "$tmp/q/report.md" || grep -q "acq time = 2^bin cycles" "$tmp/q/report.md"'
pngs=0 bad=""
for img in $(grep -o 'plots/[^)]*\.png' "$tmp/q/report.md"); do
	pngs=$((pngs + 1))
	is_png "$tmp/q/$img" || bad="$bad $img"
	is_svg "$tmp/q/${img%.png}.svg" || bad="$bad ${img%.png}.svg"
done
check "every plot in the report is a non-empty PNG and SVG ($pngs plots)" '[ $pngs -ge 2 ] && [ -z "$bad" ]'
check "progress shows run counts and ETA" 'grep -q "^\[1/[0-9]*\] .*ETA" "$tmp/q.out"'
check "no run failed" 'grep -q "^None: all" "$tmp/q/report.md"'
check "the report states the timing mode" 'grep -q "^Acquisition timing: \`--timing all\` ([0-9]* run(s))" "$tmp/q/report.md"'
check "the counter sweep includes Concurrency Kit's locks" \
	'head -n 1 "$tmp/q/data/sweep-counter-ops_per_s.csv" | grep -q ",ck-mcs,.*ck-ticket,"'
nodes=$(awk -F, '$1 == "topology_numa_nodes" { print $2 }' "$(ls -d "$tmp"/q/runs/*/ | head -n 1)meta.csv")
if [ "${nodes:-1}" -ge 2 ]; then
	check "ck-cohort is in the sweep ($nodes NUMA nodes)" 'grep -q "^sweep-counter-t[0-9]*-ck-cohort-" "$tmp/q/plan.txt"'
else
	check "ck-cohort is skipped on one NUMA node, and the report says so" \
		'! grep -q "ck-cohort" "$tmp/q/plan.txt" && grep -q "^\`ck-cohort\` was skipped: this machine has 1 NUMA node" "$tmp/q/report.md"'
fi

# Kernel lock capture (--kernel-locks): where it works, the real kernel's row
# in the patch tables and a column of the contended histogram's chart data;
# where it does not, one line saying why.
if grep -q -- ' --kernel-locks' "$tmp/q/plan.txt"; then
	check "the patch tables have the real kernel's row" \
		'grep -q "^kernel [0-9]*\.[0-9]* [a-z_]*  *[0-9]" "$tmp/q/report.md"'
	check "its histogram is in the same chart's data as the models'" \
		'head -n 1 "$tmp/q/data/hist-contended-creat-t$((4 * $(getconf _NPROCESSORS_ONLN))).csv" | grep -Eq ",kernel [0-9.]+( [a-z_]+)?\$"'
else
	check "the report says once why there is no kernel row" \
		'[ "$(grep -c "^Kernel lock capture is unavailable here (" "$tmp/q/report.md")" -eq 1 ]'
	ok "# skip kernel lock capture unavailable: no kernel row to look for"
fi

# --- interrupted, then resumed ---
"$top/run-all" --quick --workloads counter --locks tas,futex --out "$tmp/r" >"$tmp/r.out" 2>&1 &
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
check "an interrupted run exits 130 (got $rc)" '[ $rc -eq 130 ]'
check "it kept its finished runs ($finished of $total)" '[ $finished -ge 2 ] && [ $finished -lt $total ]'
check "it left no half-written run directory" '! ls -d "$tmp"/r/runs/*.partial-* >/dev/null 2>&1'
before=$(for d in "$tmp"/r/runs/*; do stat -c '%n %i' "$d"; done)
# What a lockbench killed outright leaves (bench/fileutil.h): a staging and a
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
