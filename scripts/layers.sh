#!/bin/sh
# layers.sh — does lockbench's C code run one way?  Two graphs, each edge "A
# -> B" meaning A uses B:
#   calls:    object A refers to a symbol object B defines (nm over BUILD's
#             objects of the folders below), the C code's real dependencies;
#   includes: file A includes file B (#include "..." resolved from A's folder).
# Each must have no cycle (so no two files use each other), and each edge
# must go down a stack of STACKS or stay in its folder: a file uses only its
# own folder and the folders listed before its own in a stack holding both.
#
#   scripts/layers.sh [BUILD [SRC]]   (default build, and this tree; run `make` first)
#   BUILD's objects are those of SRC's sources (an object whose source is
#   gone is an older build's: files moved); tests/layers.t gives a made-up
#   tree of both.
#   LAYERS_VERBOSE=1 scripts/layers.sh   also prints every edge
#
# Prints each graph's edge count and every offending edge or cycle, and
# exits 1 if there is one, 2 on bad usage.  LC_ALL=C: the sort orders and
# the messages are the same everywhere.
set -u
LC_ALL=C
export LC_ALL

# The stacks, each bottom to top, one a line: lockbench's and lbcompare's.
# They share common/ (and analysis/ the one list of spin-exit reasons in
# locks/spin_exit.h: an entry may name a file); an edge between two folders
# that no stack holds together (analysis/ -> bench/) goes across, and is
# refused.  A folder in no stack is not looked at (bpf/, tests/locks/).
# sim/, the simulator, is beneath bench/ (which will drive it) and above the
# locks (whose simulated build it runs); sim/calibrate.c, lbcalibrate's
# main(), measures this machine with bench/'s code and stands above it all.
# bench/exec/ is --exec's preloaded library (the locks, common/ and the
# timed acquisition of bench/core/ in one .so), low; bench/exec/launcher/,
# which runs a program as a benchmark run is run and written, is above
# bench/output/.
STACKS="common locks sim bench/platform bench/kernel bench/core bench/exec bench/workloads bench/run bench/output bench/exec/launcher bench sim/calibrate.c
common locks/spin_exit.h analysis/files analysis/model analysis/figures analysis/print analysis"
# Every folder of a stack (its file entries are in a folder of another).
LAYERS=$(printf '%s\n' "$STACKS" | tr ' ' '\n' | grep -v '\.[a-z]*$' | awk '!seen[$0]++' | tr '\n' ' ')

build=${1:-build}
top=$(cd "$(dirname "$0")/.." && pwd) || exit 2
cd "$top" || exit 2
[ -d "$build" ] || { echo "layers.sh: no build directory '$build' (run make first)" >&2; exit 2; }
build=$(cd "$build" && pwd) || exit 2
cd "${2:-.}" || exit 2
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT

# check NAME EDGES: cycles (tsort), and edges that go up a stack or across
# from one stack to the other.
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
	# A file's entry in the stacks: itself where named, else its folder.
	# An edge is fine within a folder, or down a stack holding both ends.
	awk -v stacks="$STACKS" '
		BEGIN {
			ns = split(stacks, line, "\n")
			for (s = 1; s <= ns; s++) {
				n = split(line[s], l, " ")
				for (i = 1; i <= n; i++) { rank[s, l[i]] = i; listed[l[i]] = 1 }
			}
		}
		function dir(f) { sub(/\/[^\/]*$/, "", f); return f }
		# The entry of F in stack S: F itself where the stack names it, else its folder.
		function at(s, f) {
			if ((s, f) in rank) return rank[s, f]
			return (s, dir(f)) in rank ? rank[s, dir(f)] : 0
		}
		{
			if (dir($1) == dir($2)) next
			if (!(($1 in listed) || (dir($1) in listed)) || !(($2 in listed) || (dir($2) in listed))) next
			shared = 0
			for (s = 1; s <= ns; s++)
				if (at(s, $1) && at(s, $2)) {
					shared = 1
					if (at(s, $2) > at(s, $1)) { print "  UP: " $1 " -> " $2; next }
				}
			if (!shared) print "  ACROSS: " $1 " -> " $2
		}' "$edges" >"$tmp/up"
	if [ -s "$tmp/up" ]; then
		echo "$name: edges that go up the layers or across the stacks:"
		printf '%s\n' "$STACKS" | sed 's/^/  stack: /'
		cat "$tmp/up"
		bad=1
	fi
}

# The calls: each object's defined and undefined symbols (one nm for all:
# `nm -A` names the object on each line), joined.
# bench/exec/'s objects are only in $build/pic/ (the --exec library's PIC
# build); the other folders' PIC copies are the same files' (glibc's mutex
# lock's file renamed to the library's glibc calls), read from $build/ itself.  An
# object whose source is not here is an older build's, of a file since moved.
for d in $LAYERS; do
	for o in "$build/$d"/*.o "$build/pic/$d"/*.o; do
		case $o in "$build/pic/"*) [ "$d" = bench/exec ] || continue ;; esac
		[ -f "$o" ] && [ -f "$d/$(basename "$o" .o).c" ] && echo "$o"
	done
done >"$tmp/objects"
: >"$tmp/def"
: >"$tmp/use"
if [ -s "$tmp/objects" ]; then
	# shellcheck disable=SC2046 # object paths: the build's, without spaces
	nm -A --defined-only $(cat "$tmp/objects") |
		awk -v b="$build/" '$2 ~ /^[TDBRGSVW]$/ { f = $1; sub(/:[^:]*$/, "", f); f = substr(f, length(b) + 1)
			sub(/^pic\//, "", f); sub(/\.o$/, ".c", f)
			# bench/exec/ interposes glibc'\''s pthread_* calls: a call to
			# one of those elsewhere is a call to glibc, not to it.
			if (!(f ~ /^bench\/exec\/[^\/]*$/ && $3 ~ /^pthread_/)) print $3, f }' >"$tmp/def"
	# shellcheck disable=SC2046
	nm -A --undefined-only $(cat "$tmp/objects") |
		awk -v b="$build/" '{ f = $1; sub(/:[^:]*$/, "", f); f = substr(f, length(b) + 1)
			sub(/^pic\//, "", f); sub(/\.o$/, ".c", f); print $NF, f }' >"$tmp/use"
fi
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
		[ -f "$f" ] && echo "$f"
	done
done >"$tmp/files"
# shellcheck disable=SC2046 # the file names are this tree's, without spaces
awk 'function norm(p,   n, i, k, part, out) {
		n = split(p, part, "/"); k = 0
		for (i = 1; i <= n; i++)
			if (part[i] == "..") k--
			else if (part[i] != "." && part[i] != "") out[++k] = part[i]
		p = out[1]
		for (i = 2; i <= k; i++) p = p "/" out[i]
		return p
	}
	NR == FNR { known[$0] = 1; next }
	FNR == 1 { dir = FILENAME; sub(/\/[^\/]*$/, "", dir) }
	match($0, /^[ \t]*#[ \t]*include[ \t]*"[^"]*"/) {
		inc = substr($0, RSTART, RLENGTH); sub(/^[^"]*"/, "", inc); sub(/"$/, "", inc)
		p = norm(dir "/" inc)
		if (!(p in known)) {  # a file outside the layers: bpf/, tests/locks/
			known[p] = (getline line < p) >= 0
			close(p)
		}
		if (known[p] && p != FILENAME) print FILENAME, p
	}' "$tmp/files" $(cat "$tmp/files") | sort -u >"$tmp/includes"
check includes "$tmp/includes"

[ $bad -eq 0 ] && echo "one way: no cycle, no edge up the layers"
exit $bad
