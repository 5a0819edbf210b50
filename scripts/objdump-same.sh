#!/bin/sh
# objdump-same.sh — is the machine code of two builds' objects the same?
# For lock code moved behind locks/pr.h: its native backend must expand to
# the instructions the code had before (issue 39), and this says so object
# by object, function by function.
#
#   scripts/objdump-same.sh OLD NEW OBJ...
#   OLD, NEW: two build directories (or copies of them); OBJ: objects
#   relative to them, e.g. locks/LOCK.o for each lock of locks/locks.def
#   OBJDUMP_SAME_FUNCS='f g' compares only these functions (default: all)
#
# Compared: `objdump -dr` of each executable section, instruction bytes
# dropped and each instruction's own address removed, so that only a change
# of instructions, of their operands or of a relocation (a call to another
# symbol) shows; a function that moved as a whole does not.  Prints
# "same OBJ (N functions)" or the first lines of the difference per object,
# and exits 1 if any differs, 2 on bad usage or a missing object.
set -u
LC_ALL=C
export LC_ALL

[ $# -ge 3 ] || { echo "usage: objdump-same.sh OLD NEW OBJ..." >&2; exit 2; }
old=$1 new=$2
shift 2
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT

# One object's code as text: "<function>:" headers, then each instruction
# or relocation without its address; jump targets kept by symbol+offset.
dump() {
	objdump -dr --no-show-raw-insn "$1" | awk -v funcs="${OBJDUMP_SAME_FUNCS:-}" '
	BEGIN { n = split(funcs, f, " "); for (i = 1; i <= n; i++) want[f[i]] = 1; keep = (n == 0) }
	/^Disassembly of section / { if (n == 0) print; next }
	/^[0-9a-f]+ <.*>:$/ {
		name = $2; gsub(/[<>:]/, "", name)
		keep = (n == 0 || (name in want))
		if (keep) print "<" name ">:"
		next
	}
	!keep { next }
	/^[ \t]+[0-9a-f]+:[ \t]/ {
		sub(/^[ \t]+[0-9a-f]+:[ \t]+/, "")
		# a direct jump or call: "jmp 2f <f+0x2f>" -> "jmp <f+0x2f>"
		sub(/ [0-9a-f]+ </, " <")
		print
	}'
}

status=0
for obj in "$@"; do
	for side in old new; do
		eval dir=\$$side
		[ -f "$dir/$obj" ] || { echo "objdump-same.sh: no object $dir/$obj" >&2; exit 2; }
		dump "$dir/$obj" >"$tmp/$side" || exit 2
	done
	funcs=$(grep -c '^<' "$tmp/new")
	if cmp -s "$tmp/old" "$tmp/new"; then
		echo "same $obj ($funcs functions)"
	else
		echo "DIFFERS $obj:"
		diff -u "$tmp/old" "$tmp/new" | sed -n '3,40p'
		status=1
	fi
done
exit $status
