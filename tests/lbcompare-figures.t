#!/bin/sh
# lbcompare-figures.t — figures lbcompare must not make up
# (analysis/figures/figures.c figure_missing, analysis/print/csv.c):
#  - a cycle figure of runs that timed none of its acquisitions (the
#    contended mean of a --timing sample:N run that sampled no contended
#    acquisition, written as 0) is "n/a: not measured", with no ratio and no
#    verdict, in the tables and in stats-*.csv;
#  - --exec runs whose program printed no metric: lbcompare --csv still
#    exits 0 (its sweep CSV has an empty cell), where it exited 3, the status
#    run-all takes for a full disk.
LB=${LOCKBENCH:-bench/lockbench}
CMP=${LBCOMPARE:-analysis/lbcompare}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/tap.sh"
exec_preamble
echo "1..5"

# One thread: no acquisition is contended, so none is sampled.
for l in ticket tas; do
	for r in 1 2; do
		"$LB" -l $l -t 1 -d 0.05 --warmup 0 --timing sample:64 --quiet -o "$tmp/$l-$r" 2>/dev/null
	done
done
check "the runs timed no contended acquisition" \
	'[ "$(val "$tmp/ticket-1" timed_contentions)" = 0 ] && [ "$(val "$tmp/tas-2" timed_contentions)" = 0 ]'
mkdir "$tmp/csv"
"$CMP" --csv "$tmp/csv" "$tmp/ticket-1" "$tmp/ticket-2" "$tmp/tas-1" "$tmp/tas-2" >"$tmp/table" 2>"$tmp/err"
rc=$?
# The contended table's tas row: #contentions, its CI, ratio, verdict, then the mean's cells.
row=$(sed -n '/^Contended acquisitions only/,/^$/p' "$tmp/table" | grep "^tas ")
check "the contended mean is n/a, no ratio or verdict, and said not measured (exit $rc: $row)" \
	'[ $rc -eq 0 ] && echo "$row" | grep -q "n/a *- *- *$" &&
	 grep -q "^(n/a: not measured: some run timed none of these acquisitions" "$tmp/table"'
check "stats-*.csv has no contended mean row (no verdict of a made-up 0)" \
	'[ -f "$tmp/csv/stats-counter-t1.csv" ] && ! grep -q ",contended_acq_cycles_mean," "$tmp/csv/stats-counter-t1.csv"'

# A program that prints no metric, twice.
for r in 1 2; do
	timeout -s KILL 120 "$LB" -l pthread --exec -o "$tmp/nm-$r" --quiet --metric 'x=^never ([0-9]+)' -- echo hi \
		2>/dev/null
done
mkdir "$tmp/csv2"
"$CMP" --csv "$tmp/csv2" "$tmp/nm-1" "$tmp/nm-2" >"$tmp/table2" 2>"$tmp/err2"
rc=$?
check "lbcompare --csv of runs without their metric: exit 0 ($rc: $(head -c 200 "$tmp/err2"))" \
	'[ $rc -eq 0 ] && [ ! -s "$tmp/err2" ]'
check "its sweep CSV leaves the metric's cell empty" \
	'[ "$(sed -n 2p "$tmp/csv2/sweep-exec-echo-metric_x.csv")" = "0," ]'
