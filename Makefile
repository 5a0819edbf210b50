# lockbench — `make` builds bench/lockbench; `make test` runs the tests;
# `make bench` prints the overhead and uncontended-cost figures.

CC      ?= cc
PKGS    := hwloc numa libcpuid
TESTPKG := cmocka
CFLAGS  ?= -O2 -g
CFLAGS  += -std=gnu11 -Wall -Wextra -Werror -pthread $(SANFLAGS)
CFLAGS  += $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
LDLIBS  += $(shell pkg-config --libs $(PKGS) 2>/dev/null) -pthread -lm
LDFLAGS += $(SANFLAGS)

BUILD   ?= build
BIN     ?= bench/lockbench
LOCK_SRC  := $(sort $(wildcard locks/*.c))
BENCH_SRC := $(filter-out bench/lockbench.c,$(sort $(wildcard bench/*.c)))
LIB_OBJ   := $(patsubst %.c,$(BUILD)/%.o,$(LOCK_SRC) $(BENCH_SRC))
LIB       := $(BUILD)/liblockbench.a
TEST_SRC  := $(sort $(wildcard tests/test_*.c))
TEST_BIN  := $(patsubst tests/%.c,$(BUILD)/tests/%,$(TEST_SRC))
TEST_SH   := $(sort $(wildcard tests/*.t))
BENCH_BIN := $(BUILD)/scripts/uncontended
ANALYSIS_SRC := $(filter-out analysis/compare.c,$(sort $(wildcard analysis/*.c)))
COMPARE   ?= analysis/lbcompare

.PHONY: all test bench deps clean
all: $(BIN) $(COMPARE)

$(BUILD)/%.o: %.c $(wildcard locks/*.h bench/*.h locks/*.def bench/*.def)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c -o $@ $<

$(LIB): $(LIB_OBJ)
	$(AR) rcs $@ $^

$(BIN): $(BUILD)/bench/lockbench.o $(LIB)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(COMPARE): analysis/compare.c $(ANALYSIS_SRC) $(wildcard analysis/*.h)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ analysis/compare.c $(ANALYSIS_SRC) -lm

$(BUILD)/tests/%: tests/%.c $(wildcard tests/*.h) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(shell pkg-config --cflags $(TESTPKG)) $(LDFLAGS) -o $@ $< $(LIB) \
		$(shell pkg-config --libs $(TESTPKG)) $(LDLIBS)

$(BENCH_BIN): scripts/uncontended.c $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(LIB) $(LDLIBS)

# Installs missing Debian packages (as root), or says which command to run.
deps:
	@scripts/deps.sh

test: deps
	@$(MAKE) --no-print-directory all $(TEST_BIN)
	LOCKBENCH=$(BIN) LBCOMPARE=$(COMPARE) CMOCKA_MESSAGE_OUTPUT=TAP prove --exec '' $(TEST_BIN) $(TEST_SH)

bench: deps
	@$(MAKE) --no-print-directory all $(BENCH_BIN)
	$(BENCH_BIN)

clean:
	rm -rf $(BUILD) $(BIN) $(COMPARE)
