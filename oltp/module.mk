# oltp/: the load generator, bin/oltp.
OLTP_PKGS := libmariadb libuv json-c libpq odbc
OLTP_SRCS := $(wildcard oltp/*.c oltp/*/*.c)
OLTP_LIB_OBJS := $(patsubst %.c,$(BUILD)/%.o,$(filter-out oltp/main.c,$(OLTP_SRCS)))
OLTP_INCLUDES = -Ioltp
OLTP_CFLAGS = $(call pkgcflags,$(OLTP_PKGS)) -Icommon $(OLTP_INCLUDES)
$(BUILD)/oltp/%.o: MOD_CFLAGS = $(OLTP_CFLAGS) -pthread
OLTP_LIBS = $(call pkglibs,$(OLTP_PKGS)) -lm -pthread

$(BIN)/oltp: $(BUILD)/oltp/main.o $(OLTP_LIB_OBJS) $(COMMON_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(DB_LDFLAGS) $(LDFLAGS) -o $@ $^ $(OLTP_LIBS)

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

# bin/sysbench: oltp in its sysbench personality (a link: oltp reads the
# name it was run by)
$(BIN)/sysbench: $(BIN)/oltp
	ln -sf oltp $@

# make install: the load generator and its sysbench name, beside each other
PREFIX ?= /usr/local
.PHONY: install
install: $(BIN)/oltp
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 755 $(BIN)/oltp $(DESTDIR)$(PREFIX)/bin/oltp
	ln -sf oltp $(DESTDIR)$(PREFIX)/bin/sysbench

ALL_TARGETS  += $(BIN)/oltp $(BIN)/sysbench $(BIN)/test_oltp_unit $(BIN)/test_tpcc
ALL_TARGETS  += $(BIN)/test_dialect $(BIN)/test_sb_prepare
CHECK_TARGETS += $(BIN)/test_dialect $(BIN)/test_oltp_unit $(BIN)/test_tpcc $(BIN)/test_sb_prepare
TEST_TARGETS += tests/integration/oltp_mysql.sh
TEST_TARGETS += tests/integration/oltp_pgsql.sh tests/integration/oltp_odbc.sh
TEST_TARGETS += tests/integration/oltp_ping.sh tests/integration/oltp_disk_full.sh
TEST_TARGETS += tests/integration/oltp_report.sh tests/integration/oltp_sysbench_prepare.sh
# bin/sysbench beside the real sysbench: exit statuses and messages; then
# sysbench 1.0.20's own cram tests against bin/sysbench (SYSBENCH_TESTS)
TEST_TARGETS += tests/integration/sysbench_cli.sh tests/integration/sysbench_suite.sh
TEST_TARGETS += tests/integration/tpcc_mysql.sh tests/integration/tpcc_procedures.sh tests/integration/tpcc_compat.sh
# the SQL Server path against Babelfish, last: on a fresh machine it waits
# for the Babelfish build .ci/run started early (tests/lib/babelfish.sh)
TEST_TARGETS += tests/integration/tsql_babelfish.sh tests/integration/tsql_bcp.sh
# babelfish/build.sh's steps on stand-in sources (seconds, no network)
CHECK_TARGETS += tests/babelfish/build_env.sh

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
