#!/bin/sh
# bench-docs.sh DOC — `make bench`'s output on stdin, printed with each ratio
# row's documented ratios beside it (the `$ make bench` sample in DOC,
# docs/measurement.md) and `<- far from the docs` where one of them is off by
# more than FAR (1.5x) either way: a figure that departs far from the
# documented one is said, not left for the reader to spot.  A row is matched
# by its table (the first three words of the heading line above it) and its
# first word; its ratios are the fields written `1.23x`.  Raw cycles and ops/s
# are machine's, not compared.
doc=$1
far=${FAR:-1.5}
awk -v far="$far" '
	function key(line,   w) { split(line, w, " "); return section SUBSEP w[1] }
	function ratios(line,   f, n, i, out) {
		n = split(line, f, " "); out = ""
		for (i = 2; i <= n; i++) if (f[i] ~ /^[0-9]+(\.[0-9]+)?x$/) out = out (out == "" ? "" : " ") f[i]
		return out
	}
	function heading(line,   w) { split(line, w, " "); section = w[1] " " w[2] " " w[3] }
	# The documented sample: the code block that starts with "$ make bench".
	NR == FNR {
		if ($0 == "$ make bench") { inside = 1; section = ""; next }
		if (inside && $0 ~ /^```/) { inside = 0; next }
		if (!inside) next
		if ($0 ~ /^[^ ]/) { heading($0); next }
		r = ratios($0)
		if (r != "") doc[key($0)] = r
		next
	}
	FNR == 1 { section = "" }
	/^[^ ]/ { heading($0); print; next }
	{
		r = ratios($0); k = key($0)
		if (r == "" || !(k in doc)) { print; next }
		n = split(r, got, " "); split(doc[k], want, " "); off = 0
		for (i = 1; i <= n; i++) {
			g = got[i] + 0; w = want[i] + 0
			if (w > 0 && g > 0 && (g / w > far || w / g > far)) off = 1
		}
		printf "%s   [docs: %s]%s\n", $0, doc[k], off ? "  <- far from the docs" : ""
	}' "$doc" -
