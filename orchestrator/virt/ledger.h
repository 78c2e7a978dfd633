/*
 * ledger.h — the ledger of the libvirt objects a run creates (pools,
 * volumes, domains: pool.h, vol.h, domain.h) and of its passt networks
 * (passt.h).
 *
 * Every object a run creates is recorded in a ledger the moment it exists;
 * orch_ledger_teardown() removes them in reverse order whatever happened.
 * A crashed run's leftovers are found by name instead (teardown.h).
 */
#ifndef ORCH_LEDGER_H
#define ORCH_LEDGER_H

#include "attributes.h"

#include <stdio.h>
#include <libvirt/libvirt.h>

/* ORCH_OBJ_NET: a VM's passt and its network namespace (passt.h) */
typedef enum { ORCH_OBJ_POOL, ORCH_OBJ_VOLUME, ORCH_OBJ_DOMAIN, ORCH_OBJ_NET } orch_obj_kind;

/* What a teardown removed (orch_teardown_print_counts). */
typedef struct orch_counts {
    int domains, volumes, pools;
    int nets;                   /* passt networks (passt.h) */
} orch_counts;

/* Objects are recorded safely from several threads at once (restore.c);
 * teardown and free are for one thread, after those are done. */
typedef struct orch_ledger orch_ledger;
orch_ledger *orch_ledger_new(void);
void orch_ledger_free(orch_ledger *l);        /* does not tear down; accepts NULL */
int  orch_ledger_count(const orch_ledger *l);
/* Objects recorded on old are from now on looked up (by name) on conn:
 * after a reconnect, teardown goes through the connection that answers. */
void orch_ledger_rebind(orch_ledger *l, virConnectPtr old, virConnectPtr conn);

/* Remove every recorded object, newest first, and empty the ledger.
 * Problems are printed on log (may be NULL). Adds what was removed to
 * *removed (may be NULL). Returns the number of objects that could not be
 * removed (0 = clean). */
int orch_ledger_teardown(orch_ledger *l, FILE *log, orch_counts *removed);

/* Record the passt network of domain name (passt.h) before it is
 * created: teardown stops its passt and deletes its namespace. conn is
 * the domain's. 0, or -1 when out of memory. */
int orch_ledger_add_net(orch_ledger *l, virConnectPtr conn, const char *name) DB_MUST_CHECK;

#endif
