/*
 * dialect.h — the SQL dialects oltp's workloads write, and what differs
 * between them.
 *
 * A workload never asks which driver runs it; it asks the dialect
 * (o->db.dialect, resolved by main.c before the workload's setup()):
 * DB_DIALECT_MYSQL through the mysql driver or ODBC to MySQL/MariaDB,
 * DB_DIALECT_PGSQL through the pgsql driver or ODBC to PostgreSQL,
 * DB_DIALECT_MSSQL (T-SQL) through ODBC to SQL Server.
 *
 * Keep per-dialect text in tables indexed by db_dialect (like
 * dialect_defs in dialect.c), so that a new dialect is a new row.
 */
#ifndef OLTP_DIALECT_H
#define OLTP_DIALECT_H

#include "attributes.h"

#include <stdbool.h>
#include <stddef.h>

typedef enum {
    DB_DIALECT_MYSQL = 0,       /* the zero value: a driver that says nothing speaks MySQL */
    DB_DIALECT_PGSQL,
    DB_DIALECT_MSSQL,
    DB_DIALECT_COUNT,
    DB_DIALECT_AUTO = DB_DIALECT_COUNT,  /* driver table only: learnt from the server (ODBC) */
} db_dialect;

/* One figure of a database's size (oltp/dbsize.c): a statement whose
 * rows are read whole, and the columns whose values, summed over every
 * row, are the figure in bytes (NULL values count 0). sql NULL: the
 * dialect cannot tell this figure. fallback: what to read instead when sql
 * returns no row at all or is refused, for a server that speaks the
 * dialect but keeps its files elsewhere (Babelfish's sys.database_files is
 * empty, and it has neither FILEPROPERTY nor sys.dm_db_log_space_usage),
 * or NULL: no row is a figure of 0, a refusal a warning. refresh: a
 * statement that brings the figure's source up to date first, followed by
 * every table of the database (each quoted, comma-separated) as
 * list_tables' first column names them (InnoDB's page counts in
 * information_schema.tables lag a load by seconds until its statistics
 * are recomputed), or NULL. */
#define DIALECT_SIZE_COLS 2
typedef struct dialect_size {
    const char *sql;
    int         cols[DIALECT_SIZE_COLS];    /* -1: unused */
    const struct dialect_size *fallback;
    const char *list_tables, *refresh;
} dialect_size;

typedef struct dialect_def {
    const char *name;           /* "mysql", "pgsql", "mssql" */
    /* statements that open and end a transaction, for drivers without
     * transaction calls of their own (db.h, db_trx); NULL when the dialect
     * is only ever sent through such calls (T-SQL over ODBC) */
    const char *begin;
    const char *commit;
    const char *rollback;
    const char *autoinc_int;    /* column type of a generated integer key */
    char        quote_open, quote_close;   /* identifier quotes */
    /* SQLSTATEs of "table already exists" and "table does not exist" */
    const char *sqlstate_table_exists, *sqlstate_no_table;
    /* native error numbers of the same (0 = none) */
    int         code_table_exists, code_no_table;
    /* the most row constructors one INSERT ... VALUES takes (0: no limit
     * but the statement's size) */
    int         values_rows_max;
    /* the database's size as its server reports it: data (tables and
     * indexes, or the data files) and log (sql NULL: no log of this
     * database's own); statements that move none of the counters the
     * tests compare with the workload's (MariaDB's Com_select) */
    dialect_size size_data, size_log;
} dialect_def;

/* The description of dialect d (d < DB_DIALECT_COUNT). Never NULL. */
const dialect_def *dialect_get(int d);

/* Parse "mysql" | "pgsql" | "mssql" (also "postgresql", "sqlserver",
 * "tsql", "mariadb"). Returns 0, or -1 when the name is unknown. */
int dialect_parse(const char *name, db_dialect *out) DB_MUST_CHECK;

/* The dialect of a DBMS by the name ODBC's SQLGetInfo(SQL_DBMS_NAME)
 * reports ("Microsoft SQL Server", "PostgreSQL", "MySQL", "MariaDB").
 * Returns 0, or -1 when the name is not one oltp knows. */
int dialect_from_dbms_name(const char *dbms, db_dialect *out) DB_MUST_CHECK;

/* Quote identifier `id` for dialect d into buf ("`x`", "\"x\"", "[x]").
 * Returns buf. */
char *dialect_quote(int d, const char *id, char *buf, size_t len);

/* "DROP TABLE IF EXISTS name" (or PROCEDURE) in dialect d into buf; for
 * T-SQL the form SQL Server 2014 takes (IF EXISTS on DROP came with
 * 2016): IF OBJECT_ID(N'name', N'U') IS NOT NULL DROP TABLE name.
 * Returns buf. */
typedef enum { DIALECT_TABLE, DIALECT_PROCEDURE } dialect_object;
char *dialect_drop_if_exists(int d, dialect_object kind, const char *name, char *buf, size_t len);

/* True when a server error with this SQLSTATE is worth retrying the
 * transaction for: serialization failure 40001, deadlock 40P01, and on
 * PostgreSQL a unique violation 23505 (a concurrent DELETE+INSERT of the
 * same key; sysbench's pgsql driver retries it too). */
bool dialect_sqlstate_retry(int d, const char *sqlstate);

/* Is this error a unique-key violation worth a retry where a statement
 * allows it (db_stmt_def.unique_retry)? SQL Server's 2627 (PRIMARY KEY /
 * UNIQUE constraint) and 2601 (unique index), PostgreSQL's 23505. Not
 * MySQL's 1062: sysbench's mysql driver retries it only when
 * --mysql-ignore-errors names it (InnoDB's DELETE locks the key, so the
 * concurrent INSERT waits instead). */
bool dialect_unique_violation(int d, int native, const char *sqlstate);

/* True when the SQLSTATE says the session is gone: class 08 (connection
 * exception), 57P01..57P03 (server shut down or not accepting). */
bool dialect_sqlstate_lost(const char *sqlstate);

#endif
