#!/bin/sh
# registry.t — a workload added by the documented recipe (bench/workloads/<name>.c
# and one line of bench/workloads/workloads.def, nothing else), and a program
# added by one line of bench/exec/programs.def, are ones run-all plans: their
# role and -d come to run-all through `lockbench --list`'s plan: section
# (scripts/registry.sh), not from a list in run-all.  Built in a copy of the
# tree, with the objects of this one so that little is compiled anew.
top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d) || exit 1
pid=""
trap '[ -z "$pid" ] || kill "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT
. "$(dirname "$0")/tap.sh"

# The copy builds with the plain flags: a sanitizer's objects are not these.
if [ -n "${SANITIZER:-}" ]; then
	echo "1..0 # skip builds a plain lockbench: make test checks it"
	exit 0
fi
echo "1..9"

src=$tmp/src
mkdir -p "$src/build"
cp -a "$top/Makefile" "$top/bench" "$top/locks" "$top/common" "$top/scripts" "$top/sim" "$src/"
mkdir -p "$src/tests" && cp -a "$top/tests/locks" "$src/tests/"
for d in bench locks common bpf sim; do
	[ ! -d "$top/build/$d" ] || cp -a "$top/build/$d" "$src/build/"
done
rm -f "$src/bench/lockbench"

# The recipe: one file ending in one workload_ops, one registry line.
cat >"$src/bench/workloads/spin2.c" <<'C'
#include "workload.h"

static int spin2_op(struct bench_thread *t)
{
	bench_lock(t);
	bench_unlock(t);
	return WL_OP_DONE;
}

const struct workload_ops workload_ops_spin2 = {
	.name = "spin2",
	.description = "lock; unlock (registry.t's workload)",
	.unit = "ops",
	.op = spin2_op,
};
C
echo 'WORKLOAD(spin2, WL_SWEEP, 3, 0.25)' >>"$src/bench/workloads/workloads.def"
# A program is one line of bench/exec/programs.def: seq prints 1..{threads}.
echo 'PROGRAM("seq2", PG_PATCH, 2, 0.5, n, lower, "^([0-9]+)$", "seq {threads}")' >>"$src/bench/exec/programs.def"

lb=$src/bench/lockbench
start=$(date +%s)
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -j2 -C "$src" bench/lockbench >"$tmp/make.out" 2>&1
echo "# make bench/lockbench in the copy took $(($(date +%s) - start)) s"
check "the copy with the new workload builds" '[ -x "$lb" ]' || sed 's/^/# /' "$tmp/make.out"
check "--list shows its run-all role and durations" \
	'"$lb" --list | grep -qx "  workload spin2 sweep 3 0.25"'
check "--list states its unit per second and no kernel lock (the defaults), as summary.csv will" \
	'"$lb" --list | grep -qx "  unit spin2 ops s" && ! "$lb" --list | grep -q "meets-in-kernel spin2"'
check "--list shows the new program, its template, role and seconds" \
	'"$lb" --list | grep -qx "  program seq2 patch 2 0.5" && "$lb" --list | grep -Eqx "  seq2 +seq \{threads\}"'

# run-all from this tree with that lockbench: it writes plan.txt before the
# first run, which is all this looks at.  The library is this tree's.
out=$tmp/run
start=$(date +%s)
LOCKBENCH_EXEC_SO=$top/build/liblockbench-exec.so \
"$top/run-all" --quick --reps 1 --threads 1,2 --locks pthread,ticket --workloads spin2,seq2 \
	--lockbench "$lb" --out "$out" >"$tmp/run-all.out" 2>&1 &
pid=$!
i=0
while [ ! -s "$out/plan.txt" ] && [ $i -lt 600 ] && kill -0 $pid 2>/dev/null; do
	sleep 0.1
	i=$((i + 1))
done
kill $pid 2>/dev/null
wait $pid 2>/dev/null
pid=""
echo "# run-all's plan took $(($(date +%s) - start)) s"
check "run-all plans the new workload" '[ -s "$out/plan.txt" ]' || sed 's/^/# /' "$tmp/run-all.out"
check "its sweep: each lock at each thread count, with its quick -d" \
	'[ "$(grep -- " -w spin2 " "$out/plan.txt" | cut -d" " -f1 | sed "s/-r1$//" | sort | tr "\n" " ")" = "sweep-spin2-t1-pthread sweep-spin2-t1-ticket sweep-spin2-t2-pthread sweep-spin2-t2-ticket " ] &&
	 [ "$(grep -c -- "-w spin2 -t [12] -d 0.25 " "$out/plan.txt")" = 4 ]'
check "the new program: the patch table's pthread at each thread count, with its quick seconds" \
	'[ "$(grep -- " --program seq2 " "$out/plan.txt" | cut -d" " -f1 | sed "s/-r1$//" | sort | tr "\n" " ")" = "program-seq2-t1-pthread program-seq2-t2-pthread " ] &&
	 [ "$(grep -c -- " --exec --program seq2 -l pthread -t [12] -d 0.5 " "$out/plan.txt")" = 2 ]'
check "and nothing else" '[ -s "$out/plan.txt" ] && ! grep -v -- " -w spin2 " "$out/plan.txt" | grep -qv -- " --program seq2 "'

# The patch table (locks/registry.c) names locks of the registry, the
# baseline of every ratio first and the fix second.
. "$top/scripts/registry.sh"
"$lb" --list >"$tmp/list"
patch_table_ok() {
	locks=$(registry_names locks <"$tmp/list" | tr "\n" " ")
	patch=$(registry_plan patch-lock <"$tmp/list" | cut -d" " -f1 | tr "\n" " ")
	case $patch in "kmutex-spin kmutex-fix "*) ;; *) return 1 ;; esac
	for l in $patch; do in_list "$l" "$locks" || return 1; done
}
check "the patch table's locks are registry locks, kmutex-spin then kmutex-fix first" patch_table_ok
