#!/bin/sh
# lbcompare-saved.t — `lbcompare --saved` and `--saved-env`, run-all's checks
# of a directory it resumes or reports (analysis/files/saved.c): each takes a
# line as run-all's `IFS='=' read -r` did (a last line without its newline is
# no line, a NUL byte is dropped, one lone trailing '=' is no part of the
# value), refuses with run-all's own words (one line die=WHY, exit 2), and
# answers KEY=VALUE lines.  No lockbench is run: the directories are made here.
CMP=${LBCOMPARE:-analysis/lbcompare}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/tap.sh"
echo "1..47"

PLAN='sweep-counter-t2-tas-r1 -l tas -w counter -t 2 -d 0.3 --seed 1
patch-creat-t2-mcs-r1 -l mcs -w creat -t 2 --dir /dev/shm --seed 1
sweep-counter-t2-mcs-r1 -l mcs -w counter -t 2 --seed 1
'
# dir SETTINGS [PLAN]: a fresh directory D holding them (printf's %b: \001, \0).
dir() {
	D=$tmp/d$n
	rm -rf "$D" && mkdir -p "$D" && printf '%b' "$1" >"$D/settings" && printf '%s' "${2-$PLAN}" >"$D/plan.txt"
}
# saved NAME WANT-STATUS WANT-OUTPUT ARGS...: lbcompare ARGS prints exactly
# WANT-OUTPUT (printf's %b) and exits WANT-STATUS, nothing on stderr.
saved() {
	name=$1 st=$2 want=$3
	shift 3
	"$CMP" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	printf '%b' "$want" >"$tmp/want"
	if [ $rc -eq "$st" ] && cmp -s "$tmp/out" "$tmp/want" && [ ! -s "$tmp/err" ]; then
		ok "$name"
	else
		not_ok "$name (rc=$rc: $(head -c 300 "$tmp/out" | tr '\n' '|') $(head -c 200 "$tmp/err"))"
	fi
}

dir 'QUICK=1\nREPS=2\nDIR_WHY=a (b): c=d\n'
saved "good settings: each line back, in order" 0 'QUICK=1\nREPS=2\nDIR_WHY=a (b): c=d\n' --saved "$D" --resume
dir 'QUICK=1\nREPS=2=\n'
saved "one lone trailing '=' is no part of the value (dash's read)" 0 'QUICK=1\nREPS=2\n' --saved "$D" --report
dir 'QUICK=1\nREPS=2=3=\n'
saved "two '=' after the first stay in the value" 2 'die=--report: settings: bad REPS\n' --saved "$D" --report
dir 'QUICK=1\nDIR=/x=y=\nREPS=2\n'
saved "'=' kept where the key takes it" 0 'QUICK=1\nDIR=/x=y=\nREPS=2\n' --saved "$D" --report
dir 'QUICK=1\nREPS=2'
saved "a last line without its newline is no line: incomplete" 2 'die=--resume: settings: incomplete\n' --saved "$D" --resume
dir 'QUICK=1\nREPS=2\nJUNK'
saved "... nor checked" 0 'QUICK=1\nREPS=2\n' --saved "$D" --resume
dir 'QUICK=1\nRE\0PS=2\n'
saved "a NUL byte is dropped" 0 'QUICK=1\nREPS=2\n' --saved "$D" --resume
dir 'QUICK=1\nREPS=2\nFO\001O=b\033r\n'
saved "an unknown key: its line, printable" 2 "die=--resume: settings: unexpected line 'FO?O=b?r'\\n" --saved "$D" --resume
dir 'QUICK=1\nREPS=2\n\n'
saved "an empty line is an unknown key" 2 "die=--resume: settings: unexpected line '='\\n" --saved "$D" --resume
dir 'QUICK=1\nREPS=1000\nORDER_SEED=2147483646\nBUDGET=100000\n'
saved "the largest counts taken" 0 'QUICK=1\nREPS=1000\nORDER_SEED=2147483646\nBUDGET=100000\n' --saved "$D" --resume
for bad in REPS=1001 REPS=01 REPS= ORDER_SEED=2147483647 ORDER_SEED=9999999999 BUDGET=100001 QUICK=2 \
	SIM_ONLY= DURATION= 'DIR_WHY=a;b' 'SIM=a b' THREADS=2,a STARTED=x LOCKS=TAS; do
	dir "QUICK=1\\nREPS=2\\n$bad\\n"
	saved "$bad refused" 2 "die=--report: settings: bad ${bad%%=*}\\n" --saved "$D" --report
done
dir 'QUICK=1\nREPS=2\n' "$(printf '%s' "$PLAN" | sed '2s|/dev/shm|/dev/../shm|; 3s|^|X|')
"
saved "plan.txt: every line's shape before any path" 2 'die=--resume: plan.txt: malformed line 3\n' --saved "$D" --resume
for p in /dev/./shm dev/shm /dev/.. ; do
	dir 'QUICK=1\nREPS=2\n' "$(printf '%s' "$PLAN" | sed "2s|/dev/shm|$p|")
"
	saved "plan.txt: --dir $p refused" 2 'die=--resume: plan.txt: malformed line 2\n' --saved "$D" --resume
done
dir 'QUICK=1\nREPS=2\n' "$(printf '%s' "$PLAN" | sed '1s|-w counter|-w /counter|; 2s|/dev/shm|//dev/.shm/|')"
saved "plan.txt: a '/' only in --dir's or --sim's word (line 1), '//' and .shm are no dot component" 2 \
	'die=--resume: plan.txt: malformed line 1\n' --saved "$D" --resume
dir 'QUICK=1\nREPS=2\n'
printf 'sweep-a-r1  -l tas\n' >"$D/variants.txt"
saved "variants.txt checked as plan.txt is" 2 'die=--report: variants.txt: malformed line 1\n' --saved "$D" --report

# --saved-env: run-env checked, or made of an old directory's files.
ENV='NCPU=2\nNUMA_NODES=1\nALL_LOCKS=tas mcs \nKL=\nKL_WHY=any $(thing) `at` all\nCK_LOCKS=\n'
dir 'QUICK=1\nREPS=2\n'
printf '%b' "$ENV" >"$D/run-env"
saved "a good run-env: nothing printed" 0 '' --saved-env "$D" "$D" --report
for edit in 's/^NCPU=.*/NCPU=1x/:bad NCPU' "s/^NCPU=.*/NCPU=0/:unexpected line 'NCPU=0'" \
	"s/^KL=.*/KL=--x/:unexpected line 'KL=--x'" 's/^CK_LOCKS=.*/CK_LOCKS=A/:bad CK_LOCKS' '/^NUMA_NODES/d:incomplete'; do
	printf '%b' "$ENV" | sed "${edit%%:*}" >"$D/run-env"
	saved "run-env: ${edit%%:*} refused" 2 "die=--report: run-env: ${edit#*:}\\n" --saved-env "$D" "$D" --report
done
printf '%b' "$ENV" | sed 's/^NCPU=.*/NCPU=?/' >"$D/run-env"
saved "run-env: NCPU=? (an old directory's report) taken" 0 '' --saved-env "$D" "$D" --report
rm "$D/run-env"
mkdir -p "$D/runs/.hidden" "$D/runs/b" "$D/runs/c"
printf 'topology_pus_usable,64\n' >"$D/runs/.hidden/meta.csv"
printf 'x,1\ntopology_pus_usable,a1b6,2\ntopology_numa_nodes\n' >"$D/runs/b/meta.csv"
printf 'topology_pus_usable,8\ntopology_numa_nodes,2\n' >"$D/runs/c/meta.csv"
OLD='NUMA_ONLY_LOCKS=\nKL=\nKL_WHY=not recorded with these runs\nKERNEL_WORKLOADS=\n'
saved "no run-env: the first visible run's meta.csv (its digits), the plan's locks and workloads" 0 \
	"NCPU=162\\nNUMA_NODES=1\\nALL_LOCKS=mcs tas \\nALL_WORKLOADS=counter creat \\n$OLD" --saved-env "$D" "$D" --report
saved "no run-env: the lists given" 0 \
	'NCPU=162\nNUMA_NODES=1\nALL_LOCKS=a b \nALL_WORKLOADS=w \nNUMA_ONLY_LOCKS=b \nKL=\nKL_WHY=not recorded with these runs\nKERNEL_WORKLOADS=\n' \
	--saved-env "$D" "$D" --report 'a b ' 'w ' 'b '
rm -r "$D/runs"
printf '%s' "$PLAN" | sed '1s/$/ --kernel-locks/' >"$D/plan.txt"
saved "no run-env, no meta.csv: NCPU ?, one node, KL from the plan" 0 \
	"NCPU=?\\nNUMA_NODES=1\\nALL_LOCKS=mcs tas \\nALL_WORKLOADS=counter creat \\n$(printf '%s' "$OLD" | sed 's/nKL=/nKL=--kernel-locks/')" \
	--saved-env "$D" "$D" --report
mkdir -p "$D/runs/a"
head -c 1048577 /dev/zero >"$D/runs/a/meta.csv"
saved "a meta.csv over 1 MiB: read_file's line" 2 \
	"die='$D/runs/a/meta.csv' is larger than 1048576 bytes: not a file run-all wrote\\n" --saved-env "$D" "$D" --report
"$CMP" --saved "$D" --out >"$tmp/out" 2>"$tmp/err"
check "OPTION is --resume or --report: usage, one line" '[ $? -eq 2 ] && [ ! -s "$tmp/out" ] && [ "$(wc -l <"$tmp/err")" -eq 1 ]'

# The report's own reading (rundir.c) refuses by the same rule what run-all
# refuses: --markdown of a directory run-all's checks pass but for one line.
md_refuses() { # NAME WHAT
	want=$2
	"$CMP" --markdown "$D" >"$tmp/out" 2>"$tmp/err"
	check "--markdown refuses $1 too" '[ $? -eq 2 ] && [ ! -s "$tmp/out" ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -qF -- "$want" "$tmp/err"'
}
okdir() { # [SETTINGS-EDIT [PLAN-EDIT]]
	dir "QUICK=1\\nREPS=2\\n${1-}" "$(printf '%s' "$PLAN" | sed "${2-}")
"
	printf '%b' "$ENV" >"$D/run-env"
}
okdir 'REPS=1001\n'
md_refuses "REPS=1001" "settings: bad REPS"
okdir '' '2s|/dev/shm|/dev/../shm|'
md_refuses "a plan line's --dir with .." "plan.txt: malformed line 2"
okdir
printf 'sweep-counter-t2-tas -l  tas\n' >"$D/variants.txt"
md_refuses "a variants.txt line run-all refuses" "variants.txt: malformed line 1"
okdir
printf '%b' "$ENV" | sed 's/^NCPU=.*/NCPU=0/' >"$D/run-env"
md_refuses "run-env's NCPU=0" "run-env: unexpected line 'NCPU=...'"
dir 'QUICK=1\nREPS=2=\nJUNK' 'sweep-counter-t2-tas-r1 -l tas -w counter -t 2 --seed 1
'
printf 'NCPU=3=\nNUMA_NODES=1\n' >"$D/run-env"
"$CMP" --markdown "$D" >"$tmp/out" 2>"$tmp/err"
check "--markdown reads a line as run-all does (lone trailing '=', a last line without newline)" \
	'[ $? -eq 0 ] && [ ! -s "$tmp/err" ] && grep -q "3 CPUs.*2 repetition(s)" "$tmp/out"'
