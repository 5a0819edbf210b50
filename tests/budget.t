#!/bin/sh
# budget.t — run-all's plan cost before it starts, and --budget MINUTES:
# a plan that fits is left alone; one that does not loses sweep points, then
# the kernel experiment's middle thread count, then repetitions, never a
# lock, a workload or a baseline; one that cannot
# fit is refused before anything runs, leaving nothing behind.
# The cost: each run's -d and --warmup, and 0.3 s of its own (bench/plan_budget.c).
top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/tap.sh"
LB=${LOCKBENCH:-$top/bench/lockbench}
case $LB in /*) ;; *) LB=$PWD/$LB ;; esac
echo "1..15"

# --- a plan that fits: run as planned, its cost printed first ---
# One quick counter run: 0.3 s + 0.1 s warm-up + 0.3 s of its own = 0:01.
"$top/run-all" --lockbench "$LB" --budget 60 --quick --reps 1 --locks tas --workloads counter --threads 1 \
	--out "$tmp/fit" >"$tmp/fit.out" 2>&1
rc=$?
check "a plan within --budget runs as planned (rc=$rc: $(tail -n 1 "$tmp/fit.out"))" \
	'[ $rc -eq 0 ] && [ "$(wc -l <"$tmp/fit/plan.txt")" -eq 1 ] && ! grep -q -- "--budget" "$tmp/fit.out"'
check "before it starts, run-all prints the plan's size and time" \
	'head -n 1 "$tmp/fit.out" | grep -q "^run-all: 1 runs in 1 round(s), .*: about 0:01$"'

# --- a plan too long: trimmed, then interrupted as soon as it has started ---
# Per round: creat, 2 patch locks x 3 thread counts x 0.9 s = 5.4 s; the
# counter sweep, 6 locks x 3 thread counts x 0.7 s = 12.6 s.  8 rounds: 2:24.
# Without its middle point (2 threads) the sweep costs 8.4 s a round, 13.8 s in
# all: 8 rounds 1:50, ... 5 rounds 69 s, 4 rounds 55 s, within 1 minute.
stop_at "^\[1/" "$tmp/trim.out" "$top/run-all" --lockbench "$LB" --budget 1 --quick --reps 8 --threads 1,2,4 \
	--workloads creat,counter --locks kmutex-spin,kmutex-fix,tas,ticket,mcs,futex --out "$tmp/trim"
plan=$tmp/trim/plan.txt
check "it says in one line what the whole plan needs and what it dropped" \
	'grep -qx "run-all: --budget 1: the plan needs about 2:24; dropped sweep points 2, repetitions 8 to 4 to fit (about 0:55)" "$tmp/trim.out"'
check "the plan's size and time are the trimmed plan's" \
	'grep -q "^run-all: 72 runs in 4 round(s), .*: about 0:55$" "$tmp/trim.out" && [ "$(wc -l <"$plan")" -eq 72 ]'
check "first the sweep's middle thread count went (1 and the largest stay)" \
	'[ "$(awk "/^sweep-/ { print \$7 }" "$plan" | sort -un | tr "\n" " ")" = "1 4 " ]'
check "then repetitions, down to 4, as settings records, with the budget" \
	'[ "$(sed "s/ .*//; s/.*-r//" "$plan" | sort -u | tr "\n" " ")" = "1 2 3 4 " ] && grep -qx REPS=4 "$tmp/trim/settings" &&
	 grep -qx BUDGET=1 "$tmp/trim/settings"'
check "the report of the interrupted run names the budget in its command line" \
	'{ "$top/run-all" --report "$tmp/trim" >/dev/null 2>&1; [ $? -eq 1 ]; } && grep -q "^\`./run-all --quick --reps 4 --order-seed [0-9]* --budget 1 --locks" "$tmp/trim/report.md"'
check "every lock and workload stays: the patch experiment whole, its baselines in every round" \
	'[ "$(grep -c "^patch-creat-t[124]-kmutex-spin-r" "$plan")" -eq 12 ] &&
	 [ "$(grep -c "^patch-creat-t[124]-kmutex-fix-r" "$plan")" -eq 12 ] &&
	 [ "$(awk "/^sweep-/ { print \$3 }" "$plan" | sort -u | wc -l)" -eq 6 ]'

# --- the models-vs-kernel experiment: trimmed after the sweep, before repetitions ---
# Quick runs of 0.7 s.  fpos alone, 2 locks x 3 thread counts: 4.2 s a round,
# 20 rounds 1:24; without its middle thread count 2.8 s, 56 s.  With the
# counter sweep (none at 1 thread, kmutex-handoff at 1, 2, 4): 7 s a round, 9
# rounds 63 s; without the sweep's 2 threads 6.3 s, 57 s: the kernel's stay.
budget_start() { # NAME ARGS...: run-all --budget 1 ARGS, stopped once it runs
	name=$1
	shift
	stop_at "^\[1/" "$tmp/$name.out" "$top/run-all" --lockbench "$LB" --budget 1 --quick --threads 1,2,4 \
		--locks none,kmutex-handoff "$@" --out "$tmp/$name"
}
capture_probe
if [ -n "$skip" ]; then
	ok "the kernel experiment loses its middle thread count before any repetition $skip"
	ok "the sweep's points go before the kernel experiment's $skip"
else
	budget_start ktrim --reps 20 --workloads fpos
	check "the kernel experiment loses its middle thread count before any repetition, its baseline in every round" \
		'grep -qx "run-all: --budget 1: the plan needs about 1:24; dropped kernel experiment threads 2 to fit (about 0:56)" "$tmp/ktrim.out" &&
		 [ "$(awk "{ print \$7 }" "$tmp/ktrim/plan.txt" | sort -un | tr "\n" " ")" = "1 4 " ] &&
		 [ "$(grep -c "^kernel-fpos-t[14]-none-r.* --kernel-locks " "$tmp/ktrim/plan.txt")" -eq 40 ]'
	budget_start kswtrim --reps 9 --workloads fpos,counter
	check "the sweep's points go before the kernel experiment's" \
		'grep -qx "run-all: --budget 1: the plan needs about 1:03; dropped sweep points 2 to fit (about 0:57)" "$tmp/kswtrim.out" &&
		 [ "$(grep "^kernel-" "$tmp/kswtrim/plan.txt" | awk "{ print \$7 }" | sort -un | tr "\n" " ")" = "1 2 4 " ]'
fi

# --- a plan that cannot fit: refused before anything runs ---
# 8 sweep locks: even at 1 and 4 threads and 4 rounds, 4 x (5.4 + 11.2) s = 1:06.
"$top/run-all" --lockbench "$LB" --budget 1 --quick --threads 1,2,4 --workloads creat,counter \
	--locks kmutex-spin,kmutex-fix,tas,ticket,mcs,futex,ttas,ck-fas --out "$tmp/no" >"$tmp/out" 2>"$tmp/err"
rc=$?
check "a budget even the most trimmed plan overruns: one line, exit 2 (rc=$rc: $(head -c 200 "$tmp/err"))" \
	'[ $rc -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] &&
	 grep -qx "run-all: --budget 1: the plan needs about 1:51; even with sweep points 2, repetitions 5 to 4 dropped it takes about 1:06: give it more minutes, or fewer --locks or --workloads" "$tmp/err"'
check "it ran nothing and left nothing behind" '[ ! -s "$tmp/out" ] && [ ! -e "$tmp/no" ]'

# --- bad uses: one line each, exit 2 ---
bad_use() { # NAME EXPECTED ARGS...
	name=$1 want=$2
	shift 2
	"$top/run-all" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	check "$name (rc=$rc: $(head -c 200 "$tmp/err"))" \
		'[ $rc -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -qxF -- "$want" "$tmp/err" && [ ! -s "$tmp/out" ]'
}
bad_use "--budget takes whole minutes" "run-all: --budget: '1.5' is not a whole number of minutes from 1 to 100000" --budget 1.5
bad_use "--budget with --resume" "run-all: --budget: a resumed run keeps its plan" --budget 5 --resume "$tmp/fit"
bad_use "--budget with --report" "run-all: --report DIR takes no other option" --budget 5 --report "$tmp/fit"
