/*
 * db.h — the one database interface of oltp.
 *
 * Every operation is asynchronous: `*_start` begins it and returns
 * DB_DONE, DB_ERROR, or DB_WAIT with c->wait saying which socket events
 * (DB_WAIT_READ/WRITE, and DB_WAIT_TIMEOUT with c->timeout_ms) the driver
 * waits for; the caller polls c->fd and calls db_cont() with the events that
 * happened until it gets DB_DONE or DB_ERROR. Workers drive this from a
 * libuv loop; db_sync() turns any operation into a blocking call for the
 * setup commands (prepare, cleanup, checks).
 *
 * Statements are numbered by the workload (0..nstmts-1, see db_stmt_def);
 * a driver prepares each on the server the first time it is executed on a
 * connection, and again after a reconnect.
 *
 * Only db.c dispatches through struct db_driver; each driver is one file
 * whose functions are static and which exports one const table.
 */
#ifndef OLTP_DB_H
#define OLTP_DB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "drivers/dialect.h"

enum { DB_DONE = 0, DB_WAIT = 1, DB_ERROR = -1 };
enum { DB_WAIT_READ = 1, DB_WAIT_WRITE = 2, DB_WAIT_TIMEOUT = 8 };

/* What to do about an error (sysbench's classification, extended). */
typedef enum {
    DB_ERR_NONE = 0,
    DB_ERR_RETRY,        /* roll back and retry the transaction (deadlock, lock wait) */
    DB_ERR_RECONNECT,    /* connection lost: reconnect, then retry */
    DB_ERR_FATAL,        /* stop: report and exit */
} db_err_class;

typedef struct db_error {
    int          code;          /* server or client error number */
    char         sqlstate[6];
    char         msg[512];
    db_err_class cls;
} db_error;

/* Kinds of statement, for the read/write/other query counts. */
typedef enum { DB_Q_READ, DB_Q_WRITE, DB_Q_OTHER } db_qkind;

/*
 * Transaction control. A driver whose client API ends transactions itself
 * (ODBC: SQL_ATTR_AUTOCOMMIT off, then SQLEndTran) has the trx_start
 * operation, and no BEGIN/COMMIT/ROLLBACK text is ever sent through it:
 * SQL Server fails a prepared (RPC) execution that changes @@TRANCOUNT
 * with error 266, and ODBC's own model is the connection attribute. The
 * native drivers have no trx_start: the dialect's statement text runs as
 * any statement (sysbench's behaviour, kept for parity).
 */
typedef enum {
    DB_TRX_NONE = 0,            /* an ordinary statement */
    DB_TRX_BEGIN,               /* open a transaction (ODBC: autocommit off) */
    DB_TRX_COMMIT,
    DB_TRX_ROLLBACK,            /* succeeds when the server already rolled
                                 * back (a deadlock victim, XACT_ABORT) */
} db_trx;

typedef struct db_stmt_def {
    const char *sql;            /* with ? placeholders (drivers rewrite as needed);
                                 * with trx set: the dialect's text, run only by a
                                 * driver without trx_start (NULL for T-SQL) */
    int         nparams;
    db_qkind    kind;
    db_trx      trx;            /* DB_TRX_NONE, or the transaction control it is */
    /* a unique-key violation of this statement is a conflict with a
     * concurrent transaction (sysbench's DELETE then INSERT of one id),
     * rolled back and retried like a deadlock (dialect_unique_violation) */
    bool        unique_retry;
    /* run once by a driver when this statement fails, its own result
     * ignored (the statement's error stays the one reported): session
     * state the failed batch may have left behind, such as T-SQL's
     * IDENTITY_INSERT, which one table per session may hold (Babelfish
     * ends the batch at its INSERT's 2627 before the batch's own OFF;
     * on SQL Server the OFF is a no-op). NULL: none. */
    const char *on_fail_sql;
} db_stmt_def;

/* DB_T_INT is a value of an INT (32-bit) column: drivers that declare
 * parameter types (ODBC) send it as SQL_INTEGER, so SQL Server compares
 * INT with INT (every integer column of oltp's schemas is INT). */
typedef enum { DB_T_INT, DB_T_DOUBLE, DB_T_STRING, DB_T_NULL } db_type;

typedef struct db_value {
    db_type     type;
    int64_t     i;
    double      d;
    const char *s;              /* DB_T_STRING: not NUL-terminated */
    size_t      len;
} db_value;

static inline db_value db_int(int64_t v) { db_value x = { .type = DB_T_INT, .i = v }; return x; }
static inline db_value db_dbl(double v) { db_value x = { .type = DB_T_DOUBLE, .d = v }; return x; }
static inline db_value db_str(const char *s, size_t n) { db_value x = { .type = DB_T_STRING, .s = s, .len = n }; return x; }

/* Connection settings, filled from the command line. */
typedef enum { DB_ODBC_ARRAYS, DB_ODBC_BCP, DB_ODBC_VALUES } db_odbc_bulk;
/* --db-ps-mode: statements server-side prepared (auto), or sent as text
 * with their values inlined (disable: MySQL's text protocol, PostgreSQL's
 * simple query protocol), as sysbench sends them */
typedef enum { DB_PS_AUTO, DB_PS_DISABLE } db_ps_mode;

typedef struct db_config {
    const char *host, *socket, *user, *password, *database;
    int         port;
    /* errors to roll back and retry; `ignore_all` retries every server error */
    int         ignore_errors[32];
    int         n_ignore_errors;
    bool        ignore_all;
    int         connect_timeout_s;
    /* mysql bulk loads: unique_checks=0 and foreign_key_checks=0 for the
     * load session (InnoDB's empty-table bulk insert) */
    bool        mysql_empty_table_bulk;
    /* --pipeline=on: statements the workload marks independent are queued
     * (db_exec_queue) and sent with the next one that waits (pgsql only) */
    bool        pipeline;
    db_ps_mode  ps_mode;
    /* --mysql-dry-run: the mysql driver contacts no server and every
     * operation succeeds at once, with no rows (sysbench's dry run) */
    bool        dry_run;
    /* how ODBC bulk loads travel (--bulk=on|bcp|values): parameter
     * arrays; SQL Server's bulk copy (the connection looks for the
     * driver's bcp functions when it opens and fails without them); or
     * INSERTs of many row constructors, their values as parameters */
    db_odbc_bulk odbc_bulk;
    /* ODBC: a data source name, or a full connection string (one of them) */
    const char *dsn, *conn_str;
    /* the SQL dialect of the server, resolved by main.c before any
     * connection runs a workload (see dialect.h) */
    db_dialect  dialect;
} db_config;

/*
 * A bulk load (prepare only): rows of one table, pulled by the driver from
 * a producer and sent the fastest way the server takes them — MariaDB's
 * LOAD DATA LOCAL INFILE fed from memory, PostgreSQL's COPY FROM STDIN,
 * ODBC parameter arrays. The producer decides the rows; the path does not
 * change them.
 */
typedef struct db_bulk_col {
    const char *name;
    db_type     type;           /* DB_T_INT, DB_T_DOUBLE or DB_T_STRING; any
                                 * row may give DB_T_NULL instead */
    size_t      width;          /* DB_T_STRING: the longest value, in bytes */
} db_bulk_col;

typedef struct db_bulk {
    const char        *table;
    const db_bulk_col *cols;
    int                ncols;
    /* Fill row[0..ncols-1] with the next row. Returns 1, 0 when there are
     * no more rows, or -1 to abort the load (after printing why). String
     * values stay valid until the next call. */
    int              (*next)(void *ctx, db_value *row);
    void              *ctx;
    int64_t            rows;    /* out: rows the server took */
} db_bulk;

struct db_driver;

typedef struct db_conn {
    const struct db_driver *drv;
    const db_config        *cfg;
    const db_stmt_def      *stmts;      /* the workload's statement table */
    int                     nstmts;
    void                   *priv;       /* driver state */
    int                     wait;       /* after DB_WAIT: events awaited */
    int                     timeout_ms; /* after DB_WAIT with DB_WAIT_TIMEOUT */
    db_error                err;        /* after DB_ERROR */
} db_conn;

struct db_driver {
    const char *name;
    int  (*init)(db_conn *c);                    /* allocate c->priv; no I/O */
    void (*free)(db_conn *c);                    /* close and release; accepts a closed conn */
    int  (*connect_start)(db_conn *c);
    int  (*exec_start)(db_conn *c, int stmt, const db_value *params);
    int  (*query_start)(db_conn *c, const char *sql, size_t len);
    int  (*cont)(db_conn *c, int events);        /* continue the operation in progress */
    int  (*fd)(const db_conn *c);
    void (*disconnect)(db_conn *c);              /* drop the session, keep c usable for connect */
    /* Results of the last exec/query (all rows are buffered). */
    int64_t (*num_rows)(const db_conn *c);
    int64_t (*affected_rows)(const db_conn *c);
    /* Move to the next row; returns 1, or 0 when there are no more. */
    int  (*next_row)(db_conn *c);
    /* Column `col` of the current row as text (NULL for SQL NULL). */
    const char *(*col)(db_conn *c, int col, size_t *len);
    const char *(*server_version)(const db_conn *c);
    /* The dialect this driver always speaks, or DB_DIALECT_AUTO when it
     * depends on the server (then dbms_name tells which). */
    db_dialect dialect;
    /* optional: the DBMS product name of a connected session */
    const char *(*dbms_name)(const db_conn *c);
    /* optional: load b->rows (see db_bulk) into an existing table; may
     * block, may return DB_WAIT like any operation */
    int  (*bulk_start)(db_conn *c, db_bulk *b);
    /* optional (--pipeline=on): send an execute without waiting for its
     * answer; see db_exec_queue */
    int  (*exec_queue)(db_conn *c, int stmt, const db_value *params);
    /* optional: begin, commit or roll back with the client API's own
     * transaction calls (see db_trx); a rollback with no transaction left
     * on the server succeeds */
    int  (*trx_start)(db_conn *c, db_trx op);
};

/* Look up a driver by name ("mysql"); NULL when unknown. */
const struct db_driver *db_driver_find(const char *name);
const char *db_driver_names(void);

int  db_init(db_conn *c, const struct db_driver *d, const db_config *cfg,
             const db_stmt_def *stmts, int nstmts);
void db_free(db_conn *c);                        /* accepts a zeroed conn */
int  db_connect_start(db_conn *c);
/* A statement with trx set runs as db_trx_start(c, trx) when the driver
 * has trx_start, else as its text. */
int  db_exec_start(db_conn *c, int stmt, const db_value *params);
int  db_query_start(db_conn *c, const char *sql);
/* Begin, commit or roll back: the driver's transaction call when it has
 * one, else the dialect's statement text (dialect.h). DB_ERROR with
 * "not supported by this driver" when neither exists. */
int  db_trx_start(db_conn *c, db_trx op);
int  db_cont(db_conn *c, int events);
/* Pipelining (--pipeline=on, drivers with exec_queue): send the execute of
 * `stmt` without waiting for its answer. Returns DB_DONE once it is queued
 * (no result is kept for it), or DB_ERROR. The next db_exec_start() or
 * db_query_start() sends its own statement after the queued ones, in
 * order, and waits for every answer: its result is its own statement's,
 * and the first error of any of them (the server skips the rest) is its
 * error. A statement the driver runs through trx_start is not queued: it
 * runs as db_exec_start (and may return DB_WAIT). */
int  db_exec_queue(db_conn *c, int stmt, const db_value *params);
/* True when the driver can pipeline (db_exec_queue). */
bool db_pipeline_supported(const struct db_driver *d);
int  db_fd(const db_conn *c);
void db_disconnect(db_conn *c);
int64_t db_num_rows(const db_conn *c);
int64_t db_affected_rows(const db_conn *c);
int  db_next_row(db_conn *c);
const char *db_col(db_conn *c, int col, size_t *len);
int64_t db_col_int(db_conn *c, int col);
double  db_col_double(db_conn *c, int col);
const char *db_server_version(const db_conn *c);
/* The DBMS product name of a connected session; NULL when the driver
 * cannot tell (drivers with a fixed dialect need not). */
const char *db_dbms_name(const db_conn *c);

/* Block (poll) until the operation `status` started finishes. */
int  db_sync(db_conn *c, int status);
/* Blocking conveniences for setup code. */
int  db_connect(db_conn *c);
int  db_query(db_conn *c, const char *sql);
int  db_exec(db_conn *c, int stmt, const db_value *params);
int  db_trx_sync(db_conn *c, db_trx op);

/* Did a failed connect reach a server that refused the login (SQLSTATE
 * class 28, invalid authorization, or 3D, no such database) rather than
 * reach no server at all? Drivers report those two with these standard
 * SQLSTATEs whatever their client library says. */
bool db_error_is_login(const db_error *e);
/* Did a failed connect find the server at a session limit (its own or the
 * user's)? Drivers report it as SQLSTATE 53300, PostgreSQL's
 * too_many_connections: MariaDB/MySQL 1040, 1203 and 1226, SQL Server
 * 17809, PostgreSQL's "too many clients" and "too many connections for". */
bool db_error_is_session_limit(const db_error *e);
/* Did db_bulk_load() fail because the server refuses the bulk path itself
 * (LOAD DATA LOCAL with local_infile off, COPY FROM a table or role it
 * will not take it for), before any row was taken? Drivers report that
 * as SQLSTATE 0A000, feature_not_supported, with c->err.code the server's
 * number and a message that names the path and the server's reason; the
 * same rows can then go in with INSERTs. */
bool db_error_is_bulk_refused(const db_error *e);
/* True when the driver has a bulk path (db_bulk_load). */
bool db_bulk_supported(const db_conn *c);
/* Load every row b->next() gives into table b->table, blocking; sets
 * b->rows. Returns DB_DONE, or DB_ERROR with c->err set (also when the
 * driver has no bulk path: "not supported by this driver"). A failed load
 * may leave some rows in the table. */
int  db_bulk_load(db_conn *c, db_bulk *b);
/* For drivers: row[0..n-1] as one line of tab-separated text in the
 * escaping LOAD DATA and COPY share (\\, \t, \n, \r escaped, \N for NULL),
 * newline included, into out. Returns its length, or 0 when cap is too
 * small. */
size_t db_bulk_tsv(const db_value *row, int n, char *out, size_t cap);
/* For drivers: the longest line db_bulk_tsv() can make for b's columns. */
size_t db_bulk_tsv_max(const db_bulk *b);
/* "INSERT INTO t (c1, c2) VALUES (?, ?)" for b, the statement a driver
 * binds arrays of rows to. Returns a string the caller frees, or NULL. */
char *db_bulk_insert_sql(const db_bulk *b);
/* The same with `rows` row constructors ((?, ?), (?, ?), ...); malloc'd. */
char *db_bulk_insert_rows_sql(const db_bulk *b, int rows);

/* For drivers: the first ? placeholder at or after s outside quoted
 * strings and identifiers ('...', "...", `...`), s itself outside them;
 * NULL when there is none. */
const char *db_next_placeholder(const char *s);
/* For drivers (--db-ps-mode=disable): sql with each ? placeholder outside
 * quotes replaced by its value as SQL text — integers in decimal, doubles
 * with 17 significant digits, NULL, strings between single quotes as
 * escape() writes them (at most 2 * len bytes into out, returning their
 * length; the client library's own: it knows the session's character set
 * and quoting rules). Returns a malloc'd NUL-terminated string with its
 * length in *len, or NULL when out of memory. */
typedef size_t (*db_escape_fn)(void *ctx, char *out, const char *s, size_t len);
char *db_inline_params(const char *sql, const db_value *v, int n, db_escape_fn escape, void *ctx,
                       size_t *len);

/* Did the server say its disk is full? MariaDB/MySQL 1021 ER_DISK_FULL
 * and 1114 ER_RECORD_FILE_FULL, an errno 28 ("No space left on device")
 * in the message, PostgreSQL SQLSTATE 53100 disk_full and 53000
 * insufficient_resources (which it also uses for a full disk). */
bool db_error_is_disk_full(const db_error *e);

/* Classify a server error number by the ignore list (shared by drivers). */
db_err_class db_classify(const db_config *cfg, int code, db_err_class otherwise);
/* Set c->err (printf-style message). */
void db_set_error(db_conn *c, int code, const char *sqlstate, db_err_class cls,
                  const char *fmt, ...) __attribute__((format(printf, 5, 6)));

#endif
