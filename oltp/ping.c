/*
 * ping.c — `oltp [driver options] ping` (see ping.h).
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <uv.h>

#include "ping.h"

/* A server that accepts TCP and then never speaks: the driver's connect
 * timeout normally ends the ping first; this is the last resort. */
static void ping_alarm(int sig)
{
    static const char msg[] = "oltp: ping: no answer within --connect-timeout (plus 2 s)\n";
    (void)sig;
    if (write(STDERR_FILENO, msg, sizeof msg - 1) < 0) {
        /* nothing more to do */
    }
    _exit(PING_UNREACHABLE);
}

/* The driver's message on one line: client libraries report each address
 * tried on its own line. */
static const char *one_line(char *msg)
{
    char *s = msg, *d = msg;
    for (; *s; s++) {
        if (*s == '\n' || *s == '\r' || *s == '\t') {
            if (d > msg && d[-1] != ' ' && s[1])
                *d++ = ' ';
        } else if (!(*s == ' ' && d > msg && d[-1] == ' ')) {
            *d++ = *s;
        }
    }
    while (d > msg && d[-1] == ' ')
        d--;
    *d = 0;
    return msg;
}

/* What ODBC Driver 18 (OpenSSL), psqlODBC and libpq (OpenSSL), MariaDB's
 * connector and FreeTDS (GnuTLS) say of a TLS failure: "SSL Provider:
 * [error:0A000086:SSL routines::certificate verify failed...]", "TCP
 * Provider: Error code 0x2746" (the server reset the connection in the
 * handshake: msphpsql#1021, #1278, #1419), "server does not support SSL,
 * but SSL was required", "TLS/SSL error", "certificate". */
int oltp_ping_connect_code(const db_error *e)
{
    static const char *const tls[] = { "SSL", "TLS", "0x2746", "certificate", "Certificate" };
    if (db_error_is_login(e) || e->code == 18456)
        return PING_LOGIN;
    if (!strncmp(e->sqlstate, "08", 2))
        for (size_t i = 0; i < sizeof tls / sizeof tls[0]; i++)
            if (strstr(e->msg, tls[i]))
                return PING_TLS;
    return PING_UNREACHABLE;
}

static const char *ping_where(const oltp_opts *o, char *buf, size_t len)
{
    if (o->db.dsn || o->db.conn_str)
        snprintf(buf, len, "odbc: data source %s%s%s", o->db.dsn ? o->db.dsn : "of --odbc-connect",
                 o->db.user ? " as " : "", o->db.user ? o->db.user : "");
    else if (o->db.socket)
        snprintf(buf, len, "%s: socket %s as %s", o->db_driver, o->db.socket, o->db.user);
    else
        snprintf(buf, len, "%s: %s:%d as %s", o->db_driver, o->db.host, o->db.port, o->db.user);
    return buf;
}

int oltp_ping(const oltp_opts *o, FILE *out, FILE *err)
{
    const struct db_driver *drv = db_driver_find(o->db_driver);
    uint64_t t0 = uv_hrtime();
    char w[320];
    db_conn c;
    size_t len = 0;
    const char *v;
    int rc;

    if (!drv) {
        fprintf(err, "oltp: unknown --db-driver=%s (this build has: %s)\n", o->db_driver, db_driver_names());
        return PING_USAGE;
    }
    signal(SIGALRM, ping_alarm);
    alarm((unsigned)o->db.connect_timeout_s + 2);
    if (db_init(&c, drv, &o->db, NULL, 0) < 0) {
        fprintf(err, "oltp: ping: out of memory\n");
        return PING_UNREACHABLE;
    }
    if (db_connect(&c) != DB_DONE) {
        rc = oltp_ping_connect_code(&c.err);
        /* SQL Server refuses a login to a paused service with the same lone
         * 18456 as a wrong password; only its error log tells them apart
         * (MSSQLSERVER_17142, and 18456 state 13 beside it) */
        fprintf(err, "oltp: ping: %s: %s: error %d (SQLSTATE %s): %s%s\n",
                ping_where(o, w, sizeof w), rc == PING_LOGIN ? "login refused"
                : rc == PING_TLS ? "TLS failed" : "no connection",
                c.err.code, c.err.sqlstate[0] ? c.err.sqlstate : "none", one_line(c.err.msg),
                rc == PING_LOGIN && c.err.code == 18456 ? " (SQL Server says this for a wrong user or password "
                "and for a paused service alike: its error log says which, state 8 or 13)" : "");
        goto cleanup;
    }
    if (db_query(&c, "SELECT 1") != DB_DONE) {
        rc = PING_QUERY;
        fprintf(err, "oltp: ping: %s: SELECT 1 failed: error %d (SQLSTATE %s): %s\n",
                ping_where(o, w, sizeof w), c.err.code, c.err.sqlstate[0] ? c.err.sqlstate : "none",
                one_line(c.err.msg));
        goto cleanup;
    }
    if (db_next_row(&c) != 1 || !(v = db_col(&c, 0, &len)) || len != 1 || v[0] != '1') {
        rc = PING_QUERY;
        fprintf(err, "oltp: ping: %s: SELECT 1 did not return 1\n", ping_where(o, w, sizeof w));
        goto cleanup;
    }
    rc = PING_OK;
    fprintf(out, "oltp: ping: %s: answered in %.0f ms (%s)\n", ping_where(o, w, sizeof w),
            (double)(uv_hrtime() - t0) / 1e6, db_server_version(&c));
cleanup:
    db_free(&c);
    alarm(0);
    return rc;
}
