#!/bin/sh
# workloads.t — the file workloads (creat, fserver) end to end: they print and
# write their figures, leave nothing in --dir, also when SIGINT/SIGTERM stops
# them (exit 130; fpos too), and a missing or unusable --dir is exit status 2.
# Every workload of the registry runs briefly and leaves --dir empty (fpos's
# own checks: fpos.t).
LB=${LOCKBENCH:-bench/lockbench}
tmp=$(mktemp -d) || exit 1
trap 'chmod -R u+rwx "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
. "$(dirname "$0")/tap.sh"
key() { awk -F, -v k="$2" '$1 == k { print $2 }' "$1/summary.csv"; }


# stopped NAME SIGNAL WORKLOAD: a long run, signalled after 0.5 s, exits 130 within
# 10 s with one line on stderr (besides the machine probe's warnings, which a
# loaded machine can cause) and leaves its --dir empty.
stopped() {
	name=$1 sig=$2 wl=$3 dir="$tmp/sig-$2-$3"
	mkdir "$dir"
	"$LB" -l futex -w "$wl" -t 8 -d 60 --dir "$dir" >"$tmp/out" 2>"$tmp/err" &
	pid=$!
	sleep 0.5
	made=$(ls -A "$dir")
	kill -"$sig" "$pid"
	i=0
	while kill -0 "$pid" 2>/dev/null && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	if kill -0 "$pid" 2>/dev/null; then
		kill -KILL "$pid"
		wait "$pid"
		not_ok "$name (still running 10 s after SIG$sig)"
		return
	fi
	wait "$pid"
	rc=$?
	lines=$(grep -vc '^lockbench: WARNING: ' "$tmp/err")
	if [ "$rc" -eq 130 ] && [ -n "$made" ] && empty "$dir" && [ "$lines" -eq 1 ] &&
	   grep -q "stopped by signal" "$tmp/err"; then
		ok "$name"
	else
		not_ok "$name (rc=$rc, made='$made', left='$(ls -A "$dir")', stderr: $(head -c 200 "$tmp/err"))"
	fi
}

. "$(dirname "$0")/../scripts/registry.sh"
all=$("$LB" --list | registry_names workloads)
echo "1..$((26 + 2 * $(echo "$all" | wc -l)))"

"$LB" --list >"$tmp/list" 2>&1
check "--list shows creat and fserver" 'grep -q "^  creat " "$tmp/list" && grep -q "^  fserver " "$tmp/list"'
# Each of these four's lines (a workload added later brings its own).
registry_plan unit <"$tmp/list" >"$tmp/units"
registry_plan meets-in-kernel <"$tmp/list" >"$tmp/meets"
check "--list's plan: fserver's jobs per minute, the others' ops per second; creat, fserver and fpos meet in the kernel" \
	'grep -qx "counter ops s" "$tmp/units" && grep -qx "creat ops s" "$tmp/units" &&
	 grep -qx "fserver jobs min" "$tmp/units" && grep -qx "fpos ops s" "$tmp/units" &&
	 ! grep -qx counter "$tmp/meets" && grep -qx creat "$tmp/meets" && grep -qx fserver "$tmp/meets" &&
	 grep -qx fpos "$tmp/meets"'

mkdir "$tmp/c"
"$LB" -l futex -w creat -t 4 -d 0.3 --warmup 0.05 --dir "$tmp/c" -o "$tmp/rc" >"$tmp/out" 2>"$tmp/err"
rc=$?
check "creat runs (exit 0, nothing on stderr but the machine's warnings)" '[ $rc -eq 0 ] && ! grep -qv "^lockbench: WARNING: " "$tmp/err"'
check "creat prints ops/s and its histogram" 'grep -q "ops/s)" "$tmp/out" && grep -q "^@acq_cycles:" "$tmp/out"'
check "creat prints test-mutex's figures" \
	'grep -q "avg cost/op us" "$tmp/out" && grep -q "deviance/op us" "$tmp/out" && grep -q "cpu util %" "$tmp/out"'
check "creat summary.csv has the workload keys" \
	'[ -n "$(key "$tmp/rc" op_cost_us_mean)" ] && [ -n "$(key "$tmp/rc" op_deviance_us_mean)" ] && [ -n "$(key "$tmp/rc" cpu_utilisation_pct)" ]'
check "creat: files created = removed = operations" \
	'[ "$(key "$tmp/rc" files_created)" = "$(key "$tmp/rc" ops_all)" ] && [ "$(key "$tmp/rc" files_removed)" = "$(key "$tmp/rc" ops_all)" ]'
check "creat leaves --dir empty" 'empty "$tmp/c"'

mkdir "$tmp/f"
"$LB" -l pthread -w fserver -t 4 -d 0.5 --warmup 0.05 --dir "$tmp/f" -o "$tmp/rf" >"$tmp/out" 2>"$tmp/err"
rc=$?
check "fserver runs (exit 0, nothing on stderr)" '[ $rc -eq 0 ] && [ ! -s "$tmp/err" ]'
check "fserver prints jobs/min and its histogram" \
	'grep -q "jobs/s)" "$tmp/out" && grep -q "jobs/min" "$tmp/out" && grep -q "^@acq_cycles:" "$tmp/out"'
check "fserver summary.csv: unit jobs, jobs_per_min = 60 x ops_per_s" \
	'[ "$(key "$tmp/rf" unit)" = jobs ] && awk -v j="$(key "$tmp/rf" jobs_per_min)" -v o="$(key "$tmp/rf" ops_per_s)" "BEGIN { d = j - 60 * o; exit !(d < 0.1 && d > -0.1) }"'
check "fserver summary.csv declares its metrics after their values (results/README.md)" \
	'grep -A3 "^job_ms_mean," "$tmp/rf/summary.csv" | tr "\n" " " |
	 grep -q "sense_of_job_ms_mean,time unit_of_job_ms_mean,ms title_of_job_ms_mean,avg job ms" &&
	 [ "$(key "$tmp/rf" sense_of_acq_per_job)" = count ] && [ "$(key "$tmp/rf" sense_of_jobs_per_min)" = rate ]'
check "fserver: names made = removed = jobs x names per job" \
	'[ "$(key "$tmp/rf" files_created)" -eq $(( $(key "$tmp/rf" ops_all) * $(key "$tmp/rf" names_per_job) )) ] && [ "$(key "$tmp/rf" files_removed)" = "$(key "$tmp/rf" files_created)" ]'
check "fserver leaves --dir empty" 'empty "$tmp/f"'
check "fserver summary.csv records its options' defaults (--file-size 4096, --pool-size 16)" \
	'[ "$(key "$tmp/rf" file_size_bytes)" = 4096 ] && [ "$(key "$tmp/rf" pool_size_files)" = 16 ]'
"$LB" -l pthread -w fserver -t 1 -d 0.05 --warmup 0 --file-size 2048 --dir "$tmp/f" --pool-size 3 --quiet \
	-o "$tmp/rf2" 2>"$tmp/err"
check "fserver --file-size 2048 --pool-size 3: run, recorded in summary.csv, --dir left empty" \
	'[ $? -eq 0 ] && [ "$(key "$tmp/rf2" file_size_bytes)" = 2048 ] && [ "$(key "$tmp/rf2" pool_size_files)" = 3 ] && empty "$tmp/f"'

stopped "creat: SIGINT exits 130 and leaves nothing" INT creat
stopped "fserver: SIGINT exits 130 and leaves nothing" INT fserver
stopped "creat: SIGTERM exits 130 and leaves nothing" TERM creat
stopped "fpos: SIGINT exits 130 and leaves nothing" INT fpos

# Every workload the registry lists (a new one included), briefly.  (On a
# loaded machine the machine probe may warn on stderr that its cross-CPU TSC
# check was cut short: a warning, not a failure.)
mkdir "$tmp/all"
check "the registry lists fpos" 'echo "$all" | grep -qx fpos'
for w in $all; do
	"$LB" -l pthread -w "$w" -t 2 -d 0.05 --warmup 0 --dir "$tmp/all" --quiet -o "$tmp/all-$w" 2>"$tmp/err"
	check "registry workload $w runs under pthread and leaves --dir empty" \
		'[ $? -eq 0 ] && ! grep -qv "^lockbench: WARNING: " "$tmp/err" && [ -s "$tmp/all-$w/summary.csv" ] &&
		 empty "$tmp/all"'
	[ ! -s "$tmp/err" ] || sed 's/^/# /' "$tmp/err"
	# The registry's facts about it, as --list's plan: says them and as its
	# summary.csv writes them: the same.
	rate=$(registry_plan unit <"$tmp/list" | awk -v w="$w" '$1 == w { print $2 "/" $3 }')
	meets=0
	registry_plan meets-in-kernel <"$tmp/list" | grep -qx "$w" && meets=1
	check "registry workload $w: summary.csv's rate_unit ($rate) and meets_in_kernel ($meets) are --list's" \
		'[ -n "$rate" ] && [ "$(key "$tmp/all-$w" rate_unit)" = "$rate" ] &&
		 [ "$(key "$tmp/all-$w" meets_in_kernel)" = "$meets" ]'
done

usage_error "--dir missing" "--dir: '$tmp/missing': No such file or directory" -w creat -t 1 -d 0.1 --dir "$tmp/missing"
: >"$tmp/plain"
usage_error "--dir is a file" "Not a directory" -w fserver -t 1 -d 0.1 --dir "$tmp/plain"
had_tmpdir=${TMPDIR+set} old_tmpdir=${TMPDIR-}
TMPDIR="$tmp/missing"
export TMPDIR
usage_error "\$TMPDIR missing, no --dir" "\$TMPDIR: '$tmp/missing'" -w creat -t 1 -d 0.1
if [ -n "$had_tmpdir" ]; then TMPDIR=$old_tmpdir; else unset TMPDIR; fi
if [ "$(id -u)" -eq 0 ]; then
	ok "--dir unwritable # SKIP root writes anywhere (test_workloads injects EACCES instead)"
else
	mkdir "$tmp/ro" && chmod 555 "$tmp/ro"
	usage_error "--dir unwritable" "Permission denied" -w creat -t 1 -d 0.1 --dir "$tmp/ro"
fi
usage_error "fserver pool larger than half the free space" "--pool-size x --file-size" \
	-w fserver -t 1 -d 0.1 --dir "$tmp/f" --pool-size 65536 --file-size 1073741824
