/*
 * options.c — sysbench-style `--name=value` options, table-driven.
 */
#include "options/options.h"

#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "version.h"

/* --bulk's ODBC paths by name (spelled once: the usage line too is made
 * of these); DB_ODBC_ARRAYS is --bulk=on or off */
#define BULK_BCP    "bcp"
#define BULK_VALUES "values"
static const char *const bulk_names[] = {
    [DB_ODBC_BCP] = BULK_BCP, [DB_ODBC_VALUES] = BULK_VALUES,
};
/* --db-ps-mode's values, likewise */
#define PS_AUTO    "auto"
#define PS_DISABLE "disable"
static const char *const ps_mode_names[] = { [DB_PS_AUTO] = PS_AUTO, [DB_PS_DISABLE] = PS_DISABLE };

const char *opts_bulk_name(const oltp_opts *o)
{
    if (o->db.odbc_bulk != DB_ODBC_ARRAYS)
        return bulk_names[o->db.odbc_bulk];
    return o->bulk ? "on" : "off";
}

/* O_IGNORED: accepted and changes nothing (an option sysbench 1.0.20
 * itself accepts without effect) */
typedef enum { O_INT, O_INT64, O_DOUBLE, O_BOOL, O_STR, O_PCT, O_RANDTYPE, O_BULK, O_PSMODE, O_IGNORED } opt_type;

typedef struct opt_def {
    const char *name;
    opt_type    type;
    size_t      off;
    const char *def;        /* default as text, parsed like a user value */
    const char *help;
    double      min, max;   /* numeric range (inclusive) */
} opt_def;

#define F(field) offsetof(oltp_opts, field)
#define BIG 1e18

static const opt_def defs[] = {
    /* general */
    {"threads", O_INT, F(threads), "1", "number of connections (sysbench threads)", 1, 100000},
    {"time", O_DOUBLE, F(time_s), "10", "limit for total execution time in seconds (0 = none)", 0, BIG},
    {"events", O_INT64, F(events), "0", "limit for total number of transactions (0 = none)", 0, BIG},
    {"warmup-time", O_DOUBLE, F(warmup_s), "0", "seconds of load before measuring; their statistics are reported as the warmup phase", 0, BIG},
    {"report-interval", O_DOUBLE, F(report_interval), "0", "print statistics every N seconds (0 = off)", 0, BIG},
    {"rate", O_DOUBLE, F(rate), "0", "open-loop target rate in transactions/s (0 = as fast as possible)", 0, BIG},
    {"percentile", O_PCT, 0, "95", "comma-separated percentiles to report (first is used in interval lines; "
     "0: none, as sysbench's --percentile=0)", 0, 100},
    {"report-checkpoints", O_STR, F(report_checkpoints_text), "",
     "comma-separated seconds since the start at which to print a full report of the span "
     "since the previous one (sysbench's checkpoints)", 0, 0},
    {"histogram", O_BOOL, F(histogram), "off", "print the latency histogram in the report", 0, 0},
    {"event-threads", O_INT, F(event_threads), "0", "event-loop worker threads (0 = one per CPU oltp may run on, no more than the connections; with --rate or TPC-C terminals, which share a loop's connections, one per 256 connections, at most one per CPU)", 0, 1024},
    {"json", O_STR, F(json_path), NULL, "write the result document (results/SCHEMA.md) to this file", 0, 0},
    {"verbose", O_BOOL, F(verbose), "off", "print every retried error", 0, 0},
    {"verbosity", O_INT, F(verbosity), "3", "sysbench's verbosity: 0 only errors, 1 no report, 2 warnings, 3 notices (the report), 4 and 5 more", 0, 5},
    /* random numbers */
    {"rand-type", O_RANDTYPE, 0, "special", "random numbers distribution {uniform,gaussian,special,pareto,zipfian}", 0, 0},
    {"rand-seed", O_INT64, F(seed), "0", "seed for the random number generator (0 = time)", 0, BIG},
    {"rand-spec-iter", O_INT, F(rnd.spec_iter), "12", "iterations for the special/gaussian distributions", 1, 1000},
    {"rand-spec-pct", O_INT, F(rnd.spec_pct), "1", "percentage of the range treated as special", 0, 100},
    {"rand-spec-res", O_INT, F(rnd.spec_res), "75", "percentage of special values to use", 0, 99},
    {"rand-pareto-h", O_DOUBLE, F(rnd.pareto_h), "0.2", "parameter h of the pareto distribution", 0.000001, 0.999999},
    {"rand-zipfian-exp", O_DOUBLE, F(rnd.zipf_exp), "0.8", "exponent of the zipfian distribution", 0, 1000},
    /* sysbench OLTP */
    {"tables", O_INT, F(tables), "1", "Number of tables", 1, 1000000},
    {"table-size", O_INT64, F(table_size), "10000", "Number of rows per table", 0, 4294967295.0},
    {"range-size", O_INT, F(range_size), "100", "Range size for range SELECT queries", 1, 100000000},
    {"point-selects", O_INT, F(point_selects), "10", "Number of point SELECT queries per transaction", 0, 100000},
    {"simple-ranges", O_INT, F(simple_ranges), "1", "Number of simple range SELECT queries per transaction", 0, 100000},
    {"sum-ranges", O_INT, F(sum_ranges), "1", "Number of SELECT SUM() queries per transaction", 0, 100000},
    {"order-ranges", O_INT, F(order_ranges), "1", "Number of SELECT ORDER BY queries per transaction", 0, 100000},
    {"distinct-ranges", O_INT, F(distinct_ranges), "1", "Number of SELECT DISTINCT queries per transaction", 0, 100000},
    {"index-updates", O_INT, F(index_updates), "1", "Number of UPDATE index queries per transaction", 0, 100000},
    {"non-index-updates", O_INT, F(non_index_updates), "1", "Number of UPDATE non-index queries per transaction", 0, 100000},
    {"delete-inserts", O_INT, F(delete_inserts), "1", "Number of DELETE/INSERT combinations per transaction", 0, 100000},
    {"range-selects", O_BOOL, F(range_selects), "on", "Enable/disable all range SELECT queries", 0, 0},
    {"skip-trx", O_BOOL, F(skip_trx), "off", "Don't start explicit transactions and execute all queries in the AUTOCOMMIT mode", 0, 0},
    {"auto-inc", O_BOOL, F(auto_inc), "on", "Use AUTO_INCREMENT column as Primary Key (for MySQL), or its alternatives in other DBMS. When disabled, use client-generated IDs", 0, 0},
    {"secondary", O_BOOL, F(secondary), "off", "Use a secondary index in place of the PRIMARY KEY", 0, 0},
    {"create-secondary", O_BOOL, F(create_secondary), "on", "Create a secondary index in addition to the PRIMARY KEY", 0, 0},
    {"bulk", O_BULK, F(bulk), "on", "prepare: load through the driver's bulk path (LOAD DATA LOCAL, COPY, ODBC arrays); off = multi-row INSERTs; ODBC only: bcp = SQL Server's bulk copy (Microsoft's driver or FreeTDS), values = prepared INSERTs of up to 1,000 rows of parameters", 0, 0},
    {"mysql-bulk-empty-table", O_BOOL, F(db.mysql_empty_table_bulk), "off", "bulk prepare on MariaDB: unique_checks=0, foreign_key_checks=0 for the load (InnoDB's empty-table bulk insert; slower here, see bench/RESULTS-prepare.md)", 0, 0},
    {"mysql-storage-engine", O_STR, F(mysql_storage_engine), "innodb", "Storage engine, if MySQL is used", 0, 0},
    {"pgsql-variant", O_IGNORED, 0, NULL, "Use this PostgreSQL variant when running with the PostgreSQL driver. The only currently supported variant is 'redshift'. When enabled, create_secondary is automatically disabled, and delete_inserts is set to 0", 0, 0},
    {"thread-stack-size", O_IGNORED, 0, NULL, "size of stack per thread (sysbench's; oltp's workers are no Lua threads: accepted, changes nothing)", 0, 0},
    /* TPC-C */
    {"warehouses", O_INT, F(warehouses), "1", "TPC-C warehouses", 1, 1000000},
    {"terminals", O_INT, F(terminals), "0", "TPC-C terminals (0 = 10 per warehouse with --keying-thinking, else one per connection)", 0, 10000000},
    {"connections", O_INT, F(connections), "0", "TPC-C database connections (0 = --threads)", 0, 100000},
    {"keying-thinking", O_BOOL, F(keying_thinking), "off", "TPC-C keying and think times", 0, 0},
    {"time-scale", O_DOUBLE, F(time_scale), "1", "multiply keying/think times by this factor", 0, 1000},
    {"tpcc-procedures", O_BOOL, F(tpcc_procedures), "off", "TPC-C: prepare creates the five transactions as stored procedures; run calls one per transaction", 0, 0},
    {"tpcc-all-warehouses", O_BOOL, F(tpcc_all_warehouses), "off", "TPC-C: each transaction picks its home warehouse from all of them, not its terminal's", 0, 0},
    {"tpcc-compat", O_STR, F(tpcc_compat), "spec", "TPC-C access pattern {spec,hammerdb}: hammerdb draws items and customers uniformly, keeps the load's name constant, rolls back 1 in 99 (1 in 100 on T-SQL), writes as HammerDB's TPROC-C does and loads 50 % bad credit", 0, 0},
    {"tpcc-load-batch", O_INT, F(tpcc_load_batch), "1000", "TPC-C prepare with --bulk=off: rows per INSERT (1 = single-row INSERTs, 1,000 to a transaction, like tpcc-mysql)", 1, 100000},
    /* database */
    {"db-driver", O_STR, F(db_driver), "mysql", "database driver", 0, 0},
    {"mysql-host", O_STR, F(db.host), "localhost", "MySQL server host", 0, 0},
    {"mysql-port", O_INT, F(db.port), "3306", "MySQL server port", 1, 65535},
    {"mysql-socket", O_STR, F(db.socket), NULL, "MySQL unix socket", 0, 0},
    {"mysql-user", O_STR, F(db.user), "sbtest", "MySQL user", 0, 0},
    {"mysql-password", O_STR, F(db.password), NULL, "MySQL password (or environment OLTP_MYSQL_PASSWORD)", 0, 0},
    {"mysql-db", O_STR, F(db.database), "sbtest", "MySQL database", 0, 0},
    {"mysql-ignore-errors", O_STR, F(ignore_errors_text), "1213,1020,1205", "server errors that roll back and retry the transaction, or \"all\"", 0, 0},
    {"connect-timeout", O_INT, F(db.connect_timeout_s), "10", "seconds to wait for a connection", 1, 3600},
    {"reconnect-timeout", O_DOUBLE, F(reconnect_timeout_s), "10", "seconds a lost connection may stay lost before oltp ends the run with exit status 3 (0 = retry forever)", 0, BIG},
    {"db-ps-mode", O_PSMODE, F(db.ps_mode), PS_AUTO, "prepared statements usage mode {auto, disable}: disable sends each statement as text with its values inlined (MySQL's text protocol, PostgreSQL's simple query protocol), as sysbench does", 0, 0},
    {"mysql-dry-run", O_BOOL, F(db.dry_run), "off", "dry run: contact no server, every MySQL operation succeeds at once without being executed (sysbench's)", 0, 0},
    {"pipeline", O_BOOL, F(db.pipeline), "off", "run: send a transaction's independent statements without waiting for each answer (libpq's pipeline mode; --db-driver=pgsql only; a different client timing from sysbench's)", 0, 0},
    {"pgsql-host", O_STR, F(pgsql_host), "localhost", "PostgreSQL server host (or unix socket directory)", 0, 0},
    {"pgsql-port", O_INT, F(pgsql_port), "5432", "PostgreSQL server port", 1, 65535},
    {"pgsql-user", O_STR, F(pgsql_user), "sbtest", "PostgreSQL user", 0, 0},
    {"pgsql-password", O_STR, F(pgsql_password), NULL, "PostgreSQL password (or environment OLTP_PGSQL_PASSWORD)", 0, 0},
    {"pgsql-db", O_STR, F(pgsql_db), "sbtest", "PostgreSQL database", 0, 0},
    {"odbc-dsn", O_STR, F(odbc_dsn), NULL, "ODBC data source name (odbc.ini)", 0, 0},
    {"odbc-connect", O_STR, F(odbc_connect), NULL, "ODBC connection string, e.g. 'Driver=FreeTDS;Server=127.0.0.1;Port=1433;Database=sbtest'", 0, 0},
    {"odbc-user", O_STR, F(odbc_user), NULL, "ODBC user", 0, 0},
    {"odbc-password", O_STR, F(odbc_password), NULL, "ODBC password (or environment OLTP_ODBC_PASSWORD)", 0, 0},
    {"odbc-dialect", O_STR, F(odbc_dialect), NULL, "SQL dialect behind ODBC {mssql,mysql,pgsql} (default: from the server's DBMS name)", 0, 0},
};

#define NDEFS (sizeof(defs) / sizeof(defs[0]))

static const opt_def *find_def(const char *name, size_t len)
{
    for (size_t i = 0; i < NDEFS; i++)
        if (strlen(defs[i].name) == len && !strncmp(defs[i].name, name, len))
            return &defs[i];
    return NULL;
}

static int parse_bool(const char *v, bool *out)
{
    if (!strcmp(v, "on") || !strcmp(v, "true") || !strcmp(v, "1") || !strcmp(v, "yes"))
        *out = true;
    else if (!strcmp(v, "off") || !strcmp(v, "false") || !strcmp(v, "0") || !strcmp(v, "no"))
        *out = false;
    else
        return -1;
    return 0;
}

static int parse_num(const char *v, double *out)
{
    char *end;
    errno = 0;
    *out = strtod(v, &end);
    return (errno || end == v || *end || !isfinite(*out)) ? -1 : 0;
}

static int set_value(oltp_opts *o, const opt_def *d, const char *v, FILE *err)
{
    char *base = (char *)o;
    double n;

    switch (d->type) {
    case O_IGNORED:
        return 0;
    case O_STR:
        *(const char **)(base + d->off) = v;
        return 0;
    case O_BOOL:
        if (parse_bool(v, (bool *)(base + d->off)) < 0)
            goto bad;
        return 0;
    case O_BULK:
        o->db.odbc_bulk = !strcmp(v, bulk_names[DB_ODBC_BCP]) ? DB_ODBC_BCP
                        : !strcmp(v, bulk_names[DB_ODBC_VALUES]) ? DB_ODBC_VALUES : DB_ODBC_ARRAYS;
        if (o->db.odbc_bulk != DB_ODBC_ARRAYS)
            o->bulk = true;
        else if (parse_bool(v, &o->bulk) < 0) {
            fprintf(err, "%s--bulk=%s: expected on, off, bcp or values\n", opts_msg_prefix(o), v);
            return -1;
        }
        return 0;
    case O_PSMODE:
        for (size_t m = 0; m < sizeof ps_mode_names / sizeof ps_mode_names[0]; m++)
            if (!strcmp(v, ps_mode_names[m])) {
                o->db.ps_mode = (db_ps_mode)m;
                return 0;
            }
        fprintf(err, "%s--db-ps-mode=%s: expected " PS_AUTO " or " PS_DISABLE "\n", opts_msg_prefix(o), v);
        return -1;
    case O_RANDTYPE:
        if (rand_type_parse(v, &o->rnd.type) < 0) {
            fprintf(err, "%s--rand-type=%s: expected one of uniform, gaussian, special, pareto, zipfian\n", opts_msg_prefix(o), v);
            return -1;
        }
        return 0;
    case O_PCT: {
        char buf[256], *tok, *save;

        /* strtok_r would skip an empty one: "50,,99" is no list */
        if (strstr(v, ",,") || v[0] == ',' || (v[0] && v[strlen(v) - 1] == ',')) {
            fprintf(err, "oltp: --percentile=%s: an empty item in the list (expected up to %d "
                    "comma-separated numbers in (0, 100])\n", v, OLTP_MAX_PERCENTILES);
            return -1;
        }
        snprintf(buf, sizeof buf, "%s", v);
        o->npercentiles = 0;
        if (parse_num(v, &n) == 0 && n == 0)
            return 0;           /* sysbench's "no percentile" */
        for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
            if (parse_num(tok, &n) < 0 || n <= 0 || n > 100 ||
                o->npercentiles == OLTP_MAX_PERCENTILES) {
                fprintf(err, "%s--percentile=%s: expected up to %d comma-separated numbers in (0, 100]\n", opts_msg_prefix(o),
                        v, OLTP_MAX_PERCENTILES);
                return -1;
            }
            o->percentiles[o->npercentiles++] = n;
        }
        if (!o->npercentiles)
            goto bad;
        return 0;
    }
    case O_INT: case O_INT64: case O_DOUBLE:
        if (parse_num(v, &n) < 0)
            goto bad;
        if (n < d->min || n > d->max) {
            fprintf(err, "%s--%s=%s: out of range [%g, %g]\n", opts_msg_prefix(o), d->name, v, d->min, d->max);
            return -1;
        }
        if (d->type != O_DOUBLE && n != floor(n))
            goto bad;
        if (d->type == O_INT)
            *(int *)(base + d->off) = (int)n;
        else if (d->type == O_INT64)
            *(int64_t *)(base + d->off) = (int64_t)n;
        else
            *(double *)(base + d->off) = n;
        return 0;
    }
bad:
    fprintf(err, "%s--%s=%s: invalid value (%s)\n", opts_msg_prefix(o), d->name, v,
            d->type == O_BOOL ? "expected on or off" :
            d->type == O_DOUBLE ? "expected a number" : "expected a whole number");
    return -1;
}

static int parse_ignore_errors(oltp_opts *o, FILE *err)
{
    char buf[512], *tok, *save;
    const char *v = o->ignore_errors_text;

    o->db.n_ignore_errors = 0;
    o->db.ignore_all = false;
    if (!strcmp(v, "all")) {
        o->db.ignore_all = true;
        return 0;
    }
    if (!strcmp(v, "none") || !*v)
        return 0;
    snprintf(buf, sizeof buf, "%s", v);
    for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        char *end;
        long code = strtol(tok, &end, 10);
        if (*end || end == tok || code <= 0 || o->db.n_ignore_errors == 32) {
            fprintf(err, "%s--mysql-ignore-errors=%s: expected \"all\", \"none\" or up to 32 error numbers\n",
                    opts_msg_prefix(o), v);
            return -1;
        }
        o->db.ignore_errors[o->db.n_ignore_errors++] = (int)code;
    }
    return 0;
}

/* --report-checkpoints=N,N,...: seconds since the start, ascending,
 * into o->checkpoints. 0, or -1 after printing why. */
static int parse_checkpoints(oltp_opts *o, FILE *err)
{
    char buf[1024], *tok, *save;
    const char *v = o->report_checkpoints_text;

    o->ncheckpoints = 0;
    if (!v || !*v)
        return 0;
    snprintf(buf, sizeof buf, "%s", v);
    for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        double n;
        if (parse_num(tok, &n) < 0 || n <= 0 || n > BIG || o->ncheckpoints == OLTP_MAX_CHECKPOINTS
            || (o->ncheckpoints && n <= o->checkpoints[o->ncheckpoints - 1])) {
            fprintf(err, "%s--report-checkpoints=%s: expected up to %d ascending numbers of seconds "
                    "above 0, comma-separated\n", opts_msg_prefix(o), v, OLTP_MAX_CHECKPOINTS);
            return -1;
        }
        o->checkpoints[o->ncheckpoints++] = n;
    }
    return 0;
}

/* Fill o->db from the --pgsql-* or --odbc-* options when --db-driver
 * names those drivers (the --mysql-* options write o->db directly). */
static int driver_options(oltp_opts *o, FILE *err)
{
    db_dialect d;

    if (!strcmp(o->db_driver, "pgsql")) {
        o->db.host = o->pgsql_host;
        o->db.port = o->pgsql_port;
        o->db.socket = NULL;
        o->db.user = o->pgsql_user;
        o->db.database = o->pgsql_db;
        o->db.password = o->pgsql_password ? o->pgsql_password : getenv("OLTP_PGSQL_PASSWORD");
    } else if (!strcmp(o->db_driver, "odbc")) {
        if (!o->odbc_dsn == !o->odbc_connect) {
            fprintf(err, "%s--db-driver=odbc needs one of --odbc-dsn=NAME or --odbc-connect='Driver=...;...'\n", opts_msg_prefix(o));
            return -1;
        }
        if (o->odbc_dialect && dialect_parse(o->odbc_dialect, &d) < 0) {
            fprintf(err, "%s--odbc-dialect=%s: expected mssql, mysql or pgsql\n", opts_msg_prefix(o), o->odbc_dialect);
            return -1;
        }
        o->db.dsn = o->odbc_dsn;
        o->db.conn_str = o->odbc_connect;
        o->db.host = o->db.socket = o->db.database = NULL;
        o->db.user = o->odbc_user;
        o->db.password = o->odbc_password ? o->odbc_password : getenv("OLTP_ODBC_PASSWORD");
    }
    return 0;
}

/* --db-ps-mode=disable with what cannot send text: 0, or -1 after saying why. */
static int ps_mode_check(const oltp_opts *o, FILE *err)
{
    if (o->db.ps_mode != DB_PS_DISABLE)
        return 0;
    if (o->db.pipeline) {
        fprintf(err, "%s--db-ps-mode=" PS_DISABLE " and --pipeline=on: the simple query protocol "
                "cannot be pipelined (libpq); choose one\n", opts_msg_prefix(o));
        return -1;
    }
    if (!strcmp(o->db_driver, "odbc")) {
        fprintf(err, "%s--db-ps-mode=" PS_DISABLE " is not available with --db-driver=odbc: only the "
                "mysql and pgsql drivers send statements as text\n", opts_msg_prefix(o));
        return -1;
    }
    return 0;
}

bool opts_notice(const oltp_opts *o)
{
    return o->verbosity >= 3;
}

/* What a message starts with: sysbench's "FATAL: " or "oltp: ". */
const char *opts_msg_prefix(const oltp_opts *o)
{
    return o->sysbench_personality ? "FATAL: " : "oltp: ";
}

FILE *opts_msg_file(const oltp_opts *o)
{
    return o->sysbench_personality ? stdout : stderr;
}

void opts_usage(FILE *out, const oltp_opts *o)
{
    if (o->sysbench_personality)
        fprintf(out,
                "Usage:\n  sysbench [options]... [testname] [command]\n\n"
                "This is oltp (drivebench %s) run as sysbench: sysbench 1.0.20's OLTP tests, built in (no Lua).\n"
                "A test is named as sysbench names it: oltp_read_write, or a path to its script\n"
                "(/usr/share/sysbench/oltp_read_write.lua).\n\n"
                "Commands: prepare prewarm run cleanup check help\n\n"
                "Options:\n", DRIVEBENCH_VERSION);
    else
        fprintf(out,
                "Usage: oltp [options] WORKLOAD prepare|prewarm|run|cleanup|check|help\n"
                "       oltp [driver options] ping   (exit 0 answers, 3 no connection, 4 login refused,\n"
                "                                     5 SELECT 1 failed; bounded by --connect-timeout)\n\n"
                "A sysbench-compatible OLTP and TPC-C load generator (drivebench %s).\n\n"
                "Options:\n", DRIVEBENCH_VERSION);
    /* the drivers and workloads follow, printed by main */
    for (size_t i = 0; i < NDEFS; i++) {
        char left[64];
        snprintf(left, sizeof left, "--%s=%s", defs[i].name,
                 defs[i].type == O_BOOL ? "on|off" : defs[i].type == O_BULK ? "on|off|" BULK_BCP "|" BULK_VALUES
                 : defs[i].type == O_PSMODE ? PS_AUTO "|" PS_DISABLE
                 : defs[i].type == O_STR || defs[i].type == O_IGNORED ? "STRING" : "N");
        fprintf(out, "  %-32s %s", left, defs[i].help);
        if (defs[i].def)
            fprintf(out, " [%s]", defs[i].def);
        fputc('\n', out);
    }
}

/* The options of sysbench's OLTP scripts, in the order its `help` lists
 * them (by name). */
static const char *const script_opts[] = {
    "auto-inc", "create-secondary", "delete-inserts", "distinct-ranges", "index-updates",
    "mysql-storage-engine", "non-index-updates", "order-ranges", "pgsql-variant",
    "point-selects", "range-selects", "range-size", "secondary", "simple-ranges",
    "skip-trx", "sum-ranges", "table-size", "tables",
};
#define NSCRIPT_OPTS (sizeof script_opts / sizeof script_opts[0])

void opts_script_help(FILE *out, const char *title)
{
    char left[NSCRIPT_OPTS][64];
    int width = 0;

    for (size_t i = 0; i < NSCRIPT_OPTS; i++) {
        const opt_def *d = find_def(script_opts[i], strlen(script_opts[i]));
        int n = snprintf(left[i], sizeof left[i], "--%s%s", d->name,
                         d->type == O_BOOL ? "[=on|off]" : d->type == O_STR || d->type == O_IGNORED ? "=STRING" : "=N");
        for (char *c = left[i]; *c; c++)
            if (*c == '-' && c > left[i] + 1)
                *c = '_';                   /* sysbench spells them table_size */
        if (n > width)
            width = n;
    }
    fprintf(out, "%s options:\n", title);
    for (size_t i = 0; i < NSCRIPT_OPTS; i++) {
        const opt_def *d = find_def(script_opts[i], strlen(script_opts[i]));
        fprintf(out, "  %-*s %s", width, left[i], d->help);
        if (d->def)
            fprintf(out, " [%s]", d->def);
        fputc('\n', out);
    }
    fputc('\n', out);
}

/* sysbench's deprecated spellings, still in many scripts */
static const struct { const char *alias, *name; } aliases[] = {
    { "num-threads", "threads" }, { "max-requests", "events" },
    { "max-time", "time" }, { "tx-rate", "rate" },
};

/* One long option (a is "--name[=value]"): 0, or -1 after one message. */
static int parse_long(oltp_opts *o, const char *a, FILE *err)
{
    const char *name = a + 2, *eq = strchr(name, '=');
    size_t len = eq ? (size_t)(eq - name) : strlen(name);
    char norm[64];
    const opt_def *d = NULL;

    /* accept both --table-size and --table_size */
    if (len < sizeof norm) {
        for (size_t k = 0; k < len; k++)
            norm[k] = name[k] == '_' ? '-' : name[k];
        norm[len] = 0;
        d = find_def(norm, len);
        for (size_t k = 0; !d && k < sizeof aliases / sizeof aliases[0]; k++)
            if (!strcmp(norm, aliases[k].alias))
                d = find_def(aliases[k].name, strlen(aliases[k].name));
    }
    if (!d) {
        if (o->sysbench_personality)
            fprintf(err, "invalid option: %s\n", a);
        else
            fprintf(err, "oltp: unknown option '--%.*s' (see oltp --help)\n", (int)len, name);
        return -1;
    }
    if (!eq && d->type != O_BOOL && d->type != O_BULK) {
        fprintf(err, "%soption '--%s' needs a value: --%s=VALUE\n", opts_msg_prefix(o), d->name, d->name);
        return -1;
    }
    return set_value(o, d, eq ? eq + 1 : "on", err);
}

/* --config-file=FILE, sysbench's: an option a line, NAME=VALUE without
 * the dashes; blank lines and lines starting with # are skipped. Each is
 * kept as a "--NAME=VALUE" string for the life of the process (the
 * options point into them). 0, or -1 after one message. */
static char **config_opts;
static size_t nconfig_opts;

static int parse_config_file(oltp_opts *o, const char *path, FILE *err)
{
    FILE *f = fopen(path, "r");
    char *line = NULL, *opt, **grown;
    size_t cap = 0;
    ssize_t n;
    int rc = 0;

    if (!f) {
        fprintf(err, "%s--config-file=%s: %s\n", opts_msg_prefix(o), path, strerror(errno));
        return -1;
    }
    while (rc == 0 && (n = getline(&line, &cap, f)) >= 0) {
        char *b = line, *e = line + n;
        while (b < e && (*b == ' ' || *b == '\t'))
            b++;
        while (e > b && (e[-1] == '\n' || e[-1] == '\r' || e[-1] == ' ' || e[-1] == '\t'))
            e--;
        if (b == e || *b == '#')
            continue;
        grown = realloc(config_opts, (nconfig_opts + 1) * sizeof *config_opts);
        if (!grown || asprintf(&opt, "--%.*s", (int)(e - b), b) < 0) {
            if (grown)
                config_opts = grown;
            fprintf(err, "%sout of memory\n", opts_msg_prefix(o));
            rc = -1;
            break;
        }
        config_opts = grown;
        config_opts[nconfig_opts++] = opt;
        rc = parse_long(o, opt, err);
    }
    free(line);
    fclose(f);
    return rc;
}

static const char *const commands[] = { "prepare", "prewarm", "run", "cleanup", "check", "help" };

/* The positional arguments: WORKLOAD COMMAND, or `ping` alone. */
static int parse_positional(oltp_opts *o, const char *const *pos, int npos, FILE *err)
{
    if (npos == 1 && !strcmp(pos[0], "ping")) {
        o->command = pos[0];        /* `oltp [driver options] ping`: no workload */
        return 0;
    }
    if (npos < 2) {
        if (o->sysbench_personality && npos)
            fprintf(err, "FATAL: Command is required. Supported commands: prepare, prewarm, run, cleanup, help\n");
        else if (o->sysbench_personality)
            fprintf(err, "FATAL: no test given (usage: sysbench [options]... testname command; see sysbench --help)\n");
        else
            fprintf(err, "oltp: %s (usage: oltp [options] WORKLOAD prepare|run|cleanup|check; see oltp --help)\n",
                    npos ? "missing command" : "missing workload and command");
        return -1;
    }
    o->workload = pos[0];
    o->command = pos[1];
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (!strcmp(o->command, commands[i]))
            return 0;
    if (o->sysbench_personality)
        fprintf(err, "Unknown command: %s\n", o->command);
    else
        fprintf(err, "oltp: unknown command '%s': expected prepare, prewarm, run, cleanup, check or help\n",
                o->command);
    return -1;
}

int opts_parse(oltp_opts *o, int argc, char **argv, FILE *err)
{
    const char *pos[3], *test = NULL;
    const char *prog = argc > 0 && argv[0] ? strrchr(argv[0], '/') : NULL;
    int npos = 0;

    memset(o, 0, sizeof(*o));
    prog = prog ? prog + 1 : argc > 0 && argv[0] ? argv[0] : "oltp";
    o->sysbench_personality = !strcmp(prog, "sysbench");
    for (size_t i = 0; i < NDEFS; i++)
        if (defs[i].def && set_value(o, &defs[i], defs[i].def, err) < 0)
            return -1;
    /* sysbench's default prepare: its INSERT batches (and so its
     * AUTO_INCREMENT), not oltp's bulk load */
    if (o->sysbench_personality)
        o->bulk = false;

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            opts_usage(stdout, o);
            return 1;
        }
        if (!strcmp(a, "--version")) {
            if (o->sysbench_personality)
                printf("%s\n", OPTS_SYSBENCH_BANNER);
            else
                printf("oltp (drivebench) %s\n", DRIVEBENCH_VERSION);
            return 1;
        }
        if (!strncmp(a, "--config-file=", 14)) {
            if (parse_config_file(o, a + 14, err) < 0)
                return -1;
            continue;
        }
        if (!strncmp(a, "--test=", 7)) {
            /* sysbench 0.5's way to name the test, still taken by 1.0 */
            if (o->sysbench_personality)
                fprintf(stderr, "WARNING: the --test option is deprecated. You can pass a script name "
                        "or path on the command line without any options.\n");
            test = a + 7;
            continue;
        }
        if (!strncmp(a, "--", 2)) {
            if (parse_long(o, a, err) < 0)
                return -1;
            continue;
        }
        if (npos == 2) {
            if (o->sysbench_personality)
                fprintf(err, "FATAL: unexpected argument '%s' (usage: sysbench [options]... testname command)\n", a);
            else
                fprintf(err, "oltp: unexpected argument '%s' (usage: oltp [options] WORKLOAD COMMAND)\n", a);
            return -1;
        }
        pos[npos++] = a;
    }
    if (test && npos < 2) {
        memmove(pos + 1, pos, (size_t)npos * sizeof pos[0]);
        pos[0] = test;
        npos++;
    }
    if (parse_positional(o, pos, npos, err) < 0)
        return -1;
    if (ps_mode_check(o, err) < 0 || driver_options(o, err) < 0)
        return -1;
    if (!o->db.password)
        o->db.password = getenv("OLTP_MYSQL_PASSWORD");
    if (!o->db.password)
        o->db.password = "";
    if (parse_ignore_errors(o, err) < 0 || parse_checkpoints(o, err) < 0)
        return -1;
    if (o->histogram && !o->npercentiles) {
        fprintf(err, "%s--histogram cannot be used with --percentile=0\n", opts_msg_prefix(o));
        return -1;
    }
    if (rand_cfg_finish(&o->rnd) < 0) {
        fprintf(err, "%srandom distribution parameters out of range\n", opts_msg_prefix(o));
        return -1;
    }
    if (o->time_s == 0 && o->events == 0 && !strcmp(o->command, "run")) {
        fprintf(err, "%s--time=0 and --events=0: the run would never end; set one of them\n", opts_msg_prefix(o));
        return -1;
    }
    if (o->time_s > 0 && o->warmup_s >= o->time_s) {
        fprintf(err, "%s--warmup-time=%g must be shorter than --time=%g\n", opts_msg_prefix(o), o->warmup_s, o->time_s);
        return -1;
    }
    return 0;
}

json_object *opts_to_json(const oltp_opts *o)
{
    json_object *j = json_object_new_object();
    const char *base = (const char *)o;

    for (size_t i = 0; i < NDEFS; i++) {
        const opt_def *d = &defs[i];
        char key[64];
        json_object *v = NULL;
        size_t k;
        if (strstr(d->name, "password") ||
            (!strcmp(d->name, "odbc-connect") && o->odbc_connect && strcasestr(o->odbc_connect, "PWD=")))
            continue;                       /* never written to a file */
        for (k = 0; d->name[k] && k < sizeof key - 1; k++)
            key[k] = d->name[k] == '-' ? '_' : d->name[k];
        key[k] = 0;
        if (d->type == O_IGNORED)
            continue;
        switch (d->type) {
        case O_IGNORED: break;
        case O_INT:    v = json_object_new_int(*(const int *)(base + d->off)); break;
        case O_INT64:  v = json_object_new_int64(*(const int64_t *)(base + d->off)); break;
        case O_DOUBLE: v = json_object_new_double(*(const double *)(base + d->off)); break;
        case O_BOOL:   v = json_object_new_boolean(*(const bool *)(base + d->off)); break;
        case O_STR: {
            const char *s = *(const char *const *)(base + d->off);
            v = s ? json_object_new_string(s) : NULL;
            break;
        }
        case O_RANDTYPE: v = json_object_new_string(rand_type_name(o->rnd.type)); break;
        case O_BULK:
            v = json_object_new_string(opts_bulk_name(o));
            break;
        case O_PSMODE:
            v = json_object_new_string(ps_mode_names[o->db.ps_mode]);
            break;
        case O_PCT:
            v = json_object_new_array();
            for (int p = 0; p < o->npercentiles; p++)
                json_object_array_add(v, json_object_new_double(o->percentiles[p]));
            strcpy(key, "percentiles");
            break;
        }
        json_object_object_add(j, key, v);
    }
    return j;
}
