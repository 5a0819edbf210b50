#!/bin/sh
# run-all-summary.t — run-all's last line (issue 42): a stopped run's runs
# that never ran are "not made", not failed, in that line and in report.md;
# `--report D1 D2` says each directory's line, D1's first.
top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/tap.sh"
LB=${LOCKBENCH:-$top/bench/lockbench}
case $LB in /*) ;; *) LB=$PWD/$LB ;; esac
echo "1..4"

# --- a stopped run: the runs it never made are not failed ---
# Four 0.7 s runs, stopped while the second runs: one finished (two, on a
# machine so loaded that the second ends first), the rest not made (one cut
# short is not kept: --resume runs it again).
stop_at "^\[2/" "$tmp/stop.out" "$top/run-all" --lockbench "$LB" --quick --reps 2 --workloads counter \
	--locks tas,ticket --threads 1 --out "$tmp/stop"
made=$(ls "$tmp"/stop/runs/*/summary.csv 2>/dev/null | wc -l)
"$top/run-all" --report "$tmp/stop" >"$tmp/srep.out" 2>"$tmp/srep.err"
rc=$?
check "a stopped run's report counts the runs it never made as not made, not failed (rc=$rc, $made made: $(tail -n 1 "$tmp/srep.out"))" \
	'[ $rc -eq 1 ] && [ "$made" -ge 1 ] && [ "$made" -le 2 ] &&
	 grep -qx "run-all: 4 runs, 0 failed, $((4 - made)) not made (./run-all --resume .*/stop. runs them); report: .*/stop/report.md" "$tmp/srep.out"'
check "and so does report.md" \
	'grep -q "^$((4 - made)) of 4 runs were not made (a stopped run.s rest: " "$tmp/stop/report.md" && ! grep -q "runs failed\.$" "$tmp/stop/report.md"'

# --- --report D1 D2: each directory's line ---
for d in one two; do
	"$top/run-all" --lockbench "$LB" --quick --reps 1 --workloads counter --locks tas --threads 1 \
		--out "$tmp/$d" >/dev/null 2>&1
done
"$top/run-all" --report "$tmp/one" "$tmp/two" --out "$tmp/hosts" >"$tmp/h.out" 2>"$tmp/h.err"
rc=$?
check "--report D1 D2 prints each directory's line, in order (rc=$rc)" \
	'[ $rc -eq 0 ] && [ "$(grep "^run-all: [0-9]* runs, " "$tmp/h.out" | sed "s|.*report: ||")" = "$(printf "%s\n%s" \
		"$(cd "$tmp/one" && pwd -P)/report.md" "$(cd "$tmp/two" && pwd -P)/report.md")" ]'
check "and then the side-by-side report's" 'tail -n 1 "$tmp/h.out" | grep -q "^run-all: report of 2 run directories side by side: "'
