#!/bin/sh
# results.t — nothing lost: a full disk while result files are written, or a
# signal during a run, leaves complete result directories or none, never a
# partial one, and says so in one line.
LB=${LOCKBENCH:-bench/lockbench}
tmp=$(mktemp -d) || exit 1
trap 'umount "$tmp/mnt" 2>/dev/null; rm -rf "$tmp"' EXIT
. "$(dirname "$0")/tap.sh"

echo "1..11"

# A file-size limit of 0 makes every write fail with EFBIG, as a full disk
# fails with ENOSPC; SIGXFSZ ignored so the write returns the error.  stderr
# goes through a pipe: a file would be refused too.
mkdir "$tmp/full"
msg=$( (trap '' XFSZ; ulimit -f 0; "$LB" -l tas -t 2 -d 0.05 --warmup 0 --quiet -o "$tmp/full/r" 2>&1; echo "rc=$?") | cat)
check "a failed result write is exit status 1" 'echo "$msg" | grep -q "^rc=1$"'
check "with one line naming the file" \
	'[ "$(echo "$msg" | wc -l)" -eq 2 ] && echo "$msg" | grep -q "^lockbench: cannot write .*summary.csv: File too large$"'
check "and leaves no directory, partial or whole" 'empty "$tmp/full"'

# A file system that takes no more writes is exit status 5, not 1: the
# directory's, which every later run there would meet (run-all stops on
# it).  A 600 KiB tmpfs filled to 8 KiB: the staging directory is made, a
# result file fails with ENOSPC.  Then the same tmpfs read-only.
if [ "$(id -u)" -eq 0 ] && mkdir "$tmp/mnt" && mount -t tmpfs -o size=600k tmpfs "$tmp/mnt" 2>/dev/null; then
	avail=$(df -k --output=avail "$tmp/mnt" | tail -n 1)
	head -c $(((avail - 8) * 1024)) /dev/zero >"$tmp/mnt/filler" 2>/dev/null
	"$LB" -l tas -t 2 -d 0.05 --warmup 0 --quiet -o "$tmp/mnt/r" 2>"$tmp/enospc.err"
	rc=$?
	check "a full file system is exit status 5, one line (rc=$rc: $(head -c 200 "$tmp/enospc.err"))" \
		'[ $rc -eq 5 ] && [ "$(wc -l <"$tmp/enospc.err")" -eq 1 ] && grep -q "No space left on device" "$tmp/enospc.err"'
	check "and leaves nothing but the filler" '[ "$(ls -A "$tmp/mnt")" = filler ]'
	# --exec writes its result files through the same directory: the same status.
	"$LB" -l pthread --exec --quiet -o "$tmp/mnt/x" -- true 2>"$tmp/exec-enospc.err"
	rc=$?
	check "--exec on a full file system is exit status 5, one line (rc=$rc: $(head -c 200 "$tmp/exec-enospc.err"))" \
		'[ $rc -eq 5 ] && [ "$(wc -l <"$tmp/exec-enospc.err")" -eq 1 ] && [ "$(ls -A "$tmp/mnt")" = filler ]'
	rm -f "$tmp/mnt/filler"
	mount -o remount,ro "$tmp/mnt"
	"$LB" -l tas -t 2 -d 0.05 --warmup 0 --quiet -o "$tmp/mnt/r" 2>"$tmp/erofs.err"
	rc=$?
	check "a read-only one is exit status 5 too (rc=$rc: $(head -c 200 "$tmp/erofs.err"))" \
		'[ $rc -eq 5 ] && grep -q "Read-only file system" "$tmp/erofs.err"'
	"$LB" -l pthread --exec --quiet -o "$tmp/mnt/x" -- true 2>"$tmp/exec-erofs.err"
	rc=$?
	check "--exec on a read-only one too (rc=$rc: $(head -c 200 "$tmp/exec-erofs.err"))" \
		'[ $rc -eq 5 ] && grep -q "Read-only file system" "$tmp/exec-erofs.err"'
	umount "$tmp/mnt"
else
	for what in "a full file system is exit status 5" "and leaves nothing but the filler" "--exec on a full file system is exit status 5" \
		"a read-only one is exit status 5 too" "--exec on a read-only one too"; do
		ok "$what # skip needs root to mount a tmpfs"
	done
fi

mkdir "$tmp/sig"
"$LB" -l futex -t 4 -d 30 -o "$tmp/sig/r" >"$tmp/sig.out" 2>"$tmp/sig.err" &
pid=$!
# Signalled once its partial directory is there (the stop signals are
# caught before it is made): a fixed 0.5 s could come before, on a loaded
# machine, and SIGTERM's default action then gave 143.
i=0
while [ -z "$(ls -A "$tmp/sig")" ] && [ $i -lt 200 ] && kill -0 $pid 2>/dev/null; do
	sleep 0.05
	i=$((i + 1))
done
sleep 0.2
kill -TERM $pid
wait $pid
rc=$?
check "a run stopped by SIGTERM is exit status 130 (rc=$rc)" '[ $rc -eq 130 ]'
check "and writes nothing" 'empty "$tmp/sig"'

"$LB" -l tas -t 2 -d 0.05 --warmup 0 --quiet -o "$tmp/sig/r" 2>"$tmp/ok.err"
check "the next run there is whole" \
	'[ $? -eq 0 ] && [ -s "$tmp/sig/r/summary.csv" ] && [ -s "$tmp/sig/r/meta.csv" ] && [ "$(ls "$tmp/sig")" = r ]'
