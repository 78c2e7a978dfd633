/*
 * conns.h — the libvirt connections of a run: one per URI, opened on
 * first use and shared by everything in the run, and replaced by a new
 * one when libvirtd restarts.
 */
#ifndef ORCH_CONNS_H
#define ORCH_CONNS_H

#include "attributes.h"

#include <stddef.h>
#include <libvirt/libvirt.h>

/* Open connections, one per URI, shared by everything in a run. */
typedef struct orch_conns orch_conns;
orch_conns *orch_conns_new(void);
/* The connection to uri, opened on first use. Borrowed: valid until
 * orch_conns_free. NULL with a message in err when it cannot be opened. */
virConnectPtr orch_conns_open(orch_conns *c, const char *uri, char *err, size_t errlen);
void orch_conns_free(orch_conns *c);          /* closes all; accepts NULL */
/* After old closed (libvirtd restarted): conn, a new connection to the
 * same URI, takes its place, so later opens of that URI return conn. c
 * takes over the caller's reference to conn and drops its own to old.
 * 0, or -1 when old is not one of c's. */
int orch_conns_replace(orch_conns *c, virConnectPtr old, virConnectPtr conn) DB_MUST_CHECK;

#endif
