#!/bin/sh
# run-all-programs.t — run-all plans the registry's programs
# (bench/exec/programs.def, `lockbench --list`'s `program` plan lines): each
# of role patch against the patch table's locks that exclude, and pthread, at
# --threads, in the same rounds, with --duration's seconds; --resume runs what
# is missing of them; the report's data/ has their comparison; --workloads
# names them; a program whose command is not on PATH is skipped in one line,
# nothing planned for it.  sysbench's mutex test at 2 threads: ~0.3 s a run.
top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/tap.sh"
LB=${LOCKBENCH:-$top/bench/lockbench}
case $LB in /*) ;; *) LB=$PWD/$LB ;; esac
export LOCKBENCH_EXEC_SO="${LOCKBENCH_EXEC_SO:-$top/build/liblockbench-exec.so}"
exec_tsan_options
ra() { timeout -s KILL 300 "$top/run-all" --lockbench "$LB" "$@"; }
echo "1..8"

# Bad names: one line, exit 2, the nearest program named.
ra --quick --workloads sysbench-mutx --out "$tmp/bad" >"$tmp/out" 2>&1
check "--workloads: a misspelt program, its nearest name ($(head -c 200 "$tmp/out"))" \
	'[ $? -ne 0 ] && [ "$(wc -l <"$tmp/out")" -eq 1 ] && grep -q "did you mean .sysbench-mutex." "$tmp/out" && [ ! -e "$tmp/bad" ]'

# PATH without sysbench: everything of /usr/bin and /bin but it.
mkdir "$tmp/bin"
for d in /usr/bin /bin; do cp -s "$d"/* "$tmp/bin/" 2>/dev/null; done
rm -f "$tmp/bin/sysbench"
PATH="$tmp/bin" ra --quick --reps 1 --workloads counter,sysbench-mutex,sysbench-threads --locks pthread --threads 1 \
	--out "$tmp/nosb" >"$tmp/nosb.out" 2>&1
rc=$?
check "without sysbench on PATH: each sysbench program skipped in one line ($(grep -c skipped "$tmp/nosb.out"))" \
	'[ $rc -eq 0 ] && [ "$(grep -c "^run-all: program sysbench-[a-z]* skipped: .sysbench. is not on PATH$" "$tmp/nosb.out")" -eq 2 ] &&
	 [ "$(grep -c sysbench "$tmp/nosb.out")" -eq 2 ]'
check "... nothing planned for them, the rest runs" \
	'! grep -q "program" "$tmp/nosb/plan.txt" && grep -q "^sweep-counter-t1-pthread-r1 " "$tmp/nosb/plan.txt" &&
	 [ -f "$tmp/nosb/runs/sweep-counter-t1-pthread-r1/summary.csv" ]'

if ! command -v sysbench >/dev/null 2>&1; then
	for t in 4 5 6 7 8; do ok "# skip sysbench not installed (scripts/deps.sh installs it)"; done
	exit 0
fi

ra --quick --workloads sysbench-mutex --locks tas --out "$tmp/tas" >"$tmp/out" 2>&1
check "--workloads P --locks L where P runs under none of L: refused, saying why" \
	'[ $? -eq 2 ] && [ "$(wc -l <"$tmp/out")" -eq 1 ] && grep -q "sysbench-mutex is in no run: none of --locks is a lock it runs under" "$tmp/out"'

# The plan: pthread first (the baseline of the program's comparison, its chart
# and the report's table), then the patch table's locks that exclude (from
# --list), under --quick only the first two of them (the patch's pair);
# --threads; --duration's seconds.
want=$("$LB" --list | awk '/^[a-z]+:$/ { on = ($0 == "plan:"); next }
	on && $1 == "no-exclusion" { ne[$2] = 1 }
	on && $1 == "patch-lock" && $3 == "always" { l[++n] = $2 }
	END { printf " pthread"; for (i = 1; i <= n; i++) if (!ne[l[i]] && l[i] != "pthread" && k++ < 2) printf " %s", l[i] }')
ra --quick --reps 1 --threads 2 --workloads sysbench-mutex --duration sysbench-mutex=3 --out "$tmp/a" >"$tmp/a.out" 2>&1
rc=$?
have=$(awk '{ printf " %s", $6 }' "$tmp/a/variants.txt")
check "run-all --workloads sysbench-mutex: exit 0 ($(tail -n 1 "$tmp/a.out"))" '[ $rc -eq 0 ]'
check "its variants: pthread, then the patch table's pair (--quick) ($have)" \
	'[ -n "$want" ] && [ "$have" = "$want" ] &&
	 [ "$(grep -c "^program-sysbench-mutex-t2-[a-z-]* --exec --program sysbench-mutex -l [a-z-]* -t 2 -d 3 --timing sample:64\( --kernel-locks\)\{0,1\}$" "$tmp/a/variants.txt")" -eq "$(echo $want | wc -w)" ]'
bad=""
while read -r name args; do
	[ "$(awk -F, '$1 == "program" { print $2 }' "$tmp/a/runs/$name/summary.csv" 2>/dev/null)" = sysbench-mutex ] || bad="$bad $name"
done <"$tmp/a/plan.txt"
check "each run's directory, program sysbench-mutex; the comparison in data/${bad:+ (not:$bad)}" \
	'[ -z "$bad" ] && [ -s "$tmp/a/data/program-sysbench-mutex.txt" ] && [ -s "$tmp/a/report.md" ]'

# --resume runs what is missing, and only that.
gone=$(sed -n 3p "$tmp/a/plan.txt" | cut -d" " -f1)
rm -rf "$tmp/a/runs/$gone"
ra --resume "$tmp/a" >"$tmp/r.out" 2>&1
rc=$?
check "--resume runs the one program run missing ($gone), none other (rc=$rc)" \
	'[ $rc -eq 0 ] && [ "$(grep -c "^\[[0-9]*/[0-9]*\] " "$tmp/r.out")" -eq 1 ] && grep -q "^\[3/[0-9]*\] $gone " "$tmp/r.out" &&
	 [ -f "$tmp/a/runs/$gone/summary.csv" ]'
