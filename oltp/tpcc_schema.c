/*
 * tpcc_schema.c — TPC-C's nine tables (clause 1.3), their initial
 * population (4.3) loaded by parallel threads in units of work, the
 * secondary indexes, and cleanup.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tpcc.h"

/* --- schema --------------------------------------------------------------- */

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

/* Units of load work: unit 0 = ITEM; per warehouse, one unit for the
 * warehouse row and its STOCK, then one per district (district row,
 * customers, history, orders, order lines, new orders). */
#define UNITS_PER_WH (1 + DISTRICTS)

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
int tpcc_prepare(const wl_run *run, db_conn *c, int thread, int nthreads,
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

int tpcc_cleanup(const wl_run *run, db_conn *c)
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
