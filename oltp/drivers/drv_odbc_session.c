/*
 * drv_odbc_session.c — the ODBC driver's session (drv_odbc.h), on the
 * connection's thread: its errors (the first diagnostic record, its
 * native code, SQLSTATE and message, classified), the connection string,
 * connect and the not-ready rules of SQL Server, the session's teardown.
 */
#include "drivers/drv_odbc.h"

/* --- errors (connection thread) ------------------------------------------ */

/* Store diagnostic record rec of handle h as the request's error. */
static int od_fail_rec(db_conn *c, SQLSMALLINT type, SQLHANDLE h, SQLSMALLINT rec, const char *what)
{
    od_priv *p = c->priv;
    SQLCHAR state[6] = "HY000", msg[512] = "";
    SQLINTEGER native = 0;
    SQLSMALLINT len = 0;
    db_err_class cls;
    int d = p->dialect >= 0 ? p->dialect : (int)c->cfg->dialect;

    if (!h || !SQL_SUCCEEDED(SQLGetDiagRec(type, h, rec, state, &native, msg, sizeof msg, &len)))
        snprintf((char *)msg, sizeof msg, "%s failed with no diagnostic record", what);
    if (dialect_sqlstate_lost((char *)state) || !strcmp((char *)state, "HYT01"))
        cls = DB_ERR_RECONNECT;
    else if (dialect_sqlstate_retry(d, (char *)state) ||
             (d == DB_DIALECT_MSSQL && (native == MSSQL_DEADLOCK || native == MSSQL_PROC_RETRY)))
        cls = DB_ERR_RETRY;
    else
        cls = db_classify(c->cfg, (int)native, DB_ERR_FATAL);
    p->err.code = (int)native;
    p->err.cls = cls;
    snprintf(p->err.sqlstate, sizeof p->err.sqlstate, "%s", (char *)state);
    snprintf(p->err.msg, sizeof p->err.msg, "%s", (char *)msg);
    return DB_ERROR;
}

/* Store the first diagnostic record of handle h as the request's error. */
int od_fail(db_conn *c, SQLSMALLINT type, SQLHANDLE h, const char *what)
{
    return od_fail_rec(c, type, h, 1, what);
}

/* A failed bcp call: FreeTDS adds its own "General driver error" after
 * the server's message, so the first record with an error number (the
 * server's) is kept. */
int od_bcp_fail(db_conn *c, const char *what)
{
    od_priv *p = c->priv;
    SQLINTEGER native = 0;
    SQLCHAR state[6];

    for (SQLSMALLINT rec = 1; SQL_SUCCEEDED(SQLGetDiagRec(SQL_HANDLE_DBC, p->dbc, rec, state, &native,
                                                          NULL, 0, NULL)); rec++)
        if (native)
            return od_fail_rec(c, SQL_HANDLE_DBC, p->dbc, rec, what);
    return od_fail(c, SQL_HANDLE_DBC, p->dbc, what);
}

int od_oom(db_conn *c)
{
    od_priv *p = c->priv;
    p->err = (db_error){ .code = 0, .sqlstate = "HY001", .msg = "out of memory", .cls = DB_ERR_FATAL };
    return DB_ERROR;
}

/* --- session (connection thread) ----------------------------------------- */

void od_free_session(db_conn *c)
{
    od_priv *p = c->priv;
    for (int i = 0; i < c->nstmts; i++)
        if (p->st[i]) {
            SQLFreeHandle(SQL_HANDLE_STMT, p->st[i]);
            p->st[i] = NULL;
        }
    if (p->q)
        SQLFreeHandle(SQL_HANDLE_STMT, p->q);
    p->q = NULL;
    if (p->dbc) {
        if (p->connected)
            SQLDisconnect(p->dbc);
        SQLFreeHandle(SQL_HANDLE_DBC, p->dbc);
    }
    p->dbc = NULL;
    p->connected = false;
    p->manual = false;
}

/* The connection string: --odbc-connect plus UID/PWD when given. A value
 * is braced only when it needs it (';', '{', '}' or a space at an end,
 * '}' doubled), the ODBC rule: psqlODBC 13 keeps the braces of a braced
 * UID as part of the user name ("{drivebench}"). Caller frees. */
static char *connect_string(const db_config *cfg)
{
    size_t n = strlen(cfg->conn_str) + 32 + 2 * (cfg->user ? strlen(cfg->user) : 0) +
               2 * (cfg->password ? strlen(cfg->password) : 0);
    char *s = malloc(n), *o;
    if (!s)
        return NULL;
    o = s + sprintf(s, "%s", cfg->conn_str);
    for (int k = 0; k < 2; k++) {
        const char *v = k ? cfg->password : cfg->user;
        size_t len = v ? strlen(v) : 0;
        bool brace;
        if (!len)
            continue;
        brace = strpbrk(v, ";{}") || v[0] == ' ' || v[len - 1] == ' ';
        o += sprintf(o, "%s%s=%s", o > s && o[-1] != ';' ? ";" : "", k ? "PWD" : "UID",
                     brace ? "{" : "");
        for (; *v; v++) {
            *o++ = *v;
            if (brace && *v == '}')
                *o++ = '}';
        }
        if (brace)
            *o++ = '}';
        *o = 0;
    }
    return s;
}

/* SQL Server's refusals of a login to a database that is not open yet:
 * 4060 cannot open the database requested by the login (it is still
 * starting), 922 being recovered, 927 in the middle of a restore, 18401
 * only administrators during the upgrade scripts after an update. Each
 * clears as the server comes up; a wrong password (18456 alone) does
 * not. */
static bool mssql_not_ready(SQLINTEGER native)
{
    return native == 4060 || native == 922 || native == 927 || native == 18401;
}

/* After a failed connect to SQL Server: does any diagnostic record say
 * the database is not open yet? (SQL Server sends 4060 with an 18456
 * "Login failed" beside it.) Then that record becomes the error, with
 * SQLSTATE 08004 (the server rejected the connection): not ready, retry. */
static bool connect_not_ready(db_conn *c)
{
    od_priv *p = c->priv;
    SQLCHAR state[6], msg[512];
    SQLINTEGER native;
    SQLSMALLINT len;

    if (c->cfg->dialect != DB_DIALECT_MSSQL && !strstr(p->err.msg, "SQL Server"))
        return false;
    for (SQLSMALLINT i = 1; i <= 8; i++) {
        if (!SQL_SUCCEEDED(SQLGetDiagRec(SQL_HANDLE_DBC, p->dbc, i, state, &native, msg, sizeof msg, &len)))
            break;
        if (mssql_not_ready(native)) {
            p->err.code = (int)native;
            snprintf(p->err.sqlstate, sizeof p->err.sqlstate, "08004");
            snprintf(p->err.msg, sizeof p->err.msg, "%s", (char *)msg);
            return true;
        }
    }
    return false;
}

/* After a failed connect: the standard SQLSTATE db_error_is_login() and
 * db_error_is_session_limit() read. A session limit is native 1040, 1203
 * or 1226 (MariaDB, MySQL), 17809 (SQL Server), or psqlODBC's 08001 with
 * the server's "too many" message.
 * Drivers that already say 28xxx (MariaDB ODBC's 1045, SQL Server's
 * 18456) stay; an unknown database is 42000 with native 1049 (MariaDB,
 * MySQL); psqlODBC says 08001 for every refusal and keeps the server's
 * message (C locale in drivebench's guests). Anything else that is not
 * already a connection class says 08001. */
static void connect_sqlstate(db_conn *c)
{
    od_priv *p = c->priv;
    const char *m = p->err.msg, *st = NULL;

    if (connect_not_ready(c) || !strncmp(p->err.sqlstate, "28", 2))
        return;
    if (!strcmp(p->err.sqlstate, "42000") && p->err.code == 1049)
        st = "3D000";
    else if (strstr(m, "password authentication failed") || strstr(m, "no pg_hba.conf entry") ||
             strstr(m, "no password supplied"))
        st = "28000";
    else if (strstr(m, "database \"") && strstr(m, "\" does not exist"))
        st = "3D000";
    else if (p->err.code == 1040 || p->err.code == 1203 || p->err.code == 1226 || p->err.code == 17809 ||
             strstr(m, "too many clients already") || strstr(m, "too many connections for"))
        st = "53300";
    else if (strncmp(p->err.sqlstate, "08", 2) && strncmp(p->err.sqlstate, "HYT", 3))
        st = "08001";
    if (st)
        snprintf(p->err.sqlstate, sizeof p->err.sqlstate, "%s", st);
}

int od_do_connect(db_conn *c)
{
    od_priv *p = c->priv;
    const db_config *cfg = c->cfg;
    SQLRETURN rc;
    SQLSMALLINT len;
    db_dialect d;

    od_free_session(c);
    if (!p->env) {
        if (!SQL_SUCCEEDED(SQLAllocHandle(SQL_HANDLE_ENV, SQL_NULL_HANDLE, &p->env)))
            return od_fail(c, SQL_HANDLE_ENV, NULL, "SQLAllocHandle(ENV)");
        SQLSetEnvAttr(p->env, SQL_ATTR_ODBC_VERSION, (SQLPOINTER)SQL_OV_ODBC3, 0);
    }
    if (!SQL_SUCCEEDED(SQLAllocHandle(SQL_HANDLE_DBC, p->env, &p->dbc)))
        return od_fail(c, SQL_HANDLE_ENV, p->env, "SQLAllocHandle(DBC)");
    SQLSetConnectAttr(p->dbc, SQL_ATTR_LOGIN_TIMEOUT,
                      (SQLPOINTER)(intptr_t)(cfg->connect_timeout_s > 0 ? cfg->connect_timeout_s : 10), 0);
    /* Microsoft's drivers allow bcp only on a connection opened with it
     * on; a driver that does not know the attribute is told by the
     * search after connecting */
    if (cfg->odbc_bulk == DB_ODBC_BCP)
        SQLSetConnectAttr(p->dbc, ODBC_BCP_COPT_SS_BCP, (SQLPOINTER)ODBC_BCP_ON, SQL_IS_INTEGER);
    if (cfg->conn_str) {
        char *s = connect_string(cfg);
        if (!s)
            return od_oom(c);
        rc = SQLDriverConnect(p->dbc, NULL, (SQLCHAR *)s, SQL_NTS, NULL, 0, NULL, SQL_DRIVER_NOPROMPT);
        free(s);
    } else {
        rc = SQLConnect(p->dbc, (SQLCHAR *)(cfg->dsn ? cfg->dsn : ""), SQL_NTS,
                        (SQLCHAR *)cfg->user, cfg->user ? SQL_NTS : 0,
                        (SQLCHAR *)cfg->password, cfg->password ? SQL_NTS : 0);
    }
    if (!SQL_SUCCEEDED(rc)) {
        od_fail(c, SQL_HANDLE_DBC, p->dbc, "SQLConnect");
        connect_sqlstate(c);
        p->err.cls = DB_ERR_RECONNECT;
        return DB_ERROR;
    }
    p->connected = true;
    p->dbms[0] = p->version[0] = 0;
    SQLGetInfo(p->dbc, SQL_DBMS_NAME, p->dbms, sizeof p->dbms, &len);
    SQLGetInfo(p->dbc, SQL_DBMS_VER, p->version, sizeof p->version, &len);
    p->dialect = dialect_from_dbms_name(p->dbms, &d) == 0 ? (int)d : -1;
    if (cfg->odbc_bulk == DB_ODBC_BCP) {
        char why[sizeof p->err.msg - 16];
        if (odbc_bcp_find(p->dbc, &p->bcp, why, sizeof why) < 0) {
            p->err = (db_error){ .sqlstate = "IM001", .cls = DB_ERR_FATAL };
            snprintf(p->err.msg, sizeof p->err.msg, "--bulk=bcp: %s", why);
            return DB_ERROR;
        }
    }
    if (!SQL_SUCCEEDED(SQLAllocHandle(SQL_HANDLE_STMT, p->dbc, &p->q)))
        return od_fail(c, SQL_HANDLE_DBC, p->dbc, "SQLAllocHandle(STMT)");
    return DB_DONE;
}

void od_set_active(od_priv *p, SQLHSTMT h)
{
    pthread_mutex_lock(&p->lock);
    p->active = h;
    pthread_mutex_unlock(&p->lock);
}

/* An int64 value of an INT column as the SQLINTEGER bound for it; -1
 * when it does not fit (then p->err says so). */
int od_int_param(db_conn *c, int64_t v, SQLINTEGER *out)
{
    if (v < INT32_MIN || v > INT32_MAX) {
        od_priv *p = c->priv;
        p->err = (db_error){ .sqlstate = "22003", .cls = DB_ERR_FATAL };
        snprintf(p->err.msg, sizeof p->err.msg, "%lld is out of the range of an INT column", (long long)v);
        return -1;
    }
    *out = (SQLINTEGER)v;
    return 0;
}
