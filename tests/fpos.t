#!/bin/sh
# fpos.t — the fpos workload end to end: --list and --help show it and its
# --read-size, a run records the read size in summary.csv and leaves --dir
# empty; without a userspace lock (-l none --kernel-locks) the threads wait in
# the kernel on a mutex (the file's f_pos_lock, taken in fdget_pos) and
# lbcompare names that row `kernel X.Y mutex`; with pthread around the read
# the kernel's mutex is barely contended; kmutex-handoff runs with the sched
# oracle.  Checks that need BPF are skipped, saying why, where it cannot load.
# Bad --read-size values are rows of bad-options.tsv (cli.t).
LB=${LOCKBENCH:-bench/lockbench}
CMP=${LBCOMPARE:-analysis/lbcompare}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/tap.sh"

echo "1..14"

"$LB" --list >"$tmp/list" 2>&1
check "--list shows fpos among the workloads" \
	'sed -n "/^workloads:/,/^[a-z]*:$/p" "$tmp/list" | grep -q "^  fpos .*f_pos_lock"'
check "--list shows fpos's option under options:" \
	'sed -n "/^options:/,/^plan:$/p" "$tmp/list" | grep -A1 "^  of workload fpos " | grep -q "^    --read-size BYTES$"'
"$LB" --help >"$tmp/help" 2>&1
check "--help shows --read-size as fpos's" 'grep -q "^      --read-size BYTES   fpos: " "$tmp/help"'

# --- a run: the read size in the summary and in summary.csv, --dir left empty ---
mkdir "$tmp/d"
"$LB" -l pthread -w fpos -t 4 -d 0.3 --warmup 0.05 --read-size 4096 --dir "$tmp/d" -o "$tmp/r" \
	>"$tmp/out" 2>"$tmp/err"
rc=$?
check "-w fpos --read-size 4096 runs (exit 0, nothing on stderr but the machine's warnings)" '[ $rc -eq 0 ] && ! grep -qv "^lockbench: WARNING: " "$tmp/err"'
check "the summary and summary.csv record the read size and the file's" \
	'grep -q "^  workload opts   read_size_bytes=4096 file_bytes=262144$" "$tmp/out" &&
	 [ "$(val "$tmp/r" read_size_bytes)" = 4096 ] && [ "$(val "$tmp/r" file_bytes)" = 262144 ]'
check "under a lock that excludes the lock's order is checked" '[ "$(val "$tmp/r" sequence_checked)" = 1 ]'
check "fpos leaves --dir empty" 'empty "$tmp/d"'
"$LB" --read-size 64 -w fpos -l futex -t 2 -d 0.05 --warmup 0 --dir "$tmp/d" --quiet -o "$tmp/r64" 2>"$tmp/err"
check "--read-size before -w fpos is taken (and 64 is recorded)" \
	'[ $? -eq 0 ] && [ "$(val "$tmp/r64" read_size_bytes)" = 64 ] && empty "$tmp/d"'

# --- the kernel's own mutex ---
capture_probe
if [ -z "$skip" ]; then
	"$LB" -l none -w fpos -t 8 -d 1 --kernel-locks --dir "$tmp/d" -o "$tmp/none" >"$tmp/none.out" 2>"$tmp/none.err"
	rc=$?
	"$LB" -l pthread -w fpos -t 8 -d 1 --kernel-locks --dir "$tmp/d" --quiet -o "$tmp/pthread" 2>"$tmp/pthread.err"
	prc=$?
	"$CMP" "$tmp/pthread" "$tmp/none" >"$tmp/table" 2>"$tmp/cmp.err"
	crc=$?
fi
mutex=$(val "$tmp/none" kernel_contentions_mutex 2>/dev/null)
# The type with the longest total wait, as lbcompare picks it.
top_type() { awk -F, '$1 ~ /^kernel_wait_cycles_sum_/ && $2 > max { max = $2; t = substr($1, 24) } END { print t }' "$1/summary.csv"; }
capture "-l none -w fpos -t 8 --kernel-locks: exit 0, $mutex waits on a mutex, the type waited on longest" \
	'[ $rc -eq 0 ] && [ ! -s "$tmp/none.err" ] && [ "${mutex:-0}" -gt 0 ] && [ "$(top_type "$tmp/none")" = mutex ]'
# The block lists every type waited on, in the kernel's type order (a few
# spinlock waits come before the mutex on some machines): the mutex is one.
capture "the summary's kernel block shows the mutex, and no lock order was checked" \
	'grep -Eq "^  kernel by type (.*,)? mutex [0-9]+ \(mean [0-9]+, max [0-9]+\)(,|$)" "$tmp/none.out" &&
	 [ "$(val "$tmp/none" sequence_checked)" = 0 ]'
# The caller is the first frame outside the lock code: fdget_pos (3.14 to
# 6.x; __fdget_pos in some), unless kallsyms was unreadable.
callers=$(awk -F, 'NR > 1 && $3 == "mutex" { print $13 }' "$tmp/none/kernel-locks.csv" 2>/dev/null | sort -u | tr '\n' ' ')
capture "its waits are in fdget_pos ($callers)" \
	'[ "$(val "$tmp/none" kernel_callers_note)" != - ] || { [ -n "$callers" ] && ! echo "$callers" | grep -qv "fdget_pos "; }'
pmutex=$(val "$tmp/pthread" kernel_contentions_mutex 2>/dev/null)
capture "with pthread around the read the kernel's mutex waits far less ($pmutex vs $mutex)" \
	'[ "$prc" -eq 0 ] && [ "${mutex:-0}" -ge 100 ] && [ $((${pmutex:-0} * 10)) -le "$mutex" ]'
capture "lbcompare names the none row 'kernel X.Y mutex'" \
	'[ "$crc" -eq 0 ] && grep -q "^kernel [0-9]*\.[0-9]* mutex  *[0-9]" "$tmp/table"'

# --- a model of the kernel mutex on the same work, with the sched oracle ---
why=$("$LB" -l kmutex-handoff --lock-opt oracle=sched -t 1 -d 0.01 --warmup 0 2>&1 >/dev/null)
if [ $? -eq 0 ]; then
	"$LB" -l kmutex-handoff -w fpos -t 8 -d 1 --dir "$tmp/d" --quiet -o "$tmp/km" 2>"$tmp/km.err"
	check "-l kmutex-handoff -w fpos -t 8 runs with the sched oracle" \
		'[ $? -eq 0 ] && [ "$(val "$tmp/km" oracle)" = sched ] && [ "$(val "$tmp/km" ops)" -gt 0 ] && empty "$tmp/d"'
else
	ok "-l kmutex-handoff -w fpos -t 8 runs with the sched oracle # skip sched oracle unavailable: ${why#lockbench: }"
fi
