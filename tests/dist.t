#!/bin/sh
# dist.t — `make dist` for a machine that can build nothing: the tarball's
# lockbench and lbcompare are static, and its ./run-all runs a short --quick
# suite in an empty directory with neither make, nor a compiler, nor apt-get,
# nor gnuplot on PATH; `run-all --report` on a copy of that run, elsewhere,
# writes the same report (with plots where gnuplot is) and runs nothing.
top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/tap.sh"

# The dist links the test build's own objects (make test's BUILD, read off
# the test lockbench's path), so only the link and a few small objects are new.
# Under a sanitizer those objects cannot be linked statically, and the dist is
# the same as under `make test`, which checks it.
if [ -n "${SANITIZER:-}" ]; then
	echo "1..0 # skip the dist is linked from unsanitized objects: make test checks it"
	exit 0
fi
build=${LOCKBENCH_TEST:-build/tests/lockbench-test}
build=${build%/tests/lockbench-test}

# --- make dist ---
# The environment of `make test` carries its command-line variables
# (MAKEFLAGS): this make gets only the build directory, where to write and ARGS.
make_dist() { # ARGS...
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$top" dist BUILD="$build" DISTDIR="$tmp" "$@"
}
start=$(date +%s)
make_dist >"$tmp/make.out" 2>&1
rc=$?
# A machine without a static library the link needs cannot make a dist: that
# is make dist's one line, and no failure of the dist itself.
if [ $rc -ne 0 ] && nolib=$(grep -m 1 "^make dist: no static library" "$tmp/make.out"); then
	echo "1..0 # skip ${nolib#make dist: }"
	exit 0
fi
echo "1..27"
echo "# make dist (BUILD=$build) took $(($(date +%s) - start)) s"
set -- "$tmp"/lockbench-*.tar.gz
tarballs=$# tarball=$1
name=$(basename "$tarball" .tar.gz)
check "make dist makes one lockbench-VERSION-ARCH.tar.gz (rc=$rc: $(tail -n 1 "$tmp/make.out"))" \
	'[ $rc -eq 0 ] && [ $tarballs -eq 1 ] && echo "$name" | grep -Eq "^lockbench-[0-9a-z.-]+-$(uname -m)\$"'
echo "# $(tail -n 1 "$tmp/make.out")"

# A missing static library: one line that names it, before any link (-W:
# as if lockbench.o were new, so that the dist's lockbench is linked again).
make_dist -W "$build/bench/lockbench.o" DIST_LDLIBS="-lm -lno-such-lib" >"$tmp/out" 2>"$tmp/err"
rc=$?
check "without a static library it needs: fails, naming it in one line (rc=$rc: $(head -n 1 "$tmp/err"))" \
	'[ $rc -ne 0 ] && [ "$(grep -c "^make dist: " "$tmp/err")" -eq 1 ] &&
	 grep -q "^make dist: no static library libno-such-lib.a" "$tmp/err" && [ "$(ls "$tmp"/*.tar.gz)" = "$tarball" ]'

# Unpacked where a path has a space and a quote: run-all takes any path.
box="$tmp/un packed 'q"
mkdir "$box" && tar -C "$box" -xzf "$tarball"
dist=$box/$name
check "it unpacks into one directory of its name" '[ "$(ls "$box")" = "$name" ]'
missing=""
for f in run-all bench/lockbench analysis/lbcompare scripts/registry.sh scripts/plan.sh scripts/orphans.sh scripts/files.sh scripts/plot-common.gp \
	scripts/plot-names.sh scripts/sim-sweep.sh \
	scripts/hist.gp scripts/phases.gp scripts/sweep.gp README.md results/README.md analysis/README.md \
	$(grep -o '](docs/[^)#]*' "$top/README.md" | sed 's/^](//' | sort -u); do
	[ -s "$dist/$f" ] || missing="$missing $f"
done
check "it holds the binaries, run-all, what run-all reads and the docs${missing:+ (missing:$missing)}" '[ -z "$missing" ]'
check "and nothing to build with" '[ ! -e "$dist/Makefile" ] && [ ! -e "$dist/scripts/deps.sh" ]'

# --- static ---
for b in bench/lockbench analysis/lbcompare; do
	out=$(ldd "$dist/$b" 2>&1)
	check "ldd: $b is not dynamic ($out)" 'echo "$out" | grep -q "not a dynamic executable"'
	if command -v file >/dev/null; then
		out=$(file -b "$dist/$b")
		check "file: $b is statically linked" 'echo "$out" | grep -q "statically linked"'
	else
		ok "# skip no file(1) here: ldd's answer stands"
	fi
done
# hwloc's XML reader is its own, not the libxml2 plugin a static binary cannot load.
check "the static lockbench reads a topology XML" \
	'LOCKBENCH_TOPOLOGY_XML="$top/tests/topo-2pack-numa.xml" "$dist/bench/lockbench" --topology 2>&1 |
	 grep -q "2 package(s), 4 NUMA node(s)"'
# hwloc's plugins need a shared libhwloc: the static one must not dlopen() any.
check "the static lockbench looks for no hwloc plugin" \
	'HWLOC_PLUGINS_VERBOSE=1 "$dist/bench/lockbench" --topology 2>&1 | grep -q "^hwloc: Starting plugin" &&
	 ! HWLOC_PLUGINS_VERBOSE=1 "$dist/bench/lockbench" --topology 2>&1 | grep -q "Looking under"'
# The BPF parts: where the tree's lockbench loads the sched oracle, the
# static one does too (the same CO-RE skeletons).
LB=${LOCKBENCH:-$top/bench/lockbench}
if "$LB" -l kmutex-fix -t 1 -d 0.01 --warmup 0 --oracle sched >/dev/null 2>&1; then
	check "the static lockbench loads the sched oracle (BPF) as the tree's does" \
		'"$dist/bench/lockbench" -l kmutex-fix -t 1 -d 0.01 --warmup 0 --oracle sched --quiet -o "$tmp/o" &&
		 grep -q "^oracle,sched$" "$tmp/o/summary.csv"'
else
	ok "# skip the tree's lockbench cannot load the sched oracle here (not root, no BTF or no BPF build)"
fi

# --exec from the static lockbench, with this build's library: it dlopen()s
# nothing (a static program's dlopen of libdw crashed it, exit 139), so the
# program's figures and mutexes.csv are whole, its sites unnamed ("-").
LOCKBENCH_EXEC_SO=${LOCKBENCH_EXEC_SO:-$top/build/liblockbench-exec.so} \
	"$dist/bench/lockbench" -l pthread --exec -o "$tmp/ex" --quiet -- "${EXEC_PROG:-$top/build/tests/exec_prog}" counter \
	>"$tmp/ex.out" 2>&1
rc=$?
check "the static lockbench runs --exec -o: exit 0, mutexes.csv whole, sites unnamed (rc=$rc: $(head -c 200 "$tmp/ex.out"))" \
	'[ $rc -eq 0 ] && [ "$(awk -F, "NR > 1 { print \$11 }" "$tmp/ex/mutexes.csv" | sort -u)" = - ]'

# --- run-all where nothing can be built ---
# PATH: everything in /usr/bin and /bin (symbolic links) but make, compilers,
# the package tools and gnuplot.
mkdir "$tmp/bin"
for d in /usr/bin /bin; do cp -s "$d"/* "$tmp/bin/" 2>/dev/null; done
(cd "$tmp/bin" && rm -f make* cc c89* c99* *gcc* *g++* *c++* *clang* cpp* tcc ld ld.* *-ld as \
	apt* dpkg* pkg-config* bpftool gnuplot*)
check "that PATH has no make, cc, gcc, clang, apt-get or gnuplot" \
	'! PATH="$tmp/bin" command -v make cc gcc clang apt-get gnuplot >/dev/null &&
	 PATH="$tmp/bin" command -v sh awk sed >/dev/null'
start=$(date +%s)
# Two repetitions, not quick mode's 5: the report's figures still have a spread.
(cd "$dist" && PATH="$tmp/bin" ./run-all --quick --reps 2 --workloads creat,counter --locks kmutex-spin,kmutex-fix \
	--threads 2 >"$tmp/run.out" 2>&1)
rc=$?
echo "# ./run-all --quick in the dist took $(($(date +%s) - start)) s"
run=$dist/results/latest
check "./run-all --quick runs there (rc=$rc: $(tail -n 1 "$tmp/run.out"))" \
	'[ $rc -eq 0 ] && [ -s "$run/report.md" ] && grep -q "^None: all 8 runs finished" "$run/report.md"'
# meta.csv's cmdline quotes a word as a shell would ('...', each ' as '\'').
qdist=$(printf '%s' "$dist" | sed "s/'/'\\\\''/g")
check "with its own lockbench" \
	'grep -qF "cmdline,'"'"'$qdist/bench/lockbench'"'"' " "$(ls -d "$run"/runs/*/ | head -n 1)meta.csv"'
check "the report has the patch table and the sweep's" \
	'grep -q "^### creat" "$run/report.md" && grep -Eq "^\| 2 \| [0-9]+( \[[0-9]+–[0-9]+\]!?)? \| [0-9]+( \[[0-9]+–[0-9]+\]!?)? \|" "$run/report.md"'
check "without gnuplot: no plots, said once on stdout and once in the report" \
	'[ -z "$(ls "$run/plots")" ] && [ "$(grep -c gnuplot "$tmp/run.out")" -eq 1 ] &&
	 grep -q "gnuplot not found: plots skipped" "$tmp/run.out" &&
	 [ "$(grep -c "^No plots: gnuplot was not found" "$run/report.md")" -eq 1 ]'

# --- the report, made elsewhere ---
mkdir "$tmp/home" && cp -R "$run/" "$tmp/home/run" && cp -R "$run/" "$tmp/home/old"
rm "$tmp/home/old/run-env" # as a run-all from before run-env wrote it
before=$(cd "$tmp/home/run" && find runs plan.txt settings -type f | sort | xargs cksum)
(cd "$tmp/home" && "$dist/run-all" --report run >"$tmp/report.out" 2>&1)
rc=$?
after=$(cd "$tmp/home/run" && find runs plan.txt settings -type f | sort | xargs cksum)
# The same report but for the plots: the no-plots note where gnuplot is not,
# the charts' links where it is (each with the blank line after it).
same_report() { # A B
	without_plots "$1" >"$tmp/a.md" && without_plots "$2" >"$tmp/b.md" && cmp -s "$tmp/a.md" "$tmp/b.md"
}
without_plots() { awk '/^(No plots: |!\[.*\]\(plots\/)/ { skip = 2 } skip && skip-- { next } { print }' "$1"; }
check "run-all --report DIR on a copy elsewhere (rc=$rc: $(tail -n 1 "$tmp/report.out"))" \
	'[ $rc -eq 0 ] && [ -s "$tmp/home/run/report.md" ]'
check "writes the same report" 'same_report "$run/report.md" "$tmp/home/run/report.md"'
check "and runs nothing (runs/, plan.txt, settings unchanged; no progress lines)" \
	'[ "$before" = "$after" ] && ! grep -q "^\[" "$tmp/report.out"'
if command -v gnuplot >/dev/null; then
	bad=""
	for img in $(grep -o 'plots/[^)]*\.png' "$tmp/home/run/report.md"); do
		[ -s "$tmp/home/run/$img" ] && [ -s "$tmp/home/run/${img%.png}.svg" ] || bad="$bad $img"
	done
	check "with gnuplot here, it draws every plot the report shows${bad:+ (missing:$bad)}" \
		'[ -z "$bad" ] && [ -n "$(ls "$tmp/home/run/plots")" ]'
else
	ok "# skip no gnuplot here to draw the plots"
fi
# These two without gnuplot (PATH): plots take time, and the first report drew them.
(cd "$tmp/home" && PATH="$tmp/bin" "$dist/run-all" --report old >/dev/null 2>&1)
check "a run directory without run-env gets the same report" 'same_report "$run/report.md" "$tmp/home/old/report.md"'
# The machine is the one that ran, from run-env, not the one making the report.
cp -R "$run/" "$tmp/home/big" && sed -i "s/^NCPU=.*/NCPU=64/" "$tmp/home/big/run-env"
(cd "$tmp/home" && PATH="$tmp/bin" "$dist/run-all" --report big >/dev/null 2>&1)
check "the report's machine is run-env's, not this one's" 'grep -q "^Machine: .*, 64 CPUs\. " "$tmp/home/big/report.md"'
cp -R "$run/" "$tmp/home/part" && rm -r "$tmp/home/part/runs/sweep-counter-t2-kmutex-fix-r1"
(cd "$tmp/home" && PATH="$tmp/bin" "$dist/run-all" --report part >"$tmp/part.out" 2>&1)
rc=$?
check "an interrupted run's report (rc=$rc: 1, a run is missing) lists the missing run as not run, and does not run it" \
	'[ $rc -eq 1 ] && grep -q "^- \`sweep-counter-t2-kmutex-fix-r1\` (exit status not run)" "$tmp/home/part/report.md" &&
	 [ ! -e "$tmp/home/part/runs/sweep-counter-t2-kmutex-fix-r1" ] && [ "$(ls "$tmp/home/part/runs" | wc -l)" -eq 7 ]'

# --- --lockbench PATH ---
cp "$dist/bench/lockbench" "$tmp/my-lockbench"
(cd "$tmp" && PATH="$tmp/bin" "$dist/run-all" --lockbench my-lockbench --quick --workloads counter --locks tas \
	--threads 1 --out "$tmp/lbrun" >"$tmp/lb.out" 2>&1)
rc=$?
check "--lockbench PATH drives that binary (rc=$rc)" \
	'[ $rc -eq 0 ] && grep -q "^cmdline,$tmp/my-lockbench " "$tmp"/lbrun/runs/*/meta.csv'
"$dist/run-all" --lockbench "$tmp/none" --quick >"$tmp/out" 2>"$tmp/err"
rc=$?
check "--lockbench with no such file: one line, exit 2 (rc=$rc)" \
	'[ $rc -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "^run-all: --lockbench: .* is not an executable file" "$tmp/err"'
