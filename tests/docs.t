#!/bin/sh
# docs.t — every relative markdown link in the docs resolves to a file (and a
# #anchor to a heading of it), and README.md stays short.
here=$(dirname "$0")/..
. "$(dirname "$0")/tap.sh"
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
echo "1..$n"
