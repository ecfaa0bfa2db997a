# scalelab — one Makefile, no recursion, no configure step.
# Every .c under src/ except src/main.c goes into build/libscalelab.a, which
# the program and every test link, so tests exercise the objects users run.
# Each tests/unit/test_*.c is one cmocka program.

PREFIX  ?= /usr/local
DESTDIR ?=
BINDIR   = $(PREFIX)/bin
DATADIR  = $(PREFIX)/share/scalelab
MANDIR   = $(PREFIX)/share/man/man1

CC      ?= cc
PKGS     = ncursesw lua5.4
BUILD   ?= build

# Dependencies come from Debian packages. When pkg-config cannot find one,
# scripts/install-deps runs first (apt-get as root, otherwise it prints the
# exact command); `make clean` never needs them.
DEPS_OK := $(shell pkg-config --exists $(PKGS) cmocka 2>/dev/null && echo yes)
NODEPS_GOALS = clean help uninstall format
ifneq ($(DEPS_OK),yes)
ifneq ($(MAKECMDGOALS),)
ifeq ($(filter-out $(NODEPS_GOALS),$(MAKECMDGOALS)),)
SKIP_DEPS = yes
endif
endif
ifneq ($(SKIP_DEPS),yes)
$(info scalelab: build dependencies are missing; running scripts/install-deps)
DEPS_STATUS := $(shell scripts/install-deps >&2; echo $$?)
ifneq ($(DEPS_STATUS),0)
$(error scalelab: cannot build without the packages named above)
endif
DEPS_OK := $(shell pkg-config --exists $(PKGS) cmocka 2>/dev/null && echo yes)
endif
endif

WARN     = -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Werror
CPPFLAGS = -Isrc -D_POSIX_C_SOURCE=200809L -DSCALELAB_DATADIR='"$(DATADIR)"'
CFLAGS  ?= -O2 -g
CFLAGS  += -std=c11 $(WARN) -MMD -MP
LDLIBS   = -lm

ifeq ($(SANITIZE),1)
BUILD    = build/san
CFLAGS  += -O1 -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
LDFLAGS += -fsanitize=address,undefined
export ASAN_OPTIONS = halt_on_error=1:detect_leaks=1
export LSAN_OPTIONS = suppressions=$(abspath tests/lsan.supp):print_suppressions=0
export UBSAN_OPTIONS = halt_on_error=1:print_stacktrace=1
endif

# FUZZ=1: clang with libFuzzer instrumentation, for tests/fuzz/ (make fuzz).
ifeq ($(FUZZ),1)
BUILD    = build/fuzz
CC       = clang
CFLAGS  += -O1 -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all \
	   -fno-omit-frame-pointer
LDFLAGS += -fsanitize=fuzzer,address,undefined
endif

ifeq ($(DEPS_OK),yes)
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) cmocka)
PKG_LIBS   := $(shell pkg-config --libs $(PKGS))
CMOCKA_LIBS:= $(shell pkg-config --libs cmocka)
endif
CPPFLAGS += $(PKG_CFLAGS)

LIB_SRC   := $(sort $(wildcard src/*/*.c))
LIB_OBJ   := $(LIB_SRC:%.c=$(BUILD)/%.o)
LIB       := $(BUILD)/libscalelab.a
# The sanitizer build keeps its own binary so the two never mix.
BIN       := $(if $(filter 1,$(SANITIZE)),$(BUILD)/scalelab,scalelab)
TEST_SRC  := $(sort $(wildcard tests/unit/test_*.c))
TEST_BIN  := $(TEST_SRC:tests/unit/%.c=$(BUILD)/tests/%)
FUZZ_SRC  := $(sort $(wildcard tests/fuzz/fuzz_*.c))
FUZZ_BIN  := $(FUZZ_SRC:tests/fuzz/%.c=$(BUILD)/fuzz/%)
FUZZ_SECONDS ?= 60
BENCH_SRC := $(sort $(wildcard tests/bench/*.c))
BENCH_BIN := $(BENCH_SRC:tests/bench/%.c=$(BUILD)/bench/%)

.PHONY: all run test unit-tests golden clean install uninstall format help bench memcheck \
	fuzz fuzz-build
.DEFAULT_GOAL := all

all: $(BIN)

ifeq ($(DEPS_OK),yes)
$(BIN): $(BUILD)/src/main.o $(LIB)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $^ $(PKG_LIBS) $(LDLIBS)

# Built aside and renamed, so a program linking at that moment never sees a
# half-written archive.
$(LIB): $(LIB_OBJ)
	@rm -f $@.tmp
	$(AR) rcs $@.tmp $^
	@mv $@.tmp $@

# Only catalog.o embeds the data folder; rebuild it when PREFIX changes, so
# `make install PREFIX=...` after a plain `make` installs a program that looks
# in the right place.
$(BUILD)/prefix.stamp: FORCE
	@mkdir -p $(@D)
	@echo '$(DATADIR)' | cmp -s - $@ || echo '$(DATADIR)' > $@
$(BUILD)/src/lesson/catalog.o: $(BUILD)/prefix.stamp
FORCE:

$(BUILD)/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

$(BUILD)/tests/%: tests/unit/%.c $(LIB)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< $(LIB) $(CMOCKA_LIBS) $(PKG_LIBS) $(LDLIBS)

$(BUILD)/fuzz/%: tests/fuzz/%.c $(LIB)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< $(LIB) $(PKG_LIBS) $(LDLIBS)

$(BUILD)/bench/%: tests/bench/%.c $(LIB)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< $(LIB) $(PKG_LIBS) $(LDLIBS)
endif

run: all
	./$(BIN) $(ARGS)

# `make test`: layering rule, cmocka units, lesson check, then the end-to-end
# suites. Each step stops the run on its first failure.
test: all $(TEST_BIN)
	@scripts/install-deps
	@scripts/check-layers
	@scripts/run-unit-tests $(TEST_BIN)
	@scripts/run-suites $(abspath $(BIN))

unit-tests: all $(TEST_BIN)
	@scripts/run-unit-tests $(TEST_BIN)

# Regenerates tests/golden/; never run by `make test`. Review the diff by eye.
golden: all
	@scripts/make-golden $(abspath $(BIN))

# The cmocka suites under valgrind: any error or leak fails the run.
# Valgrind runs code 20-50x slower: SCALELAB_SANDBOX_SLOWDOWN stretches the
# sandbox's wall clock so its instruction budget still trips first, and
# SCALELAB_SLOW_TESTS=1 tells tests to skip their bounds on time-to-stop.
memcheck: $(TEST_BIN)
	@command -v valgrind >/dev/null || { echo "scalelab: memcheck needs valgrind: apt-get install valgrind"; exit 1; }
	@SCALELAB_SLOW_TESTS=1 SCALELAB_SANDBOX_SLOWDOWN=100 \
		VALGRIND="valgrind -q --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite,indirect" \
		scripts/run-unit-tests $(TEST_BIN)

# Each libFuzzer harness for FUZZ_SECONDS on its committed seed corpus.
fuzz:
	@scripts/install-deps --fuzz
	@$(MAKE) --no-print-directory FUZZ=1 fuzz-build
	@scripts/run-fuzz $(FUZZ_SECONDS) $(FUZZ_SRC:tests/fuzz/%.c=build/fuzz/fuzz/%)

fuzz-build: $(FUZZ_BIN)

bench: all $(BENCH_BIN)
	@scripts/run-bench $(BENCH_BIN)

format:
	clang-format -i $$(git ls-files 'src/*.[ch]' 'tests/*.[ch]')

install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(DATADIR)/lessons $(DESTDIR)$(DATADIR)/assets $(DESTDIR)$(MANDIR)
	install -m 755 $(BIN) $(DESTDIR)$(BINDIR)/scalelab
	install -m 644 lessons/*.lua lessons/*.md $(DESTDIR)$(DATADIR)/lessons/
	install -m 644 assets/*.lua $(DESTDIR)$(DATADIR)/assets/
	install -m 644 assets/scalelab.1 $(DESTDIR)$(MANDIR)/scalelab.1

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/scalelab $(DESTDIR)$(MANDIR)/scalelab.1
	rm -rf $(DESTDIR)$(DATADIR)

clean:
	rm -rf build $(BIN)

-include $(LIB_OBJ:.o=.d) $(BUILD)/src/main.d $(TEST_BIN:=.d) $(BENCH_BIN:=.d)
