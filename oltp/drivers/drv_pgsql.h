/*
 * drv_pgsql.h — private to the PostgreSQL driver's two files: drv_pgsql.c
 * (the driver) and drv_pgsql_text.c (statement and parameter text, which
 * calls nothing of drv_pgsql.c).
 */
#ifndef OLTP_DRV_PGSQL_H
#define OLTP_DRV_PGSQL_H

#include "attributes.h"

#include <libpq-fe.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "drivers/db.h"

typedef enum { PG_IDLE, PG_CONNECTING, PG_PREPARING, PG_EXECUTING, PG_QUERYING } pg_op;

typedef struct pg_priv {
    PGconn         *pg;
    pg_op           op;
    bool            flushing;       /* libpq still holds output to send */
    bool           *prepared;       /* per statement, on this session */
    int             cur;            /* statement being prepared/executed */
    const db_value *pending;        /* parameters of an execute waiting on its prepare */
    PGresult       *res;            /* result of the last exec/query */
    PGresult       *err_res;        /* first error result of the operation in flight */
    int             row;            /* current row of res, -1 before the first */
    int64_t         affected;
    uint64_t        deadline_ms;    /* connect: give up after this (monotonic ms) */
    char           *pbuf;           /* parameter values as text */
    size_t          pcap;
    const char    **pvals;
    int             pvcap;
    /* pipeline mode: what was sent and awaits its answer, in order: a
     * statement index for an execute, -1 - index for its Parse, PG_TEXT
     * for a text query */
    bool            piped;
    int            *inflight;
    int             ninflight, inflight_cap, inflight_head;
} pg_priv;

#define PG_TEXT (-1000000)

/* "?" placeholders to $1..$n, outside quoted strings and identifiers.
 * Returns a malloc'ed string the caller frees, or NULL. */
char *pg_rewrite_placeholders(const char *sql);
/* Parameter values as text (libpq's text format needs NUL-terminated
 * strings), in p->pvals; they live in p->pbuf until the next execute. 0,
 * or -1 with c->err set (out of memory). */
int   pg_text_params(db_conn *c, const db_value *v, int n) DB_MUST_CHECK;
/* Statement stmt with the values v inlined (--db-ps-mode=disable), strings
 * escaped by PQescapeStringConn. Returns a malloc'ed string the caller
 * frees, or NULL with c->err set (out of memory). */
char *pg_inline_params(db_conn *c, int stmt, const db_value *v);

#endif
