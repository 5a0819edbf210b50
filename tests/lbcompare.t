#!/bin/sh
# lbcompare.t — the comparison tool reads only the documented result files,
# reports their figures exactly, and rejects malformed input with one line
# (impossible figures: lbcompare-bad.t).
LB=${LOCKBENCH:-bench/lockbench}
CMP=${LBCOMPARE:-analysis/lbcompare}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/tap.sh"
# peak FILE: the bin with the most acquisitions in a hist.csv-format file;
# count_at FILE BIN: that bin's count.
peak() { awk -F, 'NR > 1 && $3 + 0 > max { max = $3 + 0; b = $1 } END { print b + 0 }' "$1"; }
count_at() { awk -F, -v b="$2" '$1 == b { print $3 }' "$1"; }
# cell TABLE START KEY FIELD: field FIELD of the first line whose first field
# is KEY, after the first line that begins with START.
cell() {
	awk -v start="$2" -v key="$3" -v f="$4" 'index($0, start) == 1 { on = 1; next }
		on && $1 == key { print $f; exit }' "$1"
}
# change BEFORE AFTER pct|ratio [SCALE]: lbcompare's "before -> after, change"
# text, of the figures times SCALE.
change() {
	awk -v a="$1" -v b="$2" -v how="$3" -v scale="${4:-1}" 'BEGIN {
		a *= scale; b *= scale
		printf "%.0f -> %.0f", a, b
		if (a > 0) printf(how == "pct" ? ", %+.1f%%" : ", %.2fx", how == "pct" ? 100 * (b / a - 1) : b / a)
		print "" }'
}
CONT="Mutex acquisition time distribution, contended"
ALL="Mutex acquisition time distribution, all acquisitions"

# rejects NAME DIR SUBSTRING: exit 1, exactly one stderr line naming the problem.
rejects() {
	"$CMP" "$2" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ $rc -eq 1 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -qF -- "$3" "$tmp/err"; then
		ok "$1"
	else
		not_ok "$1 (rc=$rc: $(head -c 200 "$tmp/err"))"
	fi
}

echo "1..58"
# tas's run must contend (the contended-histogram checks below read its
# peak bin): a critical section of 100 units and 0.3 s, so that even on a
# loaded machine, where the two threads overlap only now and then, they meet.
"$LB" -l ticket -t 2 -d 0.1 --warmup 0 --quiet -o "$tmp/a" &&
	"$LB" -l tas -t 2 -d 0.3 --cs 100 --warmup 0 --quiet -o "$tmp/b"
check "two runs made" '[ $? -eq 0 ]'
"$CMP" "$tmp/a" "$tmp/b" >"$tmp/table" 2>"$tmp/err"
check "compares two runs" '[ $? -eq 0 ] && [ ! -s "$tmp/err" ] && grep -q "acquisition time distribution" "$tmp/table"'
ops=$(printf '%.0f' "$(val "$tmp/a" ops_per_s)")
check "Ops/sec equals summary.csv's ops_per_s ($ops)" \
	'awk -v want="$ops" "\$1 == \"ticket\" { print \$2; exit }" "$tmp/table" | grep -qx "$ops"'
cont=$(val "$tmp/b" contentions)
check "#contentions equals summary.csv's ($cont)" \
	'awk "/#contentions/ { on = 1; next } on && \$1 == \"tas\" { print \$2; exit }" "$tmp/table" | grep -qx "$cont"'
pa=$(peak "$tmp/a/hist.csv") ca=$(count_at "$tmp/a/hist.csv" "$pa")
check "all-acquisitions histogram row equals hist.csv's count (bin $pa: $ca)" \
	'[ "$(cell "$tmp/table" "$ALL" "$pa" 2)" = "$ca" ]'

# --- contended acquisitions: what the seed patch's table counted ---
check "hist_contended.csv: 64 bins adding up to contentions ($cont)" \
	'[ "$(awk -F, "NR > 1 { n++; s += \$3 } END { print n, s }" "$tmp/b/hist_contended.csv")" = "64 $cont" ]'
pb=$(peak "$tmp/b/hist_contended.csv") cb=$(count_at "$tmp/b/hist_contended.csv" "$pb")
check "contended histogram row equals hist_contended.csv's count (tas, bin $pb: $cb)" \
	'[ "$(cell "$tmp/table" "$CONT" "$pb" 4)" = "$cb" ]'
cmean=$(printf '%.0f' "$(val "$tmp/b" contended_acq_cycles_mean)")
check "contended mean cycles equals summary.csv's contended_acq_cycles_mean ($cmean)" \
	'[ "$(cell "$tmp/table" "Contended acquisitions only" tas 4)" = "$cmean" ]'
amean=$(printf '%.0f' "$(val "$tmp/b" acq_cycles_mean)")
check "all-acquisitions mean cycles equals summary.csv's acq_cycles_mean ($amean)" \
	'[ "$(cell "$tmp/table" "All acquisitions, fast path included" tas 4)" = "$amean" ]'
check "the patch-shaped histogram and mean say they are of contended acquisitions" \
	'grep -q "^$CONT acquisitions only, as the patch counted" "$tmp/table" &&
	 grep -q "^Contended acquisitions only, as the patch counted (#contentions; mean acquisition cycles)" "$tmp/table"'
check "no seed figures for a table without kmutex-spin and kmutex-fix" '! grep -q "seed" "$tmp/table"'

# A run written before hist_contended.csv existed still loads, and says so.
rm -rf "$tmp/old"; cp -r "$tmp/b" "$tmp/old"; rm "$tmp/old/hist_contended.csv"
grep -v '^contended_' "$tmp/b/summary.csv" >"$tmp/old/summary.csv"
"$CMP" "$tmp/a" "$tmp/old" >"$tmp/old.table" 2>"$tmp/err"
check "a run without hist_contended.csv loads" '[ $? -eq 0 ] && [ ! -s "$tmp/err" ]'
# The contended histogram's rows now span ticket's contended bins only, which
# need not reach tas's peak (on a loaded CI machine they did not): every row
# there must say n/a for tas, and there is one row per bin of ticket's span.
tas_cells() {
	awk -v start="$CONT" 'index($0, start) == 1 { on = 1; next }
		on && $1 ~ /^[0-9]+$/ { print $4 } on && $0 == "" { exit }' "$1"
}
span=$(awk -F, 'NR > 1 && $3 + 0 > 0 { if (first == "") first = $1; last = $1 }
	END { print first == "" ? 0 : last - first + 1 }' "$tmp/a/hist_contended.csv")
check "... its contended mean and histogram are n/a, the rest as before" \
	'[ "$(cell "$tmp/old.table" "Contended acquisitions only" tas 4)" = n/a ] &&
	 [ "$(cell "$tmp/old.table" "Contended acquisitions only" tas 2)" = "$cont" ] &&
	 [ "$(tas_cells "$tmp/old.table" | wc -l)" -eq "$span" ] &&
	 [ -z "$(tas_cells "$tmp/old.table" | grep -vx n/a)" ] &&
	 [ "$(cell "$tmp/old.table" "$ALL" "$pa" 2)" = "$ca" ]'
"$CMP" "$tmp/old" >"$tmp/old.table" 2>"$tmp/err"
check "... alone: the contended histogram is said to be unavailable" \
	'[ $? -eq 0 ] && grep -q "^n/a: these runs have no hist_contended.csv" "$tmp/old.table"'
mkdir -p "$tmp/csv"
"$CMP" --csv "$tmp/csv" "$tmp/a" "$tmp/b" >/dev/null 2>&1
check "--csv writes the derived files" \
	'[ -s "$tmp/csv/hist-counter-t2.csv" ] && [ -s "$tmp/csv/sweep-counter-ops_per_s.csv" ] && [ -s "$tmp/csv/phases-counter-t2.csv" ]'
pct=$(awk -v c="$cb" -v t="$cont" 'BEGIN { printf "%.4f", t ? 100 * c / t : 0 }')
check "--csv hist-contended-counter-t2.csv: tas's bin $pb is $pct% of its contentions" \
	'[ "$(awk -F, -v b="$pb" "\$1 == b { print \$5 }" "$tmp/csv/hist-contended-counter-t2.csv")" = "$pct" ]'
check "--csv phases file has the without-sleeping phase" \
	'[ "$(head -n 1 "$tmp/csv/phases-counter-t2.csv")" = "lock,fast_pct,spin_pct,nosleep_pct,sleep_pct" ]'
rm -rf "$tmp/csv-old"; mkdir -p "$tmp/csv-old"
"$CMP" --csv "$tmp/csv-old" "$tmp/a" "$tmp/old" >/dev/null 2>&1
check "--csv writes no contended histogram when a run lacks one" \
	'[ -s "$tmp/csv-old/hist-counter-t2.csv" ] && [ ! -e "$tmp/csv-old/hist-contended-counter-t2.csv" ]'
"$LB" -l ticket -t 1 -d 0.05 --warmup 0 --quiet -o "$tmp/one" >/dev/null 2>&1
rm -rf "$tmp/csv-one"; mkdir -p "$tmp/csv-one"
"$CMP" --csv "$tmp/csv-one" "$tmp/one" >/dev/null 2>&1
check "one thread: no contention, contended figures 0, and no contended chart to draw" \
	'[ $? -eq 0 ] && [ "$(val "$tmp/one" contentions)" = 0 ] && [ "$(val "$tmp/one" contended_acq_cycles_mean)" = 0.000 ] &&
	 [ -s "$tmp/csv-one/hist-counter-t1.csv" ] && [ ! -e "$tmp/csv-one/hist-contended-counter-t1.csv" ]'

# --- repetitions: intervals, ratios and verdicts ---
# rep SRC DST OPS_PER_S: a copy of run SRC whose throughput reads OPS_PER_S
# (measured_s set to match, so that ops / measured_s still agrees).
rep() {
	cp -r "$1" "$2"
	awk -F, -v OFS=, -v ops="$(val "$1" ops)" -v t="$3" '$1 == "measured_s" { $2 = sprintf("%.9f", ops / t) }
		$1 == "ops_per_s" { $2 = sprintf("%.6f", t) } { print }' "$1/summary.csv" >"$2/summary.csv"
}
i=0
mkdir -p "$tmp/reps" "$tmp/same"
for f in 1000 1010 990 1020 980; do
	i=$((i + 1))
	rep "$tmp/a" "$tmp/reps/ticket-$i" $f       # baseline
	rep "$tmp/b" "$tmp/reps/tas-$i" $((f * 3 / 2))  # 1.5x, every run above every baseline run
	rep "$tmp/b" "$tmp/same/tas-$i" $((2000 - f))   # the baseline's figures, reordered
done
mkdir -p "$tmp/csv-reps"
"$CMP" --csv "$tmp/csv-reps" "$tmp"/reps/ticket-* "$tmp"/reps/tas-* >"$tmp/reps.table" 2>"$tmp/err"
check "5 runs a side: the median, its interval [min..max] and what that covers (93.8%)" \
	'[ $? -eq 0 ] && grep -Eq "^ticket +1000 \[980\.\.1020\] +1\.00x" "$tmp/reps.table" &&
	 grep -q "With 5 repetitions the interval is \[min..max\], which holds the median with 93.8% confidence" "$tmp/reps.table"'
check "1.5x with no overlap: verdict faster, in the table and the differences" \
	'grep -Eq "^tas +1500 \[1470\.\.1530\] +1\.50x faster " "$tmp/reps.table" &&
	 grep -Eq "^tas +Ops/sec +5:5 +1\.50x +\[1\.4[0-9]*\.\.1\.5[0-9]*\] +0\.008 +faster\$" "$tmp/reps.table"'
check "stats CSV: the ratio, Moses' interval around it, the exact p (2/252) and the verdict" \
	'awk -F, "\$1 == \"tas\" && \$2 == \"ops_per_s\" { ok = \$3 == 5 && \$4 == 1500 && \$10 == 1.5 && \$11 < 1.5 && \$12 > 1.5 && \$13 > 0.0079 && \$13 < 0.0080 && \$14 == \"faster\" } END { exit !ok }" "$tmp/csv-reps/stats-counter-t2.csv"'
check "the sweep's error-bar file has each lock's median and interval" \
	'grep -qx "2,1000,980,1020,1500,1470,1530" "$tmp/csv-reps/sweep-counter-ops_per_s-ci.csv"'
"$CMP" "$tmp"/reps/ticket-* "$tmp"/same/tas-* >"$tmp/same.table" 2>"$tmp/err"
check "the same figures in another order: no difference, never faster or slower" \
	'[ $? -eq 0 ] && grep -Eq "^tas +Ops/sec +5:5 +1\.00x +.* no difference\$" "$tmp/same.table" &&
	 grep -Eq "^tas +1000 \[980\.\.1020\] +1\.00x no difference " "$tmp/same.table"'
check "histograms: a distance, a p and a verdict per variant, and the shares' change per bin" \
	'grep -Eq "^tas +5:5 +[0-9.]+ +[-+][0-9.]+ +[<0-9.]+ +(differs|no difference)\$" "$tmp/reps.table" &&
	 grep -q "^Share of acquisitions in each bin, variant minus ticket" "$tmp/reps.table" &&
	 head -n 1 "$tmp/csv-reps/histcmp-counter-t2.csv" | grep -q "^histogram,variant,runs,baseline_runs,emd_bins,"'
# What the sizes can show comes from both: 3 against 3 cannot (smallest p 2/20),
# 5 against 3 can (2/56 = 0.036), as 4 a side can.
"$CMP" "$tmp"/reps/ticket-[123] "$tmp"/reps/tas-[123] >"$tmp/reps33.table" 2>"$tmp/err"
check "3 runs a side: no verdict can be shown (smallest p 0.100), and which sizes could" \
	'[ $? -eq 0 ] && grep -Eq "^tas +Ops/sec +3:3 +1\.50x .* no difference\$" "$tmp/reps33.table" &&
	 grep -qx "With 3 repetitions a side no difference can be shown at 95% (the smallest p is 0.100): 4 a side, or 3 against 5, can." "$tmp/reps33.table"'
"$CMP" "$tmp"/reps/ticket-[123] "$tmp"/reps/tas-* >"$tmp/reps53.table" 2>"$tmp/err"
check "5 runs against 3: faster at p 0.036 (2/56), and no note that nothing can be shown" \
	'[ $? -eq 0 ] && grep -Eq "^tas +Ops/sec +5:3 +1\.50x +\[[0-9.]+\.\.[0-9.]+\] +0\.036 +faster\$" "$tmp/reps53.table" &&
	 ! grep -q "no difference can be shown" "$tmp/reps53.table"'
"$CMP" "$tmp/a" "$tmp/b" >"$tmp/single.table" 2>&1
check "one run a side: said once, no interval or verdict columns" \
	'grep -q "^One run per variant: no intervals and no verdicts" "$tmp/single.table" && ! grep -q "ratio verdict" "$tmp/single.table"'

# --- the seed's own figures beside this machine's kmutex-spin -> kmutex-fix ---
for w in creat fserver; do
	for l in kmutex-spin kmutex-fix; do
		"$LB" -l $l -w $w -t 2 -d 0.2 --warmup 0 --quiet -o "$tmp/$w-$l" >/dev/null 2>&1 || echo "# $l $w run failed"
	done
done
"$CMP" "$tmp/creat-kmutex-spin" "$tmp/creat-kmutex-fix" >"$tmp/creat.table" 2>"$tmp/err"
here=$(change "$(val "$tmp/creat-kmutex-spin" ops_per_s)" "$(val "$tmp/creat-kmutex-fix" ops_per_s)" ratio)
check "creat: the seed's ops/s (62864 -> 197200, 3.14x) beside this machine's ($here)" \
	'grep -q "^Ops/sec  *62864 -> 197200, 3.14x  *$here\$" "$tmp/creat.table"'
check "creat: the phases table has the nosleep and need-resched columns, as summary.csv" \
	'[ "$(cell "$tmp/creat.table" "How acquisitions were obtained" kmutex-fix 4)" = "$(val "$tmp/creat-kmutex-fix" acq_nosleep)" ] &&
	 [ "$(cell "$tmp/creat.table" "Why spin phases ended" kmutex-fix 5)" = "$(val "$tmp/creat-kmutex-fix" spin_exit_need_resched)" ] &&
	 grep -q "acq spin     acq nosleep       acq sleep" "$tmp/creat.table" &&
	 grep -q "owner not running  *need resched  *budget spent" "$tmp/creat.table"'
"$CMP" "$tmp/fserver-kmutex-spin" "$tmp/fserver-kmutex-fix" >"$tmp/fs.table" 2>"$tmp/err"
check "fserver: compared" '[ $? -eq 0 ] && [ ! -s "$tmp/err" ]'
jobs=$(change "$(val "$tmp/fserver-kmutex-spin" ops_per_s)" "$(val "$tmp/fserver-kmutex-fix" ops_per_s)" ratio 60)
check "fserver: the seed's jobs/min (91657 -> 149325, 1.63x) beside this machine's ($jobs)" \
	'grep -q "^Jobs/min  *91657 -> 149325, 1.63x  *$jobs\$" "$tmp/fs.table"'
conts=$(change "$(val "$tmp/fserver-kmutex-spin" contentions)" "$(val "$tmp/fserver-kmutex-fix" contentions)" pct)
check "fserver: the seed's contentions (-32.6%) beside this machine's ($conts)" \
	'grep -q "^#contentions  *72973 -> 49210, -32.6%  *$conts\$" "$tmp/fs.table"'
means=$(change "$(val "$tmp/fserver-kmutex-spin" contended_acq_cycles_mean)" \
	"$(val "$tmp/fserver-kmutex-fix" contended_acq_cycles_mean)" pct)
check "fserver: the seed's mean acquisition (-48.5%) beside this machine's contended one ($means)" \
	'grep -q "^mean acq cycles, contended  *44765791 -> 23067129, -48.5%  *$means\$" "$tmp/fs.table"'
ps=$(peak "$tmp/fserver-kmutex-spin/hist_contended.csv")
spct=$(awk -F, -v b="$ps" -v t="$(val "$tmp/fserver-kmutex-spin" contentions)" \
	'$1 == b { printf "%.2f%%", t ? 100 * $3 / t : 0 }' "$tmp/fserver-kmutex-spin/hist_contended.csv")
# A run with no contended acquisition (two threads that barely overlapped on
# a loaded machine: it failed so once) has no bin of its own to show: then
# the seed's columns alone are checked, and the test says so.
if [ "$(val "$tmp/fserver-kmutex-spin" contentions)" -gt 0 ]; then
	mine='[ "$(cell "$tmp/fs.table" "% of contended acquisitions" "$ps" 4)" = "$spct" ]'
else
	mine=true spct="none contended: the seed's columns only"
fi
check "fserver: the seed's histogram (bin 26: 87.69% -> 0.25%) beside this machine's contended one (bin $ps: $spct)" \
	'[ "$(cell "$tmp/fs.table" "% of contended acquisitions" 26 2)" = 87.69% ] &&
	 [ "$(cell "$tmp/fs.table" "% of contended acquisitions" 26 3)" = 0.25% ] && eval "$mine"'

bad() { rm -rf "$tmp/bad"; cp -r "$tmp/a" "$tmp/bad"; }
rejects "missing directory" "$tmp/nope" "$tmp/nope"
bad; rm "$tmp/bad/hist.csv"
rejects "missing hist.csv" "$tmp/bad" "hist.csv"
bad; sed -i '1s/.*/k,v/' "$tmp/bad/summary.csv"
rejects "wrong summary header" "$tmp/bad" "expected header 'key,value'"
bad; sed -i 's/^ops_per_s,.*/ops_per_s,fast/' "$tmp/bad/summary.csv"
rejects "non-numeric figure" "$tmp/bad" "ops_per_s is 'fast', not a decimal number"
bad; awk -F, 'BEGIN { OFS = "," } $1 == "0" { $3 += 1 } { print }' "$tmp/a/hist.csv" >"$tmp/bad/hist.csv"
rejects "histogram disagreeing with summary" "$tmp/bad" "hist.csv holds"
bad; sed -i '12d' "$tmp/bad/hist.csv"
rejects "histogram row missing" "$tmp/bad" "hist.csv: line 12"
bad; printf 'key,value\nformat,something-else\n' >"$tmp/bad/summary.csv"
rejects "unknown format" "$tmp/bad" "not a lockbench-summary-1 file"
bad; sed -i 's/$/\r/' "$tmp/bad/summary.csv"
rejects "CRLF summary.csv said to be CRLF" "$tmp/bad" "summary.csv: line 1: ends in CRLF"
bad; sed -i 's/$/\r/' "$tmp/bad/hist.csv"
rejects "CRLF hist.csv said to be CRLF" "$tmp/bad" "hist.csv: line 1: ends in CRLF"
bad; sed -i '30s/$/\r/' "$tmp/bad/hist.csv"
rejects "one CRLF line in hist.csv" "$tmp/bad" "hist.csv: line 30: ends in CRLF"
bad; head -c 100 /dev/urandom >"$tmp/bad/summary.csv"
rejects "binary garbage" "$tmp/bad" "summary.csv"

# hist_contended.csv: present exactly when the contended_* keys are, adding
# up to contentions, each contended acquisition also in hist.csv's bin
bad() { rm -rf "$tmp/bad"; cp -r "$tmp/b" "$tmp/bad"; }
bad; rm "$tmp/bad/hist_contended.csv"
rejects "contended keys without hist_contended.csv" "$tmp/bad" "summary.csv has contended_acq_cycles_sum but there is no hist_contended.csv"
bad; grep -v '^contended_acq_cycles_mean,' "$tmp/b/summary.csv" >"$tmp/bad/summary.csv"
rejects "hist_contended.csv without the contended mean" "$tmp/bad" "no contended_acq_cycles_mean"
bad; awk -F, -v b="$pb" 'BEGIN { OFS = "," } $1 == b { $3 += 1 } { print }' "$tmp/b/hist_contended.csv" >"$tmp/bad/hist_contended.csv"
rejects "contended histogram disagreeing with contentions" "$tmp/bad" "hist_contended.csv holds $((cont + 1)) acquisitions, summary.csv's timed_contentions is $cont"
bad; awk -F, -v b="$pb" 'BEGIN { OFS = "," } $1 == b { $3 -= 1 } $1 == 63 { $3 += 1 } { print }' "$tmp/b/hist_contended.csv" >"$tmp/bad/hist_contended.csv"
rejects "contended bin above hist.csv's" "$tmp/bad" "hist_contended.csv holds 1 in bin 63, hist.csv only 0"
bad; sed -i '20d' "$tmp/bad/hist_contended.csv"
rejects "contended histogram row missing" "$tmp/bad" "hist_contended.csv: line 20"

# --- the models against the running kernel's mutex ---
# fpos's kernel row (`none` with --kernel-locks, met first: the baseline) and
# two models, two runs each: the figures of lbcompare's table and of
# kernel-fpos-t2.csv are each side's own, from its summary.csv.
capture_probe
mk=$tmp/mvk
mkdir -p "$mk/csv"
if [ -z "$skip" ]; then
	for r in 1 2; do
		"$LB" -l none -w fpos -t 2 -d 0.1 --warmup 0 --kernel-locks --seed $r --dir "$tmp" --quiet -o "$mk/none-$r" &&
			"$LB" -l kmutex-handoff -w fpos -t 2 -d 0.1 --warmup 0 --seed $r --dir "$tmp" --quiet -o "$mk/kmutex-handoff-$r" &&
			"$LB" -l pthread -w fpos -t 2 -d 0.1 --warmup 0 --seed $r --dir "$tmp" --quiet -o "$mk/pthread-$r" ||
			echo "# an fpos run failed"
	done
	"$CMP" --csv "$mk/csv" "$mk"/none-* "$mk"/kmutex-handoff-* "$mk"/pthread-* >"$mk/table" 2>"$mk/err"
fi
# expect LOCK EXPR [PER]: the median over LOCK's two runs of EXPR (summary.csv
# keys added or taken away, "a+b-c") / PER, as %.6g.
expect() {
	for r in 1 2; do cat "$mk/$1-$r/summary.csv"; echo "--"; done |
		awk -F, -v expr="$2" -v per="${3:-}" '
		$0 == "--" { n = split(expr, t, /[-+]/); split(expr, s, /[a-z_]+/); v = 0
			for (i = 1; i <= n; i++) v += (s[i] == "-" ? -1 : 1) * kv[t[i]]
			if (per != "") v = kv[per] > 0 ? v / kv[per] : 0
			vals[++runs] = v; delete kv; next }
		{ kv[$1] = $2 + 0 }
		END { printf "%.6g\n", (vals[1] + vals[2]) / 2 }'
}
# got VARIANT FIGURE: kernel-fpos-t2.csv's median of it.
got() { awk -F, -v v="$1" -v f="$2" '$1 == v && $2 == f { print $4 }' "$mk/csv/kernel-fpos-t2.csv"; }
same() { [ -n "$(got "$1" "$2")" ] && [ "$(got "$1" "$2")" = "$(expect "$1" "$3" "${4:-}")" ]; }
capture "models vs the kernel: lbcompare compares them, the kernel's row first, in its text and kernel-fpos-t2.csv" \
	'[ ! -s "$mk/err" ] && grep -q "^Models against the running kernel.s mutex (kernel [0-9]*\.[0-9]* mutex, the baseline)\.  What each side times" "$mk/table" &&
	 [ "$(awk -F, "NR == 2 { print \$1 }" "$mk/csv/kernel-fpos-t2.csv")" = none ]'
capture "the kernel's contended/op and mean wait are its mutex waits': kernel_contentions_mutex / ops, kernel_wait_cycles_sum_mutex / kernel_contentions_mutex" \
	'same none contended_per_op kernel_contentions_mutex ops &&
	 same none contended_cycles_mean kernel_wait_cycles_sum_mutex kernel_contentions_mutex'
capture "the kernel's unqueued/op is its spin class, queued/op spin_sleep + sleep, queued at once sleep" \
	'same none unqueued_per_op kernel_mutex_via_spin ops && same none queued_per_op kernel_mutex_via_spin_sleep+kernel_mutex_via_sleep ops &&
	 same none queued_at_once_per_op kernel_mutex_via_sleep ops && [ -z "$(got none slept_per_op)" ]'
capture "a model's contended/op and mean are its contended acquisitions': contentions / ops, contended_acq_cycles_mean" \
	'same kmutex-handoff contended_per_op contentions ops && same kmutex-handoff contended_cycles_mean contended_acq_cycles_mean &&
	 same kmutex-handoff ops_per_s ops_per_s && same kmutex-handoff cpu_us_per_op cpu_us_per_op'
capture "a model's unqueued/op is acq_spin + nosleep_unqueued, queued/op the rest of its slow path, slept/op acq_sleep" \
	'same kmutex-handoff unqueued_per_op acq_spin+nosleep_unqueued ops &&
	 same kmutex-handoff queued_per_op acq_nosleep+acq_sleep-nosleep_unqueued ops &&
	 same kmutex-handoff slept_per_op acq_sleep ops && [ -z "$(got kmutex-handoff queued_at_once_per_op)" ]'
capture "a lock without phases (pthread): no phase figures, n/a in the table" \
	'same pthread contended_per_op contentions ops && [ -z "$(got pthread unqueued_per_op)" ] &&
	 grep -q "^(n/a: a lock without spin/sleep phases records none)$" "$mk/table"'
# in_row LABEL FIGURE: the first text row of LABEL holds FIGURE's CSV median as
# the table formats it.  The CSV's 6 significant digits may sit either side of
# a rounding boundary the exact median does not: either neighbour's rounding
# is the table's.
in_row() {
	row=$(grep -m1 "^$1 " "$mk/table") v=$(got "$1" "$2")
	[ -n "$v" ] || return 1
	for shown in $(awk -v v="$v" 'BEGIN { printf "%.4f %.4f\n", v * (1 - 1e-5), v * (1 + 1e-5) }'); do
		case $row in *" $shown "*) return 0 ;; esac
	done
	return 1
}
capture "the text's cells are the CSV's: kmutex-handoff's contended/op, unqueued/op and queued/op" \
	'in_row kmutex-handoff contended_per_op && in_row kmutex-handoff unqueued_per_op && in_row kmutex-handoff queued_per_op'
