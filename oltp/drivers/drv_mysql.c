/*
 * drv_mysql.c — MySQL/MariaDB driver on MariaDB Connector/C's
 * non-blocking API (mysql_*_start / mysql_*_cont).
 *
 * Bulk loads (prepare) run LOAD DATA LOCAL INFILE with the blocking API
 * on the loader's connection, the "file" produced in memory row by row by
 * Connector/C's local-infile callbacks (drv_mysql_infile.c, around the
 * private drv_mysql.h; it calls nothing here). InnoDB's empty-table bulk insert
 * (unique_checks=0, foreign_key_checks=0 for the load) is optional
 * (--mysql-bulk-empty-table): on MariaDB 10.11 it made 8 x 100,000-row
 * loads slower, not faster (bench/RESULTS-prepare.md).
 *
 * Statements are server-side prepared, lazily: the first execution of a
 * statement on a connection prepares it (mysql_stmt_prepare_start) and then
 * executes it. Every result is stored client-side (store_result), so the
 * workload can read rows without further I/O. --db-ps-mode=disable sends
 * each execution as a text query instead, its values inlined and escaped
 * (mysql_real_escape_string), as sysbench does.
 *
 * --mysql-dry-run (sysbench's): no server is contacted; every operation
 * succeeds with no rows and no rows affected, and a bulk load takes every
 * row. Each waits once on an eventfd that is always writable, so the
 * event loop turns between statements as it does with a server.
 */
#include "drivers/drv_mysql.h"

#include <mysql.h>
#include <errmsg.h>
#include <errno.h>
#include <inttypes.h>
#include <mysqld_error.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

static bool lost_connection(unsigned int code)
{
    switch (code) {
    case CR_SERVER_GONE_ERROR: case CR_SERVER_LOST: case CR_SERVER_LOST_EXTENDED:
    case CR_TCP_CONNECTION: case CR_CONNECTION_ERROR: case CR_CONN_HOST_ERROR:
    case ER_CONNECTION_KILLED: case ER_SERVER_SHUTDOWN: case CR_COMMANDS_OUT_OF_SYNC:
        return true;
    }
    return false;
}

/* Record a session or statement error, classified, and end the operation. */
static int fail(db_conn *c, unsigned int code, const char *sqlstate, const char *msg)
{
    db_err_class cls = lost_connection(code) ? DB_ERR_RECONNECT
                                             : db_classify(c->cfg, (int)code, DB_ERR_FATAL);
    db_set_error(c, (int)code, sqlstate, cls, "%s", msg);
    ((my_priv *)c->priv)->op = OP_NONE;
    return DB_ERROR;
}

static int fail_conn(db_conn *c, MYSQL *m)
{
    return fail(c, mysql_errno(m), mysql_sqlstate(m), mysql_error(m));
}

static int fail_stmt(db_conn *c, MYSQL_STMT *s)
{
    return fail(c, mysql_stmt_errno(s), mysql_stmt_sqlstate(s), mysql_stmt_error(s));
}

static int waiting(db_conn *c, int status)
{
    c->wait = status & (MYSQL_WAIT_READ | MYSQL_WAIT_WRITE | MYSQL_WAIT_TIMEOUT);
    if (status & MYSQL_WAIT_TIMEOUT)
        c->timeout_ms = (int)mysql_get_timeout_value_ms(((my_priv *)c->priv)->m);
    return DB_WAIT;
}

static int new_handle(db_conn *c)
{
    my_priv *p = c->priv;
    unsigned int timeout = c->cfg->connect_timeout_s > 0 ? (unsigned)c->cfg->connect_timeout_s : 10;
    unsigned int local_infile = 1;

    p->m = mysql_init(NULL);
    if (!p->m) {
        db_set_error(c, 0, "HY001", DB_ERR_FATAL, "out of memory");
        return -1;
    }
    mysql_options(p->m, MYSQL_OPT_NONBLOCK, 0);
    mysql_options(p->m, MYSQL_OPT_CONNECT_TIMEOUT, &timeout);
    mysql_options(p->m, MYSQL_OPT_LOCAL_INFILE, &local_infile);
    mysql_set_local_infile_handler(p->m, my_infile_init, my_infile_read, my_infile_end,
                                   my_infile_error, p);
    return 0;
}

static int my_init(db_conn *c)
{
    my_priv *p = calloc(1, sizeof(*p));
    if (!p)
        return -1;
    p->st = calloc((size_t)(c->nstmts ? c->nstmts : 1), sizeof(my_stmt));
    if (!p->st) {
        free(p);
        return -1;
    }
    c->priv = p;
    p->dry_fd = -1;
    if (c->cfg->dry_run && (p->dry_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC)) < 0) {
        db_set_error(c, 0, "HY000", DB_ERR_FATAL, "eventfd: %s", strerror(errno));
        return -1;
    }
    return new_handle(c);
}

/* --mysql-dry-run: the operation succeeds once the loop has turned. */
static int dry_wait(db_conn *c)
{
    my_priv *p = c->priv;
    p->affected = 0;
    p->op = OP_DRY;
    c->wait = DB_WAIT_WRITE;
    return DB_WAIT;
}

static void free_result(my_priv *p)
{
    if (p->res) {
        mysql_free_result(p->res);
        p->res = NULL;
    }
    if (p->last && p->last->h)
        mysql_stmt_free_result(p->last->h);
    p->last = NULL;
    p->row = NULL;
}

static void close_stmts(db_conn *c)
{
    my_priv *p = c->priv;
    for (int i = 0; i < c->nstmts; i++) {
        my_stmt *s = &p->st[i];
        if (s->h)
            mysql_stmt_close(s->h);
        free(s->params);
        free(s->lens);
        free(s->ival);
        free(s->dval);
        for (int k = 0; s->sbuf && k < c->stmts[i].nparams; k++)
            free(s->sbuf[k]);
        free(s->sbuf);
        free(s->scap);
        free(s->res);
        free(s->resbuf);
        free(s->reslen);
        free(s->resnull);
        memset(s, 0, sizeof(*s));
    }
}

static void my_disconnect(db_conn *c)
{
    my_priv *p = c->priv;
    free_result(p);
    close_stmts(c);
    if (p->m)
        mysql_close(p->m);
    p->m = NULL;
    p->connected = false;
    p->op = OP_NONE;
    new_handle(c);
}

static void my_free(db_conn *c)
{
    my_priv *p = c->priv;
    free_result(p);
    close_stmts(c);
    if (p->m)
        mysql_close(p->m);
    if (p->dry_fd >= 0)
        close(p->dry_fd);
    free(p->text);
    free(p->st);
    free(p);
    c->priv = NULL;
}

static int my_fd(const db_conn *c)
{
    my_priv *p = c->priv;
    if (p->dry_fd >= 0)
        return p->dry_fd;
    return p->m ? (int)mysql_get_socket(p->m) : -1;
}

/* The standard SQLSTATE of a failed connect (db_error_is_login,
 * db_error_is_session_limit): the server's login refusals are class 28
 * (1044 says 42000) or 3D, its session limits 53300; the client's own
 * errors (2000-2999: refused, unknown host, lost during the handshake) say
 * HY000, "08001" is the standard "could not connect". */
static const char *connect_sqlstate(unsigned int code, const char *sqlstate)
{
    switch (code) {
    case ER_ACCESS_DENIED_ERROR: case ER_DBACCESS_DENIED_ERROR:
    case ER_ACCESS_DENIED_NO_PASSWORD_ERROR: case ER_HOST_NOT_PRIVILEGED:
        return "28000";
    case ER_BAD_DB_ERROR:
        return "3D000";
    case ER_CON_COUNT_ERROR: case ER_TOO_MANY_USER_CONNECTIONS: case ER_USER_LIMIT_REACHED:
        return "53300";
    }
    return code >= CR_MIN_ERROR && code <= CR_MAX_ERROR ? "08001" : sqlstate;
}

static int connect_done(db_conn *c, MYSQL *ret)
{
    my_priv *p = c->priv;
    if (!ret) {
        unsigned int code = mysql_errno(p->m);
        int r = fail(c, code, connect_sqlstate(code, mysql_sqlstate(p->m)), mysql_error(p->m));
        c->err.cls = DB_ERR_RECONNECT;
        return r;
    }
    p->connected = true;
    p->op = OP_NONE;
    return DB_DONE;
}

static int my_connect_start(db_conn *c)
{
    my_priv *p = c->priv;
    const db_config *cfg = c->cfg;
    MYSQL *ret = NULL;
    int st;

    if (!p->m && new_handle(c) < 0)
        return DB_ERROR;
    if (c->cfg->dry_run) {
        p->connected = true;
        return dry_wait(c);
    }
    p->op = OP_CONNECT;
    st = mysql_real_connect_start(&ret, p->m, cfg->socket ? NULL : cfg->host,
                                  cfg->user, cfg->password, cfg->database,
                                  (unsigned)cfg->port, cfg->socket, 0);
    return st ? waiting(c, st) : connect_done(c, ret);
}

/* After a text query: store its result set, if it has one. */
static int query_sent(db_conn *c, int ret)
{
    my_priv *p = c->priv;
    int st;
    if (ret)
        return fail_conn(c, p->m);
    if (mysql_field_count(p->m) == 0) {
        p->affected = (int64_t)mysql_affected_rows(p->m);
        p->op = OP_NONE;
        return DB_DONE;
    }
    p->op = OP_QUERY_STORE;
    st = mysql_store_result_start(&p->res, p->m);
    if (st)
        return waiting(c, st);
    if (!p->res)
        return fail_conn(c, p->m);
    p->op = OP_NONE;
    return DB_DONE;
}

static int my_query_start(db_conn *c, const char *sql, size_t len)
{
    my_priv *p = c->priv;
    int ret = 0, st;
    free_result(p);
    if (c->cfg->dry_run)
        return dry_wait(c);
    p->op = OP_QUERY;
    st = mysql_real_query_start(&ret, p->m, sql, (unsigned long)len);
    return st ? waiting(c, st) : query_sent(c, ret);
}

/*
 * Copy the parameters into the statement's own buffers. The buffers are
 * bound (mysql_stmt_bind_param) only when a type or a buffer changes: a
 * re-bind makes the next COM_STMT_EXECUTE carry the parameter types again,
 * which the server then re-reads, as sysbench never makes it do.
 */
static int bind_params(db_conn *c, my_stmt *s, const db_value *v, int n)
{
    static const enum enum_field_types types[] = {
        [DB_T_INT] = MYSQL_TYPE_LONGLONG, [DB_T_DOUBLE] = MYSQL_TYPE_DOUBLE,
        [DB_T_STRING] = MYSQL_TYPE_STRING, [DB_T_NULL] = MYSQL_TYPE_NULL,
    };
    bool rebind = !s->bound;

    for (int i = 0; i < n; i++) {
        MYSQL_BIND *b = &s->params[i];
        if (b->buffer_type != types[v[i].type] || !s->bound) {
            memset(b, 0, sizeof(*b));
            b->buffer_type = types[v[i].type];
            rebind = true;
        }
        switch (v[i].type) {
        case DB_T_INT:
            s->ival[i] = v[i].i;
            b->buffer = &s->ival[i];
            break;
        case DB_T_DOUBLE:
            s->dval[i] = v[i].d;
            b->buffer = &s->dval[i];
            break;
        case DB_T_STRING:
            if (!s->sbuf[i] || v[i].len > s->scap[i]) {
                size_t cap = v[i].len < 128 ? 128 : v[i].len * 2;
                char *nb = realloc(s->sbuf[i], cap);
                if (!nb) {
                    db_set_error(c, 0, "HY001", DB_ERR_FATAL, "out of memory");
                    return DB_ERROR;
                }
                s->sbuf[i] = nb;
                s->scap[i] = (unsigned long)cap;
                rebind = true;
            }
            memcpy(s->sbuf[i], v[i].s, v[i].len);
            s->lens[i] = (unsigned long)v[i].len;
            b->buffer = s->sbuf[i];
            b->buffer_length = s->scap[i];
            b->length = &s->lens[i];
            break;
        case DB_T_NULL:
            break;
        }
    }
    if (n && rebind) {
        if (mysql_stmt_bind_param(s->h, s->params))
            return fail_stmt(c, s->h);
        s->bound = true;
    }
    return 0;
}

static int stmt_stored(db_conn *c, int ret)
{
    my_priv *p = c->priv;
    my_stmt *s = &p->st[p->cur];
    if (ret)
        return fail_stmt(c, s->h);
    p->last = s;
    p->op = OP_NONE;
    return DB_DONE;
}

static int stmt_executed(db_conn *c, int ret)
{
    my_priv *p = c->priv;
    my_stmt *s = &p->st[p->cur];
    int st;
    if (ret)
        return fail_stmt(c, s->h);
    if (mysql_stmt_field_count(s->h) == 0) {
        p->affected = (int64_t)mysql_stmt_affected_rows(s->h);
        p->op = OP_NONE;
        return DB_DONE;
    }
    p->op = OP_STMT_STORE;
    st = mysql_stmt_store_result_start(&ret, s->h);
    return st ? waiting(c, st) : stmt_stored(c, ret);
}

static int stmt_execute(db_conn *c, const db_value *params)
{
    my_priv *p = c->priv;
    my_stmt *s = &p->st[p->cur];
    int ret = 0, st;
    if (bind_params(c, s, params, c->stmts[p->cur].nparams) < 0)
        return DB_ERROR;
    p->op = OP_EXECUTE;
    st = mysql_stmt_execute_start(&ret, s->h);
    return st ? waiting(c, st) : stmt_executed(c, ret);
}

static int stmt_prepared(db_conn *c, int ret)
{
    my_priv *p = c->priv;
    my_stmt *s = &p->st[p->cur];
    if (ret) {
        int r = fail_stmt(c, s->h);
        mysql_stmt_close(s->h);
        s->h = NULL;
        return r;
    }
    if (mysql_stmt_param_count(s->h) != (unsigned long)c->stmts[p->cur].nparams) {
        db_set_error(c, 0, "HY000", DB_ERR_FATAL,
                     "statement %d has %lu parameters, expected %d: %s", p->cur,
                     mysql_stmt_param_count(s->h), c->stmts[p->cur].nparams,
                     c->stmts[p->cur].sql);
        p->op = OP_NONE;
        return DB_ERROR;
    }
    return stmt_execute(c, p->pending);
}

static size_t escape(void *ctx, char *out, const char *s, size_t len)
{
    return (size_t)mysql_real_escape_string(ctx, out, s, (unsigned long)len);
}

/* --db-ps-mode=disable: the statement as a text query, its values inlined
 * (p->text lives until the query has been sent). */
static int text_exec(db_conn *c, int stmt, const db_value *params)
{
    my_priv *p = c->priv;
    size_t len;
    char *sql = db_inline_params(c->stmts[stmt].sql, params, c->stmts[stmt].nparams, escape, p->m, &len);
    if (!sql) {
        db_set_error(c, 0, "HY001", DB_ERR_FATAL, "out of memory");
        return DB_ERROR;
    }
    free(p->text);
    p->text = sql;
    return my_query_start(c, sql, len);
}

static int my_exec_start(db_conn *c, int stmt, const db_value *params)
{
    my_priv *p = c->priv;
    my_stmt *s = &p->st[stmt];
    const db_stmt_def *d = &c->stmts[stmt];
    int ret = 0, st;

    free_result(p);
    p->cur = stmt;
    if (c->cfg->dry_run)
        return dry_wait(c);
    if (c->cfg->ps_mode == DB_PS_DISABLE)
        return text_exec(c, stmt, params);
    if (s->h)
        return stmt_execute(c, params);
    s->h = mysql_stmt_init(p->m);
    if (!s->h) {
        db_set_error(c, 0, "HY001", DB_ERR_FATAL, "out of memory");
        return DB_ERROR;
    }
    if (!s->params && d->nparams) {
        size_t n = (size_t)d->nparams;
        s->params = calloc(n, sizeof(MYSQL_BIND));
        s->lens = calloc(n, sizeof(unsigned long));
        s->ival = calloc(n, sizeof(int64_t));
        s->dval = calloc(n, sizeof(double));
        s->sbuf = calloc(n, sizeof(char *));
        s->scap = calloc(n, sizeof(unsigned long));
        if (!s->params || !s->lens || !s->ival || !s->dval || !s->sbuf || !s->scap) {
            db_set_error(c, 0, "HY001", DB_ERR_FATAL, "out of memory");
            return DB_ERROR;
        }
    }
    p->pending = params;
    p->op = OP_PREPARE;
    st = mysql_stmt_prepare_start(&ret, s->h, d->sql, (unsigned long)strlen(d->sql));
    return st ? waiting(c, st) : stmt_prepared(c, ret);
}

static int my_cont(db_conn *c, int events)
{
    my_priv *p = c->priv;
    int ret = 0, st;
    MYSQL *mret = NULL;

    switch (p->op) {
    case OP_CONNECT:
        st = mysql_real_connect_cont(&mret, p->m, events);
        return st ? waiting(c, st) : connect_done(c, mret);
    case OP_QUERY:
        st = mysql_real_query_cont(&ret, p->m, events);
        return st ? waiting(c, st) : query_sent(c, ret);
    case OP_QUERY_STORE:
        st = mysql_store_result_cont(&p->res, p->m, events);
        if (st)
            return waiting(c, st);
        if (!p->res)
            return fail_conn(c, p->m);
        p->op = OP_NONE;
        return DB_DONE;
    case OP_PREPARE:
        st = mysql_stmt_prepare_cont(&ret, p->st[p->cur].h, events);
        return st ? waiting(c, st) : stmt_prepared(c, ret);
    case OP_EXECUTE:
        st = mysql_stmt_execute_cont(&ret, p->st[p->cur].h, events);
        return st ? waiting(c, st) : stmt_executed(c, ret);
    case OP_STMT_STORE:
        st = mysql_stmt_store_result_cont(&ret, p->st[p->cur].h, events);
        return st ? waiting(c, st) : stmt_stored(c, ret);
    case OP_DRY:
        p->op = OP_NONE;
        return DB_DONE;
    case OP_NONE:
        break;
    }
    db_set_error(c, 0, "HY000", DB_ERR_FATAL, "no operation in progress");
    return DB_ERROR;
}

/* A blocking statement of the bulk path; 0, or -1 with c->err set. */
static int bulk_sql(db_conn *c, const char *sql)
{
    my_priv *p = c->priv;
    MYSQL_RES *r;
    if (mysql_real_query(p->m, sql, (unsigned long)strlen(sql))) {
        fail_conn(c, p->m);
        return -1;
    }
    r = mysql_store_result(p->m);
    mysql_free_result(r);
    return 0;
}

/*
 * LOAD DATA LOCAL INFILE into b->table, the rows made by b->next() as the
 * server reads them. LOAD DATA LOCAL turns bad rows into warnings, so a
 * count of rows taken that differs from the rows sent is an error, with
 * the server's first warning.
 */
static int my_bulk_start(db_conn *c, db_bulk *b)
{
    my_priv *p = c->priv;
    char *sql = NULL;
    size_t cap = strlen(b->table) + 256, o;
    int rc = DB_ERROR;

    free_result(p);
    if (c->cfg->dry_run)
        return my_infile_dry(c, b);
    for (int i = 0; i < b->ncols; i++)
        cap += strlen(b->cols[i].name) + 4;
    p->line_cap = db_bulk_tsv_max(b);
    p->line = malloc(p->line_cap);
    p->brow = calloc((size_t)b->ncols, sizeof(db_value));
    sql = malloc(cap);
    if (!p->line || !p->brow || !sql) {
        db_set_error(c, 0, "HY001", DB_ERR_FATAL, "out of memory");
        goto cleanup;
    }
    o = (size_t)snprintf(sql, cap, "LOAD DATA LOCAL INFILE 'oltp-bulk' INTO TABLE %s CHARACTER SET binary "
                         "FIELDS TERMINATED BY '\\t' ESCAPED BY '\\\\' LINES TERMINATED BY '\\n' (", b->table);
    for (int i = 0; i < b->ncols; i++)
        o += (size_t)snprintf(sql + o, cap - o, "%s%s", i ? ", " : "", b->cols[i].name);
    snprintf(sql + o, cap - o, ")");
    if (c->cfg->mysql_empty_table_bulk &&
        bulk_sql(c, "SET SESSION unique_checks=0, foreign_key_checks=0") < 0)
        goto cleanup;
    p->bulk = b;
    p->line_len = p->line_off = 0;
    p->bulk_sent = 0;
    p->bulk_end = p->bulk_failed = false;
    if (mysql_real_query(p->m, sql, (unsigned long)strlen(sql))) {
        if (p->bulk_failed)
            db_set_error(c, 0, "HY000", DB_ERR_FATAL, "the rows for %s could not be made", b->table);
        else if (my_infile_refused(mysql_errno(p->m)))
            db_set_error(c, (int)mysql_errno(p->m), "0A000", DB_ERR_FATAL,
                         "the server refuses LOAD DATA LOCAL INFILE (error %u: %s)", mysql_errno(p->m),
                         mysql_error(p->m));
        else
            fail_conn(c, p->m);
        goto cleanup;
    }
    b->rows = (int64_t)mysql_affected_rows(p->m);
    if (b->rows != p->bulk_sent) {
        char warning[300] = "";
        p->bulk = NULL;
        if (mysql_query(p->m, "SHOW WARNINGS LIMIT 1") == 0) {
            MYSQL_RES *r = mysql_store_result(p->m);
            MYSQL_ROW row = r ? mysql_fetch_row(r) : NULL;
            if (row && mysql_num_fields(r) >= 3 && row[2])
                snprintf(warning, sizeof warning, ": %s", row[2]);
            mysql_free_result(r);
        }
        db_set_error(c, 0, "HY000", DB_ERR_FATAL, "%s took %" PRId64 " of the %" PRId64 " rows sent%s",
                     b->table, b->rows, p->bulk_sent, warning);
        goto cleanup;
    }
    p->bulk = NULL;
    if (c->cfg->mysql_empty_table_bulk &&
        bulk_sql(c, "SET SESSION unique_checks=1, foreign_key_checks=1") < 0)
        goto cleanup;
    rc = DB_DONE;
cleanup:
    p->bulk = NULL;
    free(p->line);
    free(p->brow);
    p->line = NULL;
    p->brow = NULL;
    free(sql);
    p->op = OP_NONE;
    return rc;
}

static int64_t my_num_rows(const db_conn *c)
{
    my_priv *p = c->priv;
    if (p->res)
        return (int64_t)mysql_num_rows(p->res);
    if (p->last)
        return (int64_t)mysql_stmt_num_rows(p->last->h);
    return 0;
}

static int64_t my_affected_rows(const db_conn *c)
{
    return ((my_priv *)c->priv)->affected;
}

static int bind_results(my_stmt *s)
{
    s->ncols = mysql_stmt_field_count(s->h);
    s->res = calloc(s->ncols, sizeof(MYSQL_BIND));
    s->resbuf = malloc((size_t)s->ncols * (COL_BUF + 1));
    s->reslen = calloc(s->ncols, sizeof(unsigned long));
    s->resnull = calloc(s->ncols, sizeof(my_bool));
    if (!s->res || !s->resbuf || !s->reslen || !s->resnull)
        return -1;
    for (unsigned i = 0; i < s->ncols; i++) {
        s->res[i].buffer_type = MYSQL_TYPE_STRING;
        s->res[i].buffer = s->resbuf + (size_t)i * (COL_BUF + 1);
        s->res[i].buffer_length = COL_BUF;
        s->res[i].length = &s->reslen[i];
        s->res[i].is_null = &s->resnull[i];
    }
    return 0;
}

static int my_next_row(db_conn *c)
{
    my_priv *p = c->priv;
    if (p->res) {
        p->row = mysql_fetch_row(p->res);
        p->rowlen = p->row ? mysql_fetch_lengths(p->res) : NULL;
        return p->row != NULL;
    }
    if (!p->last)
        return 0;
    if (!p->last->res) {
        if (bind_results(p->last) < 0)
            return 0;
    }
    if (mysql_stmt_bind_result(p->last->h, p->last->res))
        return 0;
    int r = mysql_stmt_fetch(p->last->h);
    return r == 0 || r == MYSQL_DATA_TRUNCATED;
}

static const char *my_col(db_conn *c, int col, size_t *len)
{
    my_priv *p = c->priv;
    if (p->res) {
        if (!p->row || col < 0 || (unsigned)col >= mysql_num_fields(p->res) || !p->row[col])
            return NULL;
        if (len)
            *len = p->rowlen[col];
        return p->row[col];
    }
    if (!p->last || col < 0 || (unsigned)col >= p->last->ncols || p->last->resnull[col])
        return NULL;
    {
        unsigned long n = p->last->reslen[col];
        char *b = p->last->resbuf + (size_t)col * (COL_BUF + 1);
        if (n > COL_BUF)
            n = COL_BUF;
        b[n] = 0;
        if (len)
            *len = n;
        return b;
    }
}

static const char *my_server_version(const db_conn *c)
{
    my_priv *p = c->priv;
    return p->m && p->connected && p->dry_fd < 0 ? mysql_get_server_info(p->m) : "";
}

const struct db_driver db_driver_mysql = {
    .name = "mysql",
    .init = my_init,
    .free = my_free,
    .connect_start = my_connect_start,
    .exec_start = my_exec_start,
    .query_start = my_query_start,
    .cont = my_cont,
    .fd = my_fd,
    .disconnect = my_disconnect,
    .num_rows = my_num_rows,
    .affected_rows = my_affected_rows,
    .next_row = my_next_row,
    .col = my_col,
    .server_version = my_server_version,
    .bulk_start = my_bulk_start,
};
