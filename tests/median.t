#!/bin/sh
# median.t — the scripts' one median (scripts/median.awk): the rule of
# analysis/figures/stats.c's stats_median() (an even count's median is the
# mean of the two middle figures), and no script computing its own.
. "$(dirname "$0")/tap.sh"
top=$(cd "$(dirname "$0")/.." && pwd)
med() { sort -g | awk -f "$top/scripts/median.awk"; }

echo "1..5"
check "an even count: the mean of the two middle, and the least and largest" \
	'[ "$(printf "4\n1\n3\n2\n" | med)" = "2.5 1 4" ]'
check "an odd count: the middle one" '[ "$(printf "9\n1\n5\n" | med)" = "5 1 9" ]'
check "no numbers: dashes" '[ "$(printf "" | med)" = "- - -" ]'
# sim-sweep.sh's sweep_median is the same program.
check "the simulated sweeps' median is median.awk's" \
	'[ "$(top=$top PROG=t LB=/nonexistent sh -c ". \"$top/scripts/sim-sweep.sh\"; printf \"4\n1\n3\n2\n\" | sweep_median")" = "2.5 1 4" ]'
# A median written anew picks its middle by NR: none outside median.awk
# (exec-bench.sh took the lower middle, scripts/trials.h the upper).
others=$(grep -nE '\(NR( \+ 1)?\) */ *2|NR */ *2|v\[n */ *2\]' "$top"/scripts/*.sh "$top"/scripts/*.h "$top/run-all" 2>/dev/null)
check "no script computes a median of its own${others:+: $others}" '[ -z "$others" ]'
