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

# bin/sysbench: oltp in its sysbench personality (a link: oltp reads the
# name it was run by)
$(BIN)/sysbench: $(BIN)/oltp
	ln -sf oltp $@

# make install (Makefile): the load generator and its sysbench name,
# beside each other
.PHONY: install-oltp
install-oltp: $(BIN)/oltp
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 755 $(BIN)/oltp $(DESTDIR)$(PREFIX)/bin/oltp
	ln -sf oltp $(DESTDIR)$(PREFIX)/bin/sysbench

ALL_TARGETS  += $(BIN)/oltp $(BIN)/sysbench
TEST_TARGETS += tests/integration/oltp_mysql.sh
TEST_TARGETS += tests/integration/oltp_pgsql.sh tests/integration/oltp_odbc.sh
TEST_TARGETS += tests/integration/oltp_ping.sh tests/integration/oltp_disk_full.sh \
                tests/integration/oltp_settings.sh
TEST_TARGETS += tests/integration/oltp_report.sh tests/integration/oltp_sysbench_prepare.sh
# bin/sysbench beside the real sysbench: exit statuses and messages; then
# sysbench 1.0.20's own cram tests against bin/sysbench (SYSBENCH_TESTS)
TEST_TARGETS += tests/integration/sysbench_cli.sh tests/integration/sysbench_suite.sh
TEST_TARGETS += tests/integration/tpcc_mysql.sh tests/integration/tpcc_procedures.sh tests/integration/tpcc_compat.sh
# the SQL Server path against Babelfish, last: on a fresh machine it waits
# for the Babelfish build .ci/run started early (tests/lib/babelfish.sh)
TEST_TARGETS += tests/integration/tsql_babelfish.sh tests/integration/tsql_bcp.sh
# sysbench's cpu test in bin/sysbench and bin/oltp (no server, ~2 s)
CHECK_TARGETS += tests/integration/sysbench_cpu.sh
# babelfish/build.sh's steps on stand-in sources (seconds, no network)
CHECK_TARGETS += tests/babelfish/build_env.sh
