/*
 * drv_pgsql_text.c — what the PostgreSQL driver sends as text
 * (drv_pgsql.h): statements with "?" placeholders rewritten to libpq's
 * $1..$n, and parameter values as the NUL-terminated strings of libpq's
 * text format. Calls nothing of drv_pgsql.c.
 */
#include "drivers/drv_pgsql.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "?" placeholders to $1..$n, outside quoted strings and identifiers
 * (db_next_placeholder). Returns a malloc'ed string the caller frees, or
 * NULL. */
char *pg_rewrite_placeholders(const char *sql)
{
    size_t nq = 0, o = 0;
    const char *q;
    char *out;
    int n = 0;

    for (const char *s = sql; (q = db_next_placeholder(s)); s = q + 1)
        nq++;
    out = malloc(strlen(sql) + nq * 11 + 1);
    if (!out)
        return NULL;
    for (const char *s = sql;; s = q + 1) {
        q = db_next_placeholder(s);
        memcpy(out + o, s, q ? (size_t)(q - s) : strlen(s));
        o += q ? (size_t)(q - s) : strlen(s);
        if (!q)
            break;
        o += (size_t)sprintf(out + o, "$%d", ++n);
    }
    out[o] = 0;
    return out;
}

/* Parameter values as text (libpq's text format needs NUL-terminated
 * strings); they live in p->pbuf until the next execute. */
int pg_text_params(db_conn *c, const db_value *v, int n)
{
    pg_priv *p = c->priv;
    size_t need = 0, off = 0;

    for (int i = 0; i < n; i++)
        need += v[i].type == DB_T_STRING ? v[i].len + 1 : 32;
    if (need > p->pcap) {
        char *b = realloc(p->pbuf, need);
        if (!b)
            goto oom;
        p->pbuf = b;
        p->pcap = need;
    }
    if (n > p->pvcap) {
        const char **pv = realloc(p->pvals, (size_t)n * sizeof(*pv));
        if (!pv)
            goto oom;
        p->pvals = pv;
        p->pvcap = n;
    }
    for (int i = 0; i < n; i++) {
        char *d = p->pbuf + off;
        switch (v[i].type) {
        case DB_T_INT:
            off += (size_t)snprintf(d, 32, "%" PRId64, v[i].i) + 1;
            break;
        case DB_T_DOUBLE:
            off += (size_t)snprintf(d, 32, "%.17g", v[i].d) + 1;
            break;
        case DB_T_STRING:
            memcpy(d, v[i].s, v[i].len);
            d[v[i].len] = 0;
            off += v[i].len + 1;
            break;
        case DB_T_NULL:
            d = NULL;
            break;
        }
        p->pvals[i] = d;
    }
    return 0;
oom:
    db_set_error(c, 0, "HY001", DB_ERR_FATAL, "out of memory");
    return -1;
}

static size_t escape(void *ctx, char *out, const char *s, size_t len)
{
    return PQescapeStringConn(ctx, out, s, len, NULL);
}

char *pg_inline_params(db_conn *c, int stmt, const db_value *v)
{
    pg_priv *p = c->priv;
    size_t len;
    char *sql = db_inline_params(c->stmts[stmt].sql, v, c->stmts[stmt].nparams, escape, p->pg, &len);
    if (!sql)
        db_set_error(c, 0, "HY001", DB_ERR_FATAL, "out of memory");
    return sql;
}
