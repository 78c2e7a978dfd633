/*
 * dialect.c — per-dialect SQL text and error meanings (dialect.h).
 */
#include "drivers/dialect.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

/* T-SQL's sizes on Babelfish, which has no FILEPROPERTY and no
 * sys.dm_db_log_space_usage and whose sys.database_files has no row: the
 * tables, indexes and TOAST of the current database (sys.tables'
 * object_id is the PostgreSQL relation's oid; pg_catalog is on
 * Babelfish's T-SQL search path); its WAL belongs to the whole cluster:
 * no log figure. Never sent to SQL Server, whose data file always has a
 * row and which has both (docs/odbc-sqlserver.md, "Babelfish deviations"). */
static const dialect_size babelfish_data = {
    .sql = "SELECT SUM(pg_total_relation_size(object_id)) FROM sys.tables", .cols = { 0, -1 } };
static const dialect_size babelfish_log = { .sql = NULL, .cols = { -1, -1 } };

static const dialect_def dialect_defs[DB_DIALECT_COUNT] = {
    [DB_DIALECT_MYSQL] = {
        .name = "mysql", .begin = "BEGIN", .commit = "COMMIT", .rollback = "ROLLBACK",
        .autoinc_int = "INTEGER NOT NULL AUTO_INCREMENT",
        .quote_open = '`', .quote_close = '`',
        .sqlstate_table_exists = "42S01", .sqlstate_no_table = "42S02",
        .code_table_exists = 1050, .code_no_table = 1146,
        /* SHOW TABLE STATUS reads what information_schema.tables holds
         * (Data_length, Index_length: columns 6 and 8) without counting a
         * Com_select, once ANALYZE TABLE (a Com_analyze, no Com_select or
         * Com_commit) has recomputed InnoDB's statistics of every table:
         * right after a load they still count a fraction of its pages
         * (62.5 of 176.9 MiB, seen); MariaDB 10.5+ keeps one redo log file of
         * innodb_log_file_size (MySQL and older MariaDB have
         * innodb_log_files_in_group of them: this is one) */
        .size_data = { .sql = "SHOW TABLE STATUS", .cols = { 6, 8 }, .list_tables = "SHOW TABLES",
                       .refresh = "ANALYZE TABLE" },
        .size_log = { .sql = "SHOW VARIABLES LIKE 'innodb_log_file_size'", .cols = { 1, -1 } },
    },
    [DB_DIALECT_PGSQL] = {
        .name = "pgsql", .begin = "BEGIN", .commit = "COMMIT", .rollback = "ROLLBACK",
        .autoinc_int = "SERIAL",
        .quote_open = '"', .quote_close = '"',
        .sqlstate_table_exists = "42P07", .sqlstate_no_table = "42P01",
        /* tables, indexes and catalog; the WAL belongs to the whole cluster
         * (and pg_ls_waldir needs pg_monitor): no log figure */
        .size_data = { .sql = "SELECT pg_database_size(current_database())", .cols = { 0, -1 } },
        .size_log = { .sql = NULL, .cols = { -1, -1 } },
    },
    [DB_DIALECT_MSSQL] = {
        /* no transaction text: T-SQL is sent only through ODBC, whose
         * driver ends transactions itself (db.h, db_trx); a BEGIN
         * TRANSACTION prepared as an RPC fails with error 266 */
        .name = "mssql", .begin = NULL, .commit = NULL, .rollback = NULL,
        .autoinc_int = "INTEGER IDENTITY(1,1) NOT NULL",
        .quote_open = '[', .quote_close = ']',
        .sqlstate_table_exists = "42S01", .sqlstate_no_table = "42S02",
        .code_table_exists = 2714, .code_no_table = 208,
        .values_rows_max = 1000,                /* more: error 10738 */
        /* the space used (8 KiB pages) in the current database's ROWS
         * files (type 0), not their allocated size, which pre-sized or
         * grown files inflate; the log's used bytes (SQL Server 2012+) */
        .size_data = { .sql = "SELECT CAST(FILEPROPERTY(name, 'SpaceUsed') AS BIGINT) * 8192 "
                              "FROM sys.database_files WHERE type = 0",
                       .cols = { 0, -1 }, .fallback = &babelfish_data },
        .size_log = { .sql = "SELECT used_log_space_in_bytes FROM sys.dm_db_log_space_usage",
                      .cols = { 0, -1 }, .fallback = &babelfish_log },
    },
};

const dialect_def *dialect_get(int d)
{
    if (d < 0 || d >= DB_DIALECT_COUNT)
        d = DB_DIALECT_MYSQL;
    return &dialect_defs[d];
}

int dialect_parse(const char *name, db_dialect *out)
{
    static const struct { const char *alias; db_dialect d; } names[] = {
        {"mysql", DB_DIALECT_MYSQL}, {"mariadb", DB_DIALECT_MYSQL},
        {"pgsql", DB_DIALECT_PGSQL}, {"postgresql", DB_DIALECT_PGSQL}, {"postgres", DB_DIALECT_PGSQL},
        {"mssql", DB_DIALECT_MSSQL}, {"sqlserver", DB_DIALECT_MSSQL}, {"tsql", DB_DIALECT_MSSQL},
    };
    for (size_t i = 0; name && i < sizeof(names) / sizeof(names[0]); i++)
        if (!strcasecmp(name, names[i].alias)) {
            *out = names[i].d;
            return 0;
        }
    return -1;
}

int dialect_from_dbms_name(const char *dbms, db_dialect *out)
{
    if (!dbms)
        return -1;
    if (strcasestr(dbms, "SQL Server")) {
        *out = DB_DIALECT_MSSQL;
        return 0;
    }
    if (strcasestr(dbms, "PostgreSQL")) {
        *out = DB_DIALECT_PGSQL;
        return 0;
    }
    if (strcasestr(dbms, "MySQL") || strcasestr(dbms, "MariaDB")) {
        *out = DB_DIALECT_MYSQL;
        return 0;
    }
    return -1;
}

char *dialect_quote(int d, const char *id, char *buf, size_t len)
{
    const dialect_def *def = dialect_get(d);
    snprintf(buf, len, "%c%s%c", def->quote_open, id, def->quote_close);
    return buf;
}

char *dialect_drop_if_exists(int d, dialect_object kind, const char *name, char *buf, size_t len)
{
    const char *what = kind == DIALECT_PROCEDURE ? "PROCEDURE" : "TABLE";
    if (d == DB_DIALECT_MSSQL)
        snprintf(buf, len, "IF OBJECT_ID(N'%s', N'%s') IS NOT NULL DROP %s %s", name,
                 kind == DIALECT_PROCEDURE ? "P" : "U", what, name);
    else
        snprintf(buf, len, "DROP %s IF EXISTS %s", what, name);
    return buf;
}

bool dialect_sqlstate_retry(int d, const char *sqlstate)
{
    if (!sqlstate)
        return false;
    if (!strcmp(sqlstate, "40001") || !strcmp(sqlstate, "40P01"))
        return true;
    return d == DB_DIALECT_PGSQL && !strcmp(sqlstate, "23505");
}

bool dialect_unique_violation(int d, int native, const char *sqlstate)
{
    switch (d) {
    case DB_DIALECT_MSSQL: return native == 2627 || native == 2601;
    case DB_DIALECT_PGSQL: return sqlstate && !strcmp(sqlstate, "23505");
    default:               return false;
    }
}

bool dialect_sqlstate_lost(const char *sqlstate)
{
    if (!sqlstate)
        return false;
    return !strncmp(sqlstate, "08", 2) || !strcmp(sqlstate, "57P01") ||
           !strcmp(sqlstate, "57P02") || !strcmp(sqlstate, "57P03");
}
