#!/bin/sh
# lbcompare-metrics.t — a workload's own metrics (results/README.md, "A
# workload's own metrics"): a run that declares one (sense_of_KEY, unit_of_KEY,
# title_of_KEY) has it compared in the throughput table, the differences
# table and stats-*.csv, with a ratio, an interval and the verdict its sense
# says; a key without the declaration is no column (runs written before
# them); a bad declaration is refused in one line.  The runs are planted: one
# real counter run (which declares no metric) copied per lock and repetition,
# its metric keys set by hand, so nothing here names a real workload's metric.
LB=${LOCKBENCH:-bench/lockbench}
CMP=${LBCOMPARE:-analysis/lbcompare}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/tap.sh"
echo "1..19"

"$LB" -l kmutex-spin -w counter -t 2 -d 0.1 --warmup 0 --quiet -o "$tmp/base" >/dev/null 2>"$tmp/err"
check "a real counter run made ($(cat "$tmp/err"))" '[ -f "$tmp/base/summary.csv" ]'
check "it declares no metric of its own" '! grep -q "^sense_of_" "$tmp/base/summary.csv"'

# plant NAME LOCK WIDGETS: a copy of the real run as LOCK's, with metric
# widgets_per_op (lower is better) of value WIDGETS.
plant() {
	rm -rf "$tmp/$1"
	cp -r "$tmp/base" "$tmp/$1"
	set_keys "$tmp/$1" lock="$2" widgets_per_op="$3" sense_of_widgets_per_op=lower \
		unit_of_widgets_per_op=widgets title_of_widgets_per_op=widgets/op
}
# kmutex-spin the baseline; kmutex-fix more widgets (worse), ticket fewer (better): 4 runs each.
for r in 1 2 3 4; do
	plant spin-$r kmutex-spin $((100 + r)).5
	plant fix-$r kmutex-fix $((200 + r)).5
	plant ticket-$r ticket $((10 + r)).25
done
runs="$tmp/spin-1 $tmp/spin-2 $tmp/spin-3 $tmp/spin-4 $tmp/fix-1 $tmp/fix-2 $tmp/fix-3 $tmp/fix-4"
runs="$runs $tmp/ticket-1 $tmp/ticket-2 $tmp/ticket-3 $tmp/ticket-4"

mkdir "$tmp/csv"
# shellcheck disable=SC2086
"$CMP" --csv "$tmp/csv" $runs >"$tmp/out" 2>"$tmp/err"
check "lbcompare reads the planted runs" '[ $? -eq 0 ] && [ ! -s "$tmp/err" ]'
# The throughput table's header: its rate, CPU us/op, then the metric's title.
check "the throughput table has the metric's column, titled as declared" \
	'grep -q "Ops/sec .*CPU us/op .*widgets/op \[95% CI\] .*ratio verdict" "$tmp/out"'
# row FILE VARIANT: the throughput table's row of VARIANT (the first one met).
row() { awk -v v="$2" '$1 == v { print; exit }' "$1"; }
check "its cells: the median and its interval (4 runs: [min..max]), a verdict" \
	'row "$tmp/out" kmutex-fix | grep -q " 203 \[201.5..204.5\] *[0-9.]*x worse *$"'
# verdict FILE VARIANT FIGURE: the differences table's verdict of VARIANT's FIGURE.
verdict() { awk -v v="$2" -v f="$3" '$1 == v && $2 == f { print $NF; exit }' "$1"; }
check "lower is better: kmutex-fix's more widgets worse, ticket's fewer better" \
	'[ "$(verdict "$tmp/out" kmutex-fix widgets/op)" = worse ] && [ "$(verdict "$tmp/out" ticket widgets/op)" = better ]'
check "--csv: stats-counter-t2.csv has the metric's rows with their verdicts" \
	'grep -q "^kmutex-fix,widgets_per_op,4,203,201.5,204.5,.*,worse$" "$tmp/csv/stats-counter-t2.csv" &&
	 grep -q "^ticket,widgets_per_op,4,.*,better$" "$tmp/csv/stats-counter-t2.csv"'

# The sense says the words: declared a rate, more widgets are faster.
# shellcheck disable=SC2086
for d in $runs; do set_keys "$d" sense_of_widgets_per_op=rate; done
# shellcheck disable=SC2086
"$CMP" $runs >"$tmp/rate" 2>"$tmp/err"
check "declared a rate: kmutex-fix faster, ticket slower" \
	'[ "$(verdict "$tmp/rate" kmutex-fix widgets/op)" = faster ] && [ "$(verdict "$tmp/rate" ticket widgets/op)" = slower ]'
# shellcheck disable=SC2086
for d in $runs; do set_keys "$d" sense_of_widgets_per_op=lower; done

# Without the declaration (runs written before it): the key is read and ignored.
# shellcheck disable=SC2086
for d in $runs; do set_keys "$d" sense_of_widgets_per_op= unit_of_widgets_per_op= title_of_widgets_per_op=; done
# shellcheck disable=SC2086
"$CMP" $runs >"$tmp/old" 2>"$tmp/err"
check "an undeclared key: read, no column" '[ $? -eq 0 ] && [ ! -s "$tmp/err" ] && ! grep -q "widgets" "$tmp/old"'
"$CMP" "$tmp/base" >"$tmp/plain" 2>"$tmp/err"
check "and the tables as for the run without the key" \
	'"$CMP" "$tmp/spin-1" | sed "s|$tmp/spin-1|$tmp/base|g" | cmp -s - "$tmp/plain"'

plant spin-1 kmutex-spin 101.5
# refused DESCRIPTION WANT KEY=VALUE...: a copy of fix-1 (declared again)
# with the keys set is refused: exit 1, nothing on stdout, one stderr line
# naming summary.csv and WANT.
refused() {
	name=$1 want=$2
	shift 2
	rm -rf "$tmp/bad"
	plant bad kmutex-fix 5
	set_keys "$tmp/bad" "$@"
	lbcompare_refuses "$name" "$want" "$tmp/spin-1" "$tmp/bad"
}
refused "a sense that is no sense" "sense_of_widgets_per_op is 'faster'" sense_of_widgets_per_op=faster
refused "a metric without its unit" "has no unit_of_widgets_per_op" unit_of_widgets_per_op=
refused "a declared metric the run did not write" "but there is no widgets_per_op" widgets_per_op=
refused "a metric that is no number" "widgets_per_op is 'many'" widgets_per_op=many
refused "a negative metric (a ratio of two means nothing)" "'-3', not a decimal number of 0 or more" widgets_per_op=-3
refused "a title of 32 bytes" "title_of_widgets_per_op is" title_of_widgets_per_op=$(printf 't%031d' 0)
refused "lockbench's own figure declared a metric" "ops_per_s is one of lockbench's own figures" \
	sense_of_ops_per_s=rate unit_of_ops_per_s=ops/s title_of_ops_per_s=ops
refused "nine metrics" "more than 8 workload metrics" \
	a=1 sense_of_a=count unit_of_a=x title_of_a=a b=1 sense_of_b=count unit_of_b=x title_of_b=b \
	c=1 sense_of_c=count unit_of_c=x title_of_c=c d=1 sense_of_d=count unit_of_d=x title_of_d=d \
	e=1 sense_of_e=count unit_of_e=x title_of_e=e f=1 sense_of_f=count unit_of_f=x title_of_f=f \
	g=1 sense_of_g=count unit_of_g=x title_of_g=g h=1 sense_of_h=count unit_of_h=x title_of_h=h
refused "runs declaring a metric otherwise" "declared otherwise (sense, unit) than by other runs" \
	sense_of_widgets_per_op=higher
