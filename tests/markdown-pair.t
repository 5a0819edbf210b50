#!/bin/sh
# markdown-pair.t — report.md's patch pair is the one run-env names
# (PATCH_PAIR: the patch table's columns 1 and 2 in locks/locks.def, as
# run-all writes them), not a lock name in analysis/: a run-all directory
# made by hand around two real patch runs of two other locks, with run-env
# naming them, has its patch sentences on those locks; without the key (a
# directory from before it) the report takes its plan's patch table's first two.
LB=${LOCKBENCH:-bench/lockbench}
CMP=${LBCOMPARE:-analysis/lbcompare}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/tap.sh"
echo "1..11"

d=$tmp/dir
mkdir -p "$d/runs" "$d/logs" "$d/data" "$d/plots"
printf 'QUICK=0\nREPS=1\nORDER_SEED=7\nLOCKS=\nWORKLOADS=counter,creat\nTHREADS=\nDEFAULT_OUT=0\nSTARTED=2026-12-07T12:00:00Z\n' >"$d/settings"
printf 'NCPU=2\nNUMA_NODES=1\nALL_LOCKS=tas ticket kmutex-spin kmutex-fix\nALL_WORKLOADS=counter creat\nKL=\nKL_WHY=not root here\nKERNEL_WORKLOADS=\nNUMA_ONLY_LOCKS=\n' >"$d/run-env"
: >"$d/variants.txt"
: >"$d/plan.txt"
for lock in ticket tas; do
	v="patch-counter-t2-$lock"
	echo "$v -l $lock -w counter -t 2 -d 0.05 --warmup 0" >>"$d/variants.txt"
	echo "$v-r1 -l $lock -w counter -t 2 -d 0.05 --warmup 0 --seed 1" >>"$d/plan.txt"
	"$LB" -l $lock -w counter -t 2 -d 0.05 --warmup 0 --seed 1 --quiet -o "$d/runs/$v-r1" 2>"$d/logs/$v-r1.err" ||
		echo "Bail out! lockbench failed for $v-r1"
	v="sim-creat-t4-$lock"
	echo "$v -l $lock -w creat -t 4 -d 0.01 --warmup 0 --sim nehalem-ex-64 --sim-cpus 8" >>"$d/variants.txt"
	echo "$v-r1 -l $lock -w creat -t 4 -d 0.01 --warmup 0 --sim nehalem-ex-64 --sim-cpus 8 --sim-seed 1" >>"$d/plan.txt"
	"$LB" -l $lock -w creat -t 4 -d 0.01 --warmup 0 --sim nehalem-ex-64 --sim-cpus 8 --sim-seed 1 --quiet \
		-o "$d/runs/$v-r1" 2>"$d/logs/$v-r1.err" || echo "Bail out! lockbench failed for $v-r1"
done

# Without PATCH_PAIR (a directory from before the key): the first two
# locks of its plan's patch table, whatever their names, not a pair named in
# analysis/.
"$CMP" --markdown "$d" >"$tmp/old.md" 2>"$tmp/old.err"
rc=$?
check "a run-env without PATCH_PAIR loads (exit $rc, stderr empty)" "[ $rc -eq 0 ] && [ ! -s '$tmp/old.err' ]"
check "without PATCH_PAIR: the plan's first two patch locks, ticket -> tas" \
	"grep -qF 'compared 2.6.34 (\`ticket\`) with the fix (\`tas\`)' '$tmp/old.md' && ! grep -q 'kmutex-spin\\|kmutex-fix' '$tmp/old.md'"

# PATCH_PAIR of two other locks: every patch sentence moves to them.
printf 'PATCH_PAIR=ticket tas\nPATCH_WORKLOADS=creat\nPROGRAM_BASE=pthread\nKERNEL_BASE=none\n' >>"$d/run-env"
"$CMP" --markdown "$d" >"$tmp/new.md" 2>"$tmp/new.err"
rc=$?
check "a run-env with PATCH_PAIR, PROGRAM_BASE, KERNEL_BASE loads (exit $rc: $(head -c 120 "$tmp/new.err"))" \
	"[ $rc -eq 0 ] && [ ! -s '$tmp/new.err' ]"
check "the patch table's sentence names run-env's pair" \
	"grep -qF 'compared 2.6.34 (\`ticket\`) with the fix (\`tas\`)' '$tmp/new.md' && grep -qF 'this machine'\"'\"'s \`ticket\` -> \`tas\`' '$tmp/new.md'"
check "the answer's patch line is the pair's: baseline -> tas" \
	"grep -qF '\`ticket\` → \`tas\` ' '$tmp/new.md'"
check "the simulated answer is the pair's on run-env's PATCH_WORKLOADS, none said missing" \
	"grep -q '^- \*\*Simulated, not measured.*\`creat\` \`ticket\` → \`tas\` ' '$tmp/new.md' && ! grep -q 'not simulated (see' '$tmp/new.md'"
check "no sentence names the old pair" "[ -s '$tmp/new.md' ] && ! grep -q 'kmutex-spin\\|kmutex-fix' '$tmp/new.md'"
# A patch workload not simulated is named from run-env too.
sed -i 's/^PATCH_WORKLOADS=.*/PATCH_WORKLOADS=creat fpos/' "$d/run-env"
"$CMP" --markdown "$d" >"$tmp/fpos.md" 2>/dev/null
check "a patch workload in PATCH_WORKLOADS with no simulated run is said not simulated" \
	"grep -q '^- \*\*Simulated.*\`creat\` \`ticket\` → \`tas\` .*; \`fpos\` not simulated (see its section)\.\$' '$tmp/fpos.md' && ! grep -q '\`fserver\` not simulated' '$tmp/fpos.md'"
# --quick's sweep: the locks it left out are run-env's CK_LOCKS, whatever
# their names (here ticket, which the sweep has no run of).
v=sweep-counter-t2-tas
echo "$v -l tas -w counter -t 2 -d 0.05 --warmup 0" >>"$d/variants.txt"
echo "$v-r1 -l tas -w counter -t 2 -d 0.05 --warmup 0 --seed 1" >>"$d/plan.txt"
cp -r "$d/runs/patch-counter-t2-tas-r1" "$d/runs/$v-r1"
sed -i 's/^QUICK=.*/QUICK=1/' "$d/settings"
echo "CK_LOCKS=ticket" >>"$d/run-env"
"$CMP" --markdown "$d" >"$tmp/ck.md" 2>/dev/null
check "--quick's sweep: run-env's CK_LOCKS not swept is said left out" "grep -q '^.--quick..s sweep leaves out Concurrency Kit' '$tmp/ck.md'"
sed -i 's/^CK_LOCKS=.*/CK_LOCKS=tas/' "$d/run-env"
"$CMP" --markdown "$d" >"$tmp/ck.md" 2>/dev/null
check "--quick's sweep: CK_LOCKS all swept, nothing said left out" \
	"grep -q '^## ' '$tmp/ck.md' && ! grep -q 'leaves out Concurrency Kit' '$tmp/ck.md'"
# A pair lock not in the build is said, by its name from run-env.
sed -i 's/^ALL_LOCKS=.*/ALL_LOCKS=ticket kmutex-spin/' "$d/run-env"
"$CMP" --markdown "$d" >"$tmp/gone.md" 2>/dev/null
check "a pair lock missing from the build is named from run-env" \
	"grep -qF 'Lock \`tas\` is not in this build' '$tmp/gone.md' && ! grep -qF 'Lock \`kmutex-fix\`' '$tmp/gone.md'"
