#!/bin/sh
# wording.t — what lockbench and lbcompare print for people says what it
# means (issue 42's "Also"): lbcompare --help keeps its usage lines together
# and says which run is the baseline; a table's header names the baseline as
# the first run named, so that a glob's order picking it is seen; one thread
# is "1 thread"; an --exec run's threads asked reads as not given when 0; a
# table of verdicts says how many it tested and what chance alone makes of
# them.
LB=${LOCKBENCH:-bench/lockbench}
CMP=${LBCOMPARE:-analysis/lbcompare}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/tap.sh"
echo "1..7"

"$CMP" --help >"$tmp/help" 2>&1
check "lbcompare --help: its three usage lines first, then the baseline's rule" \
	'[ "$(head -n 3 "$tmp/help" | grep -c "lbcompare \[--within ROOT\]")" -eq 3 ] &&
	 grep -q "the first run named is each table" "$tmp/help"'

for l in tas ticket; do
	"$LB" -l "$l" -w counter -t 1 -d 0.02 --warmup 0 -o "$tmp/$l" >"$tmp/$l.out" 2>&1 || echo "# $l: $(cat "$tmp/$l.out")"
done
check "the summary's first line says 1 thread" \
	'grep -q "^lockbench: lock tas, workload counter, 1 thread (pin" "$tmp/tas.out"'
"$CMP" "$tmp/ticket" "$tmp/tas" >"$tmp/cmp" 2>&1
check "the table's header: 1 thread, baseline ticket (the first run named)" \
	'grep -q "^== workload counter, 1 thread: 2 variants, baseline ticket (the first run named); timing" "$tmp/cmp"'
"$CMP" "$tmp/tas" "$tmp/ticket" >"$tmp/cmp2" 2>&1
check "named the other way, the baseline is tas" \
	'grep -q "baseline tas (the first run named)" "$tmp/cmp2"'
"$LB" -l pthread --exec -o "$tmp/ex" -- /bin/true >"$tmp/ex.out" 2>&1
check "--exec without -t: threads asked reads as not given" \
	'grep -q "threads asked (-t; 0: none) 0" "$tmp/ex.out"'

for r in 1 2; do
	for l in tas ticket; do
		"$LB" -l "$l" -w counter -t 1 -d 0.02 --warmup 0 --quiet -o "$tmp/$l-r$r" >/dev/null 2>&1
	done
done
"$CMP" "$tmp/tas-r1" "$tmp/tas-r2" "$tmp/ticket-r1" "$tmp/ticket-r2" >"$tmp/reps" 2>&1
rows=$(sed -n '/^variant  *figure  *runs/,/verdicts tested here/p' "$tmp/reps" | grep -c '^ticket ')
check "the differences table's note counts its $rows verdicts" \
	'[ "$rows" -gt 0 ] && grep -q "^$rows verdicts tested here, [0-9]* of them a difference (.*); were no variant different, chance alone would make about" "$tmp/reps"'
# Issue 42: a cell's "no difference" means "not shown by these runs"; the
# note under each table says so.
check "the note says what 'no difference' means: none shown by these runs" \
	'grep -q "^$rows verdicts tested here, [0-9]* of them a difference (\"no difference\": none shown by these runs, which is not the same as none); " "$tmp/reps"'
