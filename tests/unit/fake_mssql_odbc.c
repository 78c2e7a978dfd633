/*
 * fake_mssql_odbc.c — a test double of SQL Server behind ODBC: a driver
 * shared object that unixODBC's real driver manager loads (named by a
 * private odbcinst.ini), so bin/oltp's drv_odbc.c runs unchanged against
 * it. It keeps no data; it keeps what SQL Server is documented to do with
 * transactions and what a SQL Server 2014 refuses:
 *
 *   - @@TRANCOUNT per session. BEGIN TRAN adds one, COMMIT takes one,
 *     ROLLBACK clears it; COMMIT/ROLLBACK with none open fail with 3902 /
 *     3903 ("... has no corresponding BEGIN TRANSACTION").
 *   - A remote procedure call (a prepared statement's SQLExecute, or a
 *     text with bound parameters: sp_prepexec / sp_executesql) whose
 *     statements change @@TRANCOUNT fails with 266 ("Transaction count
 *     after EXECUTE indicates a mismatching number of BEGIN and COMMIT
 *     statements").
 *   - Autocommit off (SQL_ATTR_AUTOCOMMIT) is IMPLICIT_TRANSACTIONS ON,
 *     as Microsoft's driver does it: the next statement opens a
 *     transaction; SQLEndTran commits or rolls back what is open and
 *     succeeds when nothing is ("IF @@TRANCOUNT > 0 ...").
 *   - A deadlock victim (error 1205, SQLSTATE 40001) is rolled back by
 *     the server: @@TRANCOUNT is 0 afterwards. The statements that fail so
 *     are chosen by DEADLOCK_AT=n,m,... (ordinals of the prepared
 *     executions of a session, from 1: the workloads' statements, not the
 *     setup's texts); a CALL of tpcc_delivery fails with its
 *     own 51205 instead, as its THROW would.
 *   - A statement that failed keeps its pending results until it is
 *     closed (SQLFreeStmt SQL_CLOSE) or drained (SQLMoreResults): until
 *     then the session (no MARS) refuses every other statement with
 *     "Connection is busy with results for another hstmt".
 *   - A {CALL} of oltp's procedures runs BEGIN TRANSACTION ... COMMIT
 *     (tpcc_neword ROLLBACK for the unused item); under implicit
 *     transactions that changes @@TRANCOUNT across the EXECUTE: 266.
 *   - Parameter arrays (SQL_ATTR_PARAMSET_SIZE > 1, bound column-wise or
 *     row-wise): each row runs and makes its own row count; a failing row
 *     (ARRAY_ERROR_AT) is marked SQL_PARAM_ERROR, the others still run.
 *   - A searched UPDATE/DELETE that matches nothing (NOROWS_AT) returns
 *     SQL_NO_DATA; procedures that send row counts (PROC_COUNTS) give two
 *     and a result set, read with SQLMoreResults, or SQL_NO_DATA first
 *     when their first write matched nothing, the rest still pending.
 *   - SQLEndTran(ROLLBACK) with nothing open succeeds (Microsoft's driver
 *     knows the server rolled back), or fails with 3903 (ENDTRAN_3903), as
 *     FreeTDS's rollback does on Babelfish.
 *   - SQL Server 2014's syntax: a bare BEGIN is an incomplete block (102),
 *     DROP ... IF EXISTS is unknown (156); the catalog's names are upper
 *     case in a case-sensitive collation (information_schema.* is 208).
 *
 * Results: a SELECT returns one row of "1" in each of its select list's
 * columns, none when a parameter is TPC-C's unused item 100001 (so the
 * spec's 1 % New-Order rollback happens); other statements affect one
 * row, and one with an OUTPUT clause (not OUTPUT ... INTO) returns that
 * row, "1" in each of its columns; a {CALL} returns nothing, as oltp's procedures do. The database's
 * files (sys.database_files) are DB_FILES below: SELECT
 * CAST(FILEPROPERTY(name, 'SpaceUsed') AS BIGINT) * 8192 FROM
 * sys.database_files WHERE type = N returns the used bytes of each file of
 * type N (0 ROWS, 1 LOG), one row each; SELECT used_log_space_in_bytes
 * FROM sys.dm_db_log_space_usage one row of LOG_USED_BYTES. TPC-C's
 * count of the customers of district 1 and of those with bad credit
 * (oltp/tpcc/tpcc_check.c, before a run) is a spec load's: 3,000 and 300.
 *
 * Connection string keys besides DRIVER: LOG=path (each session appends
 * one line of its counts there when it disconnects), DEADLOCK_AT=list,
 * NOROWS_AT=list (ordinals as DEADLOCK_AT's), ARRAY_ERROR_AT=n (the n-th
 * array row of the session, from 1), PROC_COUNTS=1, ENDTRAN_3903=1,
 * LOGIN_ERROR=native (the login fails as SQL Server's does: 4060 and 922
 * with an 18456 after them; 927, 18401 and 18456 alone), LOGIN_ERROR_FROM=n
 * (only from the process's n-th login on), READY_FILE=path (fail with
 * 4060 until the file exists).
 */
#include <ctype.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <sql.h>
#include <sqlext.h>

#define MAX_DIAG    4
#define MAX_PARAMS  64
#define MAX_COLS    64
#define MAX_DEADLOCKS 16

typedef struct diag { char state[6]; SQLINTEGER native; char msg[400]; } diag;
typedef struct diags { diag d[MAX_DIAG]; int n; } diags;

typedef struct fenv { diags dg; } fenv;

/* What one session saw, written to LOG at disconnect. */
typedef struct counts {
    long statements;        /* executions that reached the server */
    long prepared, direct;  /* SQLExecute / SQLExecDirect */
    long selects, writes, calls;
    long autocommit_off, autocommit_on;
    long commits, rollbacks;            /* SQLEndTran with a transaction open */
    long empty_commits, empty_rollbacks; /* ... with none: nothing to do */
    long deadlocks, err266, err3903, err3902, busy, syntax;
    long trx_text;          /* BEGIN/COMMIT/ROLLBACK statement texts */
    long int_params, bigint_params;
    long err51205;          /* of the deadlocks, tpcc_delivery's THROW */
    long arrays, array_rows;            /* executions with PARAMSET_SIZE > 1, their rows */
    long array_ints, array_int_sum;     /* their SQL_C_SLONG values, and the sum */
    long array_chars, array_char_bytes; /* their SQL_C_CHAR values, and their bytes */
    long array_errors;                  /* rows marked SQL_PARAM_ERROR */
    long results;           /* results handed to the client (the first and SQLMoreResults') */
    long nodata;            /* executions that returned SQL_NO_DATA (nothing affected) */
    long discarded;         /* results closed unread (SQL_CLOSE, SQLFreeHandle) */
    long proc_commits, proc_rollbacks;  /* a procedure's own COMMIT / ROLLBACK */
    long endtran_3903;      /* SQLEndTran(ROLLBACK) refused with 3903 (ENDTRAN_3903) */
} counts;

typedef struct fstmt fstmt;

typedef struct fdbc {
    diags       dg;
    bool        connected, implicit;
    int         trancount;
    fstmt      *pending;    /* statement with results not yet closed */
    char        log[512];
    long        deadlock_at[MAX_DEADLOCKS];
    int         ndeadlock;
    long        norows_at[MAX_DEADLOCKS];   /* NOROWS_AT: ordinals that match no row */
    int         nnorows;
    long        ordinal;
    long        array_error_at;     /* ARRAY_ERROR_AT: that array row (from 1) fails */
    long        array_ordinal;      /* array rows executed so far */
    bool        endtran_3903;       /* ENDTRAN_3903: SQLEndTran(ROLLBACK) with none open fails */
    bool        proc_counts;        /* PROC_COUNTS: procedures send their row counts */
    counts      n;
} fdbc;

typedef struct fparam { SQLSMALLINT ctype, sqltype; SQLPOINTER val; SQLLEN buflen, *ind; } fparam;
typedef struct fcol { SQLSMALLINT ctype; SQLPOINTER buf; SQLLEN len; SQLLEN *ind; } fcol;

struct fstmt {
    diags   dg;
    fdbc   *dbc;
    char   *sql;
    bool    prepared;
    fparam  par[MAX_PARAMS];
    fcol    col[MAX_COLS];
    int     ncols;          /* of the current result; 0 = none */
    int     rows_left;
    long long values[8];    /* the rows' values, row by row (sys.database_files,
                             * TPC-C's bad credit), */
    int     next_value;     /* the next row's (its first column's at
                             * next_value * ncols); */
    bool    has_values;     /* else each column is "1" */
    SQLLEN  rowcount;
    bool    has_result;     /* a result is open (SQLMoreResults/SQL_CLOSE end it) */
    int     more_counts;    /* row counts of 1 still to come (SQLMoreResults) */
    int     more_rows;      /* then a result set of this many "1" columns, one row */
    SQLULEN paramset;       /* SQL_ATTR_PARAMSET_SIZE (0 read as 1) */
    SQLULEN bind_type;      /* SQL_ATTR_PARAM_BIND_TYPE: 0 column-wise, else a row's size */
    SQLUSMALLINT *status;   /* SQL_ATTR_PARAM_STATUS_PTR */
    SQLULEN *processed;     /* SQL_ATTR_PARAMS_PROCESSED_PTR */
};

static void close_results(fstmt *s);

/* an implicit descriptor handle: the driver manager asks for four */
static int dummy_desc[4];

static void diag_set(diags *g, const char *state, SQLINTEGER native, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void diag_set(diags *g, const char *state, SQLINTEGER native, const char *fmt, ...)
{
    va_list ap;
    diag *d;
    if (g->n >= MAX_DIAG)
        return;
    d = &g->d[g->n++];
    snprintf(d->state, sizeof d->state, "%s", state);
    d->native = native;
    va_start(ap, fmt);
    {
        char text[300];
        vsnprintf(text, sizeof text, fmt, ap);
        snprintf(d->msg, sizeof d->msg, "[drivebench][fake SQL Server]%s", text);
    }
    va_end(ap);
}

static diags *diags_of(SQLSMALLINT type, SQLHANDLE h)
{
    switch (type) {
    case SQL_HANDLE_ENV:  return &((fenv *)h)->dg;
    case SQL_HANDLE_DBC:  return &((fdbc *)h)->dg;
    case SQL_HANDLE_STMT: return &((fstmt *)h)->dg;
    }
    return NULL;
}

/* --- connection string -------------------------------------------------- */

/* Value of KEY in a "K=V;K=V" string into out; false when absent. */
static bool conn_value(const char *s, const char *key, char *out, size_t len)
{
    size_t k = strlen(key);
    while (s && *s) {
        const char *end = strchr(s, ';');
        size_t n = end ? (size_t)(end - s) : strlen(s);
        if (n > k && !strncasecmp(s, key, k) && s[k] == '=') {
            snprintf(out, len, "%.*s", (int)(n - k - 1), s + k + 1);
            return true;
        }
        s = end ? end + 1 : NULL;
    }
    return false;
}

/* --- handles ------------------------------------------------------------ */

SQLRETURN SQL_API SQLAllocHandle(SQLSMALLINT type, SQLHANDLE in, SQLHANDLE *out)
{
    void *h = NULL;
    switch (type) {
    case SQL_HANDLE_ENV:  h = calloc(1, sizeof(fenv)); break;
    case SQL_HANDLE_DBC:  h = calloc(1, sizeof(fdbc)); break;
    case SQL_HANDLE_STMT:
        if ((h = calloc(1, sizeof(fstmt))))
            ((fstmt *)h)->dbc = in;
        break;
    default: return SQL_ERROR;
    }
    *out = h;
    return h ? SQL_SUCCESS : SQL_ERROR;
}

static void write_log(fdbc *c)
{
    char line[2048];
    int fd, n;
    const counts *k = &c->n;
    if (!c->log[0])
        return;
    n = snprintf(line, sizeof line,
                 "session statements=%ld prepared=%ld direct=%ld selects=%ld writes=%ld calls=%ld "
                 "autocommit_off=%ld autocommit_on=%ld commits=%ld rollbacks=%ld empty_commits=%ld "
                 "empty_rollbacks=%ld deadlocks=%ld err266=%ld err3903=%ld err3902=%ld busy=%ld syntax=%ld "
                 "trx_text=%ld int_params=%ld bigint_params=%ld err51205=%ld arrays=%ld array_rows=%ld "
                 "array_ints=%ld array_int_sum=%ld array_chars=%ld array_char_bytes=%ld array_errors=%ld "
                 "results=%ld nodata=%ld discarded=%ld proc_commits=%ld proc_rollbacks=%ld "
                 "endtran_3903=%ld\n",
                 k->statements, k->prepared, k->direct, k->selects, k->writes, k->calls, k->autocommit_off,
                 k->autocommit_on, k->commits, k->rollbacks, k->empty_commits, k->empty_rollbacks,
                 k->deadlocks, k->err266, k->err3903, k->err3902, k->busy, k->syntax, k->trx_text,
                 k->int_params, k->bigint_params, k->err51205, k->arrays, k->array_rows, k->array_ints,
                 k->array_int_sum, k->array_chars, k->array_char_bytes, k->array_errors, k->results,
                 k->nodata, k->discarded, k->proc_commits, k->proc_rollbacks, k->endtran_3903);
    /* one write of a short line with O_APPEND: sessions of many threads
     * never interleave */
    if ((fd = open(c->log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644)) >= 0) {
        if (write(fd, line, (size_t)n) != n)
            perror("fake SQL Server: LOG");
        close(fd);
    }
}

SQLRETURN SQL_API SQLFreeHandle(SQLSMALLINT type, SQLHANDLE h)
{
    if (type == SQL_HANDLE_STMT) {
        fstmt *s = h;
        if (s->dbc)
            close_results(s);
        free(s->sql);
    }
    free(h);
    return SQL_SUCCESS;
}

SQLRETURN SQL_API SQLSetEnvAttr(SQLHENV env, SQLINTEGER attr, SQLPOINTER v, SQLINTEGER len)
{
    return SQL_SUCCESS;
}

SQLRETURN SQL_API SQLGetEnvAttr(SQLHENV env, SQLINTEGER attr, SQLPOINTER v, SQLINTEGER len, SQLINTEGER *out)
{
    if (attr == SQL_ATTR_ODBC_VERSION && v)
        *(SQLINTEGER *)v = SQL_OV_ODBC3;
    return SQL_SUCCESS;
}

/* --- sessions ----------------------------------------------------------- */

/* A list of ordinals "n,m,..." into out (at most MAX_DEADLOCKS); their count. */
static int ordinals(char *v, long *out)
{
    int n = 0;
    for (char *p = v, *e; *p && n < MAX_DEADLOCKS; p = *e ? e + 1 : e) {
        out[n] = strtol(p, &e, 10);
        if (e == p)
            break;
        n++;
    }
    return n;
}

/* Logins this process made (LOGIN_ERROR_FROM counts them). */
static long logins;

static SQLRETURN login(fdbc *c, const char *cs)
{
    char v[512];
    long err = 0, nth = __atomic_add_fetch(&logins, 1, __ATOMIC_RELAXED);

    c->dg.n = 0;
    if (conn_value(cs, "LOGIN_ERROR", v, sizeof v))
        err = atol(v);
    if (conn_value(cs, "LOGIN_ERROR_FROM", v, sizeof v) && nth < atol(v))
        err = 0;
    if (conn_value(cs, "READY_FILE", v, sizeof v) && access(v, F_OK) != 0)
        err = 4060;
    if (err == 4060 || err == 922) {
        if (err == 4060)
            diag_set(&c->dg, "42000", 4060, "Cannot open database \"sbtest\" requested by the login. "
                     "The login failed.");
        else
            diag_set(&c->dg, "42000", 922, "Database 'sbtest' is being recovered. Waiting until recovery "
                     "is finished.");
        diag_set(&c->dg, "28000", 18456, "Login failed for user 'sa'.");
        return SQL_ERROR;
    }
    /* each alone, as the client sees it: a database in a restore (927),
     * the upgrade scripts after an update (18401), and 18456, which SQL
     * Server sends alike for a wrong password and for a paused service
     * (the reason, state 13 "service is paused", goes to its error log
     * only) */
    if (err == 927) {
        diag_set(&c->dg, "42000", 927, "Database 'sbtest' cannot be opened. It is in the middle of a "
                 "restore.");
        return SQL_ERROR;
    }
    if (err == 18401) {
        diag_set(&c->dg, "28000", 18401, "Login failed for user 'sa'. Reason: Server is in script upgrade "
                 "mode. Only administrator can connect at this time.");
        return SQL_ERROR;
    }
    if (err == 18456) {
        diag_set(&c->dg, "28000", 18456, "Login failed for user 'sa'.");
        return SQL_ERROR;
    }
    if (conn_value(cs, "LOG", v, sizeof v))
        snprintf(c->log, sizeof c->log, "%s", v);
    if (conn_value(cs, "DEADLOCK_AT", v, sizeof v))
        c->ndeadlock = ordinals(v, c->deadlock_at);
    if (conn_value(cs, "NOROWS_AT", v, sizeof v))
        c->nnorows = ordinals(v, c->norows_at);
    if (conn_value(cs, "ARRAY_ERROR_AT", v, sizeof v))
        c->array_error_at = atol(v);
    c->endtran_3903 = conn_value(cs, "ENDTRAN_3903", v, sizeof v) && atoi(v);
    c->proc_counts = conn_value(cs, "PROC_COUNTS", v, sizeof v) && atoi(v);
    c->connected = true;
    return SQL_SUCCESS;
}

SQLRETURN SQL_API SQLDriverConnect(SQLHDBC h, SQLHWND w, SQLCHAR *in, SQLSMALLINT inlen, SQLCHAR *out,
                                   SQLSMALLINT outmax, SQLSMALLINT *outlen, SQLUSMALLINT completion)
{
    char cs[2048];
    snprintf(cs, sizeof cs, "%.*s", inlen == SQL_NTS ? (int)strlen((char *)in) : (int)inlen, (char *)in);
    if (out && outmax > 0)
        snprintf((char *)out, (size_t)outmax, "%s", cs);
    if (outlen)
        *outlen = (SQLSMALLINT)strlen(cs);
    return login(h, cs);
}

SQLRETURN SQL_API SQLConnect(SQLHDBC h, SQLCHAR *dsn, SQLSMALLINT n1, SQLCHAR *uid, SQLSMALLINT n2,
                             SQLCHAR *pwd, SQLSMALLINT n3)
{
    return login(h, "");
}

SQLRETURN SQL_API SQLDisconnect(SQLHDBC h)
{
    fdbc *c = h;
    if (c->connected)
        write_log(c);
    c->connected = false;
    return SQL_SUCCESS;
}

SQLRETURN SQL_API SQLSetConnectAttr(SQLHDBC h, SQLINTEGER attr, SQLPOINTER v, SQLINTEGER len)
{
    fdbc *c = h;
    c->dg.n = 0;
    if (attr == SQL_ATTR_AUTOCOMMIT) {
        bool off = (SQLULEN)v == SQL_AUTOCOMMIT_OFF;
        if (c->pending) {
            c->n.busy++;
            diag_set(&c->dg, "HY000", 0, "Connection is busy with results for another hstmt");
            return SQL_ERROR;
        }
        if (off)
            c->n.autocommit_off++;
        else
            c->n.autocommit_on++;
        /* autocommit back on commits what is open, as SQL Server's driver does */
        if (!off && c->trancount > 0) {
            c->trancount = 0;
            c->n.commits++;
        }
        c->implicit = off;
    }
    return SQL_SUCCESS;
}

SQLRETURN SQL_API SQLGetConnectAttr(SQLHDBC h, SQLINTEGER attr, SQLPOINTER v, SQLINTEGER len, SQLINTEGER *out)
{
    fdbc *c = h;
    if (attr == SQL_ATTR_AUTOCOMMIT && v)
        *(SQLUINTEGER *)v = c->implicit ? SQL_AUTOCOMMIT_OFF : SQL_AUTOCOMMIT_ON;
    return SQL_SUCCESS;
}

SQLRETURN SQL_API SQLGetInfo(SQLHDBC h, SQLUSMALLINT type, SQLPOINTER v, SQLSMALLINT len, SQLSMALLINT *out)
{
    const char *s = NULL;
    switch (type) {
    case SQL_DBMS_NAME:        s = "Microsoft SQL Server"; break;
    case SQL_DBMS_VER:         s = "12.00.2000"; break;     /* SQL Server 2014 RTM */
    case SQL_DRIVER_ODBC_VER:  s = "03.52"; break;
    case SQL_DRIVER_NAME:      s = "fake_mssql_odbc.so"; break;
    case SQL_DRIVER_VER:       s = "01.00.0000"; break;
    case SQL_CURSOR_COMMIT_BEHAVIOR:
    case SQL_CURSOR_ROLLBACK_BEHAVIOR:
        if (v)
            *(SQLUSMALLINT *)v = SQL_CB_PRESERVE;
        return SQL_SUCCESS;
    case SQL_GETDATA_EXTENSIONS: case SQL_ASYNC_MODE:
        if (v)
            *(SQLUINTEGER *)v = 0;
        return SQL_SUCCESS;
    default:
        if (v && len >= (SQLSMALLINT)sizeof(SQLUINTEGER))
            memset(v, 0, sizeof(SQLUINTEGER));
        return SQL_SUCCESS;
    }
    if (v && len > 0)
        snprintf(v, (size_t)len, "%s", s);
    if (out)
        *out = (SQLSMALLINT)strlen(s);
    return SQL_SUCCESS;
}

SQLRETURN SQL_API SQLEndTran(SQLSMALLINT type, SQLHANDLE h, SQLSMALLINT op)
{
    fdbc *c = h;
    if (type != SQL_HANDLE_DBC)
        return SQL_ERROR;
    c->dg.n = 0;
    if (c->pending) {
        c->n.busy++;
        diag_set(&c->dg, "HY000", 0, "Connection is busy with results for another hstmt");
        return SQL_ERROR;
    }
    if (c->trancount == 0) {
        if (op == SQL_COMMIT)
            c->n.empty_commits++;
        else
            c->n.empty_rollbacks++;
        /* FreeTDS sends the rollback whatever the server did, and Babelfish
         * (issue 30) answers a deadlock victim's with 3903 */
        if (op == SQL_ROLLBACK && c->endtran_3903) {
            c->n.endtran_3903++;
            diag_set(&c->dg, "25000", 3903, "The ROLLBACK TRANSACTION request has no corresponding BEGIN "
                     "TRANSACTION.");
            return SQL_ERROR;
        }
        return SQL_SUCCESS;
    }
    c->trancount = 0;
    if (op == SQL_COMMIT)
        c->n.commits++;
    else
        c->n.rollbacks++;
    return SQL_SUCCESS;
}

/* --- statements --------------------------------------------------------- */

SQLRETURN SQL_API SQLSetStmtAttr(SQLHSTMT h, SQLINTEGER attr, SQLPOINTER v, SQLINTEGER len)
{
    fstmt *s = h;
    switch (attr) {
    case SQL_ATTR_PARAMSET_SIZE:
        if ((SQLULEN)v == 0) {
            diag_set(&s->dg, "HY024", 0, "Invalid attribute value");
            return SQL_ERROR;
        }
        s->paramset = (SQLULEN)v;
        break;
    case SQL_ATTR_PARAM_BIND_TYPE:      s->bind_type = (SQLULEN)v; break;
    case SQL_ATTR_PARAM_STATUS_PTR:     s->status = v; break;
    case SQL_ATTR_PARAMS_PROCESSED_PTR: s->processed = v; break;
    }
    return SQL_SUCCESS;
}

SQLRETURN SQL_API SQLGetStmtAttr(SQLHSTMT h, SQLINTEGER attr, SQLPOINTER v, SQLINTEGER len, SQLINTEGER *out)
{
    switch (attr) {
    case SQL_ATTR_APP_ROW_DESC:   *(SQLPOINTER *)v = &dummy_desc[0]; break;
    case SQL_ATTR_APP_PARAM_DESC: *(SQLPOINTER *)v = &dummy_desc[1]; break;
    case SQL_ATTR_IMP_ROW_DESC:   *(SQLPOINTER *)v = &dummy_desc[2]; break;
    case SQL_ATTR_IMP_PARAM_DESC: *(SQLPOINTER *)v = &dummy_desc[3]; break;
    default: if (v) *(SQLULEN *)v = 0;
    }
    return SQL_SUCCESS;
}

SQLRETURN SQL_API SQLPrepare(SQLHSTMT h, SQLCHAR *sql, SQLINTEGER len)
{
    fstmt *s = h;
    s->dg.n = 0;
    free(s->sql);
    s->sql = len == SQL_NTS ? strdup((char *)sql) : strndup((char *)sql, (size_t)len);
    s->prepared = true;
    return s->sql ? SQL_SUCCESS : SQL_ERROR;
}

SQLRETURN SQL_API SQLBindParameter(SQLHSTMT h, SQLUSMALLINT n, SQLSMALLINT io, SQLSMALLINT ctype,
                                   SQLSMALLINT sqltype, SQLULEN size, SQLSMALLINT digits, SQLPOINTER val,
                                   SQLLEN buflen, SQLLEN *ind)
{
    fstmt *s = h;
    if (n < 1 || n > MAX_PARAMS)
        return SQL_ERROR;
    s->par[n - 1] = (fparam){ ctype, sqltype, val, buflen, ind };
    return SQL_SUCCESS;
}

SQLRETURN SQL_API SQLBindCol(SQLHSTMT h, SQLUSMALLINT n, SQLSMALLINT ctype, SQLPOINTER buf, SQLLEN len,
                             SQLLEN *ind)
{
    fstmt *s = h;
    if (n < 1 || n > MAX_COLS)
        return SQL_ERROR;
    s->col[n - 1] = (fcol){ ctype, buf, len, ind };
    return SQL_SUCCESS;
}

static bool at_any(const char *p, const char *const *words)
{
    for (; *words; words++)
        if (!strncasecmp(p, *words, strlen(*words)))
            return true;
    return false;
}

/* Items of a list from P: top-level commas up to a top-level word of
 * ENDS; 0 where a top-level " INTO " comes first and INTO_IS_NONE. */
static int list_items(const char *p, const char *const *ends, bool into_is_none)
{
    int depth = 0, n = 1;
    for (; *p; p++) {
        if (*p == '(')
            depth++;
        else if (*p == ')')
            depth--;
        else if (depth == 0 && *p == ',')
            n++;
        else if (depth == 0 && into_is_none && !strncasecmp(p, " INTO ", 6))
            return 0;
        else if (depth == 0 && at_any(p, ends))
            break;
    }
    return n < MAX_COLS ? n : MAX_COLS;
}

/* Columns of the select list: top-level commas between SELECT and FROM. */
static int select_columns(const char *sql)
{
    static const char *const ends[] = { " FROM ", NULL };
    return list_items(sql + 6, ends, false);
}

/* Columns of a write's OUTPUT clause (top-level commas up to WHERE,
 * FROM or VALUES); 0 without one, or with OUTPUT ... INTO. */
static int output_columns(const char *sql)
{
    static const char *const ends[] = { " WHERE ", " FROM ", " VALUES", NULL };
    const char *p = strcasestr(sql, " OUTPUT ");
    return p ? list_items(p + 8, ends, true) : 0;
}

static bool starts(const char *s, const char *word)
{
    size_t n = strlen(word);
    return !strncasecmp(s, word, n) && (s[n] == 0 || !isalnum((unsigned char)s[n]));
}

/* Does a bound parameter hold TPC-C's unused item? */
static bool unused_item(const fstmt *s)
{
    for (int i = 0; i < MAX_PARAMS; i++) {
        const fparam *p = &s->par[i];
        if (!p->val || (p->ind && *p->ind == SQL_NULL_DATA))
            continue;
        if ((p->ctype == SQL_C_SLONG && *(SQLINTEGER *)p->val == 100001) ||
            (p->ctype == SQL_C_SBIGINT && *(SQLBIGINT *)p->val == 100001))
            return true;
    }
    return false;
}

static void count_params(fstmt *s, int max)
{
    for (int i = 0; i < max; i++) {
        if (!s->par[i].val && !s->par[i].ind)
            continue;
        if (s->par[i].sqltype == SQL_INTEGER)
            s->dbc->n.int_params++;
        else if (s->par[i].sqltype == SQL_BIGINT)
            s->dbc->n.bigint_params++;
    }
}

static bool params_bound(const fstmt *s)
{
    for (int i = 0; i < MAX_PARAMS; i++)
        if (s->par[i].val || s->par[i].ind)
            return true;
    return false;
}

/* The database's files as sys.database_files lists them: type (0 ROWS,
 * 1 LOG), size and pages used (FILEPROPERTY's SpaceUsed) in 8 KiB pages:
 * two data files, pre-sized larger than their data, and a log. */
static const struct { int type; long long pages, used; } DB_FILES[] = {
    { 0, 12800, 9600 }, { 0, 3200, 1600 }, { 1, 1024, 0 },
};
#define LOG_USED_BYTES 3145728LL    /* sys.dm_db_log_space_usage */

/* The size statements of the mssql dialect (oltp/drivers/dialect.c):
 * true, with the rows in s->values; false for any other statement. */
static bool database_files(fstmt *s, const char *q)
{
    static const char head[] = "SELECT CAST(FILEPROPERTY(name, 'SpaceUsed') AS BIGINT) * 8192 "
                               "FROM sys.database_files WHERE type = ";
    static const char log[] = "SELECT used_log_space_in_bytes FROM sys.dm_db_log_space_usage";
    int type = -1;
    if (strcmp(q, log) &&
        (strncmp(q, head, sizeof head - 1) || sscanf(q + sizeof head - 1, "%d", &type) != 1))
        return false;
    s->ncols = 1;
    s->rows_left = 0;
    s->next_value = 0;
    s->has_values = true;
    if (type < 0)
        s->values[s->rows_left++] = LOG_USED_BYTES;
    for (size_t i = 0; type >= 0 && i < sizeof DB_FILES / sizeof DB_FILES[0]; i++)
        if (DB_FILES[i].type == type)
            s->values[s->rows_left++] = DB_FILES[i].used * 8192;
    return true;
}

/* The customers of district 1 of warehouse 1 and those with bad credit
 * (tpcc_check.c's mode check): true, with a spec load's row in s->values;
 * false for any other statement. */
static bool bad_credit(fstmt *s, const char *q)
{
    if (strcmp(q, "SELECT COUNT(*), SUM(CASE WHEN c_credit = 'BC' THEN 1 ELSE 0 END) "
               "FROM customer WHERE c_w_id = 1 AND c_d_id = 1"))
        return false;
    s->ncols = 2;
    s->rows_left = 1;
    s->next_value = 0;
    s->has_values = true;
    s->values[0] = 3000;
    s->values[1] = 300;
    return true;
}

/* The bytes of one value of a parameter of C type t bound with buflen. */
static size_t value_size(SQLSMALLINT t, SQLLEN buflen)
{
    switch (t) {
    case SQL_C_SLONG:   return sizeof(SQLINTEGER);
    case SQL_C_SBIGINT: return sizeof(SQLBIGINT);
    case SQL_C_DOUBLE:  return sizeof(double);
    }
    return (size_t)buflen;
}

/* An INSERT with SQL_ATTR_PARAMSET_SIZE rows of parameters, bound
 * column-wise (each parameter an array of values and of indicators) or
 * row-wise (SQL_ATTR_PARAM_BIND_TYPE: a row's size; each address moves by
 * it), as "Binding Arrays of Parameters" (ODBC) lays them out. Each row
 * runs as its own statement and makes its own row count (SQLMoreResults
 * steps through them). A row that fails (ARRAY_ERROR_AT) is marked
 * SQL_PARAM_ERROR and the rest still run, as SQL Server's driver does
 * ("continues to execute the statement for the remaining array elements":
 * its SQLBindParameter page); SQLExecute then returns SQL_ERROR. */
static SQLRETURN run_array(fstmt *s)
{
    fdbc *c = s->dbc;
    SQLULEN n = s->paramset;
    int failed = 0;

    c->n.arrays++;
    for (SQLULEN k = 0; k < n; k++) {
        bool bad = ++c->array_ordinal == c->array_error_at;
        for (int i = 0; !bad && i < MAX_PARAMS; i++) {
            const fparam *p = &s->par[i];
            size_t step = s->bind_type ? s->bind_type : value_size(p->ctype, p->buflen);
            const char *v;
            SQLLEN ind;
            if (!p->val && !p->ind)
                continue;
            ind = p->ind ? *(const SQLLEN *)(const void *)((const char *)p->ind +
                              k * (s->bind_type ? s->bind_type : sizeof(SQLLEN))) : SQL_NTS;
            if (ind == SQL_NULL_DATA || !p->val)
                continue;
            v = (const char *)p->val + k * step;
            if (p->ctype == SQL_C_SLONG) {
                c->n.array_ints++;
                c->n.array_int_sum += *(const SQLINTEGER *)(const void *)v;
            } else if (p->ctype == SQL_C_CHAR) {
                c->n.array_chars++;
                c->n.array_char_bytes += ind == SQL_NTS ? (long)strnlen(v, (size_t)p->buflen) : (long)ind;
            }
        }
        if (bad) {
            c->n.array_errors++;
            failed++;
            diag_set(&s->dg, "23000", 2627, "Violation of PRIMARY KEY constraint 'PK_t'. Cannot insert "
                     "duplicate key in object 'dbo.t'.");
        } else {
            c->n.array_rows++;
            c->n.writes++;
        }
        if (s->status)
            s->status[k] = bad ? SQL_PARAM_ERROR : SQL_PARAM_SUCCESS;
    }
    if (s->processed)
        *s->processed = n;
    s->rowcount = 1;
    s->more_counts = (int)n - 1 - failed;
    return failed ? SQL_ERROR : SQL_SUCCESS;
}

/* A {CALL} of one of oltp's procedures: each runs BEGIN TRANSACTION ...
 * COMMIT TRANSACTION, tpcc_neword a ROLLBACK TRANSACTION instead for the
 * unused item. Under IMPLICIT_TRANSACTIONS ON (autocommit off) the BEGIN
 * first opens the implicit transaction, then its own ("two nested
 * transactions", SET IMPLICIT_TRANSACTIONS); a procedure that ends with
 * another @@TRANCOUNT than it began with fails with 266 ("Rollbacks and
 * Commits in Stored Procedures and Triggers"). With PROC_COUNTS on the
 * procedure (no SET NOCOUNT ON) sends a row count for two writes, then a
 * result set; a NOROWS_AT ordinal makes the first write match nothing,
 * so SQLExecute says SQL_NO_DATA and the other two results still wait
 * (nanodbc#33 shows SQL Server doing so). */
static SQLRETURN call(fstmt *s, const char *q, int before, bool norows)
{
    fdbc *c = s->dbc;
    c->n.calls++;
    c->trancount++;
    if (strstr(q, "tpcc_neword") && unused_item(s)) {
        c->n.proc_rollbacks++;
        c->trancount = 0;
    } else {
        c->n.proc_commits++;
        c->trancount--;
    }
    if (c->trancount != before) {
        c->n.err266++;
        diag_set(&s->dg, "25000", 266, "Transaction count after EXECUTE indicates a mismatching number of "
                 "BEGIN and COMMIT statements. Previous count = %d, current count = %d.", before,
                 c->trancount);
        return SQL_ERROR;
    }
    if (!c->proc_counts)
        return SQL_SUCCESS;
    s->more_counts = 1;
    s->more_rows = 1;
    if (!norows) {
        s->rowcount = 1;
        return SQL_SUCCESS;
    }
    c->n.nodata++;
    s->rowcount = 0;
    s->has_result = true;
    c->pending = s;
    return SQL_NO_DATA;
}

/* Run s->sql as SQL Server would; rpc: a prepared or parameterised call. */
static SQLRETURN run(fstmt *s, bool rpc)
{
    fdbc *c = s->dbc;
    const char *q = s->sql;
    int before = c->trancount;
    bool explicit = false, norows = false;

    s->dg.n = 0;
    /* a session without MARS has one stream: another statement's results,
     * or this one's not yet read, must be closed or drained first */
    if (c->pending && (c->pending != s || s->more_counts || s->more_rows)) {
        c->n.busy++;
        diag_set(&s->dg, "HY000", 0, "Connection is busy with results for another hstmt");
        return SQL_ERROR;
    }
    s->ncols = 0;
    s->rows_left = 0;
    s->has_values = false;
    s->rowcount = -1;
    s->has_result = false;
    s->more_counts = s->more_rows = 0;
    c->pending = NULL;
    while (isspace((unsigned char)*q))
        q++;
    c->n.statements++;
    if (s->prepared)
        c->ordinal++;
    count_params(s, MAX_PARAMS);
    for (int i = 0; s->prepared && i < c->ndeadlock; i++)
        if (c->deadlock_at[i] == c->ordinal) {
            bool delivery = strstr(q, "tpcc_delivery") != NULL;
            c->n.deadlocks++;
            c->trancount = 0;                   /* the victim is rolled back */
            if (delivery && ++c->n.err51205)
                diag_set(&s->dg, "42000", 51205, "Delivery: another terminal delivered the order first");
            else
                diag_set(&s->dg, "40001", 1205, "Transaction (Process ID 53) was deadlocked on lock resources "
                         "with another process and has been chosen as the deadlock victim. Rerun the "
                         "transaction.");
            goto failed;
        }
    for (int i = 0; s->prepared && i < c->nnorows; i++)
        norows |= c->norows_at[i] == c->ordinal;
    if (starts(q, "BEGIN") && !starts(q + 5 + strspn(q + 5, " "), "TRAN") &&
        !starts(q + 5 + strspn(q + 5, " "), "TRANSACTION")) {
        c->n.syntax++;
        diag_set(&s->dg, "42000", 102, "Incorrect syntax near 'BEGIN'.");
        goto failed;
    }
    if (!strncasecmp(q, "DROP TABLE IF EXISTS", 20) || !strncasecmp(q, "DROP PROCEDURE IF EXISTS", 24)) {
        c->n.syntax++;
        diag_set(&s->dg, "42000", 156, "Incorrect syntax near the keyword 'IF'.");
        goto failed;
    }
    if (strstr(q, "information_schema.") || strstr(q, "routine_name")) {
        c->n.syntax++;
        diag_set(&s->dg, "42S02", 208, "Invalid object name 'information_schema.routines'.");
        goto failed;
    }
    if (starts(q, "BEGIN")) {
        explicit = true;
        c->n.trx_text++;
        c->trancount++;
    } else if (starts(q, "COMMIT")) {
        explicit = true;
        c->n.trx_text++;
        if (c->trancount == 0) {
            c->n.err3902++;
            diag_set(&s->dg, "25000", 3902, "The COMMIT TRANSACTION request has no corresponding BEGIN "
                     "TRANSACTION.");
            goto failed;
        }
        c->trancount--;
    } else if (starts(q, "ROLLBACK")) {
        explicit = true;
        c->n.trx_text++;
        if (c->trancount == 0) {
            c->n.err3903++;
            diag_set(&s->dg, "25000", 3903, "The ROLLBACK TRANSACTION request has no corresponding BEGIN "
                     "TRANSACTION.");
            goto failed;
        }
        c->trancount = 0;
    } else {
        /* IMPLICIT_TRANSACTIONS ON: a statement opens a transaction */
        if (c->implicit && c->trancount == 0)
            c->trancount = 1;
        if (starts(q, "{CALL") || starts(q, "{ CALL") || starts(q, "EXEC")) {
            SQLRETURN rc = call(s, q, before, norows);
            if (rc == SQL_ERROR)
                goto failed;
            if (rc == SQL_NO_DATA)
                return SQL_NO_DATA;
        } else if (starts(q, "SELECT") && (database_files(s, q) || bad_credit(s, q))) {
            c->n.selects++;
        } else if (starts(q, "SELECT")) {
            c->n.selects++;
            s->ncols = select_columns(q);
            s->rows_left = unused_item(s) ? 0 : 1;
        } else if (s->paramset > 1 && params_bound(s)) {
            if (run_array(s) != SQL_SUCCESS)
                goto failed;
        } else if (norows && (starts(q, "UPDATE") || starts(q, "DELETE")) && !output_columns(q)) {
            /* a searched UPDATE/DELETE that matched nothing: SQL_NO_DATA
             * in ODBC 3 ("Returning SQL_NO_DATA", ODBC appendix G); its
             * results end there */
            c->n.writes++;
            c->n.nodata++;
            s->rowcount = 0;
            return SQL_NO_DATA;
        } else {
            c->n.writes++;
            s->rowcount = 1;
            if ((s->ncols = output_columns(q)) > 0)
                s->rows_left = 1;
        }
    }
    if (explicit && rpc && c->trancount != before) {
        c->n.err266++;
        diag_set(&s->dg, "25000", 266, "Transaction count after EXECUTE indicates a mismatching number of "
                 "BEGIN and COMMIT statements. Previous count = %d, current count = %d.", before,
                 c->trancount);
        goto failed;
    }
    s->has_result = true;
    c->pending = s;
    c->n.results++;
    return SQL_SUCCESS;
failed:
    /* the error's done token and what follows wait to be read */
    s->has_result = true;
    c->pending = s;
    return SQL_ERROR;
}

SQLRETURN SQL_API SQLExecute(SQLHSTMT h)
{
    fstmt *s = h;
    if (!s->prepared || !s->sql)
        return SQL_ERROR;
    s->dbc->n.prepared++;
    return run(s, true);
}

SQLRETURN SQL_API SQLExecDirect(SQLHSTMT h, SQLCHAR *sql, SQLINTEGER len)
{
    fstmt *s = h;
    free(s->sql);
    s->sql = len == SQL_NTS ? strdup((char *)sql) : strndup((char *)sql, (size_t)len);
    s->prepared = false;
    if (!s->sql)
        return SQL_ERROR;
    s->dbc->n.direct++;
    return run(s, params_bound(s));
}

SQLRETURN SQL_API SQLNumResultCols(SQLHSTMT h, SQLSMALLINT *n)
{
    *n = (SQLSMALLINT)((fstmt *)h)->ncols;
    return SQL_SUCCESS;
}

SQLRETURN SQL_API SQLRowCount(SQLHSTMT h, SQLLEN *n)
{
    *n = ((fstmt *)h)->rowcount;
    return SQL_SUCCESS;
}

SQLRETURN SQL_API SQLFetch(SQLHSTMT h)
{
    fstmt *s = h;
    if (s->ncols == 0 || s->rows_left == 0)
        return SQL_NO_DATA;
    s->rows_left--;
    for (int i = 0; i < s->ncols; i++) {
        fcol *k = &s->col[i];
        char v[24] = "1";
        if (!k->buf)
            continue;
        if (s->has_values)      /* the rows in order: rows_left counts down */
            snprintf(v, sizeof v, "%lld", s->values[s->next_value * s->ncols + i]);
        if (k->ctype == SQL_C_CHAR && k->len > (SQLLEN)strlen(v))
            memcpy(k->buf, v, strlen(v) + 1);
        if (k->ind)
            *k->ind = (SQLLEN)strlen(v);
    }
    s->next_value++;
    return SQL_SUCCESS;
}

/* The end of the results: the session is free again. */
static void close_results(fstmt *s)
{
    s->dbc->n.discarded += s->more_counts + (s->more_rows > 0);
    s->more_counts = s->more_rows = 0;
    s->has_result = false;
    s->ncols = 0;
    s->rows_left = 0;
    if (s->dbc->pending == s)
        s->dbc->pending = NULL;
}

SQLRETURN SQL_API SQLMoreResults(SQLHSTMT h)
{
    fstmt *s = h;
    s->dg.n = 0;
    if (s->has_result && s->more_counts > 0) {
        s->more_counts--;
        s->ncols = s->rows_left = 0;
        s->rowcount = 1;
        s->dbc->n.results++;
        return SQL_SUCCESS;
    }
    if (s->has_result && s->more_rows > 0) {
        s->ncols = s->more_rows;
        s->more_rows = 0;
        s->rows_left = 1;
        s->has_values = false;
        s->rowcount = -1;
        s->dbc->n.results++;
        return SQL_SUCCESS;
    }
    close_results(s);
    return SQL_NO_DATA;
}

SQLRETURN SQL_API SQLFreeStmt(SQLHSTMT h, SQLUSMALLINT option)
{
    fstmt *s = h;
    if (option == SQL_CLOSE)
        close_results(s);
    else if (option == SQL_UNBIND)
        memset(s->col, 0, sizeof s->col);
    else if (option == SQL_RESET_PARAMS)
        memset(s->par, 0, sizeof s->par);
    return SQL_SUCCESS;
}

SQLRETURN SQL_API SQLCancel(SQLHSTMT h)
{
    return SQL_SUCCESS;
}

/* --- diagnostics -------------------------------------------------------- */

SQLRETURN SQL_API SQLGetDiagRec(SQLSMALLINT type, SQLHANDLE h, SQLSMALLINT rec, SQLCHAR *state,
                                SQLINTEGER *native, SQLCHAR *msg, SQLSMALLINT max, SQLSMALLINT *len)
{
    diags *g = diags_of(type, h);
    const diag *d;
    if (!g || rec < 1 || rec > g->n)
        return SQL_NO_DATA;
    d = &g->d[rec - 1];
    if (state)
        memcpy(state, d->state, 6);
    if (native)
        *native = d->native;
    if (msg && max > 0)
        snprintf((char *)msg, (size_t)max, "%s", d->msg);
    if (len)
        *len = (SQLSMALLINT)strlen(d->msg);
    return SQL_SUCCESS;
}

SQLRETURN SQL_API SQLGetDiagField(SQLSMALLINT type, SQLHANDLE h, SQLSMALLINT rec, SQLSMALLINT id,
                                  SQLPOINTER v, SQLSMALLINT max, SQLSMALLINT *len)
{
    diags *g = diags_of(type, h);
    if (!g)
        return SQL_ERROR;
    if (id == SQL_DIAG_NUMBER) {
        if (v)
            *(SQLINTEGER *)v = g->n;
        return SQL_SUCCESS;
    }
    if (rec < 1 || rec > g->n)
        return SQL_NO_DATA;
    switch (id) {
    case SQL_DIAG_NATIVE:
        *(SQLINTEGER *)v = g->d[rec - 1].native;
        return SQL_SUCCESS;
    case SQL_DIAG_SQLSTATE:
        snprintf(v, (size_t)max, "%s", g->d[rec - 1].state);
        return SQL_SUCCESS;
    case SQL_DIAG_MESSAGE_TEXT:
        snprintf(v, (size_t)max, "%s", g->d[rec - 1].msg);
        if (len)
            *len = (SQLSMALLINT)strlen(g->d[rec - 1].msg);
        return SQL_SUCCESS;
    case SQL_DIAG_ROW_NUMBER: case SQL_DIAG_COLUMN_NUMBER:
        *(SQLLEN *)v = SQL_NO_ROW_NUMBER;
        return SQL_SUCCESS;
    }
    return SQL_NO_DATA;
}
