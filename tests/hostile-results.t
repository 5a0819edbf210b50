#!/bin/sh
# hostile-results.t — lockbench's and lbcompare's readers and writers trust
# nothing in a results directory: every row of hostile-results.tsv (links,
# FIFOs and oversized files where result files, logs and lbcompare's outputs
# go, a full disk under standard output, an unreadable run and a failed
# comparison in run-all's report, plan names that are not plain names).
LB=${LOCKBENCH:-bench/lockbench}
CMP=${LBCOMPARE:-analysis/lbcompare}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/tap.sh"

table=$(dirname "$0")/hostile-results.tsv
rows=$(grep -cv -e '^#' -e '^$' "$table")
echo "1..$rows"

R1=sweep-counter-t2-tas-r1 R2=sweep-counter-t2-ticket-r1 R3=sweep-counter-t2-tas-r2 PR=patch-counter-t2-kmutex-fix-r1
# ---- the run-all directory every row starts from ----
base=$tmp/base
mkdir -p "$base/runs" "$base/logs" "$base/data" "$base/plots"
printf 'QUICK=1\nREPS=2\nORDER_SEED=7\nLOCKS=\nWORKLOADS=counter\nTHREADS=2\nDEFAULT_OUT=0\nSTARTED=2026-12-05T07:00:00Z\n' >"$base/settings"
printf 'NCPU=2\nNUMA_NODES=1\nALL_LOCKS=tas ticket kmutex-fix\nALL_WORKLOADS=counter\nKL=\nKL_WHY=not here\n' >"$base/run-env"
printf '%s\n' "$PR -l kmutex-fix -w counter -t 2" "$R1 -l tas -w counter -t 2" "$R2 -l ticket -w counter -t 2" \
	"$R3 -l tas -w counter -t 2" >"$base/plan.txt"
printf '%s\n' "patch-counter-t2-kmutex-fix -l kmutex-fix" "sweep-counter-t2-tas -l tas" \
	"sweep-counter-t2-ticket -l ticket" >"$base/variants.txt"
for r in "$R1:tas" "$R2:ticket" "$PR:kmutex-fix"; do
	"$LB" -l "${r#*:}" -w counter -t 2 -d 0.05 --warmup 0 --quiet -o "$base/runs/${r%%:*}" 2>"$base/logs/${r%%:*}.err" ||
		echo "Bail out! lockbench failed for ${r%%:*}"
done
echo 1 >"$base/logs/$R3.status"
echo "lockbench: boom" >"$base/logs/$R3.err"
"$CMP" --csv "$base/data" "$base/runs/$PR" >"$base/data/patch-counter.txt" 2>&1
"$CMP" --csv "$base/data" "$base/runs/$R1" "$base/runs/$R2" >"$base/data/sweep-counter.txt" 2>&1 ||
	echo "Bail out! lbcompare failed on the base directory: $(cat "$base/data/sweep-counter.txt")"

# ---- what no row may read or write: root's only ----
secret=$tmp/secret
mkdir -p "$secret/logs" "$secret/secretdir"
"$LB" -l mcs -w counter -t 2 -d 0.05 --warmup 0 --quiet -o "$secret/run" 2>/dev/null || echo "Bail out! lockbench failed for mcs"
sed -i 's/^hostname,.*/hostname,SECRETHOST/' "$secret/run/meta.csv"
for f in summary.csv hist.csv meta.csv; do cp "$base/runs/$R1/$f" "$secret/$f"; done
sed -i 's/^hostname,.*/hostname,SECRETHOST/' "$secret/meta.csv"
echo "lockbench: warning: SECRET-LOG" >"$secret/x.err"
cp "$secret/x.err" "$secret/logs/$R1.err"
echo ORIGINAL >"$secret/target"
chmod -R go-rwx "$secret"

# names PATH-OR-TEXT: R1, R2, R3 as the runs' names
names() { printf '%s' "$1" | sed "s/R1/$R1/g; s/R2/$R2/g; s/R3/$R3/g"; }

# each LIST FUNC DIR: FUNC DIR ITEM for each '|'-separated item of LIST (-:
# none), R1 R2 R3 named; stops at the first that fails.
each() {
	[ "$1" = - ] && return 0
	printf '%s\n' "$1" | tr '|' '\n' | while IFS= read -r item; do
		"$2" "$3" "$(names "$item")" || exit 1
	done
}

# setup_step DIR STEP: one step of SETUP on the copy DIR
setup_step() {
	d=$1 step=$2
	case $step in
	link=*) target=${step#link=}; path=$d/${target#*:}
		rm -rf "$path" && ln -s "$secret/${target%%:*}" "$path" ;;
	fifo:*) rm -rf "${d:?}/${step#fifo:}" && mkfifo "$d/${step#fifo:}" ;;
	big:*) rm -f "$d/${step#big:}" && truncate -s 1T "$d/${step#big:}" ;;
	garbage:*) echo 'garbage' >"$d/${step#garbage:}" ;;
	failed:*) echo "lbcompare: runs/$R1/hist.csv: line 1: not a histogram line" >"$d/${step#failed:}" ;;
	plan:*) echo "${step#plan:} -l tas -w counter -t 2" >>"$d/plan.txt" ;;
	nokey:*) k=${step#nokey:}; sed -i "/^${k%%:*},/d" "$d/${k#*:}" ;;
	*) false ;;
	esac
}

# run DIR CMD SECONDS: the command, its stdout in DIR.out (20 MB at most:
# what an unbounded read would copy must not fill the disk), its status in
# DIR.rc, stderr in DIR.err.
run() {
	d=$1 cmd=$2 secs=$3
	set -f
	case $cmd in
	cmp:*) set -- "$CMP" "$d/$(names "${cmd#cmp:}")" ;;
	markdown) set -- "$CMP" --markdown "$d" ;;
	csv) set -- "$CMP" --csv "$d/data" "$d/runs/$R1" "$d/runs/$R2" ;;
	within) set -- "$CMP" --within "$d" --csv data --output data/sweep-counter.txt "runs/$R1" "runs/$R2" ;;
	full:*) set -- "$CMP"
		for w in ${cmd#full:}; do
			case $w in runs/*) w=$d/$(names "$w") ;; esac
			set -- "$@" "$w"
		done ;;
	# shellcheck disable=SC2086 # lockbench's arguments, words
	lbfull:*) set -- "$LB" ${cmd#lbfull:} ;;
	*) set +f; return 1 ;;
	esac
	set +f
	case $cmd in
	full:* | lbfull:*) timeout -s KILL "$secs" "$@" >/dev/full 2>"$d.err"; echo $? >"$d.rc"; : >"$d.out" ;;
	*) { timeout -s KILL "$secs" "$@" 2>"$d.err"; echo $? >"$d.rc"; } | head -c 20000000 >"$d.out" ;;
	esac
}

# check_one DIR CHECK: what failed, or nothing
check_one() {
	d=$1 c=$2
	case $c in
	has:*) grep -qF -- "${c#has:}" "$d.out" || printf ' stdout lacks "%s";' "${c#has:}" ;;
	lacks:*) ! grep -qF -- "${c#lacks:}" "$d.out" || printf ' stdout holds "%s";' "${c#lacks:}" ;;
	same) [ "$(cat "$secret/target")" = ORIGINAL ] || printf ' SECRET/target was written;' ;;
	regular:*) [ -f "$d/${c#regular:}" ] && [ ! -L "$d/${c#regular:}" ] || printf ' %s not a regular file;' "${c#regular:}" ;;
	*) printf ' unknown check "%s";' "$c" ;;
	esac
}

i=0
while IFS='	' read -r name steps cmd secs want msg want_checks rest <&3; do
	case $name in '' | '#'*) continue ;; esac
	i=$((i + 1))
	if [ -z "$want_checks" ] || [ -n "$rest" ]; then
		not_ok "hostile-results.tsv: not 7 columns: $name"
		continue
	fi
	d=$tmp/row$i
	cp -a "$base" "$d"
	echo ORIGINAL >"$secret/target"
	if ! each "$steps" setup_step "$d"; then
		not_ok "$name: setup '$steps' failed"
		continue
	fi
	run "$d" "$cmd" "$secs" || { not_ok "$name: unknown command '$cmd'"; continue; }
	rc=$(cat "$d.rc")
	lines=$(grep -vc '^lockbench: WARNING: ' "$d.err")
	why=
	[ "$rc" -eq "$want" ] || why="$why status $rc, not $want;"
	if [ "$want" -eq 0 ]; then
		[ "$lines" -eq 0 ] || why="$why $lines lines on stderr;"
	else
		[ "$lines" -eq 1 ] || why="$why $lines lines on stderr, not 1;"
		grep -qF -- "$msg" "$d.err" || why="$why message lacks '$msg';"
	fi
	why="$why$(each "$want_checks" check_one "$d")"
	if [ -z "$why" ]; then
		ok "$name"
	else
		not_ok "$name:$why stderr: $(head -c 300 "$d.err")"
	fi
	rm -rf "$d" "$d.out"
done 3<"$table"
