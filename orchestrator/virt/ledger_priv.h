/*
 * ledger_priv.h — how the files that create objects (pool.c, vol.c,
 * domain.c) record them in a ledger (ledger.h). Private to virt/: virt.h
 * does not include it.
 */
#ifndef ORCH_LEDGER_PRIV_H
#define ORCH_LEDGER_PRIV_H

#include "virt/ledger.h"

/* Record an object of kind on conn (a volume with its pool, else pool
 * NULL); safe from several threads at once. 0, or -1 when out of
 * memory (nothing recorded). */
int orch_ledger_add(orch_ledger *l, orch_obj_kind kind, virConnectPtr conn,
                    const char *pool, const char *name) DB_MUST_CHECK;

#endif
