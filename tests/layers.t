#!/bin/sh
# layers.t — lockbench's C code runs one way (scripts/layers.sh): in this
# build's objects no two files call each other and no call goes up the
# layers, nor does an include; and the script does refuse a build where two
# objects call each other, or one calls up, but not for an object whose
# source is gone (an older build's, of a file since moved).
top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/tap.sh"

# This build's objects: make test's BUILD, read off the test lockbench's path.
build=${LOCKBENCH_TEST:-build/tests/lockbench-test}
build=${build%/tests/lockbench-test}
echo "1..6"

"$top/scripts/layers.sh" "$build" >"$tmp/out" 2>&1
rc=$?
check "the build's objects and the includes run one way (rc=$rc: $(tail -n 1 "$tmp/out"))" \
	'[ $rc -eq 0 ] && grep -q "^one way: no cycle, no edge up the layers$" "$tmp/out"'
[ $rc -eq 0 ] || sed 's/^/# /' "$tmp/out"

# A made-up tree (SRC) and its build of three objects: locks/a.c and
# locks/b.c call each other, locks/c.c calls bench/core/d.c, a layer above it.
fake=$tmp/build src=$tmp/src
mkdir -p "$fake/locks" "$fake/bench/core" "$src/locks" "$src/bench/core"
printf 'int b(void);\nint a(void) { return b(); }\n' >"$src/locks/a.c"
printf 'int a(void);\nint b(void) { return a() + 1; }\n' >"$src/locks/b.c"
printf 'int d(void);\nint c(void) { return d(); }\n' >"$src/locks/c.c"
printf 'int d(void) { return 4; }\n' >"$src/bench/core/d.c"
compile() { for f in "$@"; do ${CC:-cc} -c -o "$fake/${f%.c}.o" "$src/$f" || exit 1; done; }
compile locks/a.c locks/b.c locks/c.c bench/core/d.c
"$top/scripts/layers.sh" "$fake" "$src" >"$tmp/out" 2>&1
rc=$?
check "two objects that call each other are a cycle (rc=$rc)" \
	'[ $rc -eq 1 ] && sed -n "/^calls: CYCLE:/,/^[a-z]/p" "$tmp/out" | grep -q "locks/a.c" &&
	 sed -n "/^calls: CYCLE:/,/^[a-z]/p" "$tmp/out" | grep -q "locks/b.c"'
check "a call up the layers is named" 'grep -qx "  UP: locks/c.c -> bench/core/d.c" "$tmp/out"'

# lbcompare's stack: analysis/print/p.c and analysis/print/q.c call each
# other (the loop the printers had: a dispatcher and the tables it calls
# calling back into it), and analysis/files/r.c calls bench/core/d.c,
# across from lbcompare's stack into lockbench's.
rm -rf "$fake/locks" "$src/locks"
mkdir -p "$fake/analysis/print" "$fake/analysis/files" "$src/analysis/print" "$src/analysis/files"
printf 'int q(void);\nint p(void) { return q(); }\n' >"$src/analysis/print/p.c"
printf 'int p(void);\nint q(void) { return p() + 1; }\n' >"$src/analysis/print/q.c"
printf 'int d(void);\nint r(void) { return d(); }\n' >"$src/analysis/files/r.c"
compile analysis/print/p.c analysis/print/q.c analysis/files/r.c
"$top/scripts/layers.sh" "$fake" "$src" >"$tmp/out" 2>&1
rc=$?
check "two of analysis/'s objects that call each other are a cycle (rc=$rc)" \
	'[ $rc -eq 1 ] && sed -n "/^calls: CYCLE:/,/^[a-z]/p" "$tmp/out" | grep -q "analysis/print/p.c" &&
	 sed -n "/^calls: CYCLE:/,/^[a-z]/p" "$tmp/out" | grep -q "analysis/print/q.c"'
check "a call from lbcompare's stack into lockbench's is named" \
	'grep -qx "  ACROSS: analysis/files/r.c -> bench/core/d.c" "$tmp/out"'

# A file moved: an older build's object is still in BUILD, its source gone
# from SRC.  Its calls (here, up from locks/ into bench/core/) are not the
# code's: the tree is clean.
fake=$tmp/build2 src=$tmp/src2
mkdir -p "$fake/locks" "$fake/bench/core" "$src/locks" "$src/bench/core"
printf 'int d(void) { return 4; }\n' >"$src/bench/core/d.c"
printf 'int d(void);\nint e(void) { return d(); }\n' >"$src/locks/e.c"
compile bench/core/d.c locks/e.c
rm "$src/locks/e.c"
"$top/scripts/layers.sh" "$fake" "$src" >"$tmp/out" 2>&1
rc=$?
check "an object whose source is gone is not read (rc=$rc: $(grep -m 1 'locks/e\.c' "$tmp/out"))" \
	'[ $rc -eq 0 ] && ! grep -q "locks/e\.c" "$tmp/out"'
