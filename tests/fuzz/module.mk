# tests/fuzz/: libFuzzer targets, built with clang, and their replay.
#
#   make fuzz       each target for FUZZ_SECONDS (60) from its seed corpus
#   make fuzz-ci    each target for FUZZ_CI_SECONDS (15), as CI does
#   make test       replays tests/fuzz/corpus/<t>/ and tests/fuzz/regressions/<t>/
#                   with the normal build (bin/fuzz_replay_<t>)
#
# A crash is saved as build-fuzz/crashes/<t>/crash-*; once fixed, copy the
# input into tests/fuzz/regressions/<t>/ so `make test` replays it forever.
# New inputs the fuzzer finds go to build-fuzz/corpus/<t>/ (not committed).
#
# Targets: plan (orchestrator/plan/plan_parse.c), oltp_options (oltp/options/options.c),
# render (plan text -> layout -> template.c -> libxml2 parse, names round-
# trip), results_read (common/results*.c: the oltp result and summary
# readers on any file, as a guest's result would reach them).
FUZZ_TARGETS    := plan oltp_options render results_read
FUZZ_SECONDS    ?= 60
FUZZ_CI_SECONDS ?= 15
FUZZ_CC         ?= clang
FUZZ_SAN        := -fsanitize=address,undefined -fno-sanitize-recover=undefined \
                   -fno-omit-frame-pointer

FUZZ_OBJS_plan          = $(ORCH_OBJS) $(COMMON_OBJS)
FUZZ_LIBS_plan          = $(ORCH_LIBS)
FUZZ_OBJS_render        = $(ORCH_OBJS) $(COMMON_OBJS)
FUZZ_LIBS_render        = $(ORCH_LIBS)
FUZZ_OBJS_oltp_options  = $(OLTP_LIB_OBJS) $(COMMON_OBJS)
FUZZ_LIBS_oltp_options  = $(OLTP_LIBS)
FUZZ_OBJS_results_read  = $(COMMON_OBJS)
FUZZ_LIBS_results_read  = -ljson-c -lm

$(BUILD)/tests/fuzz/%.o: MOD_CFLAGS = $(call pkgcflags,$(ORCH_PKGS) $(OLTP_PKGS)) \
    -Icommon -Iorchestrator $(OLTP_INCLUDES) -Itests/fuzz -DFUZZ_SRCDIR='"$(CURDIR)"'

$(BUILD)/tests/fuzz/replay_%.o: tests/fuzz/replay.c
	@mkdir -p $(dir $@)
	$(CC) $(DB_CFLAGS) $(CFLAGS) $(MOD_CFLAGS) -DFUZZ_NAME='"$*"' -c -o $@ $<

define FUZZ_RULES
$$(BIN)/fuzz_replay_$(1): $$(BUILD)/tests/fuzz/fuzz_$(1).o $$(BUILD)/tests/fuzz/fuzz_util.o \
                          $$(BUILD)/tests/fuzz/replay_$(1).o $$(FUZZ_OBJS_$(1))
	@mkdir -p $$(dir $$@)
	$$(CC) $$(DB_LDFLAGS) $$(LDFLAGS) -o $$@ $$^ $$(FUZZ_LIBS_$(1))

$$(BIN)/fuzz_$(1): $$(BUILD)/tests/fuzz/fuzz_$(1).o $$(BUILD)/tests/fuzz/fuzz_util.o \
                   $$(FUZZ_OBJS_$(1))
	@mkdir -p $$(dir $$@)
	$$(CC) $$(DB_LDFLAGS) $$(LDFLAGS) -fsanitize=fuzzer -o $$@ $$^ $$(FUZZ_LIBS_$(1))
endef
$(foreach t,$(FUZZ_TARGETS),$(eval $(call FUZZ_RULES,$(t))))

FUZZ_REPLAY := $(FUZZ_TARGETS:%=$(BIN)/fuzz_replay_%)
ALL_TARGETS  += $(FUZZ_REPLAY)
CHECK_TARGETS += $(FUZZ_REPLAY)

.PHONY: fuzz fuzz-ci fuzz-bins
fuzz-bins: $(FUZZ_TARGETS:%=$(BIN)/fuzz_%)

# The fuzzers: clang, libFuzzer + ASan + UBSan, in build-fuzz/ and bin-fuzz/
# (warnings are gcc's business: clang's own set is not made fatal here).
# Each runs from its committed seeds plus what earlier runs found.
fuzz:
	$(MAKE) BUILD=build-fuzz BIN=bin-fuzz CC=$(FUZZ_CC) WERROR= \
	  SANITIZE="-fsanitize=fuzzer-no-link $(FUZZ_SAN)" fuzz-bins
	@set -e; for t in $(FUZZ_TARGETS); do \
	  mkdir -p build-fuzz/corpus/$$t build-fuzz/crashes/$$t; \
	  echo "=== fuzz_$$t for $(FUZZ_SECONDS) s"; \
	  ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
	  bin-fuzz/fuzz_$$t -max_total_time=$(FUZZ_SECONDS) -timeout=10 -rss_limit_mb=2048 \
	    -artifact_prefix=build-fuzz/crashes/$$t/ -print_final_stats=1 \
	    -close_fd_mask=1 build-fuzz/corpus/$$t tests/fuzz/corpus/$$t </dev/null 2>build-fuzz/fuzz_$$t.log \
	    || { tail -40 build-fuzz/fuzz_$$t.log; echo "fuzz_$$t: crash saved in build-fuzz/crashes/$$t/"; exit 1; }; \
	  grep -E '^stat::number_of_executed_units|^stat::new_units_added' build-fuzz/fuzz_$$t.log \
	    | tr '\n' ' ' | sed "s/^/fuzz_$$t: /"; echo; \
	done

fuzz-ci:
	$(MAKE) fuzz FUZZ_SECONDS=$(FUZZ_CI_SECONDS)
