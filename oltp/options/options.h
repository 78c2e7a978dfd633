/*
 * options.h — oltp's command line, sysbench-compatible.
 */
#ifndef OLTP_OPTIONS_H
#define OLTP_OPTIONS_H

#include "attributes.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "drivers/db.h"
#include "options/rand.h"
#include "version.h"

#define OLTP_MAX_PERCENTILES 16
#define OLTP_MAX_CHECKPOINTS 64

typedef struct oltp_opts {
    const char *workload;
    const char *command;            /* prepare | run | cleanup | check | ping
                                     * (ping: workload is NULL) */

    /* general */
    int      threads;
    double   time_s;
    int64_t  events;
    double   warmup_s;
    double   report_interval;
    double   rate;
    double   percentiles[OLTP_MAX_PERCENTILES];
    int      npercentiles;          /* 0: --percentile=0, sysbench's "no percentile" */
    bool     histogram;
    const char *report_checkpoints_text;    /* --report-checkpoints as given */
    double   checkpoints[OLTP_MAX_CHECKPOINTS];  /* its seconds since the start, ascending */
    int      ncheckpoints;
    int      event_threads;         /* libuv worker threads (0 = auto: engine_event_threads()) */
    const char *json_path;
    const char *server_settings;    /* `settings`: NAME=VALUE;... the plan states */
    bool     verbose;
    int      verbosity;             /* sysbench's --verbosity 0..5 (default 3) */
    bool     sysbench_personality;  /* run as `sysbench`: sysbench 1.0.20's text, messages and exit statuses */

    /* random numbers */
    rand_cfg rnd;
    uint64_t seed;

    /* sysbench OLTP */
    int      tables;
    int64_t  table_size;
    int      range_size;
    int      point_selects, simple_ranges, sum_ranges, order_ranges,
             distinct_ranges, index_updates, non_index_updates, delete_inserts;
    bool     range_selects, skip_trx, auto_inc, secondary, create_secondary;
    const char *mysql_storage_engine;
    bool     bulk;                  /* prepare through db_bulk_load() */

    /* sysbench's cpu test */
    int      cpu_max_prime;

    /* TPC-C */
    int      warehouses;
    int      terminals;
    int      connections;
    bool     keying_thinking;
    double   time_scale;
    int      tpcc_load_batch;       /* rows per INSERT when loading */
    bool     tpcc_procedures;       /* transactions as stored procedures */
    bool     tpcc_all_warehouses;   /* home warehouse drawn per transaction */
    /* prepare's files, keys and statistics (tpcc/tpcc_prep.c) */
    int      tpcc_data_size_mb;     /* T-SQL: ROWS files pre-sized to this (0 = as they are) */
    int      tpcc_log_size_mb;      /* T-SQL: the LOG file pre-sized to this */
    int      tpcc_data_growth_mb;   /* T-SQL: fixed FILEGROWTH of the ROWS files (0 = as it is) */
    int      tpcc_log_growth_mb;    /* T-SQL: fixed FILEGROWTH of the LOG file */
    bool     tpcc_keys_after_load;  /* primary keys added after the load, not at CREATE TABLE */
    bool     tpcc_statistics;       /* prepare ends by updating the optimizer's statistics */
    const char *tpcc_compat;        /* "spec" or "hammerdb" (wl_tpcc parses it) */

    /* database */
    const char *db_driver;
    db_config   db;
    const char *ignore_errors_text;
    double      reconnect_timeout_s;    /* a lost connection may stay lost this long; 0 = forever */

    /* --pgsql-* and --odbc-*: opts_parse maps those of the chosen
     * --db-driver into db (the --mysql-* options fill db directly) */
    const char *pgsql_host, *pgsql_user, *pgsql_password, *pgsql_db;
    int         pgsql_port;
    const char *odbc_dsn, *odbc_connect, *odbc_user, *odbc_password;
    const char *odbc_dialect;       /* NULL: learnt from SQL_DBMS_NAME (main.c) */
} oltp_opts;

/* The first line the sysbench personality prints (and its --version):
 * it starts as sysbench's does and says what this is. */
#define OPTS_SYSBENCH_BANNER "sysbench 1.0.20-compatible oltp (drivebench " DRIVEBENCH_VERSION ")"

/*
 * Parse argv into *o (defaults first). Returns 0, 1 when --help or
 * --version was handled (exit 0), or -1 after printing one message (exit 2;
 * 1 in the sysbench personality). The personality is argv[0]'s base name
 * `sysbench`: sysbench's messages for bad options ("invalid option: ...",
 * "Unknown command: ..."), "FATAL: " before the others.
 * Values of --mysql-password come from OLTP_MYSQL_PASSWORD when the option
 * is not given (--pgsql-password: OLTP_PGSQL_PASSWORD, --odbc-password:
 * OLTP_ODBC_PASSWORD).
 */
int  opts_parse(oltp_opts *o, int argc, char **argv, FILE *err) DB_MUST_CHECK;
/* --help's text for o's personality (main adds the drivers and workloads). */
void opts_usage(FILE *out, const oltp_opts *o);
/* `oltp --list-options` (hidden, main.c; tests/man/man.sh and the bash
 * completion read it): what the command line accepts, one a line:
 * "command NAME", "option --NAME" (sysbench's old spellings included). */
void opts_list(FILE *out);
/* `WORKLOAD help`: the options of sysbench's OLTP scripts as sysbench
 * lists them, under "TITLE options:". */
void opts_script_help(FILE *out, const char *title);
/* `cpu help`: the cpu test's option, likewise. */
void opts_cpu_help(FILE *out);
/* Whether sysbench's notices are printed (--verbosity 3 and above): the
 * run's header and report, the banner, oltp's own lines. */
bool opts_notice(const oltp_opts *o);
/* What a message starts with: "FATAL: " in the sysbench personality, else
 * "oltp: " (a static string). */
const char *opts_msg_prefix(const oltp_opts *o);
/* Where a command's error messages go: stdout in the sysbench personality
 * (sysbench logs its FATAL lines there: `sysbench ... >/dev/null` is
 * silent), else stderr. */
FILE *opts_msg_file(const oltp_opts *o);
/* The options as a JSON object (new reference). */
struct json_object;
struct json_object *opts_to_json(const oltp_opts *o);

/* --bulk as given: "on", "off", or the ODBC path ("bcp", "values"). */
const char *opts_bulk_name(const oltp_opts *o);

#endif
