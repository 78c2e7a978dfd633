/*
 * wl_sysbench.c — the sysbench 1.0.20 OLTP family (oltp_common.lua and the
 * eight oltp_*.lua scripts): same schema, same statements in the same
 * order and numbers, same random choices, so the server sees the same
 * statement mix per transaction.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "workloads/workload.h"

/* Statement kinds, per table, in the order of oltp_common.lua. */
enum { K_POINT, K_SIMPLE, K_SUM, K_ORDER, K_DISTINCT, K_INDEX_UPD,
       K_NONINDEX_UPD, K_DELETE, K_INSERT, NKINDS };

static const struct { const char *sql; int nparams; db_qkind kind; } kind_defs[NKINDS] = {
    [K_POINT]        = {"SELECT c FROM sbtest%d WHERE id=?", 1, DB_Q_READ},
    [K_SIMPLE]       = {"SELECT c FROM sbtest%d WHERE id BETWEEN ? AND ?", 2, DB_Q_READ},
    [K_SUM]          = {"SELECT SUM(k) FROM sbtest%d WHERE id BETWEEN ? AND ?", 2, DB_Q_READ},
    [K_ORDER]        = {"SELECT c FROM sbtest%d WHERE id BETWEEN ? AND ? ORDER BY c", 2, DB_Q_READ},
    [K_DISTINCT]     = {"SELECT DISTINCT c FROM sbtest%d WHERE id BETWEEN ? AND ? ORDER BY c", 2, DB_Q_READ},
    [K_INDEX_UPD]    = {"UPDATE sbtest%d SET k=k+1 WHERE id=?", 1, DB_Q_WRITE},
    [K_NONINDEX_UPD] = {"UPDATE sbtest%d SET c=? WHERE id=?", 2, DB_Q_WRITE},
    [K_DELETE]       = {"DELETE FROM sbtest%d WHERE id=?", 1, DB_Q_WRITE},
    [K_INSERT]       = {"INSERT INTO sbtest%d (id, k, c, pad) VALUES (?, ?, ?, ?)", 4, DB_Q_WRITE},
};

/* 10 groups of 11 digits, 119 characters; 5 groups, 59 characters. */
static const char C_TEMPLATE[] =
    "###########-###########-###########-###########-###########-"
    "###########-###########-###########-###########-###########";
static const char PAD_TEMPLATE[] =
    "###########-###########-###########-###########-###########";

/* A group of identical statements run against one randomly chosen table. */
typedef enum { G_BEGIN, G_COMMIT, G_POINT, G_SIMPLE, G_SUM, G_ORDER, G_DISTINCT,
               G_INDEX_UPD, G_NONINDEX_UPD, G_DELETE_INSERT, G_DELETE_ONLY,
               G_INSERT_TEXT } group;

typedef struct sb_variant {
    const char *name;
    bool        trx;            /* BEGIN/COMMIT unless --skip-trx */
    bool        reads, writes;
    bool        point_only, index_only, nonindex_only, insert_only, delete_only;
} sb_variant;

static const sb_variant variants[] = {
    {"oltp_read_write", true, true, true, 0, 0, 0, 0, 0},
    {"oltp_read_only", true, true, false, 0, 0, 0, 0, 0},
    {"oltp_write_only", true, false, true, 0, 0, 0, 0, 0},
    {"oltp_point_select", false, 0, 0, 1, 0, 0, 0, 0},
    {"oltp_update_index", false, 0, 0, 0, 1, 0, 0, 0},
    {"oltp_update_non_index", false, 0, 0, 0, 0, 1, 0, 0},
    {"oltp_insert", false, 0, 0, 0, 0, 0, 1, 0},
    {"oltp_delete", false, 0, 0, 0, 0, 0, 0, 1},
};

typedef struct sb_plan {
    const sb_variant *v;
    group  groups[16];
    int    counts[16];
    int    ngroups;
    int    stmt_begin, stmt_commit;
    uint32_t unique_index, unique_offset;   /* oltp_insert --auto-inc=off */
    int    bulk_refused;    /* prepare: the server refused the bulk path (atomic) */
} sb_plan;

typedef struct sb_conn {
    const wl_run  *run;
    const sb_plan *plan;
    rng           *r;
    int            gi, rep, sub;   /* group, repetition in group, statement in pair */
    int            table;
    db_value       params[4];
    char           cbuf[120], padbuf[60];
    char           sql[512];
} sb_conn;

/* sysbench.rand.unique(): a permutation of 0..2^32-1 (Preshing's
 * quadratic residues), safe to call from every worker at once. */
static uint32_t permute(uint32_t x)
{
    const uint32_t prime = 4294967291u;
    uint32_t residue;
    if (x >= prime)
        return x;
    residue = (uint32_t)(((uint64_t)x * x) % prime);
    return x <= prime / 2 ? residue : prime - residue;
}

static uint32_t unique_next(sb_plan *p)
{
    uint32_t index = __atomic_fetch_add(&p->unique_index, 1, __ATOMIC_RELAXED);
    return permute((permute(index) + p->unique_offset) ^ 0x5bf03635);
}

static int stmt_id(int table, int kind)
{
    return (table - 1) * NKINDS + kind;
}

static void add_group(sb_plan *p, group g, int n)
{
    if (n > 0) {
        p->groups[p->ngroups] = g;
        p->counts[p->ngroups++] = n;
    }
}

/* The statement groups of variant v's transaction, in sysbench's order,
 * with the counts the options give. */
static void add_groups(sb_plan *p, const sb_variant *v, const oltp_opts *o)
{
    if (v->trx && !o->skip_trx)
        add_group(p, G_BEGIN, 1);
    if (v->reads) {
        add_group(p, G_POINT, o->point_selects);
        if (o->range_selects) {
            add_group(p, G_SIMPLE, o->simple_ranges);
            add_group(p, G_SUM, o->sum_ranges);
            add_group(p, G_ORDER, o->order_ranges);
            add_group(p, G_DISTINCT, o->distinct_ranges);
        }
    }
    if (v->writes) {
        add_group(p, G_INDEX_UPD, o->index_updates);
        add_group(p, G_NONINDEX_UPD, o->non_index_updates);
        add_group(p, G_DELETE_INSERT, o->delete_inserts);
    }
    if (v->point_only)
        add_group(p, G_POINT, 1);       /* oltp_point_select forces point_selects=1 */
    if (v->index_only)
        add_group(p, G_INDEX_UPD, o->index_updates);
    if (v->nonindex_only)
        add_group(p, G_NONINDEX_UPD, o->non_index_updates);
    if (v->insert_only)
        add_group(p, G_INSERT_TEXT, 1);
    if (v->delete_only)
        add_group(p, G_DELETE_ONLY, 1);
    if (v->trx && !o->skip_trx)
        add_group(p, G_COMMIT, 1);
}

static void sb_teardown(wl_run *run);

static int sb_setup(wl_run *run, wl_err *err)
{
    const oltp_opts *o = run->o;
    const sb_variant *v = NULL;
    sb_plan *p;
    int n = o->tables * NKINDS + 2;

    for (size_t i = 0; i < sizeof(variants) / sizeof(variants[0]); i++)
        if (!strcmp(variants[i].name, o->workload))
            v = &variants[i];
    if (!v)
        return wl_err_set(err, "unknown workload '%s'", o->workload);
    if (o->db.dialect == DB_DIALECT_MYSQL &&
        strspn(o->mysql_storage_engine, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") !=
            strlen(o->mysql_storage_engine)) {
        return wl_err_set(err, "--mysql-storage-engine=%s: not an engine name", o->mysql_storage_engine);
    }
    /* from here a failure leaves nothing behind: sb_teardown frees what
     * is there */
    p = calloc(1, sizeof(*p));
    run->stmts = calloc((size_t)n, sizeof(db_stmt_def));
    run->data = p;
    run->nstmts = run->stmts ? n : 0;
    if (!p || !run->stmts)
        goto oom;
    for (int t = 1; t <= o->tables; t++)
        for (int k = 0; k < NKINDS; k++) {
            char *sql;
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"  /* a format of this file's own constant table */
            if (asprintf(&sql, kind_defs[k].sql, t) < 0)
                goto oom;
#pragma GCC diagnostic pop
            /* T-SQL takes an explicit value for an IDENTITY column only
             * between these SETs (one table per session at a time) */
            char *off = NULL;
            if (k == K_INSERT && o->auto_inc && o->db.dialect == DB_DIALECT_MSSQL) {
                char *batch;
                int r = asprintf(&batch, "SET IDENTITY_INSERT sbtest%d ON; %s; SET IDENTITY_INSERT sbtest%d OFF",
                                 t, sql, t);
                free(sql);
                if (r < 0)
                    goto oom;
                sql = batch;
                if (asprintf(&off, "SET IDENTITY_INSERT sbtest%d OFF", t) < 0) {
                    free(sql);
                    goto oom;
                }
            }
            /* the INSERT after the DELETE of the same id: a concurrent
             * transaction may have inserted that id between the two (under
             * MVCC, whose DELETE does not lock the absent row: PostgreSQL,
             * Babelfish); sysbench's pgsql driver ignores 23505 and
             * retries, which the drivers do for this statement */
            run->stmts[stmt_id(t, k)] = (db_stmt_def){ .sql = sql, .nparams = kind_defs[k].nparams,
                                                       .kind = kind_defs[k].kind, .unique_retry = k == K_INSERT,
                                                       .on_fail_sql = off };
        }
    p->stmt_begin = o->tables * NKINDS;
    p->stmt_commit = p->stmt_begin + 1;
    /* the dialect's text for the native drivers; ODBC makes them driver
     * calls (db_trx); T-SQL has no text */
    {
        const dialect_def *dl = dialect_get(o->db.dialect);
        run->stmts[p->stmt_begin] = (db_stmt_def){ .sql = dl->begin ? strdup(dl->begin) : NULL,
                                                   .kind = DB_Q_OTHER, .trx = DB_TRX_BEGIN };
        run->stmts[p->stmt_commit] = (db_stmt_def){ .sql = dl->commit ? strdup(dl->commit) : NULL,
                                                    .kind = DB_Q_OTHER, .trx = DB_TRX_COMMIT };
    }
    p->v = v;
    {
        rng seeder;
        rng_seed(&seeder, o->seed ? o->seed : (uint64_t)time(NULL), 7);
        p->unique_index = permute(permute((uint32_t)rng_next(&seeder)) + 0x682f0161);
        p->unique_offset = permute(permute((uint32_t)rng_next(&seeder)) + 0x46790905);
    }
    add_groups(p, v, o);
    if (p->ngroups == 0 || (p->ngroups == 2 && v->trx && !o->skip_trx)) {
        sb_teardown(run);
        return wl_err_set(err, "%s with these options runs no statement", v->name);
    }
    return 0;
oom:
    sb_teardown(run);
    return wl_err_set(err, "out of memory");
}

static void sb_teardown(wl_run *run)
{
    for (int i = 0; i < run->nstmts; i++) {
        free((char *)run->stmts[i].sql);
        free((char *)run->stmts[i].on_fail_sql);
    }
    free(run->stmts);
    free(run->data);
    run->stmts = NULL;
    run->data = NULL;
}

/* --- prepare / cleanup / check_ready ------------------------------------ */

/* 0, or -1 with *err naming the statement and the server's error. */
static int run_sql(db_conn *c, const char *sql, wl_err *err)
{
    if (db_query(c, sql) != DB_DONE)
        return wl_err_set(err, "%s: error %d: %s", sql, c->err.code, c->err.msg);
    return 0;
}

/* The rows of one table. Each table draws from a random stream of its
 * own, so its rows depend on --rand-seed only: not on --threads, nor on
 * which thread or which path (bulk or INSERTs) loads them. */
typedef struct sb_rows {
    const oltp_opts *o;
    rng      r;
    int64_t  next, rows;        /* next id, last id */
    int64_t *progress;
    int      unreported;        /* rows made but not yet added to progress */
    char     c[120], pad[60];
} sb_rows;

static void sb_rows_init(sb_rows *g, const oltp_opts *o, int table, int64_t rows, int64_t *progress)
{
    memset(g, 0, sizeof(*g));
    g->o = o;
    rng_seed(&g->r, o->seed ? o->seed : 42, 1000 + (uint64_t)table);
    g->next = 1;
    g->rows = rows;
    g->progress = progress;
}

/* The columns a load fills: id only without --auto-inc. */
static const db_bulk_col sb_cols[] = {
    {"id", DB_T_INT, 0}, {"k", DB_T_INT, 0},
    {"c", DB_T_STRING, sizeof(C_TEMPLATE) - 1}, {"pad", DB_T_STRING, sizeof(PAD_TEMPLATE) - 1},
};

/* The next row as (id,) k, c, pad; 1, or 0 after the last (db_bulk.next). */
static int sb_next_row(void *ctx, db_value *row)
{
    sb_rows *g = ctx;
    uint32_t k;
    int n = 0;

    if (g->next > g->rows) {
        __atomic_add_fetch(g->progress, g->unreported, __ATOMIC_RELAXED);
        g->unreported = 0;
        return 0;
    }
    rand_str(&g->r, C_TEMPLATE, g->c);
    rand_str(&g->r, PAD_TEMPLATE, g->pad);
    k = rand_default(&g->r, &g->o->rnd, 1, (uint32_t)g->o->table_size);
    if (!g->o->auto_inc)
        row[n++] = db_int(g->next);
    row[n++] = db_int(k);
    row[n++] = db_str(g->c, sizeof(C_TEMPLATE) - 1);
    row[n++] = db_str(g->pad, sizeof(PAD_TEMPLATE) - 1);
    g->next++;
    if (++g->unreported == 1024) {
        __atomic_add_fetch(g->progress, g->unreported, __ATOMIC_RELAXED);
        g->unreported = 0;
    }
    return 1;
}

/* Load through the driver's bulk path. 0; 1 when the server refuses the
 * path itself before taking a row (db_error_is_bulk_refused), c->err
 * saying why and *err untouched; or -1 with *err saying why. */
static int load_bulk(db_conn *c, const char *table, sb_rows *g, wl_err *err)
{
    const bool ai = g->o->auto_inc;
    db_bulk b = { .table = table, .cols = ai ? sb_cols + 1 : sb_cols, .ncols = ai ? 3 : 4,
                  .next = sb_next_row, .ctx = g };
    if (db_bulk_load(c, &b) != DB_DONE) {
        if (db_error_is_bulk_refused(&c->err) && b.rows == 0)
            return 1;
        return wl_err_set(err, "loading %s: error %d: %s", table, c->err.code, c->err.msg);
    }
    if (b.rows != g->rows)
        return wl_err_set(err, "loading %s: the server took %" PRId64 " of %" PRId64 " rows",
                          table, b.rows, g->rows);
    return 0;
}

/* sysbench 1.0.20's INSERT batches (db_bulk_insert_*): rows appended to
 * "INSERT INTO t(k, c, pad) VALUES" until the next would take the
 * statement and its terminating NUL past 512 KiB; no COMMIT between them
 * (autocommit). The same statements give the same table, down to its
 * AUTO_INCREMENT. */
enum { SB_BATCH_BYTES = 512 * 1024 };

/* Load with sysbench's INSERT batches (T-SQL: of at most the 1,000 rows
 * its VALUES list takes). The values are numbers and generated strings of
 * digits and dashes, never user input: nothing in them needs escaping.
 * 0, or -1 with *err saying why. */
static int load_inserts(db_conn *c, const char *table, sb_rows *g, wl_err *err)
{
    const int ncols = g->o->auto_inc ? 3 : 4, max_rows = dialect_get(g->o->db.dialect)->values_rows_max;
    char *buf = malloc(SB_BATCH_BYTES), row_text[256];
    db_value row[4];
    size_t head, off;
    int rows = 0, more, rc = -1;

    if (!buf)
        return wl_err_set(err, "out of memory");
    head = off = (size_t)snprintf(buf, SB_BATCH_BYTES, "INSERT INTO %s(%sk, c, pad) VALUES", table,
                                  g->o->auto_inc ? "" : "id, ");
    while ((more = sb_next_row(g, row)) >= 0) {
        size_t n = 0;
        if (more) {
            n = (size_t)snprintf(row_text, sizeof row_text, "(%" PRId64, row[0].i);
            for (int i = 1; i < ncols; i++)
                n += row[i].type == DB_T_INT
                     ? (size_t)snprintf(row_text + n, sizeof row_text - n, ", %" PRId64, row[i].i)
                     : (size_t)snprintf(row_text + n, sizeof row_text - n, ", '%.*s'", (int)row[i].len, row[i].s);
            n += (size_t)snprintf(row_text + n, sizeof row_text - n, ")");
        }
        /* the batch is full (or the rows are done): send it */
        if (rows > 0 && (!more || off + n + 1 + 1 > SB_BATCH_BYTES || rows == max_rows)) {
            buf[off] = 0;
            if (db_query(c, buf) != DB_DONE) {
                wl_err_set(err, "loading %s: error %d: %s", table, c->err.code, c->err.msg);
                goto out;
            }
            off = head;
            rows = 0;
        }
        if (!more)
            break;
        if (rows)
            buf[off++] = ',';
        memcpy(buf + off, row_text, n);
        off += n;
        rows++;
    }
    rc = 0;
out:
    free(buf);
    return rc;
}

/*
 * prepare: loader thread `thread` of `nthreads` creates and loads tables
 * thread+1, thread+1+nthreads, ...; each table through the driver's bulk
 * path (--bulk=on, when the driver has one) or multi-row INSERTs, then
 * its secondary index.
 */
static int sb_prepare(const wl_run *run, db_conn *c, int thread, int nthreads,
                      int64_t *progress, int64_t *total, wl_err *err)
{
    const oltp_opts *o = run->o;
    const bool mysql = o->db.dialect == DB_DIALECT_MYSQL;
    const dialect_def *dl = dialect_get(o->db.dialect);
    sb_plan *plan = run->data;
    const bool insert_only = plan->v->insert_only;
    const int64_t rows = insert_only && !o->auto_inc ? 0 : o->table_size;
    const bool bulk = o->bulk && db_bulk_supported(c);

    if (thread == 0) {
        __atomic_store_n(total, rows * o->tables, __ATOMIC_RELAXED);
        if (o->bulk && !bulk)
            printf("This driver has no bulk path: loading with INSERTs\n");
    }
    for (int t = thread + 1; t <= o->tables; t += nthreads) {
        char sql[512], table[32];
        sb_rows g;
        printf("Creating table 'sbtest%d'...\n", t);
        snprintf(sql, sizeof sql,
                 "CREATE TABLE sbtest%d(\n  id %s,\n  k INTEGER DEFAULT '0' NOT NULL,\n"
                 "  c CHAR(120) DEFAULT '' NOT NULL,\n  pad CHAR(60) DEFAULT '' NOT NULL,\n"
                 "  %s (id)\n) %s%s%s",
                 t,
                 o->auto_inc ? dl->autoinc_int : "INTEGER NOT NULL",
                 o->secondary ? (mysql ? "KEY xid" : "UNIQUE") : "PRIMARY KEY",
                 mysql ? "/*! ENGINE = " : "", mysql ? o->mysql_storage_engine : "",
                 mysql ? " */" : "");
        if (run_sql(c, sql, err) < 0) {
            if ((dl->code_table_exists && c->err.code == dl->code_table_exists) ||
                !strcmp(c->err.sqlstate, dl->sqlstate_table_exists)) {
                /* said instead of the server's words: what to do */
                wl_err_set(err, "table sbtest%d already exists: run `%s %s cleanup` first", t,
                           o->sysbench_personality ? "sysbench" : "oltp", o->workload);
                err->sysbench_voice = true;
            }
            return -1;
        }
        snprintf(table, sizeof table, "sbtest%d", t);
        sb_rows_init(&g, o, t, rows, progress);
        if (rows > 0) {
            printf("Inserting %" PRId64 " records into 'sbtest%d'\n", rows, t);
            /* a server that refuses the bulk path refuses it for every
             * table: said once, then every loader sends INSERTs */
            int r = bulk && !__atomic_load_n(&plan->bulk_refused, __ATOMIC_RELAXED) ? load_bulk(c, table, &g, err) : 1;
            if (r > 0 && bulk && !__atomic_exchange_n(&plan->bulk_refused, 1, __ATOMIC_RELAXED))
                fprintf(stderr, "oltp: loading %s: %s: loading with INSERTs, as sysbench does\n", table, c->err.msg);
            if (r > 0)
                sb_rows_init(&g, o, t, rows, progress);     /* the same rows, from the first */
            if (r < 0 || (r > 0 && load_inserts(c, table, &g, err) < 0))
                return -1;
        }
        if (o->create_secondary) {
            printf("Creating a secondary index on 'sbtest%d'...\n", t);
            snprintf(sql, sizeof sql, "CREATE INDEX k_%d ON sbtest%d(k)", t, t);
            if (run_sql(c, sql, err) < 0)
                return -1;
        }
    }
    return 0;
}

static int sb_cleanup(const wl_run *run, db_conn *c, wl_err *err)
{
    for (int t = 1; t <= run->o->tables; t++) {
        char sql[128], name[32];
        printf("Dropping table 'sbtest%d'...\n", t);
        snprintf(name, sizeof name, "sbtest%d", t);
        dialect_drop_if_exists(run->o->db.dialect, DIALECT_TABLE, name, sql, sizeof sql);
        if (run_sql(c, sql, err) < 0)
            return -1;
    }
    return 0;
}

/* sysbench's `prewarm` (MySQL): each thread's share of the tables read
 * through the primary key and through the secondary index, with the
 * in-memory temporary tables large enough to hold them. */
static int sb_prewarm(const wl_run *run, db_conn *c, int thread, int nthreads, wl_err *err)
{
    const oltp_opts *o = run->o;

    if (run_sql(c, "SET tmp_table_size=2*1024*1024*1024", err) < 0 ||
        run_sql(c, "SET max_heap_table_size=2*1024*1024*1024", err) < 0)
        return -1;
    for (int t = thread + 1; t <= o->tables; t += nthreads) {
        char sql[256];
        printf("Prewarming table sbtest%d\n", t);
        snprintf(sql, sizeof sql, "ANALYZE TABLE sbtest%d", t);
        if (run_sql(c, sql, err) < 0)
            return -1;
        snprintf(sql, sizeof sql, "SELECT AVG(id) FROM (SELECT * FROM sbtest%d FORCE KEY (PRIMARY) "
                 "LIMIT %" PRId64 ") t", t, o->table_size);
        if (run_sql(c, sql, err) < 0)
            return -1;
        snprintf(sql, sizeof sql, "SELECT COUNT(*) FROM (SELECT * FROM sbtest%d WHERE k LIKE '%%0%%' "
                 "LIMIT %" PRId64 ") t", t, o->table_size);
        if (run_sql(c, sql, err) < 0)
            return -1;
    }
    return 0;
}

static int sb_check_ready(const wl_run *run, db_conn *c, wl_err *err)
{
    for (int t = 1; t <= run->o->tables; t++) {
        char sql[64];
        /* SHOW COLUMNS does not move Com_select, so statement counts on the
         * server stay exactly those of the transactions */
        static const char *const probe[DB_DIALECT_COUNT] = {
            [DB_DIALECT_MYSQL] = "SHOW COLUMNS FROM sbtest%d",
            [DB_DIALECT_PGSQL] = "SELECT id FROM sbtest%d LIMIT 1",
            [DB_DIALECT_MSSQL] = "SELECT TOP 1 id FROM sbtest%d",
        };
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"  /* a format of this file's own constant table */
        snprintf(sql, sizeof sql, probe[run->o->db.dialect], t);
#pragma GCC diagnostic pop
        if (db_query(c, sql) != DB_DONE) {
            if (c->err.code == 1146 || !strcmp(c->err.sqlstate, "42S02") || !strcmp(c->err.sqlstate, "42P01")) {
                wl_err_set(err, "table sbtest%d is missing: run `%s %s --tables=%d --table-size=%" PRId64
                           " prepare` first", t, run->o->sysbench_personality ? "sysbench" : "oltp",
                           run->o->workload, run->o->tables, run->o->table_size);
                err->sysbench_voice = true;
                return -1;
            }
            return wl_err_set(err, "checking table sbtest%d: error %d: %s", t, c->err.code, c->err.msg);
        }
    }
    return 0;
}

/* --- transactions -------------------------------------------------------- */

static void *sb_conn_new(const wl_run *run, int conn_id, rng *r)
{
    sb_conn *s = calloc(1, sizeof(*s));
    if (!s)
        return NULL;
    s->run = run;
    s->plan = run->data;
    s->r = r;
    return s;
}

static void sb_conn_free(void *state)
{
    free(state);
}

static int sb_trx_begin(void *state)
{
    sb_conn *s = state;
    s->gi = s->rep = s->sub = 0;
    return 0;
}

static uint32_t get_id(sb_conn *s)
{
    return rand_default(s->r, &s->run->o->rnd, 1, (uint32_t)s->run->o->table_size);
}

static wl_step sb_step(void *state, db_conn *c, wl_action *a)
{
    sb_conn *s = state;
    const sb_plan *p = s->plan;
    const oltp_opts *o = s->run->o;
    group g;

    if (s->gi >= p->ngroups)
        return WL_END;
    g = p->groups[s->gi];
    if (s->rep == 0 && s->sub == 0)
        s->table = (int)rand_uniform(s->r, 1, (uint32_t)o->tables);
    a->stmt = -1;
    a->params = s->params;
    a->queue = true;            /* no statement's result is read; only the last waits */
    switch (g) {
    case G_BEGIN:
        a->stmt = p->stmt_begin;
        break;
    case G_COMMIT:
        a->stmt = p->stmt_commit;
        break;
    case G_POINT: case G_INDEX_UPD: case G_DELETE_ONLY:
        a->stmt = stmt_id(s->table, g == G_POINT ? K_POINT : g == G_INDEX_UPD ? K_INDEX_UPD : K_DELETE);
        s->params[0] = db_int(get_id(s));
        break;
    case G_SIMPLE: case G_SUM: case G_ORDER: case G_DISTINCT: {
        uint32_t id = get_id(s);
        a->stmt = stmt_id(s->table, K_SIMPLE + (g - G_SIMPLE));
        s->params[0] = db_int(id);
        s->params[1] = db_int((int64_t)id + o->range_size - 1);
        break;
    }
    case G_NONINDEX_UPD:
        a->stmt = stmt_id(s->table, K_NONINDEX_UPD);
        rand_str(s->r, C_TEMPLATE, s->cbuf);
        s->params[0] = db_str(s->cbuf, sizeof(C_TEMPLATE) - 1);
        s->params[1] = db_int(get_id(s));
        break;
    case G_DELETE_INSERT:
        if (s->sub == 0) {
            uint32_t id = get_id(s), k = get_id(s);
            a->stmt = stmt_id(s->table, K_DELETE);
            s->params[0] = db_int(id);
            s->params[1] = db_int(k);
            rand_str(s->r, C_TEMPLATE, s->cbuf);
            rand_str(s->r, PAD_TEMPLATE, s->padbuf);
            s->params[2] = db_str(s->cbuf, sizeof(C_TEMPLATE) - 1);
            s->params[3] = db_str(s->padbuf, sizeof(PAD_TEMPLATE) - 1);
            s->sub = 1;
            return WL_STMT;
        }
        a->stmt = stmt_id(s->table, K_INSERT);
        s->sub = 0;
        break;
    case G_INSERT_TEXT: {
        char cv[120], pv[60];
        uint32_t k = get_id(s);
        int64_t id = 0;
        rand_str(s->r, C_TEMPLATE, cv);
        rand_str(s->r, PAD_TEMPLATE, pv);
        if (!o->auto_inc)
            id = (int64_t)unique_next((sb_plan *)p) - 2147483648LL;
        if (o->auto_inc && o->db.dialect != DB_DIALECT_MYSQL)
            snprintf(s->sql, sizeof s->sql, "INSERT INTO sbtest%d (k, c, pad) VALUES (%u, '%.119s', '%.59s')",
                     s->table, k, cv, pv);
        else
            snprintf(s->sql, sizeof s->sql,
                     "INSERT INTO sbtest%d (id, k, c, pad) VALUES (%" PRId64 ", %u, '%.119s', '%.59s')",
                     s->table, id, k, cv, pv);
        a->sql = s->sql;
        a->kind = DB_Q_WRITE;
        break;
    }
    }
    if (++s->rep >= p->counts[s->gi]) {
        s->rep = 0;
        s->gi++;
    }
    a->queue = s->gi < p->ngroups;
    return WL_STMT;
}

#define SB_WORKLOAD(n, sum) {                                             \
    .name = n, .summary = sum, .setup = sb_setup, .teardown = sb_teardown, \
    .prepare = sb_prepare, .cleanup = sb_cleanup, .prewarm = sb_prewarm,   \
    .check_ready = sb_check_ready, .conn_new = sb_conn_new,                \
    .conn_free = sb_conn_free, .trx_begin = sb_trx_begin, .step = sb_step, \
    .pipeline = true }

const workload wl_sysbench[8] = {
    SB_WORKLOAD("oltp_read_write", "sysbench OLTP read/write mix"),
    SB_WORKLOAD("oltp_read_only", "sysbench OLTP read-only mix"),
    SB_WORKLOAD("oltp_write_only", "sysbench OLTP write-only mix"),
    SB_WORKLOAD("oltp_point_select", "one primary-key SELECT per transaction"),
    SB_WORKLOAD("oltp_update_index", "UPDATE of the indexed column"),
    SB_WORKLOAD("oltp_update_non_index", "UPDATE of a non-indexed column"),
    SB_WORKLOAD("oltp_insert", "single-row INSERTs"),
    SB_WORKLOAD("oltp_delete", "single-row DELETEs by primary key"),
};
