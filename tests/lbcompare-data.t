#!/bin/sh
# lbcompare-data.t — lbcompare --data RUNALLDIR CHARTSDIR (issue 43): one
# process loads a run-all directory's runs once and writes every
# comparison run-all keeps in data/ — each KIND-W's text and CSV files, the
# same as lbcompare of that part's runs alone writes — and the charts'
# files and parts.txt into CHARTSDIR; a link in data/'s place is refused
# and one at a file's name replaced, never written through; a failed
# comparison is its text's last line and parts.txt's status 1.
top=$(cd "$(dirname "$0")/.." && pwd)
if [ -n "${SANITIZER:-}" ]; then
	echo "1..0 # skip ./run-all drives the tree's plain build: make test runs this (a sanitizer changes nothing here)"
	exit 0
fi
LB=${LOCKBENCH:-$top/bench/lockbench}
case $LB in /*) ;; *) LB=$PWD/$LB ;; esac
CMP=${LBCOMPARE:-analysis/lbcompare}
case $CMP in /*) ;; *) CMP=$PWD/$CMP ;; esac
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/tap.sh"
unset LOCKBENCH_EXEC_SO

echo "1..17"

# A run-all directory of two experiments: the patch pair on creat (with
# --kernel-locks' kernel row where it can) and a sweep of counter.
"$top/run-all" --quick --reps 2 --locks kmutex-spin,kmutex-fix,ticket --workloads counter,creat --threads 2 \
	--duration 0.02 --lockbench "$LB" --out "$tmp/d" >"$tmp/d.out" 2>&1
rc=$?
check "the fixture: a run-all directory (rc=$rc: $(tail -n 1 "$tmp/d.out"))" \
	'[ $rc -eq 0 ] && [ -s "$tmp/d/plan.txt" ] && grep -q "^patch-creat-" "$tmp/d/plan.txt" && grep -q "^sweep-counter-" "$tmp/d/plan.txt"'
d=$tmp/d

# data DIR: lbcompare --data into DIR's data/ (emptied first) and a new
# charts folder, its status in rc, its stderr in $tmp/err.
data() {
	rm -rf "$1/data" "$1/ch" && mkdir "$1/data" "$1/ch" &&
		(cd "$1" && "$CMP" --within . --data . ch >"$tmp/out" 2>"$tmp/err")
	rc=$?
}
# runs_of DIR KIND-W: the part's runs as run-all orders them (variant by
# variant in variants.txt's order, each variant's in round order).
runs_of() {
	p=$2- awk 'NR == FNR { if (index($1, ENVIRON["p"]) == 1) want[++n] = $1; next }
		{ v = $1; sub(/-r[0-9]+$/, "", v); runs[v] = runs[v] " runs/" $1 }
		END { for (i = 1; i <= n; i++) print runs[want[i]] }' "$1/variants.txt" "$1/plan.txt" | tr ' ' '\n' | grep .
}

data "$d"
# Every KIND-W the plan ran, and only those.
awk '{ k = $1; sub(/-.*/, "", k); for (i = 2; i < NF; i++) if ($i == "-w") print k, $(i + 1) }' "$d/plan.txt" | sort -u >"$tmp/want"
cut -d' ' -f1,2 "$d/ch/parts.txt" | sort >"$tmp/got"
check "--data: exit 0, nothing on stderr, parts.txt a line per KIND W the plan ran, each status 0 ($(tr '\n' ' ' <"$d/ch/parts.txt"))" \
	'[ $rc -eq 0 ] && [ ! -s "$tmp/err" ] && [ ! -s "$tmp/out" ] && cmp -s "$tmp/want" "$tmp/got" && [ "$(wc -l <"$tmp/want")" -ge 2 ] &&
	 ! awk "\$3 != 0" "$d/ch/parts.txt" | grep -q .'

# Each part against lbcompare of its runs alone, as run-all made data/
# before: the text, every CSV file, and the charts' folder.
same=1
while read -r kind w st; do
	mkdir "$d/one"
	(cd "$d" && runs_of . "$kind-$w" | tr '\n' '\0' | xargs -0 "$CMP" --within . --csv one) >"$tmp/one-$kind-$w.txt" 2>&1 || same=0
	mv "$d/one" "$tmp/one-$kind-$w"
	cmp -s "$tmp/one-$kind-$w.txt" "$d/data/$kind-$w.txt" || { echo "# $kind-$w.txt differs"; same=0; }
	for f in "$tmp/one-$kind-$w"/*; do
		b=$(basename "$f")
		cmp -s "$f" "$d/ch/$kind-$w/$b" || { echo "# ch/$kind-$w/$b differs"; same=0; }
		[ "$b" = charts.csv ] || cmp -s "$f" "$d/data/$b" || { echo "# data/$b differs"; same=0; }
	done
	[ "$(ls "$tmp/one-$kind-$w" | wc -l)" -eq "$(ls "$d/ch/$kind-$w" | wc -l)" ] || { echo "# ch/$kind-$w: another set of files"; same=0; }
done <"$d/ch/parts.txt"
check "each part's text, CSV files and charts.csv are lbcompare's of its runs alone" '[ $same = 1 ]'
for f in "$tmp"/one-*/*; do basename "$f"; done | grep -vx charts.csv | sort -u >"$tmp/csvs"
check "... data/ holds nothing else (no charts.csv), CHARTSDIR a folder per part and parts.txt" \
	'[ "$(ls "$d/data" | wc -l)" -eq "$(($(wc -l <"$tmp/csvs") + $(wc -l <"$d/ch/parts.txt")))" ] &&
	 [ ! -e "$d/data/charts.csv" ] && [ "$(ls "$d/ch" | wc -l)" -eq "$(($(wc -l <"$d/ch/parts.txt") + 1))" ]'

# data/ a link to a folder outside: refused, nothing written through it.
mkdir "$tmp/outside"
data "$d"
rm -rf "$d/data" && ln -s "$tmp/outside" "$d/data"
(cd "$d" && rm -rf ch && mkdir ch && "$CMP" --within . --data . ch >"$tmp/out" 2>"$tmp/err")
rc=$?
check "data/ a link: exit 3 in one line, nothing written through it (rc=$rc: $(cat "$tmp/err"))" \
	'[ $rc -eq 3 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "^lbcompare: " "$tmp/err" && [ -z "$(ls -A "$tmp/outside")" ]'
rm -f "$d/data"

# A link at a file's name: replaced by the file, its target untouched.
echo kept >"$tmp/target"
mkdir "$d/data" && ln -s "$tmp/target" "$d/data/sweep-counter.txt"
(cd "$d" && rm -rf ch && mkdir ch && "$CMP" --within . --data . ch >/dev/null 2>&1)
rc=$?
check "a link at data/KIND-W.txt: replaced by a regular file, its target untouched (rc=$rc)" \
	'[ $rc -eq 0 ] && [ -f "$d/data/sweep-counter.txt" ] && [ ! -L "$d/data/sweep-counter.txt" ] && [ "$(cat "$tmp/target")" = kept ]'

# --report: data/ and CHARTSDIR/report.md from the one model.  Its report links the
# charts run-all is to draw (none drawn yet here: plots/ set aside), and is
# --markdown's of the directory once they are; with --no-charts (no
# gnuplot), only those already there.
if [ -n "$(ls "$d/plots" 2>/dev/null)" ]; then
	mv "$d/plots" "$tmp/plots" && mkdir "$d/plots"
	(cd "$d" && rm -rf ch && mkdir ch && "$CMP" --within . --report . ch >"$tmp/out" 2>"$tmp/err")
	rc=$?
	cp "$d/ch/report.md" "$tmp/report.planned"
	(cd "$d" && rm -rf ch && mkdir ch && "$CMP" --within . --no-charts --report . ch >/dev/null 2>&1)
	cp "$d/ch/report.md" "$tmp/report.none"
	(cd "$d" && "$CMP" --within . --markdown . >"$tmp/md.none")
	rm -rf "$d/plots" && mv "$tmp/plots" "$d/plots"
	(cd "$d" && "$CMP" --within . --markdown . >"$tmp/md.drawn")
	check "--report: exit 0, report.md links the charts to be drawn: --markdown's once they are (rc=$rc)" \
		'[ $rc -eq 0 ] && [ ! -s "$tmp/err" ] && grep -q "^!\[.*\](plots/hist-contended-creat-t2.png)" "$tmp/report.planned" &&
		 cmp -s "$tmp/report.planned" "$tmp/md.drawn"'
	check "--report --no-charts: only the charts there (none): --markdown's" \
		'grep -q "^No plots: gnuplot was not found" "$tmp/report.none" && cmp -s "$tmp/report.none" "$tmp/md.none"'
	# plots.csv: run-all's one list of gnuplot calls, the charts the report links.
	(cd "$d" && rm -rf ch && mkdir ch && "$CMP" --within . --report . ch >/dev/null 2>&1)
	grep -o '(plots/[^)]*\.png)' "$tmp/report.planned" | sed 's|(plots/||; s|\.png)||' | sort -u >"$tmp/linked"
	tail -n +2 "$d/ch/plots.csv" | cut -d, -f3 | sort >"$tmp/rows"
	machine=$(sed -n 's/^Machine: \(.*\)\. Started .*/\1/p' "$tmp/report.planned")
	# Its fields: plain words, the script's gnuplot assignments (texts as
	# gp_string quotes them, numbers), the machine's gp_string last.
	bad=$(tail -n +2 "$d/ch/plots.csv" | awk -F, -v m="$machine" '{ r = $0; for (i = 0; i < 5; i++) sub(/^[^,]*,/, "", r) }
		r != "(\047" m "\047)" || $1 !~ /^(hist|phases|sweep)\.gp$/ || $2 !~ /^[a-z]+-[a-z]+\/[a-z0-9_.-]+\.csv$/ ||
		$5 !~ /^workload=\(\047[a-z]+\047\)/ ||
		($1 == "hist.gp") != ($5 ~ /; threads=\047[0-9]+\047; ghz=[0-9]+\.[0-9]+; contended=[01]; kernel_col=[0-9]+; base_col=[0-9]+/)' | head -n 1)
	check "--report: plots.csv a row per chart report.md links, its fields of their shapes, its machine the report's ($(wc -l <"$tmp/rows") rows) $bad" \
		'[ -s "$tmp/rows" ] && cmp -s "$tmp/linked" "$tmp/rows" && [ -n "$machine" ] && [ -z "$bad" ] &&
		 grep -q "^sweep.gp,sweep-counter/sweep-counter-ops_per_s-ci.csv,sweep-counter-ops_per_s,,workload=(.counter.); ylabel_text=(.operations per second.); logy=1; ci=1,(" "$d/ch/plots.csv"'
else
	ok "# skip no gnuplot: the fixture has no charts"
	ok "# skip no gnuplot: the fixture has no charts"
	ok "# skip no gnuplot: the fixture has no charts"
fi

# counts.txt: the planned runs left out of the tables, each as run-all's
# check of it (lbcompare runs/NAME) said it: one unreadable (counted failed,
# its line for stderr, logs/NAME.check), one that failed without results
# (logs/NAME.status), one never made; a readable run's stale .check goes.
cp -R "$d" "$tmp/d3"
runs=$(awk '/^sweep-counter-/ { print $1 }' "$d/plan.txt" | head -n 4 | tr '\n' ' ')
read -r r1 r2 r3 r4 <<EOF
$runs
EOF
sed -i 's/^ops,.*/ops,-5/' "$tmp/d3/runs/$r1/summary.csv"
rm -rf "$tmp/d3/runs/$r2" "$tmp/d3/runs/$r3" && echo 1 >"$tmp/d3/logs/$r2.status"
echo stale >"$tmp/d3/logs/$r4.check"
(cd "$tmp/d3" && "$CMP" --within . "runs/$r1" >/dev/null 2>"$tmp/check")
(cd "$tmp/d3" && rm -rf ch && mkdir ch && "$CMP" --within . --report . ch >/dev/null 2>"$tmp/err")
rc=$?
check "--report: counts.txt '2 1' and the unreadable run's line; its logs/NAME.check lbcompare's own words (rc=$rc: $(head -n 2 "$tmp/d3/ch/counts.txt" | tr '\n' ' '))" \
	'[ $rc -le 1 ] && [ "$(head -n 1 "$tmp/d3/ch/counts.txt")" = "2 1" ] && [ "$(wc -l <"$tmp/d3/ch/counts.txt")" -eq 2 ] &&
	 [ "$(tail -n 1 "$tmp/d3/ch/counts.txt")" = "run-all: $r1: result files unreadable ($(cat "$tmp/check")): left out of the report'"'"'s tables" ] &&
	 cmp -s "$tmp/check" "$tmp/d3/logs/$r1.check" && [ ! -e "$tmp/d3/logs/$r4.check" ] && grep -q "ops is -5" "$tmp/check"'

# --hosts OUT DIR...: two directories of one host (a copy: a before and an
# after), each KIND-W's runs of both in one comparison into OUT/data, as
# lbcompare --dir D1 --dir D2 of their runs compares them.
cp -R "$d" "$tmp/d2"
mkdir -p "$tmp/h"
"$CMP" --hosts "$tmp/h" "$d" "$tmp/d2" >"$tmp/h.parts" 2>"$tmp/err"
rc=$?
check "--hosts: exit 0, a line per KIND W, each status 0 (rc=$rc: $(tr '\n' ' ' <"$tmp/h.parts"))" \
	'[ $rc -eq 0 ] && [ ! -s "$tmp/err" ] && cut -d" " -f1,2 "$tmp/h.parts" | sort | cmp -s - "$tmp/want" &&
	 ! awk "\$3 != 0" "$tmp/h.parts" | grep -q .'
same=1
while read -r kind w st; do
	rm -rf "$tmp/hone" && mkdir "$tmp/hone"
	{ (cd "$d" && runs_of . "$kind-$w") | sed "s|^|$d/|"; (cd "$tmp/d2" && runs_of . "$kind-$w") | sed "s|^|$tmp/d2/|"; } |
		tr '\n' '\0' | xargs -0 "$CMP" --csv "$tmp/hone" --dir "$d" --dir "$tmp/d2" >"$tmp/hone.txt" 2>&1 || same=0
	cmp -s "$tmp/hone.txt" "$tmp/h/data/$kind-$w.txt" || { echo "# hosts: $kind-$w.txt differs"; same=0; }
	grep -q "^  [^ ]*-dir2 " "$tmp/h/data/$kind-$w.txt" || { echo "# hosts: $kind-$w.txt has no second host"; same=0; }
	for f in "$tmp/hone"/*; do
		[ "$(basename "$f")" = charts.csv ] || cmp -s "$f" "$tmp/h/data/$(basename "$f")" || { echo "# hosts: $(basename "$f") differs"; same=0; }
	done
done <"$tmp/h.parts"
check "... each part's text and CSV files are lbcompare --dir D1 --dir D2's of its runs, each directory a host" '[ $same = 1 ]'
rm -rf "$tmp/h/data" && ln -s "$tmp/outside" "$tmp/h/data"
"$CMP" --hosts "$tmp/h" "$d" "$tmp/d2" >/dev/null 2>"$tmp/err"
rc=$?
check "--hosts: OUT/data a link: exit 3 in one line, nothing written through it (rc=$rc)" \
	'[ $rc -eq 3 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && [ -z "$(ls -A "$tmp/outside")" ]'

# run-all --report where gnuplot fails on the phases charts: the report
# lbcompare --report wrote links them, so run-all writes it again
# (--markdown), linking only the charts drawn.
if gp=$(command -v gnuplot); then
	mkdir "$tmp/gp"
	printf '#!/bin/sh\ncase "$*" in *phases.gp*) exit 1 ;; esac\nexec "%s" "$@"\n' "$gp" >"$tmp/gp/gnuplot"
	chmod +x "$tmp/gp/gnuplot"
	rm -f "$tmp/d2"/plots/*
	PATH="$tmp/gp:$PATH" "$top/run-all" --report "$tmp/d2" >"$tmp/gp.out" 2>&1
	rc=$?
	(cd "$tmp/d2" && "$CMP" --within . --markdown . >"$tmp/gp.md")
	check "a chart not drawn: report.md links only those drawn, --markdown's (rc=$rc)" \
		'grep -q "^run-all: gnuplot phases.gp failed" "$tmp/gp.out" && ! grep -q "plots/phases-" "$tmp/d2/report.md" &&
		 grep -q "(plots/hist-contended-creat-t2.png)" "$tmp/d2/report.md" && cmp -s "$tmp/gp.md" "$tmp/d2/report.md"'
else
	ok "# skip no gnuplot"
fi

# A comparison that fails: a second repetition of ticket whose meta.csv
# names another build (never pooled: model/builds.h).
r=$(awk '/^sweep-counter-t2-ticket-r1 / { print $1 }' "$d/plan.txt")
cp -R "$d/runs/$r" "$d/runs/sweep-counter-t2-ticket-r9"
grep "^$r " "$d/plan.txt" | sed 's/-r1 /-r9 /' >>"$d/plan.txt"
awk -F, 'BEGIN { OFS = "," } $1 == "lockbench_build_id" { $2 = "00000000000000000000000000000000000000ff" } { print }' \
	"$d/runs/$r/meta.csv" >"$d/runs/sweep-counter-t2-ticket-r9/meta.csv"
data "$d"
check "a failed comparison: exit 1, its status 1 in parts.txt, the others' 0 (rc=$rc)" \
	'[ $rc -eq 1 ] && grep -qx "sweep counter 1" "$d/ch/parts.txt" && grep -q "^patch creat 0$" "$d/ch/parts.txt"'
check "... its text's last line says why; no CSV file and no charts of it" \
	'tail -n 1 "$d/data/sweep-counter.txt" | grep -q "^lbcompare: ticket on counter, 2 threads: its runs are of two builds" &&
	 ! ls "$d/data" | grep -vx "sweep-counter.txt" | grep -q -e "-counter-" && [ ! -e "$d/ch/sweep-counter" ]'

(cd "$d" && "$CMP" --within . --data . >"$tmp/out" 2>"$tmp/err")
rc=$?
check "--data without CHARTSDIR: usage, exit 2 in one line (rc=$rc)" '[ $rc -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ]'
