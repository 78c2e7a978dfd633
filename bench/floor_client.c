/*
 * floor_client.c — the least a client can do to run sysbench's
 * oltp_read_write transaction: the same 20 statements per transaction
 * (BEGIN, 10 point SELECTs, 4 range SELECTs, 2 UPDATEs, DELETE + INSERT of
 * one id, COMMIT), one server-side prepared statement each, one round trip
 * each, through the client library's blocking API, one thread per
 * connection, results stored and dropped unread. No event loop, no
 * statistics but a transaction count and a latency array, no options.
 *
 * It exists to show the floor under bench/oltp_vs_sysbench.sh and
 * bench/pgsql_vs_sysbench.sh: the CPU this client needs per transaction
 * (split into user and kernel time by bench/cpu_of.py) is what any client
 * sending these round trips pays; the kernel's share of it is the loopback
 * TCP path. Not part of bin/: the bench scripts build it.
 *
 * Ids and tables are uniform random (sysbench's default is its "special"
 * distribution), which changes the server's cache behaviour, not the
 * client's work per statement.
 *
 * Usage: floor_client mysql|pgsql HOST PORT USER PASSWORD DB THREADS SECONDS TABLES SIZE
 * Prints sysbench's report lines that the bench scripts read:
 *   transactions: N (R per sec.)   and   99th percentile: MS
 */
#include <errno.h>
#include <inttypes.h>
#include <libpq-fe.h>
#include <mysql.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { S_BEGIN, S_COMMIT, S_POINT, S_SIMPLE, S_SUM, S_ORDER, S_DISTINCT, S_IDX, S_NONIDX, S_DEL, S_INS,
       S_ROLLBACK, NSTMT };

static const char *const sql_my[NSTMT] = {
    "BEGIN", "COMMIT", "SELECT c FROM sbtest%d WHERE id=?",
    "SELECT c FROM sbtest%d WHERE id BETWEEN ? AND ?",
    "SELECT SUM(k) FROM sbtest%d WHERE id BETWEEN ? AND ?",
    "SELECT c FROM sbtest%d WHERE id BETWEEN ? AND ? ORDER BY c",
    "SELECT DISTINCT c FROM sbtest%d WHERE id BETWEEN ? AND ? ORDER BY c",
    "UPDATE sbtest%d SET k=k+1 WHERE id=?", "UPDATE sbtest%d SET c=? WHERE id=?",
    "DELETE FROM sbtest%d WHERE id=?", "INSERT INTO sbtest%d (id, k, c, pad) VALUES (?, ?, ?, ?)",
    "ROLLBACK",
};
static const int nparams[NSTMT] = { 0, 0, 1, 2, 2, 2, 2, 1, 2, 1, 4, 0 };

typedef struct cfg {
    const char *drv, *host, *user, *password, *db;
    int port, threads, tables;
    double seconds;
    long size;
} cfg;

typedef struct thr {
    const cfg *c;
    pthread_t  t;
    uint64_t   rng;
    long       trx, errors;
    double    *lat;
    long       nlat, cap;
    int        failed;
} thr;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static uint32_t rnd(thr *t, uint32_t n)        /* uniform 0..n-1 (xorshift64*) */
{
    t->rng ^= t->rng >> 12;
    t->rng ^= t->rng << 25;
    t->rng ^= t->rng >> 27;
    return (uint32_t)(((t->rng * 2685821657736338717ULL) >> 32) % n);
}

static void digits(thr *t, char *b, int groups)  /* "###########-..." filled with digits */
{
    int o = 0;
    for (int g = 0; g < groups; g++) {
        if (g)
            b[o++] = '-';
        for (int i = 0; i < 11; i++)
            b[o++] = (char)('0' + rnd(t, 10));
    }
    b[o] = 0;
}

/* One transaction's statement sequence: kind and parameters of statement i. */
typedef struct plan_stmt { int kind, table; long p[2]; char c[120], pad[60]; } plan_stmt;

static int make_plan(thr *t, plan_stmt *ps)
{
    static const int seq[] = { S_BEGIN, S_POINT, S_POINT, S_POINT, S_POINT, S_POINT, S_POINT, S_POINT,
                               S_POINT, S_POINT, S_POINT, S_SIMPLE, S_SUM, S_ORDER, S_DISTINCT, S_IDX,
                               S_NONIDX, S_DEL, S_INS, S_COMMIT };
    int n = (int)(sizeof seq / sizeof seq[0]);
    for (int i = 0; i < n; i++) {
        plan_stmt *s = &ps[i];
        s->kind = seq[i];
        s->table = (int)rnd(t, (uint32_t)t->c->tables);
        s->p[0] = 1 + rnd(t, (uint32_t)t->c->size);
        s->p[1] = s->p[0] + 99;
        if (s->kind == S_NONIDX)
            digits(t, s->c, 10);
        if (s->kind == S_INS) {
            s->p[0] = ps[i - 1].p[0];           /* the id just deleted */
            s->p[1] = 1 + rnd(t, (uint32_t)t->c->size);
            s->table = ps[i - 1].table;
            digits(t, s->c, 10);
            digits(t, s->pad, 5);
        }
    }
    return n;
}

static void add_lat(thr *t, double ms)
{
    if (t->nlat == t->cap) {
        long ncap = t->cap ? t->cap * 2 : 4096;
        double *n = realloc(t->lat, (size_t)ncap * sizeof(*n));
        if (!n)
            return;
        t->lat = n;
        t->cap = ncap;
    }
    t->lat[t->nlat++] = ms;
}

/* Run transactions until the time is up: exec() sends one statement and
 * stores its result (1, or 0 on an error), rollback() ends a failed
 * transaction (0, or -1 when the session is lost). */
typedef struct client_ops {
    int (*exec)(void *h, const plan_stmt *p);
    int (*rollback)(void *h);
} client_ops;

static void run_loop(thr *t, const client_ops *ops, void *h)
{
    plan_stmt ps[32];
    double end = now_s() + t->c->seconds;

    while (now_s() < end) {
        int n = make_plan(t, ps), ok = 1;
        double t0 = now_s();
        for (int i = 0; i < n && ok; i++)
            ok = ops->exec(h, &ps[i]);
        if (!ok) {
            t->errors++;
            if (ops->rollback(h) < 0) {
                t->failed = 1;
                return;
            }
            continue;
        }
        t->trx++;
        add_lat(t, (now_s() - t0) * 1000);
    }
}

/* --- MariaDB Connector/C, blocking prepared statements ------------------- */

typedef struct my_client { MYSQL *m; MYSQL_STMT **st; } my_client;

static int my_exec(void *h, const plan_stmt *p)
{
    my_client *mc = h;
    MYSQL_STMT *s = mc->st[p->table * NSTMT + p->kind];
    MYSQL_BIND b[4];
    unsigned long cl = 119, pl = 59;
    long long v0 = p->p[0], v1 = p->p[1];
    int ok = 1;

    memset(b, 0, sizeof b);
    b[0].buffer_type = b[1].buffer_type = MYSQL_TYPE_LONGLONG;
    b[0].buffer = &v0;
    b[1].buffer = &v1;
    if (p->kind == S_NONIDX) {
        b[0].buffer_type = MYSQL_TYPE_STRING;
        b[0].buffer = (char *)p->c, b[0].length = &cl;
        b[1].buffer = &v0;
    } else if (p->kind == S_INS) {
        b[2].buffer_type = b[3].buffer_type = MYSQL_TYPE_STRING;
        b[2].buffer = (char *)p->c, b[2].length = &cl;
        b[3].buffer = (char *)p->pad, b[3].length = &pl;
    }
    if (nparams[p->kind] && mysql_stmt_bind_param(s, b))
        ok = 0;
    else if (mysql_stmt_execute(s))
        ok = 0;
    else if (mysql_stmt_field_count(s)) {
        if (mysql_stmt_store_result(s))
            ok = 0;
        mysql_stmt_free_result(s);
    }
    return ok;
}

static int my_rollback(void *h)
{
    my_client *mc = h;
    if (mysql_stmt_execute(mc->st[S_ROLLBACK]) && mysql_errno(mc->m) >= 2000) {
        fprintf(stderr, "floor_client: %s\n", mysql_error(mc->m));
        return -1;
    }
    return 0;
}

static void *run_mysql(void *arg)
{
    static const client_ops ops = { my_exec, my_rollback };
    thr *t = arg;
    const cfg *c = t->c;
    my_client mc = { mysql_init(NULL), calloc((size_t)(NSTMT * c->tables), sizeof(MYSQL_STMT *)) };

    if (!mc.m || !mc.st
        || !mysql_real_connect(mc.m, c->host, c->user, c->password, c->db, (unsigned)c->port, NULL, 0)) {
        fprintf(stderr, "floor_client: connect: %s\n", mc.m ? mysql_error(mc.m) : "out of memory");
        t->failed = 1;
        goto cleanup;
    }
    for (int tb = 0; tb < c->tables; tb++)
        for (int k = 0; k < NSTMT; k++) {
            char sql[200];
            MYSQL_STMT *s = mysql_stmt_init(mc.m);
            snprintf(sql, sizeof sql, sql_my[k], tb + 1);
            mc.st[tb * NSTMT + k] = s;
            if (!s || mysql_stmt_prepare(s, sql, strlen(sql))) {
                fprintf(stderr, "floor_client: prepare %s: %s\n", sql, s ? mysql_stmt_error(s) : "oom");
                t->failed = 1;
                goto cleanup;
            }
        }
    run_loop(t, &ops, &mc);
cleanup:
    for (int i = 0; mc.st && i < NSTMT * c->tables; i++)
        if (mc.st[i])
            mysql_stmt_close(mc.st[i]);
    free(mc.st);
    if (mc.m)
        mysql_close(mc.m);
    return NULL;
}

/* --- libpq, blocking PQexecPrepared ----------------------------------------- */

static void pg_sql(char *out, size_t cap, int kind, int table)
{
    /* "?" -> $1..$n */
    char tmp[200];
    int n = 0;
    size_t o = 0;
    snprintf(tmp, sizeof tmp, sql_my[kind], table + 1);
    for (const char *s = tmp; *s && o + 4 < cap; s++) {
        if (*s == '?')
            o += (size_t)snprintf(out + o, cap - o, "$%d", ++n);
        else
            out[o++] = *s;
    }
    out[o] = 0;
}

static int pg_exec(void *h, const plan_stmt *p)
{
    char name[16], a[24], b[24], k[24];
    const char *v[4] = { a, b, NULL, NULL };
    PGresult *r;
    ExecStatusType rs;

    snprintf(name, sizeof name, "f%d", p->table * NSTMT + p->kind);
    snprintf(a, sizeof a, "%ld", p->p[0]);
    snprintf(b, sizeof b, "%ld", p->p[1]);
    if (p->kind == S_NONIDX)
        v[0] = p->c, v[1] = a;
    else if (p->kind == S_INS) {
        snprintf(k, sizeof k, "%ld", p->p[1]);
        v[1] = k, v[2] = p->c, v[3] = p->pad;
    }
    r = PQexecPrepared(h, name, nparams[p->kind], v, NULL, NULL, 0);
    rs = PQresultStatus(r);
    PQclear(r);
    return rs == PGRES_COMMAND_OK || rs == PGRES_TUPLES_OK;
}

static int pg_rollback(void *h)
{
    PQclear(PQexec(h, "ROLLBACK"));
    if (PQstatus(h) != CONNECTION_OK) {
        fprintf(stderr, "floor_client: %s", PQerrorMessage(h));
        return -1;
    }
    return 0;
}

static void *run_pgsql(void *arg)
{
    static const client_ops ops = { pg_exec, pg_rollback };
    thr *t = arg;
    const cfg *c = t->c;
    char conninfo[512];
    PGconn *pg;

    snprintf(conninfo, sizeof conninfo, "host=%s port=%d user=%s password=%s dbname=%s application_name=floor",
             c->host, c->port, c->user, c->password, c->db);
    pg = PQconnectdb(conninfo);
    if (PQstatus(pg) != CONNECTION_OK) {
        fprintf(stderr, "floor_client: connect: %s", PQerrorMessage(pg));
        t->failed = 1;
        goto cleanup;
    }
    for (int tb = 0; tb < c->tables; tb++)
        for (int k = 0; k < NSTMT; k++) {
            char sql[200], name[16];
            PGresult *r;
            pg_sql(sql, sizeof sql, k, tb);
            snprintf(name, sizeof name, "f%d", tb * NSTMT + k);
            r = PQprepare(pg, name, sql, nparams[k], NULL);
            if (PQresultStatus(r) != PGRES_COMMAND_OK) {
                fprintf(stderr, "floor_client: prepare %s: %s", sql, PQerrorMessage(pg));
                PQclear(r);
                t->failed = 1;
                goto cleanup;
            }
            PQclear(r);
        }
    run_loop(t, &ops, pg);
cleanup:
    PQfinish(pg);
    return NULL;
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    cfg c;
    thr *ts;
    long trx = 0, errors = 0, nlat = 0;
    double t0, dur, *all;
    int failed = 0;

    if (argc != 11) {
        fprintf(stderr, "usage: floor_client mysql|pgsql HOST PORT USER PASSWORD DB THREADS SECONDS TABLES SIZE\n");
        return 2;
    }
    c = (cfg){ .drv = argv[1], .host = argv[2], .port = atoi(argv[3]), .user = argv[4], .password = argv[5],
               .db = argv[6], .threads = atoi(argv[7]), .seconds = atof(argv[8]), .tables = atoi(argv[9]),
               .size = atol(argv[10]) };
    if ((strcmp(c.drv, "mysql") && strcmp(c.drv, "pgsql")) || c.threads < 1 || c.seconds <= 0 || c.tables < 1
        || c.size < 200) {
        fprintf(stderr, "floor_client: bad arguments (driver mysql or pgsql, threads >= 1, seconds > 0, "
                "tables >= 1, size >= 200)\n");
        return 2;
    }
    if (!strcmp(c.drv, "mysql"))
        mysql_library_init(0, NULL, NULL);
    ts = calloc((size_t)c.threads, sizeof(*ts));
    if (!ts)
        return 1;
    t0 = now_s();
    for (int i = 0; i < c.threads; i++) {
        ts[i].c = &c;
        ts[i].rng = 0x9E3779B97F4A7C15ULL * (uint64_t)(i + 1);
        if (pthread_create(&ts[i].t, NULL, !strcmp(c.drv, "mysql") ? run_mysql : run_pgsql, &ts[i])) {
            fprintf(stderr, "floor_client: cannot start thread %d\n", i);
            return 1;
        }
    }
    for (int i = 0; i < c.threads; i++) {
        pthread_join(ts[i].t, NULL);
        trx += ts[i].trx;
        errors += ts[i].errors;
        nlat += ts[i].nlat;
        failed |= ts[i].failed;
    }
    dur = now_s() - t0;
    all = malloc((size_t)(nlat ? nlat : 1) * sizeof(*all));
    nlat = 0;
    for (int i = 0; i < c.threads; i++) {
        if (all && ts[i].lat)
            memcpy(all + nlat, ts[i].lat, (size_t)ts[i].nlat * sizeof(*all));
        nlat += ts[i].nlat;
        free(ts[i].lat);
    }
    if (all && nlat)
        qsort(all, (size_t)nlat, sizeof(*all), cmp_d);
    printf("    transactions:                        %ld   (%.2f per sec.)\n", trx, trx / dur);
    printf("    ignored errors:                      %ld\n", errors);
    printf("         99th percentile:                %.2f\n", all && nlat ? all[(long)(0.99 * (nlat - 1))] : 0.0);
    free(all);
    free(ts);
    return failed ? 1 : 0;
}
