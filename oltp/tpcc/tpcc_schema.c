/*
 * tpcc_schema.c — TPC-C's nine tables (clause 1.3), their initial
 * population (4.3) loaded by parallel threads in units of work, through
 * the driver's bulk path or multi-row INSERTs, the secondary indexes, and
 * cleanup.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tpcc/tpcc.h"

/* --- schema --------------------------------------------------------------- */

static const tpcc_dialect dialects[DB_DIALECT_COUNT] = {
    [DB_DIALECT_MYSQL] = { "DATETIME", " /*! ENGINE = %s */ DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin", false,
                           "utf8mb4, collation utf8mb4_bin", "" },
    /* PostgreSQL: the encoding is the database's (read back below); "C"
     * orders by bytes in every encoding */
    [DB_DIALECT_PGSQL] = { "TIMESTAMP", "", false, "the database's encoding, collation \"C\"", " COLLATE \"C\"" },
    [DB_DIALECT_MSSQL] = { "DATETIME2", "", true, "collation Latin1_General_BIN2 (Babelfish: bbf_unicode_bin2)",
                           " COLLATE Latin1_General_BIN2" },
};

/* The tables in creation order; DT stands for the dialect's date type. */
static const struct { const char *name, *cols; } tables[] = {
    { "warehouse",
      "w_id INTEGER NOT NULL, w_name VARCHAR(10), w_street_1 VARCHAR(20), w_street_2 VARCHAR(20), "
      "w_city VARCHAR(20), w_state CHAR(2), w_zip CHAR(9), w_tax DECIMAL(4,4), w_ytd DECIMAL(18,2), "
      "PRIMARY KEY (w_id)" },
    { "district",
      "d_id SMALLINT NOT NULL, d_w_id INTEGER NOT NULL, d_name VARCHAR(10), d_street_1 VARCHAR(20), "
      "d_street_2 VARCHAR(20), d_city VARCHAR(20), d_state CHAR(2), d_zip CHAR(9), d_tax DECIMAL(4,4), "
      "d_ytd DECIMAL(18,2), d_next_o_id INTEGER, PRIMARY KEY (d_w_id, d_id)" },
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

const tpcc_dialect *tpcc_schema_dialect(db_dialect d)
{
    return &dialects[d < DB_DIALECT_COUNT ? d : DB_DIALECT_MYSQL];
}

int tpcc_table_count(void)
{
    return NTABLES;
}

const char *tpcc_table_name(int i)
{
    return i >= 0 && i < NTABLES ? tables[i].name : NULL;
}

/* The key clause closes a table's column text: ", PRIMARY KEY (...)". */
#define KEY_CLAUSE ", PRIMARY KEY ("

static const char *table_key(int i)
{
    const char *k = i >= 0 && i < NTABLES ? strstr(tables[i].cols, KEY_CLAUSE) : NULL;
    return k ? k + 2 : NULL;
}

/* Units of load work: unit 0 = ITEM; per warehouse, one unit for the
 * warehouse row and its STOCK, then one per district (district row,
 * customers, history, orders, order lines, new orders). */
#define UNITS_PER_WH (1 + DISTRICTS)

/* --- loader ------------------------------------------------------------------ */

/* 0, or -1 with *err naming the statement and the server's error. */
static int run_sql(db_conn *c, const char *sql, wl_err *err)
{
    if (db_query(c, sql) != DB_DONE)
        return wl_err_set(err, "%.200s: error %d: %s", sql, c->err.code, c->err.msg);
    return 0;
}

/* Begin or commit a load transaction (a driver call over ODBC, db_trx). */
static int trx(db_conn *c, db_trx op, wl_err *err)
{
    if (db_trx_sync(c, op) != DB_DONE)
        return wl_err_set(err, "%s a load transaction: error %d: %s", op == DB_TRX_BEGIN ? "beginning" : "committing",
                          c->err.code, c->err.msg);
    return 0;
}

/* The columns each loader fills, for the bulk path and the INSERT text.
 * Decimals and dates travel as text ("12.34", "YYYY-MM-DD hh:mm:ss"), so
 * both paths give the server the same values. */
#define I(n)    { n, DB_T_INT, 0 }
#define S(n, w) { n, DB_T_STRING, w }
#define DEC(n)  S(n, 16)
#define DATE(n) S(n, 19)
static const db_bulk_col item_cols[] = {
    I("i_id"), I("i_im_id"), S("i_name", 24), DEC("i_price"), S("i_data", 50),
};
static const db_bulk_col stock_cols[] = {
    I("s_i_id"), I("s_w_id"), I("s_quantity"), S("s_dist_01", 24), S("s_dist_02", 24), S("s_dist_03", 24),
    S("s_dist_04", 24), S("s_dist_05", 24), S("s_dist_06", 24), S("s_dist_07", 24), S("s_dist_08", 24),
    S("s_dist_09", 24), S("s_dist_10", 24), I("s_ytd"), I("s_order_cnt"), I("s_remote_cnt"), S("s_data", 50),
};
static const db_bulk_col customer_cols[] = {
    I("c_id"), I("c_d_id"), I("c_w_id"), S("c_first", 16), S("c_middle", 2), S("c_last", 16),
    S("c_street_1", 20), S("c_street_2", 20), S("c_city", 20), S("c_state", 2), S("c_zip", 9),
    S("c_phone", 16), DATE("c_since"), S("c_credit", 2), DEC("c_credit_lim"), DEC("c_discount"),
    DEC("c_balance"), DEC("c_ytd_payment"), I("c_payment_cnt"), I("c_delivery_cnt"), S("c_data", 500),
};
static const db_bulk_col history_cols[] = {
    I("h_c_id"), I("h_c_d_id"), I("h_c_w_id"), I("h_d_id"), I("h_w_id"), DATE("h_date"), DEC("h_amount"),
    S("h_data", 24),
};
static const db_bulk_col orders_cols[] = {
    I("o_id"), I("o_d_id"), I("o_w_id"), I("o_c_id"), DATE("o_entry_d"), I("o_carrier_id"), I("o_ol_cnt"),
    I("o_all_local"),
};
static const db_bulk_col order_line_cols[] = {
    I("ol_o_id"), I("ol_d_id"), I("ol_w_id"), I("ol_number"), I("ol_i_id"), I("ol_supply_w_id"),
    DATE("ol_delivery_d"), I("ol_quantity"), DEC("ol_amount"), S("ol_dist_info", 24),
};
static const db_bulk_col new_order_cols[] = {
    I("no_o_id"), I("no_d_id"), I("no_w_id"),
};
#undef I
#undef S
#undef DEC
#undef DATE
#define NCOLS(a) ((int)(sizeof(a) / sizeof((a)[0])))

/*
 * A table's rows on their way to the server. On the bulk path (--bulk=on
 * and a driver that has one) rows wait in memory, typed, and go to
 * db_bulk_load() whenever BULK_CHUNK bytes are waiting and at the end.
 * Otherwise they are appended as text to a multi-row INSERT sent when
 * `max_rows` rows or the buffer are full; with max_rows = 1 every row is
 * its own INSERT, grouped 1,000 to a transaction, the way tpcc-mysql's
 * loader works (the reference for the loading speed). The values are
 * numbers, decimals, dates and generated alphanumeric strings, never user
 * input. The first error goes to *err; after it the inserter sends
 * nothing more.
 */
typedef struct inserter {
    db_conn           *c;
    const char        *table;
    const db_bulk_col *cols;
    int                ncols;
    bool               bulk;
    char              *buf;
    size_t             cap, len, rd;    /* rd: bulk load's read position */
    int                rows, max_rows, trx_rows;
    int64_t           *progress;
    wl_err            *err;
    bool               failed;      /* *err is said: send nothing more */
} inserter;

#define INS_CAP    (1024 * 1024)
#define BULK_CHUNK (4 * 1024 * 1024)

static int ins_init(inserter *b, db_conn *c, const char *table, const db_bulk_col *cols, int ncols,
                    const oltp_opts *o, int64_t *progress, wl_err *err)
{
    memset(b, 0, sizeof(*b));
    b->err = err;
    b->c = c;
    b->table = table;
    b->cols = cols;
    b->ncols = ncols;
    b->bulk = o->bulk && db_bulk_supported(c);
    b->max_rows = o->tpcc_load_batch;
    b->progress = progress;
    b->cap = b->bulk ? BULK_CHUNK + 8192 : INS_CAP;
    b->buf = malloc(b->cap);
    if (!b->buf)
        return wl_err_set(err, "out of memory");
    return 0;
}

/* rc, after marking the inserter failed when rc < 0 (its *err said why). */
static int ins_fail(inserter *b, int rc)
{
    if (rc < 0)
        b->failed = true;
    return rc;
}

/* db_bulk.next: the waiting rows back as values. */
static int ins_next(void *ctx, db_value *row)
{
    inserter *b = ctx;
    if (b->rd >= b->len)
        return 0;
    for (int i = 0; i < b->ncols; i++) {
        db_type t = (db_type)b->buf[b->rd++];
        uint32_t n;
        row[i] = (db_value){ .type = t };
        switch (t) {
        case DB_T_INT:
            memcpy(&row[i].i, b->buf + b->rd, sizeof(int64_t));
            b->rd += sizeof(int64_t);
            break;
        case DB_T_DOUBLE:
            memcpy(&row[i].d, b->buf + b->rd, sizeof(double));
            b->rd += sizeof(double);
            break;
        case DB_T_STRING:
            memcpy(&n, b->buf + b->rd, sizeof n);
            b->rd += sizeof n;
            row[i].s = b->buf + b->rd;
            row[i].len = n;
            b->rd += n;
            break;
        case DB_T_NULL:
            break;
        }
    }
    return 1;
}

static int ins_flush(inserter *b)
{
    if (b->failed)
        return -1;
    if (b->rows == 0)
        return 0;
    if (b->bulk) {
        db_bulk k = { .table = b->table, .cols = b->cols, .ncols = b->ncols, .next = ins_next, .ctx = b };
        b->rd = 0;
        if (db_bulk_load(b->c, &k) != DB_DONE)
            return ins_fail(b, wl_err_set(b->err, "loading %s: error %d: %s", b->table, b->c->err.code,
                                          b->c->err.msg));
        if (k.rows != b->rows)
            return ins_fail(b, wl_err_set(b->err, "loading %s: the server took %" PRId64 " of %d rows",
                                          b->table, k.rows, b->rows));
    } else {
        if (b->max_rows == 1 && b->trx_rows == 0 && trx(b->c, DB_TRX_BEGIN, b->err) < 0)
            return ins_fail(b, -1);
        if (run_sql(b->c, b->buf, b->err) < 0)
            return ins_fail(b, -1);
    }
    __atomic_add_fetch(b->progress, b->rows, __ATOMIC_RELAXED);
    b->rows = 0;
    b->len = 0;
    if (!b->bulk && b->max_rows == 1 && ++b->trx_rows >= 1000) {
        b->trx_rows = 0;
        return ins_fail(b, trx(b->c, DB_TRX_COMMIT, b->err));
    }
    return 0;
}

/* Send what is left (and commit a single-row group); frees the buffer.
 * After a failure (this inserter's, or `drop`: another's), sends nothing
 * and leaves *err as the first failure wrote it. */
static int ins_finish(inserter *b, bool drop)
{
    int rc = drop ? -1 : b->buf ? ins_flush(b) : 0;
    if (rc == 0 && b->trx_rows > 0)
        rc = trx(b->c, DB_TRX_COMMIT, b->err);
    free(b->buf);
    b->buf = NULL;
    return rc;
}

/* Append a row of b->ncols values. */
static int ins_add(inserter *b, const db_value *row)
{
    if (b->bulk) {
        for (int i = 0; i < b->ncols; i++) {
            uint32_t n = (uint32_t)row[i].len;
            b->buf[b->len++] = (char)row[i].type;
            switch (row[i].type) {
            case DB_T_INT:
                memcpy(b->buf + b->len, &row[i].i, sizeof(int64_t));
                b->len += sizeof(int64_t);
                break;
            case DB_T_DOUBLE:
                memcpy(b->buf + b->len, &row[i].d, sizeof(double));
                b->len += sizeof(double);
                break;
            case DB_T_STRING:
                memcpy(b->buf + b->len, &n, sizeof n);
                b->len += sizeof n;
                memcpy(b->buf + b->len, row[i].s, n);
                b->len += n;
                break;
            case DB_T_NULL:
                break;
            }
        }
        b->rows++;
        return b->len >= BULK_CHUNK ? ins_flush(b) : 0;
    }
    if (b->rows == 0) {
        b->len = (size_t)snprintf(b->buf, b->cap, "INSERT INTO %s (", b->table);
        for (int i = 0; i < b->ncols; i++)
            b->len += (size_t)snprintf(b->buf + b->len, b->cap - b->len, "%s%s", i ? ", " : "", b->cols[i].name);
        b->len += (size_t)snprintf(b->buf + b->len, b->cap - b->len, ") VALUES ");
    } else
        b->buf[b->len++] = ',';
    b->buf[b->len++] = '(';
    for (int i = 0; i < b->ncols; i++) {
        size_t room = b->cap - b->len - 2;
        if (i)
            b->buf[b->len++] = ',';
        switch (row[i].type) {
        case DB_T_INT:    b->len += (size_t)snprintf(b->buf + b->len, room, "%" PRId64, row[i].i); break;
        case DB_T_DOUBLE: b->len += (size_t)snprintf(b->buf + b->len, room, "%.17g", row[i].d); break;
        case DB_T_STRING: b->len += (size_t)snprintf(b->buf + b->len, room, "'%.*s'", (int)row[i].len, row[i].s); break;
        case DB_T_NULL:   b->len += (size_t)snprintf(b->buf + b->len, room, "NULL"); break;
        }
    }
    b->buf[b->len++] = ')';
    b->buf[b->len] = 0;
    b->rows++;
    if (b->rows >= b->max_rows || b->len > b->cap - 8192)
        return ins_flush(b);
    return 0;
}

static db_value str(const char *s) { return db_str(s, strlen(s)); }

/* Street, city, state, zip (4.3.2.7). */
typedef struct tpcc_addr { char street_1[21], street_2[21], city[21], state[3], zip[10]; } tpcc_addr;

static void address(rng *r, tpcc_addr *a)
{
    char zip[5];
    tpcc_astring(r, a->street_1, 10, 20);
    tpcc_astring(r, a->street_2, 10, 20);
    tpcc_astring(r, a->city, 10, 20);
    tpcc_nstring(r, zip, 4, 4);
    a->state[0] = (char)('A' + (int)rand_uniform(r, 0, 25));
    a->state[1] = (char)('A' + (int)rand_uniform(r, 0, 25));
    a->state[2] = 0;
    snprintf(a->zip, sizeof a->zip, "%s11111", zip);
}

static int load_items(db_conn *c, rng *r, const oltp_opts *o, int64_t *progress, wl_err *err)
{
    inserter b;
    if (ins_init(&b, c, "item", item_cols, NCOLS(item_cols), o, progress, err) < 0)
        return -1;
    for (int i = 1; i <= ITEMS; i++) {
        char name[25], data[51], price[16];
        tpcc_astring(r, name, 14, 24);
        tpcc_data_original(r, data);
        uint32_t cents = rand_uniform(r, 100, 10000);          /* [1.00, 100.00] */
        snprintf(price, sizeof price, "%u.%02u", cents / 100, cents % 100);
        db_value row[] = { db_int(i), db_int(rand_uniform(r, 1, 10000)), str(name), str(price), str(data) };
        if (ins_add(&b, row) < 0)
            break;
    }
    return ins_finish(&b, false);
}

static int load_stock(db_conn *c, rng *r, int w, const oltp_opts *o, int64_t *progress, wl_err *err)
{
    inserter b;
    tpcc_addr a;
    char name[11], sql[512];

    tpcc_astring(r, name, 6, 10);
    address(r, &a);
    snprintf(sql, sizeof sql, "INSERT INTO warehouse (w_id, w_name, w_street_1, w_street_2, w_city, "
             "w_state, w_zip, w_tax, w_ytd) VALUES (%d,'%s','%s','%s','%s','%s','%s',0.%04u,300000.00)",
             w, name, a.street_1, a.street_2, a.city, a.state, a.zip, rand_uniform(r, 0, 2000));
    if (run_sql(c, sql, err) < 0)
        return -1;
    __atomic_add_fetch(progress, 1, __ATOMIC_RELAXED);
    if (ins_init(&b, c, "stock", stock_cols, NCOLS(stock_cols), o, progress, err) < 0)
        return -1;
    for (int i = 1; i <= ITEMS; i++) {
        char dist[DISTRICTS][25], data[51];
        db_value row[NCOLS(stock_cols)];
        int n = 0;
        uint32_t quantity = rand_uniform(r, 10, 100);
        for (int d = 0; d < DISTRICTS; d++)
            tpcc_astring(r, dist[d], 24, 24);
        tpcc_data_original(r, data);
        row[n++] = db_int(i);
        row[n++] = db_int(w);
        row[n++] = db_int(quantity);
        for (int d = 0; d < DISTRICTS; d++)
            row[n++] = str(dist[d]);
        row[n++] = db_int(0);
        row[n++] = db_int(0);
        row[n++] = db_int(0);
        row[n++] = str(data);
        if (ins_add(&b, row) < 0)
            break;
    }
    return ins_finish(&b, false);
}

static int load_district(const tpcc_plan *p, db_conn *c, rng *r, const tpcc_consts *k,
                         int w, int d, const oltp_opts *o, int64_t *progress, wl_err *err)
{
    inserter cu, hi, or, ol, no;
    tpcc_addr a;
    char name[11], sql[512];
    int perm[ORDERS], rc = -1;
    const db_value date = str(p->load_date);

    tpcc_astring(r, name, 6, 10);
    address(r, &a);
    snprintf(sql, sizeof sql, "INSERT INTO district (d_id, d_w_id, d_name, d_street_1, d_street_2, d_city, "
             "d_state, d_zip, d_tax, d_ytd, d_next_o_id) VALUES (%d,%d,'%s','%s','%s','%s','%s','%s',0.%04u,"
             "30000.00,%d)",
             d, w, name, a.street_1, a.street_2, a.city, a.state, a.zip, rand_uniform(r, 0, 2000), ORDERS + 1);
    if (run_sql(c, sql, err) < 0)
        return -1;
    __atomic_add_fetch(progress, 1, __ATOMIC_RELAXED);

    memset(&cu, 0, sizeof cu);
    memset(&hi, 0, sizeof hi);
    memset(&or, 0, sizeof or);
    memset(&ol, 0, sizeof ol);
    memset(&no, 0, sizeof no);
    if (ins_init(&cu, c, "customer", customer_cols, NCOLS(customer_cols), o, progress, err) < 0 ||
        ins_init(&hi, c, "history", history_cols, NCOLS(history_cols), o, progress, err) < 0 ||
        ins_init(&or, c, "orders", orders_cols, NCOLS(orders_cols), o, progress, err) < 0 ||
        ins_init(&ol, c, "order_line", order_line_cols, NCOLS(order_line_cols), o, progress, err) < 0 ||
        ins_init(&no, c, "new_order", new_order_cols, NCOLS(new_order_cols), o, progress, err) < 0)
        goto out;

    for (int i = 1; i <= CUSTOMERS; i++) {
        char first[17], last[16], phone[17], data[501], hdata[25], discount[8];
        tpcc_astring(r, first, 8, 16);
        tpcc_last_name(i <= 1000 ? (unsigned)(i - 1) : tpcc_nurand(r, 255, k->c_last, 0, 999), last);
        address(r, &a);
        tpcc_nstring(r, phone, 16, 16);
        tpcc_astring(r, data, 300, 500);
        tpcc_astring(r, hdata, 12, 24);
        bool bad = rand_uniform(r, 1, 100) <= tpcc_bad_credit_pct(p->compat);
        snprintf(discount, sizeof discount, "0.%04u", rand_uniform(r, 0, 5000));
        db_value crow[] = {
            db_int(i), db_int(d), db_int(w), str(first), str("OE"), str(last), str(a.street_1),
            str(a.street_2), str(a.city), str(a.state), str(a.zip), str(phone), date, str(bad ? "BC" : "GC"),
            str("50000.00"), str(discount), str("-10.00"), str("10.00"), db_int(1), db_int(0), str(data),
        };
        db_value hrow[] = { db_int(i), db_int(d), db_int(w), db_int(d), db_int(w), date, str("10.00"), str(hdata) };
        if (ins_add(&cu, crow) < 0 || ins_add(&hi, hrow) < 0)
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
    for (int oid = 1; oid <= ORDERS; oid++) {
        int cnt = (int)rand_uniform(r, 5, 15);
        bool delivered = oid < FIRST_NEW;
        uint32_t carrier = rand_uniform(r, 1, 10);
        db_value orow[] = {
            db_int(oid), db_int(d), db_int(w), db_int(perm[oid - 1]), date,
            delivered ? db_int(carrier) : (db_value){ .type = DB_T_NULL }, db_int(cnt), db_int(1),
        };
        if (ins_add(&or, orow) < 0)
            goto out;
        for (int l = 1; l <= cnt; l++) {
            char dist[25], amount[16];
            tpcc_astring(r, dist, 24, 24);
            uint32_t cents = delivered ? 0 : rand_uniform(r, 1, 999999);     /* [0.01, 9999.99] */
            uint32_t item = rand_uniform(r, 1, ITEMS);
            snprintf(amount, sizeof amount, "%u.%02u", cents / 100, cents % 100);
            db_value lrow[] = {
                db_int(oid), db_int(d), db_int(w), db_int(l), db_int(item), db_int(w),
                delivered ? date : (db_value){ .type = DB_T_NULL }, db_int(5), str(amount), str(dist),
            };
            if (ins_add(&ol, lrow) < 0)
                goto out;
        }
        if (!delivered) {
            db_value nrow[] = { db_int(oid), db_int(d), db_int(w) };
            if (ins_add(&no, nrow) < 0)
                goto out;
        }
    }
    rc = 0;
out:
    /* after the first failure the others only free their buffers */
    if (ins_finish(&cu, rc < 0) < 0)
        rc = -1;
    if (ins_finish(&hi, rc < 0) < 0)
        rc = -1;
    if (ins_finish(&or, rc < 0) < 0)
        rc = -1;
    if (ins_finish(&ol, rc < 0) < 0)
        rc = -1;
    if (ins_finish(&no, rc < 0) < 0)
        rc = -1;
    return rc;
}

static int create_schema(const wl_run *run, db_conn *c, wl_err *err)
{
    const tpcc_plan *p = run->data;
    char sql[2048], suffix[128];

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"  /* a format of this file's own constant table */
    snprintf(suffix, sizeof suffix, p->dialect->suffix, run->o->mysql_storage_engine);
#pragma GCC diagnostic pop
    for (int t = 0; t < NTABLES; t++) {
        /* substitute the dialect's date type for "DT" */
        char cols[1600];
        const char *s = tables[t].cols, *key = table_key(t);
        /* --tpcc-keys-after-load: the columns without their key */
        const char *end = key && run->o->tpcc_keys_after_load ? key - 2 : s + strlen(s);
        size_t n = 0;
        while (s < end && n < sizeof cols - 16) {
            if (s[0] == 'D' && s[1] == 'T' && (s[2] == ',' || s[2] == 0) && s[-1] == ' ') {
                n += (size_t)snprintf(cols + n, sizeof cols - n, "%s", p->dialect->datetime);
                s += 2;
            } else if (!strncmp(s, "CHAR(", 5) && strchr(s, ')')) {
                /* CHAR(n) and VARCHAR(n): the pinned collation after it */
                size_t l = (size_t)(strchr(s, ')') - s) + 1;
                n += (size_t)snprintf(cols + n, sizeof cols - n, "%.*s%s", (int)l, s, p->dialect->collate);
                s += l;
            } else
                cols[n++] = *s++;
        }
        cols[n] = 0;
        if (t == 0)
            printf("Tables' character set: %s\n", p->dialect->charset);
        printf("Creating table '%s'...\n", tables[t].name);
        snprintf(sql, sizeof sql, "CREATE TABLE %s (%s)%s", tables[t].name, cols, suffix);
        if (db_query(c, sql) != DB_DONE) {
            if ((p->dl->code_table_exists && c->err.code == p->dl->code_table_exists) ||
                !strcmp(c->err.sqlstate, p->dl->sqlstate_table_exists))
                return wl_err_set(err, "table %s already exists: run `oltp tpcc cleanup` first", tables[t].name);
            return wl_err_set(err, "creating table %s: error %d: %s", tables[t].name, c->err.code, c->err.msg);
        }
    }
    return 0;
}

/*
 * prepare: thread 0 creates the tables, then every loader thread takes
 * units of work (ITEM, a warehouse's STOCK, a district with its customers
 * and orders) until none is left; the last thread to finish builds the
 * keys (--tpcc-keys-after-load) and secondary indexes, and updates the
 * statistics (--tpcc-statistics). The files are sized before the tables
 * exist (tpcc_prep.c).
 */
int tpcc_prepare(const wl_run *run, db_conn *c, int thread, int nthreads,
                 int64_t *progress, int64_t *total, wl_err *err)
{
    tpcc_plan *p = run->data;
    const oltp_opts *o = run->o;
    const int nunits = 1 + p->warehouses * UNITS_PER_WH;
    const bool bulk = o->bulk && db_bulk_supported(c);
    int rc = 0, unit;
    tpcc_consts k;
    rng r;

    /* one C_LAST constant for the whole load (2.1.6), whatever --threads is */
    rng_seed(&r, o->seed ? o->seed : (uint64_t)time(NULL), 0x10ad0000u);
    tpcc_consts_load(&r, &k);
    if (thread == 0) {
        /* expected rows: order lines average 10 per order */
        __atomic_store_n(total, ITEMS + (int64_t)p->warehouses *
                         (1 + ITEMS + DISTRICTS * (1 + CUSTOMERS * 2 + ORDERS * 11 + ORDERS - FIRST_NEW + 1)),
                         __ATOMIC_RELAXED);
        rc = tpcc_prep_presize(run, c, err);
        if (rc == 0)
            rc = create_schema(run, c, err);
        __atomic_store_n(&p->schema, rc < 0 ? -1 : 1, __ATOMIC_RELEASE);
        if (rc < 0)
            return -1;
        if (bulk)
            printf("Loading %d warehouse%s with %d thread%s (bulk path)...\n", p->warehouses,
                   p->warehouses > 1 ? "s" : "", nthreads, nthreads > 1 ? "s" : "");
        else
            printf("Loading %d warehouse%s with %d thread%s (%d row%s per INSERT)...\n", p->warehouses,
                   p->warehouses > 1 ? "s" : "", nthreads, nthreads > 1 ? "s" : "", o->tpcc_load_batch,
                   o->tpcc_load_batch > 1 ? "s" : "");
    } else {
        int s;
        while ((s = __atomic_load_n(&p->schema, __ATOMIC_ACQUIRE)) == 0)
            usleep(20000);
        if (s < 0)
            return -1;      /* thread 0 says why */
    }
    while (rc == 0 && !__atomic_load_n(&p->load_failed, __ATOMIC_RELAXED) &&
           (unit = __atomic_fetch_add(&p->next_unit, 1, __ATOMIC_RELAXED)) < nunits) {
        int w = unit ? (unit - 1) / UNITS_PER_WH + 1 : 0, part = unit ? (unit - 1) % UNITS_PER_WH : 0;
        /* each unit draws from its own stream: the data do not depend on
         * which thread loads it */
        rng_seed(&r, o->seed ? o->seed : (uint64_t)time(NULL), 0x5eed0000u + (uint64_t)unit);
        if (unit == 0)
            rc = load_items(c, &r, o, progress, err);
        else if (part == 0)
            rc = load_stock(c, &r, w, o, progress, err);
        else
            rc = load_district(p, c, &r, &k, w, part, o, progress, err);
        if (rc == 0 && w > 0 && __atomic_add_fetch(&p->wh_units_done[w - 1], 1, __ATOMIC_RELAXED) == UNITS_PER_WH)
            printf("Warehouse %d loaded\n", w);
    }
    if (rc < 0)
        __atomic_store_n(&p->load_failed, 1, __ATOMIC_RELAXED);
    if (__atomic_add_fetch(&p->loaders_done, 1, __ATOMIC_ACQ_REL) == nthreads &&
        !__atomic_load_n(&p->load_failed, __ATOMIC_RELAXED)) {
        tpcc_table_ref refs[NTABLES];
        for (int t = 0; t < NTABLES; t++)
            refs[t] = (tpcc_table_ref){ tables[t].name, table_key(t) };
        if (o->tpcc_keys_after_load)
            rc = tpcc_prep_keys(run, c, refs, NTABLES, err);
        for (size_t i = 0; rc == 0 && i < sizeof(indexes) / sizeof(indexes[0]); i++) {
            printf("Creating index: %s\n", indexes[i]);
            rc = run_sql(c, indexes[i], err);
        }
        if (rc == 0 && p->procedures)
            rc = tpcc_proc_create(run, c, err);
        if (rc == 0 && o->tpcc_statistics)
            rc = tpcc_prep_statistics(run, c, refs, NTABLES, err);
    }
    return rc;
}

int tpcc_cleanup(const wl_run *run, db_conn *c, wl_err *err)
{
    for (int t = NTABLES - 1; t >= 0; t--) {
        char sql[128];
        printf("Dropping table '%s'...\n", tables[t].name);
        dialect_drop_if_exists(run->o->db.dialect, DIALECT_TABLE, tables[t].name, sql, sizeof sql);
        if (run_sql(c, sql, err) < 0)
            return -1;
    }
    return 0;
}
