/*
 * listen.h — a listening address written as text ("127.0.0.1:9464",
 * "[::1]:9464", "localhost:9464", "0.0.0.0:9464"): its socket address
 * and whether it stays on this machine (loopback). Names other than
 * localhost are refused: an address is what a listener binds, and a name
 * could resolve anywhere. Port 0: the system picks a free one.
 */
#ifndef ORCH_LISTEN_H
#define ORCH_LISTEN_H

#include "attributes.h"

#include <stddef.h>
#include <sys/socket.h>

typedef struct orch_listen_addr {
    struct sockaddr_storage sa;
    socklen_t               len;
    int                     port;       /* 0: any free port */
    int                     loopback;   /* 127.0.0.0/8 or ::1 */
} orch_listen_addr;

/* Parse s into *out. 0, or -1 with why in err (the caller names the key). */
int orch_listen_parse(const char *s, orch_listen_addr *out, char *err, size_t errlen) DB_MUST_CHECK;

#endif
