#!/bin/sh
# run-all-roles.t — run-all plans a lock by its roles (locks/locks.def's
# column and roles, which lockbench --plan variants reads from the registry),
# never by its name: the roles build (build/tests/lockbench-roles, its
# registry tests/registry-roles.c) gives the NUMA-only role to ttas instead
# of ck-cohort, the programs' baseline to kmutex-fix instead of pthread, and
# the Concurrency Kit role to tas instead of ck-mcs; run-all with it gets a
# plan that sweeps ck-cohort and not ttas on one NUMA node, runs each program
# under kmutex-fix first, and whose --quick sweep leaves out tas and keeps
# ck-mcs.  Only the plan is looked at: run-all is stopped once it has said
# how many runs it plans.
top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d) || exit 1
pid=""
trap '[ -z "$pid" ] || kill -TERM -- -"$pid" 2>/dev/null; rm -rf "$tmp"' EXIT
. "$(dirname "$0")/tap.sh"
LB=${LOCKBENCH:-$top/bench/lockbench}
case $LB in /*) ;; *) LB=$PWD/$LB ;; esac
export LOCKBENCH_EXEC_SO="${LOCKBENCH_EXEC_SO:-$top/build/liblockbench-exec.so}"
echo "1..7"

# The lockbench with other roles: the real one's but for its registry's roles.
RLB=${LOCKBENCH_ROLES:-$top/build/tests/lockbench-roles}
case $RLB in /*) ;; *) RLB=$PWD/$RLB ;; esac
[ -x "$RLB" ] || { echo "Bail out! no roles build at $RLB (make $top/build/tests/lockbench-roles)"; exit 1; }
check "the real registry gives the roles this test moves, the roles build the moved ones" \
	'"$LB" --list | grep -qx "  numa-only ck-cohort" && "$LB" --list | grep -qx "  program-baseline pthread" &&
	"$LB" --list | grep -qx "  concurrency-kit ck-mcs" && ! "$LB" --list | grep -qx "  concurrency-kit tas" &&
	"$RLB" --list | grep -qx "  numa-only ttas" && ! "$RLB" --list | grep -qx "  numa-only ck-cohort" &&
	"$RLB" --list | grep -qx "  program-baseline kmutex-fix" && "$RLB" --list | grep -qx "  concurrency-kit tas" &&
	! "$RLB" --list | grep -qx "  concurrency-kit ck-mcs"'

# plan NAME ARGS...: run-all's variants.txt for ARGS into $tmp/NAME.variants,
# run-all stopped once it has printed the plan's size (before any real run).
plan() {
	name=$1
	shift
	setsid "$top/run-all" --lockbench "$RLB" --out "$tmp/$name" --order-seed 7 --reps 1 "$@" >"$tmp/$name.out" 2>&1 &
	pid=$!
	i=0
	while ! grep -q 'runs in' "$tmp/$name.out" && kill -0 "$pid" 2>/dev/null && [ $i -lt 1800 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	cat "$tmp/$name"/.run-all-*/variants.txt >"$tmp/$name.variants" 2>/dev/null
	kill -TERM -- -"$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	pid=""
}

nodes=$("$LB" --topology 2>/dev/null | sed -n 's/.* \([0-9][0-9]*\) NUMA node(s).*/\1/p' | head -n 1)
plan sweep --no-sim --workloads counter --threads 1,2
if [ "${nodes:-1}" -lt 2 ]; then
	check "one NUMA node: the NUMA-only lock (ttas here) is not swept ($(head -c 200 "$tmp/sweep.out"))" \
		'[ -s "$tmp/sweep.variants" ] && ! grep -q " -l ttas " "$tmp/sweep.variants"'
	check "... and ck-cohort, without the role, is" 'grep -q "^sweep-counter-t2-ck-cohort " "$tmp/sweep.variants"'
else
	ok "# skip $nodes NUMA nodes: run-all sweeps every lock"
	ok "# skip $nodes NUMA nodes: run-all sweeps every lock"
fi

if command -v sysbench >/dev/null 2>&1; then
	plan prog --no-sim --workloads sysbench-mutex --threads 2
	check "a program's first lock is the programs' baseline, kmutex-fix here ($(head -c 200 "$tmp/prog.out"))" \
		'[ "$(grep -m 1 "^program-" "$tmp/prog.variants" | sed "s/.* -l \([^ ]*\) .*/\1/")" = kmutex-fix ]'
	check "... then the patch table's other locks that exclude in column order, pthread, without the role, among them" \
		'[ "$(grep "^program-" "$tmp/prog.variants" | sed "s/.* -l \([^ ]*\) .*/\1/" | tr "\n" " ")" = \
		   "kmutex-fix kmutex-spin kmutex-sleep kmutex-mcs kmutex-osq kmutex-handoff pthread " ]'
else
	ok "# skip sysbench not installed (scripts/deps.sh installs it)"
	ok "# skip sysbench not installed (scripts/deps.sh installs it)"
fi

# --quick's sweep leaves out the locks with the Concurrency Kit role (and the
# patch table's), by the role, not by a lock's name or its description.
plan quick --quick --no-sim --workloads counter
check "--quick: the Concurrency Kit role's lock (tas here) is not swept ($(head -c 200 "$tmp/quick.out"))" \
	'grep -q "^sweep-counter-" "$tmp/quick.variants" && ! grep -q "^sweep-counter-t[0-9]*-tas " "$tmp/quick.variants"'
check "... and ck-mcs, without the role, is" 'grep -q "^sweep-counter-t[0-9]*-ck-mcs " "$tmp/quick.variants"'
