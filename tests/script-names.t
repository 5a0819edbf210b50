#!/bin/sh
# script-names.t — no lock, workload or program name is written into
# scripts/ (issue 43): the experiment drivers take their sets from the
# registry (`lockbench --list`, or the C registries through their headers)
# or from their own options.  Each name `lockbench --list` prints is looked
# for in every file of scripts/ but plan.sh and registry.sh (run-all's
# planning, reworked on its own; drop them from SKIP once it lands).
#
# Names that are also ordinary words or system interfaces (none, counter,
# pthread, futex, creat, ticket: "none left", <pthread.h>, the creat()
# syscall) count only where written as a name: quoted, or after -l/-w/
# --lock/--workload.  The others count wherever they stand as a word.
#
# ALLOW: FILE<TAB>TEXT lines: a line of FILE containing TEXT may name a
# lock, for a comment that documents the seed's published figure.  Each
# entry must still match a line (a stale entry fails too).
top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/tap.sh"
LB=${LOCKBENCH:-$top/bench/lockbench}
echo "1..3"

SKIP="plan.sh registry.sh"
WORDS="none counter pthread futex creat ticket"
# sim-scaling.gp's header cites issue 41's published figure (the seed's
# "Where the fix begins", docs/sim.md): its comment names the pair measured.
ALLOW=$(printf '%s\t%s\n' \
	sim-scaling.gp "issue 41's \"Where the fix begins\"")

"$LB" --list >"$tmp/list" 2>"$tmp/err"
rc=$?
awk '/^(locks|workloads|programs):$/ { on = 1; next } /^[a-z]+:$/ { on = 0 }
	on && /^  [a-z]/ { print $1 }' "$tmp/list" >"$tmp/names"
check "lockbench --list names locks, workloads and programs (rc=$rc, $(wc -l <"$tmp/names") names)" \
	'[ $rc -eq 0 ] && [ $(wc -l <"$tmp/names") -ge 3 ]'

# hits: FILE:LINE:TEXT for each line of scripts/ naming a registry name and
# not allowed.  One awk over every file: the names are its first input.
printf '%s\n' "$ALLOW" >"$tmp/allow"
files=$(for f in "$top"/scripts/*; do
	case " $SKIP " in *" ${f##*/} "*) continue ;; esac
	[ -f "$f" ] && printf '%s\n' "$f"
done)
# shellcheck disable=SC2086 # the file list: scripts/'s names have no blanks
words=$WORDS awk -v q="'" '
	FILENAME == ARGV[1] { name[++n] = $0; next }
	FILENAME == ARGV[2] { split($0, a, "\t"); allow[++na] = a[1]; text[na] = a[2]; next }
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
			if (allow[j] == b && index($0, text[j])) next
		print b ":" FNR ":" $0
	}' "$tmp/names" "$tmp/allow" $files >"$tmp/hits"
check "no registry name written into scripts/ ($(wc -l <"$tmp/hits") lines)" '[ ! -s "$tmp/hits" ]'
sed 's/^/# /' "$tmp/hits" | cut -c1-200

# Each allow-list entry still matches a line of its file.
stale=$(while IFS="$(printf '\t')" read -r b text; do
	grep -qF -- "$text" "$top/scripts/$b" || echo "$b"
done <"$tmp/allow")
check "each allow-list entry still matches its file (${stale:-none stale})" '[ -z "$stale" ]'
