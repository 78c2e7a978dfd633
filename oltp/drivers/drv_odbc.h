/*
 * drv_odbc.h — private to the ODBC driver's three files (drv_odbc.c: the
 * driver interface, the connection's thread, statements and results;
 * drv_odbc_session.c: the session and its errors; drv_odbc_bulk.c: bulk
 * loads): the connection's state and what they call across.
 */
#ifndef OLTP_DRV_ODBC_H
#define OLTP_DRV_ODBC_H

#include "drivers/db.h"
#include "drivers/odbc_bcp.h"

#include <errno.h>
#include <pthread.h>
#include <sql.h>
#include <sqlext.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#define COL_BUF      1024               /* longest column value read back */
#define THREAD_STACK (512 * 1024)

typedef enum { REQ_NONE, REQ_CONNECT, REQ_EXEC, REQ_QUERY, REQ_BULK, REQ_TRX } od_req;

#define BULK_ROWS 1000                  /* rows per parameter array */
#define BCP_BATCH_ROWS 10000            /* rows per bulk copy batch (a transaction) */
/* --bulk=values: parameters per INSERT, below SQL Server's 2,100 per
 * request ("Maximum capacity specifications for SQL Server"); a VALUES
 * list takes at most 1,000 rows (BULK_ROWS) */
#define VALUES_PARAMS 2000

/* SQL Server's error numbers (sys.messages) */
#define MSSQL_DEADLOCK      1205        /* chosen as deadlock victim: rolled back */
#define MSSQL_PROC_RETRY    51205       /* tpcc_delivery's THROW: retry as a deadlock */
#define MSSQL_NO_TRAN       3903        /* ROLLBACK with no corresponding BEGIN TRANSACTION */

typedef struct od_cell { size_t off; SQLLEN len; } od_cell;   /* len -1 = NULL */

/* Rows of the last result set, as text in one arena. */
typedef struct od_rows {
    char    *data;
    size_t   len, cap;
    od_cell *cells;
    size_t   ncells, cellcap;
    int      ncols;
    int64_t  nrows;
} od_rows;

typedef struct od_priv {
    /* --- shared between the loop thread and the connection's thread --- */
    pthread_mutex_t lock;
    pthread_cond_t  cond;
    od_req          req;            /* posted by the loop, taken by the thread */
    bool            busy;           /* a request is posted or running */
    bool            quit;           /* free(): thread tears down and exits */
    bool            reset;          /* disconnect(): drop the session before the next connect */
    int             status;         /* DB_DONE or DB_ERROR of the finished request */
    db_error        err;
    SQLHSTMT        active;         /* statement executing, for SQLCancel */
    pthread_t       th;
    bool            started;
    int             efd;
    /* request arguments (read by the thread while busy) */
    int             stmt;
    const db_value *params;
    char           *sql;
    db_bulk        *bulk;
    db_trx          trx;
    /* --- owned by the connection's thread (read by the loop when idle) --- */
    SQLHENV         env;
    SQLHDBC         dbc;
    bool            connected;
    bool            manual;         /* autocommit is off (a workload began a transaction) */
    SQLHSTMT       *st;             /* per statement; NULL until prepared */
    SQLHSTMT        q;              /* text statements */
    const char     *pending_reset;  /* a failed statement's on_fail_sql not yet run (its
                                     * transaction refused it): run after the rollback */
    SQLLEN         *ind;            /* parameter length/indicator */
    SQLINTEGER     *ival;           /* DB_T_INT parameters as SQL_INTEGER */
    int             nind;
    char           *colbuf;         /* bound result columns */
    SQLLEN         *colind;
    int             colcap;
    int             dialect;        /* of the server, from SQL_DBMS_NAME; -1 unknown */
    odbc_bcp        bcp;            /* --bulk=bcp: the driver's bulk copy, found at connect */
    char            dbms[64], version[64];
    od_rows         rows;
    int64_t         affected;
    /* --- loop thread only --- */
    int64_t         row;            /* cursor into rows, -1 before the first */
} od_priv;

/* --- drv_odbc_session.c (connection thread) --- */

/* Store the first diagnostic record of handle h (of type) as the
 * request's error, classified; what names the failed call. DB_ERROR. */
int  od_fail(db_conn *c, SQLSMALLINT type, SQLHANDLE h, const char *what);
/* A failed bcp call: the first record with an error number (the
 * server's; FreeTDS adds its own after it). DB_ERROR. */
int  od_bcp_fail(db_conn *c, const char *what);
/* Out of memory, as p->err. DB_ERROR. */
int  od_oom(db_conn *c);
/* Drop the session's statements and connection (the environment stays). */
void od_free_session(db_conn *c);
/* Connect (REQ_CONNECT). DB_DONE or DB_ERROR. */
int  od_do_connect(db_conn *c);
/* The statement executing, for SQLCancel from the loop thread. */
void od_set_active(od_priv *p, SQLHSTMT h);
/* An int64 value of an INT column as the SQLINTEGER bound for it; -1
 * when it does not fit (then p->err says so). */
int  od_int_param(db_conn *c, int64_t v, SQLINTEGER *out);

/* --- drv_odbc_bulk.c (connection thread) --- */

/* A bulk load (REQ_BULK) by the path of --bulk: arrays, VALUES or bcp.
 * DB_DONE or DB_ERROR. */
int  od_do_bulk(db_conn *c);

#endif
