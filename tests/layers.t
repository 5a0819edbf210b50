#!/bin/sh
# layers.t — lockbench's C code runs one way (scripts/layers.sh): in this
# build's objects no two files call each other and no call goes up the
# layers, nor does an include; and the script does refuse a build where two
# objects call each other, or one calls up.
top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/tap.sh"

# This build's objects: make test's BUILD, read off the test lockbench's path.
build=${LOCKBENCH_TEST:-build/tests/lockbench-test}
build=${build%/tests/lockbench-test}
echo "1..3"

"$top/scripts/layers.sh" "$build" >"$tmp/out" 2>&1
rc=$?
check "the build's objects and the includes run one way (rc=$rc: $(tail -n 1 "$tmp/out"))" \
	'[ $rc -eq 0 ] && grep -q "^one way: no cycle, no edge up the layers$" "$tmp/out"'
[ $rc -eq 0 ] || sed 's/^/# /' "$tmp/out"

# A build of three made-up objects: locks/a.c and locks/b.c call each other,
# locks/c.c calls bench/core/d.c, a layer above it.
fake=$tmp/build
mkdir -p "$fake/locks" "$fake/bench/core"
printf 'int b(void);\nint a(void) { return b(); }\n' >"$tmp/a.c"
printf 'int a(void);\nint b(void) { return a() + 1; }\n' >"$tmp/b.c"
printf 'int d(void);\nint c(void) { return d(); }\n' >"$tmp/c.c"
printf 'int d(void) { return 4; }\n' >"$tmp/d.c"
for f in a b c; do ${CC:-cc} -c -o "$fake/locks/$f.o" "$tmp/$f.c" || exit 1; done
${CC:-cc} -c -o "$fake/bench/core/d.o" "$tmp/d.c" || exit 1
"$top/scripts/layers.sh" "$fake" >"$tmp/out" 2>&1
rc=$?
check "two objects that call each other are a cycle (rc=$rc)" \
	'[ $rc -eq 1 ] && sed -n "/^calls: CYCLE:/,/^[a-z]/p" "$tmp/out" | grep -q "locks/a.c" &&
	 sed -n "/^calls: CYCLE:/,/^[a-z]/p" "$tmp/out" | grep -q "locks/b.c"'
check "a call up the layers is named" 'grep -qx "  UP: locks/c.c -> bench/core/d.c" "$tmp/out"'
