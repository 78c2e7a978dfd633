# common/: code shared by oltp and drivebench (histograms, result formats,
# atomic output files, sleeping).
COMMON_OBJS := $(BUILD)/common/hist.o $(BUILD)/common/results.o \
               $(BUILD)/common/results_oltp.o $(BUILD)/common/results_summary.o \
               $(BUILD)/common/results_drive_io.o $(BUILD)/common/results_fields.o \
               $(BUILD)/common/atomic_file.o $(BUILD)/common/nap.o \
               $(BUILD)/common/results_fingerprint.o $(BUILD)/common/results_latency.o \
               $(BUILD)/common/results_sweep.o $(BUILD)/common/results_summary_csv.o \
               $(BUILD)/common/results_names.o $(BUILD)/common/results_text.o \
               $(BUILD)/common/results_server.o $(BUILD)/common/results_capacity.o
COMMON_CFLAGS = $(call pkgcflags,json-c) -Icommon
$(BUILD)/common/%.o: MOD_CFLAGS = $(COMMON_CFLAGS)
COMMON_LIBS  = $(call pkglibs,json-c) -lm
