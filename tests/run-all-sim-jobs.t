#!/bin/sh
# run-all-sim-jobs.t — ./run-all --sim: a workload whose op is many
# acquisitions (fserver's job) runs long enough for whole jobs, sized by a
# pilot of each lock (--quick: no pilot, the short default); --sim-cpus N; and
# `--report A B`, whose report of the directories side by side has their
# simulated runs (docs/sim.md, "run-all --sim").
top=$(cd "$(dirname "$0")/.." && pwd)
# run-all drives the tree's plain build whatever the test build is.
if [ -n "${SANITIZER:-}" ]; then
	echo "1..0 # skip ./run-all drives the tree's plain build: make test runs this (a sanitizer changes nothing here)"
	exit 0
fi
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/tap.sh"
unset LOCKBENCH_EXEC_SO

echo "1..9"

# A profile whose fserver job is 10000 acquisitions (creat's times as
# fserver's: this checks the plumbing, not a figure), 4 simulated CPUs:
# 8 threads make about 40000 acquisitions a thread a simulated second here,
# so the default 0.2 s finishes no job, and 3 jobs a thread take well over 0.2 s.
prof=$top/sim/profiles/nehalem-ex-64.profile
{ grep -v '^workload\.fserver\.' "$prof"; grep '^workload\.creat\.\(hold\|gap\) ' "$prof" | sed 's/^workload\.creat\./workload.fserver./'
  echo "workload.fserver.acq_per_op = 10000  # derived: run-all-sim-jobs.t, a job longer than the default run"; } >"$tmp/job.profile"

# --- fserver sized for whole jobs ---
"$top/run-all" --sim "$tmp/job.profile" --sim-cpus 4 --reps 1 --locks kmutex-spin,kmutex-fix --workloads fserver \
	--out "$tmp/j" >"$tmp/j.out" 2>&1
rc=$?
said=$(sed -n 's/^run-all: simulated fserver at 8 threads: 3 jobs of 10000 acquisitions a thread take \([0-9.]*\) simulated s a run at kmutex-[a-z]*.s pace, the slowest ([0-9]* acquisitions a thread a simulated s in a pilot)$/\1/p' "$tmp/j.out")
check "a job of 10000 acquisitions: run-all says how long 3 jobs a thread take at the slowest pilot's pace (rc=$rc, ${said:-nothing} s)" \
	'[ $rc -eq 0 ] && [ -n "$said" ] && awk -v d="$said" "BEGIN { exit !(d > 0.2) }"'
check "plan.txt runs fserver that long, after the default run's warm-up (0.05)" \
	'[ "$(grep -c -- "^sim-fserver-t8-kmutex-[a-z]*-r1 -l kmutex-[a-z]* -w fserver -t 8 -d $said --warmup 0.05 --sim $tmp/job.profile --sim-cpus 4 --sim-seed 1\$" "$tmp/j/plan.txt")" -eq 2 ]'
# The whole jobs of each lock's run (summary.csv's ops), the fewer of the
# two: the pace is a pilot's mean, and kmutex-spin at 2 threads a CPU is
# unfair (a thread may make a tenth of another's acquisitions), so each
# lock is asked a job a thread on average, not each thread 3; the default
# 0.2 s made a few at most.
fewest=$(awk -F, '$1 == "ops" { if (min == "" || $2 < min) min = $2 } END { print min }' "$tmp"/j/runs/sim-fserver-*/summary.csv)
check "each lock finished at least a whole job a thread on average (the fewer: ${fewest:-none} jobs of 8 threads)" \
	'[ -n "$fewest" ] && [ "$fewest" -ge 8 ]'
check "the report's fserver section has a jobs/min for kmutex-spin and kmutex-fix, no 'no job finished'" \
	'grep -q "^| Jobs/min (simulated) | 91657 | 149325 | 1.63x | [1-9][0-9]* | [1-9][0-9]* " "$tmp/j/report.md" &&
	 ! grep -q "^(No jobs finished" "$tmp/j/report.md"'

# --- --quick: no pilot, both workloads at the short default ---
"$top/run-all" --sim "$tmp/job.profile" --sim-cpus 4 --quick --reps 1 --locks kmutex-spin,kmutex-fix \
	--out "$tmp/q" >"$tmp/q.out" 2>&1
rc=$?
check "--quick: creat and fserver both run for 0.05 simulated s, no pilot, and fserver's jobs/min says no job finished (rc=$rc)" \
	'[ $rc -eq 0 ] && grep -q "^sim-creat-t8-" "$tmp/q/plan.txt" &&
	 [ "$(grep -c -- "^sim-fserver-t8-kmutex-[a-z]*-r1 .* -d 0.05 " "$tmp/q/plan.txt")" -eq 2 ] &&
	 ! grep -q "^run-all: simulated fserver" "$tmp/q.out" && grep -q "^(No jobs finished in these simulated seconds: the Jobs/min row is no figure" "$tmp/q/report.md"'

# --- --sim-cpus N ---
check "--sim-cpus 4: every plan line and meta.csv say 4 CPUs, and the threads are twice that" \
	'[ "$(grep -c -- " -t 8 .* --sim-cpus 4 " "$tmp/q/plan.txt")" -eq "$(wc -l <"$tmp/q/plan.txt")" ] &&
	 grep -qx "sim_cpus,4" "$tmp/q/runs/sim-creat-t8-kmutex-fix-r1/meta.csv"'
bad=""
for args in "--sim nehalem-ex-64 --sim-cpus 0" "--sim nehalem-ex-64 --sim-cpus 257" "--sim nehalem-ex-64 --sim-cpus 4x" \
	"--sim-cpus 4" "--sim nehalem-ex-64 --sim-cpus"; do
	# shellcheck disable=SC2086
	"$top/run-all" $args --out "$tmp/x" >"$tmp/x.out" 2>"$tmp/x.err"
	rc=$?
	{ [ $rc -eq 2 ] && [ "$(wc -l <"$tmp/x.err")" -eq 1 ] && grep -q "^run-all: --sim-cpus" "$tmp/x.err" && [ ! -e "$tmp/x" ]; } ||
		bad="$bad [$args: rc=$rc $(head -c 120 "$tmp/x.err")]"
done
check "--sim-cpus 0, 257, 4x, without --sim, without a value: one line, exit 2, nothing made${bad:+:$bad}" '[ -z "$bad" ]'

# --- --report A B: the simulated runs reach the hosts' report ---
cp -R "$tmp/q" "$tmp/q2"
"$top/run-all" --report "$tmp/q" "$tmp/q2" --out "$tmp/h" >"$tmp/h.out" 2>&1
rc=$?
h=$tmp/h/report.md
check "--report A B: the report side by side has the simulated section, creat's table per directory (rc=$rc)" \
	'[ $rc -eq 0 ] && grep -qx "## Simulated: the seed.s machine" "$h" && grep -qx "### creat, simulated" "$h" &&
	 grep -qx -- "- \`simulated\`: \`$(cd "$tmp/q" && pwd -P)\`" "$h" && grep -qx -- "- \`simulated#2\`: \`$(cd "$tmp/q2" && pwd -P)\`" "$h" &&
	 grep -qx "\`simulated#2\`, 8 threads:" "$h"'
check "--report A B: data/sim-creat.txt, lbcompare's text of both directories' simulated runs" \
	'[ -s "$tmp/h/data/sim-creat.txt" ] && grep -q "kmutex-fix" "$tmp/h/data/sim-creat.txt"'
