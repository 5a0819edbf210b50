#!/bin/sh
# exec-sites.t — how --exec's mutexes.csv names a call site's function
# (bench/exec_sites.c, bench/exec_run.c): a C++ function by its demangled
# name (lbtest::Box::add(), not _ZN6lbtest3Box3addEv), a stripped program's
# site as "stripped" (with what its dynamic symbols name, if any), never a
# bare "-" as for an object libdw cannot read.  Programs compiled here (c++
# and strip, build-essential's); skipped without them or without libdw.
LB=${LOCKBENCH:-bench/lockbench}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/tap.sh"
exec_preamble
echo "1..2"

# site_function of DIR's most contended mutex (rank 1; column 11).
top_site() { awk -F, 'NR == 2 { print $11 }' "$1/mutexes.csv"; }

if ! ldconfig -p 2>/dev/null | grep -q 'libdw\.so\.1'; then
	for t in 1 2; do ok "# skip libdw.so.1 not installed (scripts/deps.sh installs libdw-dev)"; done
	exit 0
fi
cat >"$tmp/box.cc" <<'EOF'
#include <cstdio>
#include <mutex>
#include <thread>
namespace lbtest {
struct Box {
	std::mutex m;
	long n = 0;
	__attribute__((noinline)) void add() { std::lock_guard<std::mutex> g(m); n++; }
};
}
int main()
{
	lbtest::Box b;
	auto work = [&b] { for (int i = 0; i < 200000; i++) b.add(); };
	std::thread t1(work), t2(work);
	t1.join();
	t2.join();
	std::printf("n %ld\n", b.n);
	return b.n == 400000 ? 0 : 1;
}
EOF
if c++ -O2 -g -pthread -o "$tmp/box" "$tmp/box.cc" 2>"$tmp/cc.err"; then
	lb -l ticket --exec -o "$tmp/cxx" --quiet -- "$tmp/box"
	site=$(top_site "$tmp/cxx")
	check "a C++ site is demangled: lbtest::Box::add() (exit $rc, site '$site')" \
		'[ "$rc" -eq 0 ] && [ "$site" = "lbtest::Box::add()" ]'
	cp "$tmp/box" "$tmp/box-stripped" && strip "$tmp/box-stripped"
	lb -l ticket --exec -o "$tmp/str" --quiet -- "$tmp/box-stripped"
	site=$(top_site "$tmp/str")
	check "a stripped program's site says stripped (exit $rc, site '$site')" \
		'[ "$rc" -eq 0 ] && case $site in stripped | *" (stripped: dynamic symbols only)") true ;; *) false ;; esac'
else
	for t in 1 2; do ok "# skip no C++ compiler here ($(head -c 100 "$tmp/cc.err"))"; done
fi
