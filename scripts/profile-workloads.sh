#!/bin/sh
# profile-workloads.sh — a machine profile's workload times scaled for
# another machine: every workload.* line of SRC (each distribution point's
# ns, or a scalar's) times FACTOR, each written with its derivation as its
# source (sim/profile.h wants one on every constant).  The seed's profile's
# workload lines are this, from here.profile, with the TSC clocks' ratio
# (sim/profiles/nehalem-ex-64.profile says why that ratio):
#
#   scripts/profile-workloads.sh sim/profiles/here.profile 0.9247 "TSC ratio"
#
# Prints the lines; the profile is edited by hand (its other lines are cited).
set -eu
LC_ALL=C
export LC_ALL
[ $# -eq 3 ] || { echo "usage: profile-workloads.sh SRC FACTOR WHY" >&2; exit 2; }
src=$1 factor=$2 why=$3
[ -f "$src" ] && [ ! -L "$src" ] || { echo "profile-workloads.sh: $src: not a regular file" >&2; exit 2; }
case $factor in '' | *[!0-9.]* | *.*.* | .) echo "profile-workloads.sh: FACTOR '$factor' is not a number" >&2; exit 2 ;; esac
NL='
'
case $why in *"$NL"* | *'#'*) echo "profile-workloads.sh: WHY holds a newline or #" >&2; exit 2 ;; esac
name=$(basename "$src")
awk -v f="$factor" -v why="$why" -v name="$name" '
	function num(v) { v *= f; return v >= 100 ? sprintf("%.0f", v) : v >= 10 ? sprintf("%.1f", v) : sprintf("%.3g", v) }
	# The source comment of the line: "... ; DATE on HOST (...)" at its end.
	function when(line) { return match(line, /[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9] [0-9][0-9]:[0-9][0-9] UTC/) ? substr(line, RSTART, RLENGTH) : "undated" }
	# A count (acq_per_op: locked calls a job) belongs to the workload, not the machine: copied.
	/^workload\.[a-z_]+\.acq_per_op = / {
		split($0, kv, " = "); split(kv[2], val, "  #")
		printf "%s = %s  # derived: %s %s (measured %s), the same: a count, not scaled\n", $1, val[1], name, $1, when($0)
		next
	}
	/^workload\.[a-z_]+\.[a-z_]+ = / {
		key = $1; split($0, kv, " = "); split(kv[2], val, "  #"); v = val[1]; out = ""
		n = split(v, pts, " ")
		for (i = 1; i <= n; i++) {
			if (index(pts[i], ":")) { split(pts[i], pv, ":"); out = out (i > 1 ? " " : "") pv[1] ":" num(pv[2]) }
			else out = out (i > 1 ? " " : "") num(pts[i])
		}
		how = n > 1 || index(v, ":") ? "every point" : v " ns"
		printf "%s = %s  # derived: %s %s (measured %s), %s x %s (%s)\n", key, out, name, key, when($0), how, f, why
	}' "$src"
