#!/bin/sh
# cli.t — lockbench's command line: bad input is one line on stderr and exit
# status 2; a good run writes the documented result files, whole.
LB=${LOCKBENCH:-bench/lockbench}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/tap.sh"


echo "1..30"
usage_error "unknown lock names the valid ones" "unknown lock 'nope' (valid: none pthread" -l nope
usage_error "unknown workload" "unknown workload 'nope'" -w nope
usage_error "threads not a number" "--threads: 'abc' is not an integer" -t abc
usage_error "threads zero" "--threads: '0'" -t 0
usage_error "threads negative" "--threads: '-1'" -t -1
usage_error "threads trailing junk" "--threads: '4x'" -t 4x
usage_error "threads too many" "--threads: '99999999'" -t 99999999
usage_error "duration zero" "--duration: '0'" -d 0
usage_error "duration negative" "--duration: '-1'" -d -1
usage_error "duration nan" "--duration: 'nan'" -d nan
usage_error "duration inf" "--duration: 'inf'" -d inf
usage_error "cs not a number" "--cs: '1e3'" --cs 1e3
usage_error "think overflow" "--think: '99999999999999999999999'" --think 99999999999999999999999
usage_error "spin budget negative" "--spin-budget: '-5'" --spin-budget -5
usage_error "seed junk" "--seed: 'x'" --seed x
usage_error "unknown option" "unknown option '--bogus'" --bogus
usage_error "missing value" "option '-t' needs a value" -t
usage_error "stray argument" "unexpected argument 'extra'" extra
usage_error "unknown pin policy" "--pin: unknown policy 'sideways'" --pin sideways -t 1 -d 0.01
usage_error "unwritable --out" "--out: cannot create" -o /proc/lockbench-cannot-exist/x -t 1 -d 0.01

"$LB" --list >"$tmp/list" 2>&1
check "--list exits 0 and lists locks and workloads" \
	'[ $? -eq 0 ] && grep -q "^  mcs " "$tmp/list" && grep -q "^  counter " "$tmp/list"'
"$LB" -h >"$tmp/help" 2>&1
check "--help exits 0" '[ $? -eq 0 ] && grep -q "usage: lockbench" "$tmp/help"'

"$LB" -l ticket -t 3 -d 0.1 --warmup 0.02 -o "$tmp/r" >"$tmp/run1" 2>"$tmp/err1"
check "a run with -o succeeds" '[ $? -eq 0 ] && [ ! -s "$tmp/err1" ]'
check "the summary shows a histogram" 'grep -q "^@acq_cycles:" "$tmp/run1"'
check "all result files written" \
	'[ -s "$tmp/r/summary.csv" ] && [ -s "$tmp/r/hist.csv" ] && [ -s "$tmp/r/threads.csv" ] && [ -s "$tmp/r/cmdline.txt" ]'
acq=$(awk -F, '$1 == "acquisitions" { print $2 }' "$tmp/r/summary.csv")
hsum=$(awk -F, 'NR > 1 { s += $3 } END { print s }' "$tmp/r/hist.csv")
tsum=$(awk -F, 'NR > 1 { s += $4 } END { print s }' "$tmp/r/threads.csv")
check "histogram total equals acquisitions ($hsum = $acq)" '[ -n "$acq" ] && [ "$acq" -gt 0 ] && [ "$hsum" = "$acq" ]'
check "per-thread acquisitions add up ($tsum = $acq)" '[ "$tsum" = "$acq" ]'
check "threads.csv has one row per thread" '[ "$(($(wc -l <"$tmp/r/threads.csv") - 1))" -eq 3 ]'
"$LB" -l ticket -t 1 -d 0.05 --warmup 0 -o "$tmp/r" >"$tmp/run2" 2>&1
check "a second run never overwrites: it goes to DIR-2" \
	'[ $? -eq 0 ] && grep -q "results: $tmp/r-2" "$tmp/run2" && grep -q "^threads,3$" "$tmp/r/summary.csv"'
check "no staging directories left behind" '! ls -d "$tmp"/*.partial-* >/dev/null 2>&1'
