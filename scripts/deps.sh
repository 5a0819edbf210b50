#!/bin/sh
# deps.sh [fuzz] — installs the Debian packages lockbench needs when any is
# missing: with apt-get when run as root, otherwise prints the exact command to
# run.  `fuzz` adds clang and its libFuzzer/sanitizer runtimes.
set -eu

# clang, bpftool, libbpf-dev, libelf-dev and zlib1g-dev build the BPF layer
# (the kmutex models' sched oracle); lockbench builds without them too.
# libdw-dev symbolizes --exec's mutexes.csv call sites; sysbench is the first
# real program --exec runs (tests/exec-run.t, make bench, docs/exec.md).
PACKAGES="build-essential pkg-config libhwloc-dev libnuma-dev libcpuid-dev libcmocka-dev libck-dev gnuplot-nox hwloc perl
	clang bpftool libbpf-dev libelf-dev zlib1g-dev libdw-dev sysbench"
[ "${1:-}" = fuzz ] && PACKAGES="$PACKAGES clang libclang-rt-14-dev"

missing=""
for p in $PACKAGES; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
	echo "deps.sh: missing Debian packages:$missing" >&2
	echo "deps.sh: run: sudo apt-get update && sudo apt-get install -y$missing" >&2
	exit 1
fi
echo "deps.sh: installing:$missing" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq $missing >/dev/null
