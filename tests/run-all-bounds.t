#!/bin/sh
# run-all-bounds.t — what run-all refuses or bounds before its first run
# (run-all, docs/run-all.md): RUNALL_TMPFS whose name is not a plain word (a
# newline would reach settings and make the directory unreadable for good)
# is one line and exit 2, nothing made; a program that hangs in the
# pre-flight is stopped after RUNALL_PREFLIGHT_S (here 2 s), with its
# process group, in one line and exit 2, where run-all waited for ever.
top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/tap.sh"
LB=${LOCKBENCH:-$top/bench/lockbench}
case $LB in /*) ;; *) LB=$PWD/$LB ;; esac
export LOCKBENCH_EXEC_SO="${LOCKBENCH_EXEC_SO:-$top/build/liblockbench-exec.so}"
exec_tsan_options
ra() { timeout -s KILL 120 "$top/run-all" "$@" >"$tmp/out" 2>&1; rc=$?; }
echo "1..3"

RUNALL_TMPFS=$(printf '/tmp/a\nb') ra --lockbench "$LB" --quick --reps 1 --workloads creat --locks kmutex-spin --threads 1 \
	--out "$tmp/nl"
check "RUNALL_TMPFS with a newline: one line, exit 2, nothing made ($rc: $(head -c 200 "$tmp/out"))" \
	'[ $rc -eq 2 ] && [ "$(wc -l <"$tmp/out")" -eq 1 ] && grep -q "^run-all: RUNALL_TMPFS: ./tmp/a?b.: not a directory name" "$tmp/out" &&
	 [ ! -e "$tmp/nl" ]'

if ! command -v sysbench >/dev/null 2>&1; then
	for t in 2 3; do ok "# skip sysbench not installed (scripts/deps.sh installs it)"; done
	exit 0
fi
# A lockbench whose program runs never end (sleep, of a length of its own to
# be found afterwards); everything else is the real one's.
nap=$((600 + $$ % 300))
cat >"$tmp/lb" <<EOF
#!/bin/sh
case " \$* " in *" --program "*) exec sleep $nap ;; esac
exec "$LB" "\$@"
EOF
chmod +x "$tmp/lb"
start=$(date +%s)
RUNALL_PREFLIGHT_S=2 ra --lockbench "$tmp/lb" --quick --reps 1 --workloads sysbench-mutex --threads 1 --out "$tmp/hang"
took=$(($(date +%s) - start))
check "a program that hangs the pre-flight: one line, exit 2, in $took s ($rc: $(tail -n 1 "$tmp/out" | head -c 200))" \
	'[ $rc -eq 2 ] && [ "$took" -lt 60 ] && grep -q "^run-all: the plan.s runs cannot run here: the program did not end within 2 s" "$tmp/out" &&
	 [ ! -e "$tmp/hang" ]'
sleep 1
check "... and nothing of it is left running" '! pgrep -f "^sleep $nap$" >/dev/null'
