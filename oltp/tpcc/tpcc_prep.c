/*
 * tpcc_prep.c — what `tpcc prepare` does around the load so that the
 * database measured is the one a lab would measure: the data and log
 * files pre-sized before it (SQL Server), the primary keys added after it
 * (--tpcc-keys-after-load), the optimizer's statistics updated at its end
 * (--tpcc-statistics). tpcc_schema.c calls these; each prints what it
 * does, and a server that lacks the SQL Server feature (Babelfish) is
 * named in one line with the documentation the step follows.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tpcc/tpcc.h"

/* SQL Server's documentation each step follows, named in the messages */
#define DOC_MODIFY_FILE "SQL Server's \"ALTER DATABASE (Transact-SQL) File and Filegroup Options\", MODIFY FILE"
#define DOC_STATISTICS  "SQL Server's \"UPDATE STATISTICS (Transact-SQL)\""

static int prep_sql(db_conn *c, const char *sql, wl_err *err)
{
    if (db_query(c, sql) != DB_DONE)
        return wl_err_set(err, "%.300s: error %d: %s", sql, c->err.code, c->err.msg);
    while (db_next_row(c) > 0)      /* ANALYZE TABLE's rows, read and dropped */
        ;
    return 0;
}

/* Babelfish names itself in the message of what it refuses: "'X' is not
 * currently supported in Babelfish". */
static bool babelfish_refused(const db_conn *c)
{
    return strstr(c->err.msg, "not currently supported in Babelfish") != NULL;
}

/* --- pre-sized files (T-SQL) ------------------------------------------------- */

int tpcc_prep_check(const oltp_opts *o, wl_err *err)
{
    if ((o->tpcc_data_size_mb || o->tpcc_log_size_mb || o->tpcc_data_growth_mb || o->tpcc_log_growth_mb) &&
        o->db.dialect != DB_DIALECT_MSSQL)
        return wl_err_set(err, "--tpcc-data-size, --tpcc-log-size, --tpcc-data-growth and --tpcc-log-growth "
                          "size SQL Server's database files (ALTER DATABASE ... MODIFY FILE): this server speaks %s",
                          dialect_get(o->db.dialect)->name);
    return 0;
}

typedef struct db_file {
    char    name[129];
    int     type;           /* 0 ROWS, 1 LOG */
    int64_t pages;          /* 8 KiB pages */
} db_file;

#define MAX_FILES 64

/* One file's MODIFY FILE: SIZE when size_mb is larger than the file
 * (SQL Server refuses a size not larger, error 5039), FILEGROWTH when
 * growth_mb is set. */
static int modify_file(db_conn *c, const char *db, const db_file *f, int64_t size_mb, int growth_mb,
                       wl_err *err)
{
    char sql[512], qdb[300], qname[300], size[48] = "", growth[48] = "";
    int64_t have_mb = f->pages * 8192 / 1048576;

    if (size_mb > have_mb)
        snprintf(size, sizeof size, ", SIZE = %" PRId64 "MB", size_mb);
    else if (size_mb > 0)
        printf("The %s file %s is %" PRId64 " MiB already, not less than %" PRId64 " MiB: its size is kept\n",
               f->type ? "log" : "data", f->name, have_mb, size_mb);
    if (growth_mb > 0)
        snprintf(growth, sizeof growth, ", FILEGROWTH = %dMB", growth_mb);
    if (!size[0] && !growth[0])
        return 0;
    /* names from the server's own catalog, quoted as T-SQL quotes them */
    snprintf(sql, sizeof sql, "ALTER DATABASE %s MODIFY FILE (NAME = %s%s%s)",
             dialect_quote(DB_DIALECT_MSSQL, db, qdb, sizeof qdb),
             dialect_quote(DB_DIALECT_MSSQL, f->name, qname, sizeof qname), size, growth);
    printf("Sizing: %s\n", sql);
    return prep_sql(c, sql, err);
}

int tpcc_prep_presize(const wl_run *run, db_conn *c, wl_err *err)
{
    const oltp_opts *o = run->o;
    db_file files[MAX_FILES];
    char db[129] = "";
    int n = 0, ndata = 0, rc = 0;

    if (!o->tpcc_data_size_mb && !o->tpcc_log_size_mb && !o->tpcc_data_growth_mb && !o->tpcc_log_growth_mb)
        return 0;
    if (db_query(c, "SELECT DB_NAME(), name, type, CAST(size AS BIGINT) FROM sys.database_files "
                 "WHERE type IN (0, 1) ORDER BY file_id") != DB_DONE)
        return wl_err_set(err, "reading the database's files (sys.database_files): error %d: %s",
                          c->err.code, c->err.msg);
    while (db_next_row(c) > 0) {
        const char *d = db_col(c, 0, NULL), *name = db_col(c, 1, NULL);
        if (n == MAX_FILES || !d || !name || strchr(d, ']') || strchr(name, ']'))
            continue;       /* a name quoting would have to double: none of SQL Server's defaults */
        snprintf(db, sizeof db, "%s", d);
        snprintf(files[n].name, sizeof files[n].name, "%s", name);
        files[n].type = (int)db_col_int(c, 2);
        files[n].pages = db_col_int(c, 3);
        ndata += files[n].type == 0;
        n++;
    }
    if (n == 0) {
        /* Babelfish: sys.database_files has no row, ALTER DATABASE is refused */
        printf("Not sizing the database's files: the server lists none (sys.database_files is empty, as on "
               "Babelfish, which has no ALTER DATABASE ... MODIFY FILE); on SQL Server this step follows "
               DOC_MODIFY_FILE "\n");
        return 0;
    }
    for (int i = 0; i < n && rc == 0; i++) {
        bool data = files[i].type == 0;
        /* --tpcc-data-size is the data's whole size: shared by its files */
        int64_t size = data ? (o->tpcc_data_size_mb + ndata - 1) / ndata : o->tpcc_log_size_mb;
        rc = modify_file(c, db, &files[i], size, data ? o->tpcc_data_growth_mb : o->tpcc_log_growth_mb, err);
    }
    return rc;
}

/* --- primary keys after the load ------------------------------------------------ */

int tpcc_prep_keys(const wl_run *run, db_conn *c, const tpcc_table_ref *tables, int n, wl_err *err)
{
    db_dialect d = run->o->db.dialect;

    for (int t = 0; t < n; t++) {
        const char *name = tables[t].name, *key = tables[t].key;
        char sql[256];
        if (!key)
            continue;       /* history has none */
        /* the name each server gives a key declared in CREATE TABLE:
         * PostgreSQL's t_pkey; SQL Server's would be generated, so it is
         * named; MariaDB's is always PRIMARY */
        if (d == DB_DIALECT_MYSQL)
            snprintf(sql, sizeof sql, "ALTER TABLE %s ADD %s", name, key);
        else
            snprintf(sql, sizeof sql, "ALTER TABLE %s ADD CONSTRAINT %s_pkey %.11s%s%s", name, name, key,
                     d == DB_DIALECT_MSSQL ? " CLUSTERED" : "", key + 11);
        printf("Adding the primary key: %s\n", sql);
        if (prep_sql(c, sql, err) < 0)
            return -1;
    }
    return 0;
}

/* --- statistics ------------------------------------------------------------------- */

int tpcc_prep_statistics(const wl_run *run, db_conn *c, const tpcc_table_ref *tables, int ntables,
                         wl_err *err)
{
    db_dialect d = run->o->db.dialect;
    char sql[512];
    size_t n;

    if (d == DB_DIALECT_MSSQL) {
        for (int t = 0; t < ntables; t++) {
            snprintf(sql, sizeof sql, "UPDATE STATISTICS %s", tables[t].name);
            printf("Updating statistics: %s\n", sql);
            if (db_query(c, sql) == DB_DONE)
                continue;
            if (!babelfish_refused(c))
                return wl_err_set(err, "%s: error %d: %s", sql, c->err.code, c->err.msg);
            /* sp_updatestats runs UPDATE STATISTICS over every table of the
             * database on SQL Server; Babelfish runs it as ANALYZE */
            printf("Babelfish refuses UPDATE STATISTICS (%s; " DOC_STATISTICS "): "
                   "EXEC sp_updatestats instead\n", c->err.msg);
            return prep_sql(c, "EXEC sp_updatestats", err);
        }
        return 0;
    }
    n = (size_t)snprintf(sql, sizeof sql, "%s", d == DB_DIALECT_MYSQL ? "ANALYZE TABLE" : "ANALYZE");
    for (int t = 0; t < ntables && n < sizeof sql; t++)
        n += (size_t)snprintf(sql + n, sizeof sql - n, "%s %s", t ? "," : "", tables[t].name);
    printf("Updating statistics: %s\n", sql);
    return prep_sql(c, sql, err);
}
