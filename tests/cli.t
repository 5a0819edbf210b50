#!/bin/sh
# cli.t — lockbench's command line: bad input is one line on stderr and exit
# status 2 (every case in bad-options.tsv, and every option --help shows has
# cases there, or in tests/options.t for the options locks and workloads
# declare); a good run writes the documented result files, whole.
LB=${LOCKBENCH:-bench/lockbench}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/tap.sh"

table=$(dirname "$0")/bad-options.tsv
rows=$(grep -cv -e '^#' -e '^$' "$table")
echo "1..$((rows + 16))"

# Every row of bad-options.tsv: NAME, MESSAGE, ARGS (shell words) separated by
# tabs.  $covered collects each row's first argument: a long option without
# its =VALUE, a short option without an attached value.
covered=' '
while IFS= read -r line <&3; do
	case $line in '' | '#'*) continue ;; esac
	set -f
	IFS='	'
	# shellcheck disable=SC2086 # split on tabs, no globbing
	set -- $line
	unset IFS
	if [ $# -ne 3 ] || ! (eval "set -- $3") 2>/dev/null; then
		set +f
		not_ok "bad-options.tsv: not NAME<tab>MESSAGE<tab>ARGS (shell words): $line"
		continue
	fi
	name=$1 want=$2
	eval "set -- $3"
	set +f
	case $1 in
	--*) covered="$covered${1%%=*} " ;;
	-?*) covered="$covered${1%"${1#??}"} " ;;
	esac
	usage_error "$name" "$want" "$@"
done 3<"$table"

# The options --help shows (its "-l, --lock NAME" and "--cs CYCLES" lines),
# each of which must start some row: a new option needs its bad values.  An
# option a lock or workload declares (--list's `option` lines: a workload's
# --KEY, a lock's --ALIAS) has them from its declaration, in tests/options.t.
for o in $("$LB" --list 2>/dev/null | awk '/^[a-z]+:$/ { on = ($0 == "plan:"); next }
	on && $1 == "option" && $6 != "-" { print $6 }'); do
	covered="$covered$o "
done
"$LB" --help >"$tmp/opts" 2>/dev/null
longs=$(awk '$1 ~ /^-[a-z],$/ { $1 = $2 } $1 ~ /^--[a-z]/ { sub(/[^a-z0-9-].*/, "", $1); print $1 }' "$tmp/opts")
shorts=$(awk '$1 ~ /^-[a-z],$/ { print substr($1, 1, 2) }' "$tmp/opts")
missing=
for o in $longs $shorts; do
	case $covered in *" $o "*) ;; *) missing="$missing $o" ;; esac
done
nlong=$(echo "$longs" | wc -l)
check "--help shows the long options ($nlong found)" '[ "$nlong" -ge 20 ]'
check "every option --help shows has rows in bad-options.tsv${missing:+ (missing:$missing)}" \
	'[ -n "$shorts" ] && [ -z "$missing" ]'

"$LB" --list >"$tmp/list" 2>&1
check "--list exits 0 and lists locks and workloads" \
	'[ $? -eq 0 ] && grep -q "^  mcs " "$tmp/list" && grep -q "^  counter " "$tmp/list"'
"$LB" -h >"$tmp/help" 2>&1
check "--help exits 0" '[ $? -eq 0 ] && grep -q "usage: lockbench" "$tmp/help"'

"$LB" -l ticket -t 3 -d 0.1 --warmup 0.02 -o "$tmp/r" >"$tmp/run1" 2>"$tmp/err1"
check "a run with -o succeeds" '[ $? -eq 0 ] && [ ! -s "$tmp/err1" ]'
check "the summary shows a histogram" 'grep -q "^@acq_cycles:" "$tmp/run1"'
check "all result files written" \
	'[ -s "$tmp/r/summary.csv" ] && [ -s "$tmp/r/hist.csv" ] && [ -s "$tmp/r/threads.csv" ] && [ -s "$tmp/r/cmdline.txt" ]'
acq=$(awk -F, '$1 == "acquisitions" { print $2 }' "$tmp/r/summary.csv")
hsum=$(awk -F, 'NR > 1 { s += $3 } END { print s }' "$tmp/r/hist.csv")
tsum=$(awk -F, 'NR > 1 { s += $4 } END { print s }' "$tmp/r/threads.csv")
check "histogram total equals acquisitions ($hsum = $acq)" '[ -n "$acq" ] && [ "$acq" -gt 0 ] && [ "$hsum" = "$acq" ]'
check "per-thread acquisitions add up ($tsum = $acq)" '[ "$tsum" = "$acq" ]'
check "threads.csv has one row per thread" '[ "$(($(wc -l <"$tmp/r/threads.csv") - 1))" -eq 3 ]'
"$LB" -l ticket -t 1 -d 0.05 --warmup 0 -o "$tmp/r" >"$tmp/run2" 2>&1
check "a second run never overwrites: it goes to DIR-2" \
	'[ $? -eq 0 ] && grep -q "results: $tmp/r-2" "$tmp/run2" && grep -q "^threads,3$" "$tmp/r/summary.csv"'
check "no staging directories left behind" '! ls -d "$tmp"/*.partial-* >/dev/null 2>&1'

# lock_excludes: the registry's fact (--list's no-exclusion lines), per run.
"$LB" -l none -t 1 -d 0.01 --warmup 0 --quiet -o "$tmp/none" 2>/dev/null
check "summary.csv's lock_excludes is --list's: none 0 (no-exclusion), ticket 1" \
	'grep -qx "  no-exclusion none" "$tmp/list" && ! grep -q "no-exclusion ticket" "$tmp/list" &&
	 [ "$(val "$tmp/none" lock_excludes)" = 0 ] && [ "$(val "$tmp/r" lock_excludes)" = 1 ]'

# --sched: recorded in summary.csv; fifo runs where it is permitted, and where
# it is not (nobody, without RLIMIT_RTPRIO) the run is refused with one line.
check "summary.csv records the default --sched" '[ "$(val "$tmp/r" sched)" = other ]'
if "$LB" -l kmutex-fix -t 2 --pin none -d 0.05 --warmup 0 --sched fifo --quiet -o "$tmp/f" 2>"$tmp/ferr"; then
	check "--sched fifo is recorded in summary.csv" '[ "$(val "$tmp/f" sched)" = fifo ]'
else
	ok "# skip --sched fifo is not permitted here: $(head -c 200 "$tmp/ferr")"
fi
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
	setpriv --reuid=65534 --regid=65534 --clear-groups prlimit --rtprio=0 "$(realpath "$LB")" -l pthread \
		-t 1 --pin none -d 0.01 --warmup 0 --sched fifo >"$tmp/nout" 2>"$tmp/nerr"
	check "--sched fifo refused where not permitted, one line, exit 2" \
		'[ $? -eq 2 ] && [ "$(wc -l <"$tmp/nerr")" -eq 1 ] && grep -q "^lockbench: --sched fifo: not permitted here" "$tmp/nerr" && [ ! -s "$tmp/nout" ]'
else
	ok "# skip --sched fifo refused where not permitted: needs root and setpriv"
fi
