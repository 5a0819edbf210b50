#!/bin/sh
# lbcompare-exec.t — lbcompare over --exec runs (results/README.md, "--exec
# runs"): an experiment is a program at the threads asked of it, never pooled
# with another; each metric_NAME is judged the way metric_better_NAME says,
# the wall time too; a metric without its direction, a bad direction or a
# bad program name is refused in one line; runs written before `program`
# read as program `exec`, 0 threads asked; report.md has a "Real programs"
# section with the verdicts.  The runs are planted: one real --exec run
# (sysbench where installed, else echo) copied per lock and repetition, its
# program keys and metrics set by hand.
LB=${LOCKBENCH:-bench/lockbench}
CMP=${LBCOMPARE:-analysis/lbcompare}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/tap.sh"
echo "1..26"
exec_tsan_options

metric='events=total number of events: *([0-9]+)'
# The base run is sysbench's where installed, else echo's, which locks
# nothing.  Bounded either way.
if command -v sysbench >/dev/null 2>&1; then
	timeout -s KILL 120 "$LB" -l pthread --exec -o "$tmp/base" --quiet --metric "$metric" -- \
		sysbench threads --threads=2 --time=1 run >/dev/null 2>"$tmp/err"
else
	timeout -s KILL 120 "$LB" -l pthread --exec -o "$tmp/base" --quiet --metric "$metric" -- \
		echo 'total number of events: 812' >/dev/null 2>"$tmp/err"
fi
check "a real --exec run made ($(cat "$tmp/err"))" '[ -f "$tmp/base/summary.csv" ]'

# plant NAME LOCK PROGRAM THREADS EVENTS LATENCY: a copy of the real run as
# LOCK's run of PROGRAM, with metric events (higher is better) and latency_ms
# (lower is better).
plant() {
	rm -rf "$tmp/$1"
	cp -r "$tmp/base" "$tmp/$1"
	set_keys "$tmp/$1" lock="$2" program="$3" program_threads_asked="$4" metric_events="$5" \
		metric_better_events=higher metric_latency_ms="$6" metric_better_latency_ms=lower
}

# Program sysbench-threads at 4 threads: pthread, kmutex-spin (fewer
# events, longer latency) and kmutex-fix (more, shorter), 4 runs each.
for r in 1 2 3 4; do
	plant t4-pthread-$r pthread sysbench-threads 4 $((1000 + r)) $((50 + r)).5
	plant t4-spin-$r kmutex-spin sysbench-threads 4 $((500 + r)) $((90 + r)).5
	plant t4-fix-$r kmutex-fix sysbench-threads 4 $((2000 + r)) $((10 + r)).5
done
# The same program at 8 threads, and another program at 4: groups of their own.
for r in 1 2; do
	plant t8-pthread-$r pthread sysbench-threads 8 $((3000 + r)) 5
	plant m4-pthread-$r pthread sysbench-mutex 4 $((7000 + r)) 5
done
t4="$tmp/t4-pthread-* $tmp/t4-spin-* $tmp/t4-fix-*"

# shellcheck disable=SC2086
"$CMP" $t4 "$tmp"/t8-* "$tmp"/m4-* >"$tmp/out" 2>"$tmp/err"
check "lbcompare reads the planted runs" '[ $? -eq 0 ] && [ ! -s "$tmp/err" ]'
check "three experiments: a program at a thread count each" \
	'[ "$(grep -c "^== program " "$tmp/out")" -eq 3 ] &&
	 grep -q "^== program sysbench-threads under the interposer (docs/exec.md), 4 threads asked: 3 variants" "$tmp/out" &&
	 grep -q "^== program sysbench-threads under .*, 8 threads asked: 1 variant" "$tmp/out" &&
	 grep -q "^== program sysbench-mutex under .*, 4 threads asked: 1 variant" "$tmp/out"'
check "the metrics replace runs/sec" \
	'grep -q "events .*latency_ms .*wall s .*CPU s" "$tmp/out" && ! grep -q "Runs/sec" "$tmp/out"'

# verdict FILE VARIANT FIGURE: the differences table's verdict of VARIANT's FIGURE.
verdict() { awk -v v="$2" -v f="$3" '$1 == v && $2 == f { print $NF; exit }' "$1"; }
check "higher is better: kmutex-fix's more events better, kmutex-spin's fewer worse" \
	'[ "$(verdict "$tmp/out" kmutex-fix events)" = better ] && [ "$(verdict "$tmp/out" kmutex-spin events)" = worse ]'
check "lower is better: kmutex-fix's shorter latency better, kmutex-spin's longer worse" \
	'[ "$(verdict "$tmp/out" kmutex-fix latency_ms)" = better ] && [ "$(verdict "$tmp/out" kmutex-spin latency_ms)" = worse ]'

# The direction flips the verdict: events declared lower-is-better.
for d in $t4; do set_keys "$d" metric_better_events=lower; done
# shellcheck disable=SC2086
"$CMP" $t4 >"$tmp/flip" 2>"$tmp/err"
check "events declared lower: kmutex-fix's more events worse, kmutex-spin's better" \
	'[ "$(verdict "$tmp/flip" kmutex-fix events)" = worse ] && [ "$(verdict "$tmp/flip" kmutex-spin events)" = better ]'
# (restored in the order written: events the first metric, latency_ms the second)
for d in $t4; do set_keys "$d" metric_better_events=higher metric_better_latency_ms=lower; done

# --csv: the stats file has each metric's row with its verdict.
mkdir "$tmp/csv"
# shellcheck disable=SC2086
"$CMP" --csv "$tmp/csv" $t4 >/dev/null 2>"$tmp/err"
check "--csv: stats-exec-sysbench-threads-t4.csv has the metrics' verdicts" \
	'grep -q "^kmutex-fix,metric_events,.*,better$" "$tmp/csv/stats-exec-sysbench-threads-t4.csv" &&
	 grep -q "^kmutex-spin,metric_latency_ms,.*,worse$" "$tmp/csv/stats-exec-sysbench-threads-t4.csv"'

# A run whose output the regex did not match has no metric_events: n/a, said why.
rm -rf "$tmp/unmatched"
cp -r "$tmp/t4-fix-1" "$tmp/unmatched"
set_keys "$tmp/unmatched" metric_events=
"$CMP" "$tmp/t4-pthread-1" "$tmp/t4-pthread-2" "$tmp/unmatched" "$tmp/t4-fix-2" >"$tmp/out" 2>"$tmp/err"
check "a metric a run's output did not give: n/a, and why" \
	'[ $? -eq 0 ] && awk "/^kmutex-fix/ { print \$2; exit }" "$tmp/out" | grep -qx "n/a" &&
	 grep -q "^(n/a: in some run the program.s output did not match the metric.s regex" "$tmp/out"'

# refused DESCRIPTION WANT KEY=VALUE...: a copy of t4-fix-1 with the keys set
# is refused: exit 1, nothing on stdout, one stderr line naming summary.csv and WANT.
refused() {
	name=$1 want=$2
	shift 2
	rm -rf "$tmp/bad"
	cp -r "$tmp/t4-fix-1" "$tmp/bad"
	set_keys "$tmp/bad" "$@"
	lbcompare_refuses "$name" "$want" "$tmp/t4-pthread-1" "$tmp/bad"
}
refused "a metric without its direction" metric_better_latency_ms metric_better_latency_ms=
refused "a direction neither higher nor lower" "'up'" metric_better_events=up
refused "a program name with a blank" "program is 'a;b'" "program=a;b"
refused "a program name of 65 bytes" "program is" program=$(printf '%065d' 0)
long=$(printf 'm%031d' 0)
refused "a metric's name of 32 bytes" "metric_$long" "metric_$long=5" "metric_better_$long=higher"
refused "a metric that is no number" "'many'" metric_events=many
refused "a negative metric (a ratio of two means nothing)" "'-3', not a decimal number of 0 or more" metric_events=-3
refused "threads asked that are no count" program_threads_asked program_threads_asked=-1
refused "nine metrics" "more than 8 metrics" metric_a=1 metric_better_a=lower metric_b=1 metric_better_b=lower \
	metric_c=1 metric_better_c=lower metric_d=1 metric_better_d=lower metric_e=1 metric_better_e=lower \
	metric_f=1 metric_better_f=lower metric_g=1 metric_better_g=lower
refused "runs of a program disagreeing on a metric's direction" "other runs of program sysbench-threads say higher" \
	metric_better_events=lower

# Runs written before `program`: program exec, 0 threads asked, every
# metric higher-is-better.
for x in 1 2; do
	rm -rf "$tmp/old-$x"
	cp -r "$tmp/t4-pthread-$x" "$tmp/old-$x"
	set_keys "$tmp/old-$x" program= program_threads_asked= metric_better_events= metric_better_latency_ms=
done
"$CMP" "$tmp/old-1" "$tmp/old-2" >"$tmp/out" 2>"$tmp/err"
check "old runs without program: program exec, 0 threads asked, their metrics read" \
	'[ $? -eq 0 ] && grep -q "^== program exec under .*, 0 threads asked (not a registry run): 1 variant" "$tmp/out" &&
	 grep -q "events .*latency_ms .*wall s" "$tmp/out"'

# report.md: a run-all directory whose plan ran the program at 4 threads
# under the three locks, 4 rounds (the names are run-all's business: the
# report takes every --exec run), its run-env naming the patch pair but no
# programs' baseline (PROGRAM_BASE): the plan's first lock under a program
# is.
d=$tmp/runall
mkdir -p "$d/runs" "$d/logs"
printf 'QUICK=1\nREPS=4\nORDER_SEED=7\nSTARTED=2026-12-06T03:00:00Z\n' >"$d/settings"
printf 'NCPU=2\nNUMA_NODES=1\nALL_LOCKS=pthread kmutex-spin kmutex-fix\nALL_WORKLOADS=creat\nKL=\nKL_WHY=not here\nPATCH_PAIR=kmutex-spin kmutex-fix\n' >"$d/run-env"
for r in 1 2 3 4; do
	for l in pthread spin fix; do
		lock=kmutex-$l
		[ $l != pthread ] || lock=pthread
		name=program-sysbench-threads-t4-$l-r$r
		echo "$name --exec --program sysbench-threads -l $lock -t 4 -d 1" >>"$d/plan.txt"
		cp -r "$tmp/t4-$l-$r" "$d/runs/$name"
	done
done
"$CMP" --markdown "$d" >"$tmp/report.md" 2>"$tmp/err"
check "report.md: a Real programs section, pthread the baseline, each metric's verdict, a lower-is-better one said so" \
	'[ $? -eq 0 ] && grep -q "^## Real programs" "$tmp/report.md" &&
	 grep -q "^### .sysbench-threads., 4 threads asked" "$tmp/report.md" &&
	 grep -q "^| pthread (baseline) |" "$tmp/report.md" &&
	 grep "^| kmutex-fix |" "$tmp/report.md" | grep -q "x better |.*x better |" &&
	 grep -q "^The patch.s pair, .kmutex-spin. → .kmutex-fix.: events [^;]*\], better; latency_ms [^;]* (lower is better), better; wall s" "$tmp/report.md"'
check "report.md: under the program's table, the interval's confidence at 4 runs and the verdicts chance alone gives" \
	'sed -n "/^### .sysbench-threads., 4 threads asked/,/^#/p" "$tmp/report.md" | grep -q "^With 4 repetitions the interval is \[min..max\], which holds the median with 87.5% confidence" &&
	 sed -n "/^### .sysbench-threads., 4 threads asked/,/^#/p" "$tmp/report.md" | grep -q "^[0-9]* verdicts tested here, [0-9]* of them a difference (.*); were no variant different"'
check "report.md: the answer has the program's line, kmutex-spin -> kmutex-fix with its interval and verdict" \
	'sed -n "/^## The answer/,/^## /p" "$tmp/report.md" |
	 grep -q "^- \*\*Real program .sysbench-threads., 4 threads asked:\*\* .kmutex-spin. → .kmutex-fix. on events: 502.5 → 2002.5, \*\*[0-9.]*x\*\* \[[0-9.]*\.\.[0-9.]*\], better\.$"'

# run-env's PROGRAM_BASE (run-all's, from locks/locks.def's roles) names the
# programs' baseline, not a lock name in analysis/: another lock there is
# each program table's baseline, its runs first.
cp "$d/run-env" "$tmp/run-env.kept"
printf 'PROGRAM_BASE=kmutex-fix\nKERNEL_BASE=none\n' >>"$d/run-env"
"$CMP" --markdown "$d" >"$tmp/report-base.md" 2>"$tmp/err"
check "report.md: run-env's PROGRAM_BASE is the programs' baseline (kmutex-fix first, pthread compared with it)" \
	'[ $? -eq 0 ] && sed -n "/^### .sysbench-threads., 4 threads asked/,/^#/p" "$tmp/report-base.md" | grep -q "^| kmutex-fix (baseline) |" &&
	 ! grep -q "^| pthread (baseline)" "$tmp/report-base.md" &&
	 grep -q "^| pthread | [0-9.]* \[[^]]*\] [0-9.]*x" "$tmp/report-base.md"'
cp "$tmp/run-env.kept" "$d/run-env"
# Without PROGRAM_BASE the plan's first lock under a program is the
# baseline, whatever its name: kmutex-fix's runs planned first.
cp "$d/plan.txt" "$tmp/plan.kept"
{ grep -e '-fix-r' "$tmp/plan.kept"; grep -v -e '-fix-r' "$tmp/plan.kept"; } >"$d/plan.txt"
"$CMP" --markdown "$d" >"$tmp/report-plan.md" 2>"$tmp/err"
check "report.md: without PROGRAM_BASE, the plan's first lock under a program is the baseline (kmutex-fix planned first)" \
	'[ $? -eq 0 ] && grep -q "^| kmutex-fix (baseline) |" "$tmp/report-plan.md" && ! grep -q "^| pthread (baseline)" "$tmp/report-plan.md"'
cp "$tmp/plan.kept" "$d/plan.txt"

# A run of the directory that disagrees on a direction: the report is still
# written, its section saying why it has no tables.
set_keys "$d/runs/program-sysbench-threads-t4-fix-r2" metric_better_events=lower
"$CMP" --markdown "$d" >"$tmp/report.md" 2>"$tmp/err"
check "report.md: a failed comparison of the programs said in their section" \
	'[ $? -eq 0 ] && sed -n "/^## Real programs/,/^## /p" "$tmp/report.md" |
	 grep -q "other runs of program sysbench-threads say higher" && ! grep -q "^### .sysbench-threads" "$tmp/report.md" &&
	 grep -q "failed.* (.data/program-\*\.txt.)" "$tmp/report.md"'
