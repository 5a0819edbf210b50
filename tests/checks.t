#!/bin/sh
# checks.t — a real run carries its self-checks: checks.csv holds exactly the
# checks results/README.md documents, summary.csv counts the warnings, and the
# summary prints the same verdicts.  (test_checks.c proves each can warn.)
LB=${LOCKBENCH:-bench/lockbench}
DOC=$(dirname "$0")/../results/README.md
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/tap.sh"
key() { awk -F, -v k="$2" '$1 == k { print $2 }' "$1/summary.csv"; }
status_of() { awk -F, -v c="$2" '$1 == c { print $2 }' "$1/checks.csv"; }
# The summary's per-check lines, as "check,status" (stdout file $1).
printed() { awk '/^  checks / { on = 1; next } on && /^    / { print $2 "," $1; next } { on = 0 }' "$1"; }

echo "1..13"

# The documented checks, in order: the first column of checks.csv's table.
sed -n '/^## checks.csv/,/^## /p' "$DOC" | awk -F'|' '$2 ~ /^ `[a-z_]+` $/ { gsub(/[ `]/, "", $2); print $2 }' >"$tmp/documented"
check "results/README.md documents the checks ($(wc -l <"$tmp/documented"))" '[ "$(wc -l <"$tmp/documented")" -ge 6 ]'

"$LB" -l kmutex-fix -t 2 -d 0.1 --warmup 0.02 -o "$tmp/k" >"$tmp/k.out" 2>"$tmp/k.err"
check "a kmutex-fix run with -o succeeds" '[ $? -eq 0 ] && [ -s "$tmp/k/checks.csv" ]'
check "checks.csv header is check,status,detail" '[ "$(head -n 1 "$tmp/k/checks.csv")" = "check,status,detail" ]'
tail -n +2 "$tmp/k/checks.csv" | cut -d, -f1 >"$tmp/written"
check "checks.csv lists exactly the documented checks, in order" 'cmp -s "$tmp/written" "$tmp/documented"'
check "every row is three fields with status ok, WARN or skipped" \
	'awk -F, "NR > 1 && (NF != 3 || \$2 !~ /^(ok|WARN|skipped)\$/) { bad = 1 } END { exit bad }" "$tmp/k/checks.csv"'
warned=$(awk -F, 'NR > 1 && $2 == "WARN"' "$tmp/k/checks.csv" | wc -l)
check "summary.csv checks_warned counts the WARN rows ($warned)" '[ "$(key "$tmp/k" checks_warned)" = "$warned" ]'
check "histogram total, phases and invariant hold for kmutex-fix" \
	'[ "$(status_of "$tmp/k" histogram_total)" = ok ] && [ "$(status_of "$tmp/k" acquisition_phases)" = ok ] && [ "$(status_of "$tmp/k" invariant)" = ok ]'
tail -n +2 "$tmp/k/checks.csv" | cut -d, -f1,2 >"$tmp/k.rows"
printed "$tmp/k.out" >"$tmp/k.printed"
check "the summary prints every check with the status checks.csv has" 'cmp -s "$tmp/k.rows" "$tmp/k.printed"'
ok_n=$(grep -c ',ok$' "$tmp/k.rows") skip_n=$(grep -c ',skipped$' "$tmp/k.rows")
check "the summary's checks line counts them" \
	'grep -q "^  checks  *$ok_n ok, $warned WARN, $skip_n skipped$" "$tmp/k.out"'

"$LB" -l ticket -t 1 -d 0.05 --warmup 0 -o "$tmp/t" >/dev/null 2>&1
check "one thread: tsc_skew and fairness skipped, and a lock without phases too" \
	'[ "$(status_of "$tmp/t" tsc_skew)" = skipped ] && [ "$(status_of "$tmp/t" fairness)" = skipped ] && [ "$(status_of "$tmp/t" acquisition_phases)" = skipped ]'
check "skipped checks say why" 'awk -F, "\$2 == \"skipped\" && length(\$3) < 5 { bad = 1 } END { exit bad }" "$tmp/t/checks.csv"'

# `none` excludes nothing: its lost updates must show as a failed check.
"$LB" -l none -t 4 -d 0.2 --warmup 0.02 -o "$tmp/n" >"$tmp/n.out" 2>"$tmp/n.err"
rc=$?
check "a run that fails its invariant exits 3 ($rc) and writes no results" '[ $rc -eq 3 ] && [ ! -e "$tmp/n" ]'
check "its summary shows the invariant check as WARN" \
	'grep -Eq "^  checks .* [1-9][0-9]* WARN" "$tmp/n.out" && grep -Eq "^    WARN +invariant +counter invariant FAILED" "$tmp/n.out"'
