#!/bin/sh
# timing.t — --timing all|sample:N|off end to end: the summary and
# summary.csv say the mode; sampled histograms add up to the timed count and
# the exact counts stay exact; off runs time nothing; lbcompare accepts every
# mode and flags a comparison across modes; the watchdog still says how long
# an untimed lock() has waited.
LB=${LOCKBENCH:-bench/lockbench}
LBT=${LOCKBENCH_TEST:-build/tests/lockbench-test}
CMP=${LBCOMPARE:-analysis/lbcompare}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/tap.sh"

hist_total() { awk -F, 'NR > 1 { s += $3 } END { print s + 0 }' "$1"; }
threads_sum() { awk -F, -v c="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) f = i; next } { s += $f } END { print s + 0 }' "$1/threads.csv"; }

echo "1..19"

for mode in all sample:16 off; do
	d=$tmp/$(echo "$mode" | tr -d :)
	"$LB" -l ticket -t 2 -d 0.2 --warmup 0.02 --timing "$mode" -o "$d" >"$d.out" 2>"$d.err"
	check "$mode: the run succeeds and says its mode" \
		'[ $? -eq 0 ] && [ "$(val "$d" timing)" = "$mode" ] && grep -q "^  timing          $mode:" "$d.out"'
	acq=$(val "$d" acquisitions) timed=$(val "$d" timed_acquisitions) ops=$(val "$d" ops)
	check "$mode: acquisitions exact (= ops of counter: $acq = $ops), threads.csv adds up" \
		'[ "$acq" = "$ops" ] && [ "$(threads_sum "$d" acquisitions)" = "$acq" ] && [ "$(threads_sum "$d" contentions)" = "$(val "$d" contentions)" ]'
	check "$mode: hist.csv adds up to timed_acquisitions ($timed), hist_contended.csv to timed_contentions" \
		'[ "$(hist_total "$d/hist.csv")" = "$timed" ] && [ "$(hist_total "$d/hist_contended.csv")" = "$(val "$d" timed_contentions)" ]'
	"$CMP" "$d" >"$d.table" 2>"$d.cmp"
	check "$mode: lbcompare accepts it and states the mode" \
		'[ $? -eq 0 ] && [ ! -s "$d.cmp" ] && grep -q "; timing $mode ==" "$d.table"'
done
check "all: every acquisition timed" '[ "$(val "$tmp/all" timed_acquisitions)" = "$(val "$tmp/all" acquisitions)" ]'
acq=$(val "$tmp/sample16" acquisitions) timed=$(val "$tmp/sample16" timed_acquisitions)
check "sample:16: about one in 16 timed ($timed of $acq)" \
	'[ "$timed" -gt 0 ] && [ $((timed * 16)) -gt $((acq / 2)) ] && [ $((timed * 16)) -lt $((acq * 2)) ]'
check "sample:16: the summary says counts are sampled, and the histogram is labelled so" \
	'grep -q "counts as sampled (not scaled)" "$tmp/sample16.out" && grep -q "^@acq_cycles_sampled:" "$tmp/sample16.out"'
check "off: nothing timed, no cycle figures or histogram in the summary" \
	'[ "$(val "$tmp/off" timed_acquisitions)" = 0 ] && ! grep -q "^  acq cycles\|^@acq" "$tmp/off.out"'

"$CMP" "$tmp/all" "$tmp/sample16" "$tmp/off" >"$tmp/mixed" 2>"$tmp/mixed.err"
check "lbcompare flags runs of different modes, naming each variant lock@timing" \
	'[ $? -eq 0 ] && grep -q "^NOTE: these runs mix --timing modes" "$tmp/mixed" && grep -q "^ticket@sample:16 " "$tmp/mixed" && grep -q "^ticket@off " "$tmp/mixed"'
check "lbcompare shows no cycle figure for the off run" \
	'awk "/mean cycles/ { on = 1; next } on && \$1 == \"ticket@off\" { print; exit }" "$tmp/mixed" | grep -q "n/a"'

# A lock that never lets go, timing off: the watchdog's wait is counted from
# the thread's last acquisition (an untimed lock() reads no TSC).
"$LBT" -l broken-lost-unlock -t 2 -d 20 --watchdog 1 --timing off >"$tmp/wd.out" 2>"$tmp/wd.err"
rc=$?
waits=$(sed -n 's/.*waiting in lock() for \([0-9.]*\) s.*/\1/p' "$tmp/wd.err" | head -n 2 | tr '\n' ' ')
check "off: the watchdog still fires (rc=$rc) and says how long threads waited ($waits s)" \
	'[ $rc -eq 4 ] && [ -n "$waits" ] && (for w in $waits; do awk -v w="$w" "BEGIN { exit !(w >= 0.9 && w < 10) }" || exit 1; done)'
