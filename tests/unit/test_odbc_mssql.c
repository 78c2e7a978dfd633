/*
 * SQL Server's transaction rules, through the real code path: bin/oltp
 * (drv_odbc.c) on unixODBC's real driver manager, which loads the test
 * double tests/unit/fake_mssql_odbc.c from a private odbcinst.ini. The
 * double answers as SQL Server is documented to (266 when an RPC changes
 * the transaction count, the server's own rollback of a deadlock victim,
 * 3903 on a rollback with no transaction, a busy session after an
 * unclosed error, SQL Server 2014's syntax, parameter arrays, SQL_NO_DATA
 * and further results, procedures' own transactions, logins refused with
 * 927/18401/18456 alone) and counts what it saw; each run's exact counts
 * are checked against oltp's result document.
 *
 * The first test shows the double refusing what the old code sent (a
 * prepared BEGIN TRANSACTION, a ROLLBACK after a deadlock), so the later
 * ones can fail. Run from the repository root; bin/oltp and
 * bin/fake_mssql_odbc.so are found beside this binary (OLTP_BIN
 * overrides the first).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>
#include <json-c/json.h>
#include <sql.h>
#include <sqlext.h>

static char dir[256];           /* scratch: odbcinst.ini, logs, results */
static char bindir[512];
static char oltp_bin[600];

/* One session's counts from the double's LOG line. */
typedef struct session {
    long v[48];
} session;

static const char *const keys[] = {
    "statements", "prepared", "direct", "selects", "writes", "calls", "autocommit_off", "autocommit_on",
    "commits", "rollbacks", "empty_commits", "empty_rollbacks", "deadlocks", "err266", "err3903", "err3902",
    "busy", "syntax", "trx_text", "int_params", "bigint_params", "err51205", "arrays", "array_rows",
    "array_ints", "array_int_sum", "array_chars", "array_char_bytes", "array_errors", "results", "nodata",
    "discarded", "proc_commits", "proc_rollbacks", "endtran_3903",
};
enum {
    K_STATEMENTS, K_PREPARED, K_DIRECT, K_SELECTS, K_WRITES, K_CALLS, K_AC_OFF, K_AC_ON, K_COMMITS,
    K_ROLLBACKS, K_EMPTY_COMMITS, K_EMPTY_ROLLBACKS, K_DEADLOCKS, K_266, K_3903, K_3902, K_BUSY,
    K_SYNTAX, K_TRX_TEXT, K_INT, K_BIGINT, K_51205, K_ARRAYS, K_ARRAY_ROWS, K_ARRAY_INTS, K_ARRAY_INT_SUM,
    K_ARRAY_CHARS, K_ARRAY_CHAR_BYTES, K_ARRAY_ERRORS, K_RESULTS, K_NODATA, K_DISCARDED, K_PROC_COMMITS,
    K_PROC_ROLLBACKS, K_ENDTRAN_3903, NKEYS
};

static int setup(void **state)
{
    char path[400];
    FILE *f;

    snprintf(dir, sizeof dir, "%s/drivebench-fake-mssql.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(dir))
        return -1;
    snprintf(path, sizeof path, "%s/odbcinst.ini", dir);
    if (!(f = fopen(path, "w")))
        return -1;
    fprintf(f, "[ODBC]\nTrace = No\n\n[FakeMSSQL]\nDescription = drivebench's SQL Server double\n"
            "Driver = %s/fake_mssql_odbc.so\n", bindir);
    fclose(f);
    snprintf(path, sizeof path, "%s/odbc.ini", dir);
    if (!(f = fopen(path, "w")))
        return -1;
    fclose(f);
    setenv("ODBCSYSINI", dir, 1);
    snprintf(path, sizeof path, "%s/odbc.ini", dir);
    setenv("ODBCINI", path, 1);
    setenv("HOME", dir, 1);
    return 0;
}

static int teardown(void **state)
{
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

/* Run bin/oltp with `args` (space-separated, no quoting); stdout and
 * stderr go to DIR/out. Returns its exit status. */
static int oltp(const char *args)
{
    char cmd[4096];
    int st;
    snprintf(cmd, sizeof cmd, "%s %s >'%s/out' 2>&1", oltp_bin, args, dir);
    st = system(cmd);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void show_out(void)
{
    char path[400], line[512];
    FILE *f;
    snprintf(path, sizeof path, "%s/out", dir);
    if ((f = fopen(path, "r"))) {
        while (fgets(line, sizeof line, f))
            fprintf(stderr, "  oltp: %s", line);
        fclose(f);
    }
}

/* What the last oltp() printed (stdout and stderr), whole (static). */
static const char *out_text(void)
{
    static char buf[65536];
    char path[400];
    FILE *f;
    size_t n = 0;
    snprintf(path, sizeof path, "%s/out", dir);
    if ((f = fopen(path, "r"))) {
        n = fread(buf, 1, sizeof buf - 1, f);
        fclose(f);
    }
    buf[n] = 0;
    return buf;
}

/* The sessions the double logged in DIR/NAME, then the file is removed. */
static int sessions(const char *name, session *out, int max)
{
    char path[400], line[2048];
    FILE *f;
    int n = 0;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (!(f = fopen(path, "r")))
        return 0;
    while (n < max && fgets(line, sizeof line, f)) {
        memset(&out[n], 0, sizeof out[n]);
        for (int k = 0; k < NKEYS; k++) {
            char key[40];
            const char *p;
            snprintf(key, sizeof key, " %s=", keys[k]);
            p = strstr(line, key);
            assert_non_null(p);
            out[n].v[k] = strtol(p + strlen(key), NULL, 10);
        }
        n++;
    }
    fclose(f);
    unlink(path);
    return n;
}

/* The session that ran the workload: the one with most statements. */
static const session *busiest(const session *s, int n)
{
    const session *b = NULL;
    for (int i = 0; i < n; i++)
        if (!b || s[i].v[K_STATEMENTS] > b->v[K_STATEMENTS])
            b = &s[i];
    return b;
}

static long total(const session *s, int n, int k)
{
    long t = 0;
    for (int i = 0; i < n; i++)
        t += s[i].v[k];
    return t;
}

/* DIR/result.json's database_size as compact JSON (static). */
static const char *database_size(void)
{
    static char out[512];
    char path[400];
    json_object *doc, *v;
    snprintf(path, sizeof path, "%s/result.json", dir);
    doc = json_object_from_file(path);
    assert_non_null(doc);
    assert_true(json_object_object_get_ex(doc, "database_size", &v));
    snprintf(out, sizeof out, "%s", json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN));
    json_object_put(doc);
    return out;
}

/* Field `key` of the last phase of DIR/result.json (or of its type `type`). */
static int64_t result(const char *type, const char *key)
{
    char path[400];
    json_object *doc, *phases, *p, *v = NULL;
    int64_t r;
    snprintf(path, sizeof path, "%s/result.json", dir);
    doc = json_object_from_file(path);
    assert_non_null(doc);
    assert_true(json_object_object_get_ex(doc, "phases", &phases));
    p = json_object_array_get_idx(phases, json_object_array_length(phases) - 1);
    if (type) {
        json_object *types;
        assert_true(json_object_object_get_ex(p, "transaction_types", &types));
        for (size_t i = 0; i < json_object_array_length(types); i++) {
            json_object *t = json_object_array_get_idx(types, i), *name;
            if (json_object_object_get_ex(t, "name", &name) && !strcmp(json_object_get_string(name), type))
                p = t;
        }
    }
    if (!strncmp(key, "queries.", 8)) {
        assert_true(json_object_object_get_ex(p, "queries", &p));
        key += 8;
    }
    if (!json_object_object_get_ex(p, key, &v))
        fail_msg("%s has no %s", path, key);
    r = json_object_get_int64(v);
    json_object_put(doc);
    return r;
}

/* --- the double itself, straight through the driver manager ----------------- */

static SQLHDBC connect_double(SQLHENV *env, const char *extra)
{
    SQLHDBC dbc;
    char cs[512];
    snprintf(cs, sizeof cs, "Driver=FakeMSSQL;%s", extra);
    assert_true(SQL_SUCCEEDED(SQLAllocHandle(SQL_HANDLE_ENV, SQL_NULL_HANDLE, env)));
    SQLSetEnvAttr(*env, SQL_ATTR_ODBC_VERSION, (SQLPOINTER)SQL_OV_ODBC3, 0);
    assert_true(SQL_SUCCEEDED(SQLAllocHandle(SQL_HANDLE_DBC, *env, &dbc)));
    assert_true(SQL_SUCCEEDED(SQLDriverConnect(dbc, NULL, (SQLCHAR *)cs, SQL_NTS, NULL, 0, NULL,
                                               SQL_DRIVER_NOPROMPT)));
    return dbc;
}

static SQLINTEGER native_of(SQLSMALLINT type, SQLHANDLE h)
{
    SQLCHAR st[6], msg[512];
    SQLINTEGER native = -1;
    SQLSMALLINT len;
    if (!SQL_SUCCEEDED(SQLGetDiagRec(type, h, 1, st, &native, msg, sizeof msg, &len)))
        return -1;
    return native;
}

static void test_double_refuses_transaction_text(void **state)
{
    SQLHENV env;
    SQLHDBC dbc = connect_double(&env, "DEADLOCK_AT=2");
    SQLHSTMT a, b;

    assert_true(SQL_SUCCEEDED(SQLAllocHandle(SQL_HANDLE_STMT, dbc, &a)));
    assert_true(SQL_SUCCEEDED(SQLAllocHandle(SQL_HANDLE_STMT, dbc, &b)));
    /* 1: what oltp prepared before: an RPC that opens a transaction */
    assert_true(SQL_SUCCEEDED(SQLPrepare(a, (SQLCHAR *)"BEGIN TRANSACTION", SQL_NTS)));
    assert_int_equal(SQLExecute(a), SQL_ERROR);
    assert_int_equal(native_of(SQL_HANDLE_STMT, a), 266);
    /* the unclosed error keeps the session busy */
    assert_int_equal(SQLExecDirect(b, (SQLCHAR *)"SELECT 1", SQL_NTS), SQL_ERROR);
    SQLFreeStmt(a, SQL_CLOSE);
    /* 2: a batch may end it; the 2nd prepared execution is a deadlock victim */
    assert_true(SQL_SUCCEEDED(SQLExecDirect(b, (SQLCHAR *)"ROLLBACK TRANSACTION", SQL_NTS)));
    SQLFreeStmt(b, SQL_CLOSE);
    assert_true(SQL_SUCCEEDED(SQLSetConnectAttr(dbc, SQL_ATTR_AUTOCOMMIT, (SQLPOINTER)SQL_AUTOCOMMIT_OFF, 0)));
    assert_true(SQL_SUCCEEDED(SQLPrepare(a, (SQLCHAR *)"UPDATE t SET x = 1", SQL_NTS)));
    assert_int_equal(SQLExecute(a), SQL_ERROR);
    assert_int_equal(native_of(SQL_HANDLE_STMT, a), 1205);
    SQLFreeStmt(a, SQL_CLOSE);
    /* the server rolled the victim back: a ROLLBACK text fails, SQLEndTran does not */
    assert_int_equal(SQLExecDirect(b, (SQLCHAR *)"ROLLBACK", SQL_NTS), SQL_ERROR);
    assert_int_equal(native_of(SQL_HANDLE_STMT, b), 3903);
    SQLFreeStmt(b, SQL_CLOSE);
    assert_true(SQL_SUCCEEDED(SQLEndTran(SQL_HANDLE_DBC, dbc, SQL_ROLLBACK)));
    /* SQL Server 2014 */
    assert_int_equal(SQLExecDirect(b, (SQLCHAR *)"DROP TABLE IF EXISTS sbtest1", SQL_NTS), SQL_ERROR);
    assert_int_equal(native_of(SQL_HANDLE_STMT, b), 156);
    SQLFreeStmt(b, SQL_CLOSE);
    assert_int_equal(SQLExecDirect(b, (SQLCHAR *)"BEGIN", SQL_NTS), SQL_ERROR);
    assert_int_equal(native_of(SQL_HANDLE_STMT, b), 102);
    SQLFreeStmt(b, SQL_CLOSE);
    SQLFreeHandle(SQL_HANDLE_STMT, a);
    SQLFreeHandle(SQL_HANDLE_STMT, b);
    SQLDisconnect(dbc);
    SQLFreeHandle(SQL_HANDLE_DBC, dbc);
    SQLFreeHandle(SQL_HANDLE_ENV, env);
}

static void disconnect_double(SQLHENV env, SQLHDBC dbc)
{
    SQLDisconnect(dbc);
    SQLFreeHandle(SQL_HANDLE_DBC, dbc);
    SQLFreeHandle(SQL_HANDLE_ENV, env);
}

static const char *message_of(SQLSMALLINT type, SQLHANDLE h)
{
    static SQLCHAR msg[512];
    SQLCHAR st[6];
    SQLINTEGER native;
    SQLSMALLINT len;
    if (!SQL_SUCCEEDED(SQLGetDiagRec(type, h, 1, st, &native, msg, sizeof msg, &len)))
        return "";
    return (const char *)msg;
}

/* Parameter arrays bound row-wise (one struct a row), read back by the
 * double from the right addresses; a row that fails is marked and the
 * others still run; each row makes its own row count. */
static void test_double_parameter_arrays(void **state)
{
    struct row { SQLINTEGER id; SQLLEN id_ind; char name[16]; SQLLEN name_ind; } rows[5];
    SQLUSMALLINT status[5];
    SQLULEN processed = 0;
    SQLLEN count = -1;
    SQLHENV env;
    char extra[400];
    SQLHDBC dbc;
    SQLHSTMT h;
    session s[2];
    int more = 0;

    snprintf(extra, sizeof extra, "LOG=%s/arr.log;ARRAY_ERROR_AT=8", dir);
    dbc = connect_double(&env, extra);
    assert_true(SQL_SUCCEEDED(SQLAllocHandle(SQL_HANDLE_STMT, dbc, &h)));
    for (int i = 0; i < 5; i++) {
        rows[i].id = i + 1;
        rows[i].id_ind = 0;
        rows[i].name_ind = snprintf(rows[i].name, sizeof rows[i].name, "row-%d", i + 1);
    }
    assert_true(SQL_SUCCEEDED(SQLPrepare(h, (SQLCHAR *)"INSERT INTO t (id, name) VALUES (?, ?)", SQL_NTS)));
    assert_true(SQL_SUCCEEDED(SQLSetStmtAttr(h, SQL_ATTR_PARAM_BIND_TYPE, (SQLPOINTER)sizeof(struct row), 0)));
    assert_true(SQL_SUCCEEDED(SQLSetStmtAttr(h, SQL_ATTR_PARAMSET_SIZE, (SQLPOINTER)5, 0)));
    assert_true(SQL_SUCCEEDED(SQLSetStmtAttr(h, SQL_ATTR_PARAM_STATUS_PTR, status, 0)));
    assert_true(SQL_SUCCEEDED(SQLSetStmtAttr(h, SQL_ATTR_PARAMS_PROCESSED_PTR, &processed, 0)));
    assert_true(SQL_SUCCEEDED(SQLBindParameter(h, 1, SQL_PARAM_INPUT, SQL_C_SLONG, SQL_INTEGER, 0, 0,
                                               &rows[0].id, 0, &rows[0].id_ind)));
    assert_true(SQL_SUCCEEDED(SQLBindParameter(h, 2, SQL_PARAM_INPUT, SQL_C_CHAR, SQL_VARCHAR, 15, 0,
                                               rows[0].name, sizeof rows[0].name, &rows[0].name_ind)));
    /* rows 1-5: all succeed, five row counts */
    assert_int_equal(SQLExecute(h), SQL_SUCCESS);
    assert_int_equal(processed, 5);
    for (int i = 0; i < 5; i++)
        assert_int_equal(status[i], SQL_PARAM_SUCCESS);
    assert_true(SQL_SUCCEEDED(SQLRowCount(h, &count)));
    assert_int_equal(count, 1);
    while (SQLMoreResults(h) == SQL_SUCCESS)
        more++;
    assert_int_equal(more, 4);
    /* rows 6-10: the 8th fails alone (a duplicate key); SQLExecute says so */
    assert_int_equal(SQLExecute(h), SQL_ERROR);
    assert_int_equal(native_of(SQL_HANDLE_STMT, h), 2627);
    assert_int_equal(processed, 5);
    assert_int_equal(status[0], SQL_PARAM_SUCCESS);
    assert_int_equal(status[1], SQL_PARAM_SUCCESS);
    assert_int_equal(status[2], SQL_PARAM_ERROR);
    assert_int_equal(status[3], SQL_PARAM_SUCCESS);
    assert_int_equal(status[4], SQL_PARAM_SUCCESS);
    SQLFreeStmt(h, SQL_CLOSE);
    SQLFreeHandle(SQL_HANDLE_STMT, h);
    disconnect_double(env, dbc);
    assert_int_equal(sessions("arr.log", s, 2), 1);
    assert_int_equal(s[0].v[K_ARRAYS], 2);
    assert_int_equal(s[0].v[K_ARRAY_ROWS], 9);
    assert_int_equal(s[0].v[K_ARRAY_ERRORS], 1);
    assert_int_equal(s[0].v[K_ARRAY_INTS], 9);
    assert_int_equal(s[0].v[K_ARRAY_INT_SUM], 15 + 15 - 3);     /* ids 1-5, then 1-5 but the 3rd */
    assert_int_equal(s[0].v[K_ARRAY_CHARS], 9);
    assert_int_equal(s[0].v[K_ARRAY_CHAR_BYTES], 9 * 5);        /* "row-N" */
    assert_int_equal(s[0].v[K_RESULTS], 5);
    assert_int_equal(s[0].v[K_DISCARDED], 3);                   /* the failed array's, closed unread */
}

/* SQL_NO_DATA from a searched UPDATE that matched nothing; a procedure
 * whose first write matched nothing says SQL_NO_DATA with its other
 * results still to read, and until they are the session is busy. */
static void test_double_no_data_and_more_results(void **state)
{
    SQLHENV env;
    SQLHDBC dbc = connect_double(&env, "NOROWS_AT=1,2;PROC_COUNTS=1");
    SQLHSTMT a, b;
    SQLLEN count = -1;
    SQLSMALLINT ncols = -1;

    assert_true(SQL_SUCCEEDED(SQLAllocHandle(SQL_HANDLE_STMT, dbc, &a)));
    assert_true(SQL_SUCCEEDED(SQLAllocHandle(SQL_HANDLE_STMT, dbc, &b)));
    assert_true(SQL_SUCCEEDED(SQLPrepare(a, (SQLCHAR *)"UPDATE t SET x = 1 WHERE id = 0", SQL_NTS)));
    assert_int_equal(SQLExecute(a), SQL_NO_DATA);
    assert_true(SQL_SUCCEEDED(SQLRowCount(a, &count)));
    assert_int_equal(count, 0);
    assert_int_equal(SQLMoreResults(a), SQL_NO_DATA);
    assert_true(SQL_SUCCEEDED(SQLPrepare(a, (SQLCHAR *)"{CALL tpcc_slev(1, 1, 10)}", SQL_NTS)));
    assert_int_equal(SQLExecute(a), SQL_NO_DATA);
    assert_int_equal(SQLExecDirect(b, (SQLCHAR *)"SELECT 1", SQL_NTS), SQL_ERROR);     /* busy */
    SQLFreeStmt(b, SQL_CLOSE);
    assert_int_equal(SQLMoreResults(a), SQL_SUCCESS);         /* the second write's count */
    assert_true(SQL_SUCCEEDED(SQLRowCount(a, &count)));
    assert_int_equal(count, 1);
    assert_int_equal(SQLMoreResults(a), SQL_SUCCESS);         /* the result set */
    assert_true(SQL_SUCCEEDED(SQLNumResultCols(a, &ncols)));
    assert_int_equal(ncols, 1);
    assert_int_equal(SQLFetch(a), SQL_SUCCESS);
    assert_int_equal(SQLFetch(a), SQL_NO_DATA);
    assert_int_equal(SQLMoreResults(a), SQL_NO_DATA);
    assert_true(SQL_SUCCEEDED(SQLExecDirect(b, (SQLCHAR *)"SELECT 1", SQL_NTS)));
    SQLFreeStmt(b, SQL_CLOSE);
    SQLFreeHandle(SQL_HANDLE_STMT, a);
    SQLFreeHandle(SQL_HANDLE_STMT, b);
    disconnect_double(env, dbc);
}

/* A procedure that begins and commits (or rolls back) its own transaction
 * under IMPLICIT_TRANSACTIONS ON ends with another @@TRANCOUNT: 266. */
static void test_double_266_in_procedure(void **state)
{
    SQLHENV env;
    SQLHDBC dbc = connect_double(&env, "");
    SQLHSTMT h;
    SQLINTEGER item = 100001;
    SQLLEN ind = 0;

    assert_true(SQL_SUCCEEDED(SQLAllocHandle(SQL_HANDLE_STMT, dbc, &h)));
    /* autocommit: the procedure's BEGIN ... COMMIT is the transaction */
    assert_true(SQL_SUCCEEDED(SQLExecDirect(h, (SQLCHAR *)"{CALL tpcc_payment(1)}", SQL_NTS)));
    SQLFreeStmt(h, SQL_CLOSE);
    /* implicit transactions: BEGIN opens two, COMMIT ends one */
    assert_true(SQL_SUCCEEDED(SQLSetConnectAttr(dbc, SQL_ATTR_AUTOCOMMIT, (SQLPOINTER)SQL_AUTOCOMMIT_OFF, 0)));
    assert_int_equal(SQLExecDirect(h, (SQLCHAR *)"{CALL tpcc_payment(1)}", SQL_NTS), SQL_ERROR);
    assert_int_equal(native_of(SQL_HANDLE_STMT, h), 266);
    assert_string_equal(message_of(SQL_HANDLE_STMT, h), "[drivebench][fake SQL Server]Transaction count after "
                        "EXECUTE indicates a mismatching number of BEGIN and COMMIT statements. Previous "
                        "count = 0, current count = 1.");
    SQLFreeStmt(h, SQL_CLOSE);
    /* within a transaction, New-Order's own rollback of the unused item */
    assert_true(SQL_SUCCEEDED(SQLPrepare(h, (SQLCHAR *)"{CALL tpcc_neword(?)}", SQL_NTS)));
    assert_true(SQL_SUCCEEDED(SQLBindParameter(h, 1, SQL_PARAM_INPUT, SQL_C_SLONG, SQL_INTEGER, 0, 0, &item,
                                               0, &ind)));
    assert_int_equal(SQLExecute(h), SQL_ERROR);
    assert_int_equal(native_of(SQL_HANDLE_STMT, h), 266);
    assert_string_equal(message_of(SQL_HANDLE_STMT, h), "[drivebench][fake SQL Server]Transaction count after "
                        "EXECUTE indicates a mismatching number of BEGIN and COMMIT statements. Previous "
                        "count = 1, current count = 0.");
    SQLFreeStmt(h, SQL_CLOSE);
    SQLFreeHandle(SQL_HANDLE_STMT, h);
    disconnect_double(env, dbc);
}

/* --- oltp through the double ----------------------------------------------- */

/* oltp against the double: its sessions log to DIR/log, `extra` adds
 * keys to the connection string. */
static int oltp_double(const char *log, const char *extra, const char *args)
{
    char a[2048];
    snprintf(a, sizeof a, "--db-driver=odbc --odbc-user=sa --rand-seed=1 "
             "'--odbc-connect=Driver=FakeMSSQL;LOG=%s/%s%s' %s", dir, log, extra, args);
    return oltp(a);
}

/* oltp_double() that must succeed; the sessions it logged into s[], *n of
 * them; returns the one that ran the workload. */
static const session *run_ok(const char *log, const char *extra, const char *args, session *s, int *n)
{
    if (oltp_double(log, extra, args) != 0) {
        show_out();
        fail_msg("oltp %s through the double failed", args);
    }
    *n = sessions(log, s, 8);
    return busiest(s, *n);
}

/* run_ok() of `args` on one thread without a time limit, its result in
 * DIR/result.json, which must count `trx` transactions and `errors`
 * errors (the retries). */
static const session *run_counted(const char *log, const char *extra, const char *args, int64_t trx,
                                  int64_t errors, session *s, int *n)
{
    char a[1024];
    const session *w;
    snprintf(a, sizeof a, "--threads=1 --time=0 --json=%s/result.json %s", dir, args);
    w = run_ok(log, extra, a, s, n);
    assert_int_equal(result(NULL, "transactions"), trx);
    assert_int_equal(result(NULL, "errors"), errors);
    return w;
}

/* No session was busy, nor closed a result unread. */
static void assert_all_read(const session *s, int n)
{
    assert_int_equal(total(s, n, K_BUSY), 0);
    assert_int_equal(total(s, n, K_DISCARDED), 0);
}

static void test_sysbench(void **state)
{
    char args[1024];
    session s[8];
    const session *w;
    int n;

    /* one connection, 50 transactions of 18 statements; the 5th and the
     * 40th statement are deadlock victims: the 1st transaction fails at
     * its 5th statement, the 2nd (after the retry, statements 24..41) at
     * its 17th, each retried once */
    snprintf(args, sizeof args, "--threads=1 --events=50 --time=0 --tables=1 --table-size=1000 "
             "--json=%s/result.json oltp_read_write run", dir);
    w = run_ok("sb.log", ";DEADLOCK_AT=5,40", args, s, &n);
    assert_int_equal(n, 4);     /* dialect probe, setup session, the run's, the size after it */
    assert_int_equal(result(NULL, "transactions"), 50);
    /* the double's files: 9,600 + 1,600 pages of 8 KiB used in data files of
     * 12,800 + 3,200 (the space used, not the files' size), 3 MiB of log used */
    assert_string_equal(database_size(),
        "{\"start\":{\"data_bytes\":91750400,\"log_bytes\":3145728},"
        "\"end\":{\"data_bytes\":91750400,\"log_bytes\":3145728}}");
    assert_int_equal(result(NULL, "errors"), 2);
    assert_int_equal(w->v[K_STATEMENTS], 50 * 18 + 4 + 16 + 2);
    assert_int_equal(w->v[K_PREPARED], 50 * 18 + 4 + 16 + 2);
    assert_int_equal(w->v[K_DEADLOCKS], 2);
    assert_int_equal(w->v[K_AC_OFF], 1);        /* once per session */
    assert_int_equal(w->v[K_COMMITS], 50);
    assert_int_equal(w->v[K_ROLLBACKS], 0);
    assert_int_equal(w->v[K_EMPTY_ROLLBACKS], 2);   /* after each victim */
    assert_int_equal(total(s, n, K_TRX_TEXT), 0);
    assert_int_equal(total(s, n, K_266), 0);
    assert_int_equal(total(s, n, K_3903), 0);
    assert_int_equal(total(s, n, K_BUSY), 0);
    assert_int_equal(total(s, n, K_SYNTAX), 0);
    assert_int_equal(total(s, n, K_BIGINT), 0);
    /* point selects 1 parameter, ranges 2, updates 1 and 2, delete 1,
     * insert 4: 24 per transaction, SQL_INTEGER but the strings */
    assert_true(w->v[K_INT] > 0);

    /* oltp_point_select: no transaction, autocommit stays on */
    snprintf(args, sizeof args, "--threads=1 --events=20 --time=0 --tables=1 --table-size=1000 "
             "--json=%s/result.json oltp_point_select run", dir);
    assert_int_equal(oltp_double("ps.log", "", args), 0);
    n = sessions("ps.log", s, 8);
    w = busiest(s, n);
    assert_int_equal(result(NULL, "transactions"), 20);
    assert_int_equal(w->v[K_STATEMENTS], 20);
    assert_int_equal(w->v[K_AC_OFF], 0);
    assert_int_equal(w->v[K_COMMITS] + w->v[K_EMPTY_COMMITS], 0);

    /* cleanup in SQL Server 2014's syntax */
    assert_int_equal(oltp_double("cl.log", "", "--tables=2 oltp_read_write cleanup"), 0);
    n = sessions("cl.log", s, 8);
    assert_int_equal(n, 2);                     /* dialect probe, cleanup */
    assert_int_equal(total(s, n, K_WRITES), 2);
    assert_int_equal(total(s, n, K_SYNTAX), 0);
}

static void test_tpcc(void **state)
{
    char args[1024];
    session s[8];
    const session *w;
    int64_t trx, rb, retries, reads, writes;
    int n;

    snprintf(args, sizeof args, "--threads=1 --warehouses=1 --events=400 --time=0 "
             "--json=%s/result.json tpcc run", dir);
    w = run_ok("tpcc.log", ";DEADLOCK_AT=5,40", args, s, &n);
    trx = result(NULL, "transactions");
    rb = result("New-Order", "rollbacks");
    retries = result(NULL, "errors");
    reads = result(NULL, "queries.read");
    writes = result(NULL, "queries.write");
    assert_int_equal(trx, 400);
    assert_int_equal(retries, 2);
    assert_true(rb > 0);                        /* the spec's 1 %: seed 1 draws some */
    assert_int_equal(w->v[K_DEADLOCKS], 2);
    assert_int_equal(w->v[K_COMMITS], trx - rb);
    assert_int_equal(w->v[K_ROLLBACKS], rb);    /* SQLEndTran with the transaction open */
    assert_int_equal(w->v[K_EMPTY_ROLLBACKS], 2);
    assert_int_equal(w->v[K_AC_OFF], 1);
    /* every statement oltp counted, and the two that failed */
    assert_int_equal(w->v[K_STATEMENTS], reads + writes + 2);
    assert_int_equal(total(s, n, K_TRX_TEXT), 0);
    assert_int_equal(total(s, n, K_266), 0);
    assert_int_equal(total(s, n, K_3903), 0);
    assert_int_equal(total(s, n, K_BUSY), 0);
    assert_int_equal(total(s, n, K_BIGINT), 0);
}

/* The double's data is a spec load (300 of 3,000 customers with bad
 * credit): a run with --tpcc-compat=hammerdb, statements or procedures,
 * is refused before it starts, in one line (the mode check's T-SQL as
 * oltp sends it, oltp/tpcc/tpcc_check.c); no transaction reached it. */
static void test_tpcc_compat_refused(void **state)
{
    session s[8];
    int n;
    (void)state;
    for (int proc = 0; proc < 2; proc++) {
        char log[16];
        snprintf(log, sizeof log, "mode%d.log", proc);
        assert_int_equal(oltp_double(log, "", proc ? "--warehouses=1 --events=10 --tpcc-compat=hammerdb "
                                     "--tpcc-procedures=on tpcc run" : "--warehouses=1 --events=10 "
                                     "--tpcc-compat=hammerdb tpcc run"), 2);
        assert_string_equal(out_text(), "oltp: the database was prepared with --tpcc-compat=spec (bad credit: 300 "
                            "of the 3000 customers of warehouse 1, district 1, under 30 %), not "
                            "--tpcc-compat=hammerdb: run with --tpcc-compat=spec, or `oltp tpcc cleanup` and "
                            "prepare again with --tpcc-compat=hammerdb\n");
        n = sessions(log, s, 8);
        assert_true(n > 0);
        assert_int_equal(total(s, n, K_WRITES) + total(s, n, K_CALLS) + total(s, n, K_COMMITS), 0);
    }
}

static void test_tpcc_procedures(void **state)
{
    session s[8];
    const session *w;
    int n;

    /* each CALL is its own transaction (autocommit); the 3rd and 11th
     * calls are victims: with seed 1 the 11th is a Delivery, whose THROW
     * 51205 is retried like a deadlock */
    w = run_counted("proc.log", ";DEADLOCK_AT=3,11", "--warehouses=1 --events=400 --tpcc-procedures=on tpcc run",
                    400, 2, s, &n);
    assert_int_equal(w->v[K_CALLS], 400);        /* that succeeded */
    /* New-Order's 1 % rollback happens in the procedure, and oltp counts it */
    assert_true(w->v[K_PROC_ROLLBACKS] > 0);
    assert_int_equal(result("New-Order", "rollbacks"), w->v[K_PROC_ROLLBACKS]);
    assert_int_equal(w->v[K_PROC_COMMITS], 400 - w->v[K_PROC_ROLLBACKS]);
    assert_int_equal(w->v[K_STATEMENTS], 402);
    assert_int_equal(w->v[K_51205], 1);
    assert_int_equal(w->v[K_DEADLOCKS], 2);
    assert_int_equal(w->v[K_AC_OFF], 0);
    assert_int_equal(w->v[K_COMMITS] + w->v[K_ROLLBACKS] + w->v[K_EMPTY_COMMITS] + w->v[K_EMPTY_ROLLBACKS], 0);
    assert_int_equal(total(s, n, K_SYNTAX), 0);     /* INFORMATION_SCHEMA.ROUTINES */
    assert_int_equal(total(s, n, K_TRX_TEXT), 0);
    assert_int_equal(total(s, n, K_266), 0);

    /* cleanup: procedures and tables in SQL Server 2014's syntax */
    assert_int_equal(oltp_double("cl.log", "", "--tpcc-procedures=on tpcc cleanup"), 0);
    n = sessions("cl.log", s, 8);
    assert_int_equal(total(s, n, K_WRITES), 5 + 9);
    assert_int_equal(total(s, n, K_SYNTAX), 0);
}

/* --bulk=bcp through a driver without bulk copy (the double exports no
 * bcp_initA and is not FreeTDS): one message, exit 2, and not a
 * statement sent (no table created to be left behind) */
static void test_bcp_needs_driver_bcp(void **state)
{
    char path[400], text[2048] = "";
    session s[8];
    size_t len;
    FILE *f;
    int n;

    assert_int_equal(oltp_double("bcp.log", "", "--bulk=bcp --tables=1 --table-size=10 oltp_read_write prepare"), 2);
    snprintf(path, sizeof path, "%s/out", dir);
    assert_non_null(f = fopen(path, "r"));
    len = fread(text, 1, sizeof text - 1, f);
    text[len] = 0;
    fclose(f);
    assert_string_equal(text,
        "oltp: cannot connect to the ODBC data source of --odbc-connect: error 0: --bulk=bcp: the ODBC "
        "driver fake_mssql_odbc.so has no bulk copy: its library exports no bcp_initA, bcp_bind, "
        "bcp_sendrow, bcp_batch, bcp_done (Microsoft's ODBC Driver 17/18 do) and it is not FreeTDS "
        "(whose bcp goes through connection attributes); load with --bulk=on (parameter arrays) or "
        "--bulk=off (INSERTs)\n");
    n = sessions("bcp.log", s, 8);
    assert_int_equal(total(s, n, K_STATEMENTS), 0);

    /* on another driver, refused before any connection */
    assert_int_equal(oltp("--db-driver=pgsql --bulk=bcp oltp_read_write prepare"), 2);
    assert_int_equal(oltp("--db-driver=odbc --bulk=copy oltp_read_write prepare"), 2);
}

/* prepare's bulk load: arrays of 1,000 rows, column-wise, one prepared
 * INSERT, a transaction each; a row that fails rolls its array back and
 * ends prepare with the server's message. */
static void test_bulk_arrays(void **state)
{
    char args[1024];
    session s[8];
    const session *w;
    int n;

    snprintf(args, sizeof args, "--threads=1 --tables=1 --table-size=2500 oltp_read_write prepare");
    w = run_ok("bulk.log", "", args, s, &n);
    assert_int_equal(n, 3);                     /* dialect probe, the loader, the size after it */
    assert_int_equal(w->v[K_ARRAYS], 3);        /* 1,000 + 1,000 + 500 */
    assert_int_equal(w->v[K_ARRAY_ROWS], 2500);
    assert_int_equal(w->v[K_ARRAY_ERRORS], 0);
    assert_int_equal(w->v[K_ARRAY_INTS], 2500); /* k; id is the IDENTITY's */
    assert_int_equal(w->v[K_ARRAY_CHARS], 2 * 2500);
    assert_int_equal(w->v[K_ARRAY_CHAR_BYTES], 2500 * (119 + 59));  /* c, pad: sysbench's widths */
    assert_int_equal(w->v[K_COMMITS], 3);
    assert_int_equal(w->v[K_ROLLBACKS], 0);
    assert_int_equal(w->v[K_AC_OFF], 1);
    assert_int_equal(w->v[K_AC_ON], 1);         /* the load leaves autocommit on */
    assert_all_read(s, n);                      /* every row count */

    /* the 1,500th row breaks a key: the second array rolls back */
    assert_int_equal(oltp_double("bulkerr.log", ";ARRAY_ERROR_AT=1500", args), 2);
    assert_non_null(strstr(out_text(), "error 2627"));
    n = sessions("bulkerr.log", s, 8);
    w = busiest(s, n);
    assert_int_equal(w->v[K_ARRAYS], 2);
    assert_int_equal(w->v[K_ARRAY_ERRORS], 1);
    assert_int_equal(w->v[K_COMMITS], 1);
    assert_int_equal(w->v[K_ROLLBACKS], 1);
    assert_int_equal(total(s, n, K_BUSY), 0);
}

/* SQL_NO_DATA from searched UPDATE/DELETEs that match nothing, and
 * procedures that send row counts and a result set (SQLMoreResults), one
 * of which starts with SQL_NO_DATA: every result read, none left to
 * make the session busy. */
static void test_no_data_and_more_results(void **state)
{
    session s[8];
    const session *w;
    int n;

    /* the 15th-17th statements of the first transaction: the index and
     * non-index UPDATE, the DELETE */
    w = run_counted("nd.log", ";NOROWS_AT=15,16,17", "--events=50 --tables=1 --table-size=1000 oltp_read_write run",
                    50, 0, s, &n);
    assert_int_equal(w->v[K_NODATA], 3);
    assert_int_equal(w->v[K_STATEMENTS], 50 * 18);
    assert_int_equal(w->v[K_COMMITS], 50);
    assert_all_read(s, n);

    /* TPC-C reads the affected rows: with seed 1 the 192nd statement is
     * the first Delivery's DELETE FROM new_order; matching nothing (another
     * terminal delivered the order), the Delivery is retried, once; that
     * DELETE counts as "other" (sysbench's rule: a write that changed no
     * row), the others as reads and writes */
    w = run_counted("dl.log", ";NOROWS_AT=192", "--warehouses=1 --events=400 tpcc run", 400, 1, s, &n);
    assert_int_equal(w->v[K_NODATA], 1);
    assert_int_equal(w->v[K_STATEMENTS], result(NULL, "queries.read") + result(NULL, "queries.write") + 1);
    assert_all_read(s, n);

    /* procedures without SET NOCOUNT ON: two row counts and a result set
     * each; the 3rd and 7th calls' first write matches nothing */
    w = run_counted("mr.log", ";PROC_COUNTS=1;NOROWS_AT=3,7",
                    "--warehouses=1 --events=60 --tpcc-procedures=on tpcc run", 60, 0, s, &n);
    assert_int_equal(w->v[K_CALLS], 60);
    assert_int_equal(w->v[K_NODATA], 2);
    assert_int_equal(w->v[K_RESULTS], 58 * 3 + 2 * 2);
    assert_all_read(s, n);
}

/* A deadlock victim's SQLEndTran(ROLLBACK) refused with 3903 (FreeTDS on
 * Babelfish): the server rolled back already, so it is what was asked;
 * the victims are retried and counted, nothing else. */
static void test_endtran_3903(void **state)
{
    session s[8];
    const session *w;
    int n;

    w = run_counted("et.log", ";DEADLOCK_AT=5,40;ENDTRAN_3903=1",
                    "--events=50 --tables=1 --table-size=1000 oltp_read_write run", 50, 2, s, &n);
    assert_int_equal(n, 4);                     /* no session was dropped for it */
    assert_int_equal(result(NULL, "reconnects"), 0);
    assert_int_equal(w->v[K_DEADLOCKS], 2);
    assert_int_equal(w->v[K_ENDTRAN_3903], 2);
    assert_int_equal(w->v[K_COMMITS], 50);
    assert_int_equal(w->v[K_STATEMENTS], 50 * 18 + 4 + 16 + 2);
    assert_all_read(s, n);
}

static void test_ping_readiness(void **state)
{
    char args[1024], ready[400];
    FILE *f;

    /* a database still opening (4060, 922 with 18456 beside): not ready,
     * retry (3); a wrong password: refused at once (4) */
    snprintf(args, sizeof args, "--db-driver=odbc --odbc-user=sa '--odbc-connect=Driver=FakeMSSQL;LOGIN_ERROR=4060' ping");
    assert_int_equal(oltp(args), 3);
    snprintf(args, sizeof args, "--db-driver=odbc --odbc-user=sa '--odbc-connect=Driver=FakeMSSQL;LOGIN_ERROR=922' ping");
    assert_int_equal(oltp(args), 3);
    snprintf(args, sizeof args, "--db-driver=odbc --odbc-user=sa '--odbc-connect=Driver=FakeMSSQL;LOGIN_ERROR=18456' ping");
    assert_int_equal(oltp(args), 4);
    assert_string_equal(out_text(), "oltp: ping: odbc: data source of --odbc-connect as sa: login refused: error "
                        "18456 (SQLSTATE 28000): [drivebench][fake SQL Server]Login failed for user 'sa'. (SQL "
                        "Server says this for a wrong user or password and for a paused service alike: its "
                        "error log says which, state 8 or 13)\n");
    /* alone, without the 18456 beside them: a restore (927) and the
     * upgrade scripts after an update (18401) end by themselves: retry */
    snprintf(args, sizeof args, "--db-driver=odbc --odbc-user=sa '--odbc-connect=Driver=FakeMSSQL;LOGIN_ERROR=927' ping");
    assert_int_equal(oltp(args), 3);
    assert_string_equal(out_text(), "oltp: ping: odbc: data source of --odbc-connect as sa: no connection: error "
                        "927 (SQLSTATE 08004): [drivebench][fake SQL Server]Database 'sbtest' cannot be opened. "
                        "It is in the middle of a restore.\n");
    snprintf(args, sizeof args, "--db-driver=odbc --odbc-user=sa '--odbc-connect=Driver=FakeMSSQL;LOGIN_ERROR=18401' ping");
    assert_int_equal(oltp(args), 3);
    assert_string_equal(out_text(), "oltp: ping: odbc: data source of --odbc-connect as sa: no connection: error "
                        "18401 (SQLSTATE 08004): [drivebench][fake SQL Server]Login failed for user 'sa'. Reason: "
                        "Server is in script upgrade mode. Only administrator can connect at this time.\n");
    /* once the database is open, it answers */
    snprintf(ready, sizeof ready, "%s/ready", dir);
    snprintf(args, sizeof args, "--db-driver=odbc --odbc-user=sa '--odbc-connect=Driver=FakeMSSQL;READY_FILE=%s' ping",
             ready);
    assert_int_equal(oltp(args), 3);
    assert_non_null(f = fopen(ready, "w"));
    fclose(f);
    assert_int_equal(oltp(args), 0);
}

/* The same refusals in a run: before it (the first, setup session) one
 * message and exit 2; during it (a connection's first login) 927 and
 * 18401 are waited out like a lost connection, up to --reconnect-timeout,
 * then exit 3; a refused login ends the run at once, exit 1. */
static void test_login_errors_in_run(void **state)
{
    /* msg: the failure's one line; a mid-run outage's has its length
     * ("lost for 1.0 s") between head and msg */
    static const char lost[] = "oltp: connection 0 has been lost for ";
    static const struct { const char *extra; int rc; const char *head, *msg; } cases[] = {
        { "LOGIN_ERROR=927", 2, NULL, "oltp: cannot connect to the ODBC data source of --odbc-connect: error "
          "927: [drivebench][fake SQL Server]Database 'sbtest' cannot be opened. It is in the middle of a "
          "restore.\n" },
        { "LOGIN_ERROR=18401", 2, NULL, "oltp: cannot connect to the ODBC data source of --odbc-connect: error "
          "18401: [drivebench][fake SQL Server]Login failed for user 'sa'. Reason: Server is in script upgrade "
          "mode. Only administrator can connect at this time.\n" },
        { "LOGIN_ERROR=18456", 2, NULL, "oltp: cannot connect to the ODBC data source of --odbc-connect: error "
          "18456: [drivebench][fake SQL Server]Login failed for user 'sa'.\n" },
        /* logins 1 and 2: the dialect probe and the setup session */
        { "LOGIN_ERROR=927;LOGIN_ERROR_FROM=3", 3, lost, " s (error 927: [drivebench][fake SQL Server]Database "
          "'sbtest' cannot be opened. It is in the middle of a restore.), longer than --reconnect-timeout=1: "
          "ending the run with what was measured\n" },
        { "LOGIN_ERROR=18401;LOGIN_ERROR_FROM=3", 3, lost, " s (error 18401: [drivebench][fake SQL Server]Login "
          "failed for user 'sa'. Reason: Server is in script upgrade mode. Only administrator can connect at "
          "this time.), longer than --reconnect-timeout=1: ending the run with what was measured\n" },
        { "LOGIN_ERROR=18456;LOGIN_ERROR_FROM=3", 1, NULL, "oltp: cannot connect: error 18456: "
          "[drivebench][fake SQL Server]Login failed for user 'sa'.\n" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char args[1024];
        const char *out, *at;
        snprintf(args, sizeof args, "--db-driver=odbc --odbc-user=sa '--odbc-connect=Driver=FakeMSSQL;%s' "
                 "--reconnect-timeout=1 --threads=1 --events=5 --time=0 --tables=1 --table-size=100 "
                 "oltp_point_select run", cases[i].extra);
        assert_int_equal(oltp(args), cases[i].rc);
        out = out_text();
        if (cases[i].head) {
            const char *h = strstr(out, cases[i].head);
            at = h ? strstr(h, cases[i].msg) : NULL;
            assert_true(at && at - h - strlen(cases[i].head) <= 8);    /* "1.0" */
            assert_null(strstr(at + 1, cases[i].head));                 /* said once */
        } else {
            at = strstr(out, cases[i].msg);
            if (!at)
                fail_msg("%s: no line \"%s\" in:\n%s", cases[i].extra, cases[i].msg, out);
            assert_string_equal(at, cases[i].msg);      /* the last thing oltp said */
        }
    }
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_double_refuses_transaction_text),
        cmocka_unit_test(test_double_parameter_arrays),
        cmocka_unit_test(test_double_no_data_and_more_results),
        cmocka_unit_test(test_double_266_in_procedure),
        cmocka_unit_test(test_sysbench),
        cmocka_unit_test(test_tpcc),
        cmocka_unit_test(test_tpcc_compat_refused),
        cmocka_unit_test(test_tpcc_procedures),
        cmocka_unit_test(test_bulk_arrays),
        cmocka_unit_test(test_no_data_and_more_results),
        cmocka_unit_test(test_endtran_3903),
        cmocka_unit_test(test_ping_readiness),
        cmocka_unit_test(test_bcp_needs_driver_bcp),
        cmocka_unit_test(test_login_errors_in_run),
    };
    char *slash;

    snprintf(bindir, sizeof bindir, "%s", argv[0]);
    slash = strrchr(bindir, '/');
    if (slash)
        *slash = 0;
    else
        snprintf(bindir, sizeof bindir, ".");
    if (bindir[0] != '/') {
        char *abs = realpath(bindir, NULL);
        if (!abs || strlen(abs) >= sizeof bindir)
            return 1;
        snprintf(bindir, sizeof bindir, "%s", abs);
        free(abs);
    }
    snprintf(oltp_bin, sizeof oltp_bin, "%s", getenv("OLTP_BIN") ? getenv("OLTP_BIN") : "");
    if (!oltp_bin[0])
        snprintf(oltp_bin, sizeof oltp_bin, "%s/oltp", bindir);
    return cmocka_run_group_tests(tests, setup, teardown);
}
