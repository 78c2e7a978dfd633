/*
 * db.c — the only place that dispatches through struct db_driver, and the
 * helpers drivers share (error classification, bulk-load encodings). It
 * knows no driver: their list is drivers.c.
 */
#include "drivers/db.h"

#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void db_set_error(db_conn *c, int code, const char *sqlstate, db_err_class cls,
                  const char *fmt, ...)
{
    va_list ap;
    c->err.code = code;
    c->err.cls = cls;
    snprintf(c->err.sqlstate, sizeof(c->err.sqlstate), "%s", sqlstate ? sqlstate : "");
    va_start(ap, fmt);
    vsnprintf(c->err.msg, sizeof(c->err.msg), fmt, ap);
    va_end(ap);
}

bool db_error_is_login(const db_error *e)
{
    return !strncmp(e->sqlstate, "28", 2) || !strncmp(e->sqlstate, "3D", 2);
}

bool db_error_is_session_limit(const db_error *e)
{
    return !strcmp(e->sqlstate, "53300");
}

bool db_error_is_bulk_refused(const db_error *e)
{
    return !strcmp(e->sqlstate, "0A000");
}

bool db_error_is_disk_full(const db_error *e)
{
    return e->code == 1021 || e->code == 1114 || !strcmp(e->sqlstate, "53100")
           || !strcmp(e->sqlstate, "53000") || strstr(e->msg, "No space left on device")
           || strstr(e->msg, "Errcode: 28") || strstr(e->msg, "errno: 28");
}

db_err_class db_classify(const db_config *cfg, int code, db_err_class otherwise)
{
    if (cfg->ignore_all)
        return DB_ERR_RETRY;
    for (int i = 0; i < cfg->n_ignore_errors; i++)
        if (cfg->ignore_errors[i] == code)
            return DB_ERR_RETRY;
    return otherwise;
}

int db_init(db_conn *c, const struct db_driver *d, const db_config *cfg,
            const db_stmt_def *stmts, int nstmts)
{
    memset(c, 0, sizeof(*c));
    c->drv = d;
    c->cfg = cfg;
    c->stmts = stmts;
    c->nstmts = nstmts;
    return d->init(c);
}

void db_free(db_conn *c)
{
    if (c && c->drv && c->priv)
        c->drv->free(c);
    if (c)
        c->priv = NULL;
}

int db_connect_start(db_conn *c) { return c->drv->connect_start(c); }

int db_exec_start(db_conn *c, int stmt, const db_value *params)
{
    if (stmt < 0 || stmt >= c->nstmts) {
        db_set_error(c, 0, "HY000", DB_ERR_FATAL, "statement %d is not defined", stmt);
        return DB_ERROR;
    }
    if (c->stmts[stmt].trx != DB_TRX_NONE && c->drv->trx_start)
        return c->drv->trx_start(c, c->stmts[stmt].trx);
    if (!c->stmts[stmt].sql) {
        db_set_error(c, 0, "IM001", DB_ERR_FATAL, "statement %d has no text for the %s driver", stmt,
                     c->drv->name);
        return DB_ERROR;
    }
    return c->drv->exec_start(c, stmt, params);
}

int db_exec_queue(db_conn *c, int stmt, const db_value *params)
{
    if (stmt < 0 || stmt >= c->nstmts) {
        db_set_error(c, 0, "HY000", DB_ERR_FATAL, "statement %d is not defined", stmt);
        return DB_ERROR;
    }
    if (!c->drv->exec_queue) {
        db_set_error(c, 0, "IM001", DB_ERR_FATAL, "pipelining is not supported by this driver (%s)",
                     c->drv->name);
        return DB_ERROR;
    }
    /* a transaction call of the client API, or no text: not queueable,
     * it runs (and waits) as db_exec_start */
    if ((c->stmts[stmt].trx != DB_TRX_NONE && c->drv->trx_start) || !c->stmts[stmt].sql)
        return db_exec_start(c, stmt, params);
    return c->drv->exec_queue(c, stmt, params);
}

bool db_pipeline_supported(const struct db_driver *d) { return d->exec_queue != NULL; }

int db_trx_start(db_conn *c, db_trx op)
{
    const dialect_def *d = dialect_get(c->cfg->dialect);
    const char *sql = op == DB_TRX_BEGIN ? d->begin : op == DB_TRX_COMMIT ? d->commit
                    : op == DB_TRX_ROLLBACK ? d->rollback : NULL;

    if (c->drv->trx_start && op != DB_TRX_NONE)
        return c->drv->trx_start(c, op);
    if (!sql) {
        db_set_error(c, 0, "IM001", DB_ERR_FATAL, "transactions of the %s dialect are not supported by "
                     "this driver (%s): they need a driver with its own transaction calls (odbc)",
                     d->name, c->drv->name);
        return DB_ERROR;
    }
    return c->drv->query_start(c, sql, strlen(sql));
}

int db_query_start(db_conn *c, const char *sql) { return c->drv->query_start(c, sql, strlen(sql)); }
int db_cont(db_conn *c, int events) { return c->drv->cont(c, events); }
int db_fd(const db_conn *c) { return c->drv->fd(c); }
void db_disconnect(db_conn *c) { c->drv->disconnect(c); }
int64_t db_num_rows(const db_conn *c) { return c->drv->num_rows(c); }
int64_t db_affected_rows(const db_conn *c) { return c->drv->affected_rows(c); }
int db_next_row(db_conn *c) { return c->drv->next_row(c); }
const char *db_col(db_conn *c, int col, size_t *len) { return c->drv->col(c, col, len); }
const char *db_server_version(const db_conn *c) { return c->drv->server_version(c); }
const char *db_dbms_name(const db_conn *c) { return c->drv->dbms_name ? c->drv->dbms_name(c) : NULL; }

bool db_bulk_supported(const db_conn *c) { return c->drv->bulk_start != NULL; }

int db_bulk_load(db_conn *c, db_bulk *b)
{
    b->rows = 0;
    if (!c->drv->bulk_start) {
        db_set_error(c, 0, "IM001", DB_ERR_FATAL, "bulk loading is not supported by this driver (%s)",
                     c->drv->name);
        return DB_ERROR;
    }
    return db_sync(c, c->drv->bulk_start(c, b));
}

size_t db_bulk_tsv_max(const db_bulk *b)
{
    size_t n = 1;
    for (int i = 0; i < b->ncols; i++)
        n += 1 + (b->cols[i].type == DB_T_STRING ? 2 * b->cols[i].width : 32);
    return n;
}

/* A signed integer in decimal at out (room for 20 digits and a sign);
 * returns its length. snprintf's parsing of the format was 6 % of a bulk
 * load's client CPU. */
static size_t tsv_int(int64_t v, char *out)
{
    char tmp[20];
    size_t n = 0, o = 0;
    uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
    do {
        tmp[n++] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (v < 0)
        out[o++] = '-';
    while (n)
        out[o++] = tmp[--n];
    return o;
}

/* Nonzero when the 8 bytes of w hold byte c (the "has zero byte" test on
 * w ^ c repeated: exact for whether one does, whichever it is). */
static inline uint64_t tsv_has_byte(uint64_t w, unsigned char c)
{
    const uint64_t ones = 0x0101010101010101ULL;
    uint64_t x = w ^ (ones * c);
    return (x - ones) & ~x & 0x8080808080808080ULL;
}

/* True when s[0..len) holds a byte LOAD DATA and COPY read as special
 * (backslash, tab, newline, carriage return), 8 bytes at a time: the
 * generated strings never have one, and a per-byte switch while copying
 * was 28 % of a bulk load's client CPU (perf, 2 x 200,000 rows). */
static bool tsv_special(const char *s, size_t len)
{
    uint64_t any = 0;
    size_t k = 0;
    for (; k + 8 <= len; k += 8) {
        uint64_t w;
        memcpy(&w, s + k, 8);
        any |= tsv_has_byte(w, '\\') | tsv_has_byte(w, '\t') | tsv_has_byte(w, '\n') | tsv_has_byte(w, '\r');
    }
    for (; k < len; k++)
        any |= s[k] == '\\' || s[k] == '\t' || s[k] == '\n' || s[k] == '\r';
    return any != 0;
}

size_t db_bulk_tsv(const db_value *row, int n, char *out, size_t cap)
{
    size_t o = 0;
    for (int i = 0; i < n; i++) {
        const db_value *v = &row[i];
        if (cap - o < 34)
            return 0;
        if (i)
            out[o++] = '\t';
        switch (v->type) {
        case DB_T_INT:
            o += tsv_int(v->i, out + o);
            break;
        case DB_T_DOUBLE:
            o += (size_t)snprintf(out + o, cap - o, "%.17g", v->d);
            break;
        case DB_T_NULL:
            out[o++] = '\\';
            out[o++] = 'N';
            break;
        case DB_T_STRING:
            if (cap - o < 2 * v->len + 2)
                return 0;
            if (!tsv_special(v->s, v->len)) {
                memcpy(out + o, v->s, v->len);
                o += v->len;
                break;
            }
            for (size_t k = 0; k < v->len; k++) {
                char ch = v->s[k];
                switch (ch) {
                case '\\': out[o++] = '\\'; out[o++] = '\\'; break;
                case '\t':  out[o++] = '\\'; out[o++] = 't'; break;
                case '\n':  out[o++] = '\\'; out[o++] = 'n'; break;
                case '\r':  out[o++] = '\\'; out[o++] = 'r'; break;
                default:    out[o++] = ch;
                }
            }
            break;
        }
    }
    if (o >= cap)
        return 0;
    out[o++] = '\n';
    return o;
}

char *db_bulk_insert_rows_sql(const db_bulk *b, int rows)
{
    size_t cap = strlen(b->table) + 64 + (size_t)rows * ((size_t)b->ncols * 3 + 4), o;
    char *s;
    for (int i = 0; i < b->ncols; i++)
        cap += strlen(b->cols[i].name) + 5;
    s = malloc(cap);
    if (!s)
        return NULL;
    o = (size_t)snprintf(s, cap, "INSERT INTO %s (", b->table);
    for (int i = 0; i < b->ncols; i++)
        o += (size_t)snprintf(s + o, cap - o, "%s%s", i ? ", " : "", b->cols[i].name);
    o += (size_t)snprintf(s + o, cap - o, ") VALUES ");
    for (int r = 0; r < rows; r++) {
        o += (size_t)snprintf(s + o, cap - o, "%s(", r ? ", " : "");
        for (int i = 0; i < b->ncols; i++)
            o += (size_t)snprintf(s + o, cap - o, "%s?", i ? ", " : "");
        o += (size_t)snprintf(s + o, cap - o, ")");
    }
    return s;
}

char *db_bulk_insert_sql(const db_bulk *b) { return db_bulk_insert_rows_sql(b, 1); }

const char *db_next_placeholder(const char *s)
{
    char quote = 0;
    for (; *s; s++) {
        if (quote) {
            if (*s == quote)
                quote = 0;
        } else if (*s == '\'' || *s == '"' || *s == '`') {
            quote = *s;
        } else if (*s == '?') {
            return s;
        }
    }
    return NULL;
}

char *db_inline_params(const char *sql, const db_value *v, int n, db_escape_fn escape, void *ctx,
                       size_t *len)
{
    size_t cap = strlen(sql) + 1, o = 0;
    char *out;
    int k = 0;

    for (int i = 0; i < n; i++)
        cap += v[i].type == DB_T_STRING ? 2 * v[i].len + 2 : 32;
    out = malloc(cap);
    if (!out)
        return NULL;
    for (const char *s = sql, *q;; s = q + 1) {
        const db_value *x = &v[k];
        q = k < n ? db_next_placeholder(s) : NULL;
        memcpy(out + o, s, q ? (size_t)(q - s) : strlen(s));
        o += q ? (size_t)(q - s) : strlen(s);
        if (!q)
            break;
        k++;
        switch (x->type) {
        case DB_T_INT:
            o += tsv_int(x->i, out + o);
            break;
        case DB_T_DOUBLE:
            o += (size_t)snprintf(out + o, 32, "%.17g", x->d);
            break;
        case DB_T_NULL:
            memcpy(out + o, "NULL", 4);
            o += 4;
            break;
        case DB_T_STRING:
            out[o++] = '\'';
            o += escape(ctx, out + o, x->s, x->len);
            out[o++] = '\'';
            break;
        }
    }
    out[o] = 0;
    *len = o;
    return out;
}

int64_t db_col_int(db_conn *c, int col)
{
    const char *s = db_col(c, col, NULL);
    return s ? strtoll(s, NULL, 10) : 0;
}

double db_col_double(db_conn *c, int col)
{
    const char *s = db_col(c, col, NULL);
    return s ? strtod(s, NULL) : 0.0;
}

int db_sync(db_conn *c, int status)
{
    while (status == DB_WAIT) {
        struct pollfd p = { .fd = db_fd(c), .events = 0 };
        int timeout = (c->wait & DB_WAIT_TIMEOUT) ? c->timeout_ms : -1;
        int r, ev = 0;

        if (c->wait & DB_WAIT_READ)
            p.events |= POLLIN;
        if (c->wait & DB_WAIT_WRITE)
            p.events |= POLLOUT;
        r = poll(&p, 1, timeout);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            db_set_error(c, errno, "HY000", DB_ERR_RECONNECT, "poll: %s", strerror(errno));
            return DB_ERROR;
        }
        if (r == 0)
            ev = DB_WAIT_TIMEOUT;
        if (p.revents & (POLLIN | POLLHUP | POLLERR))
            ev |= DB_WAIT_READ;
        if (p.revents & POLLOUT)
            ev |= DB_WAIT_WRITE;
        status = db_cont(c, ev);
    }
    return status;
}

int db_connect(db_conn *c) { return db_sync(c, db_connect_start(c)); }
int db_query(db_conn *c, const char *sql) { return db_sync(c, db_query_start(c, sql)); }
int db_exec(db_conn *c, int stmt, const db_value *params)
{
    return db_sync(c, db_exec_start(c, stmt, params));
}

int db_trx_sync(db_conn *c, db_trx op) { return db_sync(c, db_trx_start(c, op)); }
