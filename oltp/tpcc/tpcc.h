/*
 * tpcc.h — internal to the TPC-C workload (specification rev. 5.11):
 * what its files share. Nothing outside oltp/tpcc/
 * includes it; the engine sees TPC-C only through `wl_tpcc` (workload.h).
 *
 *   wl_tpcc.c      the workload table, setup/teardown, terminal count
 *   tpcc_schema.c  the nine tables, their initial population (4.3),
 *                  prepare and cleanup
 *   tpcc_stmts.c   the transactions' statements, per dialect
 *   tpcc_term.c    terminals, their inputs, keying and think times
 *   tpcc_txn.c     the five transactions (2.4-2.8)
 *   tpcc_check.c   check_ready and the consistency conditions (3.3.2.1-4)
 *   tpcc_proc.c    the five transactions as stored procedures
 *                  (--tpcc-procedures), per dialect
 *   tpcc_prep.c    around the load: files pre-sized, keys added after
 *                  it, statistics updated
 */
#ifndef OLTP_TPCC_H
#define OLTP_TPCC_H

#include "attributes.h"

#include "drivers/dialect.h"
#include "tpcc/tpcc_rand.h"
#include "workloads/workload.h"

#define ITEMS        100000
#define DISTRICTS    10
#define CUSTOMERS    3000     /* per district */
#define ORDERS       3000     /* per district */
#define FIRST_NEW    2101     /* orders 2101..3000 are undelivered */
#define UNUSED_ITEM  (ITEMS + 1)
#define TPCC_MAX_LINES 15     /* order lines of a New-Order, at most */
#define TPCC_MSSQL_MAX_VALUES 1000  /* rows in one T-SQL VALUES list, at most */
/* tpcc_neword's parameters: W_ID, D_ID, C_ID, O_OL_CNT, O_ALL_LOCAL,
 * O_ENTRY_D, then TPCC_MAX_LINES slots of (OL_I_ID, OL_SUPPLY_W_ID,
 * OL_QUANTITY), then HDB (1 with --tpcc-compat=hammerdb) */
#define TPCC_NO_FIXED_PARAMS 6

/* Per-dialect DDL differences (dialect.h). `datetime` is the type of the
 * date columns; `suffix` ends every CREATE TABLE (%s =
 * --mysql-storage-engine). */
typedef struct tpcc_dialect {
    const char *datetime;
    const char *suffix;
    /* SUM() of an INTEGER column: T-SQL sums into an INT, which overflows
     * (8115) past 2^31 (the NOPM counter at 1,500 warehouses), so it widens
     * first; MariaDB sums into DECIMAL, PostgreSQL into BIGINT */
    bool        widen_sums;     /* SUM(CAST(col AS BIGINT)) */
    /* The character set and collation the tables are created with, pinned
     * so that a name's order (the by-name middle row) and a key's bytes do
     * not follow the server's default: `charset` is printed by prepare,
     * `collate` follows every CHAR/VARCHAR column (MariaDB: none, its
     * suffix carries the table's) */
    const char *charset;
    const char *collate;
} tpcc_dialect;

/* What setup() builds once per command, shared read-only by the workers
 * (wl_run.data); the loader fields are updated atomically by the loader
 * threads of prepare. */
typedef struct tpcc_plan {
    const tpcc_dialect *dialect;
    const dialect_def  *dl;
    tpcc_consts run;            /* NURand constants of this run (2.1.6) */
    int         warehouses;
    int         terminals;
    bool        procedures;     /* --tpcc-procedures */
    tpcc_compat compat;         /* --tpcc-compat */
    bool        tsql;           /* T-SQL dialect (HammerDB's rates differ there) */
    /* loader coordination (prepare) */
    int         schema;         /* atomic: 0 pending, 1 created, -1 failed */
    int         next_unit;      /* atomic: next unit of load work */
    int         loaders_done;   /* atomic */
    int         load_failed;    /* atomic */
    int        *wh_units_done;  /* atomic, per warehouse */
    char        load_date[20];
} tpcc_plan;

/* --- tpcc_schema.c --- */

/* The DDL differences of dialect d (MySQL's for an unknown one). */
const tpcc_dialect *tpcc_schema_dialect(db_dialect d);
/* The tables, in creation order. */
int         tpcc_table_count(void);
const char *tpcc_table_name(int i);
/* The workload's prepare and cleanup commands (workload.h): 0, or -1
 * with *err saying why (prepare's other threads than 0 return -1 with
 * *err empty when thread 0 failed to create the tables: it says why). */
int tpcc_prepare(const wl_run *run, db_conn *c, int thread, int nthreads,
                 int64_t *progress, int64_t *total, wl_err *err) DB_MUST_CHECK;
int tpcc_cleanup(const wl_run *run, db_conn *c, wl_err *err) DB_MUST_CHECK;

/* --- tpcc_stmts.c: the statements, by number --- */

enum {
    S_BEGIN, S_COMMIT, S_ROLLBACK,
    /* New-Order, 2.4.2 */
    S_NO_WH, S_NO_DIST, S_NO_DIST_UPD, S_NO_CUST, S_NO_ORD_INS, S_NO_NEW_INS, S_NO_ITEM,
    S_NO_STOCK, S_NO_STOCK_LAST = S_NO_STOCK + DISTRICTS - 1, S_NO_STOCK_UPD, S_NO_OL_INS,
    /* Payment, 2.5.2 */
    S_PY_WH_UPD, S_PY_WH, S_PY_DIST_UPD, S_PY_DIST, S_PY_CUST_NAME, S_PY_CUST_ID, S_PY_CDATA,
    S_PY_CUST_UPD_BC, S_PY_CUST_UPD, S_PY_HIST,
    /* Order-Status, 2.6.2 */
    S_OS_CUST_NAME, S_OS_CUST_ID, S_OS_ORDER, S_OS_LINES,
    /* Delivery, 2.7.4 */
    S_DL_MIN, S_DL_DEL, S_DL_ORDER, S_DL_ORDER_UPD, S_DL_LINES_UPD, S_DL_SUM, S_DL_CUST_UPD,
    /* Stock-Level, 2.8.2 */
    S_SL_DIST, S_SL_COUNT,
    /* --tpcc-procedures: one CALL per transaction, S_CALL + its tpcc_type */
    S_CALL, S_CALL_LAST = S_CALL + TPCC_NTYPES - 1,
    /* a dialect's New-Order increment before S_NO_DIST (stmt_variants;
     * last, so the other statements keep their numbers) */
    S_NO_DIST_INC,
    /* --tpcc-compat=hammerdb with procedures on MariaDB: the user-variable
     * SET before a CALL and the SELECT of its results after it, the round
     * trips HammerDB adds (tpcc_txn.c says which transactions) */
    S_HDB_SET, S_HDB_GET,
    NSTMTS
};

/* A copy of the statement table with dialect d's texts and, with
 * --tpcc-compat=hammerdb, HammerDB's writes, in
 * run->stmts/nstmts (freed by the caller with free()). 0, or -1 with
 * *err saying why. */
int tpcc_stmts_build(wl_run *run, const dialect_def *dl, db_dialect d, tpcc_compat compat,
                     wl_err *err) DB_MUST_CHECK;

/* --- tpcc_term.c: a terminal and the inputs of its next transaction --- */

typedef struct ol_in {
    int  i_id, supply_w, qty;
} ol_in;

typedef struct tpcc_term {
    const wl_run    *run;
    const tpcc_plan *plan;
    rng             *r;
    int              home_w;            /* the terminal's warehouse */
    int              w, d;              /* home warehouse (home_w, or drawn per
                                         * transaction with --tpcc-all-warehouses)
                                         * and district */
    tpcc_deck        deck;
    tpcc_type        type, prev;
    bool             chosen, have_prev;
    int              pc;                /* position in the transaction */
    char             date[20];
    db_value         p[TPCC_NO_FIXED_PARAMS + 3 * TPCC_MAX_LINES + 1];     /* + hdb (tpcc_proc.c) */
    /* inputs (kept across a retry) */
    int              c_w, c_d, c_id, ol_cnt, carrier, threshold;
    bool             by_name, rollback;
    char             c_last[16];
    int64_t          amount_cents;
    ol_in            ol[TPCC_MAX_LINES];
    /* transaction state */
    int              line, o_id, dd, d_c_id, all_local, skipped;
    int64_t          ol_cents;
    char             amount[24], s_dist[25], w_name[11], d_name[11], h_data[25], sum[32];
    char             c_data[520];
} tpcc_term;

/* Draw the next transaction's type and inputs (once per transaction: a
 * retry keeps them). */
void tpcc_term_choose(tpcc_term *t);

/* --- tpcc_term.c and tpcc_txn.c: the terminal and the transaction steps
 * (workload.h) --- */
void   *tpcc_term_new(const wl_run *run, int id, rng *r);
void    tpcc_term_free(void *state);
int     tpcc_trx_begin(void *state);
wl_step tpcc_step(void *state, db_conn *c, wl_action *a);
double  tpcc_pause_before(void *state);

/* --- tpcc_proc.c --- */

/* The CALL statement of transaction type `type` for dialect d, into *def.
 * 0, or -1 for an unknown type. */
int tpcc_proc_call(db_dialect d, int type, db_stmt_def *def) DB_MUST_CHECK;
/* prepare: create the five procedures; cleanup: drop any that exist;
 * before a run: all five exist. 0, or -1 with *err saying why. */
int tpcc_proc_create(const wl_run *run, db_conn *c, wl_err *err) DB_MUST_CHECK;
int tpcc_proc_drop(const wl_run *run, db_conn *c, wl_err *err) DB_MUST_CHECK;
int tpcc_proc_check(const wl_run *run, db_conn *c, wl_err *err) DB_MUST_CHECK;

/* --- tpcc_prep.c: around the load (each 0, or -1 with *err saying
 * why); tpcc_schema.c hands it the tables --- */

typedef struct tpcc_table_ref {
    const char *name;
    const char *key;        /* "PRIMARY KEY (col, ...)", or NULL (history) */
} tpcc_table_ref;

/* setup: the file sizes are for SQL Server only */
int tpcc_prep_check(const oltp_opts *o, wl_err *err) DB_MUST_CHECK;
/* before the tables: --tpcc-data-size/-log-size/-growth through ALTER
 * DATABASE ... MODIFY FILE (one line and nothing else where the server
 * lists no files: Babelfish) */
int tpcc_prep_presize(const wl_run *run, db_conn *c, wl_err *err) DB_MUST_CHECK;
/* after the load, --tpcc-keys-after-load: ALTER TABLE ... ADD the keys
 * create_schema left out */
int tpcc_prep_keys(const wl_run *run, db_conn *c, const tpcc_table_ref *t, int n, wl_err *err) DB_MUST_CHECK;
/* at the end, --tpcc-statistics: ANALYZE TABLE / ANALYZE / UPDATE
 * STATISTICS of the nine tables */
int tpcc_prep_statistics(const wl_run *run, db_conn *c, const tpcc_table_ref *t, int n,
                         wl_err *err) DB_MUST_CHECK;

/* --- tpcc_check.c: each 0, or -1 with *err saying why (tpcc_check:
 * with *err empty when a condition fails, its lines say so) --- */

int tpcc_check_ready(const wl_run *run, db_conn *c, wl_err *err) DB_MUST_CHECK;
int tpcc_check(const wl_run *run, db_conn *c, wl_err *err) DB_MUST_CHECK;
/* workload.server_count: SUM(D_NEXT_O_ID). */
int tpcc_server_count(const wl_run *run, db_conn *c, int64_t *count, wl_err *err) DB_MUST_CHECK;

#endif
