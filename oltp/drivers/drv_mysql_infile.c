/*
 * drv_mysql_infile.c — the MySQL driver's LOAD DATA LOCAL INFILE from
 * memory (drv_mysql.h): Connector/C's local-infile callbacks, which make
 * the "file" of a bulk load row by row as the server reads it; the errors
 * that refuse the path itself; and --mysql-dry-run's load.
 */
#include "drivers/drv_mysql.h"

#include <errmsg.h>
#include <mysqld_error.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The server asks for the "file": only a load of ours gets rows, so a
 * server cannot make oltp send anything it did not start. */
int my_infile_init(void **ptr, const char *name, void *userdata)
{
    my_priv *p = userdata;
    *ptr = p;
    return p->bulk ? 0 : 1;
}

/* Fill buf with the next bytes of the tab-separated rows; 0 at the end,
 * -1 when the producer failed. */
int my_infile_read(void *ptr, char *buf, unsigned int len)
{
    my_priv *p = ptr;
    unsigned int n = 0;

    while (n < len) {
        if (p->line_off == p->line_len) {
            int r;
            if (p->bulk_end)
                break;
            r = p->bulk->next(p->bulk->ctx, p->brow);
            if (r < 0) {
                p->bulk_failed = true;
                return -1;
            }
            if (r == 0) {
                p->bulk_end = true;
                break;
            }
            p->line_len = db_bulk_tsv(p->brow, p->bulk->ncols, p->line, p->line_cap);
            p->line_off = 0;
            if (p->line_len == 0) {
                p->bulk_failed = true;
                return -1;
            }
            p->bulk_sent++;
        }
        {
            size_t k = p->line_len - p->line_off;
            if (k > len - n)
                k = len - n;
            memcpy(buf + n, p->line + p->line_off, k);
            p->line_off += k;
            n += (unsigned int)k;
        }
    }
    return (int)n;
}

void my_infile_end(void *ptr)
{
    (void)ptr;
}

int my_infile_error(void *ptr, char *msg, unsigned int len)
{
    my_priv *p = ptr;
    snprintf(msg, len, "%s", !p->bulk ? "oltp sends no file it did not ask to load"
                             : p->bulk_failed ? "the rows to load could not be made" : "load aborted");
    return CR_UNKNOWN_ERROR;
}

/* The errors of a server (or client library) that will not take LOAD
 * DATA LOCAL at all: MariaDB's 4166 and MySQL 5.7's 1148 (local_infile
 * off), MySQL 8's 3948 (its default, local_infile=0) and 2068 (its client
 * refusing). Each comes before any row is read (db_error_is_bulk_refused). */
bool my_infile_refused(unsigned int code)
{
    return code == ER_LOAD_INFILE_CAPABILITY_DISABLED || code == ER_NOT_ALLOWED_COMMAND
           || code == 3948 || code == 2068;
}

int my_infile_dry(db_conn *c, db_bulk *b)
{
    db_value *row = calloc((size_t)b->ncols, sizeof(db_value));
    int r = 0;
    while (row && (r = b->next(b->ctx, row)) > 0)
        b->rows++;
    free(row);
    if (!row || r < 0) {
        db_set_error(c, 0, "HY000", DB_ERR_FATAL, "the rows for %s could not be made", b->table);
        return DB_ERROR;
    }
    return DB_DONE;
}
