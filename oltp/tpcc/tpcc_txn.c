/*
 * tpcc_txn.c — TPC-C's terminals and its five transactions (clauses
 * 2.4-2.8) as resumable state machines, and the keying and think times
 * of a terminal (5.2.5).
 *
 * One state is one terminal: a home warehouse and district, its own deck
 * of transaction cards, the inputs of the transaction it is about to run
 * (kept when the engine retries it after a deadlock). A transaction's
 * position is a named state of its own enum (NO_*, PY_*, OS_*, DL_*,
 * SL_*); step() runs the state in t->pc and moves to the next one, so
 * states are listed in the order they run.
 *
 * SQL: standard statements with ? placeholders, run through db.h; what a
 * dialect writes otherwise is in `stmt_variants`. With --tpcc-procedures
 * a transaction is one CALL of its stored procedure (tpcc_proc.c) with the
 * same inputs instead.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tpcc/tpcc.h"

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
    /* --tpcc-procedures: one CALL per transaction, S_CALL + its tpcc_type */
    S_CALL, S_CALL_LAST = S_CALL + TPCC_NTYPES - 1,
    /* a dialect's New-Order increment before S_NO_DIST (stmt_variants;
     * last, so the other statements keep their numbers) */
    S_NO_DIST_INC,
    NSTMTS
};

#define CUST_COLS "c_first, c_middle, c_last, c_street_1, c_street_2, c_city, c_state, c_zip, " \
                  "c_phone, c_since, c_credit, c_credit_lim, c_discount, c_balance"
#define STOCK_SEL(d, dd) [S_NO_STOCK + d - 1] = { "SELECT s_quantity, s_data, s_dist_" dd " FROM stock " \
                     "WHERE s_i_id = ? AND s_w_id = ? FOR UPDATE", 2, DB_Q_READ }

static const db_stmt_def stmt_defs[NSTMTS] = {
    /* texts from the dialect (tpcc_stmts_build); ODBC ends transactions
     * with its own calls instead (db.h, db_trx) */
    [S_BEGIN]    = { NULL, 0, DB_Q_OTHER, DB_TRX_BEGIN },
    [S_COMMIT]   = { NULL, 0, DB_Q_OTHER, DB_TRX_COMMIT },
    [S_ROLLBACK] = { NULL, 0, DB_Q_OTHER, DB_TRX_ROLLBACK },

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

    [S_NO_DIST_INC] = { NULL, 2, DB_Q_WRITE },  /* none: S_NO_DIST_UPD after the read */

    [S_SL_DIST]     = { "SELECT d_next_o_id FROM district WHERE d_w_id = ? AND d_id = ?", 2, DB_Q_READ },
    [S_SL_COUNT]    = { "SELECT COUNT(DISTINCT s_i_id) FROM order_line, stock "
                        "WHERE ol_w_id = ? AND ol_d_id = ? AND ol_o_id < ? AND ol_o_id >= ? "
                        "AND s_w_id = ? AND s_i_id = ol_i_id AND s_quantity < ?", 6, DB_Q_READ },
};

/* Statements whose standard text a dialect does not take: T-SQL has no
 * SELECT ... FOR UPDATE (a lock hint instead) and no FETCH FIRST without
 * OFFSET. New-Order's order id is incremented first and read back after:
 * the UPDATE's exclusive row lock, held to the end of the transaction,
 * keeps every other terminal away from the district in between, whatever
 * locks a read takes. The read WITH (UPDLOCK) then UPDATE relied on the
 * hint, which Babelfish does not honour (two terminals took the same id:
 * error 2627); UPDATE ... OUTPUT deleted.d_next_o_id (or inserted.*) is
 * atomic on SQL Server, but Babelfish's OUTPUT returns the row as it was
 * before a concurrent writer's commit (the same 2627; docs/odbc-sqlserver.md,
 * "Babelfish deviations"). (Run against Babelfish, not against SQL Server:
 * none on the development machines.) */
static const struct { db_dialect d; int stmt; const char *sql; db_qkind kind; } stmt_variants[] = {
    { DB_DIALECT_MSSQL, S_NO_DIST_INC, "UPDATE district SET d_next_o_id = d_next_o_id + 1 "
                                       "WHERE d_w_id = ? AND d_id = ?", DB_Q_WRITE },
    { DB_DIALECT_MSSQL, S_NO_DIST, "SELECT d_tax, d_next_o_id - 1 FROM district WHERE d_w_id = ? AND d_id = ?",
      DB_Q_READ },
    { DB_DIALECT_MSSQL, S_NO_DIST_UPD, NULL, DB_Q_WRITE },
    { DB_DIALECT_MSSQL, S_PY_CUST_NAME, "SELECT c_id, " CUST_COLS " FROM customer WITH (UPDLOCK) "
                                        "WHERE c_w_id = ? AND c_d_id = ? AND c_last = ? ORDER BY c_first",
      DB_Q_READ },
    { DB_DIALECT_MSSQL, S_PY_CUST_ID, "SELECT c_id, " CUST_COLS " FROM customer WITH (UPDLOCK) "
                                      "WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?",
      DB_Q_READ },
    { DB_DIALECT_MSSQL, S_DL_MIN, "SELECT TOP 1 no_o_id FROM new_order WITH (UPDLOCK, ROWLOCK) "
                                  "WHERE no_w_id = ? AND no_d_id = ? ORDER BY no_o_id",
      DB_Q_READ },
#define STOCK_MSSQL(d, dd) { DB_DIALECT_MSSQL, S_NO_STOCK + d - 1, "SELECT s_quantity, s_data, s_dist_" dd \
                             " FROM stock WITH (UPDLOCK) WHERE s_i_id = ? AND s_w_id = ?", DB_Q_READ }
    STOCK_MSSQL(1, "01"), STOCK_MSSQL(2, "02"), STOCK_MSSQL(3, "03"), STOCK_MSSQL(4, "04"),
    STOCK_MSSQL(5, "05"), STOCK_MSSQL(6, "06"), STOCK_MSSQL(7, "07"), STOCK_MSSQL(8, "08"),
    STOCK_MSSQL(9, "09"), STOCK_MSSQL(10, "10"),
};

int tpcc_stmts_build(wl_run *run, const dialect_def *dl, db_dialect d)
{
    run->stmts = malloc(sizeof(stmt_defs));
    if (!run->stmts) {
        fprintf(stderr, "oltp: out of memory\n");
        return -1;
    }
    memcpy(run->stmts, stmt_defs, sizeof(stmt_defs));
    run->nstmts = NSTMTS;
    run->stmts[S_BEGIN].sql = dl->begin;
    run->stmts[S_COMMIT].sql = dl->commit;
    run->stmts[S_ROLLBACK].sql = dl->rollback;
    for (size_t i = 0; i < sizeof(stmt_variants) / sizeof(stmt_variants[0]); i++)
        if (stmt_variants[i].d == d) {
            run->stmts[stmt_variants[i].stmt].sql = stmt_variants[i].sql;
            run->stmts[stmt_variants[i].stmt].kind = stmt_variants[i].kind;
        }
    for (int t = 0; run->o->tpcc_procedures && t < TPCC_NTYPES; t++)
        tpcc_proc_call(d, t, &run->stmts[S_CALL + t]);
    return 0;
}

/* --- terminals and transactions --------------------------------------------- */

/* The states of the five transactions, in the order they run; each
 * state issues the statement its name says (after reading the result of
 * the previous one). Every transaction starts in state TRX_START. */
enum { TRX_START = 0 };
enum {                                  /* New-Order, 2.4.2 */
    NO_BEGIN = TRX_START, NO_WH, NO_DIST_INC, NO_DIST, NO_DIST_UPD, NO_CUST, NO_ORD_INS, NO_NEW_INS,
    NO_ITEM,                            /* each order line: item, stock, line */
    NO_STOCK, NO_STOCK_UPD, NO_OL_INS,
    NO_COMMIT,                          /* or the next line */
    NO_DONE,
    NO_ROLLED_BACK,                     /* after the spec's 1 % rollback */
};
enum {                                  /* Payment, 2.5.2 */
    PY_BEGIN = TRX_START, PY_WH_UPD, PY_WH, PY_DIST_UPD, PY_DIST, PY_CUST,
    PY_CREDIT,                          /* good credit: update, go to PY_HIST */
    PY_CUST_UPD_BC,                     /* bad credit: update with C_DATA */
    PY_HIST, PY_COMMIT, PY_DONE,
};
enum {                                  /* Order-Status, 2.6.2 */
    OS_BEGIN = TRX_START, OS_CUST, OS_ORDER, OS_LINES, OS_COMMIT, OS_DONE,
};
enum {                                  /* Delivery, 2.7.4 */
    DL_BEGIN = TRX_START,
    DL_MIN,                             /* each district: oldest new order */
    DL_DEL, DL_ORDER, DL_ORDER_UPD, DL_LINES_UPD, DL_SUM, DL_CUST_UPD,
    DL_NEXT_DISTRICT,                   /* the next district, or commit */
    DL_DONE,
};
enum {                                  /* Stock-Level, 2.8.2 */
    SL_BEGIN = TRX_START, SL_DIST, SL_COUNT, SL_COMMIT, SL_DONE,
};

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
    db_value         p[TPCC_NO_FIXED_PARAMS + 3 * TPCC_MAX_LINES];
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

void *tpcc_term_new(const wl_run *run, int id, rng *r)
{
    const tpcc_plan *p = run->data;
    tpcc_term *t = calloc(1, sizeof(*t));
    if (!t)
        return NULL;
    t->run = run;
    t->plan = p;
    t->r = r;
    /* 10 terminals per warehouse, each with its own district (2.8.1.1) */
    t->home_w = t->w = id % p->warehouses + 1;
    t->d = id / p->warehouses % DISTRICTS + 1;
    tpcc_deck_init(&t->deck);
    return t;
}

void tpcc_term_free(void *state)
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
    /* HammerDB's "use all warehouses": spread the load over the whole
     * database rather than the terminals' own warehouses */
    if (t->run->o->tpcc_all_warehouses)
        t->w = (int)rand_uniform(r, 1, (uint32_t)t->plan->warehouses);
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
double tpcc_pause_before(void *state)
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

int tpcc_trx_begin(void *state)
{
    tpcc_term *t = state;
    time_t now = time(NULL);
    struct tm tm;

    if (!t->chosen)
        choose(t);
    t->pc = TRX_START;
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
    case NO_BEGIN:
        return run_stmt(t, a, S_BEGIN);
    case NO_WH:
        t->p[0] = db_int(t->w);
        return run_stmt(t, a, S_NO_WH);
    case NO_DIST_INC:
        if (!t->run->stmts[S_NO_DIST_INC].sql)
            continue;                   /* S_NO_DIST_UPD increments it after the read */
        t->p[0] = db_int(t->w);
        t->p[1] = db_int(t->c_d);
        return run_stmt(t, a, S_NO_DIST_INC);
    case NO_DIST:
        t->p[0] = db_int(t->w);
        t->p[1] = db_int(t->c_d);
        return run_stmt(t, a, S_NO_DIST);
    case NO_DIST_UPD:
        if (!db_next_row(c))
            return fail(a, "New-Order: district %d of warehouse %d is missing", t->c_d, t->w);
        t->o_id = (int)db_col_int(c, 1);
        if (!t->run->stmts[S_NO_DIST_UPD].sql)
            continue;                   /* the dialect's S_NO_DIST_INC did (stmt_variants) */
        t->p[0] = db_int(t->w);
        t->p[1] = db_int(t->c_d);
        return run_stmt(t, a, S_NO_DIST_UPD);
    case NO_CUST:
        t->p[0] = db_int(t->w);
        t->p[1] = db_int(t->c_d);
        t->p[2] = db_int(t->c_id);
        return run_stmt(t, a, S_NO_CUST);
    case NO_ORD_INS:
        t->p[0] = db_int(t->o_id);
        t->p[1] = db_int(t->c_d);
        t->p[2] = db_int(t->w);
        t->p[3] = db_int(t->c_id);
        t->p[4] = str(t->date);
        t->p[5] = db_int(t->ol_cnt);
        t->p[6] = db_int(t->all_local);
        return run_stmt(t, a, S_NO_ORD_INS);
    case NO_NEW_INS:
        t->p[0] = db_int(t->o_id);
        t->p[1] = db_int(t->c_d);
        t->p[2] = db_int(t->w);
        return run_stmt(t, a, S_NO_NEW_INS);
    case NO_ITEM:                             /* each order line */
        t->p[0] = db_int(t->ol[t->line].i_id);
        return run_stmt(t, a, S_NO_ITEM);
    case NO_STOCK:
        l = &t->ol[t->line];
        if (!db_next_row(c)) {
            if (l->i_id != UNUSED_ITEM)
                return fail(a, "New-Order: item %d is missing: the ITEM table is incomplete", l->i_id);
            /* the spec's 1 %: "item number is not valid", roll back (2.4.2.3) */
            t->pc = NO_ROLLED_BACK;
            return run_stmt(t, a, S_ROLLBACK);
        }
        t->ol_cents = cents_of(c, 0) * l->qty;
        t->p[0] = db_int(l->i_id);
        t->p[1] = db_int(l->supply_w);
        return run_stmt(t, a, S_NO_STOCK + t->c_d - 1);
    case NO_STOCK_UPD: {
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
    case NO_OL_INS:
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
    case NO_COMMIT:
        if (++t->line < t->ol_cnt) {
            t->pc = NO_ITEM;
            continue;
        }
        return run_stmt(t, a, S_COMMIT);
    case NO_DONE:
        return WL_END;
    case NO_ROLLED_BACK:
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
    case PY_BEGIN:
        return run_stmt(t, a, S_BEGIN);
    case PY_WH_UPD:
        money(t->amount, sizeof t->amount, t->amount_cents);
        t->p[0] = str(t->amount);
        t->p[1] = db_int(t->w);
        return run_stmt(t, a, S_PY_WH_UPD);
    case PY_WH:
        t->p[0] = db_int(t->w);
        return run_stmt(t, a, S_PY_WH);
    case PY_DIST_UPD:
        if (!db_next_row(c))
            return fail(a, "Payment: warehouse %d is missing", t->w);
        col_copy(c, 5, t->w_name, sizeof t->w_name);
        t->p[0] = str(t->amount);
        t->p[1] = db_int(t->w);
        t->p[2] = db_int(t->dd);
        return run_stmt(t, a, S_PY_DIST_UPD);
    case PY_DIST:
        t->p[0] = db_int(t->w);
        t->p[1] = db_int(t->dd);
        return run_stmt(t, a, S_PY_DIST);
    case PY_CUST:
        if (!db_next_row(c))
            return fail(a, "Payment: district %d of warehouse %d is missing", t->dd, t->w);
        col_copy(c, 5, t->d_name, sizeof t->d_name);
        customer_params(t);
        return run_stmt(t, a, t->by_name ? S_PY_CUST_NAME : S_PY_CUST_ID);
    case PY_CREDIT: {
        char credit[3];
        if (customer_row(t, c, a, "Payment") == WL_FAIL)
            return WL_FAIL;
        col_copy(c, 11, credit, sizeof credit);
        if (strcmp(credit, "BC")) {
            t->pc = PY_HIST;
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
    case PY_CUST_UPD_BC: {
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
    case PY_HIST:
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
    case PY_COMMIT:
        return run_stmt(t, a, S_COMMIT);
    case PY_DONE:
        return WL_END;
    default:
        return fail(a, "Payment: bad state %d", t->pc - 1);
    }
}

/* Order-Status (2.6.2). */
static wl_step order_status(tpcc_term *t, db_conn *c, wl_action *a)
{
    for (;;) switch (t->pc++) {
    case OS_BEGIN:
        return run_stmt(t, a, S_BEGIN);
    case OS_CUST:
        customer_params(t);
        return run_stmt(t, a, t->by_name ? S_OS_CUST_NAME : S_OS_CUST_ID);
    case OS_ORDER:
        if (customer_row(t, c, a, "Order-Status") == WL_FAIL)
            return WL_FAIL;
        t->p[0] = db_int(t->c_w);
        t->p[1] = db_int(t->c_d);
        t->p[2] = db_int(t->c_id);
        return run_stmt(t, a, S_OS_ORDER);
    case OS_LINES:
        if (!db_next_row(c)) {          /* the customer's most recent order */
            t->pc = OS_COMMIT;
            continue;
        }
        t->p[0] = db_int(t->c_w);
        t->p[1] = db_int(t->c_d);
        t->p[2] = db_int(db_col_int(c, 0));
        return run_stmt(t, a, S_OS_LINES);
    case OS_COMMIT:
        return run_stmt(t, a, S_COMMIT);
    case OS_DONE:
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
    case DL_BEGIN:
        t->dd = 1;
        return run_stmt(t, a, S_BEGIN);
    case DL_MIN:                             /* next district */
        t->p[0] = db_int(t->w);
        t->p[1] = db_int(t->dd);
        return run_stmt(t, a, S_DL_MIN);
    case DL_DEL:
        if (!db_next_row(c) || !db_col(c, 0, NULL)) {
            t->skipped++;               /* no outstanding order in this district */
            t->pc = DL_NEXT_DISTRICT;
            continue;
        }
        t->o_id = (int)db_col_int(c, 0);
        t->p[0] = db_int(t->w);
        t->p[1] = db_int(t->dd);
        t->p[2] = db_int(t->o_id);
        return run_stmt(t, a, S_DL_DEL);
    case DL_ORDER:
        if (db_affected_rows(c) != 1)   /* another terminal delivered it first */
            return WL_RETRY;
        t->p[0] = db_int(t->w);
        t->p[1] = db_int(t->dd);
        t->p[2] = db_int(t->o_id);
        return run_stmt(t, a, S_DL_ORDER);
    case DL_ORDER_UPD:
        if (!db_next_row(c))
            return fail(a, "Delivery: order %d of district %d, warehouse %d is missing", t->o_id, t->dd, t->w);
        t->d_c_id = (int)db_col_int(c, 0);
        t->p[0] = db_int(t->carrier);
        t->p[1] = db_int(t->w);
        t->p[2] = db_int(t->dd);
        t->p[3] = db_int(t->o_id);
        return run_stmt(t, a, S_DL_ORDER_UPD);
    case DL_LINES_UPD:
        t->p[0] = str(t->date);
        t->p[1] = db_int(t->w);
        t->p[2] = db_int(t->dd);
        t->p[3] = db_int(t->o_id);
        return run_stmt(t, a, S_DL_LINES_UPD);
    case DL_SUM:
        t->p[0] = db_int(t->w);
        t->p[1] = db_int(t->dd);
        t->p[2] = db_int(t->o_id);
        return run_stmt(t, a, S_DL_SUM);
    case DL_CUST_UPD:
        if (!db_next_row(c) || !db_col(c, 0, NULL))
            snprintf(t->sum, sizeof t->sum, "0");
        else
            col_copy(c, 0, t->sum, sizeof t->sum);
        t->p[0] = str(t->sum);
        t->p[1] = db_int(t->w);
        t->p[2] = db_int(t->dd);
        t->p[3] = db_int(t->d_c_id);
        return run_stmt(t, a, S_DL_CUST_UPD);
    case DL_NEXT_DISTRICT:
        if (++t->dd <= DISTRICTS) {
            t->pc = DL_MIN;
            continue;
        }
        return run_stmt(t, a, S_COMMIT);
    case DL_DONE:
        return WL_END;
    default:
        return fail(a, "Delivery: bad state %d", t->pc - 1);
    }
}

/* Stock-Level (2.8.2): the terminal's own district, last 20 orders. */
static wl_step stock_level(tpcc_term *t, db_conn *c, wl_action *a)
{
    for (;;) switch (t->pc++) {
    case SL_BEGIN:
        return run_stmt(t, a, S_BEGIN);
    case SL_DIST:
        t->p[0] = db_int(t->w);
        t->p[1] = db_int(t->d);
        return run_stmt(t, a, S_SL_DIST);
    case SL_COUNT: {
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
    case SL_COMMIT:
        return run_stmt(t, a, S_COMMIT);
    case SL_DONE:
        return WL_END;
    default:
        return fail(a, "Stock-Level: bad state %d", t->pc - 1);
    }
}

/* Bind the inputs of the transaction about to run as the parameters of
 * its procedure (tpcc_proc.c says which, in this order). */
static void call_params(tpcc_term *t)
{
    db_value *p = t->p;
    int n = 0;

    switch (t->type) {
    case TPCC_NEW_ORDER:
        p[n++] = db_int(t->w);
        p[n++] = db_int(t->c_d);
        p[n++] = db_int(t->c_id);
        p[n++] = db_int(t->ol_cnt);
        p[n++] = db_int(t->all_local);
        p[n++] = str(t->date);
        for (int i = 0; i < TPCC_MAX_LINES; i++) {     /* unused slots: 0 */
            bool used = i < t->ol_cnt;
            p[n++] = db_int(used ? t->ol[i].i_id : 0);
            p[n++] = db_int(used ? t->ol[i].supply_w : 0);
            p[n++] = db_int(used ? t->ol[i].qty : 0);
        }
        break;
    case TPCC_PAYMENT:
        money(t->amount, sizeof t->amount, t->amount_cents);
        p[n++] = db_int(t->w);
        p[n++] = db_int(t->dd);
        p[n++] = db_int(t->c_w);
        p[n++] = db_int(t->c_d);
        p[n++] = db_int(t->by_name);
        p[n++] = db_int(t->by_name ? 0 : t->c_id);
        p[n++] = str(t->by_name ? t->c_last : "");
        p[n++] = str(t->amount);
        p[n++] = str(t->date);
        break;
    case TPCC_ORDER_STATUS:
        p[n++] = db_int(t->c_w);
        p[n++] = db_int(t->c_d);
        p[n++] = db_int(t->by_name);
        p[n++] = db_int(t->by_name ? 0 : t->c_id);
        p[n++] = str(t->by_name ? t->c_last : "");
        break;
    case TPCC_DELIVERY:
        p[n++] = db_int(t->w);
        p[n++] = db_int(t->carrier);
        p[n++] = str(t->date);
        break;
    case TPCC_STOCK_LEVEL:
        p[n++] = db_int(t->w);
        p[n++] = db_int(t->d);
        p[n++] = db_int(t->threshold);
        break;
    default:
        break;
    }
}

/* --tpcc-procedures: the transaction is one CALL; the procedure begins
 * and ends the database transaction itself. */
enum { CALL_RUN = TRX_START, CALL_DONE };

static wl_step call_procedure(tpcc_term *t, wl_action *a)
{
    switch (t->pc++) {
    case CALL_RUN:
        call_params(t);
        return run_stmt(t, a, S_CALL + (int)t->type);
    case CALL_DONE:
        /* tpcc_neword rolled back the spec's 1 % itself: its last item is
         * the unused one (2.4.1.4) */
        return t->type == TPCC_NEW_ORDER && t->rollback ? WL_END_ROLLBACK : WL_END;
    default:
        return fail(a, "%s: bad state %d", tpcc_type_names[t->type], t->pc - 1);
    }
}

wl_step tpcc_step(void *state, db_conn *c, wl_action *a)
{
    tpcc_term *t = state;
    wl_step s = WL_FAIL;

    if (t->plan->procedures)
        s = call_procedure(t, a);
    else switch (t->type) {
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
