#!/bin/sh
# kernel-locks-progcost.sh [LOCKBENCH] -- LOCKBENCH-ARGS... — what the
# --kernel-locks BPF programs themselves cost per call: one run of
# `lockbench LOCKBENCH-ARGS --kernel-locks` with the kernel's BPF statistics
# on (sysctl kernel.bpf_stats_enabled, restored after), its two programs'
# run_time_ns / run_cnt read from bpftool while it runs (the last reading
# before they unload).  Root only.
#
# run_cnt counts every call of the tracepoints in the system: other
# processes' contentions too (a tgid compare each), so the script prints the
# run's own waits beside it (kernel_contentions: one end each; a mutex wait
# that spun then slept begins two or more times).
#
#   scripts/kernel-locks-progcost.sh -- -l LOCK -w WORKLOAD -t 16 -d 3
#   (e.g. `lockbench --list`'s kernel-baseline lock on a meets-in-kernel
#   workload: only the kernel's lock waits)
set -u
LB=bench/lockbench
if [ $# -gt 0 ] && [ "$1" != "--" ]; then LB=$1; shift; fi
[ "${1:-}" = "--" ] && shift
command -v bpftool >/dev/null || { echo "kernel-locks-progcost: needs bpftool" >&2; exit 2; }
old=$(sysctl -n kernel.bpf_stats_enabled 2>/dev/null) || { echo "kernel-locks-progcost: no kernel.bpf_stats_enabled" >&2; exit 2; }
tmp=$(mktemp -d) || exit 1
trap 'sysctl -qw kernel.bpf_stats_enabled="$old"; rm -rf "$tmp"' EXIT
sysctl -qw kernel.bpf_stats_enabled=1 || exit 2

# ids NAME: the ids of the loaded programs called NAME.
ids() { bpftool prog show 2>/dev/null | awk -v n="$1" '$0 ~ " name " n " " { sub(":", "", $1); print $1 }'; }
# stats ID: "run_time_ns run_cnt" of program ID, nothing once it is gone.
stats() {
	bpftool prog show id "$1" 2>/dev/null |
		awk '{ for (i = 1; i < NF; i++) { if ($i == "run_time_ns") t = $(i + 1); if ($i == "run_cnt") c = $(i + 1) } }
		     END { if (c != "") print t + 0, c + 0 }'
}

ids on_begin >"$tmp/before"
ids on_end >>"$tmp/before"
"$LB" "$@" --kernel-locks --quiet -o "$tmp/r" 2>"$tmp/err" &
pid=$!
begin="" end=""
while kill -0 "$pid" 2>/dev/null; do
	if [ -z "$begin" ]; then
		new_begin=$(ids on_begin | grep -vxF -f "$tmp/before")
		new_end=$(ids on_end | grep -vxF -f "$tmp/before")
		if [ "$(echo "$new_begin" | grep -c .)" -eq 1 ] && [ "$(echo "$new_end" | grep -c .)" -eq 1 ]; then
			begin=$new_begin end=$new_end
		fi
	fi
	if [ -n "$begin" ]; then
		s=$(stats "$begin") && [ -n "$s" ] && echo "$s" >"$tmp/begin"
		s=$(stats "$end") && [ -n "$s" ] && echo "$s" >"$tmp/end"
	fi
	sleep 0.05
done
wait "$pid" || { echo "kernel-locks-progcost: lockbench failed: $(cat "$tmp/err")" >&2; exit 1; }
if [ ! -s "$tmp/begin" ] || [ ! -s "$tmp/end" ]; then
	echo "kernel-locks-progcost: could not tell this run's programs apart (another capture loaded meanwhile?)" >&2
	exit 1
fi
waits=$(awk -F, '$1 == "kernel_contentions" { print $2 }' "$tmp/r/summary.csv")
read -r bt bc <"$tmp/begin"
read -r et ec <"$tmp/end"
awk -v bt="$bt" -v bc="$bc" -v et="$et" -v ec="$ec" -v w="$waits" -v args="$*" 'BEGIN {
	printf "lockbench %s --kernel-locks: %d waits of its own\n", args, w
	printf "  contention_begin: %d calls, %.2f us each (%.3f s in all)\n", bc, bc ? bt / bc / 1000 : 0, bt / 1e9
	printf "  contention_end:   %d calls, %.2f us each (%.3f s in all)\n", ec, ec ? et / ec / 1000 : 0, et / 1e9
}'
