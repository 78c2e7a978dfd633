/*
 * pool.h — the storage pools of a run: a transient directory pool on the
 * drive under test, recorded in the run's ledger (ledger.h), or an
 * existing pool the run only uses.
 */
#ifndef ORCH_POOL_H
#define ORCH_POOL_H

#include <stddef.h>
#include <libvirt/libvirt.h>
#include "virt/ledger.h"

/* Start a transient directory pool `name` on path (the drive under test).
 * Returns the pool (caller virStoragePoolFree) or NULL with err. */
virStoragePoolPtr orch_pool_create_dir(virConnectPtr conn, orch_ledger *l, const char *name,
                                       const char *path, char *err, size_t errlen);
/* An existing, active pool by name (not recorded: the run does not own it). */
virStoragePoolPtr orch_pool_lookup(virConnectPtr conn, const char *name,
                                   char *err, size_t errlen);

#endif
