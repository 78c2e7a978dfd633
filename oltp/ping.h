/*
 * ping.h — `oltp [driver options] ping`: does the database answer?
 *
 * Connects through oltp's own driver layer (the driver of --db-driver, with
 * its connection options) and runs SELECT 1. Used for readiness by the
 * orchestrator and the image scripts, so that no second database client
 * lives outside oltp. The whole ping is bounded by --connect-timeout.
 */
#ifndef OLTP_PING_H
#define OLTP_PING_H

#include <stdio.h>

#include "drivers/db.h"
#include "options/options.h"

/* Exit codes of `oltp ping` (2 stays "bad usage", as for every command). */
enum {
    PING_OK          = 0,   /* connected and SELECT 1 returned 1 */
    PING_USAGE       = 2,   /* bad options, unknown driver */
    PING_UNREACHABLE = 3,   /* no session: refused, timed out, no such host,
                             * server starting or shutting down: retry later */
    PING_LOGIN       = 4,   /* the server answered and refused the login
                             * (wrong user or password, unknown database):
                             * retrying will not help */
    PING_QUERY       = 5,   /* logged in, but SELECT 1 failed or returned
                             * something else */
    PING_TLS         = 6,   /* the connection's TLS failed (a class 08
                             * SQLSTATE whose message names SSL, TLS, a
                             * certificate or Windows' 0x2746 reset during
                             * the handshake): the client's or the
                             * server's TLS settings, retrying will not
                             * help */
};

/* The exit code of a failed connect with error e: PING_LOGIN (SQLSTATE
 * class 28 or 3D, or SQL Server's 18456 "Login failed" alone), PING_TLS
 * (above) or PING_UNREACHABLE. */
int oltp_ping_connect_code(const db_error *e);

/* Ping the database of o. Prints one line: to out when it answers
 * ("oltp: ping: ... answered in N ms"), to err when it does not, with the
 * driver's code, SQLSTATE and message. Returns one of the codes above. */
int oltp_ping(const oltp_opts *o, FILE *out, FILE *err);

#endif
