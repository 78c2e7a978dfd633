/*
 * dbsize.c — the database's size from the dialect's statements (dbsize.h).
 */
#include "dbsize.h"

#include <inttypes.h>
#include <stdlib.h>

/* One figure: the sum of q's columns over every row; no row at all, and
 * q has a no_row statement: that one's figure. 0, or -1 after printing
 * why (*bytes RES_UNSET). */
static int read_figure(db_conn *c, const dialect_size *q, const char *what, int64_t *bytes)
{
    int64_t sum = 0;
    int rows = 0;
    *bytes = RES_UNSET;
    if (!q->sql)
        return 0;
    if (db_query(c, q->sql) != DB_DONE) {
        fprintf(stderr, "oltp: warning: cannot read the database's %s size: error %d: %s\n",
                what, c->err.code, c->err.msg);
        return -1;
    }
    for (; db_next_row(c) > 0; rows++)
        for (int i = 0; i < DIALECT_SIZE_COLS; i++)
            if (q->cols[i] >= 0)
                sum += db_col_int(c, q->cols[i]);     /* NULL: 0 */
    if (rows == 0 && q->no_row)
        return read_figure(c, q->no_row, what, bytes);
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
    rc = read_figure(c, &def->size_data, "data", &out->data_bytes);
    return read_figure(c, &def->size_log, "log", &out->log_bytes) < 0 ? -1 : rc;
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
