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
 * Bulk loads (prepare) are drv_odbc_bulk.c's; the session, its errors and
 * the helpers both share are drv_odbc_session.c's (drv_odbc.h, private
 * to these three files: drv_odbc.c calls the other two, drv_odbc_bulk.c
 * calls drv_odbc_session.c, never the other way).
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
#include "drivers/drv_odbc.h"

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
            if (od_int_param(c, v[i].i, &p->ival[i]) < 0)
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


/* A failed statement's on_fail_sql (db.h) on a handle of its own, so the
 * failed statement's error in p->err stays the one reported; its own
 * result is not looked at (nothing to undo is not an error). */
static void reset_after_failure(od_priv *p, const char *sql)
{
    SQLHSTMT h;
    SQLRETURN rc = SQL_ERROR;
    if (SQL_SUCCEEDED(SQLAllocHandle(SQL_HANDLE_STMT, p->dbc, &h))) {
        rc = SQLExecDirect(h, (SQLCHAR *)sql, SQL_NTS);
        SQLFreeHandle(SQL_HANDLE_STMT, h);
    }
    /* a transaction the error doomed refuses it: again after the rollback */
    p->pending_reset = SQL_SUCCEEDED(rc) || rc == SQL_NO_DATA ? NULL : sql;
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
    od_set_active(p, h);
    rc = SQLExecute(h);
    od_set_active(p, NULL);
    if (collect(c, h, rc) == DB_DONE)
        return DB_DONE;
    if (d->on_fail_sql)
        reset_after_failure(p, d->on_fail_sql);
    if (d->unique_retry && p->err.cls == DB_ERR_FATAL &&
        dialect_unique_violation(p->dialect >= 0 ? p->dialect : (int)c->cfg->dialect, p->err.code, p->err.sqlstate))
        p->err.cls = DB_ERR_RETRY;
    return DB_ERROR;
}

static int do_query(db_conn *c)
{
    od_priv *p = c->priv;
    SQLRETURN rc;
    od_set_active(p, p->q);
    rc = SQLExecDirect(p->q, (SQLCHAR *)p->sql, SQL_NTS);
    od_set_active(p, NULL);
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
    if (SQL_SUCCEEDED(SQLEndTran(SQL_HANDLE_DBC, p->dbc, p->trx == DB_TRX_COMMIT ? SQL_COMMIT : SQL_ROLLBACK))) {
        if (p->pending_reset)
            reset_after_failure(p, p->pending_reset);
        p->pending_reset = NULL;
        return DB_DONE;
    }
    od_fail(c, SQL_HANDLE_DBC, p->dbc, p->trx == DB_TRX_COMMIT ? "SQLEndTran(COMMIT)" : "SQLEndTran(ROLLBACK)");
    /* the server rolled back already (a deadlock victim, XACT_ABORT):
     * nothing was left to roll back, which is what was asked */
    if (p->trx == DB_TRX_ROLLBACK && d == DB_DIALECT_MSSQL && p->err.code == MSSQL_NO_TRAN)
        return DB_DONE;
    return DB_ERROR;
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
            od_free_session(c);
        switch (req) {
        case REQ_CONNECT: st = od_do_connect(c); break;
        case REQ_EXEC:    st = do_exec(c); break;
        case REQ_QUERY:   st = do_query(c); break;
        case REQ_BULK:    st = od_do_bulk(c); break;
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
    od_free_session(c);
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
