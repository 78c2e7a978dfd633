# drivebench — top-level Makefile.
#
#   make            build bin/oltp and bin/drivebench
#   make check      make lint, then the fast tests: unit, libvirt test
#                   driver, fuzz replays (no servers, no VMs, no root)
#   make lint       the house rules as checks (tests/lint/README.md)
#   make test       make check, then the tests with real servers and real VMs
#   make run        set up a fresh machine and run the quick plan (root)
#   make asan       build into build-asan/ with AddressSanitizer + UBSan
#   make install    oltp, the man pages and the bash completions (PREFIX, DESTDIR)
#   make tsan       build the threaded parts into build-tsan/ with ThreadSanitizer
#   make clang      build with clang, warnings as errors, into build-clang/
#   make compile_commands.json   the compiler calls, for editors (clangd)
#   make fuzz       run each libFuzzer target for FUZZ_SECONDS (tests/fuzz/)
#
# Each part of the tree adds its own rules in a module.mk next to its
# sources; this file only holds what they share.

# No built-in rules: every rule is written here or in a module.mk (make's
# own `%: %.o` once rebuilt the dependency files as programs).
MAKEFLAGS += --no-builtin-rules
.SUFFIXES:

CC       ?= cc
BUILD    ?= build
BIN      ?= bin
WERROR   ?= $(if $(CI),-Werror,)
# CFLAGS and LDFLAGS are the caller's: `make CFLAGS=-O0` changes the
# optimisation and keeps the project's own flags, which live apart in
# DB_CFLAGS / DB_LDFLAGS and come first on every command line.
CFLAGS   ?= -O2 -g
WARNINGS := -Wall -Wextra -Wstrict-prototypes -Wshadow -Wno-unused-parameter \
            -Wmissing-prototypes -Wformat=2 -Wwrite-strings -Wvla -Wundef
DB_CFLAGS = -std=gnu11 $(WARNINGS) $(WERROR) -MMD -MP -D_GNU_SOURCE $(SANITIZE)
DB_LDFLAGS = $(SANITIZE)

# Recursive (=) variables only: pkg-config runs when a recipe needs the flags,
# never while make reads the files (`make run` installs pkg-config first).
pkgcflags = $(shell pkg-config --cflags $(1))
pkglibs   = $(shell pkg-config --libs $(1))

# CHECK_TARGETS: tests that need no server, no VM and no root (make check);
# TEST_TARGETS: the ones with real servers or real VMs (make test runs both).
ALL_TARGETS   :=
# make lint's checks come first in make check (they take seconds)
LINT_TARGETS  := tests/lint/layers.sh tests/lint/launcher.sh tests/lint/prefixes.sh \
                 tests/lint/enums.sh tests/lint/sizes.sh tests/lint/calls.sh tests/lint/fronts.sh \
                 tests/lint/musts.sh \
                 tests/lint/test_lint.sh
CHECK_TARGETS := $(LINT_TARGETS) tests/test_run_all.sh tests/docs/docs.sh tests/lib/test_leftovers.sh tests/build/compile_commands.sh \
                 tests/build/install.sh
TEST_TARGETS  :=
CLEAN_FILES  :=

.PHONY: all check lint test test-asan clean asan run tsan test-tsan clang compile_commands.json
all: build-all

include common/module.mk
include oltp/module.mk
include tests/unit/module.mk
include orchestrator/module.mk
include images/module.mk
include tests/fuzz/module.mk
include tests/tsql/module.mk
include man/module.mk
include completion/module.mk

build-all: $(ALL_TARGETS)

# make install: oltp and its sysbench name into $(PREFIX)/bin, the man
# pages, the bash completions. drivebench itself runs from its tree (it
# finds vmconfigs/ and images/ beside bin/), so only its page and its
# completion are installed.
PREFIX ?= /usr/local
.PHONY: install
install: install-oltp install-man install-completion

# The house rules (tests/lint/): each check reads the tree and its
# READMEs; the layer check runs `cc -MM` with each module's own flags and
# the prefix check reads the built objects. test_lint.sh plants a
# violation of each rule in a copy of the tree and sees its check fail.
LINT_CFLAGS_common       = $(COMMON_CFLAGS)
LINT_CFLAGS_oltp         = $(OLTP_CFLAGS)
LINT_CFLAGS_orchestrator = $(ORCH_CFLAGS) $(call pkgcflags,librsvg-2.0)
LINT_ENV = LINT_BUILD='$(BUILD)' LINT_CFLAGS_common='$(LINT_CFLAGS_common)' \
           LINT_CFLAGS_oltp='$(LINT_CFLAGS_oltp)' LINT_CFLAGS_orchestrator='$(LINT_CFLAGS_orchestrator)'
lint-cflags-%:
	@echo '$(LINT_CFLAGS_$*)'

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(DB_CFLAGS) $(CFLAGS) $(MOD_CFLAGS) -c -o $@ $<

# `make check` and `make test` run their suites in order; each module
# appends its own.
# make check runs CHECK_JOBS suites at once (most of their time is
# waiting: phases of 1 s, headless Chromium, node); make test one by one.
CHECK_JOBS ?= 3
check: $(ALL_TARGETS)
	@$(LINT_ENV) RUN_JOBS=$(CHECK_JOBS) tests/run-all.sh $(CHECK_TARGETS)

lint: $(ALL_TARGETS)
	@$(LINT_ENV) tests/run-all.sh $(LINT_TARGETS)

test: $(ALL_TARGETS)
	@$(LINT_ENV) tests/run-all.sh $(CHECK_TARGETS) $(TEST_TARGETS)

ASAN_FLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
asan:
	$(MAKE) BUILD=build-asan BIN=bin-asan SANITIZE="$(ASAN_FLAGS)"

# The unit tests and the oltp integration test again, built with
# AddressSanitizer (leaks included) and UBSan; any report fails the test
# (tests/lsan.supp: the one system library whose caches live on, fontconfig).
test-asan: asan
	@ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	  LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp:print_suppressions=0 \
	  OLTP_BIN=bin-asan/oltp tests/run-all.sh \
	  $(patsubst $(BIN)/%,bin-asan/%,$(filter $(BIN)/%,$(CHECK_TARGETS) $(TEST_TARGETS))) tests/integration/oltp_mysql.sh

# The threaded parts (oltp's engine and ODBC driver, the orchestrator's
# device-latency tracer, guest view, restore and monitor threads) built
# with ThreadSanitizer into build-tsan/; test-tsan runs the unit tests of
# the files that start threads, and oltp under load against a real
# MariaDB (tests/integration/oltp_mysql.sh); any report fails the test.
# (ASan and TSan cannot share a build; tests/tsan.supp: what GLib hides.)
TSAN_FLAGS := -fsanitize=thread -fno-omit-frame-pointer
TSAN_TESTS := test_oltp_unit orch_test_devlat orch_test_guest orch_test_restore orch_test_monitor \
              orch_test_live orch_test_telemetry
tsan:
	$(MAKE) BUILD=build-tsan BIN=bin-tsan SANITIZE="$(TSAN_FLAGS)" bin-tsan/oltp \
	  $(addprefix bin-tsan/,$(TSAN_TESTS))
test-tsan: tsan
	@TSAN_OPTIONS=halt_on_error=1:abort_on_error=1:second_deadlock_stack=1:history_size=7:suppressions=$(CURDIR)/tests/tsan.supp \
	  OLTP_BIN=bin-tsan/oltp tests/run-all.sh $(addprefix bin-tsan/,$(TSAN_TESTS)) \
	  tests/integration/oltp_mysql.sh

# make CC=clang, warnings as errors, into build-clang/ (CI runs it: the
# code is held to both compilers' -Wall -Wextra)
clang:
	$(MAKE) CC=clang BUILD=build-clang BIN=bin-clang WERROR=-Werror build-all

# compile_commands.json for editors (clangd, ccls): every compiler call
# of the build, from its own rules (make -Bn: nothing is built)
COMPILE_COMMANDS ?= compile_commands.json
compile_commands.json:
	@$(MAKE) -Bn --no-print-directory build-all | python3 build-aux/compile-commands.py '$(CC)' \
	  >'$(COMPILE_COMMANDS).tmp' && mv '$(COMPILE_COMMANDS).tmp' '$(COMPILE_COMMANDS)'

clean:
	rm -rf $(BUILD) build-asan build-fuzz build-tsan build-clang $(BIN) bin-asan bin-fuzz bin-tsan \
	  bin-clang compile_commands.json $(CLEAN_FILES)

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
