/* dbengine.c — the database engines and the oltp drivers that reach them
 * (see dbengine.h). */
#include "plan/dbengine.h"
#include "util/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const orch_dbengine engines[] = {
    {
        .name = "mariadb", .label = "MariaDB", .port = 3306,
        .driver = "mysql", .drivers = "mysql|odbc", .user = "drivebench", .database = "sbtest",
        .odbc_driver = "MariaDB Unicode", .cmdline_prefix = "drivebench.my.",
        .image_dir = "images/build", .seed = ORCH_SEED_DBDISK, .server_first = 1,
    },
    {
        .name = "postgresql", .label = "PostgreSQL", .port = 5432,
        .driver = "pgsql", .drivers = "pgsql|odbc", .user = "drivebench", .database = "sbtest",
        .odbc_driver = "PostgreSQL Unicode", .cmdline_prefix = "drivebench.pg.",
        .image_dir = "images/build/postgresql", .seed = ORCH_SEED_DBDISK,
    },
    {
        /* SQL Server's protocol and T-SQL served by Babelfish for
         * PostgreSQL (babelfish/), built here into images/build/babelfish;
         * reached like SQL Server, through FreeTDS (Debian's tdsodbc).
         * Each login starts a backend that maps Babelfish's T-SQL library
         * (~43 MB): the first after boot took ~30 s in a TCG guest */
        .name = "babelfish", .label = "Babelfish", .port = 1433,
        .driver = "odbc", .drivers = "odbc", .user = "drivebench", .database = "sbtest",
        .odbc_driver = "FreeTDS", .cmdline_prefix = "drivebench.bf.",
        .image_dir = "images/build/babelfish", .seed = ORCH_SEED_NONE, .login_s = 90,
    },
    {
        /* no image of ours: SQL Server on Linux needs Ubuntu, RHEL or SLES
         * and Microsoft's repository (images/README.md, the contract) */
        .name = "sqlserver", .label = "SQL Server", .port = 1433,
        .driver = "odbc", .drivers = "odbc", .user = "drivebench", .database = "sbtest",
        .odbc_driver = "ODBC Driver 18 for SQL Server", .cmdline_prefix = NULL,
        .image_dir = NULL, .seed = ORCH_SEED_NONE,
    },
    {
        /* no image of ours either: Debian 12 ships no MySQL or Percona
         * Server (the sysbench protocol's Percona XtraDB 5.5). A user's
         * image, reached like MariaDB: same port and oltp driver (MariaDB
         * Connector/C logs in to MySQL 8's caching_sha2_password through
         * its plugin); the server's version goes into each VM's result */
        .name = "mysql", .label = "MySQL", .port = 3306,
        .driver = "mysql", .drivers = "mysql|odbc", .user = "drivebench", .database = "sbtest",
        .odbc_driver = "MariaDB Unicode", .cmdline_prefix = NULL,
        .image_dir = NULL, .seed = ORCH_SEED_NONE, .server_first = 1,
    },
};

#define NENGINES (sizeof engines / sizeof engines[0])

/* oltp's connection options per driver (oltp/options/options.c) */
static const struct {
    const char *name;
    const char *host, *port, *user, *db;    /* option names, NULL: none */
    const char *password_env;
} drivers[] = {
    { "mysql", "--mysql-host", "--mysql-port", "--mysql-user", "--mysql-db",
      "OLTP_MYSQL_PASSWORD" },
    { "pgsql", "--pgsql-host", "--pgsql-port", "--pgsql-user", "--pgsql-db",
      "OLTP_PGSQL_PASSWORD" },
    /* host, port and database go into --odbc-connect */
    { "odbc", NULL, NULL, "--odbc-user", NULL, "OLTP_ODBC_PASSWORD" },
};

const orch_dbengine *orch_dbengine_find(const char *name)
{
    for (size_t i = 0; name && i < NENGINES; i++)
        if (strcmp(engines[i].name, name) == 0)
            return &engines[i];
    return NULL;
}

int orch_dbengine_login_s(const orch_dbengine *e)
{
    return e->login_s > 0 ? e->login_s : ORCH_DBENGINE_LOGIN_S;
}

const char *orch_dbengine_default_driver(const orch_dbengine *e)
{
    return e->driver;
}

int orch_dbengine_allows(const orch_dbengine *e, const char *drv)
{
    return orch_name_in(e->drivers, drv);
}

const char *orch_dbdriver_password_env(const char *drv)
{
    for (size_t i = 0; drv && i < sizeof drivers / sizeof drivers[0]; i++)
        if (strcmp(drivers[i].name, drv) == 0)
            return drivers[i].password_env;
    return NULL;
}

orch_odbc_family orch_odbc_family_of(const char *odbc_driver)
{
    if (!odbc_driver)
        return ORCH_ODBC_GENERIC;
    if (strcasestr(odbc_driver, "freetds") || strcasestr(odbc_driver, "tdsodbc"))
        return ORCH_ODBC_FREETDS;
    if (strcasestr(odbc_driver, "for SQL Server") || strcasestr(odbc_driver, "msodbcsql"))
        return ORCH_ODBC_MSSQL18;
    return ORCH_ODBC_GENERIC;
}

/* One "key=value;" of an ODBC connection string: values with ';', '{',
 * '}' or spaces at an end go in braces, '}' doubled (the ODBC rule). */
static void odbc_attr(FILE *f, const char *key, const char *value, int brace)
{
    size_t n = strlen(value);
    if (!brace)
        brace = strpbrk(value, ";{}") || (n && (value[0] == ' ' || value[n - 1] == ' '));
    fprintf(f, "%s=", key);
    if (brace) {
        fputc('{', f);
        for (const char *c = value; *c; c++) {
            fputc(*c, f);
            if (*c == '}')
                fputc('}', f);
        }
        fputc('}', f);
    } else {
        fputs(value, f);
    }
    fputc(';', f);
}

char *orch_odbc_connect_string(const orch_db_target *t, int port)
{
    const char *drv = t->odbc_driver ? t->odbc_driver : t->engine->odbc_driver;
    orch_odbc_family fam = orch_odbc_family_of(drv);
    char *s = NULL, num[32];
    size_t len = 0;
    FILE *f = open_memstream(&s, &len);

    if (!f)
        return NULL;
    odbc_attr(f, "Driver", drv, 1);
    switch (fam) {
    case ORCH_ODBC_MSSQL18:
        /* Driver 18: "Server=tcp:HOST,PORT"; Encrypt yes|no|strict,
         * TrustServerCertificate yes|no */
        fprintf(f, "Server=tcp:127.0.0.1,%d;", port);
        odbc_attr(f, "Database", t->database, 0);
        if (t->encrypt)
            odbc_attr(f, "Encrypt", t->encrypt, 0);
        if (t->trust_cert)
            odbc_attr(f, "TrustServerCertificate", t->trust_cert, 0);
        break;
    case ORCH_ODBC_FREETDS:
        /* FreeTDS: Server and Port apart, TDS 7.4 (its older default
         * cannot log in to a current server), Encryption require|off;
         * it checks no certificate without a CA file, so trusting the
         * server's certificate needs no attribute (plan_check.c refuses
         * trust_server_certificate = no and encrypt = strict with it) */
        odbc_attr(f, "Server", "127.0.0.1", 0);
        snprintf(num, sizeof num, "%d", port);
        odbc_attr(f, "Port", num, 0);
        odbc_attr(f, "Database", t->database, 0);
        odbc_attr(f, "TDS_Version", "7.4", 0);
        odbc_attr(f, "ClientCharset", "UTF-8", 0);
        if (t->encrypt)
            odbc_attr(f, "Encryption", strcmp(t->encrypt, "no") == 0 ? "off" : "require", 0);
        break;
    case ORCH_ODBC_GENERIC:
        /* psqlODBC, MariaDB Connector/ODBC */
        odbc_attr(f, "Server", "127.0.0.1", 0);
        snprintf(num, sizeof num, "%d", port);
        odbc_attr(f, "Port", num, 0);
        odbc_attr(f, "Database", t->database, 0);
        break;
    }
    if (fclose(f) != 0) {
        free(s);
        return NULL;
    }
    if (len && s[len - 1] == ';')
        s[len - 1] = '\0';
    return s;
}

void orch_db_conn_args(const orch_db_target *t, int port, void (*add)(void *ctx, char *arg),
                       void *ctx)
{
    for (size_t i = 0; i < sizeof drivers / sizeof drivers[0]; i++) {
        if (strcmp(drivers[i].name, t->driver) != 0)
            continue;
        add(ctx, orch_strfmt("--db-driver=%s", t->driver));
        if (drivers[i].host)
            add(ctx, orch_strfmt("%s=127.0.0.1", drivers[i].host));
        if (drivers[i].port)
            add(ctx, orch_strfmt("%s=%d", drivers[i].port, port));
        if (!drivers[i].host) {
            char *cs = orch_odbc_connect_string(t, port);
            add(ctx, cs ? orch_strfmt("--odbc-connect=%s", cs) : NULL);
            free(cs);
        }
        add(ctx, orch_strfmt("%s=%s", drivers[i].user, t->user));
        if (drivers[i].db)
            add(ctx, orch_strfmt("%s=%s", drivers[i].db, t->database));
        return;
    }
    add(ctx, NULL);         /* plan_check.c lets no other driver through */
}
