#!/bin/sh
# docs.t — every relative markdown link in the docs resolves to a file (and a
# #anchor to a heading of it), README.md stays short, and every command block
# of README.md and docs/*.md marked runnable runs as pasted.
#
# Runnable: a ```sh block right after a line `<!-- runnable -->`.  Each runs
# with sh -e in the tree's top directory, shortened: `-d N` and `--duration N`
# become DOCS_SECONDS (default 0.05), `--reps N` DOCS_REPS (default 2); a new
# ./run-all (not --report, --resume) gets DOCS_RUNALL first (default `--quick
# --reps 1 --workloads counter --locks tas --threads 1`), which the block's own
# options override; `/tmp` becomes a scratch directory of this test, one for
# all the blocks (a block may read what an earlier one made).  A block that
# fails says so with its last lines.  ROWS=GLOB runs only the blocks whose
# "FILE:LINE" matches; under a sanitizer the blocks are skipped (they drive
# the tree's own build, on which make test has run them).
here=$(cd "$(dirname "$0")/.." && pwd)
. "$(dirname "$0")/tap.sh"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
# anchor FILE ANCHOR: FILE has a heading whose GitHub slug is ANCHOR.
anchor() {
	grep '^#' "$1" | sed 's/^#* *//' | tr 'A-Z' 'a-z' | sed 's/[^a-z0-9 _-]//g; s/ /-/g' | grep -qx -- "$2"
}
for doc in "$here"/README.md "$here"/docs/*.md "$here"/results/README.md "$here"/analysis/README.md; do
	dir=$(dirname "$doc")
	bad=""
	for link in $(grep -o '\]([^)]*)' "$doc" | sed 's/^](//; s/)$//' | grep -v '^[a-z]*:'); do
		file=${link%%#*}
		target=$dir/$file
		[ -n "$file" ] || target=$doc
		if [ ! -e "$target" ]; then bad="$bad $link"; continue; fi
		case $link in *'#'*) anchor "$target" "${link#*#}" || bad="$bad $link" ;; esac
	done
	check "links in ${doc#$here/} resolve${bad:+ (broken:$bad)}" '[ -z "$bad" ]'
done
lines=$(wc -l <"$here/README.md")
check "README.md is under 250 lines ($lines)" '[ "$lines" -lt 250 ]'

# --- docs/workloads.md's options table is the workloads' declarations ---
# Each row as `lockbench --list` gives its option (scripts/options-doc.sh
# makes the rows): none stale, none for an option no workload declares.  An
# option added since may be missing (its workload's file is the whole of
# adding one: --help and --list show it); the script adds its row.
LB=${LOCKBENCH:-$here/bench/lockbench}
cp "$here/docs/workloads.md" "$tmp/workloads.md"
"$here/scripts/options-doc.sh" --update "$tmp/workloads.md" "$LB"
rc=$?
table_rows() { sed -n '/^### Workload options$/,/^### /p' "$1" | grep '^| `' | sort; }
table_rows "$here/docs/workloads.md" >"$tmp/rows.doc"
table_rows "$tmp/workloads.md" >"$tmp/rows.declared"
stale=$(comm -23 "$tmp/rows.doc" "$tmp/rows.declared" | head -n 4 | tr '\n' ' ')
check "docs/workloads.md's options table: each row a declared option, as declared (${stale:-none stale}; scripts/options-doc.sh --update docs/workloads.md)" \
	'[ $rc -eq 0 ] && [ -s "$tmp/rows.doc" ] && [ -z "$stale" ]'

# --- make bench's figures beside the documented ones (scripts/bench-docs.sh) ---
# docs/measurement.csv holds the documented sample's ratios: each of its rows
# is in the sample's block (the row's name on a line with the ratio), and
# every ratio of the block is a row; compared with itself none is flagged,
# and one made 3x off is flagged, alone.
csv=$here/docs/measurement.csv
sed -n '/^\$ make bench$/,/^```$/p' "$here/docs/measurement.md" | sed '1d;$d' >"$tmp/bench.doc"
missing=$(awk -F, 'NR > 1 { r = sprintf("%.2f", $4); print $2 "\t" r }' "$csv" | while IFS="$(printf '\t')" read -r row r; do
	grep -qE "^  $(echo "$row" | tr _ ' ')[ ,]+.*(${r}x| $r )" "$tmp/bench.doc" || printf '%s ' "$row=$r"; done)
check "docs/measurement.csv: each row's ratio is the documented sample's${missing:+ (not: $missing)}" \
	'[ -z "$missing" ] && [ "$(grep -cE "[0-9]\.[0-9][0-9]x|ratio [0-9]" "$tmp/bench.doc")" -le "$(($(wc -l <"$csv") - 1))" ]'
"$here/scripts/bench-docs.sh" "$csv" "$csv" >"$tmp/bench.same"
check "make bench: the documented sample is its own figures, none flagged" \
	'[ "$(grep -c " docs  *[0-9.]*x" "$tmp/bench.same")" -ge 40 ] && ! grep -q "far from the docs" "$tmp/bench.same"'
sed 's/^contended,mcs,off\/all,.*/contended,mcs,off\/all,0.40/' "$csv" >"$tmp/bench-off.csv"
"$here/scripts/bench-docs.sh" "$csv" "$tmp/bench-off.csv" >"$tmp/bench.off"
check "make bench: a ratio far from the documented one is flagged beside it" \
	'[ "$(grep -c "far from the docs" "$tmp/bench.off")" -eq 1 ] &&
	 grep -qE "^  contended +mcs +off/all +0\.40x +docs +1\.38x  <- far from the docs$" "$tmp/bench.off"'

# --- the runnable blocks ---
S=${DOCS_SECONDS:-0.05}
R=${DOCS_REPS:-2}
DOCS_RUNALL=${DOCS_RUNALL:---quick --reps 1 --workloads counter --locks tas --threads 1}
# blocks FILE: each runnable block of FILE as "LINE<tab>command line", one
# line of the block a line.
blocks() {
	awk '/^<!-- runnable -->$/ { want = 1; next }
		want && /^```sh$/ { inb = NR + 1; want = 0; next }
		{ want = 0 }
		inb && /^```$/ { inb = 0; next }
		inb { print inb "\t" $0 }' "$1"
}
# shorten: the block on stdin as docs.t runs it (the header above).
shorten() {
	sed -e "s/ -d [0-9][0-9.]*/ -d $S/g" -e "s/ --duration [0-9][0-9.,=a-z]*/ --duration $S/g" \
		-e "s/ --reps [0-9][0-9]*/ --reps $R/g" \
		-e "/--report\|--resume/!s|\./run-all |./run-all $DOCS_RUNALL |g" -e "/--report\|--resume/!s|\./run-all\$|./run-all $DOCS_RUNALL|" \
		-e "s|/tmp\\([/ ]\\)|$tmp/run\\1|g" -e "s|/tmp\$|$tmp/run|"
}
nblocks=0
# One scratch directory for every block: a later block may read what an
# earlier one made (a recipe's re-report of the run before it).
mkdir "$tmp/run"
for doc in "$here"/README.md "$here"/docs/*.md; do
	for at in $(blocks "$doc" | cut -f1 | sort -un); do
		name=${doc#"$here"/}:$at
		nblocks=$((nblocks + 1))
		case $name in ${ROWS:-*}) ;; *) n=$((n + 1)); echo "ok $n # skip $name: not in ROWS"; continue ;; esac
		if [ -n "${SANITIZER:-}" ]; then
			n=$((n + 1)); echo "ok $n # skip $name: make test runs the docs' blocks"
			continue
		fi
		blocks "$doc" | awk -F'\t' -v at="$at" '$1 == at { sub(/^[0-9]+\t/, ""); print }' | shorten >"$tmp/block.sh"
		start=$(date +%s)
		(cd "$here" && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL TMPDIR="$tmp/run" timeout -s KILL 600 sh -e "$tmp/block.sh") \
			>"$tmp/block.out" 2>&1
		rc=$?
		secs=$(($(date +%s) - start))
		if [ $rc -ne 0 ] && nolib=$(grep -m 1 "^make dist: no static library" "$tmp/block.out"); then
			n=$((n + 1)); echo "ok $n # skip $name: ${nolib#make dist: }"
			continue
		fi
		check "$name: its runnable block runs as pasted (rc=$rc, $secs s$([ $rc -eq 0 ] || printf ': %s' "$(tail -n 3 "$tmp/block.out" | tr '\n' '|')"))" '[ $rc -eq 0 ]'
	done
done
check "the docs have runnable blocks ($nblocks)" '[ "$nblocks" -ge 6 ]'
echo "1..$n"
