#!/bin/sh
# exec-sites.t — how --exec's mutexes.csv names a call site's function
# (bench/exec/launcher/sites.c, write.c): a C++ function by its demangled
# name (lbtest::Box::add(), not _ZN6lbtest3Box3addEv), a stripped program's
# site as "stripped" (with what its dynamic symbols name, if any), never a
# bare "-" as for an object libdw cannot read; and the site as the first
# caller outside the program's lock wrapper (bench/exec/preload_frames.c),
# the wrapper named apart: exec_wrapper_prog (C, -O2, no frame pointers,
# found beside exec_prog), a stripped copy of it, and a C++ wrapper class.
# Programs compiled here (c++ and strip, build-essential's); skipped
# without them or without libdw.
LB=${LOCKBENCH:-bench/lockbench}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/tap.sh"
exec_preamble
echo "1..8"
WRAP_PROG=$(dirname "${EXEC_PROG:-build/tests/exec_prog}")/exec_wrapper_prog

# site_function of DIR's most contended mutex (rank 1; column 11).
top_site() { awk -F, 'NR == 2 { print $11 }' "$1/mutexes.csv"; }
# sites DIR NAME: "SITE_FUNCTION/WRAPPER_FUNCTION" (columns 11 and 15) of
# the mutex the program printed as "NAME ADDRESS".
sites() {
	awk -F, -v a="$(awk -v n="$2" '$1 == n { print $2 }' "$1/program-stdout.txt")" \
		'NR > 1 && $3 == a { print $11 "/" $15 }' "$1/mutexes.csv"
}

if ! ldconfig -p 2>/dev/null | grep -q 'libdw\.so\.1'; then
	for t in 1 2 3 4 5 6 7 8; do ok "# skip libdw.so.1 not installed (scripts/deps.sh installs libdw-dev)"; done
	exit 0
fi
# Both C++ programs' main(): two threads add 200,000 each to an lbtest::Box.
cat >"$tmp/box_main.inc" <<'EOF'
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
#include "box_main.inc"
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

# A C program's own wrappers: mutex_lock() (lock, test, return) called by
# add_wrapped() and produce()/consume(), cond_wait() by consume(); beside
# them add_direct(), which locks itself.  Two threads contend on each, so
# the frames are taken on the contended path too; the queue's two
# consumers, woken together, re-lock inside cond_wait() (a walk that failed
# there would leave cond_wait/-).
lb -l ticket --exec -o "$tmp/wrap" --quiet -- "$WRAP_PROG"
s=$(sites "$tmp/wrap" wrapped)
check "a wrapper's caller is the site, the wrapper apart: add_wrapped via mutex_lock (exit $rc, '$s')" \
	'[ "$rc" -eq 0 ] && [ "$s" = add_wrapped/mutex_lock ]'
s=$(sites "$tmp/wrap" direct)
check "a function that locks itself is its own site, no wrapper: add_direct (exit $rc, '$s')" \
	'[ "$rc" -eq 0 ] && [ "$s" = add_direct/- ]'
s=$(sites "$tmp/wrap" queue)
check "a condvar's mutex: produce or consume, via mutex_lock or cond_wait (exit $rc, '$s')" \
	'[ "$rc" -eq 0 ] && case $s in produce/mutex_lock | consume/mutex_lock | consume/cond_wait) true ;; *) false ;; esac'
s=$(sites "$tmp/wrap" inited)
check "an init call is its own site, though its function returns straight after: init_locks (exit $rc, '$s')" \
	'[ "$rc" -eq 0 ] && [ "$s" = init_locks/- ]'
# Stripped, its functions exported: the dynamic symbols name both.
d=" (stripped: dynamic symbols only)"
if strip -o "$tmp/wrap-stripped" "$WRAP_PROG" 2>"$tmp/strip.err"; then
	lb -l ticket --exec -o "$tmp/wrap-str" --quiet -- "$tmp/wrap-stripped"
	s=$(sites "$tmp/wrap-str" wrapped)
	check "stripped: the site and wrapper as its dynamic symbols name them (exit $rc, '$s')" \
		'[ "$rc" -eq 0 ] && [ "$s" = "add_wrapped$d/mutex_lock$d" ]'
else
	ok "# skip no strip here ($(head -c 100 "$tmp/strip.err"))"
fi

# A C++ wrapper class, as leveldb's port::Mutex: its caller demangled.
cat >"$tmp/port.cc" <<'EOF'
#include <pthread.h>
#include <cstdio>
#include <cstdlib>
#include <thread>
namespace port {
class Mutex {
public:
	void Lock();
	void Unlock();
private:
	pthread_mutex_t mu_ = PTHREAD_MUTEX_INITIALIZER;
};
static void Check(int rc) { if (rc) { std::fprintf(stderr, "pthread: %d\n", rc); std::abort(); } }
__attribute__((noinline)) void Mutex::Lock() { Check(pthread_mutex_lock(&mu_)); }
__attribute__((noinline)) void Mutex::Unlock() { Check(pthread_mutex_unlock(&mu_)); }
}
namespace lbtest {
struct Box {
	port::Mutex m;
	long n = 0;
	__attribute__((noinline)) void add() { m.Lock(); n++; m.Unlock(); }
};
}
#include "box_main.inc"
EOF
if c++ -O2 -fomit-frame-pointer -pthread -o "$tmp/port" "$tmp/port.cc" 2>"$tmp/cc.err"; then
	lb -l ticket --exec -o "$tmp/port-run" --quiet -- "$tmp/port"
	s=$(awk -F, 'NR == 2 { print $11 "/" $15 }' "$tmp/port-run/mutexes.csv")
	check "C++: lbtest::Box::add() via port::Mutex::Lock(), demangled (exit $rc, '$s')" \
		'[ "$rc" -eq 0 ] && [ "$s" = "lbtest::Box::add()/port::Mutex::Lock()" ]'
else
	ok "# skip no C++ compiler here ($(head -c 100 "$tmp/cc.err"))"
fi
