# orchestrator/: the drivebench binary (plans, VMs on libvirt, phases,
# collection, aggregation, teardown) and its unit tests.
ORCH_PKGS      := libvirt libvirt-qemu libxml-2.0 inih json-c libcrypto libmicrohttpd
ORCH_SRCS      := $(wildcard orchestrator/*/*.c)
ORCH_OBJS      := $(ORCH_SRCS:%.c=$(BUILD)/%.o)
ORCH_LIBS       = $(call pkglibs,$(ORCH_PKGS) librsvg-2.0 libarchive) -lm -pthread

ORCH_CFLAGS     = $(call pkgcflags,$(ORCH_PKGS)) -Icommon -Iorchestrator
$(BUILD)/orchestrator/%.o: MOD_CFLAGS = $(ORCH_CFLAGS)
# the ranking's PNGs (report/png.c): librsvg and cairo, their headers (glib's)
# as system headers, outside the project's warnings
$(BUILD)/orchestrator/report/png.o: MOD_CFLAGS = $(patsubst -I%,-isystem %,$(call pkgcflags,librsvg-2.0)) \
                                                 -Icommon -Iorchestrator

# the files on top (main.c and the command line's cli*.c), in the binary only
ORCH_TOP_OBJS  := $(patsubst %.c,$(BUILD)/%.o,$(wildcard orchestrator/*.c))

$(BIN)/drivebench: $(ORCH_TOP_OBJS) $(ORCH_OBJS) $(COMMON_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(DB_LDFLAGS) $(LDFLAGS) -o $@ $^ $(ORCH_LIBS)

# Unit tests: cmocka against libvirt's test:/// driver (no daemon, no
# guest image). One binary per test file, linked with the library objects.
ORCH_TEST_SRCS := $(wildcard tests/orchestrator/test_*.c)
ORCH_TEST_BINS := $(ORCH_TEST_SRCS:tests/orchestrator/%.c=$(BIN)/orch_%)

$(BUILD)/tests/orchestrator/%.o: MOD_CFLAGS = $(call pkgcflags,$(ORCH_PKGS) cmocka) -Icommon -Iorchestrator

ORCH_TESTLIB   := $(BUILD)/tests/orchestrator/testlib.o

$(BIN)/orch_test_%: $(BUILD)/tests/orchestrator/test_%.o $(ORCH_TESTLIB) $(ORCH_OBJS) $(COMMON_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(DB_LDFLAGS) $(LDFLAGS) -o $@ $^ $(ORCH_LIBS) $(call pkglibs,cmocka)

ALL_TARGETS  += $(BIN)/drivebench $(ORCH_TEST_BINS)
CHECK_TARGETS += $(ORCH_TEST_BINS) tests/orchestrator/cli.sh tests/orchestrator/io.sh \
                 tests/orchestrator/live_slow_clients.sh

# `drivebench report` (orchestrator/report*.c, svg.c): the fixture maker
# (tests/report/make-fixtures.sh) and the report tests in tests/report/.
$(BUILD)/tests/report/%.o: MOD_CFLAGS = $(call pkgcflags,$(ORCH_PKGS) cmocka) -Icommon -Iorchestrator \
                                         $(patsubst -I%,-isystem %,$(call pkgcflags,cairo))

$(BIN)/report_mkfixture: $(BUILD)/tests/report/mkfixture.o $(ORCH_OBJS) $(COMMON_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(DB_LDFLAGS) $(LDFLAGS) -o $@ $^ $(ORCH_LIBS)

$(BIN)/report_mksummary: $(BUILD)/tests/report/mksummary.o $(ORCH_OBJS) $(COMMON_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(DB_LDFLAGS) $(LDFLAGS) -o $@ $^ $(ORCH_LIBS)

# XPath helpers shared by the two report tests
REPORT_TESTLIB := $(BUILD)/tests/report/xpath_util.o

$(BIN)/report_test: $(BUILD)/tests/report/test_report.o $(REPORT_TESTLIB) $(ORCH_OBJS) $(COMMON_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(DB_LDFLAGS) $(LDFLAGS) -o $@ $^ $(ORCH_LIBS) $(call pkglibs,cmocka)

# the protocol fingerprint added to the older fixtures (issue 22)
$(BIN)/report_mkfingerprint: $(BUILD)/tests/report/mkfingerprint.o $(ORCH_OBJS) $(COMMON_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(DB_LDFLAGS) $(LDFLAGS) -o $@ $^ $(ORCH_LIBS)

# protocols and the ranking (issue 22)
$(BIN)/report_rank_test: $(BUILD)/tests/report/test_rank.o $(REPORT_TESTLIB) $(ORCH_OBJS) $(COMMON_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(DB_LDFLAGS) $(LDFLAGS) -o $@ $^ $(ORCH_LIBS) $(call pkglibs,cmocka)

ALL_TARGETS  += $(BIN)/report_mkfixture $(BIN)/report_mksummary $(BIN)/report_test \
                $(BIN)/report_mkfingerprint $(BIN)/report_rank_test
CHECK_TARGETS += $(BIN)/report_rank_test
CHECK_TARGETS += $(BIN)/report_test tests/report/browser.sh

# bin/stats-sim: synthetic runs through the comparisons code (issue 29;
# README "Are the verdicts right?"); tests/stats/stats_sim.sh runs it at
# fixed seeds in make check.
$(BUILD)/tests/stats/%.o: MOD_CFLAGS = $(call pkgcflags,$(ORCH_PKGS)) -Icommon -Iorchestrator

$(BIN)/stats-sim: $(BUILD)/tests/stats/stats_sim.o $(ORCH_OBJS) $(COMMON_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(DB_LDFLAGS) $(LDFLAGS) -o $@ $^ $(ORCH_LIBS)

ALL_TARGETS  += $(BIN)/stats-sim
CHECK_TARGETS += tests/stats/stats_sim.sh
