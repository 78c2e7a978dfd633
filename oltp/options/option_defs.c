/*
 * option_defs.c — the table of oltp's options (option_defs.h), one row an
 * option, in the order the usage text lists them.
 */
#include "options/option_defs.h"

#include "options/options.h"

#define F(field) offsetof(oltp_opts, field)

const opt_def opts_defs[] = {
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
    {"server-settings", O_STR, F(server_settings), NULL, "settings: the server settings the plan states, NAME=VALUE separated by ';' (SQL Server: applied through sp_configure first), read back beside the engine's own list", 0, 0},
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
    /* sysbench's cpu test (oltp/cpu.h) */
    {"cpu-max-prime", O_INT, F(cpu_max_prime), "10000", "cpu test: each event finds the primes up to N by trial division", 1, 2147483647.0},
    /* TPC-C */
    {"warehouses", O_INT, F(warehouses), "1", "TPC-C warehouses", 1, 1000000},
    {"terminals", O_INT, F(terminals), "0", "TPC-C terminals (0 = 10 per warehouse with --keying-thinking, else one per connection)", 0, 10000000},
    {"connections", O_INT, F(connections), "0", "TPC-C database connections (0 = --threads)", 0, 100000},
    {"keying-thinking", O_BOOL, F(keying_thinking), "off", "TPC-C keying and think times", 0, 0},
    {"time-scale", O_DOUBLE, F(time_scale), "1", "multiply keying/think times by this factor", 0, 1000},
    {"tpcc-procedures", O_BOOL, F(tpcc_procedures), "off", "TPC-C: prepare creates the five transactions as stored procedures; run calls one per transaction", 0, 0},
    {"tpcc-all-warehouses", O_BOOL, F(tpcc_all_warehouses), "off", "TPC-C: each transaction picks its home warehouse from all of them, not its terminal's", 0, 0},
    {"tpcc-load-batch", O_INT, F(tpcc_load_batch), "1000", "TPC-C prepare with --bulk=off: rows per INSERT (1 = single-row INSERTs, 1,000 to a transaction, like tpcc-mysql)", 1, 100000},
    {"tpcc-data-size", O_INT, F(tpcc_data_size_mb), "0", "TPC-C prepare on SQL Server: grow the database's data (ROWS) files to this many MiB in all before the load, ALTER DATABASE ... MODIFY FILE (0 = leave them)", 0, 1e9},
    {"tpcc-log-size", O_INT, F(tpcc_log_size_mb), "0", "TPC-C prepare on SQL Server: grow the log file to this many MiB before the load (0 = leave it)", 0, 1e9},
    {"tpcc-data-growth", O_INT, F(tpcc_data_growth_mb), "0", "TPC-C prepare on SQL Server: the data files' FILEGROWTH, fixed, in MiB (0 = leave it)", 0, 1e9},
    {"tpcc-log-growth", O_INT, F(tpcc_log_growth_mb), "0", "TPC-C prepare on SQL Server: the log file's FILEGROWTH, fixed, in MiB (0 = leave it)", 0, 1e9},
    {"tpcc-keys-after-load", O_BOOL, F(tpcc_keys_after_load), "off", "TPC-C prepare: create the tables without their primary keys and add the keys after the load (sorted builds, full pages), as HammerDB builds its clustered indexes", 0, 0},
    {"tpcc-statistics", O_BOOL, F(tpcc_statistics), "off", "TPC-C prepare: end by updating the optimizer's statistics of the nine tables (ANALYZE TABLE, ANALYZE, UPDATE STATISTICS)", 0, 0},
    {"tpcc-compat", O_STR, F(tpcc_compat), "spec", "TPC-C access pattern {spec,hammerdb}: hammerdb draws items and customers uniformly, keeps the load's name constant, rolls back 1 in 99 (1 in 100 on T-SQL), writes as HammerDB's TPROC-C does and loads 50 % bad credit", 0, 0},
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

const size_t opts_ndefs = sizeof opts_defs / sizeof opts_defs[0];
