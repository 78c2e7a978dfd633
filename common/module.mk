# common/: code shared by oltp and drivebench (histograms, result formats,
# atomic output files, sleeping).
COMMON_OBJS := $(BUILD)/common/hist.o $(BUILD)/common/results.o \
               $(BUILD)/common/results_oltp.o $(BUILD)/common/results_summary.o \
               $(BUILD)/common/results_drive_io.o $(BUILD)/common/results_fields.o \
               $(BUILD)/common/atomic_file.o $(BUILD)/common/nap.o \
               $(BUILD)/common/results_fingerprint.o $(BUILD)/common/results_latency.o \
               $(BUILD)/common/results_sweep.o $(BUILD)/common/results_summary_csv.o \
               $(BUILD)/common/results_names.o $(BUILD)/common/results_text.o \
               $(BUILD)/common/results_server.o
COMMON_CFLAGS = $(call pkgcflags,json-c) -Icommon
$(BUILD)/common/%.o: MOD_CFLAGS = $(COMMON_CFLAGS)
COMMON_LIBS  = $(call pkglibs,json-c) -lm

UNIT_LIBS   = $(call pkglibs,cmocka json-c) -lm

$(BUILD)/tests/unit/%.o: MOD_CFLAGS = $(call pkgcflags,cmocka json-c libmariadb libuv) -Icommon $(OLTP_INCLUDES)

$(BIN)/test_hist: $(BUILD)/tests/unit/test_hist.o $(COMMON_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(DB_LDFLAGS) $(LDFLAGS) -o $@ $^ $(UNIT_LIBS)

# the result formats (common/results.c): round trips, refusals, CSV
$(BIN)/test_results: $(BUILD)/tests/unit/test_results.o $(COMMON_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(DB_LDFLAGS) $(LDFLAGS) -o $@ $^ $(UNIT_LIBS)

# atomic output files (common/atomic_file.c): bytes, mode under the umask,
# nothing left behind, refusals
$(BIN)/test_atomic_file: $(BUILD)/tests/unit/test_atomic_file.o $(COMMON_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(DB_LDFLAGS) $(LDFLAGS) -o $@ $^ $(UNIT_LIBS)

ALL_TARGETS  += $(BIN)/test_hist $(BIN)/test_results $(BIN)/test_atomic_file
CHECK_TARGETS += $(BIN)/test_hist $(BIN)/test_results $(BIN)/test_atomic_file
