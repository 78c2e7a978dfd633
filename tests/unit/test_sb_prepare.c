/*
 * Unit tests of what oltp takes from sysbench 1.0.20 for prepare and the
 * statement protocol: --db-ps-mode and --mysql-dry-run as parsed, the
 * bulk default of each personality (run as `sysbench`: INSERT batches),
 * the text --db-ps-mode=disable sends (db_inline_params), and prepare's
 * INSERT batches as a counting driver sees them, and the errors of
 * prepare, check_ready and cleanup returned, not printed. The servers'
 * side is tests/integration/oltp_sysbench_prepare.sh.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "drivers/db.h"
#include "options/options.h"
#include "workload_list.h"
#include "oltp_parse.h"

static void test_ps_mode_and_dry_run(void **state)
{
    oltp_opts o;
    char err[512];
    assert_int_equal(parse(&o, "oltp_read_write run", err, sizeof err), 0);
    assert_int_equal(o.db.ps_mode, DB_PS_AUTO);
    assert_false(o.db.dry_run);
    assert_int_equal(parse(&o, "--db-ps-mode=disable --mysql-dry-run oltp_read_write run",
                           err, sizeof err), 0);
    assert_int_equal(o.db.ps_mode, DB_PS_DISABLE);
    assert_true(o.db.dry_run);
    assert_int_equal(parse(&o, "--db-ps-mode=auto --mysql-dry-run=off oltp_read_write run",
                           err, sizeof err), 0);
    assert_int_equal(o.db.ps_mode, DB_PS_AUTO);
    assert_false(o.db.dry_run);
}

static void test_bad_ps_mode(void **state)
{
    static const struct { const char *line, *msg; } cases[] = {
        {"--db-ps-mode=off oltp_read_write run", "oltp: --db-ps-mode=off: expected auto or disable\n"},
        {"--db-ps-mode oltp_read_write run", "oltp: option '--db-ps-mode' needs a value: --db-ps-mode=VALUE\n"},
        {"--db-driver=pgsql --db-ps-mode=disable --pipeline=on oltp_read_write run",
         "oltp: --db-ps-mode=disable and --pipeline=on: the simple query protocol cannot be pipelined "
         "(libpq); choose one\n"},
        {"--db-driver=odbc --odbc-dsn=x --db-ps-mode=disable oltp_read_write run",
         "oltp: --db-ps-mode=disable is not available with --db-driver=odbc: only the mysql and pgsql "
         "drivers send statements as text\n"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        oltp_opts o;
        char err[512];
        assert_int_equal(parse(&o, cases[i].line, err, sizeof err), -1);
        assert_string_equal(err, cases[i].msg);
    }
}

/* As `sysbench`, prepare sends INSERT batches unless --bulk is given; as
 * oltp the bulk path stays the default. */
static void test_bulk_default_per_personality(void **state)
{
    static const struct { const char *argv0, *line; bool personality, bulk; } cases[] = {
        {"oltp", "oltp_read_write prepare", false, true},
        {"/usr/local/bin/oltp", "--bulk=off oltp_read_write prepare", false, false},
        {"sysbench", "oltp_read_write prepare", true, false},
        {"/usr/local/bin/sysbench", "oltp_read_write prepare", true, false},
        {"sysbench", "--bulk=on oltp_read_write prepare", true, true},
        {"sysbench", "--bulk oltp_read_write prepare", true, true},
        {"./sysbench-1", "oltp_read_write prepare", false, true},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        oltp_opts o;
        char err[512];
        assert_int_equal(parse_as(&o, cases[i].argv0, cases[i].line, err, sizeof err), 0);
        assert_int_equal(o.sysbench_personality, cases[i].personality);
        assert_int_equal(o.bulk, cases[i].bulk);
    }
}

/* A stand-in for the client library's escaping: doubles single quotes. */
static size_t double_quotes(void *ctx, char *out, const char *s, size_t len)
{
    size_t o = 0;
    (*(int *)ctx)++;
    for (size_t i = 0; i < len; i++) {
        if (s[i] == '\'')
            out[o++] = '\'';
        out[o++] = s[i];
    }
    out[o] = 0;
    return o;
}

static void test_inline_params(void **state)
{
    const db_value v[] = { db_int(-2147483648LL), db_str("it's", 4), db_dbl(0.1),
                           { .type = DB_T_NULL }, db_str("", 0) };
    int calls = 0;
    size_t len = 0;
    char *sql = db_inline_params("UPDATE t SET c=?, x='?', \"q?\"=? WHERE id=? AND n=? AND e=?",
                                 v, 5, double_quotes, &calls, &len);
    const char *want = "UPDATE t SET c=-2147483648, x='?', \"q?\"='it''s' WHERE id=0.10000000000000001 "
                       "AND n=NULL AND e=''";

    assert_non_null(sql);
    assert_string_equal(sql, want);
    assert_int_equal(len, strlen(want));
    assert_int_equal(calls, 2);             /* the library escapes every string value */
    free(sql);
    /* a statement of sysbench's, as --db-ps-mode=disable sends it */
    sql = db_inline_params("SELECT c FROM sbtest3 WHERE id BETWEEN ? AND ?", v, 2, double_quotes, &calls, &len);
    assert_non_null(sql);
    assert_string_equal(sql, "SELECT c FROM sbtest3 WHERE id BETWEEN -2147483648 AND 'it''s'");
    free(sql);
}

/* --- prepare's INSERT batches, seen by a driver that counts them ---------- */

enum { MAX_BATCHES = 16 };
static struct { int n; size_t bytes[MAX_BATCHES]; int rows[MAX_BATCHES]; } batches;

static int cnt_init(db_conn *c) { c->priv = c; return 0; }
static void cnt_free(db_conn *c) { c->priv = NULL; }
static int cnt_done(db_conn *c) { return DB_DONE; }
static int cnt_exec(db_conn *c, int stmt, const db_value *v) { return DB_DONE; }
static int cnt_cont(db_conn *c, int ev) { return DB_DONE; }
static int cnt_fd(const db_conn *c) { return -1; }
static void cnt_disconnect(db_conn *c) { }
static int64_t cnt_zero(const db_conn *c) { return 0; }
static int cnt_next_row(db_conn *c) { return 0; }
static const char *cnt_col(db_conn *c, int col, size_t *len) { return NULL; }
static const char *cnt_version(const db_conn *c) { return "counter"; }
/* refuse: what the counting driver answers CREATE TABLE and the check of
 * a table with (0: success) */
static enum { REFUSE_NONE, REFUSE_EXISTS, REFUSE_MISSING, REFUSE_LOST } refuse;
static int cnt_query(db_conn *c, const char *sql, size_t len)
{
    if (refuse == REFUSE_EXISTS && !strncmp(sql, "CREATE TABLE sbtest1", 20))
        return db_set_error(c, 1050, "42S01", DB_ERR_FATAL, "Table 'sbtest1' already exists"), DB_ERROR;
    if (refuse == REFUSE_MISSING && !strncmp(sql, "SHOW COLUMNS FROM sbtest1", 25))
        return db_set_error(c, 1146, "42S02", DB_ERR_FATAL, "Table 'sbtest.sbtest1' doesn't exist"), DB_ERROR;
    if (refuse == REFUSE_LOST)
        return db_set_error(c, 2013, "HY000", DB_ERR_RECONNECT, "Lost connection to server during query"),
               DB_ERROR;
    if (!strncmp(sql, "INSERT INTO sbtest1(k, c, pad) VALUES(", 38) && batches.n < MAX_BATCHES) {
        int rows = 1;
        for (const char *x = sql; (x = strstr(x, "),(")); x++)
            rows++;
        batches.bytes[batches.n] = len;
        batches.rows[batches.n++] = rows;
    }
    return DB_DONE;
}

static const struct db_driver counting_driver = {
    .name = "counter", .init = cnt_init, .free = cnt_free, .connect_start = cnt_done,
    .exec_start = cnt_exec, .query_start = cnt_query, .cont = cnt_cont, .fd = cnt_fd,
    .disconnect = cnt_disconnect, .num_rows = cnt_zero, .affected_rows = cnt_zero,
    .next_row = cnt_next_row, .col = cnt_col, .server_version = cnt_version,
};

/* oltp_read_write prepare of one table in `dialect` with --bulk=off. */
static void prepare_batches(const char *dialect, const char *table_size)
{
    char line[256], err[512];
    oltp_opts o;
    wl_run run = { .o = &o };
    const workload *wl = workload_find("oltp_read_write");
    db_conn c;
    int64_t progress = 0, total = 0;
    FILE *saved = stdout;
    wl_err e = { "", false };

    snprintf(line, sizeof line, "--db-driver=odbc --odbc-dsn=x --odbc-dialect=%s --bulk=off --table-size=%s "
             "oltp_read_write prepare", dialect, table_size);
    assert_int_equal(parse(&o, line, err, sizeof err), 0);
    assert_int_equal(dialect_parse(dialect, &o.db.dialect), 0);
    memset(&batches, 0, sizeof batches);
    stdout = fopen("/dev/null", "w");        /* prepare's progress lines */
    assert_non_null(stdout);
    assert_int_equal(wl->setup(&run, &e), 0);
    assert_int_equal(db_init(&c, &counting_driver, &o.db, run.stmts, run.nstmts), 0);
    assert_int_equal(wl->prepare(&run, &c, 0, 1, &progress, &total, &e), 0);
    db_free(&c);
    wl->teardown(&run);
    fclose(stdout);
    stdout = saved;
    assert_int_equal(progress, strtoll(table_size, NULL, 10));
}

static void test_insert_batches(void **state)
{
    /* sysbench's: as many rows as keep the statement and its NUL within
     * 512 KiB (a row of k 1..10000 is 189 to 193 bytes, and a comma): 10,000
     * rows are three full batches and the rest */
    prepare_batches("mysql", "10000");
    assert_int_equal(batches.n, 4);
    assert_int_equal(batches.rows[0] + batches.rows[1] + batches.rows[2] + batches.rows[3], 10000);
    for (int i = 0; i < 3; i++) {
        assert_true(batches.bytes[i] < 512 * 1024);
        assert_true(batches.bytes[i] + 193 + 2 > 512 * 1024);    /* the next row did not fit */
    }
    /* T-SQL's VALUES list takes 1,000 rows at most (error 10738) */
    prepare_batches("mssql", "2500");
    assert_int_equal(batches.n, 3);
    assert_int_equal(batches.rows[0], 1000);
    assert_int_equal(batches.rows[1], 1000);
    assert_int_equal(batches.rows[2], 500);
}

/* cmd on oltp_read_write (as `argv0`, mysql dialect) against the
 * counting driver answering as `how`: its return, the message it returns
 * in *e, and what it printed on stderr and stdout besides its progress
 * (must be nothing: main.c prints the message). */
static int sb_command(const char *argv0, const char *cmd, int how, wl_err *e)
{
    char line[256], err[512], printed[256];
    oltp_opts o;
    wl_run run = { .o = &o };
    const workload *wl = workload_find("oltp_read_write");
    db_conn c;
    int64_t progress = 0, total = 0;
    FILE *saved_out = stdout, *saved_err = stderr, *f = tmpfile();
    int rc;

    snprintf(line, sizeof line, "--db-driver=odbc --odbc-dsn=x --odbc-dialect=mysql --bulk=off --table-size=10 "
             "oltp_read_write %s", cmd);
    assert_int_equal(parse_as(&o, argv0, line, err, sizeof err), 0);
    assert_int_equal(dialect_parse("mysql", &o.db.dialect), 0);
    *e = (wl_err){ "", false };
    assert_int_equal(wl->setup(&run, e), 0);
    assert_int_equal(db_init(&c, &counting_driver, &o.db, run.stmts, run.nstmts), 0);
    refuse = how;
    stdout = fopen("/dev/null", "w");        /* prepare's progress lines */
    assert_non_null(stdout);
    stderr = f;
    rc = !strcmp(cmd, "prepare") ? wl->prepare(&run, &c, 0, 1, &progress, &total, e)
       : !strcmp(cmd, "run") ? wl->check_ready(&run, &c, e) : wl->cleanup(&run, &c, e);
    fclose(stdout);
    stdout = saved_out;
    stderr = saved_err;
    refuse = REFUSE_NONE;
    rewind(f);
    if (!fgets(printed, sizeof printed, f))
        printed[0] = 0;
    fclose(f);
    assert_string_equal(printed, "");
    db_free(&c);
    wl->teardown(&run);
    return rc;
}

static void test_errors_returned(void **state)
{
    /* a table that exists or is missing: the actionable line alone, in
     * sysbench's voice (FATAL: on stdout as `sysbench`), naming the
     * command of the personality; any other error: oltp's own line, with
     * the statement and the server's words */
    static const struct { const char *argv0, *cmd; int how, rc; const char *msg; bool voice; } cases[] = {
        {"oltp", "prepare", REFUSE_EXISTS, -1,
         "table sbtest1 already exists: run `oltp oltp_read_write cleanup` first", true},
        {"sysbench", "prepare", REFUSE_EXISTS, -1,
         "table sbtest1 already exists: run `sysbench oltp_read_write cleanup` first", true},
        {"oltp", "run", REFUSE_MISSING, -1,
         "table sbtest1 is missing: run `oltp oltp_read_write --tables=1 --table-size=10 prepare` first", true},
        {"oltp", "run", REFUSE_LOST, -1,
         "checking table sbtest1: error 2013: Lost connection to server during query", false},
        {"oltp", "cleanup", REFUSE_LOST, -1,
         "DROP TABLE IF EXISTS sbtest1: error 2013: Lost connection to server during query", false},
        {"oltp", "prepare", REFUSE_NONE, 0, "", false},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        wl_err e;
        assert_int_equal(sb_command(cases[i].argv0, cases[i].cmd, cases[i].how, &e), cases[i].rc);
        assert_string_equal(e.msg, cases[i].msg);
        assert_int_equal(e.sysbench_voice, cases[i].voice);
    }
}

static void test_setup_errors(void **state)
{
    static const struct { const char *line, *msg; } cases[] = {
        {"--point-selects=0 --range-selects=off oltp_read_only run",
         "oltp_read_only with these options runs no statement"},
        {"--mysql-storage-engine=in;db oltp_read_write run", "--mysql-storage-engine=in;db: not an engine name"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        char err[512];
        oltp_opts o;
        wl_run run = { .o = &o };
        wl_err e = { "", false };
        assert_int_equal(parse(&o, cases[i].line, err, sizeof err), 0);
        o.db.dialect = DB_DIALECT_MYSQL;
        /* nothing left behind (make test-asan): no teardown after a failed setup */
        assert_int_equal(workload_find(o.workload)->setup(&run, &e), -1);
        assert_string_equal(e.msg, cases[i].msg);
        assert_null(run.stmts);
        assert_null(run.data);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ps_mode_and_dry_run),
        cmocka_unit_test(test_bad_ps_mode),
        cmocka_unit_test(test_bulk_default_per_personality),
        cmocka_unit_test(test_inline_params),
        cmocka_unit_test(test_insert_batches),
        cmocka_unit_test(test_errors_returned),
        cmocka_unit_test(test_setup_errors),
    };
    return cmocka_run_group_tests_name("sb_prepare", tests, NULL, NULL);
}
