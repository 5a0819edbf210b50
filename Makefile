# lockbench — `make` builds bench/lockbench; `make test` runs the tests;
# `make tsan` and `make asan` run them under the sanitizers, `make fuzz`
# fuzzes the parsers (.ci/run runs all four); `make bench` prints the
# overhead and uncontended-cost figures, lockbench's own locks beside
# Concurrency Kit's and each --timing mode, what --kernel-locks costs, and how
# often lbcompare's per-bin share intervals cover (scripts/share-coverage.c).

CC      ?= cc
OBJCOPY ?= objcopy
PKGS    := hwloc numa libcpuid
TESTPKG := cmocka
CFLAGS  ?= -O2 -g
CFLAGS  += -std=gnu11 -Wall -Wextra -Werror -pthread $(SANFLAGS)
CFLAGS  += $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
LDLIBS  += $(shell pkg-config --libs $(PKGS) 2>/dev/null) -pthread -lm
# Concurrency Kit (libck-dev; locks/ck_*.c): its locks are header code, the
# library is linked as the package asks.
LDLIBS  += $(shell pkg-config --libs ck 2>/dev/null || echo -lck)
LDFLAGS += $(SANFLAGS)
# A GNU build ID in every binary, whatever the toolchain's default: meta.csv's
# lockbench_build_id tells builds apart by it (bench/platform/buildid.h).
LDFLAGS += -Wl,--build-id
# zlib, where installed, reads the kernel's /proc/config.gz (bench/platform/kernel_env.c).
ifeq ($(shell pkg-config --exists zlib 2>/dev/null && echo yes),yes)
CFLAGS  += -DLOCKBENCH_ZLIB
LDLIBS  += $(shell pkg-config --libs zlib)
endif

BUILD   ?= build
BIN     ?= bench/lockbench

# The BPF layer (locks/bpf/*.bpf.c: the sched oracle; bench/kernel/bpf/*.bpf.c:
# kernel lock capture): CO-RE objects compiled against a
# vmlinux.h generated at build time from this machine's kernel BTF (never
# committed), embedded as libbpf skeletons.  Built when clang, bpftool and
# libbpf are here (scripts/deps.sh installs them); without them lockbench
# still builds, and the sched oracle and --kernel-locks say why they are unavailable.
BPFTOOL    ?= $(firstword $(shell command -v bpftool /usr/sbin/bpftool 2>/dev/null))
BPF_CLANG  ?= clang
LLVM_STRIP ?= $(firstword $(shell command -v llvm-strip llvm-strip-14 2>/dev/null))
VMLINUX_BTF ?= /sys/kernel/btf/vmlinux
BPF_DIRS  := locks/bpf bench/kernel/bpf
BPF_SRC   := $(sort $(wildcard $(addsuffix /*.bpf.c,$(BPF_DIRS))))
BPF_OK    := $(shell command -v $(BPF_CLANG) >/dev/null 2>&1 && [ -n "$(BPFTOOL)" ] && \
	pkg-config --exists libbpf 2>/dev/null && [ -r $(VMLINUX_BTF) ] && echo yes)
ifeq ($(BPF_OK),yes)
BPF_SKEL  := $(patsubst %.bpf.c,$(BUILD)/bpf/%.skel.h,$(notdir $(BPF_SRC)))
CFLAGS    += -DLOCKBENCH_BPF -I$(BUILD)/bpf
LDLIBS    += $(shell pkg-config --libs --static libbpf 2>/dev/null)
endif
LOCK_SRC  := $(sort $(wildcard locks/*.c))
# bench/ in layers, each folder using only those below it (README, "Where
# things live"): platform/ and kernel/, core/, workloads/, run/, output/,
# exec/launcher/ (--exec's launcher; its preloaded library, exec/ itself,
# is EXEC_SO's, below), then cli.c and main() here.  Every .c of them is
# built: adding a workload is still one file in workloads/ and one line of
# workloads/workloads.def.
BENCH_DIRS := bench/platform bench/kernel bench/core bench/workloads bench/run bench/output bench/exec/launcher bench
BENCH_SRC := $(filter-out bench/lockbench.c,$(sort $(wildcard $(addsuffix /*.c,$(BENCH_DIRS)))))
BENCH_HDR := $(wildcard $(addsuffix /*.h,$(BENCH_DIRS)) $(addsuffix /*.def,$(BENCH_DIRS)))
# common/: what lockbench and lbcompare share without linking each other
# (safefile.h: the one way each opens a file to read and to write).
COMMON_SRC := $(sort $(wildcard common/*.c))
LIB_OBJ   := $(patsubst %.c,$(BUILD)/%.o,$(LOCK_SRC) $(BENCH_SRC) $(COMMON_SRC))
LIB       := $(BUILD)/liblockbench.a
TEST_SRC  := $(sort $(wildcard tests/test_*.c))
TEST_BIN  := $(patsubst tests/%.c,$(BUILD)/tests/%,$(TEST_SRC))
TEST_SH   := $(sort $(wildcard tests/*.t))
BENCH_BIN := $(BUILD)/scripts/uncontended
# the A/A coverage of lbcompare's per-bin share intervals (make bench prints it)
COVERAGE_BIN := $(BUILD)/scripts/share-coverage
# analysis/: lbcompare.c (main) over its layers' folders, each using only
# those before it: files/ (the result files), model/ (the comparison),
# figures/ (figures and statistics), print/ (text, CSV, markdown).
ANALYSIS_LAYERS := files model figures print
ANALYSIS_SRC := $(sort $(foreach d,$(ANALYSIS_LAYERS),$(wildcard analysis/$(d)/*.c)))
ANALYSIS_OBJ := $(patsubst %.c,$(BUILD)/%.o,analysis/lbcompare.c $(ANALYSIS_SRC) $(COMMON_SRC))
ANALYSIS_H   := $(wildcard analysis/*/*.h common/*.h common/*.def) locks/spin_exit.h
# the result-file readers (resultfile.h and its parts), which make fuzz links alone
RESULTFILE_SRC := $(sort $(wildcard analysis/files/resultfile*.c))
COMPARE   ?= analysis/lbcompare

# sim/: the simulator engine (docs/sim.md), beneath bench/ and above locks/:
# libsim.a.  sim/oracle_sim.c and sim/registry_sim.c are left out: they
# belong to the simulated build of the locks, SIM_LOCKS below; so is
# sim/calibrate.c, lbcalibrate's main().
SIM_SRC   := $(filter-out sim/oracle_sim.c sim/registry_sim.c sim/calibrate.c,$(sort $(wildcard sim/*.c)))
SIM_OBJ   := $(patsubst %.c,$(BUILD)/%.o,$(SIM_SRC))
SIM_LIB   := $(BUILD)/libsim.a
# (test_sim_profile links the profile loader alone.)
SIM_TEST_BIN := $(filter-out $(BUILD)/tests/test_sim_profile,$(filter $(BUILD)/tests/test_sim%,$(TEST_BIN)))
# The simulated build of the locks (sim/locks_sim.def; docs/sim.md): their
# sources (and the oracle, the options' parsers) compiled with
# -DLOCKBENCH_SIM (locks/pr.h's simulated backend) into $(BUILD)/sim/locks/,
# with sim/oracle_sim.c for the BPF oracle and the sim registry, partially
# linked into one object of which only the sim registry stays global, so it
# links beside the native locks.
SIM_LOCK_SRC := none tas ttas ticket mcs futex kmutex kmutex_spin kmutex_wait spinq oracle options
SIM_LOCK_OBJ := $(patsubst %,$(BUILD)/sim/locks/%.o,$(SIM_LOCK_SRC) oracle_sim registry_sim)
SIM_LOCKS := $(BUILD)/sim-locks.o

# `lockbench --exec`'s preloaded library (bench/exec/, docs/exec.md): PIC
# copies of the locks, common/, the histograms and the timed acquisition,
# with the interposer, built -fvisibility=hidden so that only the
# interposed pthread calls are exported.  Its copy of locks/pthread.c calls
# glibc's own mutex (px_glibc_mutex_*, bench/exec/preload.c), never the
# interposed one.
EXEC_SO   := $(BUILD)/liblockbench-exec.so
EXEC_SRC  := $(sort $(wildcard bench/exec/*.c))
EXEC_OBJ  := $(patsubst %.c,$(BUILD)/pic/%.o,$(LOCK_SRC) $(COMMON_SRC) bench/platform/hist.c \
	bench/core/harness.c $(EXEC_SRC))
EXEC_GLIBC_MUTEX := $(foreach f,init destroy lock trylock unlock,-Dpthread_mutex_$(f)=px_glibc_mutex_$(f))

.PHONY: all test bench deps clean tsan asan fuzz
all: $(BIN) $(COMPARE) $(EXEC_SO) $(SIM_LIB) $(SIM_LOCKS)

$(BUILD)/%.o: %.c $(wildcard locks/*.h $(addsuffix /*.h,$(BPF_DIRS)) common/*.h common/*.def locks/*.def tests/locks/*.def) $(BENCH_HDR)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c -o $@ $<

# vmlinux.h, then each program's object (debug info stripped: the skeleton
# embeds it, ~2 MB -> ~30 KB) and its skeleton; the loader that includes a
# skeleton is rebuilt when it changes.
$(BUILD)/bpf/vmlinux.h:
	@mkdir -p $(dir $@)
	$(BPFTOOL) btf dump file $(VMLINUX_BTF) format c > $@.tmp && mv $@.tmp $@
vpath %.bpf.c $(BPF_DIRS)
$(BUILD)/bpf/%.bpf.o: %.bpf.c $(BUILD)/bpf/vmlinux.h $(wildcard $(addsuffix /*.h,$(BPF_DIRS)))
	$(BPF_CLANG) -g -O2 -target bpf -D__TARGET_ARCH_x86 -I$(BUILD)/bpf $(addprefix -I,$(BPF_DIRS)) -c $< -o $@
	$(if $(LLVM_STRIP),$(LLVM_STRIP) -g $@)
$(BUILD)/bpf/%.skel.h: $(BUILD)/bpf/%.bpf.o
	$(BPFTOOL) gen skeleton $< name $(subst .,_,$*)_bpf > $@.tmp && mv $@.tmp $@
$(BUILD)/locks/oracle_sched.o: $(filter %/sched_oracle.skel.h,$(BPF_SKEL))
$(BUILD)/bench/kernel/kernel_locks.o: $(filter %/kernel_locks.skel.h,$(BPF_SKEL))

# The commit this build came from ("-dirty" with uncommitted changes to tracked
# files, "unknown" outside git), compiled into machine.o for meta.csv.  The
# stamp changes only when the answer does, so only machine.o is rebuilt.
GIT_COMMIT := $(shell c=$$(git rev-parse --short HEAD 2>/dev/null) || c=unknown; \
	[ "$$c" = unknown ] || git diff --quiet HEAD -- 2>/dev/null || c="$$c-dirty"; echo "$$c")
$(BUILD)/git-commit: FORCE
	@mkdir -p $(dir $@)
	@echo '$(GIT_COMMIT)' | cmp -s - $@ || echo '$(GIT_COMMIT)' > $@
$(BUILD)/bench/platform/machine.o: $(BUILD)/git-commit
$(BUILD)/bench/platform/machine.o: CFLAGS += -DLOCKBENCH_GIT_COMMIT='"$(GIT_COMMIT)"'
.PHONY: FORCE
FORCE:

# ck's atomics are inline assembly, which ThreadSanitizer cannot see: under
# it the ck adapters are built uninstrumented and annotate their acquire and
# release instead (locks/ck.h).
ifneq ($(filter -fsanitize=thread,$(SANFLAGS)),)
$(BUILD)/locks/ck_%.o $(BUILD)/pic/locks/ck_%.o: override SANFLAGS :=
$(BUILD)/locks/ck_%.o $(BUILD)/pic/locks/ck_%.o: CFLAGS += -DLOCKBENCH_TSAN_ANNOTATE
endif

$(BUILD)/pic/%.o: %.c $(wildcard locks/*.h $(addsuffix /*.h,$(BPF_DIRS)) common/*.h locks/*.def bench/exec/*.h) $(BENCH_HDR)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -fPIC -fvisibility=hidden -c -o $@ $<
$(BUILD)/pic/locks/pthread.o: CFLAGS += $(EXEC_GLIBC_MUTEX)
$(BUILD)/pic/locks/oracle_sched.o: $(filter %/sched_oracle.skel.h,$(BPF_SKEL))
# The launcher finds the library where this build put it ($LOCKBENCH_EXEC_SO overrides).
$(BUILD)/bench/exec/launcher/elf.o: CFLAGS += -DLOCKBENCH_EXEC_SO='"$(abspath $(EXEC_SO))"'
# The programs' registry and the library's file names (exec_file.h) are
# bench/exec/'s, outside BENCH_DIRS' headers.
$(BUILD)/bench/exec/launcher/programs.o: bench/exec/programs.def
$(patsubst %.c,$(BUILD)/%.o,$(wildcard bench/exec/launcher/*.c)): $(wildcard bench/exec/*.h)
# Its condvar calls carry glibc's symbol version (bench/exec/preload_cond.map says why).
EXEC_MAP  := bench/exec/preload_cond.map
$(EXEC_SO): $(EXEC_OBJ) $(EXEC_MAP)
	$(CC) -shared $(LDFLAGS) -Wl,--as-needed -Wl,--version-script=$(EXEC_MAP) -o $@ $(EXEC_OBJ) $(LDLIBS) -ldl

# Made anew each time: `ar rcs` only adds, and would keep the object of a
# source since removed (kmutex_queue.o once spinq.c replaced it).
$(LIB): $(LIB_OBJ)
	@rm -f $@
	$(AR) rcs $@ $^

$(SIM_OBJ): $(wildcard sim/*.h)
SIM_LOCK_DEPS := $(wildcard locks/*.h locks/bpf/*.h sim/*.h sim/*.def)
$(BUILD)/sim/locks/%.o: locks/%.c $(SIM_LOCK_DEPS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -DLOCKBENCH_SIM -c -o $@ $<
$(BUILD)/sim/locks/%.o: sim/%.c $(SIM_LOCK_DEPS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -DLOCKBENCH_SIM -c -o $@ $<
$(SIM_LOCKS): $(SIM_LOCK_OBJ)
	$(LD) -r -o $@.tmp $^
	$(OBJCOPY) --keep-global-symbol=sim_lock_registry --keep-global-symbol=sim_lock_registry_len $@.tmp $@
	@rm -f $@.tmp
$(SIM_LIB): $(SIM_OBJ)
	@rm -f $@
	$(AR) rcs $@ $^
# The engine's tests (tests/test_sim*.c) link it.
$(SIM_TEST_BIN): $(SIM_LIB) $(wildcard sim/*.h)
$(SIM_TEST_BIN): TEST_EXTRA = $(SIM_LIB)
# test_sim_kmutex runs the real locks: their simulated build too.
$(BUILD)/tests/test_sim_kmutex: $(SIM_LOCKS)
$(BUILD)/tests/test_sim_kmutex: TEST_EXTRA = $(SIM_LOCKS) $(SIM_LIB)
# test_sim_waitlock calls into the simulated kmutex: its objects unhidden.
$(BUILD)/tests/test_sim_waitlock: $(SIM_LOCK_OBJ)
$(BUILD)/tests/test_sim_waitlock: TEST_EXTRA = $(SIM_LOCK_OBJ) $(SIM_LIB)

# lockbench links the simulator too (--sim: bench/run/simrun.c): the locks'
# simulated build and the engine, which uses common/ of the library again.
LB_SIM_LINK = $(SIM_LOCKS) -Wl,--start-group $(LIB) $(SIM_LIB) -Wl,--end-group
$(BIN): $(BUILD)/bench/lockbench.o $(LIB) $(SIM_LOCKS) $(SIM_LIB)
	$(CC) $(LDFLAGS) -o $@ $(BUILD)/bench/lockbench.o $(LB_SIM_LINK) $(LDLIBS)
	$(if $(BPF_OK),,@echo "lockbench: built without BPF (needs clang, bpftool, libbpf-dev and $(VMLINUX_BTF)): the sched oracle and --kernel-locks are unavailable")

# The test build's lockbench: the registry with tests/locks/ appended (each a
# deliberately broken lock, to prove a check can fail).  Its registry object
# comes before the library, so the library's own registry.o is never linked.
TEST_LB     := $(BUILD)/tests/lockbench-test
TEST_LB_OBJ := $(BUILD)/tests/registry-test.o \
	$(patsubst %.c,$(BUILD)/%.o,$(sort $(wildcard tests/locks/*.c)))
$(BUILD)/tests/registry-test.o: locks/registry.c $(wildcard locks/*.h locks/*.def tests/locks/*.def)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -DLOCKBENCH_TEST_LOCKS -c -o $@ $<
$(TEST_LB): $(BUILD)/bench/lockbench.o $(TEST_LB_OBJ) $(LIB) $(SIM_LOCKS) $(SIM_LIB)
	$(CC) $(LDFLAGS) -o $@ $(BUILD)/bench/lockbench.o $(TEST_LB_OBJ) $(LB_SIM_LINK) $(LDLIBS)

# The roles build's lockbench: the registry with three locks' roles moved
# (tests/registry-roles.c), for tests/run-all-roles.t; linked as TEST_LB is.
ROLES_LB := $(BUILD)/tests/lockbench-roles
$(BUILD)/tests/registry-roles.o: tests/registry-roles.c locks/registry.c $(wildcard locks/*.h locks/*.def)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c -o $@ $<
$(ROLES_LB): $(BUILD)/bench/lockbench.o $(BUILD)/tests/registry-roles.o $(LIB) $(SIM_LOCKS) $(SIM_LIB)
	$(CC) $(LDFLAGS) -o $@ $(BUILD)/bench/lockbench.o $(BUILD)/tests/registry-roles.o $(LB_SIM_LINK) $(LDLIBS)

$(ANALYSIS_OBJ): $(ANALYSIS_H)
$(COMPARE): $(ANALYSIS_OBJ)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ -lm

$(BUILD)/tests/%: tests/%.c $(wildcard tests/*.h) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(shell pkg-config --cflags $(TESTPKG)) $(LDFLAGS) -o $@ $< $(TEST_EXTRA) $(LIB) \
		$(shell pkg-config --libs $(TESTPKG)) $(LDLIBS)

# tests/exec_prog.c: a plain pthread program, linked with nothing of
# lockbench's, that tests/exec.t runs under the preloaded library.
$(BUILD)/tests/exec_prog: tests/exec_prog.c tests/exec_expect.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< -pthread

# tests/exec_misuse_prog.c: the misuse glibc survives (tests/exec-misuse.t),
# like exec_prog linked with nothing of lockbench's.
EXEC_TEST_PROGS += $(BUILD)/tests/exec_misuse_prog
$(BUILD)/tests/exec_misuse_prog: tests/exec_misuse_prog.c tests/exec_expect.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< -pthread

# tests/exec_cond_prog.c: condvars at POSIX's edges, for tests/exec-cond.t.
EXEC_TEST_PROGS += $(BUILD)/tests/exec_cond_prog
$(BUILD)/tests/exec_cond_prog: tests/exec_cond_prog.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< -pthread

# tests/exec_wrapper_prog.c: a program that locks through its own lock
# wrappers (tests/exec-sites.t), built as programs ship: -O2 without frame
# pointers, and plain under every SANFLAGS (ThreadSanitizer's code calls
# __tsan_func_exit after each call, which no shipped wrapper does; the
# launcher runs it under the sanitizer's runtime as any program); its
# functions exported for a stripped copy's dynamic symbols.
EXEC_TEST_PROGS += $(BUILD)/tests/exec_wrapper_prog
$(BUILD)/tests/exec_wrapper_prog: override SANFLAGS :=
$(BUILD)/tests/exec_wrapper_prog: tests/exec_wrapper_prog.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) -O2 -fomit-frame-pointer -rdynamic -o $@ $< -pthread

# tests/exec_life_prog.c: a small server (drops privileges, daemonises...)
# that tests/exec-life.t runs, found beside exec_prog.
EXEC_TEST_PROGS += $(BUILD)/tests/exec_life_prog
$(BUILD)/tests/exec_life_prog: tests/exec_life_prog.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< -pthread

# tests/exec_fake_lib.c: libraries for the launcher's check of the one it
# preloads (tests/exec-run.t): a stub whose soname is ThreadSanitizer's
# runtime, and a library that needs it.  Plain builds under every SANFLAGS:
# their dynamic sections are what is read; neither is ever loaded.
$(BUILD)/tests/libfake-tsan.so: tests/exec_fake_lib.c
	@mkdir -p $(dir $@)
	$(CC) -shared -fPIC -Wl,-soname,libtsan.so.2 -o $@ $<
$(BUILD)/tests/libneeds-tsan.so: tests/exec_fake_lib.c $(BUILD)/tests/libfake-tsan.so
	$(CC) -shared -fPIC -o $@ $< -Wl,--no-as-needed $(BUILD)/tests/libfake-tsan.so

# tests/test_stats.c tests analysis/figures/stats.c, which only lbcompare links otherwise.
$(BUILD)/tests/test_stats: TEST_EXTRA = analysis/figures/stats.c
$(BUILD)/tests/test_stats: analysis/figures/stats.c analysis/figures/stats.h
# tests/test_verdict.c tests judge() and the verdict's printed ratio and interval (analysis/figures/figures.c).
$(BUILD)/tests/test_verdict: TEST_EXTRA = analysis/figures/figures.c analysis/figures/stats.c analysis/files/resultfile_run.c \
	analysis/files/resultfile_parse.c
$(BUILD)/tests/test_verdict: analysis/figures/figures.c analysis/figures/figures.h analysis/figures/stats.c

# tests/test_nearest.c tests which model stands out nearest the kernel's (analysis/figures/nearness.c).
$(BUILD)/tests/test_nearest: TEST_EXTRA = analysis/figures/nearness.c
$(BUILD)/tests/test_nearest: analysis/figures/nearness.c analysis/figures/figures.h

# sim/profile.c reads a simulated machine's profile; lbcalibrate measures this
# machine's and writes it (docs/sim.md, "Calibration").  tests/sim-calibrate.t
# runs it ($SIM_CALIBRATE); tests/test_sim_profile.c links the loader alone.
SIM_CALIBRATE := $(BUILD)/sim/lbcalibrate
$(BUILD)/sim/calibrate.o $(BUILD)/sim/profile.o: sim/profile.h
$(SIM_CALIBRATE): $(BUILD)/sim/calibrate.o $(BUILD)/sim/profile.o $(LIB)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)
all: $(SIM_CALIBRATE)
test: $(SIM_CALIBRATE)
test: export SIM_CALIBRATE := $(SIM_CALIBRATE)
$(BUILD)/tests/test_sim_profile: TEST_EXTRA = sim/profile.c
$(BUILD)/tests/test_sim_profile: sim/profile.c sim/profile.h

$(BUILD)/scripts/exec_cost: scripts/exec_cost.c scripts/trials.h analysis/figures/stats.c $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< analysis/figures/stats.c $(LIB) $(LDLIBS) -lm

# make bench's floor for the interposer's cost: the registry's locks and
# glibc's mutex calls (for the `pthread` locks' copy), and nothing of ours.
EXEC_FLOOR_SO := $(BUILD)/scripts/libexec-floor.so
$(EXEC_FLOOR_SO): $(patsubst %.c,$(BUILD)/pic/%.o,$(LOCK_SRC) $(COMMON_SRC) bench/exec/preload_glibc.c \
		scripts/exec_floor.c)
	@mkdir -p $(dir $@)
	$(CC) -shared $(LDFLAGS) -Wl,--as-needed -o $@ $^ $(LDLIBS) -ldl

$(BENCH_BIN): scripts/uncontended.c scripts/trials.h analysis/figures/stats.c $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< analysis/figures/stats.c $(LIB) $(LDLIBS) -lm

$(BUILD)/scripts/sim_bench: scripts/sim_bench.c $(SIM_LOCKS) $(SIM_LIB) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(SIM_LOCKS) $(SIM_LIB) $(LIB) $(LDLIBS)

$(BUILD)/scripts/ratio: scripts/ratio.c analysis/figures/stats.c analysis/figures/stats.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ scripts/ratio.c analysis/figures/stats.c -lm

# scripts/xadd-runs.c: how many lock xadds a core makes in a row on a
# contended line (docs/sim.md); built with the rest, so that it stays built.
XADD_RUNS_BIN := $(BUILD)/scripts/xadd-runs
all: $(XADD_RUNS_BIN)
$(XADD_RUNS_BIN): scripts/xadd-runs.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $<

$(COVERAGE_BIN): scripts/share-coverage.c analysis/figures/stats.c analysis/figures/stats.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ scripts/share-coverage.c analysis/figures/stats.c -lm

# `make dist`: lockbench-VERSION-ARCH.tar.gz (in DISTDIR, default here) for a
# machine that can build nothing: a fully static bench/lockbench and
# analysis/lbcompare, run-all and what it reads at run time, and the docs.  The
# static lockbench is this build's own objects linked against libhwloc.a,
# libnuma.a, libcpuid.a, libck.a, libbpf.a (+ libelf.a, libz.a) and glibc's
# libc.a, so its BPF skeletons (CO-RE) are the same; scripts/static-hwloc.c
# answers libhwloc.a's five libudev calls (Debian ships no libudev.a) and keeps
# hwloc from loading plugins.  Debug info is dropped, symbols kept (perf).
DIST_VERSION := $(shell git describe --tags --always 2>/dev/null || echo unknown)$(if $(filter %-dirty,$(GIT_COMMIT)),-dirty)
DIST_ARCH    := $(shell $(CC) -dumpmachine 2>/dev/null | cut -d- -f1)
DIST_NAME    := lockbench-$(DIST_VERSION)-$(DIST_ARCH)
DISTDIR      ?= .
DIST_STAGE   := $(BUILD)/dist/$(DIST_NAME)
DIST_LDLIBS  := $(filter-out -ludev,$(shell pkg-config --libs --static $(PKGS) 2>/dev/null)) $(LDLIBS)
DIST_FILES   := run-all README.md results/README.md analysis/README.md $(wildcard docs/*.md) scripts/registry.sh scripts/plan.sh scripts/orphans.sh scripts/files.sh $(wildcard scripts/*.gp) \
		scripts/plot-names.sh scripts/sim-sweep.sh
# the shipped machine profiles (docs/sim.md), beside the dist's sim/lbcalibrate, which measures the machine it lands on
DIST_FILES   += $(wildcard sim/profiles/*.profile)
DIST_ANALYSIS := $(ANALYSIS_OBJ)

.PHONY: dist
dist: $(BUILD)/dist/lockbench $(BUILD)/dist/lbcompare $(BUILD)/dist/lbcalibrate $(DIST_FILES)
	@rm -rf $(BUILD)/dist/lockbench-*/
	@mkdir -p $(DIST_STAGE)/bench $(DIST_STAGE)/analysis
	@cp $(BUILD)/dist/lockbench $(DIST_STAGE)/bench/lockbench
	@cp $(BUILD)/dist/lbcompare $(DIST_STAGE)/analysis/lbcompare
	@mkdir -p $(DIST_STAGE)/sim && cp $(BUILD)/dist/lbcalibrate $(DIST_STAGE)/sim/lbcalibrate
	@cp --parents $(DIST_FILES) $(DIST_STAGE)/
	@tar -C $(BUILD)/dist --owner=0 --group=0 -czf $(DISTDIR)/$(DIST_NAME).tar.gz $(DIST_NAME)
	@echo "dist: $(DISTDIR)/$(DIST_NAME).tar.gz ($$(du -k $(DISTDIR)/$(DIST_NAME).tar.gz | cut -f1) KiB)"

# The dlopen() and getaddrinfo() link warnings are for code lockbench never
# runs: hwloc's plugin loader (static-hwloc.c empties its path) and libnuma's
# network-interface lookup.
$(BUILD)/dist/lockbench: $(BUILD)/bench/lockbench.o $(LIB) $(SIM_LOCKS) $(SIM_LIB) $(BUILD)/scripts/static-hwloc.o
	$(call DIST_CAN_LINK,$(DIST_LDLIBS))
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -static -Wl,--strip-debug -o $@ $(BUILD)/bench/lockbench.o $(LB_SIM_LINK) \
		$(BUILD)/scripts/static-hwloc.o $(DIST_LDLIBS)
	$(if $(BPF_OK),,@echo "make dist: without BPF: the dist's lockbench has no sched oracle and no --kernel-locks" >&2)
$(BUILD)/dist/lbcalibrate: $(BUILD)/sim/calibrate.o $(BUILD)/sim/profile.o $(LIB) $(BUILD)/scripts/static-hwloc.o
	$(call DIST_CAN_LINK,$(DIST_LDLIBS))
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -static -Wl,--strip-debug -o $@ $^ $(DIST_LDLIBS)
$(BUILD)/dist/lbcompare: $(DIST_ANALYSIS)
	$(call DIST_CAN_LINK,-lm)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -static -Wl,--strip-debug -o $@ $^ -lm

# DIST_CAN_LINK LIBS: a static link needs unsanitized objects and every -lX of
# LIBS (and libc) as libX.a; else one line naming what is missing, before the
# linker's pages of undefined references.  `cc -print-file-name` answers a
# full path only for a file it finds.
define DIST_CAN_LINK
	@[ -z "$(SANFLAGS)" ] || { echo "make dist: a sanitizer build cannot be linked statically (SANFLAGS='$(SANFLAGS)')" >&2; exit 2; }
	@for l in $(sort $(patsubst -l%,%,$(filter -l%,$(1))) c); do \
		case $$($(CC) -print-file-name=lib$$l.a) in /*) ;; \
		*) echo "make dist: no static library lib$$l.a (its Debian -dev package ships it; a static link needs it)" >&2; exit 2 ;; esac; \
	done
endef

# Installs missing Debian packages (as root), or says which command to run.
deps:
	@scripts/deps.sh

test: deps
	@$(MAKE) --no-print-directory all $(TEST_BIN) $(TEST_LB) $(ROLES_LB) $(COVERAGE_BIN) $(BUILD)/tests/exec_prog \
		$(EXEC_TEST_PROGS) $(BUILD)/tests/libneeds-tsan.so
	LOCKBENCH=$(BIN) LOCKBENCH_TEST=$(TEST_LB) LOCKBENCH_ROLES=$(ROLES_LB) LBCOMPARE=$(COMPARE) LOCKBENCH_EXEC_SO=$(EXEC_SO) \
		EXEC_PROG=$(BUILD)/tests/exec_prog EXEC_MISUSE_PROG=$(BUILD)/tests/exec_misuse_prog \
		CMOCKA_MESSAGE_OUTPUT=TAP prove --exec '' $(TEST_BIN) $(TEST_SH)

# Then each ratio beside docs/measurement.csv's (the documented sample's),
# flagged where far off (scripts/bench-docs.sh: the two CSV files compared).
bench: deps
	@$(MAKE) --no-print-directory all $(BENCH_BIN) $(COVERAGE_BIN) $(BUILD)/scripts/exec_cost $(EXEC_FLOOR_SO) \
		$(BUILD)/scripts/ratio $(BUILD)/scripts/sim_bench
	$(BENCH_BIN) $(BUILD)/bench.csv; rc=$$?; [ $$rc -ne 0 ] || scripts/bench-docs.sh docs/measurement.csv $(BUILD)/bench.csv; exit $$rc
	$(COVERAGE_BIN)
	scripts/kernel-locks-overhead.sh $(BIN)
	scripts/exec-bench.sh $(BIN) $(BUILD)/scripts/exec_cost $(EXEC_SO) $(EXEC_FLOOR_SO) $(BUILD)/scripts/ratio
	$(BUILD)/scripts/sim_bench

# The whole test suite under ThreadSanitizer, and under AddressSanitizer +
# UndefinedBehaviorSanitizer, each in its own build directory.
SAN_TEST = $(MAKE) --no-print-directory test BUILD=build-$(1) BIN=build-$(1)/lockbench \
	COMPARE=build-$(1)/lbcompare SANITIZER=$(1) SANFLAGS="$(2)"
tsan:
	+$(call SAN_TEST,tsan,-fsanitize=thread)
asan:
	+ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	$(call SAN_TEST,asan,-fsanitize=address$(comma)undefined -fno-omit-frame-pointer -fno-sanitize-recover=all)

# libFuzzer smoke runs of the result-file readers, the option parser and
# the launcher's ELF reader (bench/platform/elfdeps.c), FUZZ_SECONDS each,
# from the seed corpora in tests/fuzz/ (copied: the checked-in corpora stay
# as they are).
comma := ,
FUZZ_SECONDS ?= 30
FUZZ_FLAGS := -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all
FUZZ_DIR := build-fuzz
fuzz:
	@scripts/deps.sh fuzz
	+@$(MAKE) --no-print-directory BUILD=$(FUZZ_DIR) CC=clang SANFLAGS="$(FUZZ_FLAGS)" \
		$(FUZZ_DIR)/liblockbench.a
	@for t in results cli elf; do \
		clang $(filter-out -Werror,$(CFLAGS)) -Werror $(FUZZ_FLAGS) -fsanitize=fuzzer -o $(FUZZ_DIR)/fuzz_$$t \
			tests/fuzz/fuzz_$$t.c $(RESULTFILE_SRC) $(FUZZ_DIR)/liblockbench.a $(LDLIBS) || exit 1; \
		rm -rf $(FUZZ_DIR)/corpus-$$t && cp -r tests/fuzz/corpus-$$t $(FUZZ_DIR)/corpus-$$t; \
		echo "fuzz_$$t: $(FUZZ_SECONDS) s"; \
		$(FUZZ_DIR)/fuzz_$$t -max_total_time=$(FUZZ_SECONDS) -max_len=4096 -print_final_stats=1 \
			-artifact_prefix=$(FUZZ_DIR)/crash-$$t- $(FUZZ_DIR)/corpus-$$t 2>$(FUZZ_DIR)/fuzz_$$t.log \
			|| { tail -n 40 $(FUZZ_DIR)/fuzz_$$t.log; exit 1; }; \
		grep -E '^stat::number_of_executed_units' $(FUZZ_DIR)/fuzz_$$t.log; \
	done; echo "fuzz: 0 crashes"

# The soak (not in CI; minutes): every lock x every workload, oversubscribed,
# each run checked (scripts/soak.sh; SOAK_* settings from the environment).
# SOAK_BUILD=tsan runs it against make tsan's build-tsan/lockbench instead.
.PHONY: soak
soak: deps
	@case "$(SOAK_BUILD)" in "" | tsan) ;; \
	*) echo "make soak: SOAK_BUILD='$(SOAK_BUILD)': only tsan (or nothing)" >&2; exit 2 ;; esac
	+@$(MAKE) --no-print-directory all $(if $(filter tsan,$(SOAK_BUILD)),BUILD=build-tsan \
		BIN=build-tsan/lockbench COMPARE=build-tsan/lbcompare SANITIZER=tsan SANFLAGS=-fsanitize=thread)
	LOCKBENCH="$${LOCKBENCH:-$(if $(filter tsan,$(SOAK_BUILD)),build-tsan/lockbench,$(BIN))}" scripts/soak.sh

clean:
	rm -rf $(BUILD) $(BIN) $(COMPARE) build-tsan build-asan $(FUZZ_DIR)
