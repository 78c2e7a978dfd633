/* listen.c — listening addresses as text (listen.h). */
#include "util/listen.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The port after the host part: digits only, 0..65535. */
static int parse_port(const char *s, int *port)
{
    char *end;
    long v;
    if (*s < '0' || *s > '9')
        return -1;
    errno = 0;
    v = strtol(s, &end, 10);
    if (errno || *end || v > 65535)
        return -1;
    *port = (int)v;
    return 0;
}

int orch_listen_parse(const char *s, orch_listen_addr *out, char *err, size_t errlen)
{
    char host[64];
    const char *colon, *port_text;
    size_t hl;

    memset(out, 0, sizeof *out);
    if (s[0] == '[') {                          /* [IPv6]:PORT */
        const char *close = strchr(s, ']');
        if (!close || close[1] != ':') {
            snprintf(err, errlen, "'%s' is not an address like [::1]:9464", s);
            return -1;
        }
        hl = (size_t)(close - s - 1);
        port_text = close + 2;
        if (hl >= sizeof host)
            hl = sizeof host - 1;
        memcpy(host, s + 1, hl);
        host[hl] = '\0';
    } else {
        colon = strrchr(s, ':');
        if (!colon || strchr(s, ':') != colon) {
            snprintf(err, errlen, "'%s' is not an address like 127.0.0.1:9464 (ADDRESS:PORT; "
                     "[ADDRESS]:PORT for IPv6)", s);
            return -1;
        }
        hl = (size_t)(colon - s);
        port_text = colon + 1;
        if (hl >= sizeof host)
            hl = sizeof host - 1;
        memcpy(host, s, hl);
        host[hl] = '\0';
    }
    if (parse_port(port_text, &out->port) < 0) {
        snprintf(err, errlen, "'%s': the port '%s' is not a number in 0..65535", s, port_text);
        return -1;
    }
    if (strcmp(host, "localhost") == 0)
        snprintf(host, sizeof host, "127.0.0.1");
    if (s[0] != '[') {
        struct sockaddr_in *in = (struct sockaddr_in *)&out->sa;
        if (inet_pton(AF_INET, host, &in->sin_addr) != 1) {
            snprintf(err, errlen, "'%s': '%s' is not an IPv4 address (a name other than "
                     "localhost is not taken: give the address to listen on)", s, host);
            return -1;
        }
        in->sin_family = AF_INET;
        in->sin_port = htons((uint16_t)out->port);
        out->len = sizeof *in;
        out->loopback = (ntohl(in->sin_addr.s_addr) >> 24) == 127;
    } else {
        struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&out->sa;
        if (inet_pton(AF_INET6, host, &in6->sin6_addr) != 1) {
            snprintf(err, errlen, "'%s': '%s' is not an IPv6 address", s, host);
            return -1;
        }
        in6->sin6_family = AF_INET6;
        in6->sin6_port = htons((uint16_t)out->port);
        out->len = sizeof *in6;
        /* ::1, or 127.0.0.0/8 written as IPv4-mapped (::ffff:127.0.0.1) */
        out->loopback = IN6_IS_ADDR_LOOPBACK(&in6->sin6_addr)
                        || (IN6_IS_ADDR_V4MAPPED(&in6->sin6_addr)
                            && in6->sin6_addr.s6_addr[12] == 127);
    }
    return 0;
}
