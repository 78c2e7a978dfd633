# tests/unit/: cmocka unit tests of common/ and oltp/, each a binary
# linked with the objects it tests (their rules here, beside the tests;
# the orchestrator's are in orchestrator/module.mk, tests/orchestrator/).
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

# --- oltp/ ---
$(BIN)/test_oltp_unit: $(BUILD)/tests/unit/test_oltp_unit.o $(OLTP_LIB_OBJS) $(COMMON_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(DB_LDFLAGS) $(LDFLAGS) -o $@ $^ $(OLTP_LIBS) $(call pkglibs,cmocka)

# the text report (sysbench's, oltp's) for fixed inputs
$(BIN)/test_oltp_report: $(BUILD)/tests/unit/test_oltp_report.o $(OLTP_LIB_OBJS) $(COMMON_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(DB_LDFLAGS) $(LDFLAGS) -o $@ $^ $(OLTP_LIBS) $(call pkglibs,cmocka)
ALL_TARGETS  += $(BIN)/test_oltp_report
CHECK_TARGETS += $(BIN)/test_oltp_report

# TPC-C: the random rules of the specification (no server needed)
$(BIN)/test_tpcc: $(BUILD)/tests/unit/test_tpcc.o $(BUILD)/oltp/tpcc/tpcc_rand.o $(BUILD)/oltp/options/rand.o
	@mkdir -p $(dir $@)
	$(CC) $(DB_LDFLAGS) $(LDFLAGS) -o $@ $^ -lm $(call pkglibs,cmocka)

$(BIN)/test_dialect: $(BUILD)/tests/unit/test_dialect.o $(OLTP_LIB_OBJS) $(COMMON_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(DB_LDFLAGS) $(LDFLAGS) -o $@ $^ $(OLTP_LIBS) $(call pkglibs,cmocka)

# sysbench's --db-ps-mode, --mysql-dry-run, prepare's bulk default as `sysbench`
$(BIN)/test_sb_prepare: $(BUILD)/tests/unit/test_sb_prepare.o $(OLTP_LIB_OBJS) $(COMMON_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(DB_LDFLAGS) $(LDFLAGS) -o $@ $^ $(OLTP_LIBS) $(call pkglibs,cmocka)
ALL_TARGETS  += $(BIN)/test_oltp_unit $(BIN)/test_tpcc $(BIN)/test_dialect $(BIN)/test_sb_prepare
CHECK_TARGETS += $(BIN)/test_dialect $(BIN)/test_oltp_unit $(BIN)/test_tpcc $(BIN)/test_sb_prepare

# SQL Server's transaction rules through the real driver manager: bin/oltp
# against a test double of SQL Server loaded as an ODBC driver
# (tests/unit/fake_mssql_odbc.c, a shared object named by a private
# odbcinst.ini)
$(BIN)/fake_mssql_odbc.so: tests/unit/fake_mssql_odbc.c
	@mkdir -p $(dir $@) $(BUILD)/tests/unit
	$(CC) $(DB_CFLAGS) $(CFLAGS) -MF $(BUILD)/tests/unit/fake_mssql_odbc.d $(call pkgcflags,odbc) -fPIC -shared \
	  -o $@ $< $(DB_LDFLAGS) $(LDFLAGS)
-include $(BUILD)/tests/unit/fake_mssql_odbc.d

$(BIN)/test_odbc_mssql: $(BUILD)/tests/unit/test_odbc_mssql.o | $(BIN)/fake_mssql_odbc.so $(BIN)/oltp
	@mkdir -p $(dir $@)
	$(CC) $(DB_LDFLAGS) $(LDFLAGS) -o $@ $^ $(call pkglibs,cmocka json-c odbc)

ALL_TARGETS  += $(BIN)/fake_mssql_odbc.so $(BIN)/test_odbc_mssql
CHECK_TARGETS += $(BIN)/test_odbc_mssql
