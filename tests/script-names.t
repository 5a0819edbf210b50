#!/bin/sh
# script-names.t — no lock, workload or program name is written into
# scripts/ (issue 43): the experiment drivers take their sets from the
# registry (`lockbench --list`, or the C registries through their headers)
# or from their own options.  Each name `lockbench --list` prints is looked
# for in every file of scripts/.
#
# Names that are also ordinary words or system interfaces (none, counter,
# pthread, futex, creat, ticket: "none left", <pthread.h>, the creat()
# syscall) count only where written as a name: quoted, or after -l/-w/
# --lock/--workload.  The others count wherever they stand as a word.
#
# ALLOW: FILE<TAB>TEXT lines: a line of FILE containing TEXT may name a
# lock, for a comment that documents the seed's published figure.  Today
# none does: scripts/ documents its figures by role ("the patch pair"), and
# the figures that name locks are in docs/ (docs/sim.md's "The seed's
# machine").  An entry that allows no line fails the scan (a stale entry).
top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/tap.sh"
LB=${LOCKBENCH:-$top/bench/lockbench}
echo "1..4"

WORDS="none counter pthread futex creat ticket"
ALLOW=""

"$LB" --list >"$tmp/list" 2>"$tmp/err"
rc=$?
awk '/^(locks|workloads|programs):$/ { on = 1; next } /^[a-z]+:$/ { on = 0 }
	on && /^  [a-z]/ { print $1 }' "$tmp/list" >"$tmp/names"
check "lockbench --list names locks, workloads and programs (rc=$rc, $(wc -l <"$tmp/names") names)" \
	'[ $rc -eq 0 ] && [ $(wc -l <"$tmp/names") -ge 3 ]'

# scan DIR ALLOWFILE: FILE:LINE:TEXT for each line of DIR's files
# naming a registry name and not allowed, then "stale: FILE<TAB>TEXT" for
# each allow-list entry that allowed no line.  One awk over every file.
scan() {
	files=$(for f in "$1"/*; do
		[ -f "$f" ] && printf '%s\n' "$f"
	done)
	# shellcheck disable=SC2086 # the file list: scripts/'s names have no blanks
	words=$WORDS awk -v q="'" '
		FILENAME == ARGV[1] { name[++n] = $0; next }
		FILENAME == ARGV[2] { if (split($0, a, "\t") == 2) { allow[++na] = a[1]; text[na] = a[2] }; next }
		FNR == 1 { b = FILENAME; sub(/.*\//, "", b) }
		{
			for (i = 1; i <= n; i++) {
				nm = name[i]
				if (index(" " ENVIRON["words"] " ", " " nm " "))
					re = "(^|[^A-Za-z0-9_-])(-[lw] +|--lock[= ]+|--workload[= ]+|[\"`" q "])" nm "([\"`" q "]|$|[^A-Za-z0-9_-])"
				else
					re = "(^|[^A-Za-z0-9_-])" nm "($|[^A-Za-z0-9_-])"
				if ($0 ~ re) { hit = 1; break }
			}
			if (!hit) next
			hit = 0
			for (j = 1; j <= na; j++)
				if (allow[j] == b && index($0, text[j])) { used[j] = 1; next }
			print b ":" FNR ":" $0
		}
		END { for (j = 1; j <= na; j++) if (!used[j]) print "stale: " allow[j] "\t" text[j] }
	' "$tmp/names" "$2" $files
}

printf '%s\n' "$ALLOW" >"$tmp/allow"
scan "$top/scripts" "$tmp/allow" >"$tmp/hits"
check "no registry name written into scripts/, no stale allow-list entry ($(wc -l <"$tmp/hits") lines)" \
	'[ ! -s "$tmp/hits" ]'
sed 's/^/# /' "$tmp/hits" | cut -c1-200

# The scan can fail: in a made-up scripts/, a lock written as a name and one
# used as an option's value are found; the ordinary words are not; an
# allowed line is passed, and an entry that allows nothing is stale.
lock=$(awk '/^locks:$/ { on = 1; next } /^[a-z]+:$/ { on = 0 } on && /^  [a-z]+-/ { print $1; exit }' "$tmp/list")
mkdir "$tmp/fake"
printf 'for l in a %s; do :; done\n' "$lock" >"$tmp/fake/named.sh"
printf '"$LB" -l none -w counter\n' >"$tmp/fake/option.sh"
printf '#include <pthread.h>\n/* none left: a counter */\n' >"$tmp/fake/words.c"
printf '# the figure: %s at 1.0x\n' "$lock" >"$tmp/fake/figure.gp"
printf 'figure.gp\tthe figure:\nwords.c\tnot there\n' >"$tmp/fake-allow"
scan "$tmp/fake" "$tmp/fake-allow" >"$tmp/fake-hits"
check "the scan finds a planted name and option, passes words and an allowed line, flags a stale entry ($(tr '\n' '|' <"$tmp/fake-hits"))" \
	'[ $(wc -l <"$tmp/fake-hits") -eq 3 ] && grep -q "^named.sh:1:" "$tmp/fake-hits" &&
	 grep -q "^option.sh:1:" "$tmp/fake-hits" && grep -q "^stale: words.c" "$tmp/fake-hits"'

# The charts' names (scripts/plot-names.sh) are --list's: the pair its first
# two patch-lock lines; a WHAT it does not know is one line and exit 2.
pair=" $(awk '/^plan:$/ { on = 1; next } /^[a-z]+:$/ { on = 0 } on && $1 == "patch-lock" && n++ < 2 { printf "%s ", $2 }' "$tmp/list")"
got=$(LOCKBENCH=$LB "$top/scripts/plot-names.sh" pair)
LOCKBENCH=$LB "$top/scripts/plot-names.sh" nosuch >"$tmp/out" 2>"$tmp/err"
rc=$?
check "plot-names.sh pair is --list's patch pair ('$got'); a bad WHAT: one line, exit 2 (rc=$rc)" \
	'[ "$got" = "$pair" ] && [ "$pair" != " " ] && [ $rc -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && [ ! -s "$tmp/out" ]'
