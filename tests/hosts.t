#!/bin/sh
# hosts.t — lbcompare with runs from several machines: each run's meta.csv
# says which; runs of different hosts are never repetitions of one variant;
# the report opens with the hosts (CPU, cores, NUMA nodes, kernel) and a
# table per workload with a column per host; the CSV files name the host.
# The "other host" is a copy of this machine's runs with meta.csv edited, so
# the figures are real and only the identity differs.  A meta.csv that does
# not parse is refused in one line; runs without one still load.
LB=${LOCKBENCH:-bench/lockbench}
CMP=${LBCOMPARE:-analysis/lbcompare}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/tap.sh"

echo "1..22"

# runs DIR ARGS...: four repetitions of two locks, 2 threads, on this machine.
runs() {
	mkdir "$1"
	for r in 1 2 3 4; do
		for l in ticket mcs; do
			"$LB" -l $l -w counter -t 2 -d 0.05 --warmup 0 --seed $r --quiet -o "$1/$l-r$r" ${2:-} \
				>/dev/null 2>&1 || echo "# $l r$r failed"
		done
	done
}
runs "$tmp/here"
# set_meta DIR KEY VALUE: every run's meta.csv under DIR says KEY is VALUE.
set_meta() {
	for m in "$1"/*/meta.csv; do
		awk -F, -v k="$2" -v v="$3" 'BEGIN { OFS = "," } $1 == k { $0 = k "," v } { print }' "$m" >"$m.new" &&
			mv "$m.new" "$m"
	done
}
# The other host's runs: real ones with another critical section, so that
# its figures and its baseline differ from this one's.
runs "$tmp/box" "--cs 2000"
set_meta "$tmp/box" hostname bigbox
set_meta "$tmp/box" topology_pus_usable 64
set_meta "$tmp/box" topology_numa_nodes 4
set_meta "$tmp/box" kernel_release 6.1.0-test

mkdir "$tmp/csv"
"$CMP" --csv "$tmp/csv" "$tmp/here" "$tmp/box" >"$tmp/out" 2>"$tmp/err"
check "two hosts' runs load together" '[ $? -eq 0 ] && [ ! -s "$tmp/err" ]'
here=$(hostname)
check "the report opens with both hosts, each with its CPU, PUs, NUMA nodes and kernel" \
	'grep -q "^Hosts" "$tmp/out" && grep -Eq "^  bigbox +.*64 PUs usable, 4 NUMA nodes; kernel 6\.1\.0-test$" "$tmp/out" &&
	 [ "$(grep -c "PUs usable" "$tmp/out")" -eq 2 ]'
check "each host's runs are a group of their own: 4 repetitions each, not 8 together" \
	'[ "$(grep -c "^== host .*: workload counter, 2 threads" "$tmp/out")" -eq 2 ] &&
	 [ "$(grep -c "the median of 4 repetitions" "$tmp/out")" -eq 2 ] && ! grep -q "median of 8" "$tmp/out"'
check "an across-hosts table has a column per host and a row per lock" \
	'grep -q "^== across hosts: workload counter" "$tmp/out" &&
	 grep -A1 "^== across hosts" "$tmp/out" | tail -n 1 | grep -q "bigbox, 2 threads" &&
	 [ "$(awk "/^== across hosts/ { on = 1; next } on && /^(ticket|mcs) / { n++ } on && /^\$/ { exit } END { print n + 0 }" "$tmp/out")" -eq 2 ]'
# ticket's ratio in bigbox's column is the one bigbox's own table gives it
# (mcs, first by name, is each host's baseline).
across=$(awk '/^== across hosts/ { on = 1; next } on && /^ticket / { print; exit }' "$tmp/out" | grep -o "[0-9.]*x" | tail -n 1)
own=$(awk '/^== host bigbox: workload counter/ { on = 1; next } on && /^ticket / { print; exit }' "$tmp/out" | grep -o "[0-9.]*x" | head -n 1)
check "each column's ratio is against that host's own baseline ($across, bigbox's table: $own)" \
	'[ -n "$across" ] && [ "$across" = "$own" ]'
check "the CSV files name the host" \
	'[ -f "$tmp/csv/hist-counter-t2@bigbox.csv" ] && [ -f "$tmp/csv/phases-counter-t2@bigbox.csv" ] &&
	 ls "$tmp/csv" | grep -q "^hist-counter-t2@.*\.csv$" && [ ! -f "$tmp/csv/hist-counter-t2.csv" ]'
check "the sweep has a series per lock and host" \
	'head -n 1 "$tmp/csv/sweep-counter-ops_per_s.csv" | grep -q "ticket@bigbox" &&
	 [ "$(head -n 1 "$tmp/csv/sweep-counter-ops_per_s.csv" | tr , "\n" | grep -c "@")" -eq 4 ] &&
	 [ "$(wc -l <"$tmp/csv/sweep-counter-ops_per_s.csv")" -eq 2 ]'

# One machine: the report as before.
mkdir -p "$tmp/csv1"
"$CMP" --csv "$tmp/csv1" "$tmp/here" >"$tmp/out1" 2>&1
check "one host: no hosts block, plain file names" \
	'[ $? -eq 0 ] && ! grep -q "^Hosts" "$tmp/out1" && grep -q "^== workload counter" "$tmp/out1" &&
	 [ -f "$tmp/csv1/hist-counter-t2.csv" ]'

# One name, another machine: told apart.
cp -r "$tmp/here" "$tmp/twin"
set_meta "$tmp/twin" topology_pus_usable 16
"$CMP" "$tmp/here" "$tmp/twin" >"$tmp/out2" 2>&1
check "two machines with one hostname are two hosts ($here, $here#2)" \
	'[ $? -eq 0 ] && grep -q "^== host $here#2: " "$tmp/out2" && grep -q "^== host $here: " "$tmp/out2"'
# A hostname that is not a file name.
cp -r "$tmp/here" "$tmp/odd"
set_meta "$tmp/odd" hostname "../../x y"
mkdir "$tmp/csv3"
"$CMP" --csv "$tmp/csv3" "$tmp/here" "$tmp/odd" >/dev/null 2>&1
check "a hostname with / and blanks names no path outside --csv" \
	'[ $? -eq 0 ] && [ ! -e "$tmp/x y.csv" ] && ls "$tmp/csv3" | grep -q "^hist-counter-t2@\.\._\.\._x_y\.csv$"'

# Runs written before meta.csv: an unknown host, still loaded.
cp -r "$tmp/here" "$tmp/old"
rm "$tmp/old"/*/meta.csv
"$CMP" "$tmp/old" >/dev/null 2>"$tmp/err"
check "runs without meta.csv still load" '[ $? -eq 0 ] && [ ! -s "$tmp/err" ]'

# bad_meta NAME SUBSTRING AWK-EDIT: one run's meta.csv edited; lbcompare
# exits 1 with one line naming meta.csv, and prints nothing.
bad_meta() {
	rm -rf "$tmp/bad" && cp -r "$tmp/here/ticket-r1" "$tmp/bad"
	awk "$3" "$tmp/here/ticket-r1/meta.csv" >"$tmp/bad/meta.csv"
	"$CMP" "$tmp/bad" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ $rc -eq 1 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -qF "meta.csv" "$tmp/err" &&
		grep -qF -- "$2" "$tmp/err" && [ ! -s "$tmp/out" ]; then
		ok "$1"
	else
		not_ok "$1 (rc=$rc: $(head -c 200 "$tmp/err"))"
	fi
}
bad_meta "meta.csv without hostname" "no hostname" '!/^hostname,/'
bad_meta "a topology count that is not a number" "bad topology_pus_usable" \
	'/^topology_pus_usable,/ { print "topology_pus_usable,x"; next } { print }'
bad_meta "a key twice" "key 'hostname' repeated" '{ print } /^hostname,/ { print }'
bad_meta "CRLF line ends" "CRLF" '{ printf "%s\r\n", $0 }'
bad_meta "another format" "bad format" '/^format,/ { print "format,lockbench-meta-9"; next } { print }'

# A before and an after on one machine (issue 29): `run-all --report A B
# --out C` of two run-all directories of one hostname.  report.md keys
# their runs by directory (HOSTNAME-dir1, -dir2); so must C/data/, which
# the plain lbcompare writes (given each directory with --dir), never
# pooling them as one host's four repetitions.
top=$(cd "$(dirname "$0")/.." && pwd)
"$top/run-all" --quick --locks ticket,mcs --workloads counter --threads 2 --reps 2 --duration 0.05 \
	--lockbench "$LB" --out "$tmp/before" >/dev/null 2>&1 || echo "# run-all of the before failed"
cp -R "$tmp/before" "$tmp/after"
"$top/run-all" --report "$tmp/before" "$tmp/after" --out "$tmp/both" >"$tmp/out" 2>&1
rc=$?
check "run-all --report A B of one host: data/ keyed by directory, as report.md (rc=$rc)" \
	'[ $rc -eq 0 ] && grep -Eq "^  [^ ]+-dir1 " "$tmp/both/data/sweep-counter.txt" &&
	 grep -Eq "^  [^ ]+-dir2 " "$tmp/both/data/sweep-counter.txt" &&
	 ! grep -q "the median of 4 repetitions" "$tmp/both/data/sweep-counter.txt"'
cp -R "$tmp/before" "$tmp/other"
set_meta "$tmp/other/runs" hostname bigbox
"$CMP" --dir "$tmp/before" --dir "$tmp/other" "$tmp/before/runs" "$tmp/other/runs" >"$tmp/out" 2>&1
rc=$?
check "lbcompare --dir of two hostnames: each host as meta.csv names it, no directory labels (rc=$rc)" \
	'[ $rc -eq 0 ] && grep -q "^  bigbox " "$tmp/out" && ! grep -q -- "-dir[12]" "$tmp/out"'

# lbcompare --hosts OUT A B: run-all --report A B --out OUT's one call, each
# directory loaded once: OUT/data/ made and written, then OUT/report.md,
# each file whole; "KIND W STATUS" a line on stdout.
mkdir "$tmp/h1"
"$CMP" --hosts "$tmp/h1" "$tmp/before" "$tmp/other" >"$tmp/h1.parts" 2>"$tmp/err"
rc=$?
check "lbcompare --hosts: exit 0, data/ made and a line per data/KIND-W.txt, report.md naming both, nothing else in OUT (rc=$rc)" \
	'[ $rc -eq 0 ] && [ ! -s "$tmp/err" ] && [ "$(ls -A "$tmp/h1" | tr "\n" " ")" = "data report.md " ] &&
	 [ "$(sed "s/ 0$/.txt/; s/ /-/" "$tmp/h1.parts" | sort)" = "$(cd "$tmp/h1/data" && ls -- *.txt | sort)" ] &&
	 grep -q "^  bigbox " "$tmp/h1/data/sweep-counter.txt" &&
	 grep -qx -- "- \`$(cd "$tmp/other" && pwd -P)\` (its \`report.md\`)" "$tmp/h1/report.md" &&
	 grep -q "^== across hosts: workload counter," "$tmp/h1/report.md"'
# A comparison that fails (a repetition of another build): exit 1, its
# line's status 1, and report.md still written, saying why in its place.
cp -R "$tmp/other" "$tmp/mixed"
m=$(ls -d "$tmp/mixed"/runs/sweep-counter-* | head -n 1)/meta.csv
sed -i 's/^lockbench_build_id,.*/lockbench_build_id,ffff/' "$m"
mkdir "$tmp/h3"
"$CMP" --hosts "$tmp/h3" "$tmp/before" "$tmp/mixed" >"$tmp/h3.parts" 2>"$tmp/err"
rc=$?
check "lbcompare --hosts: a comparison that fails: exit 1, its line's status 1, report.md written with its line (rc=$rc)" \
	'[ $rc -eq 1 ] && grep -qx "sweep counter 1" "$tmp/h3.parts" && tail -n 1 "$tmp/h3/data/sweep-counter.txt" | grep -q "two builds" &&
	 grep -q "two builds" "$tmp/h3/report.md"'
"$CMP" --hosts "$tmp/h3" "$tmp/before" "$tmp/nowhere" >"$tmp/out" 2>"$tmp/err"
rc=$?
check "lbcompare --hosts: a directory that is not there: one line, exit 2, nothing on stdout (rc=$rc)" \
	'[ $rc -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "^lbcompare: --hosts: .*nowhere: No such file or directory" "$tmp/err" &&
	 [ ! -s "$tmp/out" ]'
# run-all --report A B --out OUT where data/ takes no file (one is a
# directory): exit 3, naming OUT/data, as when the disk fills there; no
# report.md.
mkdir -p "$tmp/h4/data/sweep-counter.txt"
"$top/run-all" --report "$tmp/before" "$tmp/other" --out "$tmp/h4" >"$tmp/out" 2>"$tmp/err"
rc=$?
check "run-all --report A B: OUT/data takes no file: exit 3, OUT/data named, no report.md (rc=$rc: $(tail -n 1 "$tmp/err"))" \
	'[ $rc -eq 3 ] && tail -n 1 "$tmp/err" | grep -q "^run-all: '"'"'$(cd "$tmp/h4" && pwd -P)/data'"'"' takes no more writes" &&
	 [ ! -e "$tmp/h4/report.md" ]'
