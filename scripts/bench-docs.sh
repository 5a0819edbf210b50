#!/bin/sh
# bench-docs.sh DOC_CSV NOW_CSV — `make bench`'s ratios beside the documented
# ones: NOW_CSV is scripts/uncontended's (its first argument: one row per
# ratio it printed, `table,row,column,ratio`), DOC_CSV the same file of the
# documented sample (docs/measurement.csv: the ratios of docs/measurement.md's
# `$ make bench` block).  Rows are matched by their keys, never by printed
# text.  Each measured ratio is printed with the documented one, and
# `<- far from the docs` where they are off by more than FAR (1.5x) either
# way: a figure that departs far from the documented one is said, not left
# for the reader to spot.  Raw cycles and ops/s are the machine's: not in
# either file.  Exit 2 when a file cannot be read; the figures never fail it.
doc=$1 now=$2
far=${FAR:-1.5}
for f in "$doc" "$now"; do
	[ -f "$f" ] && [ -r "$f" ] || { echo "bench-docs.sh: cannot read '$f'" >&2; exit 2; }
done
echo
echo "make bench's ratios beside the documented sample's ($doc; far: off by more than ${far}x either way):"
awk -F, -v far="$far" '
	FNR == 1 { next }                           # the header
	NR == FNR { doc[$1 SUBSEP $2 SUBSEP $3] = $4; next }
	{
		k = $1 SUBSEP $2 SUBSEP $3; seen[k] = 1
		if (!(k in doc)) { printf "  %-16s %-18s %-14s %8.2fx   (not documented)\n", $1, $2, $3, $4; next }
		g = $4 + 0; w = doc[k] + 0
		off = (w > 0 && g > 0 && (g / w > far || w / g > far))
		printf "  %-16s %-18s %-14s %8.2fx   docs %6.2fx%s\n", $1, $2, $3, g, w, off ? "  <- far from the docs" : ""
	}
	END {
		for (k in doc)
			if (!(k in seen)) { split(k, p, SUBSEP); printf "  %-16s %-18s %-14s documented, not measured\n", p[1], p[2], p[3] }
	}' "$doc" "$now"
