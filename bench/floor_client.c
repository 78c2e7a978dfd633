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

/* --- MariaDB Connector/C, blocking prepared statements ------------------- */

static void *run_mysql(void *arg)
{
    thr *t = arg;
    const cfg *c = t->c;
    MYSQL *m = mysql_init(NULL);
    MYSQL_STMT **st = calloc((size_t)(NSTMT * c->tables), sizeof(*st));
    plan_stmt ps[32];
    double end;

    if (!m || !st || !mysql_real_connect(m, c->host, c->user, c->password, c->db, (unsigned)c->port, NULL, 0)) {
        fprintf(stderr, "floor_client: connect: %s\n", m ? mysql_error(m) : "out of memory");
        t->failed = 1;
        return NULL;
    }
    for (int tb = 0; tb < c->tables; tb++)
        for (int k = 0; k < NSTMT; k++) {
            char sql[200];
            MYSQL_STMT *s = mysql_stmt_init(m);
            snprintf(sql, sizeof sql, sql_my[k], tb + 1);
            if (!s || mysql_stmt_prepare(s, sql, strlen(sql))) {
                fprintf(stderr, "floor_client: prepare %s: %s\n", sql, s ? mysql_stmt_error(s) : "oom");
                t->failed = 1;
                return NULL;
            }
            st[tb * NSTMT + k] = s;
        }
    end = now_s() + c->seconds;
    while (now_s() < end) {
        int n = make_plan(t, ps), ok = 1;
        double t0 = now_s();
        for (int i = 0; i < n && ok; i++) {
            plan_stmt *p = &ps[i];
            MYSQL_STMT *s = st[p->table * NSTMT + p->kind];
            MYSQL_BIND b[4];
            unsigned long cl = 119, pl = 59;
            long long v0 = p->p[0], v1 = p->p[1];
            memset(b, 0, sizeof b);
            b[0].buffer_type = b[1].buffer_type = MYSQL_TYPE_LONGLONG;
            b[0].buffer = &v0;
            b[1].buffer = &v1;
            if (p->kind == S_NONIDX) {
                b[0].buffer_type = MYSQL_TYPE_STRING;
                b[0].buffer = p->c, b[0].length = &cl;
                b[1].buffer = &v0;
            } else if (p->kind == S_INS) {
                b[2].buffer_type = b[3].buffer_type = MYSQL_TYPE_STRING;
                b[2].buffer = p->c, b[2].length = &cl;
                b[3].buffer = p->pad, b[3].length = &pl;
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
        }
        if (!ok) {
            t->errors++;
            mysql_stmt_execute(st[S_ROLLBACK]);
            continue;
        }
        t->trx++;
        add_lat(t, (now_s() - t0) * 1000);
    }
    for (int i = 0; i < NSTMT * c->tables; i++)
        mysql_stmt_close(st[i]);
    free(st);
    mysql_close(m);
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

static void *run_pgsql(void *arg)
{
    thr *t = arg;
    const cfg *c = t->c;
    char port[16], conninfo[512];
    PGconn *pg;
    plan_stmt ps[32];
    double end;

    snprintf(port, sizeof port, "%d", c->port);
    snprintf(conninfo, sizeof conninfo, "host=%s port=%s user=%s password=%s dbname=%s application_name=floor",
             c->host, port, c->user, c->password, c->db);
    pg = PQconnectdb(conninfo);
    if (PQstatus(pg) != CONNECTION_OK) {
        fprintf(stderr, "floor_client: connect: %s", PQerrorMessage(pg));
        t->failed = 1;
        return NULL;
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
                t->failed = 1;
                return NULL;
            }
            PQclear(r);
        }
    end = now_s() + c->seconds;
    while (now_s() < end) {
        int n = make_plan(t, ps), ok = 1;
        double t0 = now_s();
        for (int i = 0; i < n && ok; i++) {
            plan_stmt *p = &ps[i];
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
            r = PQexecPrepared(pg, name, nparams[p->kind], v, NULL, NULL, 0);
            rs = PQresultStatus(r);
            ok = rs == PGRES_COMMAND_OK || rs == PGRES_TUPLES_OK;
            PQclear(r);
        }
        if (!ok) {
            t->errors++;
            PQclear(PQexec(pg, "ROLLBACK"));
            if (PQstatus(pg) != CONNECTION_OK) {
                fprintf(stderr, "floor_client: %s", PQerrorMessage(pg));
                t->failed = 1;
                break;
            }
            continue;
        }
        t->trx++;
        add_lat(t, (now_s() - t0) * 1000);
    }
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
