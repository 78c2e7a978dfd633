/*
 * Unit tests of the SQL dialects (oltp/drivers/dialect.c) and golden tests of the
 * SQL the workloads write for them: the statement table, prepare's DDL and
 * loading, the table check before a run, one transaction's statements with
 * their parameters, and cleanup — captured by a recording driver, no
 * server. For T-SQL this is the only test possible here (SQL Server does
 * not run on Linux development machines of this project).
 *
 * Golden files: tests/golden/<dialect>_<workload>.sql. Run from the
 * repository root; GOLDEN_UPDATE=1 rewrites them (review the diff).
 *
 * With TSQL_DUMP=DIR set, the program runs no test but writes every SQL
 * text the mssql dialect produces, whole, for the T-SQL grammar check
 * (tests/tsql/check.sh): see "the T-SQL dump" below.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "dbsize.h"
#include "drivers/dialect.h"
#include "workloads/workload.h"
#include "workload_list.h"

/* --- dialect.c ------------------------------------------------------------ */

static void test_parse_names(void **state)
{
    db_dialect d;
    assert_int_equal(dialect_parse("mssql", &d), 0);
    assert_int_equal(d, DB_DIALECT_MSSQL);
    assert_int_equal(dialect_parse("SQLServer", &d), 0);
    assert_int_equal(d, DB_DIALECT_MSSQL);
    assert_int_equal(dialect_parse("postgresql", &d), 0);
    assert_int_equal(d, DB_DIALECT_PGSQL);
    assert_int_equal(dialect_parse("mariadb", &d), 0);
    assert_int_equal(d, DB_DIALECT_MYSQL);
    assert_int_equal(dialect_parse("db2", &d), -1);
    assert_int_equal(dialect_parse(NULL, &d), -1);
    assert_string_equal(dialect_get(DB_DIALECT_PGSQL)->name, "pgsql");
    assert_string_equal(dialect_get(99)->name, "mysql");
}

static void test_dbms_names(void **state)
{
    /* what SQLGetInfo(SQL_DBMS_NAME) says: msodbcsql and FreeTDS,
     * psqlODBC, MariaDB Connector/ODBC (both server kinds) */
    static const struct { const char *dbms; int d; } cases[] = {
        {"Microsoft SQL Server", DB_DIALECT_MSSQL}, {"PostgreSQL", DB_DIALECT_PGSQL},
        {"MySQL", DB_DIALECT_MYSQL}, {"MariaDB", DB_DIALECT_MYSQL},
        {"DB2/LINUXX8664", -1}, {"", -1}, {NULL, -1},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        db_dialect d = DB_DIALECT_COUNT;
        int r = dialect_from_dbms_name(cases[i].dbms, &d);
        assert_int_equal(r < 0 ? -1 : (int)d, cases[i].d);
    }
}

static void test_quote_and_sqlstates(void **state)
{
    char b[32];
    assert_string_equal(dialect_quote(DB_DIALECT_MSSQL, "order", b, sizeof b), "[order]");
    assert_string_equal(dialect_quote(DB_DIALECT_PGSQL, "order", b, sizeof b), "\"order\"");
    assert_string_equal(dialect_quote(DB_DIALECT_MYSQL, "order", b, sizeof b), "`order`");
    assert_true(dialect_sqlstate_retry(DB_DIALECT_MSSQL, "40001"));
    assert_true(dialect_sqlstate_retry(DB_DIALECT_PGSQL, "40P01"));
    assert_true(dialect_sqlstate_retry(DB_DIALECT_PGSQL, "23505"));
    assert_false(dialect_sqlstate_retry(DB_DIALECT_MSSQL, "23000"));
    assert_false(dialect_sqlstate_retry(DB_DIALECT_MYSQL, "23505"));
    assert_false(dialect_sqlstate_retry(DB_DIALECT_PGSQL, NULL));
    assert_true(dialect_unique_violation(DB_DIALECT_MSSQL, 2627, "23000"));
    assert_true(dialect_unique_violation(DB_DIALECT_MSSQL, 2601, "23000"));
    assert_false(dialect_unique_violation(DB_DIALECT_MSSQL, 547, "23000"));   /* a foreign key */
    assert_true(dialect_unique_violation(DB_DIALECT_PGSQL, 1, "23505"));
    assert_false(dialect_unique_violation(DB_DIALECT_PGSQL, 1, "23503"));
    assert_false(dialect_unique_violation(DB_DIALECT_PGSQL, 1, NULL));
    assert_false(dialect_unique_violation(DB_DIALECT_MYSQL, 1062, "23000"));
    assert_true(dialect_sqlstate_lost("08S01"));
    assert_true(dialect_sqlstate_lost("08006"));
    assert_true(dialect_sqlstate_lost("57P01"));
    assert_false(dialect_sqlstate_lost("40001"));
    assert_false(dialect_sqlstate_lost("HY000"));
    assert_false(dialect_sqlstate_lost(NULL));
}

/* --- a driver that records what it is asked to run ------------------------- */

typedef struct rec {
    char  *buf;
    size_t len, cap;
} rec;

static rec *the_rec;        /* the recorder of the test running (one at a time) */
static int rows_left;       /* every statement returns one row of "1"s (TPC-C's
                             * check before a run counts its warehouses), */
static const char *const *rec_row;  /* or these columns (answer_of) */

static void rec_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void rec_printf(const char *fmt, ...)
{
    va_list ap;
    int n;
    va_start(ap, fmt);
    n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (the_rec->len + (size_t)n + 1 > the_rec->cap) {
        the_rec->cap = (the_rec->len + (size_t)n + 1) * 2;
        the_rec->buf = realloc(the_rec->buf, the_rec->cap);
        assert_non_null(the_rec->buf);
    }
    va_start(ap, fmt);
    vsnprintf(the_rec->buf + the_rec->len, the_rec->cap - the_rec->len, fmt, ap);
    va_end(ap);
    the_rec->len += (size_t)n;
}

static int rec_init(db_conn *c) { c->priv = c; return 0; }
static void rec_free(db_conn *c) { c->priv = NULL; }
static int rec_done(db_conn *c) { return DB_DONE; }
static int rec_cont(db_conn *c, int ev) { return DB_DONE; }
static int rec_fd(const db_conn *c) { return -1; }
static void rec_disconnect(db_conn *c) { }
static int64_t rec_one(const db_conn *c) { return 1; }
static int rec_next_row(db_conn *c) { return rows_left-- > 0; }
static const char *rec_col(db_conn *c, int col, size_t *len)
{
    const char *v = rec_row && col < 2 ? rec_row[col] : "1";
    if (len)
        *len = strlen(v);
    return v;
}

/* The row a query returns: TPC-C's mode check before a run (the customers
 * of district 1 and those with bad credit) finds a spec load, 300 of
 * 3,000; any other query a row of "1"s (NULL). */
static const char *const *answer_of(const char *sql, size_t len)
{
    static const char *const spec_load[2] = { "3000", "300" };
    static const char bc[] = "c_credit = 'BC'";
    for (size_t i = 0; i + sizeof bc - 1 <= len; i++)
        if (!memcmp(sql + i, bc, sizeof bc - 1))
            return spec_load;
    return NULL;
}
static const char *rec_version(const db_conn *c) { return "recorder"; }

/* --- the T-SQL dump (TSQL_DUMP=DIR) ---------------------------------------- */
/*
 * Each configuration's SQL goes to DIR/<name>.sql as records, each a line
 * "-- tsql <how> <where>" and the text, whole, on the lines after it:
 * <how> is "prepared" (the statement table: SQLPrepare), "direct"
 * (SQLExecDirect) or "bulk" (prepared, parameter arrays bound to it);
 * <where> is the phase ("#N" for the statement table). A loader sends
 * thousands of INSERTs of one form (the text up to VALUES): of each form
 * the first two and the last are written; any other text is written once
 * however often it is sent. tests/tsql/check.sh counts the records, so a
 * text the dump loses is a failure there.
 */
#define DUMP_FORMS 64

typedef struct dump_form {
    char  head[256];    /* the INSERT up to VALUES */
    int   n;            /* how many were sent */
    char *last;         /* the latest after the first two, written at the end */
    char  last_where[32];
} dump_form;

static struct {
    FILE       *f;                  /* NULL: not dumping */
    const char *where;              /* the phase record() is in */
    dump_form   forms[DUMP_FORMS];
    int         nforms;
    char      **seen;               /* texts already written (not INSERT forms) */
    size_t      nseen;
} dump;

static void dump_record(const char *how, const char *where, const char *sql, size_t len)
{
    fprintf(dump.f, "-- tsql %s %s\n%.*s\n", how, where, (int)len, sql);
}

/* One text sent; `how` as in the records. */
static void dump_sql(const char *how, const char *sql, size_t len)
{
    const char *v = strstr(sql, "VALUES");
    if (!dump.f)
        return;
    if (!strcmp(how, "direct") && !strncmp(sql, "INSERT INTO", 11) && v &&
        (size_t)(v - sql) < sizeof dump.forms[0].head) {
        int h = (int)(v - sql), i;
        dump_form *fm;
        for (i = 0; i < dump.nforms; i++)
            if ((int)strlen(dump.forms[i].head) == h && !strncmp(dump.forms[i].head, sql, (size_t)h))
                break;
        assert_true(i < DUMP_FORMS);
        fm = &dump.forms[i];
        if (i == dump.nforms) {
            snprintf(fm->head, sizeof fm->head, "%.*s", h, sql);
            dump.nforms++;
        }
        if (++fm->n <= 2) {
            dump_record(how, dump.where, sql, len);
        } else {
            free(fm->last);
            fm->last = strndup(sql, len);
            assert_non_null(fm->last);
            snprintf(fm->last_where, sizeof fm->last_where, "%s %s", how, dump.where);
        }
        return;
    }
    {
        char *key = NULL;   /* "how:text": a text prepared and also sent directly is both */
        assert_true(asprintf(&key, "%s:%.*s", how, (int)len, sql) >= 0);
        for (size_t i = 0; i < dump.nseen; i++)
            if (!strcmp(dump.seen[i], key)) {
                free(key);
                return;
            }
        dump.seen = realloc(dump.seen, (dump.nseen + 1) * sizeof *dump.seen);
        assert_non_null(dump.seen);
        dump.seen[dump.nseen] = key;
    }
    dump.nseen++;
    dump_record(how, dump.where, sql, len);
}

static void dump_open(const char *dir, const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s.sql", dir, name);
    dump.f = fopen(path, "w");
    if (!dump.f)
        fail_msg("TSQL_DUMP: cannot write %s", path);
    dump.where = "setup";
}

/* Write each form's last INSERT and forget the configuration. */
static void dump_close(void)
{
    for (int i = 0; i < dump.nforms; i++) {
        dump_form *fm = &dump.forms[i];
        if (fm->last) {
            fprintf(dump.f, "-- tsql %s\n%s\n", fm->last_where, fm->last);
            free(fm->last);
        }
    }
    for (size_t i = 0; i < dump.nseen; i++)
        free(dump.seen[i]);
    free(dump.seen);
    assert_int_equal(fclose(dump.f), 0);
    memset(&dump, 0, sizeof dump);
}

/* Rows sent as INSERT text (--bulk=off, single rows, text statements):
 * the INSERT up to VALUES, once for consecutive ones of the same form. */
static int rec_query(db_conn *c, const char *sql, size_t len)
{
    const char *v = strstr(sql, " VALUES");
    static char last[256];
    dump_sql("direct", sql, len);
    if (!strncmp(sql, "INSERT INTO", 11) && v) {
        int n = (int)(v - sql) + 7;
        char head[256];
        snprintf(head, sizeof head, "%.*s", n, sql);
        if (strcmp(head, last))
            rec_printf("%s ... (rows as INSERT text)\n", head);
        snprintf(last, sizeof last, "%s", head);
        return DB_DONE;
    }
    last[0] = 0;
    rec_printf("%.*s\n", (int)len, sql);
    rows_left = 1;
    rec_row = answer_of(sql, len);
    return DB_DONE;
}

/* "YYYY-MM-DD hh:mm:ss" */
static bool is_timestamp(const char *s, size_t n)
{
    static const char form[] = "dddd-dd-dd dd:dd:dd";
    if (n != sizeof form - 1)
        return false;
    for (size_t i = 0; i < n; i++)
        if (form[i] == 'd' ? (s[i] < '0' || s[i] > '9') : s[i] != form[i])
            return false;
    return true;
}

static int rec_exec(db_conn *c, int stmt, const db_value *v)
{
    rec_printf("EXECUTE #%d", stmt);
    for (int i = 0; i < c->stmts[stmt].nparams; i++)
        switch (v[i].type) {
        case DB_T_INT:    rec_printf(" %" PRId64, v[i].i); break;
        case DB_T_DOUBLE: rec_printf(" %g", v[i].d); break;
        case DB_T_STRING:
            if (is_timestamp(v[i].s, v[i].len))
                rec_printf(" <now>");      /* TPC-C's entry and payment dates */
            else
                rec_printf(" '%.*s'", (int)v[i].len, v[i].s);
            break;
        case DB_T_NULL:   rec_printf(" NULL"); break;
        }
    rec_printf("\n");
    rows_left = 1;
    rec_row = NULL;
    return DB_DONE;
}

/* A bulk load: the statement an ODBC driver binds its arrays to and the
 * first two rows, once for consecutive loads of one table (a loader sends
 * a large table in chunks). */
static char last_bulk[1024];

static int rec_bulk(db_conn *c, db_bulk *b)
{
    char *last = last_bulk;
    db_value row[32];
    char *sql = db_bulk_insert_sql(b);
    bool first = strcmp(sql, last) != 0;
    int more;

    assert_non_null(sql);
    assert_true(b->ncols <= 32);
    dump_sql("bulk", sql, strlen(sql));
    if (first) {
        /* --bulk=values: the same INSERT of many row constructors (two
         * here: the grammar is the same for 666) */
        char *rows = db_bulk_insert_rows_sql(b, 2);
        assert_non_null(rows);
        dump_sql("bulk", rows, strlen(rows));
        free(rows);
        rec_printf("%s -- bulk load, parameter arrays\n", sql);
    }
    snprintf(last, sizeof last_bulk, "%s", sql);
    free(sql);
    while ((more = b->next(b->ctx, row)) > 0) {
        if (!first || b->rows++ >= 2) {
            b->rows += !first;
            continue;
        }
        rec_printf("  row");
        for (int i = 0; i < b->ncols; i++)
            switch (row[i].type) {
            case DB_T_INT:    rec_printf(" %" PRId64, row[i].i); break;
            case DB_T_DOUBLE: rec_printf(" %g", row[i].d); break;
            case DB_T_STRING:
                if (is_timestamp(row[i].s, row[i].len))
                    rec_printf(" <now>");
                else
                    rec_printf(" '%.*s'", (int)row[i].len, row[i].s);
                break;
            case DB_T_NULL:   rec_printf(" NULL"); break;
            }
        rec_printf("\n");
    }
    assert_int_equal(more, 0);
    return DB_DONE;
}

/* A transaction call of the driver (ODBC: autocommit off, SQLEndTran):
 * no SQL text reaches the server, so the record is a comment. */
static int rec_trx(db_conn *c, db_trx op)
{
    static const char *const what[] = {
        [DB_TRX_BEGIN] = "begin (autocommit off)", [DB_TRX_COMMIT] = "commit (SQLEndTran)",
        [DB_TRX_ROLLBACK] = "rollback (SQLEndTran)",
    };
    rec_printf("-- driver: %s\n", what[op]);
    rows_left = 0;
    rec_row = NULL;
    return DB_DONE;
}

static const struct db_driver rec_driver = {
    .name = "recorder", .init = rec_init, .free = rec_free, .connect_start = rec_done,
    .exec_start = rec_exec, .query_start = rec_query, .cont = rec_cont, .fd = rec_fd,
    .disconnect = rec_disconnect, .num_rows = rec_one, .affected_rows = rec_one,
    .next_row = rec_next_row, .col = rec_col, .server_version = rec_version,
    .dialect = DB_DIALECT_AUTO, .bulk_start = rec_bulk, .trx_start = rec_trx,
};

/* Everything `workload` writes for `dialect` with the options in `args`. */
static void record(rec *r, const char *dialect, const char *wl_name, const char *args, int ntrx)
{
    char line[512], *argv[32], *save, *tok;
    int argc = 0;
    oltp_opts o;
    wl_run run = { .o = &o };
    const workload *wl = workload_find(wl_name);
    db_conn c;
    int64_t progress = 0, total = 0;
    rng rg;
    FILE *devnull = fopen("/dev/null", "w");
    wl_err e = { "", false };

    assert_non_null(wl);
    snprintf(line, sizeof line, "oltp --db-driver=odbc --odbc-dsn=golden --odbc-dialect=%s --rand-seed=1 %s %s prepare",
             dialect, args, wl_name);
    for (tok = strtok_r(line, " ", &save); tok && argc < 31; tok = strtok_r(NULL, " ", &save))
        argv[argc++] = tok;
    argv[argc] = NULL;
    assert_int_equal(opts_parse(&o, argc, argv, stderr), 0);
    assert_int_equal(dialect_parse(dialect, &o.db.dialect), 0);
    the_rec = r;
    last_bulk[0] = 0;
    rec_printf("-- oltp %s, dialect %s, options: %s\n", wl_name, dialect, args);
    /* the setup commands print progress on stdout: keep it out of the test's output */
    fflush(stdout);
    {
        FILE *saved = stdout;
        stdout = devnull;
        assert_int_equal(wl->setup(&run, &e), 0);
        rec_printf("\n-- statement table (prepared on first use)\n");
        for (int i = 0; i < run.nstmts; i++)
            if (run.stmts[i].trx != DB_TRX_NONE)
                rec_printf("-- #%d transaction %s: a driver call, no SQL text\n", i,
                           run.stmts[i].trx == DB_TRX_BEGIN ? "begin" :
                           run.stmts[i].trx == DB_TRX_COMMIT ? "commit" : "rollback");
            else if (run.stmts[i].sql) {
                static char where[16];
                rec_printf("#%d [%d param%s] %s\n", i, run.stmts[i].nparams,
                           run.stmts[i].nparams == 1 ? "" : "s", run.stmts[i].sql);
                snprintf(where, sizeof where, "#%d", i);
                dump.where = where;
                dump_sql("prepared", run.stmts[i].sql, strlen(run.stmts[i].sql));
            }
        assert_int_equal(db_init(&c, &rec_driver, &o.db, run.stmts, run.nstmts), 0);
        rec_printf("\n-- prepare\n");
        dump.where = "prepare";
        assert_int_equal(wl->prepare(&run, &c, 0, 1, &progress, &total, &e), 0);
        rec_printf("\n-- before a run\n");
        dump.where = "check";
        assert_int_equal(wl->check_ready(&run, &c, &e), 0);
        {   /* what main.c reads after prepare, around a run and in check */
            res_db_size z;
            rec_printf("\n-- database size\n");
            dump.where = "size";
            assert_int_equal(dbsize_read(&c, o.db.dialect, &z), 0);
        }
        if (wl->server_count) {     /* TPC-C's NOPM: read around a run */
            int64_t n;
            rec_printf("\n-- the server's count (%s)\n", wl->server_rate_name);
            dump.where = "count";
            assert_int_equal(wl->server_count(&run, &c, &n, &e), 0);
        }
        if (wl->check) {            /* `oltp tpcc check` */
            rec_printf("\n-- check\n");
            dump.where = "consistency";
            /* the recorder answers 1 to every COUNT(*), so each condition
             * reads as broken: what is recorded is the text */
            assert_int_equal(wl->check(&run, &c, &e), -1);
            assert_string_equal(e.msg, "");     /* its FAILED lines say it */
        }
        if (ntrx > 0) {
            void *ws;
            rng_seed(&rg, 1, 0);
            ws = wl->conn_new(&run, 0, &rg);
            assert_non_null(ws);
            for (int t = 0; t < ntrx; t++) {
                wl_action a;
                wl_step st;
                rec_printf("\n-- transaction %d\n", t + 1);
                dump.where = "transaction";
                wl->trx_begin(ws);
                while ((st = wl->step(ws, &c, &a)) == WL_STMT) {
                    if (a.stmt >= 0)
                        assert_int_equal(db_exec_start(&c, a.stmt, a.params), DB_DONE);
                    else
                        rec_query(&c, a.sql, strlen(a.sql));
                }
                assert_true(st == WL_END || st == WL_END_ROLLBACK);
            }
            wl->conn_free(ws);
        }
        rec_printf("\n-- cleanup\n");
        dump.where = "cleanup";
        assert_int_equal(wl->cleanup(&run, &c, &e), 0);
        fflush(stdout);
        stdout = saved;
    }
    db_free(&c);
    wl->teardown(&run);
    fclose(devnull);
    the_rec = NULL;
}

/* Compare with (or, with GOLDEN_UPDATE=1, write) tests/golden/NAME. */
static void golden(const char *name, const rec *r)
{
    char path[256];
    FILE *f;
    char *want = NULL;
    size_t n = 0;

    snprintf(path, sizeof path, "tests/golden/%s", name);
    if (getenv("GOLDEN_UPDATE")) {
        f = fopen(path, "w");
        assert_non_null(f);
        fwrite(r->buf, 1, r->len, f);
        fclose(f);
        return;
    }
    f = fopen(path, "r");
    if (!f)
        fail_msg("%s is missing: run from the repository root (GOLDEN_UPDATE=1 writes it)", path);
    want = malloc(1 << 20);
    assert_non_null(want);
    n = fread(want, 1, (1 << 20) - 1, f);
    want[n] = 0;
    fclose(f);
    if (n != r->len || memcmp(want, r->buf, n)) {
        size_t i = 0, line = 1;
        while (i < n && i < r->len && want[i] == r->buf[i])
            line += want[i++] == '\n';
        while (i > 0 && want[i - 1] != '\n')
            i--;
        fail_msg("%s differs from the SQL produced, first at line %zu:\n  golden:   %.120s\n  produced: %.120s",
                 path, line, want + i, r->buf + i);
    }
    free(want);
}

/* Compare with tests/golden/FILE, or <dialect>_<workload>.sql when FILE is NULL. */
static void check_golden_as(const char *file, const char *dialect, const char *wl_name, const char *args,
                            int ntrx)
{
    rec r = {0};
    char name[128];
    record(&r, dialect, wl_name, args, ntrx);
    if (file)
        snprintf(name, sizeof name, "%s", file);
    else
        snprintf(name, sizeof name, "%s_%s.sql", dialect, wl_name);
    golden(name, &r);
    free(r.buf);
}

static void check_golden(const char *dialect, const char *wl_name, const char *args, int ntrx)
{
    check_golden_as(NULL, dialect, wl_name, args, ntrx);
}

static void test_tsql_read_write(void **state)
{
    check_golden("mssql", "oltp_read_write", "--tables=2 --table-size=3", 2);
}

static void test_tsql_insert(void **state)
{
    /* auto-increment: the INSERT leaves id to IDENTITY */
    check_golden("mssql", "oltp_insert", "--tables=1 --table-size=3", 2);
}

static void test_pgsql_read_write(void **state)
{
    check_golden("pgsql", "oltp_read_write", "--tables=1 --table-size=3", 1);
}

static void test_tsql_tpcc(void **state)
{
    check_golden("mssql", "tpcc", "--warehouses=1", 3);
}

static void test_tsql_tpcc_procedures(void **state)
{
    /* the five T-SQL procedures created by prepare, a CALL per
     * transaction with its parameters (23 transactions: one whole deck,
     * every type), and cleanup dropping them */
    check_golden_as("mssql_tpcc_procedures.sql", "mssql", "tpcc", "--warehouses=1 --tpcc-procedures=on", 23);
}

/* Occurrences of line `want` (without its newline) in r. */
static int count_lines(const rec *r, const char *want)
{
    size_t n = strlen(want);
    int k = 0;
    for (const char *l = r->buf; l && l < r->buf + r->len; l = strchr(l, '\n'), l = l ? l + 1 : NULL)
        if (!strncmp(l, want, n) && l[n] == '\n')
            k++;
    return k;
}

static void test_tsql_single_row_load(void **state)
{
    /* --bulk=off --tpcc-load-batch=1: single-row INSERTs, 1,000 to a
     * transaction, begun and committed by the driver, never by a bare
     * BEGIN (a block in T-SQL). 1 warehouse: 100,000 items, then per
     * warehouse 1 + 100,000 stock + 10 districts, each 3,000 customers,
     * 3,000 history, 3,000 orders, their lines and 900 new orders. */
    rec r = {0};
    record(&r, "mssql", "tpcc", "--warehouses=1 --bulk=off --tpcc-load-batch=1", 0);
    assert_int_equal(count_lines(&r, "BEGIN"), 0);
    assert_int_equal(count_lines(&r, "COMMIT"), 0);
    assert_true(count_lines(&r, "-- driver: begin (autocommit off)") > 0);
    assert_int_equal(count_lines(&r, "-- driver: begin (autocommit off)"),
                     count_lines(&r, "-- driver: commit (SQLEndTran)"));
    free(r.buf);
}

/* wl->setup of tpcc with `args` in `dialect`; the message it returns in
 * err (setup prints nothing: main.c prints it once). */
static int tpcc_setup_with(const char *dialect, const char *args, char *err, size_t errlen)
{
    char line[256], *argv[16], *save, *tok, printed[256];
    int argc = 0, rc;
    oltp_opts o;
    wl_run run = { .o = &o };
    wl_err e = { "", false };
    const workload *wl = workload_find("tpcc");
    FILE *saved = stderr, *f = tmpfile();

    snprintf(line, sizeof line, "oltp --db-driver=odbc --odbc-dsn=x --odbc-dialect=%s %s tpcc prepare", dialect, args);
    for (tok = strtok_r(line, " ", &save); tok && argc < 15; tok = strtok_r(NULL, " ", &save))
        argv[argc++] = tok;
    argv[argc] = NULL;
    assert_int_equal(opts_parse(&o, argc, argv, stderr), 0);
    assert_int_equal(dialect_parse(dialect, &o.db.dialect), 0);
    stderr = f;
    rc = wl->setup(&run, &e);
    stderr = saved;
    if (rc == 0)
        wl->teardown(&run);
    rewind(f);
    if (!fgets(printed, sizeof printed, f))
        printed[0] = 0;
    fclose(f);
    assert_string_equal(printed, "");
    assert_false(e.sysbench_voice);
    snprintf(err, errlen, "%s", e.msg);
    return rc;
}

static void test_tsql_values_limit(void **state)
{
    /* a T-SQL VALUES list takes at most 1,000 rows: more is refused with
     * one message, not capped behind the user's back */
    char err[256];
    assert_int_equal(tpcc_setup_with("mssql", "--tpcc-load-batch=1001", err, sizeof err), -1);
    assert_string_equal(err, "--tpcc-load-batch=1001: SQL Server takes at most 1000 rows in one "
                        "INSERT ... VALUES list: give 1000 or less");
    assert_int_equal(tpcc_setup_with("mssql", "--tpcc-load-batch=1000", err, sizeof err), 0);
    assert_string_equal(err, "");
    assert_int_equal(tpcc_setup_with("mysql", "--tpcc-load-batch=5000", err, sizeof err), 0);
    assert_int_equal(tpcc_setup_with("pgsql", "--tpcc-load-batch=100000", err, sizeof err), 0);
}

/* prepare around the load (tpcc/tpcc_prep.c): the file sizes are SQL
 * Server's, refused elsewhere with one line; keys after the load and
 * statistics in every dialect, in each its own words */
#define PREP_ARGS "--warehouses=1 --tpcc-keys-after-load=on --tpcc-statistics=on"
#define SIZE_ARGS "--tpcc-data-size=1000 --tpcc-log-size=500 --tpcc-data-growth=64 --tpcc-log-growth=256"

static void test_tsql_tpcc_prep(void **state)
{
    /* the recorder lists one file, "1", of type 1 (LOG) and 1 page: the
     * log is sized; its name and the database's are bracketed */
    check_golden_as("mssql_tpcc_prep.sql", "mssql", "tpcc", PREP_ARGS " " SIZE_ARGS, 0);
}

static void test_tpcc_prep_dialects(void **state)
{
    static const char *const tables[] = {
        "warehouse", "district", "customer", "history", "new_order", "orders", "order_line", "item", "stock",
    };
    char err[256];
    rec r = {0};

    for (int d = 0; d < 2; d++) {
        const char *name = d ? "pgsql" : "mysql";
        assert_int_equal(tpcc_setup_with(name, "--tpcc-data-size=1000", err, sizeof err), -1);
        assert_string_equal(err, d ? "--tpcc-data-size, --tpcc-log-size, --tpcc-data-growth and "
                            "--tpcc-log-growth size SQL Server's database files (ALTER DATABASE ... MODIFY "
                            "FILE): this server speaks pgsql"
                            : "--tpcc-data-size, --tpcc-log-size, --tpcc-data-growth and "
                            "--tpcc-log-growth size SQL Server's database files (ALTER DATABASE ... MODIFY "
                            "FILE): this server speaks mysql");
    }
    assert_int_equal(tpcc_setup_with("mssql", "--tpcc-log-growth=64", err, sizeof err), 0);

    record(&r, "pgsql", "tpcc", PREP_ARGS, 0);
    /* no key in any CREATE TABLE; each added once, after the last row */
    for (size_t t = 0; t < sizeof tables / sizeof tables[0]; t++) {
        char line[128];
        const char *c, *eol;
        snprintf(line, sizeof line, "\nCREATE TABLE %s (", tables[t]);
        assert_non_null(c = strstr(r.buf, line));
        assert_non_null(eol = strchr(c + 1, '\n'));
        assert_true(strstr(c, "PRIMARY KEY") > eol);
    }
    assert_int_equal(count_lines(&r, "ALTER TABLE warehouse ADD CONSTRAINT warehouse_pkey PRIMARY KEY (w_id)"), 1);
    assert_int_equal(count_lines(&r, "ALTER TABLE order_line ADD CONSTRAINT order_line_pkey PRIMARY KEY "
                                 "(ol_w_id, ol_d_id, ol_o_id, ol_number)"), 1);
    assert_int_equal(count_lines(&r, "ANALYZE warehouse, district, customer, history, new_order, orders, "
                                 "order_line, item, stock"), 1);
    assert_true(strstr(r.buf, "ALTER TABLE warehouse") > strstr(r.buf, "INSERT INTO stock"));
    assert_true(strstr(r.buf, "ANALYZE") > strstr(r.buf, "CREATE INDEX idx_orders_customer"));
    free(r.buf);
    memset(&r, 0, sizeof r);
    record(&r, "mysql", "tpcc", PREP_ARGS, 0);
    assert_int_equal(count_lines(&r, "ALTER TABLE stock ADD PRIMARY KEY (s_w_id, s_i_id)"), 1);
    assert_int_equal(count_lines(&r, "ANALYZE TABLE warehouse, district, customer, history, new_order, orders, "
                                 "order_line, item, stock"), 1);
    free(r.buf);
}

static void test_drop_if_exists(void **state)
{
    char b[128];
    assert_string_equal(dialect_drop_if_exists(DB_DIALECT_MSSQL, DIALECT_TABLE, "sbtest1", b, sizeof b),
                        "IF OBJECT_ID(N'sbtest1', N'U') IS NOT NULL DROP TABLE sbtest1");
    assert_string_equal(dialect_drop_if_exists(DB_DIALECT_MSSQL, DIALECT_PROCEDURE, "tpcc_slev", b, sizeof b),
                        "IF OBJECT_ID(N'tpcc_slev', N'P') IS NOT NULL DROP PROCEDURE tpcc_slev");
    assert_string_equal(dialect_drop_if_exists(DB_DIALECT_MYSQL, DIALECT_TABLE, "item", b, sizeof b),
                        "DROP TABLE IF EXISTS item");
    assert_string_equal(dialect_drop_if_exists(DB_DIALECT_PGSQL, DIALECT_PROCEDURE, "tpcc_slev", b, sizeof b),
                        "DROP PROCEDURE IF EXISTS tpcc_slev");
    /* T-SQL has no transaction text: only driver calls end them */
    assert_null(dialect_get(DB_DIALECT_MSSQL)->begin);
    assert_null(dialect_get(DB_DIALECT_MSSQL)->rollback);
    assert_string_equal(dialect_get(DB_DIALECT_MYSQL)->begin, "BEGIN");
}

/* The configurations whose SQL TSQL_DUMP writes: each option that changes
 * the text (every sysbench workload shares oltp_read_write's statement
 * table), TPC-C with each loader (bulk arrays, multi-row INSERTs of the
 * default and of the largest --tpcc-load-batch, single-row INSERTs) and
 * with procedures. */
static void test_tsql_dump(void **state)
{
    static const struct { const char *name, *wl, *args; int ntrx; } cf[] = {
        {"oltp_read_write", "oltp_read_write", "--tables=2 --table-size=3", 2},
        {"oltp_read_write_inserts", "oltp_read_write",
         "--tables=1 --table-size=1001 --bulk=off --auto-inc=off --secondary=on", 2},
        {"oltp_insert", "oltp_insert", "--tables=1 --table-size=3", 2},
        {"oltp_insert_no_auto_inc", "oltp_insert", "--tables=1 --table-size=3 --auto-inc=off --bulk=off", 2},
        {"tpcc", "tpcc", "--warehouses=1", 3},
        {"tpcc_procedures", "tpcc", "--warehouses=1 --tpcc-procedures=on", 23},
        {"tpcc_inserts", "tpcc", "--warehouses=1 --bulk=off", 0},
        {"tpcc_inserts_max_batch", "tpcc", "--warehouses=1 --bulk=off --tpcc-load-batch=1000", 0},
        {"tpcc_single_rows", "tpcc", "--warehouses=1 --bulk=off --tpcc-load-batch=1", 0},
        {"tpcc_prep", "tpcc", PREP_ARGS " " SIZE_ARGS, 0},
    };
    const char *dir = getenv("TSQL_DUMP");

    for (size_t i = 0; i < sizeof cf / sizeof cf[0]; i++) {
        rec r = {0};
        dump_open(dir, cf[i].name);
        record(&r, "mssql", cf[i].wl, cf[i].args, cf[i].ntrx);
        dump_close();
        free(r.buf);
    }
}

/* db_bulk_tsv (drivers/db.c), the text rows of LOAD DATA and COPY: every
 * special byte at every place in and across an 8-byte word is escaped,
 * plain strings are copied as they are, integers at their limits, NULL,
 * and 0 when the line does not fit. */
static void test_bulk_tsv(void **state)
{
    const char *const specials = "\\\t\n\r", *const escaped[] = {"\\\\", "\\t", "\\n", "\\r"};
    char s[19], out[128], want[128];
    db_value row[5];
    size_t n;
    (void)state;

    row[0] = db_int(INT64_MIN);
    row[1] = db_int(0);
    row[2] = db_int(INT64_MAX);
    row[3] = db_str("12345678901-plain-string", 24);
    row[4] = (db_value){.type = DB_T_NULL};
    n = db_bulk_tsv(row, 5, out, sizeof out);
    assert_int_equal(n, strlen("-9223372036854775808\t0\t9223372036854775807\t12345678901-plain-string\t\\N\n"));
    assert_memory_equal(out, "-9223372036854775808\t0\t9223372036854775807\t12345678901-plain-string\t\\N\n", n);
    row[0] = db_int(-7);
    n = db_bulk_tsv(row, 1, out, sizeof out);
    assert_int_equal(n, 3);
    assert_memory_equal(out, "-7\n", 3);
    for (int c = 0; c < 4; c++)
        for (int at = 0; at < (int)sizeof s; at++) {
            memset(s, 'a', sizeof s);
            s[at] = specials[c];
            snprintf(want, sizeof want, "%.*s%s%.*s\n", at, s, escaped[c], (int)sizeof s - at - 1, s + at + 1);
            row[0] = db_str(s, sizeof s);
            n = db_bulk_tsv(row, 1, out, sizeof out);
            assert_int_equal(n, strlen(want));
            assert_memory_equal(out, want, n);
        }
    row[0] = db_str(s, sizeof s);
    assert_int_equal(db_bulk_tsv(row, 1, out, 2 * sizeof s + 1), 0);
}

int main(void)
{
    const struct CMUnitTest dump_only[] = {
        cmocka_unit_test(test_tsql_dump),
    };
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_names),
        cmocka_unit_test(test_dbms_names),
        cmocka_unit_test(test_quote_and_sqlstates),
        cmocka_unit_test(test_tsql_read_write),
        cmocka_unit_test(test_tsql_insert),
        cmocka_unit_test(test_pgsql_read_write),
        cmocka_unit_test(test_tsql_tpcc),
        cmocka_unit_test(test_tsql_tpcc_procedures),
        cmocka_unit_test(test_tsql_single_row_load),
        cmocka_unit_test(test_tsql_values_limit),
        cmocka_unit_test(test_tsql_tpcc_prep),
        cmocka_unit_test(test_tpcc_prep_dialects),
        cmocka_unit_test(test_drop_if_exists),
        cmocka_unit_test(test_bulk_tsv),
    };
    if (getenv("TSQL_DUMP"))
        return cmocka_run_group_tests(dump_only, NULL, NULL);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
