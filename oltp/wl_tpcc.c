/*
 * wl_tpcc.c — TPC-C (specification rev. 5.11): the nine tables and their
 * initial population (clause 4.3), the five transactions as resumable
 * state machines (2.4-2.8), keying and think times per terminal (5.2.5)
 * and the consistency conditions 1-4 (3.3.2.1-4) as `check`.
 *
 * One workload state is one terminal: a home warehouse and district, its
 * own deck of transaction cards, the inputs of the transaction it is
 * about to run (kept when the engine retries it after a deadlock).
 *
 * SQL: standard statements with ? placeholders, run through db.h. What
 * differs between dialects (dialect.h) is in two tables: `dialects` for
 * the DDL, `stmt_variants` for the statements T-SQL writes otherwise.
 */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "dialect.h"
#include "tpcc_rand.h"
#include "workload.h"

#define ITEMS        100000
#define DISTRICTS    10
#define CUSTOMERS    3000     /* per district */
#define ORDERS       3000     /* per district */
#define FIRST_NEW    2101     /* orders 2101..3000 are undelivered */
#define UNUSED_ITEM  (ITEMS + 1)

/* --- schema --------------------------------------------------------------- */

/* Per-dialect DDL differences (dialect.h). `datetime` is the type of the
 * date columns; `suffix` ends every CREATE TABLE (%s =
 * --mysql-storage-engine). */
typedef struct tpcc_dialect {
    const char *datetime;
    const char *suffix;
} tpcc_dialect;

static const tpcc_dialect dialects[DB_DIALECT_COUNT] = {
    [DB_DIALECT_MYSQL] = { "DATETIME", " /*! ENGINE = %s */" },
    [DB_DIALECT_PGSQL] = { "TIMESTAMP", "" },
    [DB_DIALECT_MSSQL] = { "DATETIME2", "" },
};

/* The tables in creation order; DT stands for the dialect's date type. */
static const struct { const char *name, *cols; } tables[] = {
    { "warehouse",
      "w_id INTEGER NOT NULL, w_name VARCHAR(10), w_street_1 VARCHAR(20), w_street_2 VARCHAR(20), "
      "w_city VARCHAR(20), w_state CHAR(2), w_zip CHAR(9), w_tax DECIMAL(4,4), w_ytd DECIMAL(12,2), "
      "PRIMARY KEY (w_id)" },
    { "district",
      "d_id SMALLINT NOT NULL, d_w_id INTEGER NOT NULL, d_name VARCHAR(10), d_street_1 VARCHAR(20), "
      "d_street_2 VARCHAR(20), d_city VARCHAR(20), d_state CHAR(2), d_zip CHAR(9), d_tax DECIMAL(4,4), "
      "d_ytd DECIMAL(12,2), d_next_o_id INTEGER, PRIMARY KEY (d_w_id, d_id)" },
    { "customer",
      "c_id INTEGER NOT NULL, c_d_id SMALLINT NOT NULL, c_w_id INTEGER NOT NULL, c_first VARCHAR(16), "
      "c_middle CHAR(2), c_last VARCHAR(16), c_street_1 VARCHAR(20), c_street_2 VARCHAR(20), "
      "c_city VARCHAR(20), c_state CHAR(2), c_zip CHAR(9), c_phone CHAR(16), c_since DT, "
      "c_credit CHAR(2), c_credit_lim DECIMAL(12,2), c_discount DECIMAL(4,4), c_balance DECIMAL(12,2), "
      "c_ytd_payment DECIMAL(12,2), c_payment_cnt INTEGER, c_delivery_cnt INTEGER, c_data VARCHAR(500), "
      "PRIMARY KEY (c_w_id, c_d_id, c_id)" },
    { "history",
      "h_c_id INTEGER, h_c_d_id SMALLINT, h_c_w_id INTEGER, h_d_id SMALLINT, h_w_id INTEGER, "
      "h_date DT, h_amount DECIMAL(6,2), h_data VARCHAR(24)" },
    { "new_order",
      "no_o_id INTEGER NOT NULL, no_d_id SMALLINT NOT NULL, no_w_id INTEGER NOT NULL, "
      "PRIMARY KEY (no_w_id, no_d_id, no_o_id)" },
    { "orders",
      "o_id INTEGER NOT NULL, o_d_id SMALLINT NOT NULL, o_w_id INTEGER NOT NULL, o_c_id INTEGER, "
      "o_entry_d DT, o_carrier_id SMALLINT, o_ol_cnt SMALLINT, o_all_local SMALLINT, "
      "PRIMARY KEY (o_w_id, o_d_id, o_id)" },
    { "order_line",
      "ol_o_id INTEGER NOT NULL, ol_d_id SMALLINT NOT NULL, ol_w_id INTEGER NOT NULL, "
      "ol_number SMALLINT NOT NULL, ol_i_id INTEGER, ol_supply_w_id INTEGER, ol_delivery_d DT, "
      "ol_quantity SMALLINT, ol_amount DECIMAL(6,2), ol_dist_info CHAR(24), "
      "PRIMARY KEY (ol_w_id, ol_d_id, ol_o_id, ol_number)" },
    { "item",
      "i_id INTEGER NOT NULL, i_im_id INTEGER, i_name VARCHAR(24), i_price DECIMAL(5,2), "
      "i_data VARCHAR(50), PRIMARY KEY (i_id)" },
    { "stock",
      "s_i_id INTEGER NOT NULL, s_w_id INTEGER NOT NULL, s_quantity SMALLINT, "
      "s_dist_01 CHAR(24), s_dist_02 CHAR(24), s_dist_03 CHAR(24), s_dist_04 CHAR(24), "
      "s_dist_05 CHAR(24), s_dist_06 CHAR(24), s_dist_07 CHAR(24), s_dist_08 CHAR(24), "
      "s_dist_09 CHAR(24), s_dist_10 CHAR(24), s_ytd INTEGER, s_order_cnt INTEGER, "
      "s_remote_cnt INTEGER, s_data VARCHAR(50), PRIMARY KEY (s_w_id, s_i_id)" },
};
#define NTABLES ((int)(sizeof(tables) / sizeof(tables[0])))

/* Secondary indexes, created after the load: the customer last-name index
 * the spec's by-name selects need, and orders by customer for
 * Order-Status (as tpcc-mysql and HammerDB have). */
static const char *const indexes[] = {
    "CREATE INDEX idx_customer_name ON customer (c_w_id, c_d_id, c_last, c_first)",
    "CREATE INDEX idx_orders_customer ON orders (o_w_id, o_d_id, o_c_id, o_id)",
};

/* --- statements ------------------------------------------------------------ */

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
    NSTMTS
};

#define CUST_COLS "c_first, c_middle, c_last, c_street_1, c_street_2, c_city, c_state, c_zip, " \
                  "c_phone, c_since, c_credit, c_credit_lim, c_discount, c_balance"
#define STOCK_SEL(d, dd) [S_NO_STOCK + d - 1] = { "SELECT s_quantity, s_data, s_dist_" dd " FROM stock " \
                     "WHERE s_i_id = ? AND s_w_id = ? FOR UPDATE", 2, DB_Q_READ }

static const db_stmt_def stmt_defs[NSTMTS] = {
    [S_BEGIN]    = { "BEGIN", 0, DB_Q_OTHER },
    [S_COMMIT]   = { "COMMIT", 0, DB_Q_OTHER },
    [S_ROLLBACK] = { "ROLLBACK", 0, DB_Q_OTHER },

    [S_NO_WH]       = { "SELECT w_tax FROM warehouse WHERE w_id = ?", 1, DB_Q_READ },
    [S_NO_DIST]     = { "SELECT d_tax, d_next_o_id FROM district WHERE d_w_id = ? AND d_id = ? FOR UPDATE",
                        2, DB_Q_READ },
    [S_NO_DIST_UPD] = { "UPDATE district SET d_next_o_id = d_next_o_id + 1 WHERE d_w_id = ? AND d_id = ?",
                        2, DB_Q_WRITE },
    [S_NO_CUST]     = { "SELECT c_discount, c_last, c_credit FROM customer "
                        "WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?", 3, DB_Q_READ },
    [S_NO_ORD_INS]  = { "INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_carrier_id, "
                        "o_ol_cnt, o_all_local) VALUES (?, ?, ?, ?, ?, NULL, ?, ?)", 7, DB_Q_WRITE },
    [S_NO_NEW_INS]  = { "INSERT INTO new_order (no_o_id, no_d_id, no_w_id) VALUES (?, ?, ?)", 3, DB_Q_WRITE },
    [S_NO_ITEM]     = { "SELECT i_price, i_name, i_data FROM item WHERE i_id = ?", 1, DB_Q_READ },
    STOCK_SEL(1, "01"), STOCK_SEL(2, "02"), STOCK_SEL(3, "03"), STOCK_SEL(4, "04"), STOCK_SEL(5, "05"),
    STOCK_SEL(6, "06"), STOCK_SEL(7, "07"), STOCK_SEL(8, "08"), STOCK_SEL(9, "09"), STOCK_SEL(10, "10"),
    [S_NO_STOCK_UPD] = { "UPDATE stock SET s_quantity = ?, s_ytd = s_ytd + ?, s_order_cnt = s_order_cnt + 1, "
                         "s_remote_cnt = s_remote_cnt + ? WHERE s_i_id = ? AND s_w_id = ?", 5, DB_Q_WRITE },
    [S_NO_OL_INS]   = { "INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, "
                        "ol_supply_w_id, ol_delivery_d, ol_quantity, ol_amount, ol_dist_info) "
                        "VALUES (?, ?, ?, ?, ?, ?, NULL, ?, ?, ?)", 9, DB_Q_WRITE },

    [S_PY_WH_UPD]   = { "UPDATE warehouse SET w_ytd = w_ytd + ? WHERE w_id = ?", 2, DB_Q_WRITE },
    [S_PY_WH]       = { "SELECT w_street_1, w_street_2, w_city, w_state, w_zip, w_name "
                        "FROM warehouse WHERE w_id = ?", 1, DB_Q_READ },
    [S_PY_DIST_UPD] = { "UPDATE district SET d_ytd = d_ytd + ? WHERE d_w_id = ? AND d_id = ?", 3, DB_Q_WRITE },
    [S_PY_DIST]     = { "SELECT d_street_1, d_street_2, d_city, d_state, d_zip, d_name "
                        "FROM district WHERE d_w_id = ? AND d_id = ?", 2, DB_Q_READ },
    [S_PY_CUST_NAME] = { "SELECT c_id, " CUST_COLS " FROM customer WHERE c_w_id = ? AND c_d_id = ? "
                         "AND c_last = ? ORDER BY c_first FOR UPDATE", 3, DB_Q_READ },
    [S_PY_CUST_ID]  = { "SELECT c_id, " CUST_COLS " FROM customer WHERE c_w_id = ? AND c_d_id = ? "
                        "AND c_id = ? FOR UPDATE", 3, DB_Q_READ },
    [S_PY_CDATA]    = { "SELECT c_data FROM customer WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?",
                        3, DB_Q_READ },
    [S_PY_CUST_UPD_BC] = { "UPDATE customer SET c_balance = c_balance - ?, c_ytd_payment = c_ytd_payment + ?, "
                           "c_payment_cnt = c_payment_cnt + 1, c_data = ? "
                           "WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?", 6, DB_Q_WRITE },
    [S_PY_CUST_UPD] = { "UPDATE customer SET c_balance = c_balance - ?, c_ytd_payment = c_ytd_payment + ?, "
                        "c_payment_cnt = c_payment_cnt + 1 WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?",
                        5, DB_Q_WRITE },
    [S_PY_HIST]     = { "INSERT INTO history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, "
                        "h_amount, h_data) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", 8, DB_Q_WRITE },

    [S_OS_CUST_NAME] = { "SELECT c_id, c_balance, c_first, c_middle, c_last FROM customer "
                         "WHERE c_w_id = ? AND c_d_id = ? AND c_last = ? ORDER BY c_first", 3, DB_Q_READ },
    [S_OS_CUST_ID]  = { "SELECT c_id, c_balance, c_first, c_middle, c_last FROM customer "
                        "WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?", 3, DB_Q_READ },
    [S_OS_ORDER]    = { "SELECT o_id, o_entry_d, o_carrier_id FROM orders "
                        "WHERE o_w_id = ? AND o_d_id = ? AND o_c_id = ? ORDER BY o_id DESC", 3, DB_Q_READ },
    [S_OS_LINES]    = { "SELECT ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, ol_delivery_d "
                        "FROM order_line WHERE ol_w_id = ? AND ol_d_id = ? AND ol_o_id = ?", 3, DB_Q_READ },

    /* the oldest undelivered order, locked: a concurrent Delivery of the
     * same district waits here, then sees the next one */
    [S_DL_MIN]      = { "SELECT no_o_id FROM new_order WHERE no_w_id = ? AND no_d_id = ? "
                        "ORDER BY no_o_id FETCH FIRST 1 ROWS ONLY FOR UPDATE", 2, DB_Q_READ },
    [S_DL_DEL]      = { "DELETE FROM new_order WHERE no_w_id = ? AND no_d_id = ? AND no_o_id = ?",
                        3, DB_Q_WRITE },
    [S_DL_ORDER]    = { "SELECT o_c_id FROM orders WHERE o_w_id = ? AND o_d_id = ? AND o_id = ?",
                        3, DB_Q_READ },
    [S_DL_ORDER_UPD] = { "UPDATE orders SET o_carrier_id = ? WHERE o_w_id = ? AND o_d_id = ? AND o_id = ?",
                         4, DB_Q_WRITE },
    [S_DL_LINES_UPD] = { "UPDATE order_line SET ol_delivery_d = ? "
                         "WHERE ol_w_id = ? AND ol_d_id = ? AND ol_o_id = ?", 4, DB_Q_WRITE },
    [S_DL_SUM]      = { "SELECT SUM(ol_amount) FROM order_line WHERE ol_w_id = ? AND ol_d_id = ? "
                        "AND ol_o_id = ?", 3, DB_Q_READ },
    [S_DL_CUST_UPD] = { "UPDATE customer SET c_balance = c_balance + ?, c_delivery_cnt = c_delivery_cnt + 1 "
                        "WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?", 4, DB_Q_WRITE },

    [S_SL_DIST]     = { "SELECT d_next_o_id FROM district WHERE d_w_id = ? AND d_id = ?", 2, DB_Q_READ },
    [S_SL_COUNT]    = { "SELECT COUNT(DISTINCT s_i_id) FROM order_line, stock "
                        "WHERE ol_w_id = ? AND ol_d_id = ? AND ol_o_id < ? AND ol_o_id >= ? "
                        "AND s_w_id = ? AND s_i_id = ol_i_id AND s_quantity < ?", 6, DB_Q_READ },
};

/* Statements whose standard text a dialect does not take: T-SQL has no
 * SELECT ... FOR UPDATE (a lock hint instead) and no FETCH FIRST without
 * OFFSET. (Not run here: no SQL Server on the development machines.) */
static const struct { db_dialect d; int stmt; const char *sql; } stmt_variants[] = {
    { DB_DIALECT_MSSQL, S_NO_DIST, "SELECT d_tax, d_next_o_id FROM district WITH (UPDLOCK) "
                                   "WHERE d_w_id = ? AND d_id = ?" },
    { DB_DIALECT_MSSQL, S_PY_CUST_NAME, "SELECT c_id, " CUST_COLS " FROM customer WITH (UPDLOCK) "
                                        "WHERE c_w_id = ? AND c_d_id = ? AND c_last = ? ORDER BY c_first" },
    { DB_DIALECT_MSSQL, S_PY_CUST_ID, "SELECT c_id, " CUST_COLS " FROM customer WITH (UPDLOCK) "
                                      "WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?" },
    { DB_DIALECT_MSSQL, S_DL_MIN, "SELECT TOP 1 no_o_id FROM new_order WITH (UPDLOCK, ROWLOCK) "
                                  "WHERE no_w_id = ? AND no_d_id = ? ORDER BY no_o_id" },
#define STOCK_MSSQL(d, dd) { DB_DIALECT_MSSQL, S_NO_STOCK + d - 1, "SELECT s_quantity, s_data, s_dist_" dd \
                             " FROM stock WITH (UPDLOCK) WHERE s_i_id = ? AND s_w_id = ?" }
    STOCK_MSSQL(1, "01"), STOCK_MSSQL(2, "02"), STOCK_MSSQL(3, "03"), STOCK_MSSQL(4, "04"),
    STOCK_MSSQL(5, "05"), STOCK_MSSQL(6, "06"), STOCK_MSSQL(7, "07"), STOCK_MSSQL(8, "08"),
    STOCK_MSSQL(9, "09"), STOCK_MSSQL(10, "10"),
};

/* --- shared run state ------------------------------------------------------ */

typedef struct tpcc_plan {
    const tpcc_dialect *dialect;
    const dialect_def  *dl;
    tpcc_consts run;            /* NURand constants of this run (2.1.6) */
    int         warehouses;
    int         terminals;
    /* loader coordination (prepare) */
    int         schema;         /* atomic: 0 pending, 1 created, -1 failed */
    int         next_unit;      /* atomic: next unit of load work */
    int         loaders_done;   /* atomic */
    int         load_failed;    /* atomic */
    int        *wh_units_done;  /* atomic, per warehouse */
    char        load_date[20];
} tpcc_plan;

/* Units of load work: unit 0 = ITEM; per warehouse, one unit for the
 * warehouse row and its STOCK, then one per district (district row,
 * customers, history, orders, order lines, new orders). */
#define UNITS_PER_WH (1 + DISTRICTS)

static int tc_terminals(const wl_run *run);

static int tc_setup(wl_run *run)
{
    const oltp_opts *o = run->o;
    tpcc_plan *p = calloc(1, sizeof(*p));
    rng r;
    time_t now = time(NULL);
    struct tm tm;

    run->stmts = malloc(sizeof(stmt_defs));
    if (!p || !run->stmts) {
        free(p);
        free(run->stmts);
        run->stmts = NULL;
        fprintf(stderr, "oltp: out of memory\n");
        return -1;
    }
    memcpy(run->stmts, stmt_defs, sizeof(stmt_defs));
    run->nstmts = NSTMTS;
    p->dl = dialect_get(o->db.dialect);
    p->dialect = &dialects[o->db.dialect < DB_DIALECT_COUNT ? o->db.dialect : DB_DIALECT_MYSQL];
    run->stmts[S_BEGIN].sql = p->dl->begin;
    run->stmts[S_COMMIT].sql = p->dl->commit;
    run->stmts[S_ROLLBACK].sql = p->dl->rollback;
    for (size_t i = 0; i < sizeof(stmt_variants) / sizeof(stmt_variants[0]); i++)
        if (stmt_variants[i].d == o->db.dialect)
            run->stmts[stmt_variants[i].stmt].sql = stmt_variants[i].sql;
    if (strspn(o->mysql_storage_engine, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") !=
        strlen(o->mysql_storage_engine)) {
        fprintf(stderr, "oltp: --mysql-storage-engine=%s: not an engine name\n", o->mysql_storage_engine);
        goto fail;
    }
    if (o->rate > 0) {
        fprintf(stderr, "oltp: --rate does not apply to tpcc: its terminals set the pace "
                "(--terminals, --keying-thinking)\n");
        goto fail;
    }
    p->warehouses = o->warehouses;
    p->wh_units_done = calloc((size_t)o->warehouses, sizeof(int));
    if (!p->wh_units_done) {
        fprintf(stderr, "oltp: out of memory\n");
        goto fail;
    }
    rng_seed(&r, o->seed ? o->seed : (uint64_t)now ^ ((uint64_t)getpid() << 20), 0x7cc);
    tpcc_consts_run(&r, &p->run);
    gmtime_r(&now, &tm);
    strftime(p->load_date, sizeof p->load_date, "%Y-%m-%d %H:%M:%S", &tm);
    run->data = p;
    p->terminals = tc_terminals(run);
    return 0;
fail:
    free(p->wh_units_done);
    free(p);
    free(run->stmts);
    run->stmts = NULL;
    return -1;
}

static void tc_teardown(wl_run *run)
{
    tpcc_plan *p = run->data;
    if (p)
        free(p->wh_units_done);
    free(p);
    free(run->stmts);
    run->data = NULL;
    run->stmts = NULL;
}

/* Terminals: --terminals, else 10 per warehouse with keying/think times
 * (the spec's ratio), else one per connection (full speed, like
 * tpcc-mysql's and HammerDB's virtual users). */
static int tc_terminals(const wl_run *run)
{
    const oltp_opts *o = run->o;
    if (o->terminals > 0)
        return o->terminals;
    if (o->keying_thinking)
        return 10 * o->warehouses;
    return o->connections > 0 ? o->connections : o->threads;
}

/* --- loader ------------------------------------------------------------------ */

static int run_sql(db_conn *c, const char *sql)
{
    if (db_query(c, sql) != DB_DONE) {
        fprintf(stderr, "oltp: %.200s: error %d: %s\n", sql, c->err.code, c->err.msg);
        return -1;
    }
    return 0;
}

/* A multi-row INSERT being built: rows are appended as text (the values
 * are numbers and generated alphanumeric strings, never user input) and
 * sent when `max_rows` rows or the buffer are full. With max_rows = 1
 * every row is its own INSERT, grouped 1,000 to a transaction, the way
 * tpcc-mysql's loader works (the reference for the loading speed). */
typedef struct inserter {
    db_conn    *c;
    const char *head;           /* "INSERT INTO t (cols) VALUES " */
    char       *buf;
    size_t      cap, len;
    int         rows, max_rows, trx_rows;
    int64_t    *progress;
} inserter;

#define INS_CAP (1024 * 1024)

static int ins_init(inserter *b, db_conn *c, const char *head, int max_rows, int64_t *progress)
{
    memset(b, 0, sizeof(*b));
    b->c = c;
    b->head = head;
    b->max_rows = max_rows;
    b->progress = progress;
    b->cap = INS_CAP;
    b->buf = malloc(b->cap);
    if (!b->buf) {
        fprintf(stderr, "oltp: out of memory\n");
        return -1;
    }
    return 0;
}

static int ins_flush(inserter *b)
{
    if (b->rows == 0)
        return 0;
    if (b->max_rows == 1 && b->trx_rows == 0 && run_sql(b->c, "BEGIN") < 0)
        return -1;
    if (run_sql(b->c, b->buf) < 0)
        return -1;
    __atomic_add_fetch(b->progress, b->rows, __ATOMIC_RELAXED);
    b->rows = 0;
    b->len = 0;
    if (b->max_rows == 1 && ++b->trx_rows >= 1000) {
        b->trx_rows = 0;
        return run_sql(b->c, "COMMIT");
    }
    return 0;
}

/* Send what is left (and commit a single-row group); frees the buffer. */
static int ins_finish(inserter *b)
{
    int rc = ins_flush(b);
    if (rc == 0 && b->trx_rows > 0)
        rc = run_sql(b->c, "COMMIT");
    free(b->buf);
    b->buf = NULL;
    return rc;
}

static int ins_row(inserter *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int ins_row(inserter *b, const char *fmt, ...)
{
    va_list ap;
    int n;

    if (b->rows == 0)
        b->len = (size_t)snprintf(b->buf, b->cap, "%s", b->head);
    if (b->rows > 0)
        b->buf[b->len++] = ',';
    b->buf[b->len++] = '(';
    va_start(ap, fmt);
    n = vsnprintf(b->buf + b->len, b->cap - b->len - 2, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
    b->buf[b->len++] = ')';
    b->buf[b->len] = 0;
    b->rows++;
    if (b->rows >= b->max_rows || b->len > b->cap - 8192)
        return ins_flush(b);
    return 0;
}

/* Street, city, state, zip (4.3.2.7), quoted for the INSERT text. */
static void address(rng *r, char *out, size_t len)
{
    char s1[21], s2[21], city[21], zip[5];
    tpcc_astring(r, s1, 10, 20);
    tpcc_astring(r, s2, 10, 20);
    tpcc_astring(r, city, 10, 20);
    tpcc_nstring(r, zip, 4, 4);
    snprintf(out, len, "'%s','%s','%s','%c%c','%s11111'", s1, s2, city,
             'A' + (int)rand_uniform(r, 0, 25), 'A' + (int)rand_uniform(r, 0, 25), zip);
}

static int load_items(db_conn *c, rng *r, int batch, int64_t *progress)
{
    inserter b;
    if (ins_init(&b, c, "INSERT INTO item (i_id, i_im_id, i_name, i_price, i_data) VALUES ", batch, progress) < 0)
        return -1;
    for (int i = 1; i <= ITEMS; i++) {
        char name[25], data[51];
        tpcc_astring(r, name, 14, 24);
        tpcc_data_original(r, data);
        uint32_t price = rand_uniform(r, 100, 10000);          /* [1.00, 100.00] */
        if (ins_row(&b, "%d,%u,'%s',%u.%02u,'%s'", i, rand_uniform(r, 1, 10000), name,
                    price / 100, price % 100, data) < 0)
            break;
    }
    return ins_finish(&b);
}

static int load_stock(db_conn *c, rng *r, int w, int batch, int64_t *progress)
{
    inserter b;
    char addr[128], name[11];

    tpcc_astring(r, name, 6, 10);
    address(r, addr, sizeof addr);
    {
        char sql[512];
        snprintf(sql, sizeof sql, "INSERT INTO warehouse (w_id, w_name, w_street_1, w_street_2, w_city, "
                 "w_state, w_zip, w_tax, w_ytd) VALUES (%d,'%s',%s,0.%04u,300000.00)",
                 w, name, addr, rand_uniform(r, 0, 2000));
        if (run_sql(c, sql) < 0)
            return -1;
        __atomic_add_fetch(progress, 1, __ATOMIC_RELAXED);
    }
    if (ins_init(&b, c, "INSERT INTO stock (s_i_id, s_w_id, s_quantity, s_dist_01, s_dist_02, s_dist_03, "
                 "s_dist_04, s_dist_05, s_dist_06, s_dist_07, s_dist_08, s_dist_09, s_dist_10, s_ytd, "
                 "s_order_cnt, s_remote_cnt, s_data) VALUES ", batch, progress) < 0)
        return -1;
    for (int i = 1; i <= ITEMS; i++) {
        char dist[DISTRICTS][25], data[51];
        for (int d = 0; d < DISTRICTS; d++)
            tpcc_astring(r, dist[d], 24, 24);
        tpcc_data_original(r, data);
        if (ins_row(&b, "%d,%d,%u,'%s','%s','%s','%s','%s','%s','%s','%s','%s','%s',0,0,0,'%s'",
                    i, w, rand_uniform(r, 10, 100), dist[0], dist[1], dist[2], dist[3], dist[4],
                    dist[5], dist[6], dist[7], dist[8], dist[9], data) < 0)
            break;
    }
    return ins_finish(&b);
}

static int load_district(const tpcc_plan *p, db_conn *c, rng *r, const tpcc_consts *k,
                         int w, int d, int batch, int64_t *progress)
{
    inserter cu, hi, or, ol, no;
    char addr[128], name[11], sql[512];
    int perm[ORDERS], rc = -1;

    tpcc_astring(r, name, 6, 10);
    address(r, addr, sizeof addr);
    snprintf(sql, sizeof sql, "INSERT INTO district (d_id, d_w_id, d_name, d_street_1, d_street_2, d_city, "
             "d_state, d_zip, d_tax, d_ytd, d_next_o_id) VALUES (%d,%d,'%s',%s,0.%04u,30000.00,%d)",
             d, w, name, addr, rand_uniform(r, 0, 2000), ORDERS + 1);
    if (run_sql(c, sql) < 0)
        return -1;
    __atomic_add_fetch(progress, 1, __ATOMIC_RELAXED);

    memset(&cu, 0, sizeof cu);
    memset(&hi, 0, sizeof hi);
    memset(&or, 0, sizeof or);
    memset(&ol, 0, sizeof ol);
    memset(&no, 0, sizeof no);
    if (ins_init(&cu, c, "INSERT INTO customer (c_id, c_d_id, c_w_id, c_first, c_middle, c_last, c_street_1, "
                 "c_street_2, c_city, c_state, c_zip, c_phone, c_since, c_credit, c_credit_lim, c_discount, "
                 "c_balance, c_ytd_payment, c_payment_cnt, c_delivery_cnt, c_data) VALUES ", batch, progress) < 0 ||
        ins_init(&hi, c, "INSERT INTO history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount, "
                 "h_data) VALUES ", batch, progress) < 0 ||
        ins_init(&or, c, "INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_carrier_id, o_ol_cnt, "
                 "o_all_local) VALUES ", batch, progress) < 0 ||
        ins_init(&ol, c, "INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id, "
                 "ol_delivery_d, ol_quantity, ol_amount, ol_dist_info) VALUES ", batch, progress) < 0 ||
        ins_init(&no, c, "INSERT INTO new_order (no_o_id, no_d_id, no_w_id) VALUES ", batch, progress) < 0)
        goto out;

    for (int i = 1; i <= CUSTOMERS; i++) {
        char first[17], last[16], phone[17], data[501], hdata[25];
        tpcc_astring(r, first, 8, 16);
        tpcc_last_name(i <= 1000 ? (unsigned)(i - 1) : tpcc_nurand(r, 255, k->c_last, 0, 999), last);
        address(r, addr, sizeof addr);
        tpcc_nstring(r, phone, 16, 16);
        tpcc_astring(r, data, 300, 500);
        tpcc_astring(r, hdata, 12, 24);
        if (ins_row(&cu, "%d,%d,%d,'%s','OE','%s',%s,'%s','%s',%s,50000.00,0.%04u,-10.00,10.00,1,0,'%s'",
                    i, d, w, first, last, addr, phone, p->load_date,
                    rand_uniform(r, 1, 100) <= 10 ? "'BC'" : "'GC'", rand_uniform(r, 0, 5000), data) < 0 ||
            ins_row(&hi, "%d,%d,%d,%d,%d,'%s',10.00,'%s'", i, d, w, d, w, p->load_date, hdata) < 0)
            goto out;
    }
    /* O_C_ID: a random permutation of 1..3000 (4.3.3.1) */
    for (int i = 0; i < ORDERS; i++)
        perm[i] = i + 1;
    for (int i = ORDERS - 1; i > 0; i--) {
        int j = (int)rand_uniform(r, 0, (uint32_t)i), t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
    for (int o = 1; o <= ORDERS; o++) {
        int cnt = (int)rand_uniform(r, 5, 15);
        bool delivered = o < FIRST_NEW;
        char carrier[8];
        snprintf(carrier, sizeof carrier, "%u", rand_uniform(r, 1, 10));
        if (ins_row(&or, "%d,%d,%d,%d,'%s',%s,%d,1", o, d, w, perm[o - 1], p->load_date,
                    delivered ? carrier : "NULL", cnt) < 0)
            goto out;
        for (int l = 1; l <= cnt; l++) {
            char dist[25], amount[16];
            tpcc_astring(r, dist, 24, 24);
            uint32_t cents = delivered ? 0 : rand_uniform(r, 1, 999999);     /* [0.01, 9999.99] */
            snprintf(amount, sizeof amount, "%u.%02u", cents / 100, cents % 100);
            if (ins_row(&ol, "%d,%d,%d,%d,%u,%d,%s%s%s,5,%s,'%s'", o, d, w, l, rand_uniform(r, 1, ITEMS), w,
                        delivered ? "'" : "", delivered ? p->load_date : "NULL", delivered ? "'" : "",
                        amount, dist) < 0)
                goto out;
        }
        if (!delivered && ins_row(&no, "%d,%d,%d", o, d, w) < 0)
            goto out;
    }
    rc = 0;
out:
    if (ins_finish(&cu) < 0 || ins_finish(&hi) < 0 || ins_finish(&or) < 0 || ins_finish(&ol) < 0 ||
        ins_finish(&no) < 0)
        rc = -1;
    return rc;
}

static int create_schema(const wl_run *run, db_conn *c)
{
    const tpcc_plan *p = run->data;
    char sql[2048], suffix[128];

    snprintf(suffix, sizeof suffix, p->dialect->suffix, run->o->mysql_storage_engine);
    for (int t = 0; t < NTABLES; t++) {
        /* substitute the dialect's date type for "DT" */
        char cols[1600];
        const char *s = tables[t].cols;
        size_t n = 0;
        while (*s && n < sizeof cols - 16) {
            if (s[0] == 'D' && s[1] == 'T' && (s[2] == ',' || s[2] == 0) && s[-1] == ' ') {
                n += (size_t)snprintf(cols + n, sizeof cols - n, "%s", p->dialect->datetime);
                s += 2;
            } else
                cols[n++] = *s++;
        }
        cols[n] = 0;
        printf("Creating table '%s'...\n", tables[t].name);
        snprintf(sql, sizeof sql, "CREATE TABLE %s (%s)%s", tables[t].name, cols, suffix);
        if (db_query(c, sql) != DB_DONE) {
            if ((p->dl->code_table_exists && c->err.code == p->dl->code_table_exists) ||
                !strcmp(c->err.sqlstate, p->dl->sqlstate_table_exists))
                fprintf(stderr, "oltp: table %s already exists: run `oltp tpcc cleanup` first\n", tables[t].name);
            else
                fprintf(stderr, "oltp: creating table %s: error %d: %s\n", tables[t].name, c->err.code,
                        c->err.msg);
            return -1;
        }
    }
    return 0;
}

/*
 * prepare: thread 0 creates the tables, then every loader thread takes
 * units of work (ITEM, a warehouse's STOCK, a district with its customers
 * and orders) until none is left; the last thread to finish builds the
 * secondary indexes.
 */
static int tc_prepare(const wl_run *run, db_conn *c, int thread, int nthreads,
                      int64_t *progress, int64_t *total)
{
    tpcc_plan *p = run->data;
    const oltp_opts *o = run->o;
    const int nunits = 1 + p->warehouses * UNITS_PER_WH;
    int batch = o->tpcc_load_batch, rc = 0, unit;
    tpcc_consts k;
    rng r;

    rng_seed(&r, o->seed ? o->seed : (uint64_t)time(NULL), 0x10ad0000u + (uint64_t)thread);
    tpcc_consts_load(&r, &k);
    if (thread == 0) {
        /* expected rows: order lines average 10 per order */
        __atomic_store_n(total, ITEMS + (int64_t)p->warehouses *
                         (1 + ITEMS + DISTRICTS * (1 + CUSTOMERS * 2 + ORDERS * 11 + ORDERS - FIRST_NEW + 1)),
                         __ATOMIC_RELAXED);
        rc = create_schema(run, c);
        __atomic_store_n(&p->schema, rc < 0 ? -1 : 1, __ATOMIC_RELEASE);
        if (rc < 0)
            return -1;
        printf("Loading %d warehouse%s with %d thread%s (%d row%s per INSERT)...\n", p->warehouses,
               p->warehouses > 1 ? "s" : "", nthreads, nthreads > 1 ? "s" : "", batch, batch > 1 ? "s" : "");
    } else {
        int s;
        while ((s = __atomic_load_n(&p->schema, __ATOMIC_ACQUIRE)) == 0)
            usleep(20000);
        if (s < 0)
            return -1;
    }
    while (rc == 0 && !__atomic_load_n(&p->load_failed, __ATOMIC_RELAXED) &&
           (unit = __atomic_fetch_add(&p->next_unit, 1, __ATOMIC_RELAXED)) < nunits) {
        int w = unit ? (unit - 1) / UNITS_PER_WH + 1 : 0, part = unit ? (unit - 1) % UNITS_PER_WH : 0;
        /* each unit draws from its own stream: the data do not depend on
         * which thread loads it */
        rng_seed(&r, o->seed ? o->seed : (uint64_t)time(NULL), 0x5eed0000u + (uint64_t)unit);
        if (unit == 0)
            rc = load_items(c, &r, batch, progress);
        else if (part == 0)
            rc = load_stock(c, &r, w, batch, progress);
        else
            rc = load_district(p, c, &r, &k, w, part, batch, progress);
        if (rc == 0 && w > 0 && __atomic_add_fetch(&p->wh_units_done[w - 1], 1, __ATOMIC_RELAXED) == UNITS_PER_WH)
            printf("Warehouse %d loaded\n", w);
    }
    if (rc < 0)
        __atomic_store_n(&p->load_failed, 1, __ATOMIC_RELAXED);
    if (__atomic_add_fetch(&p->loaders_done, 1, __ATOMIC_ACQ_REL) == nthreads &&
        !__atomic_load_n(&p->load_failed, __ATOMIC_RELAXED)) {
        for (size_t i = 0; rc == 0 && i < sizeof(indexes) / sizeof(indexes[0]); i++) {
            printf("Creating index: %s\n", indexes[i]);
            rc = run_sql(c, indexes[i]);
        }
    }
    return rc;
}

static int tc_cleanup(const wl_run *run, db_conn *c)
{
    for (int t = NTABLES - 1; t >= 0; t--) {
        char sql[64];
        printf("Dropping table '%s'...\n", tables[t].name);
        snprintf(sql, sizeof sql, "DROP TABLE IF EXISTS %s", tables[t].name);
        if (run_sql(c, sql) < 0)
            return -1;
    }
    return 0;
}

/* Query one integer (first column of the first row); -1 after printing
 * the error. */
static int query_int(const tpcc_plan *p, db_conn *c, const char *sql, int64_t *out)
{
    if (db_query(c, sql) != DB_DONE) {
        if ((p->dl->code_no_table && c->err.code == p->dl->code_no_table) ||
            !strcmp(c->err.sqlstate, p->dl->sqlstate_no_table))
            fprintf(stderr, "oltp: TPC-C tables are missing: run `oltp tpcc --warehouses=N prepare` first (%s)\n",
                    c->err.msg);
        else
            fprintf(stderr, "oltp: %s: error %d: %s\n", sql, c->err.code, c->err.msg);
        return -1;
    }
    *out = db_next_row(c) ? db_col_int(c, 0) : 0;
    while (db_next_row(c))
        ;
    return 0;
}

static int tc_check_ready(const wl_run *run, db_conn *c)
{
    const oltp_opts *o = run->o;
    const tpcc_plan *p = run->data;
    int64_t n;
    int nconns = o->connections > 0 ? o->connections : o->threads;

    for (int t = 0; t < NTABLES; t++) {
        char sql[96];
        snprintf(sql, sizeof sql, "SELECT COUNT(*) FROM %s WHERE 1 = 0", tables[t].name);
        if (query_int(p, c, sql, &n) < 0)
            return -1;
    }
    if (query_int(p, c, "SELECT COUNT(*) FROM warehouse", &n) < 0)
        return -1;
    if (n != o->warehouses) {
        fprintf(stderr, "oltp: the database holds %" PRId64 " warehouses, not --warehouses=%d: "
                "run with --warehouses=%" PRId64 " or prepare again\n", n, o->warehouses, n);
        return -1;
    }
    printf("TPC-C: %d warehouse%s, %d terminal%s on %d connection%s, %s (time scale %g); "
           "NURand C: C_LAST %u (load %u), C_ID %u, OL_I_ID %u\n",
           o->warehouses, o->warehouses > 1 ? "s" : "", p->terminals, p->terminals > 1 ? "s" : "",
           nconns < p->terminals ? nconns : p->terminals, nconns > 1 ? "s" : "",
           o->keying_thinking ? "keying and think times on" : "full speed, no keying/think times",
           o->time_scale, p->run.c_last, TPCC_C_LAST_LOAD, p->run.c_id, p->run.ol_i_id);
    if (o->keying_thinking)
        printf("TPC-C: mean keying + think time %.3f s per transaction: at most %.2f transactions/s "
               "from %d terminals\n", tpcc_mean_pause_s() * o->time_scale,
               p->terminals / (tpcc_mean_pause_s() * o->time_scale), p->terminals);
    return 0;
}

/* Consistency conditions 1-4 of clause 3.3.2; each query counts the
 * warehouses or districts that break the condition. */
static int tc_check(const wl_run *run, db_conn *c)
{
    static const struct { const char *what, *sql; } conds[] = {
        { "1: W_YTD = sum(D_YTD) for every warehouse",
          "SELECT COUNT(*) FROM warehouse w WHERE w.w_ytd <> "
          "(SELECT SUM(d.d_ytd) FROM district d WHERE d.d_w_id = w.w_id)" },
        { "2: D_NEXT_O_ID - 1 = max(O_ID) = max(NO_O_ID) for every district",
          "SELECT COUNT(*) FROM district d WHERE d.d_next_o_id - 1 <> "
          "(SELECT MAX(o.o_id) FROM orders o WHERE o.o_w_id = d.d_w_id AND o.o_d_id = d.d_id) "
          "OR d.d_next_o_id - 1 <> (SELECT MAX(n.no_o_id) FROM new_order n "
          "WHERE n.no_w_id = d.d_w_id AND n.no_d_id = d.d_id)" },
        { "3: max(NO_O_ID) - min(NO_O_ID) + 1 = rows in NEW-ORDER for every district",
          "SELECT COUNT(*) FROM (SELECT no_w_id, no_d_id, MAX(no_o_id) - MIN(no_o_id) + 1 AS span, "
          "COUNT(*) AS n FROM new_order GROUP BY no_w_id, no_d_id) x WHERE x.span <> x.n" },
        { "4: sum(O_OL_CNT) = rows in ORDER-LINE for every district",
          "SELECT COUNT(*) FROM (SELECT o_w_id, o_d_id, SUM(o_ol_cnt) AS s FROM orders "
          "GROUP BY o_w_id, o_d_id) a LEFT JOIN (SELECT ol_w_id, ol_d_id, COUNT(*) AS n FROM order_line "
          "GROUP BY ol_w_id, ol_d_id) b ON a.o_w_id = b.ol_w_id AND a.o_d_id = b.ol_d_id "
          "WHERE b.n IS NULL OR a.s <> b.n" },
    };
    const tpcc_plan *p = run->data;
    int failed = 0;
    int64_t n;

    if (query_int(p, c, "SELECT COUNT(*) FROM district", &n) < 0)
        return -1;
    if (n == 0) {
        fprintf(stderr, "oltp: the TPC-C tables are empty: run `oltp tpcc --warehouses=N prepare` first\n");
        return -1;
    }
    printf("TPC-C consistency conditions (clause 3.3.2):\n");
    for (size_t i = 0; i < sizeof(conds) / sizeof(conds[0]); i++) {
        if (query_int(p, c, conds[i].sql, &n) < 0)
            return -1;
        printf("  %-74s %s", conds[i].what, n ? "FAILED" : "ok");
        if (n)
            printf(" (%" PRId64 " %s)", n, i == 0 ? "warehouses" : "districts");
        putchar('\n');
        failed += n != 0;
    }
    printf("%s\n", failed ? "Consistency check FAILED" : "All consistency conditions hold");
    return failed ? -1 : 0;
}

/* --- terminals and transactions --------------------------------------------- */

typedef struct ol_in {
    int  i_id, supply_w, qty;
} ol_in;

typedef struct tpcc_term {
    const wl_run    *run;
    const tpcc_plan *plan;
    rng             *r;
    int              w, d;              /* home warehouse and district */
    tpcc_deck        deck;
    tpcc_type        type, prev;
    bool             chosen, have_prev;
    int              pc;                /* position in the transaction */
    char             date[20];
    db_value         p[10];
    /* inputs (kept across a retry) */
    int              c_w, c_d, c_id, ol_cnt, carrier, threshold;
    bool             by_name, rollback;
    char             c_last[16];
    int64_t          amount_cents;
    ol_in            ol[15];
    /* transaction state */
    int              line, o_id, dd, d_c_id, all_local, skipped;
    int64_t          ol_cents;
    char             amount[24], s_dist[25], w_name[11], d_name[11], h_data[25], sum[32];
    char             c_data[520];
} tpcc_term;

static void *tc_conn_new(const wl_run *run, int id, rng *r)
{
    const tpcc_plan *p = run->data;
    tpcc_term *t = calloc(1, sizeof(*t));
    if (!t)
        return NULL;
    t->run = run;
    t->plan = p;
    t->r = r;
    /* 10 terminals per warehouse, each with its own district (2.8.1.1) */
    t->w = id % p->warehouses + 1;
    t->d = id / p->warehouses % DISTRICTS + 1;
    tpcc_deck_init(&t->deck);
    return t;
}

static void tc_conn_free(void *state)
{
    free(state);
}

/* A warehouse other than the home one (remote), or the home one when
 * there is only one. */
static int other_wh(tpcc_term *t)
{
    int n = t->plan->warehouses, w;
    if (n == 1)
        return t->w;
    w = (int)rand_uniform(t->r, 1, (uint32_t)n - 1);
    return w >= t->w ? w + 1 : w;
}

static void customer_input(tpcc_term *t, bool may_be_remote)
{
    const tpcc_consts *k = &t->plan->run;
    t->c_w = t->w;
    t->c_d = t->d;
    if (may_be_remote && rand_uniform(t->r, 1, 100) > 85 && t->plan->warehouses > 1) {
        t->c_w = other_wh(t);
        t->c_d = (int)rand_uniform(t->r, 1, DISTRICTS);
    }
    t->by_name = rand_uniform(t->r, 1, 100) <= 60;
    if (t->by_name)
        tpcc_last_name(tpcc_nurand(t->r, 255, k->c_last, 0, 999), t->c_last);
    else
        t->c_id = (int)tpcc_nurand(t->r, 1023, k->c_id, 1, CUSTOMERS);
}

/* Draw the next card and the inputs of its transaction. */
static void choose(tpcc_term *t)
{
    const tpcc_consts *k = &t->plan->run;
    rng *r = t->r;

    t->type = tpcc_deck_draw(&t->deck, r);
    t->chosen = true;
    switch (t->type) {
    case TPCC_NEW_ORDER:
        /* D_ID random in the home warehouse (2.4.1.2) */
        t->c_d = (int)rand_uniform(r, 1, DISTRICTS);
        t->c_id = (int)tpcc_nurand(r, 1023, k->c_id, 1, CUSTOMERS);
        t->ol_cnt = (int)rand_uniform(r, 5, 15);
        t->rollback = rand_uniform(r, 1, 100) == 1;
        for (int i = 0; i < t->ol_cnt; i++) {
            ol_in *l = &t->ol[i];
            l->i_id = (int)tpcc_nurand(r, 8191, k->ol_i_id, 1, ITEMS);
            l->supply_w = t->w;
            if (t->plan->warehouses > 1 && rand_uniform(r, 1, 100) == 1)
                l->supply_w = other_wh(t);
            l->qty = (int)rand_uniform(r, 1, 10);
        }
        if (t->rollback)
            t->ol[t->ol_cnt - 1].i_id = UNUSED_ITEM;
        break;
    case TPCC_PAYMENT:
        t->dd = (int)rand_uniform(r, 1, DISTRICTS);
        customer_input(t, true);
        if (t->c_w == t->w)
            t->c_d = t->dd;     /* local customer: C_D_ID = D_ID (2.5.1.2) */
        t->amount_cents = rand_uniform(r, 100, 500000);
        break;
    case TPCC_ORDER_STATUS:
        customer_input(t, false);
        t->c_d = (int)rand_uniform(r, 1, DISTRICTS);
        break;
    case TPCC_DELIVERY:
        t->carrier = (int)rand_uniform(r, 1, 10);
        break;
    case TPCC_STOCK_LEVEL:
        t->threshold = (int)rand_uniform(r, 10, 20);
        break;
    default:
        break;
    }
}

/* Keying time of the next transaction plus the think time after the
 * previous one (5.2.5), scaled by --time-scale; 0 at full speed. */
static double tc_pause_before(void *state)
{
    tpcc_term *t = state;
    const oltp_opts *o = t->run->o;
    double s;

    if (!t->chosen)
        choose(t);
    if (!o->keying_thinking)
        return 0;
    /* a terminal starts as if it had just finished a Payment: its first
     * think time spreads the start of thousands of terminals, which would
     * otherwise all submit when their (fixed) keying times end */
    s = tpcc_keying_s[t->type] + tpcc_think(t->r, t->have_prev ? t->prev : TPCC_PAYMENT);
    return s * o->time_scale;
}

static int tc_trx_begin(void *state)
{
    tpcc_term *t = state;
    time_t now = time(NULL);
    struct tm tm;

    if (!t->chosen)
        choose(t);
    t->pc = 0;
    t->line = 0;
    t->skipped = 0;
    t->all_local = 1;
    for (int i = 0; t->type == TPCC_NEW_ORDER && i < t->ol_cnt; i++)
        if (t->ol[i].supply_w != t->w)
            t->all_local = 0;
    gmtime_r(&now, &tm);
    strftime(t->date, sizeof t->date, "%Y-%m-%d %H:%M:%S", &tm);
    return (int)t->type;
}

static wl_step run_stmt(tpcc_term *t, wl_action *a, int stmt)
{
    a->stmt = stmt;
    a->params = t->p;
    return WL_STMT;
}

static db_value str(const char *s)
{
    return db_str(s, strlen(s));
}

static void money(char *buf, size_t len, int64_t cents)
{
    long long a = llabs((long long)cents);
    snprintf(buf, len, "%s%lld.%02lld", cents < 0 ? "-" : "", a / 100, a % 100);
}

static int64_t cents_of(db_conn *c, int col)
{
    return llround(db_col_double(c, col) * 100.0);
}

/* Copy column col of the current row into buf[len]. */
static void col_copy(db_conn *c, int col, char *buf, size_t len)
{
    size_t n = 0;
    const char *s = db_col(c, col, &n);
    if (!s)
        n = 0;
    if (n >= len)
        n = len - 1;
    memcpy(buf, s ? s : "", n);
    buf[n] = 0;
}

static wl_step fail(wl_action *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static wl_step fail(wl_action *a, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(a->err, sizeof a->err, fmt, ap);
    va_end(ap);
    return WL_FAIL;
}

/* Move to the middle row of a by-last-name result: position n/2 rounded
 * up, rows sorted by C_FIRST (2.5.2.2, 2.6.2.2). Returns false when no
 * customer has the name. */
static bool middle_row(db_conn *c)
{
    int64_t n = db_num_rows(c);
    if (n <= 0)
        return false;
    for (int64_t i = 0; i < (n + 1) / 2; i++)
        if (!db_next_row(c))
            return false;
    return true;
}

/* New-Order (2.4.2). */
static wl_step new_order(tpcc_term *t, db_conn *c, wl_action *a)
{
    ol_in *l;
    for (;;) switch (t->pc++) {
    case 0:
        return run_stmt(t, a, S_BEGIN);
    case 1:
        t->p[0] = db_int(t->w);
        return run_stmt(t, a, S_NO_WH);
    case 2:
        t->p[0] = db_int(t->w);
        t->p[1] = db_int(t->c_d);
        return run_stmt(t, a, S_NO_DIST);
    case 3:
        if (!db_next_row(c))
            return fail(a, "New-Order: district %d of warehouse %d is missing", t->c_d, t->w);
        t->o_id = (int)db_col_int(c, 1);
        t->p[0] = db_int(t->w);
        t->p[1] = db_int(t->c_d);
        return run_stmt(t, a, S_NO_DIST_UPD);
    case 4:
        t->p[0] = db_int(t->w);
        t->p[1] = db_int(t->c_d);
        t->p[2] = db_int(t->c_id);
        return run_stmt(t, a, S_NO_CUST);
    case 5:
        t->p[0] = db_int(t->o_id);
        t->p[1] = db_int(t->c_d);
        t->p[2] = db_int(t->w);
        t->p[3] = db_int(t->c_id);
        t->p[4] = str(t->date);
        t->p[5] = db_int(t->ol_cnt);
        t->p[6] = db_int(t->all_local);
        return run_stmt(t, a, S_NO_ORD_INS);
    case 6:
        t->p[0] = db_int(t->o_id);
        t->p[1] = db_int(t->c_d);
        t->p[2] = db_int(t->w);
        return run_stmt(t, a, S_NO_NEW_INS);
    case 7:                             /* each order line */
        t->p[0] = db_int(t->ol[t->line].i_id);
        return run_stmt(t, a, S_NO_ITEM);
    case 8:
        l = &t->ol[t->line];
        if (!db_next_row(c)) {
            if (l->i_id != UNUSED_ITEM)
                return fail(a, "New-Order: item %d is missing: the ITEM table is incomplete", l->i_id);
            /* the spec's 1 %: "item number is not valid", roll back (2.4.2.3) */
            t->pc = 20;
            return run_stmt(t, a, S_ROLLBACK);
        }
        t->ol_cents = cents_of(c, 0) * l->qty;
        t->p[0] = db_int(l->i_id);
        t->p[1] = db_int(l->supply_w);
        return run_stmt(t, a, S_NO_STOCK + t->c_d - 1);
    case 9: {
        int64_t q;
        l = &t->ol[t->line];
        if (!db_next_row(c))
            return fail(a, "New-Order: stock of item %d in warehouse %d is missing", l->i_id, l->supply_w);
        q = db_col_int(c, 0);
        col_copy(c, 2, t->s_dist, sizeof t->s_dist);
        q = q >= l->qty + 10 ? q - l->qty : q - l->qty + 91;
        t->p[0] = db_int(q);
        t->p[1] = db_int(l->qty);
        t->p[2] = db_int(l->supply_w != t->w);
        t->p[3] = db_int(l->i_id);
        t->p[4] = db_int(l->supply_w);
        return run_stmt(t, a, S_NO_STOCK_UPD);
    }
    case 10:
        l = &t->ol[t->line];
        money(t->amount, sizeof t->amount, t->ol_cents);
        t->p[0] = db_int(t->o_id);
        t->p[1] = db_int(t->c_d);
        t->p[2] = db_int(t->w);
        t->p[3] = db_int(t->line + 1);
        t->p[4] = db_int(l->i_id);
        t->p[5] = db_int(l->supply_w);
        t->p[6] = db_int(l->qty);
        t->p[7] = str(t->amount);
        t->p[8] = db_str(t->s_dist, 24);
        return run_stmt(t, a, S_NO_OL_INS);
    case 11:
        if (++t->line < t->ol_cnt) {
            t->pc = 7;
            continue;
        }
        return run_stmt(t, a, S_COMMIT);
    case 12:
        return WL_END;
    case 20:
        return WL_END_ROLLBACK;
    default:
        return fail(a, "New-Order: bad state %d", t->pc - 1);
    }
}

/* Select the customer by last name (middle row) or by id; on return the
 * current row is the customer, with C_ID in column 0. */
static wl_step customer_row(tpcc_term *t, db_conn *c, wl_action *a, const char *trx)
{
    if (t->by_name ? !middle_row(c) : !db_next_row(c))
        return fail(a, "%s: no customer %s%s in district %d of warehouse %d", trx,
                    t->by_name ? "named " : "", t->by_name ? t->c_last : "with that id", t->c_d, t->c_w);
    t->c_id = (int)db_col_int(c, 0);
    return WL_STMT;
}

static void customer_params(tpcc_term *t)
{
    t->p[0] = db_int(t->c_w);
    t->p[1] = db_int(t->c_d);
    t->p[2] = t->by_name ? str(t->c_last) : db_int(t->c_id);
}

/* Payment (2.5.2). */
static wl_step payment(tpcc_term *t, db_conn *c, wl_action *a)
{
    for (;;) switch (t->pc++) {
    case 0:
        return run_stmt(t, a, S_BEGIN);
    case 1:
        money(t->amount, sizeof t->amount, t->amount_cents);
        t->p[0] = str(t->amount);
        t->p[1] = db_int(t->w);
        return run_stmt(t, a, S_PY_WH_UPD);
    case 2:
        t->p[0] = db_int(t->w);
        return run_stmt(t, a, S_PY_WH);
    case 3:
        if (!db_next_row(c))
            return fail(a, "Payment: warehouse %d is missing", t->w);
        col_copy(c, 5, t->w_name, sizeof t->w_name);
        t->p[0] = str(t->amount);
        t->p[1] = db_int(t->w);
        t->p[2] = db_int(t->dd);
        return run_stmt(t, a, S_PY_DIST_UPD);
    case 4:
        t->p[0] = db_int(t->w);
        t->p[1] = db_int(t->dd);
        return run_stmt(t, a, S_PY_DIST);
    case 5:
        if (!db_next_row(c))
            return fail(a, "Payment: district %d of warehouse %d is missing", t->dd, t->w);
        col_copy(c, 5, t->d_name, sizeof t->d_name);
        customer_params(t);
        return run_stmt(t, a, t->by_name ? S_PY_CUST_NAME : S_PY_CUST_ID);
    case 6: {
        char credit[3];
        if (customer_row(t, c, a, "Payment") == WL_FAIL)
            return WL_FAIL;
        col_copy(c, 11, credit, sizeof credit);
        if (strcmp(credit, "BC")) {
            t->pc = 8;
            t->p[0] = str(t->amount);
            t->p[1] = str(t->amount);
            t->p[2] = db_int(t->c_w);
            t->p[3] = db_int(t->c_d);
            t->p[4] = db_int(t->c_id);
            return run_stmt(t, a, S_PY_CUST_UPD);
        }
        t->p[0] = db_int(t->c_w);
        t->p[1] = db_int(t->c_d);
        t->p[2] = db_int(t->c_id);
        return run_stmt(t, a, S_PY_CDATA);
    }
    case 7: {
        /* bad credit: prepend the payment to C_DATA, keep 500 characters */
        char old[501];
        int n;
        if (!db_next_row(c))
            return fail(a, "Payment: customer %d vanished", t->c_id);
        col_copy(c, 0, old, sizeof old);
        n = snprintf(t->c_data, sizeof t->c_data, "%d %d %d %d %d %s|%s", t->c_id, t->c_d, t->c_w,
                     t->dd, t->w, t->amount, old);
        if (n > 500)
            t->c_data[500] = 0;
        t->p[0] = str(t->amount);
        t->p[1] = str(t->amount);
        t->p[2] = str(t->c_data);
        t->p[3] = db_int(t->c_w);
        t->p[4] = db_int(t->c_d);
        t->p[5] = db_int(t->c_id);
        return run_stmt(t, a, S_PY_CUST_UPD_BC);
    }
    case 8:
        snprintf(t->h_data, sizeof t->h_data, "%s    %s", t->w_name, t->d_name);
        t->p[0] = db_int(t->c_id);
        t->p[1] = db_int(t->c_d);
        t->p[2] = db_int(t->c_w);
        t->p[3] = db_int(t->dd);
        t->p[4] = db_int(t->w);
        t->p[5] = str(t->date);
        t->p[6] = str(t->amount);
        t->p[7] = str(t->h_data);
        return run_stmt(t, a, S_PY_HIST);
    case 9:
        return run_stmt(t, a, S_COMMIT);
    case 10:
        return WL_END;
    default:
        return fail(a, "Payment: bad state %d", t->pc - 1);
    }
}

/* Order-Status (2.6.2). */
static wl_step order_status(tpcc_term *t, db_conn *c, wl_action *a)
{
    for (;;) switch (t->pc++) {
    case 0:
        return run_stmt(t, a, S_BEGIN);
    case 1:
        customer_params(t);
        return run_stmt(t, a, t->by_name ? S_OS_CUST_NAME : S_OS_CUST_ID);
    case 2:
        if (customer_row(t, c, a, "Order-Status") == WL_FAIL)
            return WL_FAIL;
        t->p[0] = db_int(t->c_w);
        t->p[1] = db_int(t->c_d);
        t->p[2] = db_int(t->c_id);
        return run_stmt(t, a, S_OS_ORDER);
    case 3:
        if (!db_next_row(c)) {          /* the customer's most recent order */
            t->pc = 4;
            continue;
        }
        t->p[0] = db_int(t->c_w);
        t->p[1] = db_int(t->c_d);
        t->p[2] = db_int(db_col_int(c, 0));
        return run_stmt(t, a, S_OS_LINES);
    case 4:
        return run_stmt(t, a, S_COMMIT);
    case 5:
        return WL_END;
    default:
        return fail(a, "Order-Status: bad state %d", t->pc - 1);
    }
}

/* Delivery (2.7.4): the ten districts of the home warehouse in one
 * database transaction. */
static wl_step delivery(tpcc_term *t, db_conn *c, wl_action *a)
{
    for (;;) switch (t->pc++) {
    case 0:
        t->dd = 1;
        return run_stmt(t, a, S_BEGIN);
    case 1:                             /* next district */
        t->p[0] = db_int(t->w);
        t->p[1] = db_int(t->dd);
        return run_stmt(t, a, S_DL_MIN);
    case 2:
        if (!db_next_row(c) || !db_col(c, 0, NULL)) {
            t->skipped++;               /* no outstanding order in this district */
            t->pc = 8;
            continue;
        }
        t->o_id = (int)db_col_int(c, 0);
        t->p[0] = db_int(t->w);
        t->p[1] = db_int(t->dd);
        t->p[2] = db_int(t->o_id);
        return run_stmt(t, a, S_DL_DEL);
    case 3:
        if (db_affected_rows(c) != 1)   /* another terminal delivered it first */
            return WL_RETRY;
        t->p[0] = db_int(t->w);
        t->p[1] = db_int(t->dd);
        t->p[2] = db_int(t->o_id);
        return run_stmt(t, a, S_DL_ORDER);
    case 4:
        if (!db_next_row(c))
            return fail(a, "Delivery: order %d of district %d, warehouse %d is missing", t->o_id, t->dd, t->w);
        t->d_c_id = (int)db_col_int(c, 0);
        t->p[0] = db_int(t->carrier);
        t->p[1] = db_int(t->w);
        t->p[2] = db_int(t->dd);
        t->p[3] = db_int(t->o_id);
        return run_stmt(t, a, S_DL_ORDER_UPD);
    case 5:
        t->p[0] = str(t->date);
        t->p[1] = db_int(t->w);
        t->p[2] = db_int(t->dd);
        t->p[3] = db_int(t->o_id);
        return run_stmt(t, a, S_DL_LINES_UPD);
    case 6:
        t->p[0] = db_int(t->w);
        t->p[1] = db_int(t->dd);
        t->p[2] = db_int(t->o_id);
        return run_stmt(t, a, S_DL_SUM);
    case 7:
        if (!db_next_row(c) || !db_col(c, 0, NULL))
            snprintf(t->sum, sizeof t->sum, "0");
        else
            col_copy(c, 0, t->sum, sizeof t->sum);
        t->p[0] = str(t->sum);
        t->p[1] = db_int(t->w);
        t->p[2] = db_int(t->dd);
        t->p[3] = db_int(t->d_c_id);
        return run_stmt(t, a, S_DL_CUST_UPD);
    case 8:
        if (++t->dd <= DISTRICTS) {
            t->pc = 1;
            continue;
        }
        return run_stmt(t, a, S_COMMIT);
    case 9:
        return WL_END;
    default:
        return fail(a, "Delivery: bad state %d", t->pc - 1);
    }
}

/* Stock-Level (2.8.2): the terminal's own district, last 20 orders. */
static wl_step stock_level(tpcc_term *t, db_conn *c, wl_action *a)
{
    for (;;) switch (t->pc++) {
    case 0:
        return run_stmt(t, a, S_BEGIN);
    case 1:
        t->p[0] = db_int(t->w);
        t->p[1] = db_int(t->d);
        return run_stmt(t, a, S_SL_DIST);
    case 2: {
        int64_t next;
        if (!db_next_row(c))
            return fail(a, "Stock-Level: district %d of warehouse %d is missing", t->d, t->w);
        next = db_col_int(c, 0);
        t->p[0] = db_int(t->w);
        t->p[1] = db_int(t->d);
        t->p[2] = db_int(next);
        t->p[3] = db_int(next - 20);
        t->p[4] = db_int(t->w);
        t->p[5] = db_int(t->threshold);
        return run_stmt(t, a, S_SL_COUNT);
    }
    case 3:
        return run_stmt(t, a, S_COMMIT);
    case 4:
        return WL_END;
    default:
        return fail(a, "Stock-Level: bad state %d", t->pc - 1);
    }
}

static wl_step tc_step(void *state, db_conn *c, wl_action *a)
{
    tpcc_term *t = state;
    wl_step s = WL_FAIL;

    switch (t->type) {
    case TPCC_NEW_ORDER:    s = new_order(t, c, a); break;
    case TPCC_PAYMENT:      s = payment(t, c, a); break;
    case TPCC_ORDER_STATUS: s = order_status(t, c, a); break;
    case TPCC_DELIVERY:     s = delivery(t, c, a); break;
    case TPCC_STOCK_LEVEL:  s = stock_level(t, c, a); break;
    default: break;
    }
    if (s == WL_END || s == WL_END_ROLLBACK) {
        t->chosen = false;
        t->have_prev = true;
        t->prev = t->type;
    }
    return s;
}

const workload wl_tpcc = {
    .name = "tpcc",
    .summary = "TPC-C rev. 5.11: nine tables, five transactions, keying/think times",
    .ntypes = TPCC_NTYPES,
    .type_names = tpcc_type_names,
    .tpm_name = "tpmC",
    .tpm_type = TPCC_NEW_ORDER,
    .type_p90_limit_s = tpcc_p90_limit_s,
    .type_min_share = tpcc_min_share,
    .setup = tc_setup,
    .teardown = tc_teardown,
    .prepare = tc_prepare,
    .cleanup = tc_cleanup,
    .check_ready = tc_check_ready,
    .check = tc_check,
    .conn_new = tc_conn_new,
    .conn_free = tc_conn_free,
    .trx_begin = tc_trx_begin,
    .step = tc_step,
    .pause_before = tc_pause_before,
    .terminals = tc_terminals,
};
