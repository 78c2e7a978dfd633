/*
 * dbengine.h — the database engine a plan's VMs serve, as one table entry
 * per engine (mariadb, postgresql, babelfish, sqlserver, mysql), and the oltp
 * drivers that
 * talk to them.
 *
 * Everything engine-specific the orchestrator needs lives in these
 * entries: the guest port the loopback forward reaches, the oltp drivers
 * allowed (the first is the default), the default login and database,
 * where drivebench builds the engine's image (or that the user brings
 * one), and whether the image restores a prebuilt-database seed. The
 * connection options of each oltp driver (and the environment variable
 * that carries its password, never an argument) are in a second table.
 * Read by the plan (plan_keys.c, plan_parse.c and plan_check.c: the key
 * choices, the defaults, the checks), layout.c, the clients (client_host.c,
 * client_guest.c) and run/ (the guest port, the image's engine).
 */
#ifndef ORCH_DBENGINE_H
#define ORCH_DBENGINE_H

/* The plan keys' choices and the default engine. */
#define ORCH_DBENGINE_NAMES   "mariadb|postgresql|babelfish|sqlserver|mysql"
#define ORCH_DBENGINE_DEFAULT "mariadb"
#define ORCH_DBDRIVER_NAMES   "mysql|pgsql|odbc"

typedef enum {
    ORCH_SEED_NONE,         /* the image cannot restore a prebuilt database */
    ORCH_SEED_DBDISK,       /* drivebench's image copies seeddisk's data/
                             * onto a blank dbdisk at boot (images/seed.sh
                             * builds the seed) */
} orch_seed_restore;

typedef struct orch_dbengine {
    const char *name;           /* [run] engine = NAME */
    const char *label;          /* for messages: "MariaDB" */
    int         port;           /* the database's TCP port in the guest */
    const char *driver;         /* default oltp driver ([workload] db_driver) */
    const char *drivers;        /* oltp drivers allowed, "a|b" */
    const char *user, *database;/* default [workload] db_user, db_name */
    const char *odbc_driver;    /* default [workload] odbc_driver */
    const char *cmdline_prefix; /* per-VM server settings ([run] db_settings)
                                 * the image reads from the kernel command
                                 * line, or NULL: a user's image, whose
                                 * settings are baked in (images/README.md) */
    const char *image_dir;      /* default [run] image_dir (relative to the
                                 * current directory), NULL: the user's image */
    orch_seed_restore seed;
    int         server_first;   /* 1: the server speaks first on a new
                                 * connection (MySQL's protocol: its
                                 * greeting); Debian 12's passt stalls such
                                 * a handshake, so network = passt refuses
                                 * the engine (README, the guest network) */
    int         login_s;        /* seconds one login may take (oltp ping's
                                 * --connect-timeout while waiting for the
                                 * database), 0: ORCH_DBENGINE_LOGIN_S */
} orch_dbengine;

/* The login time of engines that set none: a login answers at once. */
#define ORCH_DBENGINE_LOGIN_S 3

/* Seconds one login to engine e may take while drivebench waits for it. */
int orch_dbengine_login_s(const orch_dbengine *e);

/* How oltp's ODBC connection string says encrypt/trust for one ODBC driver
 * family (Microsoft's Driver 18 and FreeTDS spell them differently). */
typedef enum { ORCH_ODBC_GENERIC, ORCH_ODBC_MSSQL18, ORCH_ODBC_FREETDS } orch_odbc_family;

/* The engine named name, or NULL. */
const orch_dbengine *orch_dbengine_find(const char *name);

/* The engine's default oltp driver (static text). */
const char *orch_dbengine_default_driver(const orch_dbengine *e);

/* 1 when engine e is reached through oltp driver drv, else 0. */
int orch_dbengine_allows(const orch_dbengine *e, const char *drv);

/* The environment variable oltp reads driver drv's password from
 * (OLTP_MYSQL_PASSWORD, ...), or NULL for an unknown driver. */
const char *orch_dbdriver_password_env(const char *drv);

/* The ODBC driver family of an odbcinst.ini name or driver path. */
orch_odbc_family orch_odbc_family_of(const char *odbc_driver);

/* What a connection needs besides the port: the plan's choices. Strings
 * borrowed; encrypt and trust NULL when the plan leaves them unset. */
typedef struct orch_db_target {
    const orch_dbengine *engine;
    const char *driver;         /* oltp driver: mysql, pgsql, odbc */
    const char *user, *database;
    const char *odbc_driver;
    const char *encrypt;        /* "yes", "no", "strict" or NULL */
    const char *trust_cert;     /* "yes", "no" or NULL */
} orch_db_target;

/* The DSN-less ODBC connection string for t on 127.0.0.1:port, without
 * login or password (oltp adds UID and PWD itself, the password from its
 * environment): e.g. "Driver={ODBC Driver 18 for SQL Server};
 * Server=tcp:127.0.0.1,1433;Database=sbtest;Encrypt=yes;
 * TrustServerCertificate=yes". New string, or NULL when out of memory. */
char *orch_odbc_connect_string(const orch_db_target *t, int port);

/* Append to argv-building callback add(ctx, arg) (which takes each new
 * string, NULL meaning out of memory) the oltp options that reach t on
 * 127.0.0.1:port: --db-driver and the driver's host, port, user and
 * database options. Never the password. */
void orch_db_conn_args(const orch_db_target *t, int port, void (*add)(void *ctx, char *arg),
                       void *ctx);

#endif
