#!/bin/sh
# markdown.t — lbcompare --markdown RUNALLDIR: run-all's report.md from the
# documented files of a run-all directory (results/README.md), here a small
# one made by hand around two real runs, so that every section has something
# to say: a failed run, a warned and a skipped self-check, a busy run, a
# warning in two runs' meta.csv, the sweep's verdicts.  It reads and writes nothing else,
# links only the charts that exist, and rejects a malformed directory in one
# line.
LB=${LOCKBENCH:-bench/lockbench}
CMP=${LBCOMPARE:-analysis/lbcompare}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/tap.sh"
echo "1..58"

d=$tmp/dir
mkdir -p "$d/runs" "$d/logs" "$d/data" "$d/plots"
cat >"$d/settings" <<EOF
QUICK=1
REPS=2
ORDER_SEED=7
LOCKS=tas,ticket
WORKLOADS=counter
THREADS=2
DEFAULT_OUT=0
STARTED=2026-12-05T07:00:00Z
DURATION=counter=0.5
EOF
cat >"$d/run-env" <<EOF
NCPU=2
NUMA_NODES=1
ALL_LOCKS=tas ticket kmutex-spin ck-cohort
ALL_WORKLOADS=counter creat
KL=
KL_WHY=not root here
EOF
printf 'sweep-counter-t2-tas -l tas -w counter -t 2 -d 0.05\nsweep-counter-t2-ticket -l ticket -w counter -t 2 -d 0.05\n' >"$d/variants.txt"
{
	echo "sweep-counter-t2-tas-r1 -l tas -w counter -t 2 -d 0.05 --warmup 0 --seed 1"
	echo "sweep-counter-t2-ticket-r1 -l ticket -w counter -t 2 -d 0.05 --warmup 0 --seed 1"
	echo "sweep-counter-t2-tas-r2 -l tas -w counter -t 2 -d 0.05 --warmup 0 --seed 2"
	echo "sweep-counter-t2-ticket-r2 -l ticket -w counter -t 2 -d 0.05 --warmup 0 --seed 2"
} >"$d/plan.txt"
for lock in tas ticket; do
	r=sweep-counter-t2-$lock-r1
	"$LB" -l $lock -w counter -t 2 -d 0.05 --warmup 0 --quiet -o "$d/runs/$r" 2>"$d/logs/$r.err" ||
		echo "Bail out! lockbench failed for $r"
done
# ticket-r2 failed by the watchdog; tas-r2 never ran.
echo 4 >"$d/logs/sweep-counter-t2-ticket-r2.status"
printf 'lockbench: warning: something odd\nlockbench: watchdog: no progress for 10 s\n' >"$d/logs/sweep-counter-t2-ticket-r2.err"
# The runs' own warnings are their meta.csv's (warning_N), here the same one
# in both finished runs; a stderr line with "warning" in it (under --exec,
# the program's own) is not one.
for r in tas-r1 ticket-r1; do
	meta=$d/runs/sweep-counter-t2-$r/meta.csv
	sed -i '/^warnings,/d; /^warning_[0-9]*,/d' "$meta"
	printf 'warnings,1\nwarning_1,something odd\n' >>"$meta"
done
echo "warning: a line the program printed" >>"$d/logs/sweep-counter-t2-tas-r1.err"
# One warned check, one busy run.  A check the real runs warned of
# themselves (a starved thread on a loaded machine: it happened) is taken
# out first, so that the planted one is the only one.
sed -i '/,WARN,/d' "$d"/runs/*/checks.csv
t=$d/runs/sweep-counter-t2-tas-r1
echo "fairness,WARN,1 of 2 threads starved" >>"$t/checks.csv"
sed -i 's/^noise_busy,.*/noise_busy,yes: other processes 55.0% of the CPU time; steal 0.0%/; s/^noise_other_cpu_pct,.*/noise_other_cpu_pct,55.0/' "$t/meta.csv"
sed -i 's/^noise_busy,.*/noise_busy,no/; s/^noise_other_cpu_pct,.*/noise_other_cpu_pct,1.0/' "$d/runs/sweep-counter-t2-ticket-r1/meta.csv"
# Runs from before meta.csv had workload_dir_* and PSI io and memory keys.
for f in "$d"/runs/*/meta.csv; do
	sed -i '/^workload_dir/d; /^noise_io_pressure_pct,/d; /^noise_memory_pressure_pct,/d' "$f"
done
# What run-all derives before it calls --markdown: lbcompare's text and CSVs.
"$CMP" --csv "$d/data" "$d/runs/sweep-counter-t2-tas-r1" "$d/runs/sweep-counter-t2-ticket-r1" >"$d/data/sweep-counter.txt" 2>&1
sum() { (cd "$d" && find . -type f | sort | xargs cksum); }
before=$(sum)

"$CMP" --markdown "$d" >"$tmp/r.md" 2>"$tmp/err"
rc=$?
check "a run-all directory gives a report (rc=$rc: $(head -c 200 "$tmp/err"))" '[ $rc -eq 0 ] && [ ! -s "$tmp/err" ]'
check "and leaves the directory as it was" '[ "$before" = "$(sum)" ]'
check "the header: machine from the first run's meta.csv and run-env, settings, rounds" \
	'grep -Eq "^Machine: [^,]+, .*, 2 CPUs\. Started 2026-12-05T07:00:00Z; quick mode, 2 repetition\(s\) per run, run in 2 round\(s\), .*seed 7 " "$tmp/r.md"'
check "the timing line counts the finished runs" 'grep -q "^Acquisition timing: \`--timing all\` (2 run(s))" "$tmp/r.md"'
check "no plots drawn: the note, and no chart linked" \
	'grep -q "^No plots: " "$tmp/r.md" && ! grep -q "](plots/" "$tmp/r.md"'
check "the noise: the median of the runs' other-CPU share, the busy run named with why" \
	'grep -q "^Other processes used a median 28.0% of the machine.s CPU time while a run measured (at most 55.0%)" "$tmp/r.md" &&
	 grep -q "^\*\*Warning: 1 of 2 run(s) were taken on a busy machine\*\*" "$tmp/r.md" &&
	 grep -q "^- \`sweep-counter-t2-tas-r1\`: other processes 55.0% of the CPU time; steal 0.0%$" "$tmp/r.md"'
 check "runs without the PSI io and directory keys: no line about them" \
	'! grep -q "^Some task waited for I/O" "$tmp/r.md" && ! grep -q "file workloads" "$tmp/r.md"'
# A run without noise figures (an --exec run records none, as a run from
# before the keys): the report claims nothing of it.
cp -r "$d" "$tmp/nn"
sed -i '/^noise_/d' "$tmp/nn/runs/sweep-counter-t2-tas-r1/meta.csv"
"$CMP" --markdown "$tmp/nn" >"$tmp/nn.md" 2>"$tmp/err"
rc=$?
check "a run without noise figures: no 'no run was busy' for it, the count said ($(grep -i "busy" "$tmp/nn.md" | head -c 200))" \
	'[ $rc -eq 0 ] && ! grep -q "^No run was taken on a busy machine" "$tmp/nn.md" &&
	 grep -q "^No run of the 1 that recorded noise figures was taken on a busy machine" "$tmp/nn.md" &&
	 grep -q "^1 run(s) recorded no noise figures (.--exec. runs of a program record none" "$tmp/nn.md"'
check "no patch runs planned: no patch section" '! grep -q "^## The patch" "$tmp/r.md"'
check "the sweep: its title, lbcompare's text named, the ops table with both locks" \
	'grep -q "^## Counter sweep$" "$tmp/r.md" && grep -q "\`data/sweep-counter.txt\`" "$tmp/r.md" &&
	 grep -q "^| threads | tas | ticket |$" "$tmp/r.md" && grep -Eq "^\| 2 \| [0-9]+ \| [0-9]+ \|$" "$tmp/r.md"'
check "ck-cohort, in the build but not in --locks, is not said skipped" '! grep -q "ck-cohort" "$tmp/r.md"'
# A full run with no --locks: each NUMA-only lock (run-env's NUMA_ONLY_LOCKS,
# the locks' roles in locks/locks.def) the sweep has no run of is said
# skipped, by the name the run directory gives, whatever the lock is.
numa_report() { # NUMA_ONLY_LOCKS: the report of $d as such a run, into $tmp/numa.md
	rm -rf "$tmp/numa" && cp -r "$d" "$tmp/numa" &&
	sed -i 's/^QUICK=.*/QUICK=0/; s/^LOCKS=.*/LOCKS=/' "$tmp/numa/settings" &&
	printf 'NUMA_ONLY_LOCKS=%s\n' "$1" >>"$tmp/numa/run-env" &&
	"$CMP" --markdown "$tmp/numa" >"$tmp/numa.md" 2>"$tmp/numa.err"
}
numa_report ck-cohort
check "a NUMA-only lock left out of the sweep on one node is said skipped ($(head -c 200 "$tmp/numa.err"))" \
	'grep -q "^\`ck-cohort\` was skipped: this machine has 1 NUMA node(s)" "$tmp/numa.md"'
numa_report kmutex-spin
check "the sentence follows the role, not a name: kmutex-spin said skipped, ck-cohort not ($(head -c 200 "$tmp/numa.err"))" \
	'grep -q "^\`kmutex-spin\` was skipped: this machine has 1 NUMA node(s)" "$tmp/numa.md" &&
	 ! grep -q "ck-cohort" "$tmp/numa.md"'
check "the failed runs: the watchdog's, with its last stderr line, and the one not run" \
	'grep -q "^- \`sweep-counter-t2-ticket-r2\` (exit status 4, watchdog): lockbench: watchdog: no progress for 10 s$" "$tmp/r.md" &&
	 grep -q "^- \`sweep-counter-t2-tas-r2\` (exit status not run): $" "$tmp/r.md"'
check "the warned self-check, run by run" \
	'grep -q "^1 check(s) warned, in 1 of 2 run(s):" "$tmp/r.md" &&
	 grep -q "^- \`sweep-counter-t2-tas-r1\`: \*\*WARN\*\* \`fairness\`: 1 of 2 threads starved$" "$tmp/r.md"'
check "the runs' warnings from their meta.csv, counted across the runs; no stderr line taken for one" \
	'grep -A4 "^## Warnings raised" "$tmp/r.md" | grep -q "^\`\`\`text" &&
	 grep -q "^      2 something odd$" "$tmp/r.md" && ! grep -q "a line the program printed" "$tmp/r.md"'
check "how it was produced: run-all's command from settings, and the plan's size" \
	'grep -q "^\`./run-all --quick --reps 2 --order-seed 7 --locks tas,ticket --workloads counter --threads 2 --duration counter=0.5\` — 4 runs" "$tmp/r.md"'
check "the machine table is the first run's meta.csv" \
	'[ "$(grep -c "^| [a-z_0-9]* | " "$tmp/r.md")" -ge "$(($(wc -l <"$d/runs/sweep-counter-t2-tas-r1/meta.csv") - 1))" ]'

# The verdicts are the comparison's of the runs, never read back from what
# lbcompare printed: a stats CSV claiming ticket 2x faster is not believed
# (one run a side: nothing can be tested), nor a sweep CSV.
cat >"$d/data/stats-counter-t2.csv" <<EOF
variant,figure,runs,median,ci_lo,ci_hi,ci_coverage,spread_large,baseline_runs,ratio,ratio_ci_lo,ratio_ci_hi,p,verdict
tas,ops_per_s,5,100,90,110,0.9375,0,5,1,,,,baseline
ticket,ops_per_s,5,200,190,210,0.9375,0,5,2,1.8,2.2,0.008,faster
ticket,cpu_us_per_op,5,1,1,1,0.9375,0,5,1,1,1,1,no difference
EOF
printf 'threads,tas,ticket\n2,1,2\n' >"$d/data/sweep-counter-ops_per_s.csv"
: >"$d/plots/sweep-counter-ops_per_s.png"
"$CMP" --markdown "$d" >"$tmp/r.md" 2>/dev/null
check "the sweep's verdicts and table are the runs' own, not data/*.csv's" \
	'grep -q "^| 2 | tas | - | - | - |$" "$tmp/r.md" && ! grep -q "^| 2 | 1 | 2 |$" "$tmp/r.md" &&
	 grep -q "^| 2 | [0-9][0-9]* | [0-9][0-9]* |$" "$tmp/r.md"'
check "a chart that exists is linked, one that does not is not" \
	'grep -q "^!\[throughput against threads, counter\](plots/sweep-counter-ops_per_s.png)$" "$tmp/r.md" &&
	 ! grep -q "cpu_us_per_op.png" "$tmp/r.md" && ! grep -q "^No plots" "$tmp/r.md"'

# The answer first (issue 29): a verdict line per experiment within the
# first 20 lines (the small-machine caveat under 8 CPUs where the patch's
# table is, and only there: tested with it below), then the charts,
# then the tables; the runs' warnings before the machine's facts.
line_of() { grep -n -m1 -- "$1" "$2" | cut -d: -f1; }
check "the sweep's verdict line is within the first 20 lines: the fastest lock at 2 threads, then the other against it" \
	'head -20 "$tmp/r.md" | grep -Eq "^- \*\*Highest median throughput by thread count, \`counter\`:\*\* 2: \`(tas|ticket)\` [0-9]+, then \`(tas|ticket)\` \*\*[0-9.]+x\*\*\.$"'
check "2 CPUs, no patch table: no caveat about the patch" '! grep -q "small machine\|2\.6\.36" "$tmp/r.md"'
check "the charts before the first table, the tables after" \
	'[ "$(line_of "](plots/" "$tmp/r.md")" -lt "$(line_of "^| threads |" "$tmp/r.md")" ] &&
	 [ "$(line_of "^## Charts" "$tmp/r.md")" -lt "$(line_of "^## Counter sweep" "$tmp/r.md")" ]'
check "how to read the figures after the answer and the charts" \
	'[ "$(line_of "^## Charts" "$tmp/r.md")" -lt "$(line_of "^Figures are medians" "$tmp/r.md")" ] &&
	 [ "$(line_of "^## The answer" "$tmp/r.md")" -lt "$(line_of "^### Noise during" "$tmp/r.md")" ]'
# Issue 42: the answer's ratios are Hodges-Lehmann's, as ratio_text() prints
# them, and each line is judged alone; it said "Ratios are of medians".
check "the answer names its ratios (Hodges-Lehmann's, Moses' interval) and says each line is judged alone" \
	'grep -q "^Ratios are Hodges–Lehmann.s (the median of the runs. pairwise ratios), \[their 95% interval\] (Moses.), .*each line on its own: no correction" "$tmp/r.md" &&
	 ! grep -q "Ratios are of medians" "$tmp/r.md"'
check "the self-checks and warnings before the machine's facts" \
	'[ "$(line_of "^## Self-checks" "$tmp/r.md")" -lt "$(line_of "^## Machine" "$tmp/r.md")" ] &&
	 [ "$(line_of "^## Warnings raised" "$tmp/r.md")" -lt "$(line_of "^## Machine" "$tmp/r.md")" ]'
big=$tmp/big
cp -R "$d" "$big"
sed -i 's/^NCPU=.*/NCPU=8/' "$big/run-env"
"$CMP" --markdown "$big" >"$tmp/big.md" 2>/dev/null
check "8 CPUs: no small-machine caveat" 'grep -q "^## The answer" "$tmp/big.md" && ! grep -q "small machine" "$tmp/big.md"'

# The sweep's table with its intervals, and the locks named in each verdict
# column: both locks with two finished runs.
s=$tmp/sweep2
cp -R "$d" "$s"
rm -f "$s"/logs/*r2*
for lock in tas ticket; do
	"$LB" -l $lock -w counter -t 2 -d 0.05 --warmup 0 --seed 2 --quiet -o "$s/runs/sweep-counter-t2-$lock-r2" 2>/dev/null ||
		echo "Bail out! lockbench failed for $lock r2"
done
"$CMP" --markdown "$s" >"$tmp/s.md" 2>"$tmp/err"
rc=$?
check "the sweep's table: each median with its interval (rc=$rc)" \
	'grep -Eq "^\| 2 \| [0-9]+ \[[0-9]+–[0-9]+\]!? \| [0-9]+ \[[0-9]+–[0-9]+\]!? \|$" "$tmp/s.md"'
check "the sweep's verdicts name the locks each verdict covers, with their ratio" \
	'grep -Eq "^\| 2 \| tas \| (- \| - \| \`ticket\` [0-9.e+-]+x|\`ticket\` [0-9.e+-]+x \| - \| -|- \| \`ticket\` [0-9.e+-]+x \| -) \|$" "$tmp/s.md"'

# A file workload's run: run-all's choice of its directory (settings' DIR and
# DIR_WHY, --dir in the plan line), the file system its meta.csv recorded,
# and I/O pressure that made it busy.
e=$tmp/files
cp -R "$d" "$e"
printf 'DIR=%s\nDIR_WHY=default: a writable tmpfs with 100 MiB free\n' "$tmp" >>"$e/settings"
# The patch pair as run-all records it (run-env's PATCH_PAIR): this
# directory's patch table has the baseline's runs only.
echo "PATCH_PAIR=kmutex-spin kmutex-fix" >>"$e/run-env"
r=patch-creat-t2-tas
echo "$r -l tas -w creat -t 2 -d 0.05 --warmup 0 --dir $tmp" >>"$e/variants.txt"
echo "$r-r1 -l tas -w creat -t 2 -d 0.05 --warmup 0 --dir $tmp --seed 1" >>"$e/plan.txt"
"$LB" -l tas -w creat -t 2 -d 0.05 --warmup 0 --quiet --dir "$tmp" -o "$e/runs/$r-r1" 2>/dev/null ||
	echo "Bail out! lockbench failed for $r-r1"
sed -i 's/^noise_io_pressure_pct,.*/noise_io_pressure_pct,25.00/
	s/^noise_busy,.*/noise_busy,yes: other processes 1.0% of the CPU time; steal 0.0%; I\/O pressure 25.0%/' "$e/runs/$r-r1/meta.csv"
fs=$(awk -F, '$1 == "workload_dir_fs" { print $2 }' "$e/runs/$r-r1/meta.csv")
"$CMP" --markdown "$e" >"$tmp/e.md" 2>"$tmp/err"
rc=$?
check "the file workloads' directory: run-all's choice and the file system the run recorded (rc=$rc)" \
	'[ $rc -eq 0 ] && [ -n "$fs" ] && grep -q "^The file workloads made their files in \`$tmp\` (run-all.s default: a writable tmpfs with 100 MiB free)\. Their runs. file system: \`$fs\` (\`[^\`]*\` on \`[^\`]*\`) in 1 run(s)\.\$" "$tmp/e.md"'
check "I/O pressure: the runs' median and most, and the run it made busy named" \
	'grep -q "^Some task waited for I/O a median [0-9.]*% of a run.s interval (PSI io, at most 25.0%)" "$tmp/e.md" &&
	 grep -q "^- \`$r-r1\`: other processes 1.0% of the CPU time; steal 0.0%; I/O pressure 25.0%\$" "$tmp/e.md"'
check "2 CPUs: the small-machine caveat in the patch's section, before its table" \
	'[ "$(grep -c "small machine" "$tmp/e.md")" -eq 1 ] &&
	 [ "$(line_of "^## The patch.s table" "$tmp/e.md")" -lt "$(line_of "^\*\*A small machine: 2 CPU(s)\.\*\* With N CPUs at most N−1 threads can spin while the lock.s owner runs" "$tmp/e.md")" ] &&
	 [ "$(line_of "^\*\*A small machine" "$tmp/e.md")" -lt "$(line_of "^### creat" "$tmp/e.md")" ]'
check "a patch workload without kmutex-fix: its answer line says there is no before/after" \
	'head -20 "$tmp/e.md" | grep -q "^- \*\*The patch, \`creat\`, 2 threads:\*\* no \`kmutex-fix\` beside \`tas\` with its ops/sec: no before/after\.$"'
sed -i 's/^DIR_WHY=.*/DIR_WHY=--dir/' "$e/settings"
"$CMP" --markdown "$e" >"$tmp/e.md" 2>/dev/null
check "a directory given with --dir: said so, and in the command" \
	'grep -q "^The file workloads made their files in \`$tmp\` (chosen with \`--dir\`)\." "$tmp/e.md" &&
	 grep -q "^\`./run-all .* --dir $tmp\` — 5 runs" "$tmp/e.md"'

# The models against the running kernel's mutex.  Where the experiment was
# wanted but kernel capture was not there: one line saying why (run-env's
# KL_WHY), and nothing when --workloads left it out.
check "no kernel experiment where --workloads left it out" '! grep -q "running kernel.s mutex" "$tmp/r.md"'
k=$tmp/nokl
cp -R "$d" "$k"
echo "KERNEL_WORKLOADS=fpos" >>"$k/run-env"
sed -i 's/^WORKLOADS=.*/WORKLOADS=/' "$k/settings"
"$CMP" --markdown "$k" >"$tmp/k.md" 2>"$tmp/err"
rc=$?
check "wanted, but no kernel capture: the section says why, in one line (rc=$rc)" \
	'[ $rc -eq 0 ] && grep -q "^## Models against the running kernel.s mutex$" "$tmp/k.md" &&
	 grep -qx "\`fpos\`: not run: kernel lock capture is unavailable here (not root here), and without it the experiment has no baseline." "$tmp/k.md"'

# With it: the kernel's row and a model, two rounds of real fpos runs, and
# what run-all derives from them (lbcompare --csv, its text, a chart).
capture_probe
k=$tmp/kernel
mkdir -p "$k/runs" "$k/logs" "$k/data" "$k/plots"
sed 's/^WORKLOADS=.*/WORKLOADS=fpos/; s/^LOCKS=.*/LOCKS=/' "$d/settings" >"$k/settings"
printf 'NCPU=2\nNUMA_NODES=1\nALL_LOCKS=none kmutex-handoff\nALL_WORKLOADS=fpos\nKL=--kernel-locks\nKL_WHY=\nKERNEL_WORKLOADS=fpos\n' >"$k/run-env"
: >"$k/plan.txt"
for lock in none kmutex-handoff; do
	args="-l $lock -w fpos -t 2 -d 0.1 --warmup 0 --kernel-locks --dir $tmp"
	echo "kernel-fpos-t2-$lock $args" >>"$k/variants.txt"
	for r in 1 2; do
		echo "kernel-fpos-t2-$lock-r$r $args --seed $r" >>"$k/plan.txt"
		[ -n "$skip" ] || "$LB" $args --seed $r --quiet -o "$k/runs/kernel-fpos-t2-$lock-r$r" 2>"$tmp/lb.err" ||
			echo "# lockbench failed for kernel-fpos-t2-$lock-r$r: $(head -c 300 "$tmp/lb.err")"
	done
done
if [ -z "$skip" ]; then
	"$CMP" --csv "$k/data" "$k"/runs/kernel-fpos-t2-none-r* "$k"/runs/kernel-fpos-t2-kmutex-handoff-r* >"$k/data/kernel-fpos.txt" 2>&1
	: >"$k/plots/hist-contended-fpos-t2.png"
fi
"$CMP" --markdown "$k" >"$tmp/k.md" 2>"$tmp/err"
rc=$?
capture "the kernel experiment's report (rc=$rc: $(head -c 200 "$tmp/err"))" '[ $rc -eq 0 ] && [ ! -s "$tmp/err" ]'
capture "its section: the heading, what each side times, how the phases map to the tracepoint's classes" \
	'grep -q "^## Models against the running kernel.s mutex$" "$tmp/k.md" && grep -q "^### fpos$" "$tmp/k.md" &&
	 grep -q "\*\*What each side times:\*\* the kernel.s row .* from \`lock:contention_begin\` to \`contention_end\` — its slow path only" "$tmp/k.md" &&
	 grep -q "\`unqueued/op\` is the kernel.s \`spin\` class .* against a model.s \`acq_spin\` + \`nosleep_unqueued\`" "$tmp/k.md"'
spin=$(awk -F, '$1 == "kernel_mutex_spin_on_owner" { print $2 }' "$k/runs/kernel-fpos-t2-none-r1/meta.csv" 2>/dev/null)
capture "the kernel's mutex settings, from the kernel row's meta.csv (CONFIG_MUTEX_SPIN_ON_OWNER: $spin)" \
	'[ -n "$spin" ] && grep -q "^The kernel.s mutex, beside the kernel.s row (meta.csv): kernel: [^;]*; \`CONFIG_MUTEX_SPIN_ON_OWNER\`: $spin; preemption: " "$tmp/k.md"'
capture "a table per thread count: the figures' titles as lbcompare names them, and the distance of the histograms" \
	'grep -q "^#### 2 threads$" "$tmp/k.md" &&
	 grep -q "^| variant | Ops/sec | contended/op | contended mean cycles | CPU us/op | unqueued/op | queued/op | queued at once/op | slept/op | EMD from the kernel.s contended histogram, bins |$" "$tmp/k.md"'
# The kernel's and the model's contended/op cells against kernel-fpos-t2.csv.
# The CSV holds 6 significant digits and the table 4 decimals (the ratio 2),
# so a figure matches when the two differ by at most what the two roundings
# allow: comparing the CSV's value rounded again as text would fail on the
# rare figure that lies just past a rounding boundary.
kcsv=$k/data/kernel-fpos-t2.csv
# csvrow CSV VARIANT: its contended/op row; cell REPORT LABEL N: the row's Nth cell.
csvrow() { grep "^$2,contended_per_op," "$1" 2>/dev/null; }
cell() { grep "^| $2 | " "$1" | awk -F' [|] ' -v c="$3" '{ print $c }'; }
# figure_ok CELL CSVROW: CELL is "median [lo–hi]", then for a model "Rx verdict"
# ("verdict" alone where the kernel's median is 0: no ratio), each figure near
# CSVROW's (median $4, lo $5, hi $6, ratio $10, verdict $14).
figure_ok() {
	printf '%s\n%s\n' "$1" "$2" | awk -F, '
		function near(shown, exact, decimals) { return shown != "" && exact != "" &&
			(shown - exact)^2 <= (0.5 * 10^-decimals + 1e-5 * (exact < 0 ? -exact : exact))^2 }
		NR == 1 { n = split($0, f, /[][ –]+/); next }
		{ ok = near(f[1], $4, 4) && near(f[2], $5, 4) && near(f[3], $6, 4)
		  if ($14 == "baseline") { ok = ok && n == 4 && f[4] == ""; exit }
		  w = 4
		  if ($10 != "")
			ok = ok && f[w] ~ /x$/ && near(substr(f[w], 1, length(f[w]) - 1), $10, 2) && w++
		  v = f[w]
		  for (i = w + 1; i <= n; i++) v = v " " f[i]
		  ok = ok && v == $14 }
		END { exit !(NR == 2 && ok) }'
}
krow=$(csvrow "$kcsv" none) kcell=$(cell "$tmp/k.md" "the kernel's mutex: none" 3)
mrow=$(csvrow "$kcsv" kmutex-handoff) mcell=$(cell "$tmp/k.md" kmutex-handoff 3)
# The histograms' distance (histcmp's 4 decimals) as the report shows it (2).
emd=$(awk -F, '$1 == "contended" && $2 == "kmutex-handoff" { print $5 ", " $9 }' "$k/data/histcmp-fpos-t2.csv" 2>/dev/null)
emd_is() { # SHOWN: "D, VERDICT" as the report shows it, near $emd
	printf '%s\n%s\n' "$1" "$emd" | awk -F', ' 'NR == 1 { d = $1; w = $2; next }
		{ exit !(d != "" && $1 != "" && (d - $1)^2 <= 0.00505^2 && w == $2) }'
}
capture "the kernel's row first, its figures with their interval and no verdict ('$kcell'; CSV: $krow)" \
	'grep -q "^| the kernel.s mutex: none | [0-9]* \[[0-9]*–[0-9]*\] | " "$tmp/k.md" && figure_ok "$kcell" "$krow"'
capture "the model's row: its figure, its ratio to the kernel's and the verdict ('$mcell'; CSV: $mrow)" \
	'figure_ok "$mcell" "$mrow"'
emd_cell=$(grep "^| kmutex-handoff | " "$tmp/k.md" | awk -F' [|] ' '{ sub(/ [|]$/, "", $NF); print $NF }')
capture "the model's row ends with the histograms' distance from the kernel's ('$emd_cell'; histcmp: $emd)" \
	'emd_is "$emd_cell"'
capture "the chart: the kernel's waits with the models', where it was drawn; lbcompare's text named" \
	'grep -q "^!\[contended acquisition times of the models and the kernel.s mutex waits, fpos, 2 threads\](plots/hist-contended-fpos-t2.png)$" "$tmp/k.md" &&
	 grep -q "\`data/kernel-fpos.txt\`" "$tmp/k.md"'

nearest=$(head -20 "$tmp/k.md" | grep "^- \*\*The model nearest the kernel.s mutex (contended histograms and contention figures together), \`fpos\`:\*\* 2 threads \`kmutex-handoff\` (EMD [0-9.]* bins, [a-z ]*)\.$")
nearest_emd=$(printf '%s\n' "$nearest" | sed 's/.*(EMD \([0-9.]*\) bins, \([a-z ]*\))\.$/\1, \2/')
capture "the answer names the model nearest the kernel, with the table's distance ('$nearest_emd'; histcmp: $emd)" \
	'[ -n "$nearest" ] && emd_is "$nearest_emd"'

# A kernel that made no mutex wait in either run (here the same waits, moved
# to type "other"): the kernel's median is 0, so the model's row shows no
# ratio, only its verdict, as the CSV has it.
z=$tmp/kzero
cp -R "$k" "$z"
for r in "$z"/runs/kernel-fpos-t2-none-r*; do
	[ -f "$r/summary.csv" ] || continue
	# (Sums printed with %.0f: mawk prints a number past 2^31 as 3e+09.)
	awk -F, -v OFS=, 'NR == FNR { v[$1] = $2; next }
		$1 == "kernel_contentions_other" { $2 = sprintf("%.0f", $2 + v["kernel_contentions_mutex"]) }
		$1 == "kernel_wait_cycles_sum_other" { $2 = sprintf("%.0f", $2 + v["kernel_wait_cycles_sum_mutex"]) }
		$1 == "kernel_wait_cycles_max_other" && v["kernel_wait_cycles_max_mutex"] + 0 > $2 + 0 { $2 = v["kernel_wait_cycles_max_mutex"] }
		$1 ~ /^kernel_(contentions|wait_cycles_sum|wait_cycles_max)_mutex$|^kernel_mutex_/ { $2 = 0 }
		{ print }' "$r/summary.csv" "$r/summary.csv" >"$r/summary.new" && mv "$r/summary.new" "$r/summary.csv"
	sed -i 's/,mutex,/,other,/' "$r/kernel-locks.csv"
	awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print; next }
		{ $c["other"] = sprintf("%.0f", $c["other"] + $c["mutex"]); $c["mutex"] = 0; print }' "$r/kernel-hist.csv" >"$r/kernel-hist.new" &&
		mv "$r/kernel-hist.new" "$r/kernel-hist.csv"
done
rm -f "$z"/data/*
[ -n "$skip" ] || "$CMP" --csv "$z/data" "$z"/runs/kernel-fpos-t2-none-r* "$z"/runs/kernel-fpos-t2-kmutex-handoff-r* >"$z/data/kernel-fpos.txt" 2>&1
"$CMP" --markdown "$z" >"$tmp/z.md" 2>"$tmp/err"
rc=$?
zrow=$(csvrow "$z/data/kernel-fpos-t2.csv" kmutex-handoff) zcell=$(cell "$tmp/z.md" kmutex-handoff 3)
capture "no mutex wait in the kernel's runs: the kernel's row 0, the model's no ratio (rc=$rc: $(head -c 200 "$tmp/err"); '$zcell'; CSV: $zrow)" \
	'[ $rc -eq 0 ] && grep -q "^| the kernel.s mutex: none | [0-9]* \[[0-9]*–[0-9]*\] | 0.0000 \[0.0000–0.0000\] | " "$tmp/z.md" &&
	 [ "$(echo "$zrow" | cut -d, -f10)" = "" ] && figure_ok "$zcell" "$zrow"'

# A malformed directory: one line, exit 2, nothing on stdout.
bad() { # NAME EXPECTED: lbcompare --markdown "$tmp/bad"
	want=$2
	"$CMP" --markdown "$tmp/bad" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	check "$1 (rc=$rc: $(head -c 200 "$tmp/err"))" \
		'[ $rc -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -qF "$want" "$tmp/err" && [ ! -s "$tmp/out" ]'
}
remake() { rm -rf "$tmp/bad" && cp -R "$d" "$tmp/bad"; }
remake && rm "$tmp/bad/settings"
bad "no settings: not a run-all directory" "settings: missing: not a run-all directory"
remake && echo "EVIL=\$(rm -rf /)" >>"$tmp/bad/settings"
bad "an unknown settings line" "settings: unexpected line 'EVIL=...'"
remake && sed -i 's/^REPS=.*/REPS=0/' "$tmp/bad/settings"
bad "REPS not a positive number: run-all's rule (saved.h)" "settings: bad REPS"
remake && echo "../../etc/passwd -l tas" >>"$tmp/bad/plan.txt"
bad "a plan line whose name is a path" "plan.txt: malformed line 5"

# Several hosts (lbcompare --hosts OUT DIR...'s OUT/report.md): every
# directory's runs of each workload compared together (as it compares them
# into OUT/data/KIND-W.txt) under a header naming each directory; of a
# sweep, only the hosts and across-hosts tables.  The second directory is
# the first's runs on host box.
cp -R "$d" "$tmp/box"
sed -i 's/^hostname,.*/hostname,box/' "$tmp/box"/runs/*/meta.csv
mkdir "$tmp/hosts" "$tmp/hosts2"
"$CMP" --hosts "$tmp/hosts" "$d" "$tmp/box" >/dev/null 2>"$tmp/err"
rc=$?
cp "$tmp/hosts/report.md" "$tmp/h.md"
check "--hosts: both directories named, absolute (rc=$rc: $(head -c 200 "$tmp/err"))" \
	'[ $rc -eq 0 ] && grep -qx -- "- \`$(cd "$d" && pwd -P)\` (its \`report.md\`)" "$tmp/h.md" &&
	 grep -qx -- "- \`$(cd "$tmp/box" && pwd -P)\` (its \`report.md\`)" "$tmp/h.md"'
check "--hosts: the sweep's hosts and across-hosts tables only" \
	'grep -q "^## Counter sweep$" "$tmp/h.md" && grep -q "^== across hosts: workload counter," "$tmp/h.md" &&
	 grep -q "^  *box " "$tmp/h.md" && ! grep -q "^== workload counter" "$tmp/h.md"'
# A before and an after on one machine (issue 29): $s is $d's host again,
# with a second repetition of each lock.  Pooled, the two would be one
# host's 3 repetitions and the sweep's hosts block empty; keyed by
# directory, each is a host of its own, the first the baseline.
host=$(awk -F, '$1 == "hostname" { print $2 }' "$d/runs/sweep-counter-t2-tas-r1/meta.csv" | tr -c 'A-Za-z0-9._#\n-' _)
"$CMP" --hosts "$tmp/hosts2" "$d" "$s" >/dev/null 2>"$tmp/err"
rc=$?
cp "$tmp/hosts2/report.md" "$tmp/h2.md"
check "--hosts, one hostname twice: said, each directory labelled, the first the baseline (rc=$rc)" \
	'[ $rc -eq 0 ] && grep -q "^A hostname repeats: " "$tmp/h2.md" &&
	 grep -qx -- "- \`$host-dir1\`: \`$(cd "$d" && pwd -P)\` (the baseline)" "$tmp/h2.md" &&
	 grep -qx -- "- \`$host-dir2\`: \`$(cd "$s" && pwd -P)\`" "$tmp/h2.md"'
check "--hosts, one hostname twice: the sweep's across table has a column per directory" \
	'grep -q "^== across hosts: workload counter," "$tmp/h2.md" &&
	 grep -Eq "^ +$host-dir1, 2 threads +$host-dir2, 2 threads" "$tmp/h2.md" &&
	 grep -q "^Each host.s tables, thread count by thread count: \`data/sweep-counter.txt\`" "$tmp/h2.md"'
check "--hosts, two hostnames: no directory labels" '! grep -q "hostname repeats" "$tmp/h.md" && ! grep -q -- "-dir1" "$tmp/h.md"'
"$CMP" --hosts "$tmp/hosts" "$d" "$tmp/nowhere" >"$tmp/out" 2>"$tmp/err"
rc=$?
check "--hosts: a directory that is not there, one line, exit 2" \
	'[ $rc -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "nowhere: No such file or directory" "$tmp/err" && [ ! -s "$tmp/out" ]'

# The patch's table (issue 29): in report.md each thread count's headline
# figures as a markdown table and a link to the full text in data/, never
# lbcompare's ~250-column text fenced in the report.  Two repetitions of
# kmutex-spin and kmutex-fix on creat, so the text would have its interval
# and phase columns.
p=$tmp/patch
cp -R "$d" "$p"
for r in 1 2; do
	for lock in kmutex-spin kmutex-fix; do
		run=patch-creat-t2-$lock-r$r
		echo "$run -l $lock -w creat -t 2 -d 0.05 --warmup 0 --seed $r" >>"$p/plan.txt"
		"$LB" -l $lock -w creat -t 2 -d 0.05 --warmup 0 --seed $r --quiet -o "$p/runs/$run" 2>"$p/logs/$run.err" ||
			echo "Bail out! lockbench failed for $run"
	done
done
printf 'patch-creat-t2-kmutex-spin -l kmutex-spin -w creat -t 2 -d 0.05\npatch-creat-t2-kmutex-fix -l kmutex-fix -w creat -t 2 -d 0.05\n' >>"$p/variants.txt"
"$CMP" --markdown "$p" >"$tmp/p.md" 2>"$tmp/err"
rc=$?
check "the patch's table: its headline figures as a markdown table, the full text linked (rc=$rc: $(head -c 200 "$tmp/err"))" \
	'[ $rc -eq 0 ] && grep -q "^### creat$" "$tmp/p.md" && grep -q "^| kmutex-spin (baseline) | [0-9]" "$tmp/p.md" &&
	 grep -Eq "^\| kmutex-fix \| [0-9]+ \[[0-9]+–[0-9]+\] [0-9.]+x [a-z ]+ \|" "$tmp/p.md" &&
	 grep -q "\`data/patch-creat.txt\`" "$tmp/p.md"'
check "no text block in report.md wider than 160 columns" \
	'! awk "/^\`\`\`text/ { f = 1; next } /^\`\`\`/ { f = 0 } f && length > 160 { bad = 1 } END { exit !bad }" "$tmp/p.md"'
