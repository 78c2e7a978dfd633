/*
 * drv_odbc.c — ODBC driver on unixODBC's driver manager (SQL Server through
 * Microsoft's ODBC Driver 18 or FreeTDS, MariaDB, PostgreSQL, ...).
 *
 * ODBC calls block, so each connection owns one thread that makes all of
 * its ODBC calls. An operation posts a request to that thread and returns
 * DB_WAIT on the connection's eventfd (db_fd()); the thread runs the
 * request, buffers every result row as text, stores the outcome and writes
 * the eventfd, which wakes the engine's loop as a readable socket would.
 * The loop thread never makes an ODBC call except SQLCancel in free().
 *
 * Statements are prepared (SQLPrepare) the first time they run on a
 * session and kept until a reconnect; parameters are bound on every
 * execution from the workload's values, which stay valid until it takes
 * its next step. Text statements run through SQLExecDirect. Every result
 * of a batch is drained (SQLMoreResults); the last result set is kept.
 *
 * Bulk loads (prepare) bind arrays of BULK_ROWS rows, column-wise, to one
 * prepared INSERT (SQL_ATTR_PARAMSET_SIZE), a transaction per array. How
 * an array travels is the ODBC driver's choice: MariaDB Connector/ODBC
 * sends it as one bulk command, psqlODBC and FreeTDS execute it row by row
 * within the one transaction. --bulk=bcp takes SQL Server's own bulk path
 * instead (bulk copy, the TDS bulk load; outside ODBC's API, found in the
 * driver by odbc_bcp.c): rows sent with bcp_sendrow, committed every
 * BCP_BATCH_ROWS by bcp_batch.
 *
 * Transactions are ODBC's (do_trx): autocommit off and SQLEndTran, never
 * a BEGIN/COMMIT/ROLLBACK text, which SQL Server refuses in a prepared
 * (RPC) execution with error 266.
 *
 * Errors keep the native code, SQLSTATE and message of the first
 * diagnostic record. Retried: SQLSTATE 40001/40P01 (and 23505 on
 * PostgreSQL), SQL Server deadlock 1205 and tpcc_delivery's 51205, a
 * unique violation of a statement marked unique_retry (2627/2601 on SQL
 * Server: sysbench's DELETE + INSERT), and
 * --mysql-ignore-errors codes; reconnect: class 08 (08S01 link failure)
 * and 57P0x. A failed connect to a SQL Server whose database is not open
 * yet (4060, in recovery 922, in a restore 927, upgrade scripts 18401)
 * says 08004: not ready, retry; a refused login says 28000.
 */
#include "drivers/db.h"
#include "drivers/odbc_bcp.h"

#include <errno.h>
#include <pthread.h>
#include <sql.h>
#include <sqlext.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#define COL_BUF      1024               /* longest column value read back */
#define THREAD_STACK (512 * 1024)

typedef enum { REQ_NONE, REQ_CONNECT, REQ_EXEC, REQ_QUERY, REQ_BULK, REQ_TRX } od_req;

#define BULK_ROWS 1000                  /* rows per parameter array */
#define BCP_BATCH_ROWS 10000            /* rows per bulk copy batch (a transaction) */
/* --bulk=values: parameters per INSERT, below SQL Server's 2,100 per
 * request ("Maximum capacity specifications for SQL Server"); a VALUES
 * list takes at most 1,000 rows (BULK_ROWS) */
#define VALUES_PARAMS 2000

/* SQL Server's error numbers (sys.messages) */
#define MSSQL_DEADLOCK      1205        /* chosen as deadlock victim: rolled back */
#define MSSQL_PROC_RETRY    51205       /* tpcc_delivery's THROW: retry as a deadlock */
#define MSSQL_NO_TRAN       3903        /* ROLLBACK with no corresponding BEGIN TRANSACTION */

typedef struct od_cell { size_t off; SQLLEN len; } od_cell;   /* len -1 = NULL */

/* Rows of the last result set, as text in one arena. */
typedef struct od_rows {
    char    *data;
    size_t   len, cap;
    od_cell *cells;
    size_t   ncells, cellcap;
    int      ncols;
    int64_t  nrows;
} od_rows;

typedef struct od_priv {
    /* --- shared between the loop thread and the connection's thread --- */
    pthread_mutex_t lock;
    pthread_cond_t  cond;
    od_req          req;            /* posted by the loop, taken by the thread */
    bool            busy;           /* a request is posted or running */
    bool            quit;           /* free(): thread tears down and exits */
    bool            reset;          /* disconnect(): drop the session before the next connect */
    int             status;         /* DB_DONE or DB_ERROR of the finished request */
    db_error        err;
    SQLHSTMT        active;         /* statement executing, for SQLCancel */
    pthread_t       th;
    bool            started;
    int             efd;
    /* request arguments (read by the thread while busy) */
    int             stmt;
    const db_value *params;
    char           *sql;
    db_bulk        *bulk;
    db_trx          trx;
    /* --- owned by the connection's thread (read by the loop when idle) --- */
    SQLHENV         env;
    SQLHDBC         dbc;
    bool            connected;
    bool            manual;         /* autocommit is off (a workload began a transaction) */
    SQLHSTMT       *st;             /* per statement; NULL until prepared */
    SQLHSTMT        q;              /* text statements */
    SQLLEN         *ind;            /* parameter length/indicator */
    SQLINTEGER     *ival;           /* DB_T_INT parameters as SQL_INTEGER */
    int             nind;
    char           *colbuf;         /* bound result columns */
    SQLLEN         *colind;
    int             colcap;
    int             dialect;        /* of the server, from SQL_DBMS_NAME; -1 unknown */
    odbc_bcp        bcp;            /* --bulk=bcp: the driver's bulk copy, found at connect */
    char            dbms[64], version[64];
    od_rows         rows;
    int64_t         affected;
    /* --- loop thread only --- */
    int64_t         row;            /* cursor into rows, -1 before the first */
} od_priv;

/* --- errors (connection thread) ------------------------------------------ */

/* Store diagnostic record rec of handle h as the request's error. */
static int od_fail_rec(db_conn *c, SQLSMALLINT type, SQLHANDLE h, SQLSMALLINT rec, const char *what)
{
    od_priv *p = c->priv;
    SQLCHAR state[6] = "HY000", msg[512] = "";
    SQLINTEGER native = 0;
    SQLSMALLINT len = 0;
    db_err_class cls;
    int d = p->dialect >= 0 ? p->dialect : (int)c->cfg->dialect;

    if (!h || !SQL_SUCCEEDED(SQLGetDiagRec(type, h, rec, state, &native, msg, sizeof msg, &len)))
        snprintf((char *)msg, sizeof msg, "%s failed with no diagnostic record", what);
    if (dialect_sqlstate_lost((char *)state) || !strcmp((char *)state, "HYT01"))
        cls = DB_ERR_RECONNECT;
    else if (dialect_sqlstate_retry(d, (char *)state) ||
             (d == DB_DIALECT_MSSQL && (native == MSSQL_DEADLOCK || native == MSSQL_PROC_RETRY)))
        cls = DB_ERR_RETRY;
    else
        cls = db_classify(c->cfg, (int)native, DB_ERR_FATAL);
    p->err.code = (int)native;
    p->err.cls = cls;
    snprintf(p->err.sqlstate, sizeof p->err.sqlstate, "%s", (char *)state);
    snprintf(p->err.msg, sizeof p->err.msg, "%s", (char *)msg);
    return DB_ERROR;
}

/* Store the first diagnostic record of handle h as the request's error. */
static int od_fail(db_conn *c, SQLSMALLINT type, SQLHANDLE h, const char *what)
{
    return od_fail_rec(c, type, h, 1, what);
}

/* A failed bcp call: FreeTDS adds its own "General driver error" after
 * the server's message, so the first record with an error number (the
 * server's) is kept. */
static int bcp_fail(db_conn *c, const char *what)
{
    od_priv *p = c->priv;
    SQLINTEGER native = 0;
    SQLCHAR state[6];

    for (SQLSMALLINT rec = 1; SQL_SUCCEEDED(SQLGetDiagRec(SQL_HANDLE_DBC, p->dbc, rec, state, &native,
                                                          NULL, 0, NULL)); rec++)
        if (native)
            return od_fail_rec(c, SQL_HANDLE_DBC, p->dbc, rec, what);
    return od_fail(c, SQL_HANDLE_DBC, p->dbc, what);
}

static int od_oom(db_conn *c)
{
    od_priv *p = c->priv;
    p->err = (db_error){ .code = 0, .sqlstate = "HY001", .msg = "out of memory", .cls = DB_ERR_FATAL };
    return DB_ERROR;
}

/* --- session (connection thread) ----------------------------------------- */

static void free_session(db_conn *c)
{
    od_priv *p = c->priv;
    for (int i = 0; i < c->nstmts; i++)
        if (p->st[i]) {
            SQLFreeHandle(SQL_HANDLE_STMT, p->st[i]);
            p->st[i] = NULL;
        }
    if (p->q)
        SQLFreeHandle(SQL_HANDLE_STMT, p->q);
    p->q = NULL;
    if (p->dbc) {
        if (p->connected)
            SQLDisconnect(p->dbc);
        SQLFreeHandle(SQL_HANDLE_DBC, p->dbc);
    }
    p->dbc = NULL;
    p->connected = false;
    p->manual = false;
}

/* The connection string: --odbc-connect plus UID/PWD when given. A value
 * is braced only when it needs it (';', '{', '}' or a space at an end,
 * '}' doubled), the ODBC rule: psqlODBC 13 keeps the braces of a braced
 * UID as part of the user name ("{drivebench}"). Caller frees. */
static char *connect_string(const db_config *cfg)
{
    size_t n = strlen(cfg->conn_str) + 32 + 2 * (cfg->user ? strlen(cfg->user) : 0) +
               2 * (cfg->password ? strlen(cfg->password) : 0);
    char *s = malloc(n), *o;
    if (!s)
        return NULL;
    o = s + sprintf(s, "%s", cfg->conn_str);
    for (int k = 0; k < 2; k++) {
        const char *v = k ? cfg->password : cfg->user;
        size_t len = v ? strlen(v) : 0;
        bool brace;
        if (!len)
            continue;
        brace = strpbrk(v, ";{}") || v[0] == ' ' || v[len - 1] == ' ';
        o += sprintf(o, "%s%s=%s", o > s && o[-1] != ';' ? ";" : "", k ? "PWD" : "UID",
                     brace ? "{" : "");
        for (; *v; v++) {
            *o++ = *v;
            if (brace && *v == '}')
                *o++ = '}';
        }
        if (brace)
            *o++ = '}';
        *o = 0;
    }
    return s;
}

/* SQL Server's refusals of a login to a database that is not open yet:
 * 4060 cannot open the database requested by the login (it is still
 * starting), 922 being recovered, 927 in the middle of a restore, 18401
 * only administrators during the upgrade scripts after an update. Each
 * clears as the server comes up; a wrong password (18456 alone) does
 * not. */
static bool mssql_not_ready(SQLINTEGER native)
{
    return native == 4060 || native == 922 || native == 927 || native == 18401;
}

/* After a failed connect to SQL Server: does any diagnostic record say
 * the database is not open yet? (SQL Server sends 4060 with an 18456
 * "Login failed" beside it.) Then that record becomes the error, with
 * SQLSTATE 08004 (the server rejected the connection): not ready, retry. */
static bool connect_not_ready(db_conn *c)
{
    od_priv *p = c->priv;
    SQLCHAR state[6], msg[512];
    SQLINTEGER native;
    SQLSMALLINT len;

    if (c->cfg->dialect != DB_DIALECT_MSSQL && !strstr(p->err.msg, "SQL Server"))
        return false;
    for (SQLSMALLINT i = 1; i <= 8; i++) {
        if (!SQL_SUCCEEDED(SQLGetDiagRec(SQL_HANDLE_DBC, p->dbc, i, state, &native, msg, sizeof msg, &len)))
            break;
        if (mssql_not_ready(native)) {
            p->err.code = (int)native;
            snprintf(p->err.sqlstate, sizeof p->err.sqlstate, "08004");
            snprintf(p->err.msg, sizeof p->err.msg, "%s", (char *)msg);
            return true;
        }
    }
    return false;
}

/* After a failed connect: the standard SQLSTATE db_error_is_login() and
 * db_error_is_session_limit() read. A session limit is native 1040, 1203
 * or 1226 (MariaDB, MySQL), 17809 (SQL Server), or psqlODBC's 08001 with
 * the server's "too many" message.
 * Drivers that already say 28xxx (MariaDB ODBC's 1045, SQL Server's
 * 18456) stay; an unknown database is 42000 with native 1049 (MariaDB,
 * MySQL); psqlODBC says 08001 for every refusal and keeps the server's
 * message (C locale in drivebench's guests). Anything else that is not
 * already a connection class says 08001. */
static void connect_sqlstate(db_conn *c)
{
    od_priv *p = c->priv;
    const char *m = p->err.msg, *st = NULL;

    if (connect_not_ready(c) || !strncmp(p->err.sqlstate, "28", 2))
        return;
    if (!strcmp(p->err.sqlstate, "42000") && p->err.code == 1049)
        st = "3D000";
    else if (strstr(m, "password authentication failed") || strstr(m, "no pg_hba.conf entry") ||
             strstr(m, "no password supplied"))
        st = "28000";
    else if (strstr(m, "database \"") && strstr(m, "\" does not exist"))
        st = "3D000";
    else if (p->err.code == 1040 || p->err.code == 1203 || p->err.code == 1226 || p->err.code == 17809 ||
             strstr(m, "too many clients already") || strstr(m, "too many connections for"))
        st = "53300";
    else if (strncmp(p->err.sqlstate, "08", 2) && strncmp(p->err.sqlstate, "HYT", 3))
        st = "08001";
    if (st)
        snprintf(p->err.sqlstate, sizeof p->err.sqlstate, "%s", st);
}

static int do_connect(db_conn *c)
{
    od_priv *p = c->priv;
    const db_config *cfg = c->cfg;
    SQLRETURN rc;
    SQLSMALLINT len;
    db_dialect d;

    free_session(c);
    if (!p->env) {
        if (!SQL_SUCCEEDED(SQLAllocHandle(SQL_HANDLE_ENV, SQL_NULL_HANDLE, &p->env)))
            return od_fail(c, SQL_HANDLE_ENV, NULL, "SQLAllocHandle(ENV)");
        SQLSetEnvAttr(p->env, SQL_ATTR_ODBC_VERSION, (SQLPOINTER)SQL_OV_ODBC3, 0);
    }
    if (!SQL_SUCCEEDED(SQLAllocHandle(SQL_HANDLE_DBC, p->env, &p->dbc)))
        return od_fail(c, SQL_HANDLE_ENV, p->env, "SQLAllocHandle(DBC)");
    SQLSetConnectAttr(p->dbc, SQL_ATTR_LOGIN_TIMEOUT,
                      (SQLPOINTER)(intptr_t)(cfg->connect_timeout_s > 0 ? cfg->connect_timeout_s : 10), 0);
    /* Microsoft's drivers allow bcp only on a connection opened with it
     * on; a driver that does not know the attribute is told by the
     * search after connecting */
    if (cfg->odbc_bulk == DB_ODBC_BCP)
        SQLSetConnectAttr(p->dbc, ODBC_BCP_COPT_SS_BCP, (SQLPOINTER)ODBC_BCP_ON, SQL_IS_INTEGER);
    if (cfg->conn_str) {
        char *s = connect_string(cfg);
        if (!s)
            return od_oom(c);
        rc = SQLDriverConnect(p->dbc, NULL, (SQLCHAR *)s, SQL_NTS, NULL, 0, NULL, SQL_DRIVER_NOPROMPT);
        free(s);
    } else {
        rc = SQLConnect(p->dbc, (SQLCHAR *)(cfg->dsn ? cfg->dsn : ""), SQL_NTS,
                        (SQLCHAR *)cfg->user, cfg->user ? SQL_NTS : 0,
                        (SQLCHAR *)cfg->password, cfg->password ? SQL_NTS : 0);
    }
    if (!SQL_SUCCEEDED(rc)) {
        od_fail(c, SQL_HANDLE_DBC, p->dbc, "SQLConnect");
        connect_sqlstate(c);
        p->err.cls = DB_ERR_RECONNECT;
        return DB_ERROR;
    }
    p->connected = true;
    p->dbms[0] = p->version[0] = 0;
    SQLGetInfo(p->dbc, SQL_DBMS_NAME, p->dbms, sizeof p->dbms, &len);
    SQLGetInfo(p->dbc, SQL_DBMS_VER, p->version, sizeof p->version, &len);
    p->dialect = dialect_from_dbms_name(p->dbms, &d) == 0 ? (int)d : -1;
    if (cfg->odbc_bulk == DB_ODBC_BCP) {
        char why[sizeof p->err.msg - 16];
        if (odbc_bcp_find(p->dbc, &p->bcp, why, sizeof why) < 0) {
            p->err = (db_error){ .sqlstate = "IM001", .cls = DB_ERR_FATAL };
            snprintf(p->err.msg, sizeof p->err.msg, "--bulk=bcp: %s", why);
            return DB_ERROR;
        }
    }
    if (!SQL_SUCCEEDED(SQLAllocHandle(SQL_HANDLE_STMT, p->dbc, &p->q)))
        return od_fail(c, SQL_HANDLE_DBC, p->dbc, "SQLAllocHandle(STMT)");
    return DB_DONE;
}

/* --- results (connection thread) ----------------------------------------- */

static int grow(void **buf, size_t *cap, size_t need, size_t elem)
{
    size_t n = *cap ? *cap : 64;
    void *b;
    if (need <= *cap)
        return 0;
    while (n < need)
        n *= 2;
    if (!(b = realloc(*buf, n * elem)))
        return -1;
    *buf = b;
    *cap = n;
    return 0;
}

/* Fetch the current result set of h into p->rows. */
static int fetch_rows(db_conn *c, SQLHSTMT h, SQLSMALLINT ncols)
{
    od_priv *p = c->priv;
    od_rows *r = &p->rows;
    SQLRETURN rc;

    if (ncols > p->colcap) {
        char *b = realloc(p->colbuf, (size_t)ncols * (COL_BUF + 1));
        SQLLEN *ind = b ? realloc(p->colind, (size_t)ncols * sizeof(SQLLEN)) : NULL;
        if (b)
            p->colbuf = b;
        if (!ind)
            return od_oom(c);
        p->colind = ind;
        p->colcap = ncols;
    }
    r->len = r->ncells = 0;
    r->nrows = 0;
    r->ncols = ncols;
    for (int i = 0; i < ncols; i++)
        SQLBindCol(h, (SQLUSMALLINT)(i + 1), SQL_C_CHAR, p->colbuf + (size_t)i * (COL_BUF + 1),
                   COL_BUF + 1, &p->colind[i]);
    while (SQL_SUCCEEDED(rc = SQLFetch(h))) {
        if (grow((void **)&r->cells, &r->cellcap, r->ncells + (size_t)ncols, sizeof(od_cell)) < 0)
            return od_oom(c);
        for (int i = 0; i < ncols; i++) {
            SQLLEN n = p->colind[i];
            od_cell *cell = &r->cells[r->ncells++];
            if (n == SQL_NULL_DATA) {
                cell->len = -1;
                continue;
            }
            if (n < 0 || n > COL_BUF)       /* SQL_NO_TOTAL or truncated */
                n = COL_BUF;
            if (grow((void **)&r->data, &r->cap, r->len + (size_t)n + 1, 1) < 0)
                return od_oom(c);
            memcpy(r->data + r->len, p->colbuf + (size_t)i * (COL_BUF + 1), (size_t)n);
            r->data[r->len + (size_t)n] = 0;
            cell->off = r->len;
            cell->len = n;
            r->len += (size_t)n + 1;
        }
        r->nrows++;
    }
    SQLFreeStmt(h, SQL_UNBIND);
    if (rc != SQL_NO_DATA)
        return od_fail(c, SQL_HANDLE_STMT, h, "SQLFetch");
    return DB_DONE;
}

/* After SQLExecute/SQLExecDirect returned rc: read every result of h. */
static int collect(db_conn *c, SQLHSTMT h, SQLRETURN rc)
{
    od_priv *p = c->priv;
    p->rows.nrows = p->rows.ncols = 0;
    p->rows.ncells = p->rows.len = 0;
    p->affected = 0;
    if (!SQL_SUCCEEDED(rc) && rc != SQL_NO_DATA) {
        /* the diagnostics first (closing clears them), then discard what
         * the batch still has pending: a session without MARS would stay
         * busy with it and refuse the next statement */
        od_fail(c, SQL_HANDLE_STMT, h, "SQLExecute");
        SQLFreeStmt(h, SQL_CLOSE);
        return DB_ERROR;
    }
    /* SQL_NO_DATA: a searched UPDATE/DELETE that matched nothing (ODBC 3,
     * "Returning SQL_NO_DATA"). It may be only the first result of a batch
     * or a procedure (one without SET NOCOUNT ON): SQL Server's driver
     * keeps the rest for SQLMoreResults (nanodbc#33), and the session is
     * busy until they are read or closed. */
    for (bool first = rc == SQL_NO_DATA; ; first = false) {
        SQLSMALLINT ncols = 0;
        SQLLEN n = -1;
        if (!first)
            SQLNumResultCols(h, &ncols);
        if (ncols > 0) {
            if (fetch_rows(c, h, ncols) != DB_DONE) {
                SQLFreeStmt(h, SQL_CLOSE);
                return DB_ERROR;
            }
        } else if (SQL_SUCCEEDED(SQLRowCount(h, &n)) && n >= 0) {
            p->affected = n;
        }
        rc = SQLMoreResults(h);
        if (rc == SQL_NO_DATA)
            break;
        if (!SQL_SUCCEEDED(rc)) {
            od_fail(c, SQL_HANDLE_STMT, h, "SQLMoreResults");
            SQLFreeStmt(h, SQL_CLOSE);
            return DB_ERROR;
        }
    }
    SQLFreeStmt(h, SQL_CLOSE);
    return DB_DONE;
}

static void set_active(od_priv *p, SQLHSTMT h)
{
    pthread_mutex_lock(&p->lock);
    p->active = h;
    pthread_mutex_unlock(&p->lock);
}

/* An int64 value of an INT column as the SQLINTEGER bound for it; -1
 * when it does not fit (then p->err says so). */
static int int_param(db_conn *c, int64_t v, SQLINTEGER *out)
{
    if (v < INT32_MIN || v > INT32_MAX) {
        od_priv *p = c->priv;
        p->err = (db_error){ .sqlstate = "22003", .cls = DB_ERR_FATAL };
        snprintf(p->err.msg, sizeof p->err.msg, "%lld is out of the range of an INT column", (long long)v);
        return -1;
    }
    *out = (SQLINTEGER)v;
    return 0;
}

static int bind_params(db_conn *c, SQLHSTMT h, const db_value *v, int n)
{
    od_priv *p = c->priv;
    if (n > p->nind) {
        SQLLEN *ind = realloc(p->ind, (size_t)n * sizeof(SQLLEN));
        SQLINTEGER *ival = ind ? realloc(p->ival, (size_t)n * sizeof(SQLINTEGER)) : NULL;
        if (ind)
            p->ind = ind;
        if (!ival)
            return od_oom(c);
        p->ival = ival;
        p->nind = n;
    }
    for (int i = 0; i < n; i++) {
        SQLUSMALLINT k = (SQLUSMALLINT)(i + 1);
        SQLRETURN rc = SQL_ERROR;
        p->ind[i] = 0;
        switch (v[i].type) {
        case DB_T_INT:          /* INT columns: SQL Server compares INT with INT */
            if (int_param(c, v[i].i, &p->ival[i]) < 0)
                return DB_ERROR;
            rc = SQLBindParameter(h, k, SQL_PARAM_INPUT, SQL_C_SLONG, SQL_INTEGER, 0, 0,
                                  (SQLPOINTER)&p->ival[i], 0, &p->ind[i]);
            break;
        case DB_T_DOUBLE:
            rc = SQLBindParameter(h, k, SQL_PARAM_INPUT, SQL_C_DOUBLE, SQL_DOUBLE, 0, 0,
                                  (SQLPOINTER)&v[i].d, 0, &p->ind[i]);
            break;
        case DB_T_STRING:
            /* a stable declared size keeps SQL Server from re-preparing */
            p->ind[i] = (SQLLEN)v[i].len;
            rc = SQLBindParameter(h, k, SQL_PARAM_INPUT, SQL_C_CHAR, SQL_VARCHAR,
                                  v[i].len <= 255 ? 255 : v[i].len <= 8000 ? 8000 : v[i].len, 0,
                                  (SQLPOINTER)v[i].s, (SQLLEN)v[i].len, &p->ind[i]);
            break;
        case DB_T_NULL:
            p->ind[i] = SQL_NULL_DATA;
            rc = SQLBindParameter(h, k, SQL_PARAM_INPUT, SQL_C_CHAR, SQL_VARCHAR, 1, 0, NULL, 0,
                                  &p->ind[i]);
            break;
        }
        if (!SQL_SUCCEEDED(rc))
            return od_fail(c, SQL_HANDLE_STMT, h, "SQLBindParameter");
    }
    return DB_DONE;
}

static int do_exec(db_conn *c)
{
    od_priv *p = c->priv;
    const db_stmt_def *d = &c->stmts[p->stmt];
    SQLHSTMT h = p->st[p->stmt];
    SQLRETURN rc;

    if (!h) {
        if (!SQL_SUCCEEDED(SQLAllocHandle(SQL_HANDLE_STMT, p->dbc, &h)))
            return od_fail(c, SQL_HANDLE_DBC, p->dbc, "SQLAllocHandle(STMT)");
        if (!SQL_SUCCEEDED(SQLPrepare(h, (SQLCHAR *)d->sql, SQL_NTS))) {
            od_fail(c, SQL_HANDLE_STMT, h, "SQLPrepare");
            SQLFreeHandle(SQL_HANDLE_STMT, h);
            return DB_ERROR;
        }
        p->st[p->stmt] = h;
    }
    if (bind_params(c, h, p->params, d->nparams) != DB_DONE)
        return DB_ERROR;
    set_active(p, h);
    rc = SQLExecute(h);
    set_active(p, NULL);
    if (collect(c, h, rc) == DB_DONE)
        return DB_DONE;
    if (d->unique_retry && p->err.cls == DB_ERR_FATAL &&
        dialect_unique_violation(p->dialect >= 0 ? p->dialect : (int)c->cfg->dialect, p->err.code, p->err.sqlstate))
        p->err.cls = DB_ERR_RETRY;
    return DB_ERROR;
}

static int do_query(db_conn *c)
{
    od_priv *p = c->priv;
    SQLRETURN rc;
    set_active(p, p->q);
    rc = SQLExecDirect(p->q, (SQLCHAR *)p->sql, SQL_NTS);
    set_active(p, NULL);
    return collect(c, p->q, rc);
}

/* Begin, commit or roll back the ODBC way (db.h, db_trx): autocommit off
 * opens client-side transactions, SQLEndTran ends them; autocommit stays
 * off for the session, so the next statement opens the next transaction
 * (MariaDB Connector/ODBC: SET autocommit=0 once, then COMMIT/ROLLBACK;
 * psqlODBC sends BEGIN itself before the next statement; SQL Server's
 * drivers use implicit transactions or the TDS transaction requests). A
 * session that never began one keeps autocommit (workloads without
 * transactions, {CALL} procedures), and its commit or rollback has nothing
 * to end. */
static int do_trx(db_conn *c)
{
    od_priv *p = c->priv;
    int d = p->dialect >= 0 ? p->dialect : (int)c->cfg->dialect;

    if (p->trx == DB_TRX_BEGIN) {
        if (!p->manual && !SQL_SUCCEEDED(SQLSetConnectAttr(p->dbc, SQL_ATTR_AUTOCOMMIT,
                                                           (SQLPOINTER)SQL_AUTOCOMMIT_OFF, 0)))
            return od_fail(c, SQL_HANDLE_DBC, p->dbc, "SQLSetConnectAttr(AUTOCOMMIT off)");
        p->manual = true;
        return DB_DONE;
    }
    if (!p->manual)
        return DB_DONE;
    if (SQL_SUCCEEDED(SQLEndTran(SQL_HANDLE_DBC, p->dbc, p->trx == DB_TRX_COMMIT ? SQL_COMMIT : SQL_ROLLBACK)))
        return DB_DONE;
    od_fail(c, SQL_HANDLE_DBC, p->dbc, p->trx == DB_TRX_COMMIT ? "SQLEndTran(COMMIT)" : "SQLEndTran(ROLLBACK)");
    /* the server rolled back already (a deadlock victim, XACT_ABORT):
     * nothing was left to roll back, which is what was asked */
    if (p->trx == DB_TRX_ROLLBACK && d == DB_DIALECT_MSSQL && p->err.code == MSSQL_NO_TRAN)
        return DB_DONE;
    return DB_ERROR;
}

/* Column-wise parameter arrays of a bulk load. */
typedef struct od_array {
    void       *data;               /* BULK_ROWS values (strings: width + 1 bytes each) */
    SQLLEN     *ind;
    size_t      slot;               /* bytes per value */
} od_array;

/* 0 when v (not NULL) fits column i of b, else -1 (then p->err says which). */
static int bulk_fits(db_conn *c, const db_bulk *b, int i, const db_value *v)
{
    const db_bulk_col *col = &b->cols[i];
    od_priv *p = c->priv;

    if (v->type == col->type && (col->type != DB_T_STRING || v->len <= col->width))
        return 0;
    p->err = (db_error){ .sqlstate = "22001", .cls = DB_ERR_FATAL };
    snprintf(p->err.msg, sizeof p->err.msg, "%s.%s: a value does not fit the column", b->table, col->name);
    return -1;
}

/* Copy row into slot k of the arrays; -1 when a value does not fit its
 * column (then p->err says which). */
static int bulk_fill(db_conn *c, const db_bulk *b, od_array *a, const db_value *row, int k)
{
    for (int i = 0; i < b->ncols; i++) {
        const db_bulk_col *col = &b->cols[i];
        char *slot = (char *)a[i].data + (size_t)k * a[i].slot;
        if (row[i].type == DB_T_NULL) {
            a[i].ind[k] = SQL_NULL_DATA;
            continue;
        }
        if (bulk_fits(c, b, i, &row[i]) < 0)
            return -1;
        switch (col->type) {
        case DB_T_INT:
            if (int_param(c, row[i].i, (SQLINTEGER *)(void *)slot) < 0)
                return -1;
            a[i].ind[k] = 0;
            break;
        case DB_T_DOUBLE: memcpy(slot, &row[i].d, sizeof(double)); a[i].ind[k] = 0; break;
        default:
            memcpy(slot, row[i].s, row[i].len);
            a[i].ind[k] = (SQLLEN)row[i].len;
            break;
        }
    }
    return 0;
}

/* The producer of b's rows gave up (it said why): DB_ERROR. */
static int bulk_no_rows(db_conn *c, const db_bulk *b)
{
    od_priv *p = c->priv;
    p->err = (db_error){ .sqlstate = "HY000", .cls = DB_ERR_FATAL };
    snprintf(p->err.msg, sizeof p->err.msg, "the rows for %s could not be made", b->table);
    return DB_ERROR;
}

/* The 1-based position in b->table of each of b's columns, into col[]:
 * bcp_bind takes the table's column numbers. The statement is its own
 * and freed, so that FreeTDS files the server's messages during the copy
 * on the connection, not on a statement. */
static int bcp_columns(db_conn *c, const db_bulk *b, int *col)
{
    od_priv *p = c->priv;
    char sql[128], name[128];
    SQLSMALLINT n = 0, len;
    SQLHSTMT h = NULL;
    int st = DB_ERROR;

    snprintf(sql, sizeof sql, "SELECT * FROM %s WHERE 1 = 0", b->table);
    if (!SQL_SUCCEEDED(SQLAllocHandle(SQL_HANDLE_STMT, p->dbc, &h))) {
        h = NULL;
        od_fail(c, SQL_HANDLE_DBC, p->dbc, "SQLAllocHandle(STMT)");
        goto cleanup;
    }
    if (!SQL_SUCCEEDED(SQLExecDirect(h, (SQLCHAR *)sql, SQL_NTS)) ||
        !SQL_SUCCEEDED(SQLNumResultCols(h, &n))) {
        od_fail(c, SQL_HANDLE_STMT, h, sql);
        goto cleanup;
    }
    for (int i = 0; i < b->ncols; i++)
        col[i] = 0;
    for (SQLSMALLINT k = 1; k <= n; k++) {
        if (!SQL_SUCCEEDED(SQLDescribeCol(h, (SQLUSMALLINT)k, (SQLCHAR *)name, sizeof name, &len,
                                          NULL, NULL, NULL, NULL))) {
            od_fail(c, SQL_HANDLE_STMT, h, "SQLDescribeCol");
            goto cleanup;
        }
        for (int i = 0; i < b->ncols; i++)
            if (!strcasecmp(name, b->cols[i].name))
                col[i] = k;
    }
    for (int i = 0; i < b->ncols; i++)
        if (!col[i]) {
            p->err = (db_error){ .sqlstate = "42S22", .cls = DB_ERR_FATAL };
            snprintf(p->err.msg, sizeof p->err.msg, "%s has no column %s", b->table, b->cols[i].name);
            goto cleanup;
        }
    st = DB_DONE;
cleanup:
    if (h)
        SQLFreeHandle(SQL_HANDLE_STMT, h);
    return st;
}

/* Copy v into a bcp column buffer: a 4-byte length prefix (SQL_NULL_DATA
 * for NULL), then the value as bound (INT8, FLT8 or CHAR). */
static void bcp_fill(unsigned char *buf, const db_value *v)
{
    int32_t len = SQL_NULL_DATA;
    switch (v->type) {
    case DB_T_INT:    len = 8; memcpy(buf + 4, &v->i, 8); break;
    case DB_T_DOUBLE: len = 8; memcpy(buf + 4, &v->d, 8); break;
    case DB_T_STRING: len = (int32_t)v->len; memcpy(buf + 4, v->s, v->len); break;
    default:          break;
    }
    memcpy(buf, &len, 4);
}

/* Bulk copy every row of p->bulk (--bulk=bcp), committing every
 * BCP_BATCH_ROWS; b->rows counts the rows the server says it committed. */
static int do_bcp(db_conn *c)
{
    od_priv *p = c->priv;
    const odbc_bcp *f = &p->bcp;
    db_bulk *b = p->bulk;
    int *col = calloc((size_t)b->ncols, sizeof(int));
    unsigned char **buf = calloc((size_t)b->ncols, sizeof(unsigned char *));
    db_value *row = calloc((size_t)b->ncols, sizeof(db_value));
    bool open = false;
    int st = DB_ERROR, more, r;
    int64_t sent = 0;

    if (!col || !buf || !row) {
        od_oom(c);
        goto cleanup;
    }
    for (int i = 0; i < b->ncols; i++)
        if (!(buf[i] = malloc(4 + (b->cols[i].type == DB_T_STRING ? b->cols[i].width : 8)))) {
            od_oom(c);
            goto cleanup;
        }
    if (bcp_columns(c, b, col) != DB_DONE)
        goto cleanup;
    if (f->init(f->h, b->table, NULL, NULL, ODBC_BCP_IN) != ODBC_BCP_SUCCEED) {
        bcp_fail(c, "bcp_init");
        goto cleanup;
    }
    open = true;
    for (int i = 0; i < b->ncols; i++) {
        int type = b->cols[i].type == DB_T_INT ? ODBC_BCP_INT8
                 : b->cols[i].type == DB_T_DOUBLE ? ODBC_BCP_FLT8 : ODBC_BCP_CHAR;
        if (f->bind(f->h, buf[i], 4, ODBC_BCP_VARLEN, NULL, 0, type, col[i]) != ODBC_BCP_SUCCEED) {
            bcp_fail(c, "bcp_bind");
            goto cleanup;
        }
    }
    while ((more = b->next(b->ctx, row)) > 0) {
        for (int i = 0; i < b->ncols; i++) {
            if (row[i].type != DB_T_NULL && bulk_fits(c, b, i, &row[i]) < 0)
                goto cleanup;
            bcp_fill(buf[i], &row[i]);
        }
        if (f->sendrow(f->h) != ODBC_BCP_SUCCEED) {
            bcp_fail(c, "bcp_sendrow");
            goto cleanup;
        }
        if (++sent % BCP_BATCH_ROWS == 0) {
            if ((r = f->batch(f->h)) < 0) {
                bcp_fail(c, "bcp_batch");
                goto cleanup;
            }
            b->rows += r;
        }
    }
    if (more < 0) {
        bulk_no_rows(c, b);
        goto cleanup;
    }
    open = false;
    if ((r = f->done(f->h)) < 0) {
        bcp_fail(c, "bcp_done");
        goto cleanup;
    }
    b->rows += r;
    st = DB_DONE;
cleanup:
    if (open)
        f->done(f->h);      /* ends the copy; the error above is the one reported */
    for (int i = 0; buf && i < b->ncols; i++)
        free(buf[i]);
    free(buf);
    free(col);
    free(row);
    return st;
}

/* Column arrays of BULK_ROWS slots for b's columns; NULL when out of
 * memory. Freed by arrays_free(). */
static od_array *arrays_new(const db_bulk *b)
{
    od_array *a = calloc((size_t)b->ncols, sizeof(od_array));
    for (int i = 0; a && i < b->ncols; i++) {
        a[i].slot = b->cols[i].type == DB_T_STRING ? b->cols[i].width + 1
                  : b->cols[i].type == DB_T_INT ? sizeof(SQLINTEGER) : sizeof(double);
        a[i].data = calloc(BULK_ROWS, a[i].slot);
        a[i].ind = calloc(BULK_ROWS, sizeof(SQLLEN));
        if (!a[i].data || !a[i].ind) {
            for (int k = 0; k <= i; k++) {
                free(a[k].data);
                free(a[k].ind);
            }
            free(a);
            return NULL;
        }
    }
    return a;
}

static void arrays_free(od_array *a, const db_bulk *b)
{
    for (int i = 0; a && i < b->ncols; i++) {
        free(a[i].data);
        free(a[i].ind);
    }
    free(a);
}

/* Bind parameter num of h to slot k of column i's array. */
static SQLRETURN bind_slot(SQLHSTMT h, SQLUSMALLINT num, const db_bulk *b, const od_array *a, int i, int k)
{
    const db_bulk_col *col = &b->cols[i];
    void *data = (char *)a[i].data + (size_t)k * a[i].slot;

    if (col->type == DB_T_INT)
        return SQLBindParameter(h, num, SQL_PARAM_INPUT, SQL_C_SLONG, SQL_INTEGER, 0, 0, data, 0, &a[i].ind[k]);
    if (col->type == DB_T_DOUBLE)
        return SQLBindParameter(h, num, SQL_PARAM_INPUT, SQL_C_DOUBLE, SQL_DOUBLE, 0, 0, data, 0, &a[i].ind[k]);
    return SQLBindParameter(h, num, SQL_PARAM_INPUT, SQL_C_CHAR, SQL_VARCHAR, col->width ? col->width : 1, 0,
                            data, (SQLLEN)a[i].slot, &a[i].ind[k]);
}

/* Fill the arrays with up to max rows of b; their number into *n. -1
 * when a row does not fit or cannot be made (p->err says which). */
static int arrays_fill(db_conn *c, db_bulk *b, od_array *a, db_value *row, SQLULEN max, SQLULEN *n)
{
    int more = 1;

    *n = 0;
    while (*n < max && (more = b->next(b->ctx, row)) > 0)
        if (bulk_fill(c, b, a, row, (int)(*n)++) < 0)
            return -1;
    return more < 0 ? bulk_no_rows(c, b) : 0;
}

/* A prepared INSERT of `rows` row constructors whose parameters are the
 * arrays' slots 0..rows-1; NULL after p->err was set. */
static SQLHSTMT values_prepare(db_conn *c, const db_bulk *b, const od_array *a, int rows)
{
    od_priv *p = c->priv;
    char *sql = db_bulk_insert_rows_sql(b, rows);
    SQLHSTMT h = NULL;
    int num = 0;

    if (!sql) {
        od_oom(c);
        return NULL;
    }
    if (!SQL_SUCCEEDED(SQLAllocHandle(SQL_HANDLE_STMT, p->dbc, &h))) {
        od_fail(c, SQL_HANDLE_DBC, p->dbc, "SQLAllocHandle(STMT)");
        free(sql);
        return NULL;
    }
    if (!SQL_SUCCEEDED(SQLPrepare(h, (SQLCHAR *)sql, SQL_NTS)))
        goto fail;
    for (int k = 0; k < rows; k++)
        for (int i = 0; i < b->ncols; i++)
            if (!SQL_SUCCEEDED(bind_slot(h, (SQLUSMALLINT)++num, b, a, i, k)))
                goto fail;
    free(sql);
    return h;
fail:
    od_fail(c, SQL_HANDLE_STMT, h, "SQLPrepare");
    SQLFreeHandle(SQL_HANDLE_STMT, h);
    free(sql);
    return NULL;
}

/* A load's session: autocommit off, so that each chunk is a transaction
 * (bulk_commit); 0, or -1 after p->err was set. */
static int bulk_manual(db_conn *c)
{
    od_priv *p = c->priv;
    if (SQL_SUCCEEDED(SQLSetConnectAttr(p->dbc, SQL_ATTR_AUTOCOMMIT, (SQLPOINTER)SQL_AUTOCOMMIT_OFF, 0)))
        return 0;
    od_fail(c, SQL_HANDLE_DBC, p->dbc, "SQLSetConnectAttr(AUTOCOMMIT)");
    return -1;
}

/* Run a load's prepared INSERT h (cancellable) and drain its results; 0,
 * or -1 after p->err was set. */
static int bulk_execute(db_conn *c, SQLHSTMT h)
{
    od_priv *p = c->priv;
    SQLRETURN rc;
    set_active(p, h);
    rc = SQLExecute(h);
    set_active(p, NULL);
    if (!SQL_SUCCEEDED(rc)) {
        od_fail(c, SQL_HANDLE_STMT, h, "SQLExecute");
        return -1;
    }
    while (SQL_SUCCEEDED(SQLMoreResults(h)))
        ;
    return 0;
}

/* Commit the chunk h inserted; 0, or -1 after p->err was set. */
static int bulk_commit(db_conn *c, SQLHSTMT h)
{
    od_priv *p = c->priv;
    SQLFreeStmt(h, SQL_CLOSE);
    if (SQL_SUCCEEDED(SQLEndTran(SQL_HANDLE_DBC, p->dbc, SQL_COMMIT)))
        return 0;
    od_fail(c, SQL_HANDLE_DBC, p->dbc, "SQLEndTran(COMMIT)");
    return -1;
}

/* The end of a load whose session bulk_manual() changed: the open
 * transaction rolled back unless st is DB_DONE, autocommit back on (the
 * load leaves it on). Returns st, or DB_ERROR when autocommit could not
 * be restored after a load that succeeded. */
static int bulk_end(db_conn *c, bool manual, int st)
{
    od_priv *p = c->priv;
    if (!manual)
        return st;
    if (st != DB_DONE)
        SQLEndTran(SQL_HANDLE_DBC, p->dbc, SQL_ROLLBACK);
    if (!SQL_SUCCEEDED(SQLSetConnectAttr(p->dbc, SQL_ATTR_AUTOCOMMIT, (SQLPOINTER)SQL_AUTOCOMMIT_ON, 0)) &&
        st == DB_DONE)
        st = od_fail(c, SQL_HANDLE_DBC, p->dbc, "SQLSetConnectAttr(AUTOCOMMIT)");
    p->manual = false;
    return st;
}

/* --bulk=values: INSERTs of as many row constructors as VALUES_PARAMS
 * parameters allow, at most BULK_ROWS (fewer at the end), their values
 * as parameters, one transaction each. */
static int do_values(db_conn *c)
{
    od_priv *p = c->priv;
    db_bulk *b = p->bulk;
    const int per = VALUES_PARAMS / b->ncols < BULK_ROWS ? VALUES_PARAMS / b->ncols : BULK_ROWS;
    od_array *a = arrays_new(b);
    db_value *row = calloc((size_t)b->ncols, sizeof(db_value));
    SQLHSTMT full = NULL, last = NULL;
    bool manual = false;
    int st = DB_ERROR;

    if (!a || !row) {
        od_oom(c);
        goto cleanup;
    }
    if (!(full = values_prepare(c, b, a, per)))
        goto cleanup;
    if (bulk_manual(c) < 0)
        goto cleanup;
    manual = true;
    for (;;) {
        SQLULEN n;
        SQLHSTMT h = full;
        if (arrays_fill(c, b, a, row, (SQLULEN)per, &n) < 0)
            goto cleanup;
        if (n == 0)
            break;
        if (n < (SQLULEN)per && !(h = last = values_prepare(c, b, a, (int)n)))
            goto cleanup;
        if (bulk_execute(c, h) < 0 || bulk_commit(c, h) < 0)
            goto cleanup;
        b->rows += (int64_t)n;
        if (h == last)
            break;
    }
    st = DB_DONE;
cleanup:
    st = bulk_end(c, manual, st);
    if (full)
        SQLFreeHandle(SQL_HANDLE_STMT, full);
    if (last)
        SQLFreeHandle(SQL_HANDLE_STMT, last);
    arrays_free(a, b);
    free(row);
    return st;
}

/* INSERT every row of p->bulk in arrays of BULK_ROWS, committing each. */
static int do_arrays(db_conn *c)
{
    od_priv *p = c->priv;
    db_bulk *b = p->bulk;
    char *sql = db_bulk_insert_sql(b);
    od_array *a = arrays_new(b);
    db_value *row = calloc((size_t)b->ncols, sizeof(db_value));
    SQLUSMALLINT *status = calloc(BULK_ROWS, sizeof(SQLUSMALLINT));
    SQLHSTMT h = NULL;
    SQLULEN processed = 0, size = BULK_ROWS;
    bool manual = false;
    int st = DB_ERROR;

    if (!sql || !a || !row || !status) {
        od_oom(c);
        goto cleanup;
    }
    if (!SQL_SUCCEEDED(SQLAllocHandle(SQL_HANDLE_STMT, p->dbc, &h))) {
        od_fail(c, SQL_HANDLE_DBC, p->dbc, "SQLAllocHandle(STMT)");
        h = NULL;
        goto cleanup;
    }
    if (!SQL_SUCCEEDED(SQLPrepare(h, (SQLCHAR *)sql, SQL_NTS)) ||
        !SQL_SUCCEEDED(SQLSetStmtAttr(h, SQL_ATTR_PARAM_BIND_TYPE, (SQLPOINTER)SQL_PARAM_BIND_BY_COLUMN, 0)) ||
        !SQL_SUCCEEDED(SQLSetStmtAttr(h, SQL_ATTR_PARAMSET_SIZE, (SQLPOINTER)size, 0)) ||
        !SQL_SUCCEEDED(SQLSetStmtAttr(h, SQL_ATTR_PARAM_STATUS_PTR, status, 0)) ||
        !SQL_SUCCEEDED(SQLSetStmtAttr(h, SQL_ATTR_PARAMS_PROCESSED_PTR, &processed, 0))) {
        od_fail(c, SQL_HANDLE_STMT, h, "SQLPrepare");
        goto cleanup;
    }
    for (int i = 0; i < b->ncols; i++)
        if (!SQL_SUCCEEDED(bind_slot(h, (SQLUSMALLINT)(i + 1), b, a, i, 0))) {
            od_fail(c, SQL_HANDLE_STMT, h, "SQLBindParameter");
            goto cleanup;
        }
    if (bulk_manual(c) < 0)
        goto cleanup;
    manual = true;
    for (;;) {
        SQLULEN n;
        if (arrays_fill(c, b, a, row, BULK_ROWS, &n) < 0)
            goto cleanup;
        if (n == 0)
            break;
        if (n != size) {
            size = n;
            if (!SQL_SUCCEEDED(SQLSetStmtAttr(h, SQL_ATTR_PARAMSET_SIZE, (SQLPOINTER)size, 0))) {
                od_fail(c, SQL_HANDLE_STMT, h, "SQLSetStmtAttr(PARAMSET_SIZE)");
                goto cleanup;
            }
        }
        if (bulk_execute(c, h) < 0)
            goto cleanup;
        for (SQLULEN k = 0; k < n; k++)
            if (status[k] == SQL_PARAM_ERROR) {
                od_fail(c, SQL_HANDLE_STMT, h, "SQLExecute");
                goto cleanup;
            }
        if (bulk_commit(c, h) < 0)
            goto cleanup;
        b->rows += (int64_t)n;
    }
    st = DB_DONE;
cleanup:
    /* a failed array keeps the row counts of its other rows pending (SQL
     * Server's driver runs them all: SQLBindParameter's page): without
     * MARS the session refuses the rollback until they are closed */
    if (h && manual && st != DB_DONE)
        SQLFreeStmt(h, SQL_CLOSE);
    st = bulk_end(c, manual, st);
    if (h)
        SQLFreeHandle(SQL_HANDLE_STMT, h);
    arrays_free(a, b);
    free(row);
    free(status);
    free(sql);
    return st;
}

static int do_bulk(db_conn *c)
{
    return c->cfg->odbc_bulk == DB_ODBC_BCP ? do_bcp(c) : c->cfg->odbc_bulk == DB_ODBC_VALUES ? do_values(c)
         : do_arrays(c);
}

/* The connection's thread: run posted requests until free() says quit. */
static void *od_thread(void *arg)
{
    db_conn *c = arg;
    od_priv *p = c->priv;
    uint64_t one = 1;

    for (;;) {
        od_req req;
        bool reset;
        int st = DB_ERROR;

        pthread_mutex_lock(&p->lock);
        while (p->req == REQ_NONE && !p->quit)
            pthread_cond_wait(&p->cond, &p->lock);
        if (p->quit) {
            pthread_mutex_unlock(&p->lock);
            break;
        }
        req = p->req;
        reset = p->reset;
        p->reset = false;
        pthread_mutex_unlock(&p->lock);

        if (reset)
            free_session(c);
        switch (req) {
        case REQ_CONNECT: st = do_connect(c); break;
        case REQ_EXEC:    st = do_exec(c); break;
        case REQ_QUERY:   st = do_query(c); break;
        case REQ_BULK:    st = do_bulk(c); break;
        case REQ_TRX:     st = do_trx(c); break;
        case REQ_NONE:    break;
        }
        pthread_mutex_lock(&p->lock);
        p->status = st;
        p->req = REQ_NONE;
        p->busy = false;
        pthread_mutex_unlock(&p->lock);
        if (write(p->efd, &one, sizeof one) < 0)
            break;                  /* cannot happen with an eventfd below 2^64-1 */
    }
    free_session(c);
    if (p->env)
        SQLFreeHandle(SQL_HANDLE_ENV, p->env);
    p->env = NULL;
    return NULL;
}

/* --- the driver interface (loop thread) ---------------------------------- */

static int od_init(db_conn *c)
{
    od_priv *p = calloc(1, sizeof(*p));
    if (!p)
        return -1;
    p->st = calloc((size_t)(c->nstmts ? c->nstmts : 1), sizeof(SQLHSTMT));
    p->efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    if (!p->st || p->efd < 0) {
        if (p->efd >= 0)
            close(p->efd);
        free(p->st);
        free(p);
        return -1;
    }
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->cond, NULL);
    p->dialect = -1;
    p->row = -1;
    c->priv = p;
    return 0;
}

static void od_free(db_conn *c)
{
    od_priv *p = c->priv;
    if (p->started) {
        pthread_mutex_lock(&p->lock);
        p->quit = true;
        if (p->active)
            SQLCancel(p->active);   /* the one call ODBC allows from another thread */
        pthread_cond_signal(&p->cond);
        pthread_mutex_unlock(&p->lock);
        pthread_join(p->th, NULL);
    }
    close(p->efd);
    pthread_mutex_destroy(&p->lock);
    pthread_cond_destroy(&p->cond);
    free(p->sql);
    free(p->st);
    free(p->ind);
    free(p->ival);
    free(p->colbuf);
    free(p->colind);
    free(p->rows.data);
    free(p->rows.cells);
    free(p);
    c->priv = NULL;
}

/* Hand request r to the connection's thread (started on first use). */
static int post(db_conn *c, od_req r)
{
    od_priv *p = c->priv;

    if (!p->started) {
        pthread_attr_t a;
        int e;
        pthread_attr_init(&a);
        pthread_attr_setstacksize(&a, THREAD_STACK);
        e = pthread_create(&p->th, &a, od_thread, c);
        pthread_attr_destroy(&a);
        if (e) {
            db_set_error(c, e, "HY000", DB_ERR_FATAL, "cannot start an ODBC connection thread: %s",
                         strerror(e));
            return DB_ERROR;
        }
        p->started = true;
    }
    p->row = -1;
    pthread_mutex_lock(&p->lock);
    p->req = r;
    p->busy = true;
    pthread_cond_signal(&p->cond);
    pthread_mutex_unlock(&p->lock);
    c->wait = DB_WAIT_READ;
    return DB_WAIT;
}

static int od_connect_start(db_conn *c)
{
    return post(c, REQ_CONNECT);
}

static int od_exec_start(db_conn *c, int stmt, const db_value *params)
{
    od_priv *p = c->priv;
    p->stmt = stmt;
    p->params = params;
    return post(c, REQ_EXEC);
}

static int od_query_start(db_conn *c, const char *sql, size_t len)
{
    od_priv *p = c->priv;
    char *s = malloc(len + 1);
    if (!s) {
        db_set_error(c, 0, "HY001", DB_ERR_FATAL, "out of memory");
        return DB_ERROR;
    }
    memcpy(s, sql, len);
    s[len] = 0;
    free(p->sql);
    p->sql = s;
    return post(c, REQ_QUERY);
}

static int od_bulk_start(db_conn *c, db_bulk *b)
{
    od_priv *p = c->priv;
    p->bulk = b;
    return post(c, REQ_BULK);
}

static int od_trx_start(db_conn *c, db_trx op)
{
    od_priv *p = c->priv;
    bool open;

    /* a BEGIN with autocommit already off makes no ODBC call: answer it
     * here rather than wake the connection's thread */
    pthread_mutex_lock(&p->lock);
    open = op == DB_TRX_BEGIN && p->manual && !p->busy && !p->reset;
    pthread_mutex_unlock(&p->lock);
    if (open) {
        p->row = -1;
        p->rows.nrows = p->rows.ncols = 0;
        p->affected = 0;
        return DB_DONE;
    }
    p->trx = op;
    return post(c, REQ_TRX);
}

static int od_cont(db_conn *c, int events)
{
    od_priv *p = c->priv;
    uint64_t n;
    bool busy;
    int st;

    if (read(p->efd, &n, sizeof n) < 0 && errno != EAGAIN) {
        db_set_error(c, errno, "HY000", DB_ERR_FATAL, "eventfd: %s", strerror(errno));
        return DB_ERROR;
    }
    pthread_mutex_lock(&p->lock);
    busy = p->busy;
    st = p->status;
    if (!busy && st == DB_ERROR)
        c->err = p->err;
    pthread_mutex_unlock(&p->lock);
    if (busy) {
        c->wait = DB_WAIT_READ;
        return DB_WAIT;
    }
    return st;
}

static int od_fd(const db_conn *c)
{
    return ((const od_priv *)c->priv)->efd;
}

static void od_disconnect(db_conn *c)
{
    od_priv *p = c->priv;
    pthread_mutex_lock(&p->lock);
    p->reset = true;                /* done by the thread, before the next request */
    pthread_mutex_unlock(&p->lock);
    p->row = -1;
    p->rows.nrows = 0;
}

static int64_t od_num_rows(const db_conn *c)
{
    return ((const od_priv *)c->priv)->rows.nrows;
}

static int64_t od_affected_rows(const db_conn *c)
{
    return ((const od_priv *)c->priv)->affected;
}

static int od_next_row(db_conn *c)
{
    od_priv *p = c->priv;
    if (p->row + 1 >= p->rows.nrows)
        return 0;
    p->row++;
    return 1;
}

static const char *od_col(db_conn *c, int col, size_t *len)
{
    od_priv *p = c->priv;
    const od_cell *cell;
    if (p->row < 0 || p->row >= p->rows.nrows || col < 0 || col >= p->rows.ncols)
        return NULL;
    cell = &p->rows.cells[(size_t)p->row * (size_t)p->rows.ncols + (size_t)col];
    if (cell->len < 0)
        return NULL;
    if (len)
        *len = (size_t)cell->len;
    return p->rows.data + cell->off;
}

static const char *od_server_version(const db_conn *c)
{
    return ((const od_priv *)c->priv)->version;
}

static const char *od_dbms_name(const db_conn *c)
{
    const od_priv *p = c->priv;
    return p->dbms[0] ? p->dbms : NULL;
}

const struct db_driver db_driver_odbc = {
    .name = "odbc",
    .init = od_init,
    .free = od_free,
    .connect_start = od_connect_start,
    .exec_start = od_exec_start,
    .query_start = od_query_start,
    .cont = od_cont,
    .fd = od_fd,
    .disconnect = od_disconnect,
    .num_rows = od_num_rows,
    .affected_rows = od_affected_rows,
    .next_row = od_next_row,
    .col = od_col,
    .server_version = od_server_version,
    .dialect = DB_DIALECT_AUTO,
    .dbms_name = od_dbms_name,
    .bulk_start = od_bulk_start,
    .trx_start = od_trx_start,
};
