# common/: code shared by oltp and drivebench (histograms, atomic output files).
COMMON_OBJS := $(BUILD)/common/hist.o $(BUILD)/common/atomic_file.o
$(BUILD)/common/%.o: MOD_CFLAGS = $(call pkgcflags,json-c)
COMMON_LIBS := $(call pkglibs,json-c) -lm

UNIT_CFLAGS = $(call pkgcflags,cmocka json-c) -Icommon -Ioltp
UNIT_LIBS   = $(call pkglibs,cmocka json-c) -lm

$(BUILD)/tests/unit/%.o: MOD_CFLAGS = $(call pkgcflags,cmocka json-c libmariadb libuv) -Icommon -Ioltp

$(BIN)/test_hist: $(BUILD)/tests/unit/test_hist.o $(COMMON_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(UNIT_LIBS)

ALL_TARGETS  += $(BIN)/test_hist
TEST_TARGETS += $(BIN)/test_hist
