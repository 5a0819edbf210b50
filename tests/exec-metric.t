#!/bin/sh
# exec-metric.t — `lockbench --exec --metric` (bench/exec/launcher/metric.c,
# docs/exec.md): a figure is taken only as lbcompare reads one (digits[.digits]: an exponent, nan, inf, hex, a sign or a bare
# point is one line and exit 1, no metric_NAME written); one that is is
# written and lbcompare reads it; the scan is bounded: each line matched up
# to its first 4096 bytes (a regex quadratic in the line ends in time), 10 s
# of matching in all and 64 MiB of each file, and a metric not found past
# such a stop says where the scan stopped.  (A backreference and a NAME with
# a newline are rows of bad-options.tsv.)
LB=${LOCKBENCH:-bench/lockbench}
LBC=${LBCOMPARE:-analysis/lbcompare}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/tap.sh"
exec_preamble

bad="1.5e+06 nan inf 0x10 -3 +3 .5 5."
good="12 0.25 007"
echo "1..$(($(echo $bad | wc -w) + $(echo $good | wc -w) + 4))"

for v in $bad; do
	lb -l pthread --exec -o "$tmp/r" --quiet --metric 'v=^v (.*)$' -- printf 'v %s\n' "$v"
	check "a metric of '$v' is refused: one line, exit 1, no metric_v ($(head -c 200 "$tmp/err"))" \
		'one_line 1 && grep -q "not a number as lbcompare reads one" "$tmp/err" && [ -z "$(val "$tmp/r" metric_v)" ]'
	rm -rf "$tmp/r"
done
for v in $good; do
	lb -l pthread --exec -o "$tmp/g$v" --quiet --metric 'v=^v (.*)$' -- printf 'v %s\n' "$v"
	"$LBC" "$tmp/g$v" "$tmp/g$v" >"$tmp/cmp" 2>"$tmp/cmp.err"
	check "a metric of '$v' is written and lbcompare reads it" \
		'[ "$rc" -eq 0 ] && [ "$(val "$tmp/g$v" metric_v)" = "$v" ] && [ ! -s "$tmp/cmp.err" ]'
done

# (a|aa)*(a*)*(a+)*c is quadratic in a line of a's: 1.7 s on 20,000 bytes,
# minutes on 200,000, where each line is cut to 4096 bytes (0.09 s).
{ head -c 200000 /dev/zero | tr '\0' a; echo; echo c7; } >"$tmp/long.txt"
lb -l pthread --exec -o "$tmp/long" --quiet --metric 'v=c([0-9])|(a|aa)*(a*)*(a+)*c' -- cat "$tmp/long.txt"
check "a line of 200,000 bytes under a quadratic regex: the next line's metric, in time (exit $rc)" \
	'[ "$rc" -eq 0 ] && [ "$(val "$tmp/long" metric_v)" = 7 ]'

# 1000 lines of 4096 a's at 0.09 s each: the 10 s bound stops the scan.
line=$(head -c 4096 /dev/zero | tr '\0' a)
{ i=0; while [ $i -lt 1000 ]; do echo "$line"; i=$((i + 1)); done; echo c7; } >"$tmp/slow.txt"
start=$(date +%s)
lb -l pthread --exec -o "$tmp/slow" --quiet --metric 'v=c([0-9])|(a|aa)*(a*)*(a+)*c' -- cat "$tmp/slow.txt"
took=$(($(date +%s) - start))
check "matching stops after 10 s and the message says so (${took} s: $(head -c 200 "$tmp/err"))" \
	'one_line 1 && grep -q "no match in the program.s output (the scan stopped after 10 s" "$tmp/err" &&
	 [ "$took" -lt 60 ]'

# 64 MiB of output (671,089 whole lines of 100 bytes), then the metric: not
# scanned, and said.
{ yes "$(printf '%099d' 0)" | head -n 671089; echo 'v 5'; } >"$tmp/big.txt"
timeout -s KILL 120 "$LB" -l pthread --exec --quiet --metric 'v=^v ([0-9]+)' -- cat "$tmp/big.txt" \
	>/dev/null 2>"$tmp/err"
rc=$?
check "a metric after 64 MiB of output: not found, and the message says the scan stopped there" \
	'one_line 1 && grep -q "no match in the program.s output (only the first 64 MiB of program-stdout.txt were scanned)" "$tmp/err"'

# A bracket's backslash is no backreference: the regex is taken.
lb -l pthread --exec -o "$tmp/br" --quiet --metric 'v=^v ([0-9]+)[\1]' -- printf 'v 42\\\n'
check "a backslash and a digit in a bracket expression are no backreference (exit $rc: $(head -c 200 "$tmp/err"))" \
	'[ "$rc" -eq 0 ] && [ "$(val "$tmp/br" metric_v)" = 42 ]'
