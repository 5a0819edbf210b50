#!/bin/sh
# charts.t — run-all's charts (issue 42): every chart drawn is linked from
# report.md and every link of report.md resolves; each histogram chart names
# as "(baseline)" the lock its table takes as the baseline (the group's first
# variant: the kernel's row in the models-vs-kernel table, pthread for a
# program) and no other.  A small ./run-all of its own: the patch's creat,
# the kernel's fpos where kernel lock capture works, sysbench-mutex where
# sysbench is installed, one repetition of each at 2 threads (~15 s).
top=$(cd "$(dirname "$0")/.." && pwd)
if [ -n "${SANITIZER:-}" ]; then
	echo "1..0 # skip ./run-all drives the tree's plain build: make test runs this (a sanitizer changes nothing here)"
	exit 0
fi
if ! command -v gnuplot >/dev/null 2>&1; then
	echo "1..0 # skip gnuplot is not installed (scripts/deps.sh installs it)"
	exit 0
fi
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/tap.sh"
unset LOCKBENCH_EXEC_SO
echo "1..11"

d=$tmp/ra
timeout -s KILL 300 "$top/run-all" --quick --reps 1 --threads 2 --workloads creat,fpos,sysbench-mutex \
	--locks none,kmutex-spin,kmutex-fix,pthread --out "$d" >"$tmp/out" 2>&1
rc=$?
check "run-all of creat, fpos and sysbench-mutex (rc=$rc: $(tail -n 1 "$tmp/out"))" '[ $rc -eq 0 ] && [ -s "$d/report.md" ]'

# links DIR: $unlinked, DIR's plots/*.png not linked from its report.md,
# $broken, report.md's links to files (not #anchors) that do not resolve in
# DIR, and $nplots.
links() {
	unlinked="" broken=""
	for png in "$1"/plots/*.png; do
		[ -e "$png" ] || continue
		grep -qF "](plots/$(basename "$png"))" "$1/report.md" || unlinked="$unlinked $(basename "$png")"
	done
	for link in $(grep -o '](\([^)#][^)]*\))' "$1/report.md" | sed 's/^](//; s/)$//'); do
		[ -f "$1/$link" ] || broken="$broken $link"
	done
	nplots=$(ls "$1"/plots/*.png 2>/dev/null | wc -l)
}
links "$d"
check "every chart drawn ($nplots) is linked from report.md${unlinked:+ (not:$unlinked)}" \
	'[ "$nplots" -ge 2 ] && [ -z "$unlinked" ]'
check "every link of report.md resolves${broken:+ (not:$broken)}" '[ -z "$broken" ]'

# The titles gnuplot gave the series of a histogram chart (its SVG's
# <title> elements), one a line.
titles() { sed -n 's/^.*<g id="gnuplot_plot_[0-9]*" ><title>\(.*\)<\/title>.*$/\1/p' "$1"; }
# baseline_named CHART: the chart's only "(baseline)" is its CSV's first
# lock, the group's first variant (data/CHART.csv's fourth column), the
# table's baseline; kmutex-spin is "(before the fix)" where it is not it.
baseline_named() {
	first=$(head -n 1 "$d/data/$1.csv" | cut -d, -f4)
	[ -n "$first" ] && [ "$(titles "$d/plots/$1.svg" | grep -c "(baseline)$")" -eq 1 ] &&
		titles "$d/plots/$1.svg" | grep -qxF "$first (baseline)" &&
		{ [ "$first" = kmutex-spin ] || titles "$d/plots/$1.svg" | grep -qx "kmutex-spin (before the fix)"; }
}
# The histogram chart of W at 2 threads as report.md links it: of the
# contended acquisitions where every run had some, else of all.
chart() { grep -o "](plots/hist-\(contended-\)\{0,1\}$1-t2.png)" "$d/report.md" | sed 's/^](plots\///; s/\.png)$//'; }
c=$(chart creat)
check "creat: kmutex-spin, the patch table's baseline, is the chart's ($c: $(titles "$d/plots/$c.svg" | tr '\n' ';'))" \
	'[ -n "$c" ] && baseline_named "$c" && head -n 1 "$d/data/$c.csv" | grep -q "^bin,lower_cycles,lower_ns,kmutex-spin,"'
if grep -q '^kernel-fpos-t2-none-r1 ' "$d/plan.txt"; then
	c=$(chart fpos)
	check "fpos: the kernel's row is the chart's baseline, as its table's, not kmutex-spin ($c: $(titles "$d/plots/$c.svg" | tr '\n' ';'))" \
		'[ -n "$c" ] && baseline_named "$c" && grep -q "^| the kernel.s mutex: none | " "$d/report.md" &&
		 head -n 1 "$d/data/$c.csv" | grep -q "^bin,lower_cycles,lower_ns,kernel "'
else
	ok "# skip kernel lock capture is unavailable here: no models-vs-kernel chart"
fi
if grep -q '^program-sysbench-mutex-' "$d/plan.txt"; then
	c=$(chart exec-sysbench-mutex)
	check "sysbench-mutex: pthread is the chart's baseline, as the report's table's ($c: $(titles "$d/plots/$c.svg" | tr '\n' ';'))" \
		'[ -n "$c" ] && baseline_named "$c" && grep -q "^| pthread (baseline) | " "$d/report.md" &&
		 head -n 1 "$d/data/$c.csv" | grep -q "^bin,lower_cycles,lower_ns,pthread,"'
else
	ok "# skip sysbench is not installed: no program chart"
fi

# A full run's counter sweep (22 locks: results/examples/quick-2cpu's of 6 Dec
# 2026, kept in tests/data/ since --quick's sweep became shorter), drawn as
# run-all draws it: in each panel of the SVG (its plots' ids end in a letter
# a panel), the colour of each titled line (its first stroke); no colour
# twice in a panel, and every lock of the CSV titled once.
mkdir "$tmp/sweep"
cp "$top/tests/data/sweep-counter-22-locks.csv" "$tmp/sweep/in.csv"
# The families' names as run-all passes them (plot-names.sh; names are [a-z0-9-]).
names="kmutex_order='$(sh "$top/scripts/plot-names.sh" models)'; ck_locks='$(sh "$top/scripts/plot-names.sh" ck)'"
(cd "$tmp/sweep" && gnuplot -e "gpdir='$top/scripts'; in='in.csv'; out='out'; fmt='svg'; machine='m'; workload='counter';
	ylabel_text='operations per second'; logy=1; ci=1; $names" "$top/scripts/sweep.gp") 2>"$tmp/sweep/err"
check "the counter sweep is drawn ($(head -c 200 "$tmp/sweep/err"))" '[ -s "$tmp/sweep/out.svg" ] && [ ! -s "$tmp/sweep/err" ]'
awk '/<g id="gnuplot_plot_[0-9]+[a-z]*" ><title>/ {
		panel = $0; sub(/^.*gnuplot_plot_[0-9]+/, "", panel); sub(/".*$/, "", panel)
		t = $0; sub(/^.*<title>/, "", t); sub(/<\/title>.*$/, "", t)
		want = t !~ /^gnuplot_plot_/; next }
	want && /stroke=.rgb\(/ { c = $0; sub(/^.*stroke=.rgb\(/, "", c); sub(/\).*$/, "", c); gsub(/ /, "", c)
		print panel "\t" t "\t" c; want = 0 }' "$tmp/sweep/out.svg" >"$tmp/sweep/lines"
locks=$(head -n 1 "$tmp/sweep/in.csv" | tr , '\n' | grep -v -e '^threads$' -e ' lo$' -e ' hi$' | sort)
same=$(awk -F'\t' '{ k = $1 "\t" $3; if (k in seen) print $2 " and " seen[k]; seen[k] = $2 }' "$tmp/sweep/lines")
check "22 locks, each titled once ($(cut -f2 "$tmp/sweep/lines" | sort | uniq -d | tr '\n' ' '))" \
	'[ "$(echo "$locks" | wc -l)" -eq 22 ] && [ "$(cut -f2 "$tmp/sweep/lines" | sort)" = "$locks" ]'
check "no two lines of a panel share a colour${same:+ (not: $(echo $same))}" '[ -s "$tmp/sweep/lines" ] && [ -z "$same" ]'

# Simulated runs (run-all --sim: the seed's machine, 16 threads, 0.01
# simulated s, 2 seeds): their charts, sim-*, linked from their section, and
# fserver's contended histogram with the seed's published two beside.
sd=$tmp/sim
timeout -s KILL 300 "$top/run-all" --sim nehalem-ex-64 --quick --reps 2 --locks kmutex-spin,kmutex-fix --threads 16 \
	--duration 0.01 --out "$sd" >"$tmp/sim.out" 2>&1
rc=$?
links "$sd"
sect=$(awk '/^## Simulated: the seed.s machine$/ { on = 1; next } /^## / { on = 0 } on' "$sd/report.md")
check "simulated: every chart drawn ($nplots) is linked from the section${unlinked:+ (not:$unlinked)} (rc=$rc)" \
	'[ $rc -eq 0 ] && [ "$nplots" -ge 4 ] && [ -z "$unlinked" ] && [ -z "$broken" ] &&
	 [ "$(printf "%s\n" "$sect" | grep -c "](plots/sim-")" -eq "$nplots" ]'
check "simulated fserver: the seed's histogram beside, kmutex-spin the baseline ($(titles "$sd/plots/sim-hist-contended-fserver-t16.svg" | tr '\n' ';'))" \
	'titles "$sd/plots/sim-hist-contended-fserver-t16.svg" | grep -qx "the seed.s 2.6.34 (published)" &&
	 titles "$sd/plots/sim-hist-contended-fserver-t16.svg" | grep -qx "the seed.s fix (published)" &&
	 titles "$sd/plots/sim-hist-contended-fserver-t16.svg" | grep -qx "kmutex-spin (baseline)" &&
	 ! titles "$sd/plots/sim-hist-contended-creat-t16.svg" | grep -q "the seed"'
