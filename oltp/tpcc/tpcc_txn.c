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

int tpcc_trx_begin(void *state)
{
    tpcc_term *t = state;
    time_t now = time(NULL);
    struct tm tm;

    if (!t->chosen)
        tpcc_term_choose(t);
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
/* New-Order's district: its warehouse and district as the first two
 * parameters. */
static void district_params(tpcc_term *t)
{
    t->p[0] = db_int(t->w);
    t->p[1] = db_int(t->c_d);
}

/* New-Order's STOCK update of the current line, from the row just read:
 * the mode's replenish rule; HammerDB's sets S_QUANTITY only. */
static wl_step stock_update(tpcc_term *t, db_conn *c, wl_action *a)
{
    ol_in *l = &t->ol[t->line];
    int64_t q;

    if (!db_next_row(c))
        return fail(a, "New-Order: stock of item %d in warehouse %d is missing", l->i_id, l->supply_w);
    q = db_col_int(c, 0);
    col_copy(c, 2, t->s_dist, sizeof t->s_dist);
    t->p[0] = db_int(tpcc_stock_after(t->plan->compat, (int)q, l->qty));
    if (t->plan->compat == TPCC_COMPAT_HAMMERDB) {
        t->p[1] = db_int(l->i_id);
        t->p[2] = db_int(l->supply_w);
        return run_stmt(t, a, S_NO_STOCK_UPD);
    }
    t->p[1] = db_int(l->qty);
    t->p[2] = db_int(l->supply_w != t->w);
    t->p[3] = db_int(l->i_id);
    t->p[4] = db_int(l->supply_w);
    return run_stmt(t, a, S_NO_STOCK_UPD);
}

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
        district_params(t);
        return run_stmt(t, a, S_NO_DIST_INC);
    case NO_DIST:
        district_params(t);
        return run_stmt(t, a, S_NO_DIST);
    case NO_DIST_UPD:
        if (!db_next_row(c))
            return fail(a, "New-Order: district %d of warehouse %d is missing", t->c_d, t->w);
        t->o_id = (int)db_col_int(c, 1);
        if (!t->run->stmts[S_NO_DIST_UPD].sql)
            continue;                   /* the dialect's S_NO_DIST_INC did (stmt_variants) */
        district_params(t);
        return run_stmt(t, a, S_NO_DIST_UPD);
    case NO_CUST:
        district_params(t);
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
    case NO_STOCK_UPD:
        return stock_update(t, c, a);
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

/* The parameters of Payment's CUSTOMER update: the amount (twice, for
 * C_BALANCE and C_YTD_PAYMENT; once in HammerDB's, C_BALANCE only), the
 * new C_DATA when data is not NULL (bad credit), then the customer. */
static void cust_upd_params(tpcc_term *t, const char *data)
{
    int n = 0;
    t->p[n++] = str(t->amount);
    if (t->plan->compat != TPCC_COMPAT_HAMMERDB)
        t->p[n++] = str(t->amount);
    if (data)
        t->p[n++] = str(data);
    t->p[n++] = db_int(t->c_w);
    t->p[n++] = db_int(t->c_d);
    t->p[n++] = db_int(t->c_id);
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
            cust_upd_params(t, NULL);
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
        cust_upd_params(t, t->c_data);
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
    int n = 0, hdb = t->plan->compat == TPCC_COMPAT_HAMMERDB;

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
        p[n++] = db_int(hdb);
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
        p[n++] = db_int(hdb);
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
        p[n++] = db_int(hdb);
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
 * and ends the database transaction itself. With --tpcc-compat=hammerdb
 * on a dialect that has S_HDB_SET/S_HDB_GET (MariaDB), the round trips
 * HammerDB's MariaDB driver sends around it: a SET of user variables
 * before New-Order, Payment and Order-Status, a SELECT of the results
 * after every CALL but Delivery's (3, 3, 3, 1, 2 statements). */
enum { CALL_SET = TRX_START, CALL_RUN, CALL_GET, CALL_DONE };

static bool hdb_round_trip(const tpcc_term *t, int stmt)
{
    if (t->plan->compat != TPCC_COMPAT_HAMMERDB || !t->run->stmts[stmt].sql)
        return false;
    return stmt == S_HDB_SET ? t->type != TPCC_DELIVERY && t->type != TPCC_STOCK_LEVEL
                             : t->type != TPCC_DELIVERY;
}

static wl_step call_procedure(tpcc_term *t, wl_action *a)
{
    for (;;) switch (t->pc++) {
    case CALL_SET:
        if (!hdb_round_trip(t, S_HDB_SET))
            continue;
        return run_stmt(t, a, S_HDB_SET);
    case CALL_RUN:
        call_params(t);
        return run_stmt(t, a, S_CALL + (int)t->type);
    case CALL_GET:
        if (!hdb_round_trip(t, S_HDB_GET))
            continue;
        return run_stmt(t, a, S_HDB_GET);
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
