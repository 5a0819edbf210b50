#!/bin/sh
# lbcompare-bad.t — lbcompare refuses a result whose figures are impossible:
# each row of lbcompare-bad.tsv edits one value of a real result directory,
# and lbcompare must exit 1 with one stderr line naming the file, the key and
# the values involved, and print nothing.  The unedited runs are accepted.
LB=${LOCKBENCH:-bench/lockbench}
CMP=${LBCOMPARE:-analysis/lbcompare}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/tap.sh"

table=$(dirname "$0")/lbcompare-bad.tsv
rows=$(grep -cv -e '^#' -e '^$' "$table")
echo "1..$((rows + 3))"

for w in counter fserver creat; do
	"$LB" -l kmutex-fix -w "$w" -t 2 -d 0.1 --warmup 0 --quiet -o "$tmp/$w" >/dev/null 2>"$tmp/err"
	check "$w run made, and lbcompare accepts it as written" \
		'[ $? -eq 0 ] && "$CMP" "$tmp/$w" >/dev/null 2>"$tmp/err" && [ ! -s "$tmp/err" ]'
done

# value RUN KEY: the key's value as the run's summary.csv has it.
value() { awk -F, -v k="$2" '$1 == k { print $2; f = 1 } END { exit !f }' "$tmp/$1/summary.csv"; }

# evaluate RUN EXPR: a literal as it stands, or "A OP B" over numbers and keys.
evaluate() {
	awk -F, -v e="$2" '
		{ v[$1] = $2 }
		function term(t) { return (t in v) ? v[t] + 0 : t + 0 }
		END {
			n = split(e, w, " ")
			if (n == 1) { print e; exit }
			a = term(w[1]); b = term(w[3])
			r = w[2] == "+" ? a + b : w[2] == "-" ? a - b : w[2] == "*" ? a * b : a / b
			printf(r == int(r) ? "%.0f\n" : "%.6f\n", r)
		}' "$tmp/$1/summary.csv"
}

# shows FILE WORD: WORD appears in FILE's first line as a whole token (not
# inside a longer key or number).
shows() {
	awk -v w="$2" 'NR == 1 {
		for (at = 0; (i = index(substr($0, at + 1), w)) > 0; at += i) {
			before = substr($0, at + i - 1, 1); after = substr($0, at + i + length(w), 1)
			next2 = substr($0, at + i + length(w) + 1, 1)
			if (before !~ /[a-z0-9_.-]/ && after !~ /[a-z0-9_]/ && !(after == "." && next2 ~ /[0-9]/))
				found = 1
		}
	} END { exit !found }' "$1"
}

# Tabs are IFS white space: a run of them separates one column.
while IFS='	' read -r name run key expr also rest <&3; do
	case $name in '' | '#'*) continue ;; esac
	if [ -z "$also" ] || [ -n "$rest" ] || [ ! -d "$tmp/$run" ]; then
		not_ok "lbcompare-bad.tsv: not NAME RUN KEY VALUE ALSO: $name"
		continue
	fi
	if ! value "$run" "$key" >/dev/null; then
		ok "$name # skip $run writes no $key"
		continue
	fi
	new=$(evaluate "$run" "$expr")
	rm -rf "$tmp/bad"
	cp -r "$tmp/$run" "$tmp/bad"
	awk -F, -v k="$key" -v v="$new" 'BEGIN { OFS = "," } $1 == k { $2 = v } { print }' \
		"$tmp/$run/summary.csv" >"$tmp/bad/summary.csv"
	"$CMP" "$tmp/bad" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	why=
	[ "$rc" -eq 1 ] || why="$why exit $rc;"
	[ ! -s "$tmp/out" ] || why="$why stdout not empty;"
	[ "$(wc -l <"$tmp/err")" -eq 1 ] || why="$why $(wc -l <"$tmp/err") stderr lines;"
	grep -qF "$tmp/bad/summary.csv" "$tmp/err" || why="$why no file;"
	shows "$tmp/err" "$key" || why="$why no '$key';"
	shows "$tmp/err" "$new" || why="$why no '$new';"
	if [ "$also" != - ]; then
		for k in $also; do
			shows "$tmp/err" "$k" || why="$why no '$k';"
			shows "$tmp/err" "$(value bad "$k")" || why="$why no '$k' value $(value bad "$k");"
		done
	fi
	if [ -z "$why" ]; then
		ok "$name ($key,$new)"
	else
		not_ok "$name ($key,$new):$why $(head -c 300 "$tmp/err")"
	fi
done 3<"$table"
