#!/bin/sh
# run-all-dir.t — where run-all's file workloads make their files: the
# workloads `lockbench --list` says take a directory (takes-dir) get --dir in
# their plan lines, the others never; by default a writable tmpfs (/dev/shm,
# RUNALL_TMPFS here) with room, else $TMPDIR with the reason; --dir DIR
# chooses; settings record the choice and --resume keeps it; a bad --dir is
# one line, exit 2, and nothing made.  Each run is stopped as soon as its
# first run starts, except the resumed one.
top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d) || exit 1
pid=""
trap '[ -z "$pid" ] || kill "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT
. "$(dirname "$0")/tap.sh"
LB=${LOCKBENCH:-$top/bench/lockbench}
case $LB in /*) ;; *) LB=$PWD/$LB ;; esac
echo "1..12"

# plan_only OUT ARGS...: run-all until its first run starts (its plan is
# written and announced), then stopped.
plan_only() {
	out=$1
	shift
	"$top/run-all" --lockbench "$LB" --quick --reps 1 --threads 1 --locks pthread --out "$out" "$@" \
		>"$out.out" 2>&1 &
	pid=$!
	i=0
	while ! grep -qs "^\[1/" "$out.out" && [ $i -lt 600 ] && kill -0 $pid 2>/dev/null; do
		sleep 0.1
		i=$((i + 1))
	done
	kill -TERM $pid 2>/dev/null
	wait $pid 2>/dev/null
	pid=""
}
setting() { sed -n "s/^$1=//p" "$2/settings"; }
takes_dir=$("$LB" --list | awk '/^[a-z]+:$/ { on = ($0 == "plan:"); next } on && $1 == "takes-dir" { printf "%s ", $2 }')
check "--list's plan: section names creat, fserver and fpos as taking a directory, not counter ($takes_dir)" \
	'[ "$takes_dir" = "creat fserver fpos " ]'

# --- --dir DIR: the file workloads' plan lines carry it, counter's not ---
mkdir -p "$tmp/d" "$tmp/t"
ln -s "$tmp/d" "$tmp/link"
plan_only "$tmp/a" --workloads creat,fserver,counter --dir "$tmp/link"
real=$(cd "$tmp/d" && pwd -P)
check "--dir: every creat and fserver line has --dir and the resolved directory" \
	'[ "$(grep -c "^patch-\(creat\|fserver\)-" "$tmp/a/plan.txt")" -eq 2 ] &&
	 [ "$(grep -c -- " -w \(creat\|fserver\) .* --dir $real --seed 1\$" "$tmp/a/plan.txt")" -eq 2 ]'
check "counter's lines have no --dir" \
	'grep -q "^sweep-counter-" "$tmp/a/plan.txt" && ! grep -- " -w counter " "$tmp/a/plan.txt" | grep -q -- "--dir"'
check "settings record it as --dir's, and run-all says so" \
	'[ "$(setting DIR "$tmp/a")" = "$real" ] && [ "$(setting DIR_WHY "$tmp/a")" = "--dir" ] &&
	 grep -qx "run-all: the file workloads make their files in $real (--dir)" "$tmp/a.out"'

# --- the default: the tmpfs where it is one, else $TMPDIR with the reason ---
if [ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ] && [ -w /dev/shm ]; then
	plan_only "$tmp/b" --workloads creat
	check "by default creat goes to /dev/shm, a writable tmpfs, and settings say why" \
		'grep -q -- " --dir /dev/shm --seed 1$" "$tmp/b/plan.txt" && [ "$(setting DIR "$tmp/b")" = /dev/shm ] &&
		 setting DIR_WHY "$tmp/b" | grep -Eqx "default: a writable tmpfs with [0-9]+ MiB free"'
else
	ok "# skip /dev/shm is not a writable tmpfs here"
fi
# A candidate that is not a tmpfs (the test's own directory, where it is not).
(export RUNALL_TMPFS="$tmp/d" TMPDIR="$tmp/t" && plan_only "$tmp/e" --workloads creat)
fs=$(stat -f -c %T "$tmp/d")
if [ "$fs" != tmpfs ]; then
	check "a candidate that is not a tmpfs: \$TMPDIR, with the reason, in settings and on stdout" \
		'grep -q -- " --dir $(cd "$tmp/t" && pwd -P) --seed 1$" "$tmp/e/plan.txt" &&
		 [ "$(setting DIR_WHY "$tmp/e")" = "default: TMPDIR, as $tmp/d is $fs, not tmpfs" ] &&
		 grep -q "^run-all: the file workloads make their files in .* (default: TMPDIR, as $tmp/d is $fs, not tmpfs)$" "$tmp/e.out"'
else
	ok "# skip the test directory is itself on tmpfs"
fi
(export RUNALL_TMPFS="$tmp/nowhere" && plan_only "$tmp/f" --workloads counter)
check "no file workload planned: no directory chosen, none printed" \
	'! grep -q -- "--dir" "$tmp/f/plan.txt" && [ -z "$(setting DIR "$tmp/f")" ] && ! grep -q "file workloads" "$tmp/f.out"'

# --- --resume keeps the directory, and sweeps it for a killed lockbench's ---
sleep 30 &
dead=$!
kill $dead
wait $dead 2>/dev/null
mkdir -p "$tmp/d/lockbench-creat-AAAAAA"
echo "$dead 1 $(cat /proc/sys/kernel/random/boot_id)" >"$tmp/d/lockbench-creat-AAAAAA/.lockbench-owner"
cp "$tmp/a/plan.txt" "$tmp/a-plan"
"$top/run-all" --lockbench "$LB" --resume "$tmp/a" >"$tmp/resume.out" 2>&1
rc=$?
check "--resume runs the plan as it was, in the same directory, and removes its orphan (rc=$rc)" \
	'[ $rc -eq 0 ] && cmp -s "$tmp/a-plan" "$tmp/a/plan.txt" && [ "$(setting DIR "$tmp/a")" = "$real" ] &&
	 [ ! -e "$tmp/d/lockbench-creat-AAAAAA" ] &&
	 [ "$(awk -F, "\$1 == \"workload_dir\" { print \$2 }" "$tmp/a/runs/patch-creat-t1-pthread-r1/meta.csv")" = "$real" ]'

# --- bad uses: one line, exit 2, nothing made ---
bad_dir() { # NAME EXPECTED ARGS...
	name=$1 want=$2
	shift 2
	"$top/run-all" --lockbench "$LB" --out "$tmp/no" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	check "$name (rc=$rc: $(head -c 200 "$tmp/err"))" \
		'[ $rc -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -qxF -- "$want" "$tmp/err" && [ ! -s "$tmp/out" ] &&
		 [ ! -e "$tmp/no" ]'
}
bad_dir "--dir that is not there" "run-all: --dir: '$tmp/none' is not a writable directory" --dir "$tmp/none"
echo x >"$tmp/file"
bad_dir "--dir naming a file" "run-all: --dir: '$tmp/file' is not a writable directory" --dir "$tmp/file"
bad_dir "--dir with a blank in its name" \
	"run-all: --dir: '$tmp/a b': not a directory name of letters, digits and ._/- (plan lines carry it as a plain word)" \
	--dir "$tmp/a b"
bad_dir "--dir with --resume" "run-all: --dir: a resumed run keeps its directory" --dir "$tmp/d" --resume "$tmp/a"
