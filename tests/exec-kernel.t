#!/bin/sh
# exec-kernel.t — `lockbench --exec --kernel-locks` (bench/exec/launcher/start.c,
# docs/exec.md): the kernel lock capture follows the program's process (its
# tgid: all its threads), loaded before the program runs: a program whose
# threads read() one shared descriptor (tests/exec_prog.c's fpos case)
# waits on the file's f_pos_lock, a kernel mutex, and the result directory
# has a benchmark's kernel files and keys with those waits (the histogram
# adds up, the top-locks table names the caller), which lbcompare reads;
# the program's forked children are not followed; without privileges: one
# line, exit 2, nothing written, the program never run.  Checks that need
# the capture are skipped, saying why, where it cannot load.
LB=${LOCKBENCH:-bench/lockbench}
CMP=${LBCOMPARE:-analysis/lbcompare}
PROG=${EXEC_PROG:-build/tests/exec_prog}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/tap.sh"
exec_preamble

echo "1..9"

capture_probe
# fpos_rows DIR: kernel-locks.csv's mutex rows whose caller ($13) takes a file's position lock.
fpos_rows() { awk -F, 'NR > 1 && $3 == "mutex" && $13 ~ /fdget_pos/' "$1/kernel-locks.csv" 2>/dev/null; }

r=$tmp/fpos
[ -z "$skip" ] && lb -l kmutex-fix --exec --kernel-locks -o "$r" --quiet -- "$PROG" fpos
# (The machine probe's warnings, a loaded machine's TSC check cut short, may come first.)
capture "--exec --kernel-locks: exit 0, nothing on stderr but warnings ($(head -c 200 "$tmp/err"))" \
	'[ "$rc" -eq 0 ] && ! grep -qv "^lockbench: WARNING: " "$tmp/err"'
nmutex=$(val "$r" kernel_contentions_mutex 2>/dev/null)
capture "the program's kernel mutex waits counted ($nmutex), split by how they ended" \
	'[ "${nmutex:-0}" -gt 0 ] && [ "$(($(val "$r" kernel_mutex_via_spin) + $(val "$r" kernel_mutex_via_spin_sleep) +
	   $(val "$r" kernel_mutex_via_sleep)))" = "$nmutex" ]'
hsum=$(awk -F, 'NR > 1 { s += $3 } END { print s + 0 }' "$r/kernel-hist.csv" 2>/dev/null)
capture "kernel-hist.csv's total equals kernel_contentions ($hsum)" \
	'[ "$hsum" -gt 0 ] && [ "$hsum" = "$(val "$r" kernel_contentions)" ] && [ -n "$(val "$r" kernel_release)" ]'
capture "kernel-locks.csv: the f_pos_lock's waits, called from fdget_pos ($(fpos_rows "$r" | cut -d, -f4 | head -n 1))" \
	'[ "$(fpos_rows "$r" | cut -d, -f4 | head -n 1)" -gt 0 ]'
capture "lbcompare reads it: the kernel waits table has the run" \
	'"$CMP" "$r" 2>"$tmp/cmp.err" | awk "/kernel waits/ { on = 1; next } on && \$1 == \"kmutex-fix\" { print \$2; exit }" |
	 grep -qx "$(val "$r" kernel_contentions)" && [ ! -s "$tmp/cmp.err" ]'

# The same waits in a child the program forks: not the program's process.
# (sh ends by _exit: exit 1, "wrote no figures"; the directory is written.)
c=$tmp/child
[ -z "$skip" ] && lb -l kmutex-fix --exec --kernel-locks -o "$c" --quiet -- sh -c "\"$PROG\" fpos >/dev/null; :"
capture "a forked child's waits are not followed: the directory has no f_pos_lock wait ($(val "$c" kernel_contentions_mutex))" \
	'[ -f "$c/kernel-locks.csv" ] && [ -z "$(fpos_rows "$c")" ] && [ "$(val "$c" kernel_contentions_mutex)" -lt "$nmutex" ]'

# Without the capture: one line, exit 2, nothing written, the program never run.
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
	mkdir -m 777 "$tmp/x"
	chmod 755 "$tmp"
	setpriv --reuid=65534 --regid=65534 --clear-groups "$LB" -l kmutex-fix --exec --kernel-locks -o "$tmp/x/r" \
		-- sh -c "touch $tmp/x/ran" >"$tmp/x.out" 2>"$tmp/x.err"
	rc=$?
	check "without privileges: exit 2, one line ($rc: $(cat "$tmp/x.err"))" \
		'[ $rc -eq 2 ] && [ "$(wc -l <"$tmp/x.err")" -eq 1 ] && grep -q -- "--kernel-locks" "$tmp/x.err"'
	check "and nothing written, the program not run" 'empty "$tmp/x"'
else
	ok "without privileges: exit 2, one line # skip needs root and setpriv"
	ok "and nothing written, the program not run # skip needs root and setpriv"
fi
# Without --kernel-locks no kernel file.
lb -l kmutex-fix --exec -o "$tmp/plain" --quiet -- "$PROG" fpos
check "without --kernel-locks: no kernel files or keys" \
	'[ "$rc" -eq 0 ] && [ ! -e "$tmp/plain/kernel-hist.csv" ] && [ -z "$(val "$tmp/plain" kernel_contentions)" ]'
