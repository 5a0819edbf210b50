#!/bin/sh
# soak.sh — `make soak` (not in CI): every lock x every workload of
# lockbench's registry, heavily oversubscribed, every run checked.
#
# Settings, from the environment (all optional):
#   SOAK_SECONDS=S           measured seconds per run (default 4)
#   SOAK_FACTOR=F            threads = F x online CPUs (default 8)
#   SOAK_JOB_THREADS=N       threads of the runs of a workload whose operation
#                            is a job (`--list`'s `unit NAME UNIT min`: its
#                            throughput is per minute; default CPUs + 2:
#                            docs/testing.md)
#   SOAK_WATCHDOG=W          lockbench --watchdog seconds (default 10)
#   SOAK_LIMIT=L             hard wall-clock limit per run, seconds
#                            (default 4 x S + W + 60); past it the run is "hung"
#   SOAK_LOCKS=L1,L2         locks (default: every lock `lockbench --list` shows)
#   SOAK_WORKLOADS=W1,W2     workloads (default: every workload it shows)
#   LOCKBENCH=PATH           the binary (default bench/lockbench)
#
# Each run goes into a private temporary directory (results with -o, the file
# workloads' files with --dir), removed on exit and on SIGINT/SIGTERM.  A run
# passes when lockbench exits 0, its result directory holds summary.csv, and it
# left no files or staging directories behind; WARN lines of its checks.csv
# are printed (a warning is not a failure).  A lock whose registry entry says
# it "loses updates" is expected to exit 3 (reported as xfail).
# Exit status: 0 every run passed, 1 some run failed, 2 bad setting or missing
# binary, 130/143 interrupted (SIGINT/SIGTERM).
set -u
# Figures read and printed with a decimal point, whatever the caller's locale.
LC_ALL=C
export LC_ALL

if [ $# -gt 0 ]; then
	case $1 in
	-h | --help) sed -n '2,24s/^# \{0,1\}//p' "$0"; exit 0 ;;
	*) echo "soak: takes no arguments; settings come from the environment (--help)" >&2; exit 2 ;;
	esac
fi

die() {
	echo "soak: $*" >&2
	exit 2
}

top=$(cd "$(dirname "$0")/.." && pwd)
LB=${LOCKBENCH:-$top/bench/lockbench}
[ -x "$LB" ] || die "$LB: not an executable (build it: make, or set LOCKBENCH)"
command -v timeout >/dev/null 2>&1 || die "timeout (coreutils) is needed"

# A positive decimal (fractions allowed), for the seconds settings.
check_seconds() { # NAME VALUE
	case $2 in '' | .* | *. | *[!0-9.]* | *.*.*) die "$1='$2' is not a number of seconds" ;; esac
	awk -v v="$2" 'BEGIN { exit !(v > 0) }' || die "$1='$2' must be above 0"
}
check_count() { # NAME VALUE
	case $2 in '' | *[!0-9]* | 0*) die "$1='$2' is not a positive integer" ;; esac
}

NCPU=$(getconf _NPROCESSORS_ONLN)
S=${SOAK_SECONDS:-4}
F=${SOAK_FACTOR:-8}
W=${SOAK_WATCHDOG:-10}
check_seconds SOAK_SECONDS "$S"
check_count SOAK_FACTOR "$F"
check_seconds SOAK_WATCHDOG "$W"
THREADS=$((F * NCPU))
JOB_THREADS=${SOAK_JOB_THREADS:-$((NCPU + 2))}
check_count SOAK_JOB_THREADS "$JOB_THREADS"
LIMIT=${SOAK_LIMIT:-$(awk -v s="$S" -v w="$W" 'BEGIN { print 4 * s + w + 60 }')}
check_seconds SOAK_LIMIT "$LIMIT"

# The registry is the only list: a section of `lockbench --list`.
. "$top/scripts/registry.sh"
list=$("$LB" --list) || die "$LB --list failed"
registry() { # SECTION [TEXT]
	printf '%s\n' "$list" | registry_names "$@" | tr '\n' ' ' | sed 's/ $//'
}
ALL_LOCKS=$(registry locks)
ALL_WORKLOADS=$(registry workloads)
# Locks that exclude nothing by design: their registry line says so.
NO_EXCLUSION=$(registry locks "loses updates")
# Workloads whose operation is a job: their throughput is per minute.
JOB_WORKLOADS=$(printf '%s\n' "$list" | registry_plan unit | awk '$3 == "min" { print $1 }' | tr '\n' ' ')
pick() { # NAME VALUE "ALLOWED": VALUE (comma/space list) checked against ALLOWED
	for w in $(printf '%s' "$2" | tr , ' '); do
		in_list "$w" "$3" || die "$1: unknown name '$w' (valid: $3)"
		printf '%s ' "$w"
	done
}
LOCKS=$(pick SOAK_LOCKS "${SOAK_LOCKS:-$ALL_LOCKS}" "$ALL_LOCKS") || exit 2
WORKLOADS=$(pick SOAK_WORKLOADS "${SOAK_WORKLOADS:-$ALL_WORKLOADS}" "$ALL_WORKLOADS") || exit 2
# shellcheck disable=SC2086 # the lists split into words on purpose
set -- $LOCKS
NLOCKS=$#
# shellcheck disable=SC2086
set -- $WORKLOADS
NWL=$#
TOTAL=$((NLOCKS * NWL))
[ "$TOTAL" -gt 0 ] || die "nothing to run (SOAK_LOCKS/SOAK_WORKLOADS empty)"

threads_for() { # WORKLOAD
	if in_list "$1" "$JOB_WORKLOADS"; then echo "$JOB_THREADS"; else echo "$THREADS"; fi
}

now() { date +%s.%N; }

# ---- the private directory, and cleaning it up however we leave ----
tmp=$(mktemp -d "${TMPDIR:-/tmp}/lockbench-soak.XXXXXX") || die "mktemp -d failed"
child=""
done_runs=0
cleanup() {
	[ -n "$tmp" ] && rm -rf "$tmp"
	tmp=""
}
on_signal() { # exit status
	trap '' INT TERM
	if [ -n "$child" ]; then
		# timeout passes the signal on to lockbench and, 5 s later, SIGKILL.
		kill -TERM "$child" 2>/dev/null
		wait "$child" 2>/dev/null
	fi
	echo "soak: interrupted after $done_runs of $TOTAL runs" >&2
	cleanup
	exit "$1"
}
trap cleanup EXIT
trap 'on_signal 130' INT
trap 'on_signal 143' TERM
mkdir "$tmp/runs" "$tmp/files" "$tmp/logs" || die "cannot populate $tmp"

# ---- the plan ----
fs_note="" jobs=""
for w in $WORKLOADS; do
	in_list "$w" "$JOB_WORKLOADS" || continue
	fs_note="$fs_note, $w $JOB_THREADS"
	jobs="${jobs:+$jobs, }$w"
done
est=$(awk -v n="$TOTAL" -v s="$S" 'BEGIN { printf "%.0f", n * (s + 0.4) }')
echo "soak: $TOTAL runs ($NLOCKS lock(s) x $NWL workload(s)) with $LB"
echo "soak: $THREADS threads ($F x $NCPU CPUs$fs_note), ${S} s each, --watchdog $W, at most ${LIMIT} s per run"
echo "soak: expected total about $est s ($((est / 60)) min $((est % 60)) s${jobs:+; $jobs under a FIFO spinlock takes longer: every thread finishes its job})"

# ---- the runs ----
nfail=0 nok=0 nxfail=0 nwarn=0
failed="" counts=""
count() { # STATUS: tally per status word, in order of first appearance
	counts=$(printf '%s\n' "$counts" | awk -v s="$1" '
		NF { if ($2 == s) { $1++; hit = 1 } print }
		END { if (!hit) print 1, s }')
}
t_start=$(now)
for lock in $LOCKS; do
	for wl in $WORKLOADS; do
		n=$((done_runs + 1))
		t=$(threads_for "$wl")
		out=$tmp/runs/$lock.$wl
		log=$tmp/logs/$lock.$wl
		t0=$(now)
		timeout -k 5 "$LIMIT" "$LB" -l "$lock" -w "$wl" -t "$t" -d "$S" --watchdog "$W" \
			--dir "$tmp/files" --quiet -o "$out" >"$log.out" 2>"$log.err" &
		child=$!
		wait "$child"
		rc=$?
		child=""
		t1=$(now)
		wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
		ops="-"
		status="" detail=""
		case $rc in
		0) status=ok ;;
		3)
			if in_list "$lock" "$NO_EXCLUSION"; then
				status=xfail detail="lost updates, as its registry entry says"
			else
				status=FAIL:lost-updates
			fi
			;;
		4) status=FAIL:watchdog ;;
		124) status=FAIL:hung detail="no exit within $LIMIT s: stopped by SIGTERM" ;;
		137)
			if awk -v w="$wall" -v l="$LIMIT" 'BEGIN { exit !(w >= l) }'; then
				status=FAIL:hung detail="no exit within $LIMIT s, nor 5 s after SIGTERM: SIGKILLed"
			else
				status=FAIL:killed detail="SIGKILL from outside"
			fi
			;;
		130) status=FAIL:interrupted ;;
		1) status=FAIL:error ;;
		2) status=FAIL:usage ;;
		*)
			status=FAIL:exit-$rc
			[ "$rc" -gt 128 ] && detail="signal $((rc - 128))"
			;;
		esac
		if [ "$rc" = 0 ]; then
			if [ ! -d "$out" ]; then
				status=FAIL:no-results detail="exit 0 but no result directory $out"
			elif [ ! -s "$out/summary.csv" ]; then
				status=FAIL:no-results detail="exit 0 but no summary.csv"
			else
				ops=$(awk -F, '$1 == "ops" { o = $2 } $1 == "unit" { u = $2 } END { print o " " u }' \
					"$out/summary.csv")
			fi
		fi
		# Nothing may be left behind by a run that ended on its own.
		case $status in FAIL:hung | FAIL:killed) ;; *)
			left=$(ls -A "$tmp/files")
			partial=$(cd "$tmp/runs" && ls -d -- *.partial-* 2>/dev/null)
			if [ -n "$left$partial" ]; then
				# shellcheck disable=SC2086 # one name per word
				detail="left behind: $(printf '%s ' $left $partial)"
				status=FAIL:files-left
			fi
			;;
		esac
		rm -rf "$tmp/files" "$tmp/runs"/*.partial-* && mkdir "$tmp/files"

		case $status in
		ok) nok=$((nok + 1)) ;;
		xfail) nxfail=$((nxfail + 1)) ;;
		*) nfail=$((nfail + 1)) failed="$failed $lock/$wl(${status#FAIL:})" ;;
		esac
		count "${status#FAIL:}"
		done_runs=$n
		printf '[%*d/%d] %-16s %-9s %5s thr  %-18s %14s  %6s s\n' ${#TOTAL} "$n" "$TOTAL" \
			"$lock" "$wl" "$t" "$status" "$ops" "$wall"
		[ -n "$detail" ] && printf '      %s\n' "$detail"
		case $status in ok | xfail) ;; *)
			# lockbench's last word: the watchdog's one-line diagnosis, the error.
			tail -n 1 "$log.err" | sed 's/^/      | /'
			;;
		esac
		if [ -f "$out/checks.csv" ]; then
			warns=$(awk -F, 'NR > 1 && $2 == "WARN" { print "      WARN " $1 ": " $3 }' "$out/checks.csv")
			if [ -n "$warns" ]; then
				nwarn=$((nwarn + 1))
				printf '%s\n' "$warns"
			fi
		fi
	done
done
t_end=$(now)
elapsed=$(awk -v a="$t_start" -v b="$t_end" 'BEGIN { printf "%.0f", b - a }')

breakdown="$nok ok"
[ "$nxfail" -gt 0 ] && breakdown="$breakdown, $nxfail xfail"
breakdown=$breakdown$(printf '%s\n' "$counts" | awk 'NF && $2 != "ok" && $2 != "xfail" { printf ", %s %s", $1, $2 }')
[ "$nwarn" -gt 0 ] && breakdown="$breakdown; $nwarn with WARN checks"
[ -n "$failed" ] && echo "soak: failed:$failed"
echo "soak: $TOTAL runs, $nfail failed ($breakdown) in $elapsed s"
[ "$nfail" -eq 0 ]
