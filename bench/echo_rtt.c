/*
 * echo_rtt.c — the guest network's own round trip, without a database: a
 * TCP echo server (in the guest) and a client that sends SIZE bytes and
 * reads them back, one connection, in a loop. bench/client_paths.sh (kind
 * "echo", bench/guest_net.sh) runs the server in the guest and the client
 * on the host through each forward (QEMU's user-mode hostfwd, passt) and in
 * the guest over its loopback, and reads the CPU each path costs from /proc.
 *
 * The client speaks first, so this also runs through Debian 12's passt
 * (2023-03-09), which never acknowledges the guest's SYN-ACK of a forwarded
 * connection until the host side sends data: a server-first protocol such
 * as MariaDB's stalls there (bench/RESULTS-network.md).
 *
 * Usage: echo_rtt server PORT            (serves one connection at a time,
 *                                         for ever; listens on 0.0.0.0)
 *        echo_rtt client HOST PORT SECONDS [SIZE]   (SIZE 1..4096, default 64)
 * The client prints one line, as bench/rtt_client.c does:
 *   round_trips=N seconds=S avg_us=A p50_us=M p99_us=P
 * Exit 0, or 1 with a message on stderr (2 for bad usage).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include "rtt_common.h"
#include <unistd.h>

enum { MAX_SIZE = 4096 };


static int parse_port(const char *s)
{
    char *end;
    long v = strtol(s, &end, 10);
    return *s && !*end && v > 0 && v < 65536 ? (int)v : -1;
}

static void nodelay(int fd)
{
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

/* Read exactly n bytes: 0, or -1 on error or end of stream. */
static int read_full(int fd, char *buf, size_t n)
{
    while (n) {
        ssize_t r = read(fd, buf, n);
        if (r <= 0)
            return -1;
        buf += r;
        n -= (size_t)r;
    }
    return 0;
}

static int write_full(int fd, const char *buf, size_t n)
{
    while (n) {
        ssize_t w = write(fd, buf, n);
        if (w <= 0)
            return -1;
        buf += w;
        n -= (size_t)w;
    }
    return 0;
}

static int serve(int port)
{
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
    int one = 1, fd = socket(AF_INET, SOCK_STREAM, 0);
    char buf[65536];
    a.sin_addr.s_addr = htonl(INADDR_ANY);
    if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) < 0
        || bind(fd, (struct sockaddr *)&a, sizeof a) < 0 || listen(fd, 16) < 0) {
        perror("echo_rtt: listen");
        return 1;
    }
    for (;;) {
        int c = accept(fd, NULL, NULL);
        ssize_t r;
        if (c < 0)
            continue;
        nodelay(c);
        while ((r = read(c, buf, sizeof buf)) > 0)
            if (write_full(c, buf, (size_t)r) < 0)
                break;
        close(c);
    }
}

/* One echo: size bytes out, the same size bytes back and equal. */
typedef struct echo_ctx {
    int         fd;
    size_t      size;
    const char *host;
    int         port;
    char        out[MAX_SIZE], in[MAX_SIZE];
} echo_ctx;

static int echo_once(void *ctx, size_t i)
{
    echo_ctx *e = ctx;
    if (write_full(e->fd, e->out, e->size) < 0 || read_full(e->fd, e->in, e->size) < 0) {
        fprintf(stderr, "echo_rtt: round trip %zu to %s:%d: connection lost\n", i, e->host,
                e->port);
        return -1;
    }
    if (memcmp(e->in, e->out, e->size) != 0) {
        fprintf(stderr, "echo_rtt: round trip %zu: the echo differs\n", i);
        return -1;
    }
    return 0;
}

static int client(const char *host, int port, double seconds, size_t size)
{
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
    echo_ctx e = { .fd = -1, .size = size, .host = host, .port = port };
    int rc = 1;
    if (inet_pton(AF_INET, host, &a.sin_addr) != 1) {
        fprintf(stderr, "echo_rtt: not an IPv4 address: %s\n", host);
        return 1;
    }
    if ((e.fd = socket(AF_INET, SOCK_STREAM, 0)) < 0
        || connect(e.fd, (struct sockaddr *)&a, sizeof a) < 0) {
        fprintf(stderr, "echo_rtt: connect to %s:%d: %s\n", host, port, strerror(errno));
    } else {
        nodelay(e.fd);
        memset(e.out, 'x', size);
        rc = rtt_measure("echo_rtt", seconds, echo_once, &e);
    }
    if (e.fd >= 0)
        close(e.fd);
    return rc;
}

int main(int argc, char **argv)
{
    int port;
    if (argc == 3 && strcmp(argv[1], "server") == 0 && (port = parse_port(argv[2])) > 0)
        return serve(port);
    if ((argc == 5 || argc == 6) && strcmp(argv[1], "client") == 0
        && (port = parse_port(argv[3])) > 0 && atof(argv[4]) > 0) {
        long size = argc == 6 ? atol(argv[5]) : 64;
        if (size >= 1 && size <= MAX_SIZE)
            return client(argv[2], port, atof(argv[4]), (size_t)size);
    }
    fprintf(stderr, "usage: echo_rtt server PORT | echo_rtt client HOST PORT SECONDS [SIZE 1..%d]\n",
            MAX_SIZE);
    return 2;
}
