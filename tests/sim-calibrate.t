#!/bin/sh
# sim-calibrate.t — lbcalibrate (sim/calibrate.c; docs/sim.md, "Calibration"):
# a short calibration of this machine writes a profile that the loader takes,
# every constant in it with a source and what this machine has no pair for
# said to be unmeasurable rather than given; --check loads a profile and
# names a bad line; every shipped profile loads; bad options are one line
# and exit 2.
CAL=${SIM_CALIBRATE:-build/sim/lbcalibrate}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/tap.sh"

echo "1..17"

"$CAL" --trials 10 --dir "$tmp" -o "$tmp/p.profile" >"$tmp/out" 2>"$tmp/err"
rc=$?
check "a short calibration (--trials 10) exits 0, says nothing" \
	'[ $rc -eq 0 ] && [ ! -s "$tmp/err" ] && [ ! -s "$tmp/out" ] && [ -s "$tmp/p.profile" ]'
"$CAL" --check "$tmp/p.profile" >"$tmp/check" 2>"$tmp/err"
check "the profile it wrote loads (--check)" '[ $? -eq 0 ] && [ ! -s "$tmp/err" ] && grep -q "^here: " "$tmp/check"'
# every KEY = VALUE line but name and sched.model carries a source
check "every constant has a measured: or cited: source" \
	'! grep -v "^#" "$tmp/p.profile" | grep "=" | grep -v "^name = \|^sched.model = " | grep -v "  # \(measured\|cited\): ."'
check "creat, fpos, counter and fserver each have a hold and a gap" \
	'[ "$(grep -c "^workload\.\(creat\|fpos\|counter\|fserver\)\.\(hold\|gap\) = [0-9.]*%:[0-9]" "$tmp/p.profile")" -eq 8 ]'
# the parts of creat's and fpos's calls outside the kernel's lock (docs/sim.md,
# "The kernel section"), and fserver's locked calls a job, which --check reads
check "creat and fpos have outside_ns, creat its calls an op (2) and fserver a job (acq_per_op), --check shows them" \
	'grep -q "^workload\.creat\.outside_ns = [0-9]* .*measured: open()" "$tmp/p.profile" &&
	 grep -q "^workload\.creat\.acq_per_op = 2 .*measured: " "$tmp/p.profile" &&
	 grep -q "^workload\.fpos\.outside_ns = [0-9]* .*measured: read() .*write-only" "$tmp/p.profile" &&
	 grep -q "^workload\.fserver\.acq_per_op = [1-9][0-9]* .*measured: " "$tmp/p.profile" &&
	 [ "$(grep -c "outside the lock [0-9]* ns a hold" "$tmp/check")" -eq 2 ] &&
	 [ "$(grep -c "acquisitions an operation" "$tmp/check")" -eq 2 ]'
# the running kernel's scheduler: EEVDF from Linux 6.6
want=cfs-2.6.34
case $(uname -r) in [7-9].* | [1-9][0-9].* | 6.[6-9]* | 6.[1-9][0-9]*) want=eevdf-6.x ;; esac
check "sched.model is the running kernel's ($want for $(uname -r)), with the release as its source" \
	'grep -q "^sched.model = $want  # measured: the running kernel is Linux $(uname -r)," "$tmp/p.profile"'
check "what it measured says when and on what host" \
	'grep "^kernel.wake_latency_ns = [0-9]" "$tmp/p.profile" | grep -q "measured: .*median of 10 trials.* UTC on $(uname -n) "'
check "the workload directory is left empty" '[ -z "$(ls -A "$tmp" | grep -v "^p.profile\|^out\|^err\|^check")" ]'
tpc=$(sed -n 's/^topology.threads_per_core = \([0-9]*\) .*/\1/p' "$tmp/p.profile")
check "without SMT, lat.smt is said to be unmeasurable, not given" \
	'[ "$tpc" != 1 ] || { grep -q "^# lat.smt: not measurable here: " "$tmp/p.profile" && ! grep -q "^lat.smt =" "$tmp/p.profile"; }'

# a source taken away: refused, naming the file, the line and the key
sed 's/^\(lat.hit = [0-9.]*\).*/\1/' "$tmp/p.profile" >"$tmp/nosrc.profile"
line=$(grep -n "^lat.hit = " "$tmp/nosrc.profile" | cut -d: -f1)
"$CAL" --check "$tmp/nosrc.profile" >"$tmp/out" 2>"$tmp/err"
rc=$?
check "a constant without a source is refused: FILE:LINE: KEY: no source" \
	'[ $rc -eq 1 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "^lbcalibrate: $tmp/nosrc.profile:$line: lat.hit: no source" "$tmp/err"'

bad=0
for p in sim/profiles/*.profile; do
	"$CAL" --check "$p" >/dev/null 2>"$tmp/err" || { bad=1; echo "# $p: $(cat "$tmp/err")"; }
done
check "every shipped profile loads" '[ $bad -eq 0 ] && [ -f sim/profiles/here.profile ]'
"$CAL" --check here >/dev/null 2>&1
check "--check here finds sim/profiles/here.profile by name" '[ $? -eq 0 ]'

one_line_exit() { "$CAL" "$@" >"$tmp/out" 2>"$tmp/err"; rc=$?; [ "$(wc -l <"$tmp/err")" -eq 1 ] && [ ! -s "$tmp/out" ]; }
check "bad options: exit 2 and one line each" \
	'one_line_exit --trials 5 && [ $rc -eq 2 ] && one_line_exit --bogus && [ $rc -eq 2 ] &&
	 one_line_exit --trials && [ $rc -eq 2 ] && one_line_exit --name "A B" && [ $rc -eq 2 ]'
check "a profile that is not there, or no folder to write into: exit 1 and one line" \
	'one_line_exit --check "$tmp/none.profile" && [ $rc -eq 1 ] && one_line_exit --check nosuchbox && [ $rc -eq 1 ] &&
	 one_line_exit --trials 10 -o "$tmp/no/dir/p.profile" && [ $rc -eq 1 ]'
if command -v taskset >/dev/null && taskset -c 0 true 2>/dev/null; then
	taskset -c 0 "$CAL" --trials 10 --dir "$tmp" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	check "one usable CPU (taskset -c 0): exit 1, one line, and no half profile on stdout" \
		'[ $rc -eq 1 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "one usable CPU" "$tmp/err" && [ ! -s "$tmp/out" ]'
else
	ok "one usable CPU # skip taskset cannot pin to CPU 0 here"
fi

# another machine's pairs, measuring nothing: tests/topo-2pack-smt.xml has CPU 0's SMT sibling at 4, another
# core of its package at 1 and the other package from 2
LOCKBENCH_TOPOLOGY_XML=tests/topo-2pack-smt.xml "$CAL" --pairs >"$tmp/pairs" 2>"$tmp/err"
check "--pairs on a 2-package SMT topology: every kind of pair, each with CPU 0" \
	'[ $? -eq 0 ] && [ ! -s "$tmp/err" ] && grep -qx "lat.smt: CPUs 0 and 4 (one core)" "$tmp/pairs" &&
	 grep -qx "lat.socket: CPUs 0 and 1 (two cores of one package)" "$tmp/pairs" &&
	 grep -qx "lat.remote: CPUs 0 and 2 (two packages)" "$tmp/pairs" &&
	 grep -qx "topology: 2 sockets x 2 cores x 2 threads" "$tmp/pairs"'
LOCKBENCH_TOPOLOGY_XML=$tmp/none.xml "$CAL" --pairs >"$tmp/out" 2>"$tmp/err"
check "--pairs on a missing XML: exit 1, one line" '[ $? -eq 1 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && [ ! -s "$tmp/out" ]'
