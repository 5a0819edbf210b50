#!/bin/sh
# hostile-runall.t — run-all against hostile input (issue 26): every row of
# hostile-runall.tsv, each in a directory of its own and bounded by
# `timeout -s KILL`.  A run directory is untrusted (copied between hosts,
# made by hand): paths and names with quotes, backquotes, spaces, newlines
# and globs; links and FIFOs where run-all reads or writes; a host name made
# to run code; two run-alls on one directory; a comma decimal point; a full
# disk; bad counts.  RUNALL=PATH tests another run-all (e.g. an older one,
# with its scripts/ beside it, to see which rows it fails); ROWS=GLOB runs
# only the rows whose name matches.
top=$(cd "$(dirname "$0")/.." && pwd)
RUNALL=${RUNALL:-$top/run-all}
RUNALL_DIR=$(cd "$(dirname "$RUNALL")" && pwd)
LBT=${LOCKBENCH_TEST:-$top/build/tests/lockbench-test}
case $LBT in /*) ;; *) LBT=$top/$LBT ;; esac
# run-all is a shell script: under a sanitizer only the test lockbench it
# drives would differ, and make test has run every row already.
if [ -n "${SANITIZER:-}" ]; then
	echo "1..0 # skip run-all's hostile rows: make test runs them (a sanitizer changes nothing of run-all's)"
	exit 0
fi
tmp=$(mktemp -d) || exit 1
mounts=""
trap 'for m in $mounts; do umount "$m" 2>/dev/null; done; rm -rf "$tmp"' EXIT
. "$(dirname "$0")/tap.sh"
NL='
'
table=$(dirname "$0")/hostile-runall.tsv
rows=$(grep -cv -e '^#' -e '^$' "$table")
echo "1..$((rows + 1))"
skip() { n=$((n + 1)); echo "ok $n # skip $1"; }

# A PATH without gnuplot (every other tool as it is): rows that draw no chart.
NOGP=$tmp/nogp
mkdir "$NOGP"
for d in /usr/local/bin /usr/bin /bin; do
	[ -d "$d" ] && cp -s "$d"/* "$NOGP/" 2>/dev/null
done
rm -f "$NOGP"/gnuplot*

# The lockbench the rows drive: the test build's, without --kernel-locks
# (its BPF load would cost each run a good second).  --plan run-env probes
# capture with its own binary, past this stand-in: the stand-in's run-env
# says capture is off, as its runs have it.
LB=$tmp/lockbench
printf '#!/bin/sh\n[ "$*" != "--plan run-env" ] || { "%s" --plan run-env | sed "s/^KL=.*/KL=/; s/^KL_WHY=.*/KL_WHY=not in these tests/"; exit; }\ncase " $* " in *" --kernel-locks "*) echo "lockbench: --kernel-locks: not in these tests" >&2; exit 2 ;; esac\nexec "%s" "$@"\n' \
	"$LBT" "$LBT" >"$LB"
chmod +x "$LB"

# install_at DIR: run-all installed at DIR as a dist is (no Makefile: it
# builds nothing): R is its run-all, R_DIR the directory.
install_at() {
	mkdir -p "$1/scripts" "$1/analysis" "$1/bench" || return 1
	cp "$RUNALL" "$1/run-all" && cp "$RUNALL_DIR"/scripts/*.sh "$RUNALL_DIR"/scripts/*.gp "$1/scripts/" &&
		cp "$RUNALL_DIR/analysis/lbcompare" "$1/analysis/lbcompare" && cp "$LB" "$1/bench/lockbench" || return 1
	R=$1/run-all R_DIR=$1
}

# --- the fixture: a small finished run, made by the run-all under test ---
# It and the rows run that run-all installed as a dist is (no Makefile: it
# builds nothing, and needs no compiler on PATH).
INST=$tmp/inst
install_at "$INST" || exit 1
GOOD=$tmp/good
start=$(date +%s)
PATH=$NOGP RUNALL_LOCKBENCH=$LB timeout -s KILL 120 "$INST/run-all" --quick --reps 1 --workloads creat,counter \
	--locks kmutex-spin,kmutex-fix,tas --threads 2 --out "$GOOD" >"$tmp/good.out" 2>&1
rc=$?
echo "# the fixture run took $(($(date +%s) - start)) s"
check "the fixture: a finished run of 5 runs (rc=$rc: $(tail -n 1 "$tmp/good.out"))" \
	'[ $rc -eq 0 ] && [ "$(ls "$GOOD"/runs/*/summary.csv | wc -l)" -eq 5 ]'

# --- setups ---
# good DIR: a copy of the fixture at DIR (D); its report's inode and time kept.
good() {
	cp -R "$GOOD" "$1" || return 1
	D=$1
	stat -c '%i %Y' "$D/report.md" >"$T/report.stamp"
}
# fresh DIR: the same, without what a report derives (data/, plots/,
# report.md): every one of them must be made again.
fresh() {
	good "$1" && rm -f "$D"/data/* "$D"/plots/* "$D/report.md"
}
# hostile_host: every run's meta.csv names a host and CPU made to run code
# wherever they were pasted into a command.
HOSTILE="h'q\`touch pwned\`\"x\$(touch pwned2);@y #z"
hostile_host() {
	for m in "$D"/runs/*/meta.csv; do
		h=$HOSTILE awk -F, '$1 == "hostname" || $1 == "cpu_brand" { print $1 "," ENVIRON["h"]; next } { print }' \
			"$m" >"$m.new" && mv "$m.new" "$m" || return 1
	done
}
# hosts_copy DIR: DIR's runs say they ran on another host (bigbox).
hosts_copy() {
	for m in "$1"/runs/*/meta.csv; do
		sed 's/^hostname,.*/hostname,bigbox/' "$m" >"$m.new" && mv "$m.new" "$m" || return 1
	done
}
# failing_lbcompare: the counter sweep's comparison fails in lbcompare (one
# process writes every comparison: lbcompare --data): a second repetition of
# tas, planned, whose meta.csv names another build, which lbcompare refuses
# to pool (model/builds.h) while each run alone reads well.
failing_lbcompare() {
	r=$D/runs/sweep-counter-t2-tas
	cp -R "$r-r1" "$r-r2" && grep "^sweep-counter-t2-tas-r1 " "$D/plan.txt" | sed 's/-r1 /-r2 /' >>"$D/plan.txt" &&
		awk -F, 'BEGIN { OFS = "," } $1 == "lockbench_build_id" { $2 = "00000000000000000000000000000000000000ff" } { print }' \
			"$r-r1/meta.csv" >"$r-r2/meta.csv" && grep -q "^lockbench_build_id,0*ff$" "$r-r2/meta.csv"
}
# failing_lockbench [LOCK STATUS]: RLB (a script) fails LOCK's runs (ticket's,
# with 1), as a lock does that fails only once it runs a while: not an
# instant one (--max-ops 1).
failing_lockbench() {
	cat >"$RLB" <<EOF
#!/bin/sh
case " \$* " in *" --max-ops "*) ;; *" -l ${1:-ticket} "*) echo "lockbench: injected failure" >&2; exit ${2:-1} ;; esac
exec "$LB" "\$@"
EOF
	chmod +x "$RLB"
}
# e2e_dir: a run directory whose path and names hold spaces, quotes,
# backquotes, globs and newlines, with links out of it and FIFOs in it; and a
# lockbench that only records that it ran.
e2e_dir() {
	good "$T/e2e 'q\`touch pwned\`* \$(touch pwned)" || return 1
	ln -s "$T/victim" "$D/logs/a-link.err"
	mkfifo "$D/logs/b-fifo.err" "$D/runs/sweep-counter-t2-tas-r1/hist.csv.fifo"
	mkdir "$D/runs/odd${NL}name 'q\`touch pwned\`"
	echo "warn: x" >"$D/logs/a${NL}b'\`touch pwned\`.err"
	ln -s /etc "$D/runs/sweep-counter-t2-kmutex-fix-r1/etc"
	RLB=$T/spy
	printf '#!/bin/sh\ntouch "%s/spy-ran"\nexec "%s" "$@"\n' "$T" "$LB" >"$RLB"
	chmod +x "$RLB"
}

# --- checks ---
no_pwned() { [ -z "$(find "$tmp" -name 'pwned*' 2>/dev/null | head -n 1)" ]; }
victim_ok() { [ "$(cat "$T/victim")" = VICTIM ]; }
report_unchanged() { [ "$(stat -c '%i %Y' "$D/report.md")" = "$(cat "$T/report.stamp")" ]; }
nothing_left() { [ ! -e "$D" ] && [ -z "$(ls -A "$T" | grep -v -e '^out$' -e '^err$' -e '^rc$' -e '^victim$')" ]; }
# The report is whole: every planned run finished, every comparison is
# lbcompare's tables (not its error), and the sweep's table has its figures
# where the plan has a sweep.
report_ok() {
	[ -s "$D/report.md" ] && grep -q "^None: all [0-9]* runs finished" "$D/report.md" &&
		ls "$D"/data/*.txt >/dev/null 2>&1 && ! grep -q "^lbcompare: " "$D"/data/*.txt &&
		{ ! grep -q "^sweep-" "$D/plan.txt" || grep -Eq "^\| [0-9]+ \| [0-9]+ \|" "$D/report.md"; }
}
# Every chart the report links is a PNG with its SVG, at least two.
plots_ok() {
	pngs=0
	for img in $(grep -o 'plots/[^)]*\.png' "$D/report.md"); do
		pngs=$((pngs + 1))
		[ "$(head -c 4 "$D/$img" | tail -c 3)" = PNG ] && grep -q "<svg" "$D/${img%.png}.svg" || return 1
	done
	[ $pngs -ge 2 ]
}
svg_title_has_host() { grep -qF "h'q\`touch pwned\`&quot;x\$(touch pwned2);@y #z" "$D/plots/phases-creat-t2.svg" ||
	grep -qF "h'q\`touch pwned\`\"x\$(touch pwned2);@y #z" "$D/plots/phases-creat-t2.svg"; }
e2e_ok() {
	victim_ok && no_pwned && [ ! -e "$T/spy-ran" ] && report_unchanged &&
		! grep -rqs -D skip VICTIM "$D" "$T/out" "$T/err" && [ -p "$D/logs/b-fifo.err" ]
}
# The hosts' report has both hosts, and each directory its own report; no
# comparison is lbcompare's error.
hosts_ok() {
	h=$T/hosts\ \'c
	[ -s "$h/report.md" ] && grep -q "bigbox" "$h/report.md" && ! grep -q "^lbcompare: " "$h"/data/*.txt &&
		[ -s "$T/vm 'a/report.md" ] && [ -s "$T/box 'b/report.md" ] && grep -q "^== across hosts: workload counter" "$h/data/sweep-counter.txt"
}
no_duplicates() { ! ls "$D"/runs | grep -q -- '-2$'; }
plan_whole() { [ "$(wc -l <"$D/plan.txt")" -eq 2 ] && [ -s "$D/report.md" ] && grep -q "^None: all 2 runs finished" "$D/report.md"; }
resumed() { [ "$(cat "$T/resume.rc")" = 0 ] && [ "$(ls "$D"/runs/*/summary.csv | wc -l)" -eq 6 ] && [ -s "$D/report.md" ]; }

# --- scenarios: rows that run more than one command ---
# runall ARGS...: run-all as a row runs it, into T/out, T/err, T/rc.
runall() {
	env PATH="$P" RUNALL_LOCKBENCH="$RLB" $E timeout -s KILL "$SECS" "$R" "$@" >"$T/out" 2>"$T/err"
	echo $? >"$T/rc"
}
# files.sh's functions, in a shell of their own, as run-all uses them.
files_sh() { # SCRIPT
	timeout -s KILL "$SECS" sh -c 'die() { echo "die: $*" >&2; exit 2; }; out_unwritable() { exit 3; }
		. "$1/scripts/files.sh" && eval "$2"' sh "$RUNALL_DIR" "$1" >"$T/out" 2>"$T/err"
	echo $? >"$T/rc"
}
# A string with every character gnuplot could take as code (a quote first,
# last and doubled; backquotes; $(); a macro after a quote; #; backslashes;
# a newline), made an expression by gp_string, comes back from gnuplot as it
# was (no macro expanded), and runs nothing.
scenario_gp_string() {
	GPS="''a'b''c\`touch pwned\`\"d\`touch pwned2\`\";e@f #g\\h\\n x${NL}y \$(touch pwned3)'@GPVAL_PWD\"'@GPVAL_PWD''"
	export GPS T
	cat >"$T/gp.sh" <<'EOF'
cd "$T" && gnuplot -e "x=$(gp_string "$GPS"); set print 'got'; print x" && [ "$(cat got)" = "$GPS" ]
EOF
	files_sh '. "$T/gp.sh"'
}
scenario_write_file() {
	export T
	ln -s "$T/victim" "$T/link"
	mkfifo "$T/fifo"
	files_sh 'write_file "$T/link" new && write_file "$T/fifo" new &&
		[ ! -L "$T/link" ] && [ "$(cat "$T/link")" = new ] && [ -f "$T/fifo" ] && [ "$(cat "$T/fifo")" = new ]'
}
# read_file refuses a link or a FIFO; and one swapped in between its test and
# its read (stat, shadowed here, does the swap) is not followed or waited on.
scenario_read_file() {
	export T
	echo data >"$T/file"
	ln -s "$T/victim" "$T/link"
	mkfifo "$T/fifo"
	files_sh '! read_file "$T/link" 100 && ! read_file "$T/fifo" 100 && [ "$(read_file "$T/file" 100)" = data ] &&
		stat() { rm -f "$T/file"; ln -s "$T/victim" "$T/file"; echo 5; } &&
		! read_file "$T/file" 100 >"$T/got1" && ! grep -q VICTIM "$T/got1" &&
		rm "$T/file" && echo data >"$T/file" &&
		stat() { rm -f "$T/file"; mkfifo "$T/file"; echo 5; } &&
		read_file "$T/file" 100 >"$T/got2" && [ ! -s "$T/got2" ]'
	: >"$T/err"
}
# scenario_live OPTION: OPTION (--resume or --report) of a directory that
# another run-all is writing.
live_start() { # DIR: a run-all of 8 runs, once its first run has finished
	env PATH="$P" RUNALL_LOCKBENCH="$RLB" timeout -s KILL 120 "$R" --quick --reps 4 --workloads counter --locks tas,ticket \
		--threads 1 --out "$1" >"$T/live.out" 2>&1 &
	live=$!
	i=0
	while [ $i -lt 600 ] && ! ls "$1"/runs/*/summary.csv >/dev/null 2>&1; do sleep 0.1; i=$((i + 1)); done
}
scenario_live() {
	D=$T/live
	live_start "$D"
	runall "$1" "$D"
	kill -TERM $live 2>/dev/null
	wait $live
}
scenario_two() {
	D=$T/two
	env PATH="$P" RUNALL_LOCKBENCH="$RLB" timeout -s KILL "$SECS" "$R" --quick --reps 1 --workloads counter --locks tas,ticket \
		--threads 1 --out "$D" >"$T/a.out" 2>"$T/a.err" &
	a=$!
	env PATH="$P" RUNALL_LOCKBENCH="$RLB" timeout -s KILL "$SECS" "$R" --quick --reps 1 --workloads counter --locks tas,ticket \
		--threads 1 --out "$D" >"$T/b.out" 2>"$T/b.err" &
	b=$!
	wait $a
	ra=$?
	wait $b
	rb=$?
	# The row's status and stderr are the refused one's, when one was.
	case $ra:$rb in
	0:*) cp "$T/b.out" "$T/out"; cp "$T/b.err" "$T/err"; echo $rb >"$T/rc" ;;
	*:0) cp "$T/a.out" "$T/out"; cp "$T/a.err" "$T/err"; echo $ra >"$T/rc" ;;
	*) cat "$T/a.err" "$T/b.err" >"$T/err"; : >"$T/out"; echo "$ra:$rb" >"$T/rc" ;;
	esac
}
# A 600 KiB tmpfs, all but 150 KiB of it filled: a few runs fit, then the
# disk is full; once the filler is gone, --resume finishes the plan.
scenario_full() {
	mkdir "$T/mnt" && mount -t tmpfs -o size=600k tmpfs "$T/mnt" || { echo 99 >"$T/rc"; return; }
	mounts="$mounts $T/mnt"
	avail=$(df -k --output=avail "$T/mnt" | tail -n 1)
	head -c $(((avail - 150) * 1024)) /dev/zero >"$T/mnt/filler"
	D=$T/mnt/out
	runall --quick --reps 3 --workloads counter --locks tas,ticket --threads 1 --out "$D"
	rm "$T/mnt/filler"
	env PATH="$P" RUNALL_LOCKBENCH="$RLB" timeout -s KILL "$SECS" "$R" --resume "$D" >"$T/resume.out" 2>&1
	echo $? >"$T/resume.rc"
}
# The output directory removed once the first run has finished.
scenario_vanish() {
	D=$T/vanish
	env PATH="$P" RUNALL_LOCKBENCH="$RLB" timeout -s KILL "$SECS" "$R" --quick --reps 4 --workloads counter --locks tas,ticket \
		--threads 1 --out "$D" >"$T/out" 2>"$T/err" &
	pid=$!
	i=0
	while [ $i -lt 600 ] && ! ls "$D"/runs/*/summary.csv >/dev/null 2>&1; do sleep 0.1; i=$((i + 1)); done
	rm -rf "$D"
	wait $pid
	echo $? >"$T/rc"
}

# Why a row must be skipped here, if it must.
LOCALES=$tmp/locales
unmet() {
	for need in $(echo "$1" | tr , ' '); do
		case $need in
		-) ;;
		gnuplot) command -v gnuplot >/dev/null || { echo "no gnuplot"; return; } ;;
		mount)
			[ "$(id -u)" -eq 0 ] || { echo "needs root to mount a tmpfs"; return; }
			mkdir -p "$tmp/mnt-probe" && mount -t tmpfs -o size=64k tmpfs "$tmp/mnt-probe" 2>/dev/null ||
				{ echo "cannot mount a tmpfs here"; return; }
			umount "$tmp/mnt-probe" ;;
		locale)
			[ -d "$LOCALES/tr_TR.UTF-8" ] || { mkdir -p "$LOCALES" &&
				localedef -i tr_TR -f UTF-8 "$LOCALES/tr_TR.UTF-8" >/dev/null 2>&1; } ||
				{ echo "localedef cannot build tr_TR.UTF-8 (no locales data)"; return; } ;;
		*) echo "unknown need '$need'"; return ;;
		esac
	done
}

# --- the rows ---
row=0
while IFS= read -r line; do
	case $line in "#"* | "") continue ;; esac
	row=$((row + 1))
	name=$(printf '%s' "$line" | awk -F'\t+' '{ print $1 }')
	needs=$(printf '%s' "$line" | awk -F'\t+' '{ print $2 }')
	SECS=$(printf '%s' "$line" | awk -F'\t+' '{ print $3 }')
	want_rc=$(printf '%s' "$line" | awk -F'\t+' '{ print $4 }')
	want_err=$(printf '%s' "$line" | awk -F'\t+' '{ print $5 }')
	setup=$(printf '%s' "$line" | awk -F'\t+' '{ print $6 }')
	chk=$(printf '%s' "$line" | awk -F'\t+' '{ print $7 }')
	args=$(printf '%s' "$line" | awk -F'\t+' '{ print $8 }')
	case $name in ${ROWS:-*}) ;; *) skip "$name: not in ROWS"; continue ;; esac
	why=$(unmet "$needs")
	if [ -n "$why" ]; then
		skip "$name: $why"
		continue
	fi
	T=$tmp/row-$row
	mkdir "$T"
	echo VICTIM >"$T/victim"
	D=$T/d R=$INST/run-all R_DIR=$INST RLB=$LB E="" GP="" FSIZE="" P=$NOGP
	t0=$(date +%s)
	case $setup in
	scenario_*)
		eval "$setup" ;;
	*)
		eval "$setup" || { not_ok "$name (its setup failed: $setup)"; continue; }
		[ -z "$GP" ] || P=$PATH
		(
			cd "$T" || exit 99
			[ -z "$FSIZE" ] || ulimit -f "$FSIZE"
			eval "set -- $args"
			exec env PATH="$P" RUNALL_LOCKBENCH="$RLB" $E timeout -s KILL "$SECS" "$R" "$@"
		) >"$T/out" 2>"$T/err"
		echo $? >"$T/rc" ;;
	esac
	rc=$(cat "$T/rc")
	secs=$(($(date +%s) - t0))
	lines=$(wc -l <"$T/err")
	case $want_err in
	-) err_ok='[ ! -s "$T/err" ]' ;;
	"~"*) err_ok='grep -qF -- "${want_err#"~"}" "$T/err"' ;;
	*) err_ok='[ $lines -eq 1 ] && grep -qF -- "$want_err" "$T/err"' ;;
	esac
	[ "$chk" != - ] || chk=:
	check "$name (rc=$rc, ${secs} s: $(head -c 300 "$T/err" | tr '\n' '|'))" \
		'[ "$rc" = "$want_rc" ] && eval "$err_ok" && eval "$chk"'
done <"$table"
