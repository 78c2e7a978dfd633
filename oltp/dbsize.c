/*
 * dbsize.c — the database's size from the dialect's statements (dbsize.h).
 */
#include "dbsize.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* q's refresh statement over every table list_tables names, each quoted
 * as dialect d quotes names; its result rows read and dropped. A refresh
 * that fails leaves the figure as the server has it: one warning line. */
static void refresh(db_conn *c, const dialect_def *d, const dialect_size *q, const char *what)
{
    size_t len = strlen(q->refresh), cap = len + 64;
    char *sql = malloc(cap);
    int n = 0;

    if (!sql || db_query(c, q->list_tables) != DB_DONE)
        goto fail;
    memcpy(sql, q->refresh, len + 1);
    while (db_next_row(c) > 0) {
        const char *name = db_col(c, 0, NULL);
        size_t need = len + 4 + 2 * (name ? strlen(name) : 0) + 1;
        if (!name)
            continue;
        if (need > cap) {
            char *bigger = realloc(sql, cap = 2 * need);
            if (!bigger) {
                while (db_next_row(c) > 0)
                    ;
                goto fail;
            }
            sql = bigger;
        }
        sql[len++] = n++ ? ',' : ' ';
        sql[len++] = d->quote_open;
        for (; *name; name++) {             /* a quote in a name is doubled */
            sql[len++] = *name;
            if (*name == d->quote_close)
                sql[len++] = *name;
        }
        sql[len++] = d->quote_close;
        sql[len] = '\0';
    }
    if (n > 0) {
        if (db_query(c, sql) != DB_DONE)
            goto fail;
        while (db_next_row(c) > 0)
            ;
    }
    free(sql);
    return;
fail:
    fprintf(stderr, "oltp: warning: cannot refresh the server's figures before reading the database's %s size%s%s\n",
            what, c->err.msg[0] ? ": " : "", c->err.msg);
    free(sql);
}

/* One figure: the sum of q's columns over every row; no row at all, or
 * the statement refused, and q has a fallback: that one's figure. 0, or
 * -1 after printing why (*bytes RES_UNSET). */
static int read_figure(db_conn *c, const dialect_def *d, const dialect_size *q, const char *what,
                       int64_t *bytes)
{
    int64_t sum = 0;
    int rows = 0;
    *bytes = RES_UNSET;
    if (!q->sql)
        return 0;
    if (q->refresh)
        refresh(c, d, q, what);
    if (db_query(c, q->sql) != DB_DONE) {
        if (q->fallback)
            return read_figure(c, d, q->fallback, what, bytes);
        fprintf(stderr, "oltp: warning: cannot read the database's %s size: error %d: %s\n",
                what, c->err.code, c->err.msg);
        return -1;
    }
    for (; db_next_row(c) > 0; rows++)
        for (int i = 0; i < DIALECT_SIZE_COLS; i++)
            if (q->cols[i] >= 0)
                sum += db_col_int(c, q->cols[i]);     /* NULL: 0 */
    if (rows == 0 && q->fallback)
        return read_figure(c, d, q->fallback, what, bytes);
    *bytes = sum;
    return 0;
}

int dbsize_read(db_conn *c, db_dialect d, res_db_size *out)
{
    const dialect_def *def = dialect_get(d);
    int rc;
    out->data_bytes = out->log_bytes = RES_UNSET;
    if (c->cfg->dry_run)
        return 0;               /* no server: no size (--mysql-dry-run) */
    rc = read_figure(c, def, &def->size_data, "data", &out->data_bytes);
    return read_figure(c, def, &def->size_log, "log", &out->log_bytes) < 0 ? -1 : rc;
}

static double mib(int64_t b)
{
    return (double)b / (1024.0 * 1024.0);
}

void dbsize_print(FILE *out, const char *when, const res_db_size *s)
{
    if (!res_db_known(s->data_bytes))
        return;
    if (res_db_known(s->log_bytes))
        fprintf(out, "database size (%s): %.1f MiB (data %.1f MiB, log %.1f MiB)\n", when,
                mib(s->data_bytes + s->log_bytes), mib(s->data_bytes), mib(s->log_bytes));
    else
        fprintf(out, "database size (%s): %.1f MiB (data %.1f MiB, no log of its own)\n", when,
                mib(s->data_bytes), mib(s->data_bytes));
}
