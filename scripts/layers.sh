#!/bin/sh
# layers.sh — does lockbench's C code run one way?  Two graphs, each edge "A
# -> B" meaning A uses B:
#   calls:    object A refers to a symbol object B defines (nm over BUILD's
#             objects of the folders below), the C code's real dependencies;
#   includes: file A includes file B (#include "..." resolved from A's folder).
# Each must have no cycle (so no two files use each other), and each edge
# must go down LAYERS or stay in its folder: a file uses only its own folder
# and the folders listed before it.
#
#   scripts/layers.sh [BUILD]     (default build; run `make` first)
#   LAYERS_VERBOSE=1 scripts/layers.sh   also prints every edge
#
# Prints each graph's edge count and every offending edge or cycle, and
# exits 1 if there is one, 2 on bad usage.  LC_ALL=C: the sort orders and
# the messages are the same everywhere.
set -u
LC_ALL=C
export LC_ALL

# Bottom to top.  A folder not listed is not looked at (analysis/ has its own
# layers, beside these: it shares only common/ and locks/spin_exit.h).
LAYERS="common locks bench/platform bench/kernel bench/core bench/workloads bench/run bench/output bench"

build=${1:-build}
top=$(cd "$(dirname "$0")/.." && pwd) || exit 2
cd "$top" || exit 2
[ -d "$build" ] || { echo "layers.sh: no build directory '$build' (run make first)" >&2; exit 2; }
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT

# rank FILE: its folder's place in LAYERS (1 the lowest), or 0 when not listed.
ranks() {
	awk -v layers="$LAYERS" '
		BEGIN { n = split(layers, l, " "); for (i = 1; i <= n; i++) rank[l[i]] = i }
		{
			d = $0; sub(/\/[^\/]*$/, "", d)
			print (d in rank ? rank[d] : 0), $0
		}'
}

# check NAME EDGES: cycles (tsort) and edges that go up LAYERS.
bad=0
check() {
	name=$1 edges=$2
	printf '%s: %d edges between %d files\n' "$name" "$(wc -l <"$edges")" \
		"$(tr ' ' '\n' <"$edges" | sort -u | grep -c .)"
	[ -z "${LAYERS_VERBOSE:-}" ] || sed 's/ / -> /; s/^/  /' "$edges"
	if ! tsort "$edges" >/dev/null 2>"$tmp/tsort"; then
		echo "$name: CYCLE:"
		sed -n 's/^tsort: \([^-].*\)$/  \1/p' "$tmp/tsort" | grep -v 'input contains a loop'
		bad=1
	fi
	tr ' ' '\n' <"$edges" | sort -u | ranks >"$tmp/rank"
	awk 'NR == FNR { rank[$2] = $1; next }
	     rank[$1] && rank[$2] && rank[$2] > rank[$1] {
		print "  UP: " $1 " -> " $2 }' "$tmp/rank" "$edges" >"$tmp/up"
	if [ -s "$tmp/up" ]; then
		echo "$name: edges that go up the layers ($LAYERS):"
		cat "$tmp/up"
		bad=1
	fi
}

# The calls: each object's defined and undefined symbols, joined.
: >"$tmp/def"
: >"$tmp/use"
for d in $LAYERS; do
	for o in "$build/$d"/*.o; do
		[ -f "$o" ] || continue
		src=${o#"$build"/}
		src=${src%.o}.c
		nm --defined-only "$o" | awk -v f="$src" '$2 ~ /^[TDBRGSVW]$/ { print $3, f }' >>"$tmp/def"
		nm --undefined-only "$o" | awk -v f="$src" '{ print $NF, f }' >>"$tmp/use"
	done
done
[ -s "$tmp/def" ] || { echo "layers.sh: no objects under $build (run make first)" >&2; exit 2; }
sort -u "$tmp/def" >"$tmp/def.s"
sort -u "$tmp/use" >"$tmp/use.s"
# A symbol defined twice (the test registry's, or a lock's static inline
# copies) is not an edge to pick between: none is, here.
join "$tmp/use.s" "$tmp/def.s" | awk '$2 != $3 { print $2, $3 }' | sort -u >"$tmp/calls"
check calls "$tmp/calls"

# The includes, resolved from each file's folder; system headers and the
# generated BPF skeletons (found through -I) resolve to no file here.
for d in $LAYERS; do
	for f in "$d"/*.c "$d"/*.h "$d"/*.def; do
		[ -f "$f" ] || continue
		sed -n 's/^[ 	]*#[ 	]*include[ 	]*"\([^"]*\)".*/\1/p' "$f" | while read -r inc; do
			p=$(realpath -m --relative-to=. "$(dirname "$f")/$inc")
			[ -f "$p" ] && [ "$p" != "$f" ] && echo "$f $p"
		done
	done
done | sort -u >"$tmp/includes"
check includes "$tmp/includes"

[ $bad -eq 0 ] && echo "one way: no cycle, no edge up the layers"
exit $bad
