# SPDX-License-Identifier: MIT
# scalelab — one Makefile, no recursion, no configure step.
# Every .c under src/ except src/main.c goes into build/libscalelab.a, which
# the program and every test link, so tests exercise the objects users run.
# Each tests/unit/test_*.c is one cmocka program.

PREFIX  ?= /usr/local
DESTDIR ?=
BINDIR   = $(PREFIX)/bin
DATADIR  = $(PREFIX)/share/scalelab
MANDIR   = $(PREFIX)/share/man/man1

PKG_CONFIG ?= pkg-config
BUILD   ?= build

# The README's two commands build in parallel: one job per core unless -j
# was given (make 4.4 shows it in MAKEFLAGS here; 4.3 lets a command-line -j
# win anyway). Not in sub-makes, and not when cleaning in the same run.
ifeq ($(MAKELEVEL),0)
ifeq ($(filter -j%,$(MAKEFLAGS))$(filter clean,$(MAKECMDGOALS)),)
MAKEFLAGS += -j$(shell nproc 2>/dev/null || echo 1)
endif
endif

# Flags scalelab needs, kept apart from the user's: CPPFLAGS, CFLAGS and
# LDFLAGS from the environment or the command line (dpkg-buildflags'
# hardening, `make CFLAGS=-O0`) are added after these, never instead.
# -Werror only where scalelab's own checks build: make test, unit-tests,
# memcheck and the fuzz build (CI runs those); a packager's `make` warns.
WARN     = -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes
WERROR   =
# The feature-test macros are ncursesw's (pkg-config --cflags), given to
# every object so that all of them see the same C library (realpath, ...).
SCALELAB_CPPFLAGS = -Isrc -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -D_XOPEN_SOURCE=600
SCALELAB_CFLAGS   = -std=c11 $(WARN) $(WERROR) -MMD -MP
SCALELAB_LDFLAGS  =
DATADIR_CPPFLAGS  = -DSCALELAB_DATADIR='"$(DATADIR)"'
LDLIBS   = -lm

ifeq ($(SANITIZE),1)
BUILD    = build/san
CFLAGS  ?= -O1 -g
SCALELAB_CFLAGS  += -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
SCALELAB_LDFLAGS += -fsanitize=address,undefined
export ASAN_OPTIONS = halt_on_error=1:detect_leaks=1
export LSAN_OPTIONS = suppressions=$(abspath tests/lsan.supp):print_suppressions=0
export UBSAN_OPTIONS = halt_on_error=1:print_stacktrace=1
endif

# FUZZ=1: clang with libFuzzer instrumentation, for tests/fuzz/ (make fuzz).
ifeq ($(FUZZ),1)
BUILD    = build/fuzz
CC       = clang
CFLAGS  ?= -O1 -g
SCALELAB_CFLAGS  += -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all \
	   -fno-omit-frame-pointer
SCALELAB_LDFLAGS += -fsanitize=fuzzer,address,undefined
endif
CFLAGS  ?= -O2 -g

# Dependencies come from Debian packages, installed by scripts/install-deps
# as the first step of the targets that compile (never while make reads this
# file): the build set for the program, the test set too for the targets
# that run tests. pkg-config is asked when a recipe runs, after that step.
TEST_GOALS = test unit-tests memcheck golden bench fidelity fuzz fuzz-build
DEPS_SET   = $(if $(filter $(TEST_GOALS),$(MAKECMDGOALS)),,--build)
pkg        = $(shell $(PKG_CONFIG) $(1) $(2))
CURSES_CFLAGS = $(call pkg,--cflags,ncursesw)
LUA_CFLAGS    = $(call pkg,--cflags,lua5.4)
PKG_LIBS      = $(call pkg,--libs,ncursesw lua5.4 libseccomp)
# libseccomp: the lesson host's system-call filter (src/lesson/host.c).
SECCOMP_CFLAGS = -DSCALELAB_SECCOMP $(call pkg,--cflags,libseccomp)
CMOCKA_CFLAGS = $(call pkg,--cflags,cmocka)
CMOCKA_LIBS   = $(call pkg,--libs,cmocka)

# The layers hold by include paths: only src/ui/ gets curses' flags and only
# src/lesson/ Lua's (-I/usr/include/lua5.4 on Debian). curses.h sits in
# /usr/include, and lua5.4/lua.h is reachable from there too, so every other
# object also gets scripts/layer-guard/: headers of those names that stop
# the compile with #error. scripts/check-layers checks the same by grep, and
# the folders each layer may include (docs/DESIGN.md, "Layers").
GUARD = scripts/layer-guard
$(BUILD)/src/%.o:        LAYER_CPPFLAGS = -I$(GUARD)/no-curses -I$(GUARD)/no-lua
$(BUILD)/src/ui/%.o:     LAYER_CPPFLAGS = -I$(GUARD)/no-lua $(CURSES_CFLAGS)
$(BUILD)/src/lesson/%.o: LAYER_CPPFLAGS = -I$(GUARD)/no-curses $(LUA_CFLAGS) $(SECCOMP_CFLAGS)
TEST_CPPFLAGS = $(CURSES_CFLAGS) $(LUA_CFLAGS)

COMPILE = $(CC) $(SCALELAB_CPPFLAGS) $(DATADIR_CPPFLAGS) $(LAYER_CPPFLAGS) $(CPPFLAGS) \
	  $(SCALELAB_CFLAGS) $(CFLAGS)
LINK    = $(SCALELAB_LDFLAGS) $(LDFLAGS)

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

.PHONY: all run test unit-tests golden clean install uninstall format help bench fidelity memcheck \
	fuzz fuzz-build deps deps-test
.DEFAULT_GOAL := all

all: $(BIN)

# The install step, run before anything compiles (order-only: it never makes
# a target out of date). deps-test adds the test packages.
deps:
	@scripts/install-deps $(DEPS_SET)
deps-test: | deps
	@scripts/install-deps

$(BIN): $(BUILD)/src/main.o $(LIB)
	@mkdir -p $(@D)
	$(CC) $(LINK) -o $@ $^ $(PKG_LIBS) $(LDLIBS)

# Built aside and renamed, so a program linking at that moment never sees a
# half-written archive.
$(LIB): $(LIB_OBJ)
	@rm -f $@.tmp
	$(AR) rcs $@.tmp $^
	@mv $@.tmp $@

# Every object is rebuilt when the compiler or the flags change (`make
# CFLAGS=-O0` after `make`): the flags are written to a stamp that changes
# only when they do. -Werror is not among them, so `make install` or `make`
# after `make test` rebuild nothing; instead each compile that warned leaves
# its warnings in TARGET.warn, and `make test` compiles those again.
$(BUILD)/flags.stamp: FORCE
	@mkdir -p $(@D)
	@echo '$(CC) $(SCALELAB_CPPFLAGS) $(CPPFLAGS) $(SCALELAB_CFLAGS) $(CFLAGS) $(LINK)' | \
		cmp -s - $@ || echo '$(CC) $(SCALELAB_CPPFLAGS) $(CPPFLAGS) $(SCALELAB_CFLAGS) $(CFLAGS) $(LINK)' > $@
$(LIB_OBJ) $(BUILD)/src/main.o $(TEST_BIN) $(FUZZ_BIN) $(BENCH_BIN): $(BUILD)/flags.stamp

# Only catalog.o (and the catalog test) embeds the data folder; rebuild it
# when PREFIX changes, so `make install PREFIX=...` after a plain `make`
# installs a program that looks in the right place.
$(BUILD)/prefix.stamp: FORCE
	@mkdir -p $(@D)
	@echo '$(DATADIR)' | cmp -s - $@ || echo '$(DATADIR)' > $@
$(BUILD)/src/lesson/catalog.o $(BUILD)/tests/test_catalog: $(BUILD)/prefix.stamp
FORCE:

# $(call cc,COMMAND): shows it (not under -s or -n), runs it, prints its
# diagnostics and keeps them in $@.warn when it succeeded with some.
quiet = $(findstring s,$(firstword -$(MAKEFLAGS)))$(findstring n,$(firstword -$(MAKEFLAGS)))
cc = $(if $(quiet),,$(info $(strip $(1))))@mkdir -p $(@D); $(1) 2>$@.warn; st=$$?; \
	cat $@.warn >&2; [ $$st = 0 ] && [ -s $@.warn ] || rm -f $@.warn; exit $$st
# In scalelab's own checks, what compiled with warnings compiles again,
# now with -Werror.
ifneq ($(filter test unit-tests memcheck,$(MAKECMDGOALS)),)
$(patsubst %.warn,%,$(shell find $(BUILD) -name '*.warn' 2>/dev/null)): FORCE
endif

$(BUILD)/%.o: %.c | deps
	$(call cc,$(COMPILE) -c -o $@ $<)

$(BUILD)/tests/%: tests/unit/%.c $(LIB) | deps-test
	$(call cc,$(COMPILE) $(TEST_CPPFLAGS) $(CMOCKA_CFLAGS) $(LINK) -o $@ $< $(LIB) \
		$(CMOCKA_LIBS) $(PKG_LIBS) $(LDLIBS))

$(BUILD)/fuzz/%: tests/fuzz/%.c $(LIB) | deps
	@mkdir -p $(@D)
	$(COMPILE) $(TEST_CPPFLAGS) $(LINK) -o $@ $< $(LIB) $(PKG_LIBS) $(LDLIBS)

$(BUILD)/bench/%: tests/bench/%.c $(LIB) | deps
	@mkdir -p $(@D)
	$(COMPILE) $(TEST_CPPFLAGS) $(LINK) -o $@ $< $(LIB) $(PKG_LIBS) $(LDLIBS)

# scalelab's own checks build with -Werror (for everything they build).
test unit-tests memcheck fuzz-build: WERROR = -Werror

run: all
	./$(BIN) $(ARGS)

# `make test`: layering rule, cmocka units, lesson check, then the end-to-end
# suites. Each step stops the run on its first failure.
test: all $(TEST_BIN) | deps-test
	@scripts/check-layers
	@scripts/check-format
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
memcheck: $(TEST_BIN) | deps-test
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

# The model against published runs: every case of tests/fidelity/cases.tsv
# (tuned and held-out tables, by group) with its error, and the means.
# FIDELITY=2: also the residuals by source, generation x size and feature,
# and where each case's time goes.
FIDELITY ?= 1
fidelity: $(BUILD)/tests/test_fidelity
	@SCALELAB_FIDELITY=$(FIDELITY) $(BUILD)/tests/test_fidelity

format:
	clang-format -i $$(git ls-files 'src/*.[ch]' 'tests/*.[ch]')

help:
	@echo "make          build scalelab"
	@echo "make run      build and open the lesson menu (ARGS=... passes arguments)"
	@echo "make test     build and run every test (installs missing Debian packages)"
	@echo "make bench    speed and memory figures"
	@echo "make fidelity the model against published runs (tuned and held-out tables;"
	@echo "              FIDELITY=2 adds residuals by source, generation, size and feature)"
	@echo "make fuzz     each libFuzzer harness for FUZZ_SECONDS (default 60)"
	@echo "make memcheck the unit programs under valgrind"
	@echo "make golden   regenerate tests/golden/ (review the diff by eye)"
	@echo "make format   rewrite the C sources to .clang-format"
	@echo "make install  install under PREFIX (default /usr/local); also uninstall"
	@echo "make clean    remove build outputs"

install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(DATADIR)/lessons $(DESTDIR)$(DATADIR)/assets $(DESTDIR)$(MANDIR)
	install -m 755 $(BIN) $(DESTDIR)$(BINDIR)/scalelab
	install -m 644 lessons/*.lua lessons/*.md $(DESTDIR)$(DATADIR)/lessons/
	install -m 644 assets/*.lua $(DESTDIR)$(DATADIR)/assets/
	sed 's|/usr/local/share/scalelab|$(DATADIR)|g' assets/scalelab.1 >$(DESTDIR)$(MANDIR)/scalelab.1
	chmod 644 $(DESTDIR)$(MANDIR)/scalelab.1

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/scalelab $(DESTDIR)$(MANDIR)/scalelab.1
	rm -rf $(DESTDIR)$(DATADIR)

clean:
	rm -rf build $(BIN)

-include $(LIB_OBJ:.o=.d) $(BUILD)/src/main.d $(TEST_BIN:=.d) $(BENCH_BIN:=.d)
