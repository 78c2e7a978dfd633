/* conns.c — a run's libvirt connections, one per URI (see conns.h). */
#include "virt/conns.h"
#include "virt/virt_error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct orch_conns {
    char         **uris;
    virConnectPtr *conns;
    int            n;
};

orch_conns *orch_conns_new(void)
{
    orch_virt_error_init();
    return calloc(1, sizeof(orch_conns));
}

virConnectPtr orch_conns_open(orch_conns *c, const char *uri, char *err, size_t errlen)
{
    virConnectPtr conn;
    char **u;
    virConnectPtr *cs;
    for (int i = 0; i < c->n; i++)
        if (strcmp(c->uris[i], uri) == 0)
            return c->conns[i];
    conn = virConnectOpen(uri);
    if (!conn) {
        snprintf(err, errlen, "cannot connect to %s: %s", uri, orch_virt_error());
        return NULL;
    }
    u = realloc(c->uris, sizeof *u * (size_t)(c->n + 1));
    if (u)
        c->uris = u;
    cs = realloc(c->conns, sizeof *cs * (size_t)(c->n + 1));
    if (cs)
        c->conns = cs;
    if (!u || !cs || !(c->uris[c->n] = strdup(uri))) {
        virConnectClose(conn);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    c->conns[c->n++] = conn;
    return conn;
}

int orch_conns_replace(orch_conns *c, virConnectPtr old, virConnectPtr conn)
{
    for (int i = 0; i < c->n; i++)
        if (c->conns[i] == old) {
            c->conns[i] = conn;
            virConnectClose(old);
            return 0;
        }
    return -1;
}

void orch_conns_free(orch_conns *c)
{
    if (!c)
        return;
    for (int i = 0; i < c->n; i++) {
        virConnectClose(c->conns[i]);
        free(c->uris[i]);
    }
    free(c->uris);
    free(c->conns);
    free(c);
}
