/*
 * oltp_exit.h — the exit statuses of `oltp`, which drivebench reads to
 * tell why a VM's client ended (oltp/README.md, "Using `oltp`").
 */
#ifndef OLTP_EXIT_H
#define OLTP_EXIT_H

#define OLTP_EXIT_OK          0   /* the command did what it was asked */
#define OLTP_EXIT_FAILED      1   /* a non-retryable error during the run */
#define OLTP_EXIT_BAD_INPUT   2   /* bad options, or no server to start with */
#define OLTP_EXIT_UNAVAILABLE 3   /* the database stopped answering: a lost
                                   * connection was not re-established within
                                   * --reconnect-timeout */
#define OLTP_EXIT_DISK_FULL   4   /* the database reported its disk full
                                   * (MariaDB 1021/1114, errno 28, SQLSTATE
                                   * 53100/53000): the drive under it filled */

/* `oltp ping` (oltp/ping.h): 0 the database answered, 2 bad usage, then */
#define OLTP_PING_UNREACHABLE 3   /* no session yet: retry */
#define OLTP_PING_LOGIN       4   /* the server refused the login: stop */
#define OLTP_PING_QUERY       5   /* logged in, SELECT 1 failed */
#define OLTP_PING_TLS         6   /* the TLS handshake failed: stop */

#endif
