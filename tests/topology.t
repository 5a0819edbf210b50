#!/bin/sh
# topology.t — `lockbench --topology` shows this machine and each policy's
# order, and a synthetic two-socket box from tests/ with the orders the
# README gives for it.
LB=${LOCKBENCH:-bench/lockbench}
here=$(dirname "$0")
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/tap.sh"

echo "1..6"
"$LB" --topology >"$tmp/this" 2>"$tmp/err"
check "--topology exits 0, silent on stderr" '[ $? -eq 0 ] && [ ! -s "$tmp/err" ]'
check "it names this machine and counts its PUs" \
	'grep -q "^topology of this machine" "$tmp/this" && grep -Eq "[0-9]+ PU\(s\)" "$tmp/this"'
all_orders() { for p in cores compact scatter rr; do grep -Eq "^  $p +[0-9]" "$1" || return 1; done; }
check "it lists every policy's order" 'all_orders "$tmp/this"'

LOCKBENCH_TOPOLOGY_XML=$here/topo-2pack-smt.xml "$LB" --topology >"$tmp/smt" 2>&1
check "two sockets, SMT: compact/cores/scatter orders" \
	'grep -Eq "^  compact +0,4,1,5,2,6,3,7$" "$tmp/smt" && grep -Eq "^  cores +0,1,2,3,4,5,6,7 +\(default\)$" "$tmp/smt" &&
	 grep -Eq "^  scatter +0,2,1,3,4,6,5,7$" "$tmp/smt"'
LOCKBENCH_TOPOLOGY_XML=$here/topo-2pack-numa.xml "$LB" --topology >"$tmp/numa" 2>&1
check "two sockets, four NUMA nodes: scatter alternates sockets, then nodes" \
	'grep -q "4 NUMA node(s)" "$tmp/numa" && grep -Eq "^  scatter +0,4,2,6,1,5,3,7$" "$tmp/numa"'
LOCKBENCH_TOPOLOGY_XML=$tmp/none.xml "$LB" --topology >/dev/null 2>"$tmp/err"
check "a missing XML is one line on stderr and exit 1" \
	'[ $? -eq 1 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "none.xml" "$tmp/err"'
