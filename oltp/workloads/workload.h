/*
 * workload.h — the interface between the engine and a workload.
 *
 * A transaction is a resumable step function: the engine calls
 * trx_begin() once, then step() repeatedly. Each step either asks for one
 * statement to run (WL_STMT, described in *act) or ends the transaction.
 * When step() is called again, the results of the previous statement are
 * on the connection (db_next_row/db_col). The workload never calls a
 * client library and never knows which driver runs it.
 *
 * Only engine.c and main.c dispatch through struct workload.
 */
#ifndef OLTP_WORKLOAD_H
#define OLTP_WORKLOAD_H

#include "drivers/db.h"
#include "attributes.h"
#include "options/options.h"
#include "options/rand.h"

#define WL_MAX_TYPES 8

typedef enum {
    WL_STMT,            /* run act->stmt (or act->sql when stmt < 0) */
    WL_END,             /* committed */
    WL_END_ROLLBACK,    /* ended by a rollback the workload asked for (TPC-C 1 %) */
    WL_FAIL,            /* the workload found an error: act->err says what */
    WL_RETRY,           /* the workload found a conflict (e.g. a row another
                         * transaction took first): roll back and run the same
                         * transaction again, counted as a retry */
} wl_step;

typedef struct wl_action {
    int             stmt;       /* index into run->stmts, or -1 for sql */
    const db_value *params;     /* must stay valid until the next step() */
    const char     *sql;        /* text statement when stmt < 0 */
    db_qkind        kind;       /* for the read/write/other counts of text statements */
    bool            queue;      /* nothing later in the transaction reads this
                                 * statement's result, and it is not the last:
                                 * with --pipeline=on it is sent without
                                 * waiting for its answer (db_exec_queue) */
    char            err[DB_ERR_LEN];
} wl_action;

/* What a workload command that failed says, returned to main.c, which
 * prints it once (the project's model: errors returned, not printed).
 * `msg` is one line without its "oltp: " and newline; "" when the
 * command's own output already said why (tpcc check's FAILED lines).
 * `sysbench_voice`: a message sysbench's users read as a FATAL line
 * (opts_msg_prefix() on opts_msg_file()); else "oltp: " on stderr. */
typedef struct wl_err {
    char msg[DB_ERR_LEN];
    bool sysbench_voice;
} wl_err;

/* Write the message (sysbench_voice false); returns -1 for `return
 * wl_err_set(...)`. */
int wl_err_set(wl_err *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* What a workload sets up once per command, shared read-only by all workers. */
typedef struct wl_run {
    const oltp_opts *o;
    db_stmt_def     *stmts;
    int              nstmts;
    void            *data;      /* workload-private */
} wl_run;

typedef struct workload {
    const char *name;
    const char *summary;
    /* Types of transaction reported separately (TPC-C); 0 or 1 = one type. */
    int         ntypes;
    const char *const *type_names;
    /* Optional figures of a benchmark standard (TPC-C), printed by
     * report.c when set: the headline rate is the count of type tpm_type
     * per minute, named tpm_name ("tpmC"); per type, the limit of its
     * 90th-percentile latency in seconds (0 = none) and the minimum share
     * of the mix (0 = none). */
    const char   *tpm_name;
    int           tpm_type;
    const double *type_p90_limit_s;
    const double *type_min_share;
    /* Optional: a count the server keeps of the committed transactions of
     * type tpm_type (TPC-C: SUM(D_NEXT_O_ID)), read into *count at the
     * start and the end of the measured phase; the difference per minute
     * is reported as server_rate_name ("NOPM") beside tpm_name. 0, or -1
     * with *err saying why. */
    const char   *server_rate_name;
    int  (*server_count)(const wl_run *run, db_conn *c, int64_t *count, wl_err *err) DB_MUST_CHECK;

    /* Validate options and build the statement table. 0, or -1 with *err
     * saying why. */
    int  (*setup)(wl_run *run, wl_err *err) DB_MUST_CHECK;
    void (*teardown)(wl_run *run);

    /* Commands. prepare() is called by each of nthreads loader threads with
     * its own blocking connection; the others once. They print their
     * progress on stdout and return 0, or -1 with *err saying why (main.c
     * prints it). `progress` counts rows. */
    int  (*prepare)(const wl_run *run, db_conn *c, int thread, int nthreads,
                    int64_t *progress, int64_t *total, wl_err *err) DB_MUST_CHECK;
    int  (*cleanup)(const wl_run *run, db_conn *c, wl_err *err) DB_MUST_CHECK;
    int  (*check_ready)(const wl_run *run, db_conn *c, wl_err *err) DB_MUST_CHECK;   /* before run */
    int  (*check)(const wl_run *run, db_conn *c, wl_err *err) DB_MUST_CHECK;         /* optional */
    /* Optional, MySQL only (main.c checks the dialect): read the tables
     * into the server's caches, as sysbench's `prewarm`; called like
     * prepare() by each of nthreads threads. */
    int  (*prewarm)(const wl_run *run, db_conn *c, int thread, int nthreads, wl_err *err) DB_MUST_CHECK;

    /* Per-connection transaction state. */
    void *(*conn_new)(const wl_run *run, int conn_id, rng *r);
    void  (*conn_free)(void *state);
    /* Start a new transaction; returns its type (0..ntypes-1). */
    int   (*trx_begin)(void *state);
    wl_step (*step)(void *state, db_conn *c, wl_action *act);
    /* Keying + think time before a terminal's next transaction, in
     * seconds; used only with terminals (below). NULL or 0 = none. */
    double (*pause_before)(void *state);
    /* Optional: the number of terminals (TPC-C virtual users). When set and
     * > 0, conn_new() makes one state per terminal, not per connection;
     * the terminals share --connections connections (else --threads), each
     * waiting pause_before() between its transactions, and a transaction's
     * latency counts from the moment its terminal was ready to start it. */
    int   (*terminals)(const wl_run *run);
    /* True when step() marks its independent statements (act->queue), so
     * --pipeline=on can send them without waiting; false: oltp refuses
     * --pipeline=on for this workload. */
    bool  pipeline;
} workload;

/* The list of workloads (workload_find, workload_list) is
 * oltp/workload_list.h, on top: it names TPC-C too. */

#endif
