#!/bin/sh
# exec-program.t — `lockbench --exec --program NAME` (bench/exec/programs.def,
# docs/exec.md): --list's programs: section and `program` plan lines are the
# registry's; a registry program's template made argv ({threads} and
# {seconds} from -t and -d) and its metric declared; summary.csv's program,
# program_threads_asked and metric_better_NAME, for --program and for
# `-- PROGRAM` runs (--metric NAME:lower=REGEX); a bad name, --program
# without --exec or with `-- PROGRAM`, a bad :lower: one line, exit 2.
LB=${LOCKBENCH:-bench/lockbench}
top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/tap.sh"
exec_preamble

echo "1..14"

# The registry's lines, as --list must print them: `NAME TEMPLATE` and
# `program NAME ROLE FULL QUICK` (role PG_PATCH is patch).
awk -F'"' '/^PROGRAM\(/ { name = $2; split($3, f, /[ ,]+/); role = f[2] == "PG_PATCH" ? "patch" : "none"
		printf "program %s %s %s %s\n", name, role, f[3], f[4] }' "$top/bench/exec/programs.def" >"$tmp/want-plan"
awk -F'"' '/^PROGRAM\(/ { name = $2; getline; print name, $2 }' "$top/bench/exec/programs.def" >"$tmp/want-progs"
"$LB" --list >"$tmp/list"
awk '/^[a-z]+:$/ { on = ($0 == "plan:"); next } on && $1 == "program" { $1 = $1; print }' "$tmp/list" >"$tmp/have-plan"
awk '/^[a-z]+:$/ { on = ($0 == "programs:"); next } on { n = $1; sub(/^ *[^ ]+ +/, ""); print n, $0 }' "$tmp/list" >"$tmp/have-progs"
check "--list's plan: has a program line per registry line ($(wc -l <"$tmp/have-plan"))" \
	'[ -s "$tmp/want-plan" ] && cmp -s "$tmp/want-plan" "$tmp/have-plan"'
check "--list's programs: section names each with its template" \
	'[ -s "$tmp/want-progs" ] && cmp -s "$tmp/want-progs" "$tmp/have-progs"'
check "--help names --program" '"$LB" --help | grep -q -- "--exec --program NAME"'

# Bad input: one line, exit 2, nothing run.
usage_error "an unknown --program: the nearest name suggested" \
	"--program: unknown program 'sysbench-thread': did you mean 'sysbench-threads'?" \
	-l pthread --exec --program sysbench-thread
usage_error "--program without --exec" "--program: only with --exec" -l pthread --program sysbench-mutex
usage_error "--program and -- PROGRAM" "give one or the other" -l pthread --exec --program sysbench-mutex -- true
usage_error "--metric NAME:lowr=: not a direction" "not NAME=REGEX or NAME:lower=REGEX" \
	-l pthread --exec --metric 'x:lowr=(1)' -- true

# A `-- PROGRAM` run: its basename as program, bytes outside [A-Za-z0-9._+-]
# made _; threads asked 0; the declared metrics' directions, found or not.
cp /bin/sh "$tmp/t r:ue+1.x"
lb -l pthread --exec -o "$tmp/plain" --quiet --metric 'none:lower=^never ([0-9]+)' -- "$tmp/t r:ue+1.x" -c :
check "-- PROGRAM: program is its basename made safe, threads asked 0 ($(val "$tmp/plain" program))" \
	'[ "$(val "$tmp/plain" program)" = "t_r_ue+1.x" ] && [ "$(val "$tmp/plain" program_threads_asked)" = 0 ]'
check "metric_better_NAME is written for a metric not found, metric_NAME is not (rc=$rc)" \
	'one_line 1 && [ "$(val "$tmp/plain" metric_better_none)" = lower ] && [ -z "$(val "$tmp/plain" metric_none)" ]'

# Registry programs, short: sysbench's mutex test at 2 threads (about 0.2 s)
# and its threads test for 1 s.  ThreadSanitizer: as tests/exec.t says.
if ! command -v sysbench >/dev/null 2>&1; then
	for t in 1 2 3 4 5; do ok "# skip sysbench not installed (scripts/deps.sh installs it)"; done
	exit 0
fi
lb -l kmutex-fix --exec --program sysbench-mutex -t 2 -o "$tmp/m" --quiet
check "--program sysbench-mutex -t 2: exit 0, program and threads asked ($(head -c 200 "$tmp/err"))" \
	'[ "$rc" -eq 0 ] && [ "$(val "$tmp/m" program)" = sysbench-mutex ] && [ "$(val "$tmp/m" program_threads_asked)" = 2 ]'
check "its template's {threads}: sysbench ran 2 threads, each its 100000 locks ($(val "$tmp/m" acquisitions))" \
	'grep -q "^Number of threads: 2$" "$tmp/m/program-stdout.txt" && [ "$(val "$tmp/m" acquisitions)" -ge 200000 ]'
check "its registry metric, declared lower-is-better ($(val "$tmp/m" metric_total_time_s))" \
	'[ "$(val "$tmp/m" metric_better_total_time_s)" = lower ] && [ -n "$(val "$tmp/m" metric_total_time_s)" ]'
lb -l pthread --exec --program sysbench-threads -t 3 -d 1 -o "$tmp/t" --quiet
check "--program sysbench-threads -t 3 -d 1: events, higher is better ($(val "$tmp/t" metric_events))" \
	'[ "$rc" -eq 0 ] && [ "$(val "$tmp/t" metric_better_events)" = higher ] && [ "$(val "$tmp/t" metric_events)" -gt 0 ] &&
	 grep -q "^Number of threads: 3$" "$tmp/t/program-stdout.txt"'
# {seconds} as -d wrote it: sysbench takes whole seconds only, and says so.
lb -l pthread --exec --program sysbench-threads -t 1 -d 0.5 -o "$tmp/h" --quiet
check "{seconds} is -d as given: sysbench refuses --time=0.5 (rc=$rc)" \
	'one_line 1 && cat "$tmp/h/program-stdout.txt" "$tmp/h/program-stderr.txt" | grep -q "time.*0\.5"'
