/*
 * settings.c — `oltp settings` (see settings.h).
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "atomic_file.h"
#include "drivers/dialect.h"
#include "oltp_exit.h"
#include "results_server.h"
#include "settings.h"

#define MSDOCS "learn.microsoft.com/sql/"

/* One setting of a dialect's fixed list: its name in the document, the
 * statement whose first row's first column is its value, and what the
 * note names when the server cannot tell it. */
typedef struct fixed_setting {
    const char *name, *sql, *doc;
} fixed_setting;

static const fixed_setting mysql_fixed[] = {
    { "innodb_buffer_pool_size", "SELECT @@GLOBAL.innodb_buffer_pool_size", NULL },
    { "innodb_log_file_size", "SELECT @@GLOBAL.innodb_log_file_size", NULL },
    { "innodb_flush_method", "SELECT @@GLOBAL.innodb_flush_method", NULL },
    { "innodb_flush_log_at_trx_commit", "SELECT @@GLOBAL.innodb_flush_log_at_trx_commit", NULL },
    { NULL, NULL, NULL },
};

static const fixed_setting pgsql_fixed[] = {
    { "shared_buffers", "SELECT current_setting('shared_buffers')", NULL },
    { "max_wal_size", "SELECT current_setting('max_wal_size')", NULL },
    { "synchronous_commit", "SELECT current_setting('synchronous_commit')", NULL },
    { "full_page_writes", "SELECT current_setting('full_page_writes')", NULL },
    { NULL, NULL, NULL },
};

static const fixed_setting mssql_fixed[] = {
    { "max server memory (MB)", "SELECT CAST(value_in_use AS bigint) FROM sys.configurations "
      "WHERE name = 'max server memory (MB)'",
      "sys.configurations 'max server memory (MB)', " MSDOCS
      "database-engine/configure-windows/server-memory-server-configuration-options" },
    { "recovery model", "SELECT recovery_model_desc FROM sys.databases WHERE name = DB_NAME()",
      "sys.databases recovery_model_desc, " MSDOCS
      "relational-databases/backup-restore/recovery-models-sql-server" },
    { "read committed snapshot", "SELECT CAST(is_read_committed_snapshot_on AS int) "
      "FROM sys.databases WHERE name = DB_NAME()",
      "sys.databases is_read_committed_snapshot_on, " MSDOCS
      "relational-databases/system-catalog-views/sys-databases-transact-sql" },
    { "target recovery time (s)", "SELECT target_recovery_time_in_seconds FROM sys.databases "
      "WHERE name = DB_NAME()",
      "sys.databases target_recovery_time_in_seconds, " MSDOCS
      "relational-databases/system-catalog-views/sys-databases-transact-sql" },
    { "instant file initialization", "SELECT TOP 1 instant_file_initialization_enabled "
      "FROM sys.dm_server_services WHERE servicename LIKE 'SQL Server (%'",
      "sys.dm_server_services instant_file_initialization_enabled, " MSDOCS
      "relational-databases/system-dynamic-management-views/sys-dm-server-services-transact-sql" },
    { NULL, NULL, NULL },
};

#define FILES_DOC "sys.database_files size, growth, is_percent_growth, " MSDOCS \
    "relational-databases/system-catalog-views/sys-database-files-transact-sql"
#define SPCONFIG_DOC "sp_configure and sys.configurations, " MSDOCS \
    "database-engine/configure-windows/server-configuration-options-sql-server"

/* The stated settings: NAME=VALUE pairs split in place. */
typedef struct stated {
    char *name, *value;
    int   used;             /* matched a fixed entry */
} stated;

/* A name the statements may hold between quotes: letters, digits, space,
 * '_', '.', '-', '(' and ')'; no quote, no ';'. */
static int name_ok(const char *s)
{
    if (!*s)
        return 0;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9')
              || strchr(" _.-()", *s)))
            return 0;
    return 1;
}

/* --server-settings into st[] (at most max); the count, or -1 after one
 * line on err. text is split in place. */
static int parse_stated(char *text, stated *st, int max, FILE *err)
{
    int n = 0;
    for (char *save = NULL, *t = strtok_r(text, ";", &save); t; t = strtok_r(NULL, ";", &save)) {
        char *eq = strchr(t, '=');
        if (!eq || eq == t || !eq[1] || n == max) {
            fprintf(err, "oltp: --server-settings: '%s' is not NAME=VALUE%s\n", t,
                    n == max ? " (too many settings)" : "");
            return -1;
        }
        *eq = '\0';
        if (!name_ok(t) || !name_ok(eq + 1)) {
            fprintf(err, "oltp: --server-settings: '%s=%s': a name or value may hold letters, "
                    "digits, spaces and _ . - ( ) only\n", t, eq + 1);
            return -1;
        }
        st[n++] = (stated){ .name = t, .value = eq + 1 };
    }
    return n;
}

/* The first column of sql's first row into buf: 1, 0 when there is no row
 * or it is NULL, -1 when the statement fails (c->err says why). */
static int one_value(db_conn *c, const char *sql, char *buf, size_t len)
{
    const char *v;
    int got = 0;
    if (db_query(c, sql) != DB_DONE)
        return -1;
    if (db_next_row(c) > 0 && (v = db_col(c, 0, NULL))) {
        snprintf(buf, len, "%s", v);
        got = 1;
    }
    while (db_next_row(c) > 0)
        ;
    return got;
}

/* A plan's name matches a fixed one: equal, or on SQL Server the fixed
 * one's name before its unit ("max server memory" for "max server memory
 * (MB)"), as sp_configure takes a unique prefix. */
static int same_setting(const char *plan, const char *fixed)
{
    size_t n = strlen(plan);
    return strcasecmp(plan, fixed) == 0
           || (strncasecmp(plan, fixed, n) == 0 && strncmp(fixed + n, " (", 2) == 0);
}

/* One setting read with sql and added to s as name; a statement that
 * fails or returns nothing gives no value and a note. 0, or -1 when out
 * of memory. */
static int read_one(db_conn *c, res_server *s, const char *name, const char *sql,
                    const char *doc)
{
    char v[256], note[1024];
    int got = one_value(c, sql, v, sizeof v);
    if (got > 0)
        return res_server_add(s, name, v, NULL);
    if (doc)
        snprintf(note, sizeof note, "not available on this server (SQL Server: %s)", doc);
    else if (got < 0)
        snprintf(note, sizeof note, "not available on this server: error %d: %s", c->err.code,
                 c->err.msg);
    else
        snprintf(note, sizeof note, "not available on this server");
    return res_server_add(s, name, NULL, note);
}

/* SQL Server: each data and log file's size and growth, as a setting
 * "file NAME (ROWS|LOG)". 0, or -1 when out of memory. */
static int read_files(db_conn *c, res_server *s)
{
    int n = 0, rc = 0;
    if (db_query(c, "SELECT name, type_desc, CAST(size AS bigint), CAST(growth AS bigint), "
                 "CAST(is_percent_growth AS int) FROM sys.database_files") == DB_DONE) {
        while (db_next_row(c) > 0) {
            char name[300], v[128];
            const char *fname = db_col(c, 0, NULL), *type = db_col(c, 1, NULL);
            int64_t pages = db_col_int(c, 2), growth = db_col_int(c, 3);
            int pct = (int)db_col_int(c, 4);
            snprintf(name, sizeof name, "file %s (%s)", fname ? fname : "?", type ? type : "?");
            if (growth == 0)
                snprintf(v, sizeof v, "size %lld MB, growth off", (long long)(pages / 128));
            else if (pct)
                snprintf(v, sizeof v, "size %lld MB, growth %lld %%", (long long)(pages / 128),
                         (long long)growth);
            else
                snprintf(v, sizeof v, "size %lld MB, growth %lld MB", (long long)(pages / 128),
                         (long long)(growth / 128));
            rc |= res_server_add(s, name, v, NULL);
            n++;
        }
    }
    if (n == 0 && rc == 0)
        rc = res_server_add(s, "data and log files", NULL,
                            "not available on this server (SQL Server: " FILES_DOC ")");
    return rc;
}

/* SQL Server: sp_configure NAME, VALUE and RECONFIGURE for each stated
 * setting that sys.configurations knows; a refusal is one warning line
 * (the read-back then shows what the server has). */
static void apply_mssql(db_conn *c, const stated *st, int n, FILE *err)
{
    char sql[512];
    if (n > 0 && db_query(c, "EXEC sp_configure 'show advanced options', 1; RECONFIGURE") == DB_DONE)
        while (db_next_row(c) > 0)
            ;
    for (int i = 0; i < n; i++) {
        snprintf(sql, sizeof sql, "EXEC sp_configure '%s', %s; RECONFIGURE", st[i].name,
                 st[i].value);
        if (db_query(c, sql) != DB_DONE) {
            fprintf(err, "oltp: settings: sp_configure '%s', %s refused: error %d: %s\n",
                    st[i].name, st[i].value, c->err.code, c->err.msg);
            continue;
        }
        while (db_next_row(c) > 0)
            ;
    }
}

/* The stated setting's read-back statement of dialect d (sql[len]). */
static void stated_sql(db_dialect d, const char *name, char *sql, size_t len)
{
    if (d == DB_DIALECT_MYSQL)
        snprintf(sql, len, "SELECT @@GLOBAL.%s", name);
    else if (d == DB_DIALECT_PGSQL)
        snprintf(sql, len, "SELECT current_setting('%s')", name);
    else
        snprintf(sql, len, "SELECT CAST(value_in_use AS bigint) FROM sys.configurations "
                 "WHERE name = '%s' OR name LIKE '%s (%%'", name, name);
}

/* The dialect: the driver's, --odbc-dialect, else the server's DBMS name. */
static int settings_dialect(const oltp_opts *o, const db_conn *c, db_dialect *d, FILE *err)
{
    const char *name;
    if (c->drv->dialect != DB_DIALECT_AUTO) {
        *d = c->drv->dialect;
        return 0;
    }
    if (o->odbc_dialect)
        return dialect_parse(o->odbc_dialect, d);
    name = db_dbms_name(c);
    if (dialect_from_dbms_name(name, d) == 0)
        return 0;
    fprintf(err, "oltp: settings: the server calls itself '%s', a DBMS oltp has no SQL dialect "
            "for: give --odbc-dialect=mssql|mysql|pgsql\n", name ? name : "(no SQL_DBMS_NAME)");
    return -1;
}

/* The version and edition, the fixed list and the stated settings into s. */
static int read_all(db_conn *c, db_dialect d, stated *st, int n, res_server *s)
{
    static const fixed_setting *const fixed[DB_DIALECT_COUNT] = {
        [DB_DIALECT_MYSQL] = mysql_fixed, [DB_DIALECT_PGSQL] = pgsql_fixed,
        [DB_DIALECT_MSSQL] = mssql_fixed,
    };
    char v[256], sql[640];
    int rc = 0;

    if (d == DB_DIALECT_MSSQL && one_value(c, "SELECT CAST(SERVERPROPERTY('ProductVersion') AS "
                                           "nvarchar(128))", v, sizeof v) > 0)
        s->version = strdup(v);
    else
        s->version = strdup(db_server_version(c));
    if (d == DB_DIALECT_MSSQL && one_value(c, "SELECT CAST(SERVERPROPERTY('Edition') AS "
                                           "nvarchar(128))", v, sizeof v) > 0)
        s->edition = strdup(v);
    else if (d == DB_DIALECT_MYSQL && one_value(c, "SELECT @@version_comment", v, sizeof v) > 0)
        s->edition = strdup(v);
    if (!s->version)
        return -1;
    for (const fixed_setting *f = fixed[d]; f->name; f++) {
        rc |= read_one(c, s, f->name, f->sql, f->doc);
        for (int i = 0; i < n; i++)
            if (same_setting(st[i].name, f->name)) {
                st[i].used = 1;
                if (!(s->settings[s->nsettings - 1].wanted = strdup(st[i].value)))
                    rc = -1;
            }
    }
    if (d == DB_DIALECT_MSSQL)
        rc |= read_files(c, s);
    for (int i = 0; i < n && rc == 0; i++) {
        if (st[i].used)
            continue;
        stated_sql(d, st[i].name, sql, sizeof sql);
        rc |= read_one(c, s, st[i].name, sql, d == DB_DIALECT_MSSQL ? SPCONFIG_DOC : NULL);
        if (rc == 0 && !(s->settings[s->nsettings - 1].wanted = strdup(st[i].value)))
            rc = -1;
    }
    return rc;
}

int oltp_settings(const oltp_opts *o, FILE *out, FILE *err)
{
    const struct db_driver *drv = db_driver_find(o->db_driver);
    char *text = o->server_settings ? strdup(o->server_settings) : NULL, w[512];
    stated st[64];
    res_server s = { 0 };
    db_conn c;
    db_dialect d;
    int n = 0, rc = OLTP_EXIT_BAD_INPUT, connected = 0;

    memset(&c, 0, sizeof c);
    if (!drv) {
        fprintf(err, "oltp: unknown --db-driver=%s (this build has: %s)\n", o->db_driver,
                db_driver_names());
        goto cleanup;
    }
    if ((o->server_settings && !text)
        || (text && (n = parse_stated(text, st, (int)(sizeof st / sizeof st[0]), err)) < 0))
        goto cleanup;
    if (o->json_path && atomic_file_check(o->json_path, w, sizeof w) < 0) {
        fprintf(err, "oltp: --json: %s\n", w);
        goto cleanup;
    }
    if (db_init(&c, drv, &o->db, NULL, 0) < 0) {
        fprintf(err, "oltp: out of memory\n");
        goto cleanup;
    }
    connected = 1;
    if (db_connect(&c) != DB_DONE) {
        fprintf(err, "oltp: settings: cannot connect: error %d: %s\n", c.err.code, c.err.msg);
        rc = OLTP_EXIT_UNAVAILABLE;
        goto cleanup;
    }
    if (settings_dialect(o, &c, &d, err) < 0)
        goto cleanup;
    if (d == DB_DIALECT_MSSQL)
        apply_mssql(&c, st, n, err);
    if (read_all(&c, d, st, n, &s) < 0) {
        fprintf(err, "oltp: out of memory\n");
        rc = OLTP_EXIT_FAILED;
        goto cleanup;
    }
    fprintf(out, "server: %s%s%s\n", s.version, s.edition ? ", " : "", s.edition ? s.edition : "");
    for (int i = 0; i < s.nsettings; i++)
        fprintf(out, "  %s = %s%s%s\n", s.settings[i].name,
                s.settings[i].value ? s.settings[i].value : s.settings[i].note,
                s.settings[i].wanted ? "  (the plan: " : "",
                s.settings[i].wanted ? s.settings[i].wanted : "");
    if (o->json_path && res_server_write_file(&s, o->json_path, w, sizeof w) < 0) {
        fprintf(err, "oltp: %s\n", w);
        goto cleanup;
    }
    rc = OLTP_EXIT_OK;
cleanup:
    if (connected)
        db_free(&c);
    res_server_clear(&s);
    free(text);
    return rc;
}
