/*
 * drv_pgsql.c — PostgreSQL driver on libpq's asynchronous API
 * (PQconnectStartParams/PQconnectPoll, PQsendPrepare/PQsendQueryPrepared,
 * PQsendQuery, PQflush, PQconsumeInput, PQisBusy, PQgetResult).
 *
 * The engine watches PQsocket(); nothing here blocks. Statements are
 * server-side prepared lazily, like the mysql driver: the first execution
 * of a statement on a session sends Parse ("?" placeholders rewritten to
 * $1..$n), waits for it, then executes; a reconnect starts over. Results
 * arrive whole (PGresult) and are read row by row from memory.
 *
 * --db-ps-mode=disable sends each execution through the simple query
 * protocol (PQsendQuery), its values inlined, as sysbench does.
 *
 * Bulk loads (prepare) run COPY ... FROM STDIN in text format on the
 * loader's connection, switched to blocking mode for the load: rows are
 * encoded into a buffer sent with PQputCopyData whenever it fills.
 *
 * --pipeline=on (db_exec_queue): the session enters libpq's pipeline mode
 * at its first queued statement; queued executes (and the Parse of a
 * statement not yet prepared) go out without waiting, the next
 * db_exec_start/db_query_start adds its statement and a Sync, and the
 * answers are read in order up to the Sync. The server runs the same
 * statements in the same order; after an error it skips the rest up to
 * the Sync (PGRES_PIPELINE_ABORTED), and the first error is reported.
 *
 * Errors: SQLSTATE 40001 (serialization failure), 40P01 (deadlock) and
 * 23505 (a concurrent DELETE+INSERT of one key, as sysbench's pgsql driver)
 * roll back and retry; a lost session (CONNECTION_BAD, class 08, 57P0x)
 * reconnects; anything else is fatal unless --mysql-ignore-errors=all.
 */
#include "drivers/drv_pgsql.h"

#include <inttypes.h>
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>


static uint64_t mono_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static void quiet_notice(void *arg, const char *msg)
{
    (void)arg;
    (void)msg;      /* "table does not exist, skipping" and the like */
}

static void clear_results(pg_priv *p)
{
    PQclear(p->res);
    PQclear(p->err_res);
    p->res = p->err_res = NULL;
    p->row = -1;
}

/* Record the error of the operation in flight: from result r when the
 * server sent one, else from the session. */
static int pg_fail(db_conn *c, const PGresult *r)
{
    pg_priv *p = c->priv;
    const char *state = r ? PQresultErrorField(r, PG_DIAG_SQLSTATE) : NULL;
    const char *msg = r ? PQresultErrorField(r, PG_DIAG_MESSAGE_PRIMARY) : NULL;
    db_err_class cls;
    size_t n;

    if (!msg) {
        msg = p->pg ? PQerrorMessage(p->pg) : "out of memory";
        /* libpq: 'connection to server at "h", port n failed: FATAL:  cause';
         * the caller names the server already */
        if (!strncmp(msg, "connection to server", 20) && strstr(msg, "failed: "))
            msg = strstr(msg, "failed: ") + 8;
        if (!strncmp(msg, "FATAL:  ", 8))
            msg += 8;
    }
    n = strcspn(msg, "\n");
    if (!p->pg || PQstatus(p->pg) == CONNECTION_BAD || dialect_sqlstate_lost(state))
        cls = DB_ERR_RECONNECT;
    else if (dialect_sqlstate_retry(DB_DIALECT_PGSQL, state))
        cls = DB_ERR_RETRY;
    else
        cls = db_classify(c->cfg, 0, DB_ERR_FATAL);
    db_set_error(c, 0, state ? state : "08006", cls, "%.*s", (int)n, msg);
    p->op = PG_IDLE;
    p->flushing = false;
    clear_results(p);
    return DB_ERROR;
}

static int pg_wait(db_conn *c, int events)
{
    c->wait = events;
    return DB_WAIT;
}

static int pg_init(db_conn *c)
{
    pg_priv *p = calloc(1, sizeof(*p));
    if (!p)
        return -1;
    p->prepared = calloc((size_t)(c->nstmts ? c->nstmts : 1), sizeof(bool));
    if (!p->prepared) {
        free(p);
        return -1;
    }
    p->row = -1;
    c->priv = p;
    return 0;
}

static void pg_disconnect(db_conn *c)
{
    pg_priv *p = c->priv;
    clear_results(p);
    if (p->pg)
        PQfinish(p->pg);
    p->pg = NULL;
    p->op = PG_IDLE;
    p->flushing = false;
    p->piped = false;
    p->ninflight = p->inflight_head = 0;
    memset(p->prepared, 0, (size_t)(c->nstmts ? c->nstmts : 1) * sizeof(bool));
}

static void pg_free(db_conn *c)
{
    pg_priv *p = c->priv;
    pg_disconnect(c);
    free(p->prepared);
    free(p->pbuf);
    free(p->pvals);
    free(p->inflight);
    free(p);
    c->priv = NULL;
}

static int pg_fd(const db_conn *c)
{
    const pg_priv *p = c->priv;
    return p->pg ? PQsocket(p->pg) : -1;
}

/* Wait for the socket during connect, bounded by --connect-timeout. */
static int connect_wait(db_conn *c, int events)
{
    pg_priv *p = c->priv;
    uint64_t now = mono_ms();
    c->timeout_ms = p->deadline_ms > now ? (int)(p->deadline_ms - now) : 0;
    return pg_wait(c, events | DB_WAIT_TIMEOUT);
}

/* A failed connect, with the standard SQLSTATE db_error_is_login() reads:
 * libpq keeps no SQLSTATE for errors during the startup, so a login the
 * server refused is told apart from no server by libpq's password flags
 * and the server's (untranslated: C locale in the guest) messages. */
static int connect_fail(db_conn *c)
{
    pg_priv *p = c->priv;
    const char *m = p->pg ? PQerrorMessage(p->pg) : "";
    const char *state = NULL;
    bool need_pw = p->pg && PQconnectionNeedsPassword(p->pg);
    int r;

    if (need_pw || strstr(m, "authentication failed") || strstr(m, "no pg_hba.conf entry"))
        state = "28000";
    else if (strstr(m, "database \"") && strstr(m, "\" does not exist"))
        state = "3D000";
    else if (strstr(m, "too many clients already") || strstr(m, "too many connections for"))
        state = "53300";
    r = pg_fail(c, NULL);
    if (state)
        snprintf(c->err.sqlstate, sizeof c->err.sqlstate, "%s", state);
    else if (!strcmp(c->err.sqlstate, "08006"))
        snprintf(c->err.sqlstate, sizeof c->err.sqlstate, "08001");
    return r;
}

static int connect_poll(db_conn *c)
{
    pg_priv *p = c->priv;
    switch (PQconnectPoll(p->pg)) {
    case PGRES_POLLING_READING:
        return connect_wait(c, DB_WAIT_READ);
    case PGRES_POLLING_WRITING:
        return connect_wait(c, DB_WAIT_WRITE);
    case PGRES_POLLING_OK:
        if (PQsetnonblocking(p->pg, 1) != 0)
            return pg_fail(c, NULL);
        p->op = PG_IDLE;
        return DB_DONE;
    default:
        return connect_fail(c);
    }
}

static int pg_connect_start(db_conn *c)
{
    pg_priv *p = c->priv;
    const db_config *cfg = c->cfg;
    char port[16], timeout[16];
    const char *kw[8], *val[8];
    int n = 0;

    if (p->pg)
        pg_disconnect(c);
    snprintf(port, sizeof port, "%d", cfg->port);
    snprintf(timeout, sizeof timeout, "%d", cfg->connect_timeout_s > 0 ? cfg->connect_timeout_s : 10);
    kw[n] = "host", val[n++] = cfg->socket ? cfg->socket : cfg->host;
    kw[n] = "port", val[n++] = port;
    kw[n] = "user", val[n++] = cfg->user;
    kw[n] = "password", val[n++] = cfg->password && *cfg->password ? cfg->password : NULL;
    kw[n] = "dbname", val[n++] = cfg->database;
    kw[n] = "connect_timeout", val[n++] = timeout;
    kw[n] = "application_name", val[n++] = "oltp";
    kw[n] = NULL, val[n] = NULL;
    p->pg = PQconnectStartParams(kw, val, 0);
    if (!p->pg || PQstatus(p->pg) == CONNECTION_BAD)
        return connect_fail(c);
    PQsetNoticeProcessor(p->pg, quiet_notice, NULL);
    p->op = PG_CONNECTING;
    p->deadline_ms = mono_ms() + (uint64_t)(cfg->connect_timeout_s > 0 ? cfg->connect_timeout_s : 10) * 1000;
    /* libpq: behave as if PQconnectPoll had asked for the socket to be writable */
    return connect_wait(c, DB_WAIT_WRITE);
}

/* After a PQsend*: push the output, then wait for the answer. */
static int sent(db_conn *c, int ok)
{
    pg_priv *p = c->priv;
    int f;
    if (!ok)
        return pg_fail(c, NULL);
    f = PQflush(p->pg);
    if (f < 0)
        return pg_fail(c, NULL);
    p->flushing = f == 1;
    return pg_wait(c, p->flushing ? DB_WAIT_READ | DB_WAIT_WRITE : DB_WAIT_READ);
}

static int send_execute(db_conn *c, const db_value *params)
{
    pg_priv *p = c->priv;
    char name[16];
    int n = c->stmts[p->cur].nparams;

    if (pg_text_params(c, params, n) < 0)
        return DB_ERROR;
    snprintf(name, sizeof name, "s%d", p->cur);
    p->op = PG_EXECUTING;
    return sent(c, PQsendQueryPrepared(p->pg, name, n, p->pvals, NULL, NULL, 0));
}

/* --- pipeline mode ---------------------------------------------------- */

static int inflight_push(db_conn *c, int item)
{
    pg_priv *p = c->priv;
    if (p->ninflight == p->inflight_cap) {
        int ncap = p->inflight_cap ? p->inflight_cap * 2 : 64;
        int *n = realloc(p->inflight, (size_t)ncap * sizeof(*n));
        if (!n) {
            db_set_error(c, 0, "HY001", DB_ERR_FATAL, "out of memory");
            return -1;
        }
        p->inflight = n;
        p->inflight_cap = ncap;
    }
    p->inflight[p->ninflight++] = item;
    return 0;
}

/* Send the Parse (first use on this session) and the execute of stmt in
 * pipeline mode, entering it first; nothing is awaited. 0, or DB_ERROR. */
static int pipe_send(db_conn *c, int stmt, const db_value *params)
{
    pg_priv *p = c->priv;
    char name[16];
    int n = c->stmts[stmt].nparams;

    if (!p->piped) {
        if (!PQenterPipelineMode(p->pg))
            return pg_fail(c, NULL);
        p->piped = true;
        p->ninflight = p->inflight_head = 0;
    }
    snprintf(name, sizeof name, "s%d", stmt);
    if (!p->prepared[stmt]) {
        char *sql = pg_rewrite_placeholders(c->stmts[stmt].sql);
        int ok;
        if (!sql) {
            db_set_error(c, 0, "HY001", DB_ERR_FATAL, "out of memory");
            return DB_ERROR;
        }
        ok = PQsendPrepare(p->pg, name, sql, n, NULL);
        free(sql);
        if (!ok)
            return pg_fail(c, NULL);
        if (inflight_push(c, -1 - stmt) < 0)
            return DB_ERROR;
        p->prepared[stmt] = true;   /* taken back if its answer is not OK */
    }
    if (pg_text_params(c, params, n) < 0)
        return DB_ERROR;
    if (!PQsendQueryPrepared(p->pg, name, n, p->pvals, NULL, NULL, 0))
        return pg_fail(c, NULL);
    return inflight_push(c, stmt) < 0 ? DB_ERROR : 0;
}

static int pg_exec_queue(db_conn *c, int stmt, const db_value *params)
{
    pg_priv *p = c->priv;
    clear_results(p);
    return pipe_send(c, stmt, params) < 0 ? DB_ERROR : DB_DONE;
}

/* End the pipeline's batch with a Sync and send it all; the answers are
 * read by collect_piped(). */
static int pipe_sync(db_conn *c, pg_op op)
{
    pg_priv *p = c->priv;
    p->op = op;
    return sent(c, PQpipelineSync(p->pg));
}

/* Read the answers of the batch in flight up to its Sync: the last
 * statement's result is kept, the first error is the operation's. */
static int collect_piped(db_conn *c)
{
    pg_priv *p = c->priv;
    int failed_item = 0, nulls = 0;
    bool failed = false;

    for (;;) {
        PGresult *r;
        ExecStatusType st;
        int item;

        if (PQisBusy(p->pg))
            return pg_wait(c, p->flushing ? DB_WAIT_READ | DB_WAIT_WRITE : DB_WAIT_READ);
        r = PQgetResult(p->pg);
        if (!r) {
            /* one NULL ends each statement's results; two in a row: the
             * session broke before the Sync came back */
            if (++nulls > 1 || PQstatus(p->pg) == CONNECTION_BAD) {
                p->ninflight = p->inflight_head = 0;
                return pg_fail(c, NULL);
            }
            continue;
        }
        nulls = 0;
        st = PQresultStatus(r);
        if (st == PGRES_PIPELINE_SYNC) {
            PQclear(r);
            break;
        }
        item = p->inflight_head < p->ninflight ? p->inflight[p->inflight_head++] : PG_TEXT;
        if (item < 0 && item != PG_TEXT && st != PGRES_COMMAND_OK)
            p->prepared[-1 - item] = false;     /* its Parse failed or was skipped */
        switch (st) {
        case PGRES_TUPLES_OK: case PGRES_COMMAND_OK: case PGRES_EMPTY_QUERY:
            PQclear(p->res);
            p->res = r;
            break;
        case PGRES_PIPELINE_ABORTED:
            PQclear(r);
            break;
        default:
            if (p->err_res)
                PQclear(r);
            else {
                p->err_res = r;
                failed = true;
                failed_item = item;
            }
        }
    }
    p->ninflight = p->inflight_head = 0;
    if (p->err_res) {
        PGresult *e = p->err_res;
        int rc, stmt = failed_item < 0 ? -1 - failed_item : failed_item;
        p->err_res = NULL;
        rc = pg_fail(c, e);
        PQclear(e);
        /* the statement that failed, when it is not the one the caller sent */
        if (failed && failed_item != PG_TEXT && stmt != p->cur && stmt >= 0 && stmt < c->nstmts) {
            size_t n = strlen(c->err.msg);
            snprintf(c->err.msg + n, sizeof c->err.msg - n, " (pipelined statement `%.300s`)",
                     c->stmts[stmt].sql);
        }
        return rc;
    }
    p->affected = p->res ? strtoll(PQcmdTuples(p->res), NULL, 10) : 0;
    p->row = -1;
    p->op = PG_IDLE;
    return DB_DONE;
}

/* --db-ps-mode=disable: the statement through the simple query protocol,
 * its values inlined, as sysbench sends it. */
static int text_exec(db_conn *c, int stmt, const db_value *params)
{
    pg_priv *p = c->priv;
    char *sql = pg_inline_params(c, stmt, params);
    int ok;
    if (!sql)
        return DB_ERROR;
    p->op = PG_QUERYING;
    ok = PQsendQuery(p->pg, sql);
    free(sql);
    return sent(c, ok);
}

static int pg_exec_start(db_conn *c, int stmt, const db_value *params)
{
    pg_priv *p = c->priv;
    char name[16], *sql;
    int ok;

    clear_results(p);
    p->cur = stmt;
    if (c->cfg->ps_mode == DB_PS_DISABLE)
        return text_exec(c, stmt, params);
    if (p->piped)
        return pipe_send(c, stmt, params) < 0 ? DB_ERROR : pipe_sync(c, PG_EXECUTING);
    if (p->prepared[stmt])
        return send_execute(c, params);
    sql = pg_rewrite_placeholders(c->stmts[stmt].sql);
    if (!sql) {
        db_set_error(c, 0, "HY001", DB_ERR_FATAL, "out of memory");
        return DB_ERROR;
    }
    snprintf(name, sizeof name, "s%d", stmt);
    p->pending = params;
    p->op = PG_PREPARING;
    ok = PQsendPrepare(p->pg, name, sql, c->stmts[stmt].nparams, NULL);
    free(sql);
    return sent(c, ok);
}

static int pg_query_start(db_conn *c, const char *sql, size_t len)
{
    pg_priv *p = c->priv;
    (void)len;                  /* db_query_start passes a NUL-terminated string */
    clear_results(p);
    if (p->piped) {
        /* the simple query protocol is not allowed in pipeline mode */
        p->cur = -1;
        if (!PQsendQueryParams(p->pg, sql, 0, NULL, NULL, NULL, NULL, 0))
            return pg_fail(c, NULL);
        if (inflight_push(c, PG_TEXT) < 0)
            return DB_ERROR;
        return pipe_sync(c, PG_QUERYING);
    }
    p->op = PG_QUERYING;
    return sent(c, PQsendQuery(p->pg, sql));
}

/* Read every result of the command in flight; DB_WAIT while libpq needs
 * more input. */
static int collect(db_conn *c)
{
    pg_priv *p = c->priv;
    PGresult *r;

    for (;;) {
        if (PQisBusy(p->pg))
            return pg_wait(c, p->flushing ? DB_WAIT_READ | DB_WAIT_WRITE : DB_WAIT_READ);
        r = PQgetResult(p->pg);
        if (!r)
            break;
        switch (PQresultStatus(r)) {
        case PGRES_TUPLES_OK: case PGRES_COMMAND_OK: case PGRES_EMPTY_QUERY:
            PQclear(p->res);
            p->res = r;
            break;
        default:
            if (p->err_res)
                PQclear(r);
            else
                p->err_res = r;
        }
    }
    if (p->err_res) {
        PGresult *e = p->err_res;
        int rc;
        p->err_res = NULL;
        rc = pg_fail(c, e);
        PQclear(e);
        return rc;
    }
    if (p->op == PG_PREPARING) {
        p->prepared[p->cur] = true;
        clear_results(p);
        return send_execute(c, p->pending);
    }
    p->affected = p->res ? strtoll(PQcmdTuples(p->res), NULL, 10) : 0;
    p->row = -1;
    p->op = PG_IDLE;
    return DB_DONE;
}

static int pg_cont(db_conn *c, int events)
{
    pg_priv *p = c->priv;

    switch (p->op) {
    case PG_CONNECTING:
        if (events == DB_WAIT_TIMEOUT) {
            db_set_error(c, 0, "08001", DB_ERR_RECONNECT, "no answer within %d s (--connect-timeout)",
                         c->cfg->connect_timeout_s);
            p->op = PG_IDLE;
            return DB_ERROR;
        }
        return connect_poll(c);
    case PG_PREPARING: case PG_EXECUTING: case PG_QUERYING:
        if ((events & DB_WAIT_READ) && !PQconsumeInput(p->pg))
            return pg_fail(c, NULL);
        if (p->flushing) {
            int f = PQflush(p->pg);
            if (f < 0)
                return pg_fail(c, NULL);
            p->flushing = f == 1;
        }
        return p->piped ? collect_piped(c) : collect(c);
    case PG_IDLE:
        break;
    }
    db_set_error(c, 0, "HY000", DB_ERR_FATAL, "no operation in progress");
    return DB_ERROR;
}

#define COPY_BUF (256 * 1024)

/* The errors of a server that will not take COPY FROM STDIN into a table
 * it takes INSERTs into (db_error_is_bulk_refused): feature_not_supported
 * (row-level security on the table; servers that speak the protocol
 * without COPY) and insufficient_privilege. */
static bool copy_refused(const char *sqlstate)
{
    return !strcmp(sqlstate, "0A000") || !strcmp(sqlstate, "42501");
}

/* COPY b->table FROM STDIN, the rows made by b->next(), blocking. */
static int pg_bulk_start(db_conn *c, db_bulk *b)
{
    pg_priv *p = c->priv;
    size_t cap = strlen(b->table) + 64, o, line = db_bulk_tsv_max(b), bufcap = COPY_BUF + line;
    char *sql = NULL, *buf = NULL;
    const char *abort_msg = NULL;
    db_value *row = NULL;
    PGresult *r = NULL;
    int rc = DB_ERROR, more;

    clear_results(p);
    for (int i = 0; i < b->ncols; i++)
        cap += strlen(b->cols[i].name) + 4;
    sql = malloc(cap);
    buf = malloc(bufcap);
    row = calloc((size_t)b->ncols, sizeof(db_value));
    if (!sql || !buf || !row) {
        db_set_error(c, 0, "HY001", DB_ERR_FATAL, "out of memory");
        goto cleanup;
    }
    o = (size_t)snprintf(sql, cap, "COPY %s (", b->table);
    for (int i = 0; i < b->ncols; i++)
        o += (size_t)snprintf(sql + o, cap - o, "%s%s", i ? ", " : "", b->cols[i].name);
    snprintf(sql + o, cap - o, ") FROM STDIN");
    if (PQsetnonblocking(p->pg, 0) != 0) {
        pg_fail(c, NULL);
        goto cleanup;
    }
    r = PQexec(p->pg, sql);
    if (PQresultStatus(r) != PGRES_COPY_IN) {
        pg_fail(c, r);
        if (copy_refused(c->err.sqlstate))
            db_set_error(c, 0, "0A000", DB_ERR_FATAL, "the server refuses COPY FROM STDIN (SQLSTATE %s: %s)",
                         PQresultErrorField(r, PG_DIAG_SQLSTATE), PQresultErrorField(r, PG_DIAG_MESSAGE_PRIMARY));
        goto restore;
    }
    PQclear(r);
    r = NULL;
    o = 0;
    while ((more = b->next(b->ctx, row)) > 0) {
        size_t n = db_bulk_tsv(row, b->ncols, buf + o, bufcap - o);
        if (n == 0) {
            abort_msg = "a row is longer than its columns allow";
            break;
        }
        o += n;
        if (o >= COPY_BUF) {
            if (PQputCopyData(p->pg, buf, (int)o) != 1) {
                pg_fail(c, NULL);
                goto restore;
            }
            o = 0;
        }
    }
    if (more < 0)
        abort_msg = "the rows to load could not be made";
    if (!abort_msg && o > 0 && PQputCopyData(p->pg, buf, (int)o) != 1) {
        pg_fail(c, NULL);
        goto restore;
    }
    if (PQputCopyEnd(p->pg, abort_msg) != 1) {
        pg_fail(c, NULL);
        goto restore;
    }
    r = PQgetResult(p->pg);
    if (PQresultStatus(r) != PGRES_COMMAND_OK) {
        pg_fail(c, r);
        if (abort_msg)
            db_set_error(c, 0, "HY000", DB_ERR_FATAL, "loading %s: %s", b->table, abort_msg);
    } else {
        b->rows = strtoll(PQcmdTuples(r), NULL, 10);
        rc = DB_DONE;
    }
    PQclear(r);
    r = NULL;
    while ((r = PQgetResult(p->pg)) != NULL)
        PQclear(r);
restore:
    PQclear(r);
    if (PQsetnonblocking(p->pg, 1) != 0 && rc == DB_DONE)
        rc = pg_fail(c, NULL);
cleanup:
    free(sql);
    free(buf);
    free(row);
    p->op = PG_IDLE;
    return rc;
}

static int64_t pg_num_rows(const db_conn *c)
{
    const pg_priv *p = c->priv;
    return p->res ? PQntuples(p->res) : 0;
}

static int64_t pg_affected_rows(const db_conn *c)
{
    return ((const pg_priv *)c->priv)->affected;
}

static int pg_next_row(db_conn *c)
{
    pg_priv *p = c->priv;
    if (!p->res || p->row + 1 >= PQntuples(p->res))
        return 0;
    p->row++;
    return 1;
}

static const char *pg_col(db_conn *c, int col, size_t *len)
{
    pg_priv *p = c->priv;
    if (!p->res || p->row < 0 || col < 0 || col >= PQnfields(p->res) || PQgetisnull(p->res, p->row, col))
        return NULL;
    if (len)
        *len = (size_t)PQgetlength(p->res, p->row, col);
    return PQgetvalue(p->res, p->row, col);
}

static const char *pg_server_version(const db_conn *c)
{
    const pg_priv *p = c->priv;
    const char *v = p->pg ? PQparameterStatus(p->pg, "server_version") : NULL;
    return v ? v : "";
}

const struct db_driver db_driver_pgsql = {
    .name = "pgsql",
    .init = pg_init,
    .free = pg_free,
    .connect_start = pg_connect_start,
    .exec_start = pg_exec_start,
    .query_start = pg_query_start,
    .cont = pg_cont,
    .fd = pg_fd,
    .disconnect = pg_disconnect,
    .num_rows = pg_num_rows,
    .affected_rows = pg_affected_rows,
    .next_row = pg_next_row,
    .col = pg_col,
    .server_version = pg_server_version,
    .dialect = DB_DIALECT_PGSQL,
    .bulk_start = pg_bulk_start,
    .exec_queue = pg_exec_queue,
};
