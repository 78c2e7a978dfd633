/*
 * drv_mysql.h — private to the MySQL driver's two files: drv_mysql.c (the
 * driver) and drv_mysql_infile.c (the bulk load's in-memory file, which
 * drv_mysql.c installs and which calls nothing of it).
 */
#ifndef OLTP_DRV_MYSQL_H
#define OLTP_DRV_MYSQL_H

#include <mysql.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "drivers/db.h"

#define COL_BUF 1024            /* longest column value read back (TPC-C: 500) */

typedef enum {
    OP_NONE, OP_CONNECT, OP_QUERY, OP_QUERY_STORE, OP_PREPARE, OP_EXECUTE,
    OP_STMT_STORE,
    OP_DRY,                     /* --mysql-dry-run: done at the next call of cont */
} mysql_op;

typedef struct my_stmt {
    MYSQL_STMT   *h;            /* NULL until prepared on this session */
    MYSQL_BIND   *params;       /* bound once; values are copied into the buffers below */
    unsigned long *lens;
    int64_t      *ival;
    double       *dval;
    char        **sbuf;
    unsigned long *scap;
    bool          bound;
    MYSQL_BIND   *res;          /* result binds, made on the first row read */
    char         *resbuf;
    unsigned long *reslen;
    my_bool      *resnull;
    unsigned int  ncols;
} my_stmt;

typedef struct my_priv {
    MYSQL     *m;
    bool       connected;
    mysql_op   op;
    int        cur;             /* statement being prepared/executed */
    const db_value *pending;    /* parameters of an execute waiting on prepare */
    my_stmt   *st;
    MYSQL_RES *res;             /* stored text-protocol result */
    MYSQL_ROW  row;
    unsigned long *rowlen;
    my_stmt   *last;            /* statement whose result is current */
    int64_t    affected;
    char      *text;            /* --db-ps-mode=disable: the statement in flight */
    int        dry_fd;          /* --mysql-dry-run: an eventfd, always writable */
    /* the bulk load in progress: rows are encoded one at a time into line */
    db_bulk   *bulk;
    db_value  *brow;
    char      *line;
    size_t     line_cap, line_len, line_off;
    int64_t    bulk_sent;
    bool       bulk_end, bulk_failed;
} my_priv;

/* Connector/C's local-infile callbacks (mysql_set_local_infile_handler,
 * userdata: the connection's my_priv): only a load of ours gets rows. */
int  my_infile_init(void **ptr, const char *name, void *userdata);
int  my_infile_read(void *ptr, char *buf, unsigned int len);
void my_infile_end(void *ptr);
int  my_infile_error(void *ptr, char *msg, unsigned int len);
/* Is code a refusal of LOAD DATA LOCAL itself (server or client)? */
bool my_infile_refused(unsigned int code);
/* --mysql-dry-run's load: every row of b made and taken (b->rows); DB_DONE,
 * or DB_ERROR with c->err set. */
int  my_infile_dry(db_conn *c, db_bulk *b);

#endif
