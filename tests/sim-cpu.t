#!/bin/sh
# sim-cpu.t — a simulated run's CPU time (docs/sim.md, "Running a
# simulation"): each thread's virtual time on a simulated CPU over the
# measured interval, in summary.csv's and threads.csv's cpu_user_s and
# cpu_sys_s — sys inside kernel sections (kernel semantics), user the rest;
# spinning counts, sleeping and waiting in a run queue do not.
LB=${LOCKBENCH:-bench/lockbench}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/tap.sh"
echo "1..6"
sim() { d=$tmp/$1; shift; timeout -s KILL 60 "$LB" "$@" --quiet -o "$d" >/dev/null 2>"$tmp/err"; }
# within A B LO HI: LO <= A / B <= HI.
within() { awk -v a="$1" -v b="$2" -v lo="$3" -v hi="$4" 'BEGIN { exit !(b > 0 && a / b >= lo && a / b <= hi) }'; }
cpu_s() { awk -F, 'NR > 1 { s += $8 + $9 } END { printf "%.6f\n", s }' "$1/threads.csv"; }

# Two spinning threads on two CPUs: each is on its CPU all the time, the
# whole measured interval is user time, and nothing is sys (userspace
# semantics: no kernel section).
sim two -l ticket -w counter -t 2 -d 0.02 --warmup 0.005 --sim here --sim-cpus 2
ms=$(val "$tmp/two" measured_s) u=$(val "$tmp/two" cpu_user_s)
check "ticket, 2 threads on 2 CPUs: user $u s, 2 x measured ($ms s) within 1%; sys 0" \
	'within "$u" "$(awk -v m="$ms" "BEGIN { print 2 * m }")" 0.99 1.01 && [ "$(val "$tmp/two" cpu_sys_s)" = 0.000000 ]'
check "threads.csv: each thread's CPU time, summing to summary.csv's" \
	'within "$(cpu_s "$tmp/two")" "$u" 0.999 1.001 &&
	 awk -F, -v m="$ms" "NR > 1 && (\$8 < 0.98 * m || \$8 > 1.02 * m) { exit 1 }" "$tmp/two/threads.csv"'

# Four spinning threads on two CPUs: two run at a time; a queued thread's
# wait is no CPU time, so the four share two CPUs' worth.
sim four -l ticket -w counter -t 4 -d 0.02 --warmup 0.005 --sim here --sim-cpus 2
ms=$(val "$tmp/four" measured_s) u=$(val "$tmp/four" cpu_user_s)
check "ticket, 4 threads on 2 CPUs: user $u s, 2 CPUs x measured ($ms s) within 3%, not 4" \
	'within "$u" "$(awk -v m="$ms" "BEGIN { print 2 * m }")" 0.97 1.01'

# Kernel semantics: lock to unlock is a kernel section, its time sys; the
# gap user.  kmutex-fix sleeps: its sleepers' time is no CPU time.
sim k -l kmutex-fix -w creat -t 16 -d 0.02 --warmup 0 --sim here --sim-cpus 16
ms=$(val "$tmp/k" measured_s) u=$(val "$tmp/k" cpu_user_s) s=$(val "$tmp/k" cpu_sys_s)
w=$(val "$tmp/k" futex_waits)
check "kmutex-fix, creat, kernel semantics: user $u s and sys $s s both > 0" \
	'awk -v u="$u" -v s="$s" "BEGIN { exit !(u > 0 && s > 0) }"'
check "kmutex-fix: $w futex waits; the sleep left out: user + sys under 16 x measured ($ms s)" \
	'[ "$w" -gt 0 ] && awk -v u="$u" -v s="$s" -v m="$ms" "BEGIN { exit !(u + s > 0 && u + s < 0.99 * 16 * m) }"'
check "summary.csv: cpu_us_per_op = 1e6 (user + sys) / ops" \
	'within "$(val "$tmp/k" cpu_us_per_op)" "$(awk -v u="$u" -v s="$s" -v o="$(val "$tmp/k" ops)" "BEGIN { print 1e6 * (u + s) / o }")" 0.999 1.001'
