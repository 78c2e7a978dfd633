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



int main(int argc, char **argv)
{
    int rc = 1;
    uint32_t *lat = NULL;
    MYSQL *m = NULL;
    if (argc != 6) {
        fprintf(stderr, "usage: rtt_client HOST PORT USER PASSWORD SECONDS\n");
        return 2;
    }
    const char *host = argv[1];
    unsigned port = (unsigned)atoi(argv[2]);
    double seconds = atof(argv[5]);
    lat = malloc(sizeof *lat * RTT_MAX_SAMPLES);
    m = mysql_init(NULL);
    if (!lat || !m) {
        fprintf(stderr, "rtt_client: out of memory\n");
        goto cleanup;
    }
    if (!mysql_real_connect(m, host[0] == '/' ? NULL : host, argv[3], argv[4], NULL,
                            host[0] == '/' ? 0 : port, host[0] == '/' ? host : NULL, 0)) {
        fprintf(stderr, "rtt_client: connect to %s:%u: %s\n", host, port, mysql_error(m));
        goto cleanup;
    }
    uint64_t t0 = rtt_now_ns(), end = t0 + (uint64_t)(seconds * 1e9), t = t0;
    size_t n = 0;
    while (t < end && n < RTT_MAX_SAMPLES) {
        if (mysql_real_query(m, "SELECT 1", 8)) {
            fprintf(stderr, "rtt_client: SELECT 1: %s\n", mysql_error(m));
            goto cleanup;
        }
        MYSQL_RES *r = mysql_store_result(m);
        if (!r) {
            fprintf(stderr, "rtt_client: SELECT 1 returned no result: %s\n", mysql_error(m));
            goto cleanup;
        }
        mysql_free_result(r);
        uint64_t t1 = rtt_now_ns();
        lat[n++] = (uint32_t)((t1 - t) / 1000u);
        t = t1;
    }
    if (n == 0) {
        fprintf(stderr, "rtt_client: no round trip in %.1f s\n", seconds);
        goto cleanup;
    }
    rtt_print(lat, n, t0, t);
    rc = 0;
cleanup:
    if (m)
        mysql_close(m);
    free(lat);
    return rc;
}
