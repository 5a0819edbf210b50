#!/bin/sh
# lbcompare.t — the comparison tool reads only the documented result files,
# reports their figures exactly, and rejects malformed input with one line.
LB=${LOCKBENCH:-bench/lockbench}
CMP=${LBCOMPARE:-analysis/lbcompare}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/tap.sh"
val() { awk -F, -v k="$2" '$1 == k { print $2 }' "$1/summary.csv"; }

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

echo "1..14"
"$LB" -l ticket -t 2 -d 0.1 --warmup 0 --quiet -o "$tmp/a" &&
	"$LB" -l tas -t 2 -d 0.1 --warmup 0 --quiet -o "$tmp/b"
check "two runs made" '[ $? -eq 0 ]'
"$CMP" "$tmp/a" "$tmp/b" >"$tmp/table" 2>"$tmp/err"
check "compares two runs" '[ $? -eq 0 ] && [ ! -s "$tmp/err" ] && grep -q "acquisition time distribution" "$tmp/table"'
ops=$(printf '%.0f' "$(val "$tmp/a" ops_per_s)")
check "Ops/sec equals summary.csv's ops_per_s ($ops)" \
	'awk -v want="$ops" "\$1 == \"ticket\" { print \$2; exit }" "$tmp/table" | grep -qx "$ops"'
cont=$(val "$tmp/b" contentions)
check "#contentions equals summary.csv's ($cont)" \
	'awk "/#contentions/ { on = 1; next } on && \$1 == \"tas\" { print \$2; exit }" "$tmp/table" | grep -qx "$cont"'
b10=$(awk -F, '$1 == 10 { print $3 }' "$tmp/a/hist.csv")
check "histogram row equals hist.csv's count (bin 10: $b10)" \
	'[ "$b10" = 0 ] || awk "/^bin / { on = 1; next } on && \$1 == 10 { print \$2; exit }" "$tmp/table" | grep -qx "$b10"'
mkdir -p "$tmp/csv"
"$CMP" --csv "$tmp/csv" "$tmp/a" "$tmp/b" >/dev/null 2>&1
check "--csv writes the derived files" \
	'[ -s "$tmp/csv/hist-counter-t2.csv" ] && [ -s "$tmp/csv/sweep-counter-ops_per_s.csv" ] && [ -s "$tmp/csv/phases-counter-t2.csv" ]'

bad() { rm -rf "$tmp/bad"; cp -r "$tmp/a" "$tmp/bad"; }
rejects "missing directory" "$tmp/nope" "$tmp/nope"
bad; rm "$tmp/bad/hist.csv"
rejects "missing hist.csv" "$tmp/bad" "hist.csv"
bad; sed -i '1s/.*/k,v/' "$tmp/bad/summary.csv"
rejects "wrong summary header" "$tmp/bad" "expected header 'key,value'"
bad; sed -i 's/^ops_per_s,.*/ops_per_s,fast/' "$tmp/bad/summary.csv"
rejects "non-numeric figure" "$tmp/bad" "'ops_per_s' is not a number"
bad; sed -i 's/^acquisitions,\(.*\)/acquisitions,1\1/' "$tmp/bad/summary.csv"
rejects "histogram disagreeing with summary" "$tmp/bad" "hist.csv holds"
bad; sed -i '12d' "$tmp/bad/hist.csv"
rejects "histogram row missing" "$tmp/bad" "hist.csv: line 12"
bad; printf 'key,value\nformat,something-else\n' >"$tmp/bad/summary.csv"
rejects "unknown format" "$tmp/bad" "not a lockbench-summary-1 file"
bad; head -c 100 /dev/urandom >"$tmp/bad/summary.csv"
rejects "binary garbage" "$tmp/bad" "summary.csv"
