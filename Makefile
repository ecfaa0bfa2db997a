# SPDX-License-Identifier: MIT
# scalelab — one Makefile, no recursion, no configure step.
# Every .c under src/ except src/main.c goes into build/libscalelab.a, which
# the program and every test link, so tests exercise the objects users run.
# Each tests/unit/test_*.c is one cmocka program.

PREFIX  ?= /usr/local
DESTDIR ?=
BINDIR   = $(PREFIX)/bin
DATADIR  = $(PREFIX)/share/scalelab
DOCDIR   = $(PREFIX)/share/doc/scalelab
MANDIR   = $(PREFIX)/share/man/man1
# What `make install` puts in DOCDIR: the guides for users and authors.
DOCS     = README.md lessons/AUTHORING.md SECURITY.md NEWS.md LICENSE

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
# It never changes an object, so it is kept out of the flags stamp below.
WARN     = -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes
WERROR   =
# The feature-test macros are ncursesw's (pkg-config --cflags), given to
# every object so that all of them see the same C library (realpath, ...).
SCALELAB_CPPFLAGS = -Isrc -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -D_XOPEN_SOURCE=600
SCALELAB_CFLAGS   = -std=c11 $(WARN) -MMD -MP
SCALELAB_LDFLAGS  =
DATADIR_CPPFLAGS  = -DSCALELAB_DATADIR='"$(DATADIR)"' -DSCALELAB_DOCDIR='"$(DOCDIR)"'
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

# Dependencies come from Debian packages. A plain `make` (or `make install`)
# installs none: a missing header fails its compile as usual, and then
# `scripts/install-deps --check` names what is missing and the Debian
# package that provides it. The README's two commands install what is
# missing before anything compiles, as `make deps` does: `make run` what
# the program needs, `make test` (and `make deps`) what the tests need too;
# `make deps DEPS="fuzz analyze"` adds clang's tools. pkg-config is asked
# when a recipe runs, after that step.
DEPS    ?= test
sq       = '$(subst ','\'',$(1))'
DEPS_ENV = CC=$(call sq,$(CC)) PKG_CONFIG=$(call sq,$(PKG_CONFIG))
ifneq ($(filter test deps,$(MAKECMDGOALS)),)
INSTALL_FIRST = deps
else ifneq ($(filter run,$(MAKECMDGOALS)),)
INSTALL_FIRST = deps-build
endif
pkg           = $(shell $(PKG_CONFIG) $(1) $(2) 2>/dev/null)
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
	  $(SCALELAB_CFLAGS) $(WERROR) $(CFLAGS)
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

.PHONY: all run test unit-tests golden clean install uninstall format help bench fidelity \
	memcheck fuzz fuzz-build deps deps-build analyze
.DEFAULT_GOAL := all

all: $(BIN)

# The install step of `make run`, `make test` and `make deps`: every compile
# waits for it (order-only, so it never makes a target out of date).
deps:
	@$(DEPS_ENV) scripts/install-deps $(DEPS)
deps-build:
	@$(DEPS_ENV) scripts/install-deps build

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
# CFLAGS=-O0` after `make`): the stamp holds them and is rewritten only
# when they differ from what it holds, compared while make reads this file,
# so `make -q` and `make -n` tell the truth. Only what changes objects is
# in it: -Werror is not (`make`, `make unit-tests`, `make` rebuild nothing);
# instead each compile that warned leaves its warnings in TARGET.warn, and
# `make test` compiles those again.
STAMP_FLAGS = $(CC) $(SCALELAB_CPPFLAGS) $(CPPFLAGS) $(SCALELAB_CFLAGS) $(CFLAGS) $(LINK)
# Only catalog.o (and the catalog test) embeds the data folder, and only
# cli.o the doc folder; rebuild them when PREFIX changes, so `make install
# PREFIX=...` after a plain `make` installs a program that looks in the
# right place.
STAMP_PREFIX = $(DATADIR) $(DOCDIR)
ifneq ($(file <$(BUILD)/flags.stamp),$(STAMP_FLAGS))
$(BUILD)/flags.stamp: FORCE
endif
ifneq ($(file <$(BUILD)/prefix.stamp),$(STAMP_PREFIX))
$(BUILD)/prefix.stamp: FORCE
endif
$(BUILD)/flags.stamp $(BUILD)/prefix.stamp:
	@mkdir -p $(@D)
	@printf '%s\n' $(call sq,$(if $(findstring flags,$@),$(STAMP_FLAGS),$(STAMP_PREFIX))) >$@
$(LIB_OBJ) $(BUILD)/src/main.o $(TEST_BIN) $(FUZZ_BIN) $(BENCH_BIN): $(BUILD)/flags.stamp
$(BUILD)/src/lesson/catalog.o $(BUILD)/src/cmd/cli.o $(BUILD)/tests/test_catalog: \
	$(BUILD)/prefix.stamp
FORCE:

# $(call cc,COMMAND,NEEDS): shows it (not under -s or -n), runs it, prints
# its diagnostics and keeps them in $@.warn when it succeeded with some.
# When it failed for want of a file (a header; the compiler itself, status
# 127), install-deps --check NEEDS says what is missing and its package.
quiet = $(findstring s,$(firstword -$(MAKEFLAGS)))$(findstring n,$(firstword -$(MAKEFLAGS)))
cc = $(if $(quiet),,$(info $(strip $(1))))@mkdir -p $(@D); $(1) 2>$@.warn; st=$$?; \
	cat $@.warn >&2; \
	if [ $$st != 0 ] && { [ $$st = 127 ] || grep -q 'No such file or directory' $@.warn; }; \
	then $(DEPS_ENV) scripts/install-deps --check $(2) || :; fi; \
	[ $$st = 0 ] && [ -s $@.warn ] || rm -f $@.warn; exit $$st
# In scalelab's own checks, what compiled with warnings compiles again,
# now with -Werror.
ifneq ($(filter test unit-tests memcheck,$(MAKECMDGOALS)),)
$(patsubst %.warn,%,$(shell find $(BUILD) -name '*.warn' 2>/dev/null)): FORCE
endif

$(BUILD)/%.o: %.c | $(INSTALL_FIRST)
	$(call cc,$(COMPILE) -c -o $@ $<,build)

$(BUILD)/tests/%: tests/unit/%.c $(LIB) | $(INSTALL_FIRST)
	$(call cc,$(COMPILE) $(TEST_CPPFLAGS) $(CMOCKA_CFLAGS) $(LINK) -o $@ $< $(LIB) \
		$(CMOCKA_LIBS) $(PKG_LIBS) $(LDLIBS),unit)

$(BUILD)/fuzz/%: tests/fuzz/%.c $(LIB)
	$(call cc,$(COMPILE) $(TEST_CPPFLAGS) $(LINK) -o $@ $< $(LIB) $(PKG_LIBS) $(LDLIBS),fuzz)

$(BUILD)/bench/%: tests/bench/%.c $(LIB)
	$(call cc,$(COMPILE) $(TEST_CPPFLAGS) $(LINK) -o $@ $< $(LIB) $(PKG_LIBS) $(LDLIBS),build)

# scalelab's own checks build with -Werror (for everything they build).
test unit-tests memcheck fuzz-build: WERROR = -Werror

run: all | deps-build
	./$(BIN) $(ARGS)

# `make test`: everything is built first (the program and every unit
# program, once, as prerequisites), then the checks of the tree itself (the
# layering rule, the format, the licence lines, the files cited), the unit
# programs, and the suites against that build (run-suites fails if one of
# them rebuilds it). Each step stops the run on its first failure.
test: all $(TEST_BIN) | deps
	@scripts/check-layers
	@scripts/check-format
	@scripts/check-spdx
	@scripts/check-cites
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
# every wall-clock bound of the unit programs by the same factor
# (tl_slowdown in tests/unit/testlib.h). One program per core at a time.
memcheck: $(TEST_BIN)
	@SCALELAB_SANDBOX_SLOWDOWN=100 UNIT_JOBS=$$(nproc 2>/dev/null || echo 1) \
		VALGRIND="valgrind -q --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite,indirect" \
		scripts/run-unit-tests $(TEST_BIN)

# Each libFuzzer harness for FUZZ_SECONDS on its committed seed corpus.
fuzz:
	@$(MAKE) --no-print-directory FUZZ=1 fuzz-build
	@scripts/run-fuzz $(FUZZ_SECONDS) $(FUZZ_SRC:tests/fuzz/%.c=build/fuzz/fuzz/%)

fuzz-build: $(FUZZ_BIN)

bench: all $(BENCH_BIN)
	@scripts/run-bench $(BENCH_BIN)

# Static analysis, zero findings wanted (CI runs it): gcc's -fanalyzer over
# every source of the program, its unit programs and the benchmark, in
# build/analyze (incremental: a finding stays in its object's .warn file
# until the object compiles clean), then clang's scan-build over the
# program's sources afresh in build/scan when it is installed (Debian
# package clang-tools; else one line says it was skipped).
ANALYZE_GCC ?= gcc
ANALYZE_DIR  = build/analyze
analyze:
	@$(MAKE) -k --no-print-directory BUILD=$(ANALYZE_DIR) CC=$(ANALYZE_GCC) \
		CFLAGS='-O0 -g -fanalyzer' $(ANALYZE_DIR)/libscalelab.a $(ANALYZE_DIR)/src/main.o \
		$(TEST_BIN:$(BUILD)/%=$(ANALYZE_DIR)/%) $(BENCH_BIN:$(BUILD)/%=$(ANALYZE_DIR)/%) \
		>$(ANALYZE_DIR).log 2>&1 || { cat $(ANALYZE_DIR).log; exit 1; }
	@st=0; scripts/analyze-report gcc $(ANALYZE_DIR) || st=1; \
	if command -v scan-build >/dev/null 2>&1; then \
		rm -rf build/scan build/scan-report; \
		MAKEFLAGS= scan-build -o build/scan-report --status-bugs \
		$(MAKE) -j$(shell nproc 2>/dev/null || echo 1) --no-print-directory BUILD=build/scan \
		CFLAGS='-O0 -g' build/scan/libscalelab.a build/scan/src/main.o >build/scan.log 2>&1; \
		scripts/analyze-report scan-build build/scan.log $$? || st=1; \
	else echo "analyze: scan-build skipped: it is not installed (Debian package clang-tools;" \
		"make deps DEPS=analyze)"; fi; exit $$st

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
	@echo "make          build scalelab (installs nothing; names a missing package)"
	@echo "make run      install what is missing, build, open the lesson menu (ARGS=...)"
	@echo "make test     build and run every test (installs missing Debian packages)"
	@echo "make deps     install the missing Debian packages (DEPS=\"test fuzz analyze\")"
	@echo "make analyze  gcc -fanalyzer and clang scan-build, zero findings wanted"
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
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(DATADIR)/lessons $(DESTDIR)$(DATADIR)/assets \
		$(DESTDIR)$(MANDIR) $(DESTDIR)$(DOCDIR)
	install -m 755 $(BIN) $(DESTDIR)$(BINDIR)/scalelab
	install -m 644 lessons/*.lua $(DESTDIR)$(DATADIR)/lessons/
	install -m 644 assets/*.lua $(DESTDIR)$(DATADIR)/assets/
	install -m 644 $(DOCS) $(DESTDIR)$(DOCDIR)/
	sed 's|/usr/local/share/scalelab|$(DATADIR)|g; s|/usr/local/share/doc/scalelab|$(DOCDIR)|g' \
		assets/scalelab.1 >$(DESTDIR)$(MANDIR)/scalelab.1
	chmod 644 $(DESTDIR)$(MANDIR)/scalelab.1

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/scalelab $(DESTDIR)$(MANDIR)/scalelab.1
	rm -rf $(DESTDIR)$(DATADIR) $(DESTDIR)$(DOCDIR)

clean:
	rm -rf build $(BIN)

-include $(LIB_OBJ:.o=.d) $(BUILD)/src/main.d $(TEST_BIN:=.d) $(BENCH_BIN:=.d)
