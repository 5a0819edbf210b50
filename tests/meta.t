#!/bin/sh
# meta.t — every result directory holds meta.csv: key,value lines, one comma
# each, every documented key with a value; the placement it records is the
# one threads.csv shows; bad --lock-node / --pin values are usage errors.
LB=${LOCKBENCH:-bench/lockbench}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/tap.sh"
value() { awk -F, -v k="$1" '$1 == k { sub(/^[^,]*,/, ""); print; exit }' "$2"; }

KEYS="format date_utc lockbench_commit lockbench_build_id cmdline hostname os kernel_release kernel_version arch glibc
cpufreq_governor cpufreq_driver boost smt_control smt_active hwloc_version topology_packages
topology_numa_nodes topology_cores topology_pus topology_pus_usable cpus_usable numa
cpu_vendor cpu_brand cpu_codename cpu_family cpu_model cpu_stepping cpu_cores_per_package
cpu_threads_per_package cpu_threads_total cache_l1d_kib cache_l1i_kib cache_l2_kib cache_l3_kib
hypervisor libcpuid_version tsc tsc_invariant tsc_rdtscp tsc_hz_calibrated tsc_calibration_s
tsc_hz_libcpuid tsc_hz_diff_pct tsc_hz_libcpuid_source cpu_mhz_os clocksource tsc_skew_status
tsc_skew_cpus tsc_skew_pairs tsc_skew_ref_cpu tsc_skew_rounds tsc_skew_bound_cycles
tsc_skew_worst_cpu tsc_skew_worst_offset_cycles tsc_skew_backwards_pairs
tsc_skew_backwards_max_cycles tsc_skew_s pin pin_order pin_order_len lock_node_requested lock_node
probe_s workload_dir workload_dir_fs workload_dir_fs_magic workload_dir_mount_source
workload_dir_mount_point noise_interval_s noise_other_cpu_pct noise_steal_pct
noise_cpu_pressure_pct noise_io_pressure_pct noise_memory_pressure_pct noise_loadavg_1m noise_procs_running noise_csw_involuntary
noise_csw_involuntary_per_s noise_cpu_mhz_begin noise_cpu_mhz_end noise_thermal_throttle
noise_temp_c_max noise_busy simulated sim_profile sim_cpus sim_seed sim_semantics sim_acq_per_op warnings
kernel_config kernel_mutex_spin_on_owner kernel_preempt kernel_preempt_source kernel_hypervisor
cpuid_hypervisor kernel_vcpu_is_preempted kernel_vcpu_is_preempted_why"
NOISE_NUMBERS="noise_interval_s noise_other_cpu_pct noise_steal_pct noise_cpu_pressure_pct noise_io_pressure_pct
noise_memory_pressure_pct noise_loadavg_1m
noise_procs_running noise_csw_involuntary noise_csw_involuntary_per_s noise_cpu_mhz_begin noise_cpu_mhz_end
noise_thermal_throttle noise_temp_c_max"

echo "1..23"
"$LB" -l ticket -t 3 -d 0.05 --warmup 0 --quiet -o "$tmp/r" >"$tmp/out" 2>"$tmp/err"
check "a run writes meta.csv" '[ $? -eq 0 ] && [ -s "$tmp/r/meta.csv" ]'
m=$tmp/r/meta.csv
check "header is key,value" '[ "$(head -n 1 "$m")" = "key,value" ]'
check "every line has exactly one comma" '[ -z "$(awk -F, "NF != 2" "$m")" ]'
check "no key twice" '[ -z "$(cut -d, -f1 "$m" | sort | uniq -d)" ]'
missing=""
for k in $KEYS; do
	[ -n "$(value "$k" "$m")" ] || missing="$missing $k"
done
check "every documented key has a value${missing:+ (missing:$missing)}" '[ -z "$missing" ]'
check "format is lockbench-meta-1" '[ "$(value format "$m")" = lockbench-meta-1 ]'
check "date is ISO 8601 UTC" \
	'value date_utc "$m" | grep -Eq "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$"'
check "commit is a short hash (maybe -dirty) or unknown" \
	'value lockbench_commit "$m" | grep -Eq "^([0-9a-f]{4,40}(-dirty)?|unknown)$"'
# The binary's identity: the build ID its ELF notes hold (readelf's, where readelf is).
id=$(value lockbench_build_id "$m")
elf=$(readelf -n "$LB" 2>/dev/null | awk '/Build ID:/ { print $3; exit }')
check "build ID is the binary's own ($id; readelf: ${elf:-none})" \
	'echo "$id" | grep -Eq "^[0-9a-f]{16,64}$" && { [ -z "$elf" ] || [ "$id" = "$elf" ]; }'
check "calibrated TSC rate is a positive integer" \
	'value tsc_hz_calibrated "$m" | grep -Eq "^[1-9][0-9]{7,}$"'
# The machine's noise over the measured interval: numbers where exposed.
bad=""
for k in $NOISE_NUMBERS; do
	value "$k" "$m" | grep -Eqx '[0-9]+(\.[0-9]+)?|unavailable' || bad="$bad $k=$(value "$k" "$m")"
done
check "noise keys are numbers or unavailable${bad:+ (not:$bad)}" '[ -z "$bad" ]'
measured=$(awk -F, '$1 == "measured_s" { print $2 }' "$tmp/r/summary.csv")
check "noise covers the measured interval ($(value noise_interval_s "$m") s of $measured s) and says if it was busy" \
	'awk -v a="$(value noise_interval_s "$m")" -v b="$measured" "BEGIN { exit !(a - b < 0.05 && b - a < 0.05) }" &&
	 value noise_busy "$m" | grep -Eq "^(no|unknown|yes: (other processes [0-9.]+% of the CPU time; steal [0-9.]+%; )?I/O pressure ([0-9.]+%|unavailable))$"'
warn_lines=$(grep -c '^warning_[0-9]*,' "$m")
check "warnings counts the warning_N lines ($warn_lines)" '[ "$(value warnings "$m")" = "$warn_lines" ]'

# The workload directory's file system, as findmnt(8) and stat -f see it:
# counter has no directory; creat's is --dir's.
check "a workload without a directory records - for workload_dir*" \
	'[ "$(grep "^workload_dir" "$m" | cut -d, -f2 | sort -u)" = "-" ] && [ "$(grep -c "^workload_dir" "$m")" -eq 5 ]'
dir_keys_match() { # DIR: a creat run in DIR records DIR, its file system and mount
	"$LB" -l pthread -w creat -t 2 -d 0.02 --warmup 0 --quiet --dir "$1" -o "$tmp/d" >/dev/null 2>&1 || return 1
	want="$1,$(findmnt -n -o FSTYPE,SOURCE,TARGET --target "$1" | tail -n 1 | awk '{ print $1 "," $2 "," $3 }'),0x$(stat -f -c %t "$1")"
	got=$(for k in "" _fs _mount_source _mount_point _fs_magic; do value "workload_dir$k" "$tmp/d/meta.csv"; done | paste -sd,)
	rm -rf "$tmp/d"
	[ "$got" = "$want" ] || { echo "# $1: meta.csv says $got; findmnt and stat -f say $want"; return 1; }
}
if [ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ] && command -v findmnt >/dev/null; then
	check "a creat run on /dev/shm records tmpfs, its source and mount point" 'dir_keys_match /dev/shm'
else
	ok "# skip no tmpfs at /dev/shm (or no findmnt)"
fi
disk=""
for d in "$PWD" "$HOME" /var/tmp /; do
	[ -d "$d" ] && [ -w "$d" ] && [ "$(stat -f -c %T "$d" 2>/dev/null)" != tmpfs ] && { disk=$d; break; }
done
if [ -n "$disk" ] && command -v findmnt >/dev/null; then
	check "a creat run in $disk, off tmpfs, records its file system, source and mount point" 'dir_keys_match "$disk"'
else
	ok "# skip no writable directory off tmpfs (or no findmnt)"
fi
mkdir -p "$tmp/a,b"
"$LB" -l pthread -w creat -t 1 -d 0.02 --warmup 0 --quiet --dir "$tmp/a,b" -o "$tmp/e" >/dev/null 2>&1
check "workload_dir is the directory, percent-encoded as cmdline is" \
	'[ "$(value workload_dir "$tmp/e/meta.csv")" = "$tmp/a%2Cb" ]'

# What decides the kernel mutex's behaviour: words from a fixed set, and
# what the machine's own config and kernel log say where they can be read.
bad=""
value kernel_mutex_spin_on_owner "$m" | grep -Eqx 'y|n|unknown' || bad="$bad spin_on_owner"
value kernel_preempt "$m" | grep -Eqx 'none|voluntary|full|lazy|rt|unknown' || bad="$bad preempt"
value kernel_vcpu_is_preempted "$m" | grep -Eqx 'yes|no|unknown' || bad="$bad vcpu_is_preempted"
check "kernel_mutex_spin_on_owner, kernel_preempt, kernel_vcpu_is_preempted are words of their sets${bad:+ (not:$bad)}" \
	'[ -z "$bad" ]'
want_spin="" want_preempt=""
if zcat /proc/config.gz >"$tmp/config" 2>/dev/null && [ "$(value kernel_config "$m")" = /proc/config.gz ]; then
	want_spin=$(sed -n 's/^CONFIG_MUTEX_SPIN_ON_OWNER=//p' "$tmp/config")
	want_spin=${want_spin:-n}
fi
if dmesg 2>/dev/null | grep -q 'Dynamic Preempt: '; then
	want_preempt=$(dmesg | sed -n 's/.*Dynamic Preempt: \([a-z]*\).*/\1/p' | tail -n 1)
fi
check "they agree with /proc/config.gz (${want_spin:-not read}) and the kernel log (${want_preempt:-no line})" \
	'{ [ -z "$want_spin" ] || [ "$(value kernel_mutex_spin_on_owner "$m")" = "$want_spin" ]; } &&
	 { [ -z "$want_preempt" ] || [ "$(value kernel_preempt "$m")" = "$want_preempt" ]; }'

# Thread i ran on entry i mod n of the recorded order.
order=$(value pin_order "$m")
bad=$(awk -F, -v order="$order" 'BEGIN { n = split(order, o, " ") }
	NR > 1 && $2 != o[($1 % n) + 1] { print "thread " $1 " on " $2 }' "$tmp/r/threads.csv")
check "threads.csv follows pin_order '$order'${bad:+ ($bad)}" '[ -n "$order" ] && [ -z "$bad" ]'

# A command line with a comma survives the trip: %2C in meta.csv.
first=$(value cpus_usable "$m" | sed 's/[- ].*//')
"$LB" -l ticket -t 2 -d 0.02 --warmup 0 --quiet --pin "list:$first,$first" -o "$tmp/c" >/dev/null 2>&1
decoded=$(value cmdline "$tmp/c/meta.csv" | sed 's/%2C/,/g; s/%0A/\n/g; s/%25/%/g')
check "cmdline decodes to cmdline.txt" '[ -n "$decoded" ] && [ "$decoded" = "$(cat "$tmp/c/cmdline.txt")" ]'

"$LB" -t 1 -d 0.01 --lock-node 4095 -o "$tmp/bad" >/dev/null 2>"$tmp/err"
check "an unusable --lock-node is a one-line usage error" \
	'[ $? -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q -- "--lock-node 4095" "$tmp/err" && [ ! -e "$tmp/bad" ]'
"$LB" -t 1 -d 0.01 --pin list:0-x >/dev/null 2>"$tmp/err"
check "a bad CPU list is a one-line usage error" \
	'[ $? -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "not a CPU list" "$tmp/err"'
