/*
 * wl_tpcc.c — the TPC-C workload (specification rev. 5.11): its table for
 * the engine, and setup (options, statements, NURand constants of the
 * run). The rest is in the tpcc_*.c files (tpcc.h says which).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tpcc/tpcc.h"

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

static int tc_setup(wl_run *run, wl_err *err)
{
    const oltp_opts *o = run->o;
    tpcc_plan *p = calloc(1, sizeof(*p));
    rng r;
    time_t now = time(NULL);
    struct tm tm;
    int compat = tpcc_compat_parse(o->tpcc_compat);

    if (!p)
        return wl_err_set(err, "out of memory");
    if (compat < 0) {
        free(p);
        return wl_err_set(err, "--tpcc-compat=%s: give spec or hammerdb", o->tpcc_compat ? o->tpcc_compat : "");
    }
    p->compat = (tpcc_compat)compat;
    p->tsql = o->db.dialect == DB_DIALECT_MSSQL;
    p->dl = dialect_get(o->db.dialect);
    p->dialect = tpcc_schema_dialect(o->db.dialect);
    if (tpcc_stmts_build(run, p->dl, o->db.dialect, p->compat, err) < 0)
        goto fail;      /* its table, if made, is freed there */
    if (strspn(o->mysql_storage_engine, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") !=
        strlen(o->mysql_storage_engine)) {
        wl_err_set(err, "--mysql-storage-engine=%s: not an engine name", o->mysql_storage_engine);
        goto fail;
    }
    /* T-SQL's VALUES list takes at most 1,000 rows (error 10738): say so
     * rather than load other batches than asked */
    if (o->db.dialect == DB_DIALECT_MSSQL && o->tpcc_load_batch > TPCC_MSSQL_MAX_VALUES) {
        wl_err_set(err, "--tpcc-load-batch=%d: SQL Server takes at most %d rows in one INSERT ... "
                   "VALUES list: give %d or less", o->tpcc_load_batch, TPCC_MSSQL_MAX_VALUES,
                   TPCC_MSSQL_MAX_VALUES);
        goto fail;
    }
    if (tpcc_prep_check(o, err) < 0)
        goto fail;
    if (o->rate > 0) {
        wl_err_set(err, "--rate does not apply to tpcc: its terminals set the pace "
                   "(--terminals, --keying-thinking)");
        goto fail;
    }
    p->warehouses = o->warehouses;
    p->procedures = o->tpcc_procedures;
    p->wh_units_done = calloc((size_t)o->warehouses, sizeof(int));
    if (!p->wh_units_done) {
        wl_err_set(err, "out of memory");
        goto fail;
    }
    rng_seed(&r, o->seed ? o->seed : (uint64_t)now ^ ((uint64_t)getpid() << 20), 0x7cc);
    tpcc_consts_run_compat(&r, p->compat, &p->run);
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

/* cleanup: the procedures (whether or not this run uses them), then the
 * tables. */
static int tc_cleanup(const wl_run *run, db_conn *c, wl_err *err)
{
    if (tpcc_proc_drop(run, c, err) < 0)
        return -1;
    return tpcc_cleanup(run, c, err);
}

static int tc_check_ready(const wl_run *run, db_conn *c, wl_err *err)
{
    if (tpcc_check_ready(run, c, err) < 0)
        return -1;
    return run->o->tpcc_procedures ? tpcc_proc_check(run, c, err) : 0;
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
    .server_rate_name = "NOPM",
    .server_count = tpcc_server_count,
    .setup = tc_setup,
    .teardown = tc_teardown,
    .prepare = tpcc_prepare,
    .cleanup = tc_cleanup,
    .check_ready = tc_check_ready,
    .check = tpcc_check,
    .conn_new = tpcc_term_new,
    .conn_free = tpcc_term_free,
    .trx_begin = tpcc_trx_begin,
    .step = tpcc_step,
    .pause_before = tpcc_pause_before,
    .terminals = tc_terminals,
};
