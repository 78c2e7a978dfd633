/*
 * SQL Server's transaction rules, through the real code path: bin/oltp
 * (drv_odbc.c) on unixODBC's real driver manager, which loads the test
 * double tests/unit/fake_mssql_odbc.c from a private odbcinst.ini. The
 * double answers as SQL Server is documented to (266 when an RPC changes
 * the transaction count, the server's own rollback of a deadlock victim,
 * 3903 on a rollback with no transaction, a busy session after an
 * unclosed error, SQL Server 2014's syntax) and counts what it saw; each
 * run's exact counts are checked against oltp's result document.
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
    long v[32];
} session;

static const char *const keys[] = {
    "statements", "prepared", "direct", "selects", "writes", "calls", "autocommit_off", "autocommit_on",
    "commits", "rollbacks", "empty_commits", "empty_rollbacks", "deadlocks", "err266", "err3903", "err3902",
    "busy", "syntax", "trx_text", "int_params", "bigint_params", "err51205",
};
enum {
    K_STATEMENTS, K_PREPARED, K_DIRECT, K_SELECTS, K_WRITES, K_CALLS, K_AC_OFF, K_AC_ON, K_COMMITS,
    K_ROLLBACKS, K_EMPTY_COMMITS, K_EMPTY_ROLLBACKS, K_DEADLOCKS, K_266, K_3903, K_3902, K_BUSY,
    K_SYNTAX, K_TRX_TEXT, K_INT, K_BIGINT, K_51205, NKEYS
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

/* The sessions the double logged in DIR/NAME, then the file is removed. */
static int sessions(const char *name, session *out, int max)
{
    char path[400], line[1024];
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
    /* the double's files: data 12,800 + 3,200 pages, log 1,024 pages of 8 KiB */
    assert_string_equal(database_size(),
        "{\"start\":{\"data_bytes\":131072000,\"log_bytes\":8388608},"
        "\"end\":{\"data_bytes\":131072000,\"log_bytes\":8388608}}");
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

static void test_tpcc_procedures(void **state)
{
    char args[1024];
    session s[8];
    const session *w;
    int n;

    /* each CALL is its own transaction (autocommit); the 3rd and 11th
     * calls are victims: with seed 1 the 11th is a Delivery, whose THROW
     * 51205 is retried like a deadlock */
    snprintf(args, sizeof args, "--threads=1 --warehouses=1 --events=60 --time=0 "
             "--tpcc-procedures=on --json=%s/result.json tpcc run", dir);
    w = run_ok("proc.log", ";DEADLOCK_AT=3,11", args, s, &n);
    assert_int_equal(result(NULL, "transactions"), 60);
    assert_int_equal(result(NULL, "errors"), 2);
    assert_int_equal(w->v[K_CALLS], 60);         /* that succeeded */
    assert_int_equal(w->v[K_STATEMENTS], 62);
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
    /* once the database is open, it answers */
    snprintf(ready, sizeof ready, "%s/ready", dir);
    snprintf(args, sizeof args, "--db-driver=odbc --odbc-user=sa '--odbc-connect=Driver=FakeMSSQL;READY_FILE=%s' ping",
             ready);
    assert_int_equal(oltp(args), 3);
    assert_non_null(f = fopen(ready, "w"));
    fclose(f);
    assert_int_equal(oltp(args), 0);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_double_refuses_transaction_text),
        cmocka_unit_test(test_sysbench),
        cmocka_unit_test(test_tpcc),
        cmocka_unit_test(test_tpcc_procedures),
        cmocka_unit_test(test_ping_readiness),
        cmocka_unit_test(test_bcp_needs_driver_bcp),
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
