#!/bin/sh
# sim-run.t — a simulated run (lockbench --sim PROFILE; docs/sim.md, "Running
# a simulation") writes the result directory a real run writes, with meta.csv
# saying it was simulated; lbcompare reads it; one seed gives a byte-identical
# directory, another seed another; --list names the locks that run simulated.
# The bad options are rows of bad-options.tsv (tests/cli.t).
LB=${LOCKBENCH:-bench/lockbench}
LBC=${LBCOMPARE:-analysis/lbcompare}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/tap.sh"
LB=$(cd "$(dirname "$LB")" && pwd)/$(basename "$LB")
LBC=$(cd "$(dirname "$LBC")" && pwd)/$(basename "$LBC")
meta() { awk -F, -v k="$2" '$1 == k { sub(/^[^,]*,/, ""); print; exit }' "$1/meta.csv"; }
check_val() { awk -F, -v k="$2" '$1 == k { print $2 }' "$1/$3"; }
echo "1..26"

# The issue's command, small: 16 threads on 16 simulated CPUs, 50 simulated ms.
# Each run in its own folder, -o r: the same command line, so cmdline.txt and
# meta.csv's cmdline are the same too.
SIM="-l kmutex-fix -w creat -t 16 -d 0.05 --sim here --sim-cpus 16 --quiet -o r"
run_in() { mkdir -p "$tmp/$1" && (cd "$tmp/$1" && timeout -s KILL 60 "$LB" $2 >out 2>err); }
run_in a "$SIM"
check "--sim here: exit 0, nothing on stderr" '[ $? -eq 0 ] && [ ! -s "$tmp/a/err" ]'
r=$tmp/a/r
check "the real run's result files" 'for f in summary.csv hist.csv hist_contended.csv threads.csv checks.csv \
	meta.csv cmdline.txt; do [ -s "$r/$f" ] || exit 1; done'
check "meta.csv: simulated on here, 16 CPUs, seed 1, kernel semantics (kmutex's default)" \
	'[ "$(meta "$r" simulated)" = 1 ] && [ "$(meta "$r" sim_profile)" = here ] && [ "$(meta "$r" sim_cpus)" = 16 ] &&
	 [ "$(meta "$r" sim_seed)" = 1 ] && [ "$(meta "$r" sim_semantics)" = kernel ]'
check "meta.csv: no host facts and no date in a simulated run" \
	'[ "$(meta "$r" hostname)" = unknown ] && [ "$(meta "$r" date_utc)" = unknown ] &&
	 [ "$(meta "$r" kernel_release)" = unknown ] && [ "$(meta "$r" probe_s)" = 0.0000 ]'
acq=$(val "$r" acquisitions)
phases=$(( $(val "$r" acq_fast) + $(val "$r" acq_spin) + $(val "$r" acq_nosleep) + $(val "$r" acq_sleep) ))
check "summary.csv: acquisitions ($acq), their phases sum to them ($phases), contended some" \
	'[ "$acq" -gt 100 ] && [ "$phases" -eq "$acq" ] && [ "$(val "$r" contentions)" -gt 0 ] &&
	 [ "$(val "$r" spin_exit_acquired)" -gt 0 ]'
hist=$(awk -F, 'NR > 1 { s += $3 } END { print s }' "$r/hist.csv")
hc=$(awk -F, 'NR > 1 { s += $3 } END { print s }' "$r/hist_contended.csv")
check "hist.csv holds every acquisition ($hist), hist_contended.csv every contended one ($hc)" \
	'[ "$hist" -eq "$acq" ] && [ "$hc" -eq "$(val "$r" contentions)" ]'
check "checks.csv: histogram, phases and exclusion ok; the host's clock checks skipped" \
	'[ "$(check_val "$r" histogram_total checks.csv)" = ok ] && [ "$(check_val "$r" acquisition_phases checks.csv)" = ok ] &&
	 [ "$(check_val "$r" invariant checks.csv)" = ok ] && [ "$(check_val "$r" tsc_skew checks.csv)" = skipped ]'
check "threads.csv: a line per thread, their ops summing to the run's" \
	'[ "$(awk "NR > 1" "$r/threads.csv" | wc -l)" -eq 16 ] &&
	 [ "$(awk -F, "NR > 1 { s += \$3 } END { print s }" "$r/threads.csv")" -eq "$(val "$r" ops)" ]'
"$LBC" "$r" >"$tmp/cmp" 2>"$tmp/cmperr"
check "lbcompare reads it" '[ $? -eq 0 ] && grep -q "^kmutex-fix " "$tmp/cmp" && [ ! -s "$tmp/cmperr" ]'

run_in b "$SIM"
check "the same seed again: a byte-identical result directory" '[ $? -eq 0 ] && diff -r "$tmp/a/r" "$tmp/b/r" >/dev/null'
run_in c "$SIM --sim-seed 2"
check "another seed: meta.csv says it, and the figures differ" \
	'[ $? -eq 0 ] && [ "$(meta "$tmp/c/r" sim_seed)" = 2 ] && ! diff -q "$tmp/a/r/hist.csv" "$tmp/c/r/hist.csv" >/dev/null'
# 16 threads on 4 CPUs: preemption is where the two semantics differ (with
# a CPU each, nothing is preempted and they run alike).
OVER="-l kmutex-fix -w creat -t 16 -d 0.05 --sim here --sim-cpus 4 --quiet -o r"
run_in d "$OVER --sim-semantics user" && run_in d2 "$OVER"
check "--sim-semantics user: meta.csv says it, and 16 threads on 4 CPUs run otherwise than in kernel semantics" \
	'[ $? -eq 0 ] && [ "$(meta "$tmp/d/r" sim_semantics)" = user ] && [ "$(meta "$tmp/d2/r" sim_semantics)" = kernel ] &&
	 ! diff -q "$tmp/d2/r/hist.csv" "$tmp/d/r/hist.csv" >/dev/null'
# The settings summary.csv records are the simulated build's, settled while
# its simulator ran: kernel semantics take the kernel's ticket wait_lock and
# see need_resched as it is set; user semantics keep tas-yield.
check "summary.csv: the simulated lock's settings (wait_lock ticket in kernel semantics, tas-yield in user; need_resched when set)" \
	'[ "$(val "$tmp/d2/r" wait_lock)" = ticket ] && [ "$(val "$tmp/d/r" wait_lock)" = tas-yield ] &&
	 [ "$(val "$tmp/d2/r" oracle_need_resched)" = when-set ]'
# The two scheduler models: here.profile names this machine's, 6.18's EEVDF;
# --sim-sched picks 2.6.34's CFS instead.
run_in cfs "$OVER --sim-sched cfs-2.6.34" && run_in cfs2 "$OVER --sim-sched cfs-2.6.34"
check "--sim-sched cfs-2.6.34: meta.csv says it (eevdf-6.x, the profile's, without), and the run differs from EEVDF's" \
	'[ $? -eq 0 ] && [ "$(meta "$tmp/cfs/r" sim_sched)" = cfs-2.6.34 ] && [ "$(meta "$tmp/d2/r" sim_sched)" = eevdf-6.x ] &&
	 ! diff -q "$tmp/d2/r/hist.csv" "$tmp/cfs/r/hist.csv" >/dev/null'
check "--sim-sched cfs-2.6.34: the same seed again, a byte-identical result directory" 'diff -r "$tmp/cfs/r" "$tmp/cfs2/r" >/dev/null'
sed '/^sched\.cfs-2\.6\.34\./d' sim/profiles/here.profile >"$tmp/nocfs.profile"
"$LB" -l tas -t 1 -d 0.01 --warmup 0 --sim "$tmp/nocfs.profile" --sim-sched cfs-2.6.34 --quiet -o "$tmp/nocfs" >/dev/null 2>"$tmp/nocfs.err"
check "--sim-sched cfs-2.6.34 on a profile without its keys: one line, exit 2" \
	'[ $? -eq 2 ] && [ "$(wc -l <"$tmp/nocfs.err")" -eq 1 ] && grep -q "cfs-2.6.34.*not in the profile" "$tmp/nocfs.err"'
run_in e "-l ticket -w counter -t 4 -d 0.01 --sim here --quiet -o r"
check "a userspace lock: user semantics by default, the profile's 2 CPUs" \
	'[ $? -eq 0 ] && [ "$(meta "$tmp/e/r" sim_semantics)" = user ] && [ "$(meta "$tmp/e/r" sim_cpus)" = 2 ] &&
	 [ "$(val "$tmp/e/r" acquisitions)" -gt 0 ]'

# fserver: here.profile has its times (lbcalibrate's workload.fserver.*), so
# issue 41's fserver runs; a profile without them is refused, one line.
run_in g "-l kmutex-fix -w fserver -t 8 --sim here --sim-cpus 2 -d 0.05 --quiet -o r"
check "fserver on here (issue 41's workload): exit 0, nothing on stderr, kernel semantics" \
	'[ $? -eq 0 ] && [ ! -s "$tmp/g/err" ] && [ "$(val "$tmp/g/r" acquisitions)" -gt 100 ] &&
	 [ "$(meta "$tmp/g/r" sim_semantics)" = kernel ]'
# a job is acq_per_op acquisitions of a thread (docs/sim.md), as a real run
# counts jobs: each thread's ops are its whole jobs, its unfinished one abandoned
per_job=$(sed -n 's/^workload\.fserver\.acq_per_op = \([0-9]*\) .*/\1/p' sim/profiles/here.profile)
run_in g2 "-l kmutex-fix -w fserver -t 2 --sim here --sim-cpus 2 -d 1 --quiet -o r"
jobs=$(awk -F, -v n="$per_job" 'NR > 1 { if ($3 != int($4 / n)) bad = 1; s += $3 } END { print bad ? -1 : s }' \
	"$tmp/g2/r/threads.csv")
check "fserver: each thread's jobs are its acquisitions / $per_job, whole ($jobs jobs), the run's ops" \
	'[ "$per_job" -gt 1 ] && [ "$jobs" -gt 0 ] && [ "$(val "$tmp/g2/r" ops)" -eq "$jobs" ] &&
	 [ "$(val "$tmp/g2/r" acquisitions)" -ge $((jobs * per_job)) ]'
# a creat op is a create and an unlink: two acquisitions, as a real run counts it
run_in g3 "-l kmutex-fix -w creat -t 2 --sim here --sim-cpus 2 -d 0.02 --quiet -o r"
check "creat: an op is two acquisitions (acq_per_op 2), as a real creat run's" \
	'[ "$(val "$tmp/g3/r" ops)" -gt 100 ] && [ "$(val "$tmp/g3/r" acquisitions)" -ge $((2 * $(val "$tmp/g3/r" ops))) ] &&
	 [ "$(val "$tmp/g3/r" acquisitions)" -le $((2 * $(val "$tmp/g3/r" ops) + 2)) ]'
grep -v "^workload\.fserver\." sim/profiles/here.profile >"$tmp/nofserver.profile"
"$LB" -l tas -w fserver -t 1 -d 0.01 --sim "$tmp/nofserver.profile" --quiet -o "$tmp/nofs" >"$tmp/out" 2>"$tmp/err"
rc=$?
check "a profile without fserver's times: exit 2, one line naming the workload" \
	'[ $rc -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "has no times for workload fserver" "$tmp/err"'
# creat's outside_ns (docs/sim.md, "The kernel section"): kernel semantics hold
# the directory's lock for the call less it, so a smaller share of the
# acquisitions find it held than with the profile's line taken out.  (A share:
# the calls' heavy tail, up to 12 ms, moves the acquisitions of 0.2 s.)
grep -v "^workload\.creat\.outside_ns" sim/profiles/here.profile >"$tmp/nooutside.profile"
CREAT2="-l kmutex-fix -w creat -t 2 -d 0.2 --sim-cpus 2 --quiet -o r"
run_in h "$CREAT2 --sim here" && run_in h2 "$CREAT2 --sim $tmp/nooutside.profile"
c1=$(val "$tmp/h/r" contentions) a1=$(val "$tmp/h/r" acquisitions)
c2=$(val "$tmp/h2/r" contentions) a2=$(val "$tmp/h2/r" acquisitions)
check "kernel semantics: creat's outside_ns left out of the hold, fewer contended ($c1 of $a1 against $c2 of $a2)" \
	'[ "$a1" -gt 1000 ] && [ $((c1 * a2)) -lt $((c2 * a1)) ]'

# The issue's command as given: 64 threads, 64 simulated CPUs, 0.2 simulated s.
start=$(date +%s)
run_in f "-l kmutex-fix -w creat -t 64 -d 0.2 --sim here --sim-cpus 64 --quiet -o r"
rc=$? secs=$(( $(date +%s) - start ))
check "the issue's 64-thread command: exit 0 in $secs s (< 30), lbcompare reads it" \
	'[ $rc -eq 0 ] && [ "$secs" -lt 30 ] && [ "$(meta "$tmp/f/r" sim_cpus)" = 64 ] && "$LBC" "$tmp/f/r" >/dev/null 2>&1'

"$LB" -l tas -t 1 -d 0.01 --warmup 0 --quiet -o "$tmp/real" >/dev/null 2>&1
check "a real run's meta.csv: simulated 0, the sim keys -" \
	'[ "$(meta "$tmp/real" simulated)" = 0 ] && [ "$(meta "$tmp/real" sim_profile)" = - ] &&
	 [ "$(meta "$tmp/real" sim_semantics)" = - ]'

"$LB" --list >"$tmp/list" 2>&1
sims=$(awk '/^[a-z]+:$/ { on = ($0 == "simulated:"); next } on { print $1 }' "$tmp/list" | tr '\n' ' ')
check "--list: simulated: names every own lock and kmutex model ($sims)" \
	'for l in tas ticket mcs futex kmutex-spin kmutex-fix kmutex-handoff; do
		case " $sims" in *" $l "*) ;; *) exit 1 ;; esac; done'
check "--list: simulated: names no ck lock and not glibc's" \
	'case " $sims" in *" ck-"* | *" pthread"*) exit 1 ;; esac; [ -n "$sims" ]'
