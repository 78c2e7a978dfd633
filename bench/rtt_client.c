/*
 * rtt_client.c — one MariaDB connection sending `SELECT 1` in a loop: the
 * cost of one client-to-database round trip and nothing else (no table, no
 * prepared statement, result stored and dropped). bench/client_paths.sh runs
 * it on the host through each network path to a VM, and inside the guest
 * (the same binary: the guest image has libmariadb3), and reads the host CPU
 * the round trips cost from /proc beside it. Not part of bin/: the bench
 * script builds it.
 *
 * Usage: rtt_client HOST PORT USER PASSWORD SECONDS
 *        (HOST starting with '/' is a unix socket path; PORT is then ignored)
 * Prints one line: round_trips=N seconds=S avg_us=A p50_us=M p99_us=P
 * Exit 0, or 1 with a message on stderr when connecting or a query fails.
 */
#include <mysql.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rtt_common.h"

/* One `SELECT 1`, its result stored and dropped. */
static int select_one(void *ctx, size_t i)
{
    MYSQL *m = ctx;
    MYSQL_RES *r;
    (void)i;
    if (mysql_real_query(m, "SELECT 1", 8)) {
        fprintf(stderr, "rtt_client: SELECT 1: %s\n", mysql_error(m));
        return -1;
    }
    if (!(r = mysql_store_result(m))) {
        fprintf(stderr, "rtt_client: SELECT 1 returned no result: %s\n", mysql_error(m));
        return -1;
    }
    mysql_free_result(r);
    return 0;
}

int main(int argc, char **argv)
{
    int rc = 1;
    MYSQL *m = NULL;
    if (argc != 6) {
        fprintf(stderr, "usage: rtt_client HOST PORT USER PASSWORD SECONDS\n");
        return 2;
    }
    const char *host = argv[1];
    unsigned port = (unsigned)atoi(argv[2]);
    double seconds = atof(argv[5]);
    if (!(m = mysql_init(NULL))) {
        fprintf(stderr, "rtt_client: out of memory\n");
        return 1;
    }
    if (!mysql_real_connect(m, host[0] == '/' ? NULL : host, argv[3], argv[4], NULL,
                            host[0] == '/' ? 0 : port, host[0] == '/' ? host : NULL, 0))
        fprintf(stderr, "rtt_client: connect to %s:%u: %s\n", host, port, mysql_error(m));
    else
        rc = rtt_measure("rtt_client", seconds, select_one, m);
    mysql_close(m);
    return rc;
}
