#!/bin/sh
# plot-names.sh WHAT — the registry's names the charts style, on one line,
# each between spaces (" a b "): run-all passes them to plot-common.gp as
# gnuplot strings, so that no chart names a lock.  Read from `lockbench
# --list` (LOCKBENCH where it is executable, else the tree's bench/lockbench) by
# scripts/sim-sweep.sh's helpers.  WHAT:
#   pair    the patch pair, the lock before the patch then the fix
#   models  the kernel mutex models, in the kernels' order
#   ck      Concurrency Kit's locks (locks.def's role: --list's concurrency-kit lines)
# Prints " " (no names) where lockbench or the role is missing: a chart then
# styles no lock apart, and still draws.
top=$(cd "$(dirname "$0")/.." && pwd) || exit 2
LB=${LOCKBENCH:-}
[ -n "$LB" ] && [ -x "$LB" ] || LB=$top/bench/lockbench
PROG=plot-names.sh
. "$top/scripts/sim-sweep.sh"
names() { printf ' %s \n' "$(tr '\n' ' ' | sed 's/ *$//')"; }
[ -x "$LB" ] && sweep_list=$("$LB" --list 2>/dev/null) || { echo " "; exit 0; }
case ${1:-} in
pair) sweep_role patch-lock | head -n 2 | names ;;
models) sweep_models | names ;;
ck) sweep_role concurrency-kit | names ;;
*) echo "plot-names.sh: WHAT '${1:-}' is not pair, models or ck" >&2; exit 2 ;;
esac
