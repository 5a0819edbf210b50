#!/bin/sh
# options-doc.sh — docs/workloads.md's table of the workloads' options, made
# from their declarations as `lockbench --list` prints them (its `option
# workload` lines), never from the C source.
#
#   scripts/options-doc.sh [LB]                 prints the table
#   scripts/options-doc.sh --update DOC [LB]    writes it into DOC, in place of
#                                               the table after its heading
#                                               "### Workload options"
#   LB: the lockbench binary (default: $LOCKBENCH, else bench/lockbench)
#
# tests/docs.t fails while the doc's table is not the one printed here.
# Exits 1 when lockbench --list fails or DOC has no such heading, 2 on bad usage.
set -u
LC_ALL=C
export LC_ALL

doc=
if [ "${1:-}" = --update ]; then
	[ $# -ge 2 ] || { echo "usage: options-doc.sh [--update DOC] [LB]" >&2; exit 2; }
	doc=$2
	shift 2
fi
[ $# -le 1 ] || { echo "usage: options-doc.sh [--update DOC] [LB]" >&2; exit 2; }
LB=${1:-${LOCKBENCH:-bench/lockbench}}

# The table: one row per option of each workload, in --list's order; a `|`
# of the help written \| (a cell's text).
table() {
	list=$("$LB" --list) || { echo "options-doc.sh: $LB --list failed" >&2; return 1; }
	printf '| workload | option | meaning |\n|---|---|---|\n'
	printf '%s\n' "$list" | awk '/^[a-z]+:$/ { on = ($0 == "plan:"); next }
		on && $1 == "option" && $2 == "workload" {
			help = $0
			for (i = 1; i <= 6; i++)
				sub(/^ *[^ ]+ +/, "", help)
			gsub(/\|/, "\\|", help)
			printf "| `%s` | `%s %s` | %s |\n", $3, $6, $5, help
		}'
}

if [ -z "$doc" ]; then
	table
	exit
fi
grep -qx '### Workload options' "$doc" || { echo "options-doc.sh: $doc has no heading '### Workload options'" >&2; exit 1; }
table >"$doc.table.$$" || { rm -f "$doc.table.$$"; exit 1; }
# The heading's table (its first run of | lines) replaced; the rest kept.
awk -v t="$doc.table.$$" '
	$0 == "### Workload options" { under = 1 }
	under && /^\|/ { if (!done) { while ((getline l < t) > 0) print l; done = 1 }; next }
	under && done { under = 0 }
	{ print }' "$doc" >"$doc.new.$$" && mv "$doc.new.$$" "$doc"
rm -f "$doc.table.$$"
