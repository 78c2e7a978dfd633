/*
 * tpcc_check.c — what `run` checks before it starts (the tables exist and
 * hold --warehouses warehouses) and the `check` command: the consistency
 * conditions 1-4 of clause 3.3.2, each a query counting the warehouses or
 * districts that break it.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "tpcc/tpcc.h"


/* Query n integers (the first n columns of the first row, 0 for none or
 * NULL); -1 with *err saying why. */
static int query_ints(const tpcc_plan *p, db_conn *c, const char *sql, int64_t *out, int n, wl_err *err)
{
    if (db_query(c, sql) != DB_DONE) {
        if ((p->dl->code_no_table && c->err.code == p->dl->code_no_table) ||
            !strcmp(c->err.sqlstate, p->dl->sqlstate_no_table))
            return wl_err_set(err, "TPC-C tables are missing: run `oltp tpcc --warehouses=N prepare` first (%s)",
                              c->err.msg);
        return wl_err_set(err, "%s: error %d: %s", sql, c->err.code, c->err.msg);
    }
    bool row = db_next_row(c);
    for (int i = 0; i < n; i++)
        out[i] = row ? db_col_int(c, i) : 0;
    while (row && db_next_row(c))
        ;
    return 0;
}

/* Query one integer (first column of the first row); -1 with *err
 * saying why. */
static int query_int(const tpcc_plan *p, db_conn *c, const char *sql, int64_t *out, wl_err *err)
{
    return query_ints(p, c, sql, out, 1, err);
}

/* Refuse a run in another --tpcc-compat mode than the data was prepared
 * in (tpcc_compat_match says how the load is judged: its share of
 * bad-credit customers). The data itself is the evidence, not a marker
 * that prepare would record: it judges databases prepared before this
 * check existed, and by HammerDB itself, adds no table for cleanup,
 * `check` or another tool's schema to know about, and no transaction
 * changes C_CREDIT. Cheap: one district's 3,000 customers, read through
 * the primary key's prefix (c_w_id, c_d_id). The procedures need no check
 * of their own: their text is the same in both modes, the mode travels
 * as the last parameter (hdb) of each CALL. */
static int check_compat(const tpcc_plan *p, db_conn *c, wl_err *err)
{
    int64_t v[2];
    char why[sizeof err->msg];

    if (query_ints(p, c, "SELECT COUNT(*), SUM(CASE WHEN c_credit = 'BC' THEN 1 ELSE 0 END) "
                   "FROM customer WHERE c_w_id = 1 AND c_d_id = 1", v, 2, err) < 0)
        return -1;
    if (tpcc_compat_match(p->compat, v[0], v[1], why, sizeof why) < 0)
        return wl_err_set(err, "%s", why);
    return 0;
}

/* SUM(col) as the dialect widens it (tpcc_dialect.int_sum), in buf. */
static const char *int_sum(const tpcc_plan *p, const char *col, char *buf, size_t len)
{
    if (p->dialect->widen_sums)
        snprintf(buf, len, "SUM(CAST(%s AS BIGINT))", col);
    else
        snprintf(buf, len, "SUM(%s)", col);
    return buf;
}

int tpcc_check_ready(const wl_run *run, db_conn *c, wl_err *err)
{
    const oltp_opts *o = run->o;
    const tpcc_plan *p = run->data;
    int64_t n;
    int nconns = o->connections > 0 ? o->connections : o->threads;

    for (int t = 0; t < tpcc_table_count(); t++) {
        char sql[96];
        snprintf(sql, sizeof sql, "SELECT COUNT(*) FROM %s WHERE 1 = 0", tpcc_table_name(t));
        if (query_int(p, c, sql, &n, err) < 0)
            return -1;
    }
    if (query_int(p, c, "SELECT COUNT(*) FROM warehouse", &n, err) < 0)
        return -1;
    if (n != o->warehouses)
        return wl_err_set(err, "the database holds %" PRId64 " warehouses, not --warehouses=%d: "
                          "run with --warehouses=%" PRId64 " or prepare again", n, o->warehouses, n);
    if (check_compat(p, c, err) < 0)
        return -1;
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

/* New-Orders committed so far, as the server counts them: every committed
 * New-Order took the next order number of its district, a rolled back one
 * gave it back (HammerDB's NOPM counts the same way). */
int tpcc_server_count(const wl_run *run, db_conn *c, int64_t *count, wl_err *err)
{
    const tpcc_plan *p = run->data;
    char sql[96], sum[48];

    snprintf(sql, sizeof sql, "SELECT %s FROM district", int_sum(p, "d_next_o_id", sum, sizeof sum));
    return query_int(p, c, sql, count, err);
}

/* Consistency conditions 1-4 of clause 3.3.2; each query counts the
 * warehouses or districts that break the condition. */
int tpcc_check(const wl_run *run, db_conn *c, wl_err *err)
{
    /* each condition's text: sql, then the sum of sum_col (if any), then tail */
    static const struct { const char *what, *sql, *sum_col, *tail; } conds[] = {
        { "1: W_YTD = sum(D_YTD) for every warehouse",
          "SELECT COUNT(*) FROM warehouse w WHERE w.w_ytd <> "
          "(SELECT SUM(d.d_ytd) FROM district d WHERE d.d_w_id = w.w_id)", NULL, NULL },
        { "2: D_NEXT_O_ID - 1 = max(O_ID) = max(NO_O_ID) for every district",
          "SELECT COUNT(*) FROM district d WHERE d.d_next_o_id - 1 <> "
          "(SELECT MAX(o.o_id) FROM orders o WHERE o.o_w_id = d.d_w_id AND o.o_d_id = d.d_id) "
          "OR d.d_next_o_id - 1 <> (SELECT MAX(n.no_o_id) FROM new_order n "
          "WHERE n.no_w_id = d.d_w_id AND n.no_d_id = d.d_id)", NULL, NULL },
        { "3: max(NO_O_ID) - min(NO_O_ID) + 1 = rows in NEW-ORDER for every district",
          "SELECT COUNT(*) FROM (SELECT no_w_id, no_d_id, MAX(no_o_id) - MIN(no_o_id) + 1 AS span, "
          "COUNT(*) AS n FROM new_order GROUP BY no_w_id, no_d_id) x WHERE x.span <> x.n", NULL, NULL },
        { "4: sum(O_OL_CNT) = rows in ORDER-LINE for every district",
          "SELECT COUNT(*) FROM (SELECT o_w_id, o_d_id, ", "o_ol_cnt", " AS s FROM orders "
          "GROUP BY o_w_id, o_d_id) a LEFT JOIN (SELECT ol_w_id, ol_d_id, COUNT(*) AS n FROM order_line "
          "GROUP BY ol_w_id, ol_d_id) b ON a.o_w_id = b.ol_w_id AND a.o_d_id = b.ol_d_id "
          "WHERE b.n IS NULL OR a.s <> b.n" },
    };
    const tpcc_plan *p = run->data;
    int failed = 0;
    int64_t n;

    if (query_int(p, c, "SELECT COUNT(*) FROM district", &n, err) < 0)
        return -1;
    if (n == 0)
        return wl_err_set(err, "the TPC-C tables are empty: run `oltp tpcc --warehouses=N prepare` first");
    printf("TPC-C consistency conditions (clause 3.3.2):\n");
    for (size_t i = 0; i < sizeof(conds) / sizeof(conds[0]); i++) {
        char sql[512], sum[48] = "";

        if (conds[i].sum_col)
            int_sum(p, conds[i].sum_col, sum, sizeof sum);
        snprintf(sql, sizeof sql, "%s%s%s", conds[i].sql, sum, conds[i].tail ? conds[i].tail : "");
        if (query_int(p, c, sql, &n, err) < 0)
            return -1;
        printf("  %-74s %s", conds[i].what, n ? "FAILED" : "ok");
        if (n)
            printf(" (%" PRId64 " %s)", n, i == 0 ? "warehouses" : "districts");
        putchar('\n');
        failed += n != 0;
    }
    /* a failure is said by the lines above: *err stays empty */
    printf("%s\n", failed ? "Consistency check FAILED" : "All consistency conditions hold");
    return failed ? -1 : 0;
}
