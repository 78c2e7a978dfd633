/*
 * teardown_priv.h — removing one libvirt object, for the ledger's
 * teardown (ledger.c), the teardown by name (teardown.c), and the files
 * that create objects, which remove one they could not record (pool.c,
 * vol.c, domain.c). Private to virt/: virt.h does not include it.
 *
 * Each returns 1 when it removed the object, 0 when it was already gone,
 * -1 when it failed, with the reason printed on log (may be NULL).
 */
#ifndef ORCH_TEARDOWN_PRIV_H
#define ORCH_TEARDOWN_PRIV_H

#include <stdio.h>
#include <libvirt/libvirt.h>
#include "virt/ledger.h"

/* Destroy and undefine a domain. */
int orch_teardown_domain(virDomainPtr dom, FILE *log);
/* Stop and undefine a pool. */
int orch_teardown_pool(virStoragePoolPtr pool, FILE *log);
/* Delete a volume. */
int orch_teardown_vol(virStorageVolPtr vol, FILE *log);

/* 1 when this thread's last libvirt error says the object does not exist
 * (no such domain, pool or volume), else 0. */
int orch_teardown_gone(void);

/* Count one removed object of kind in c (may be NULL). */
void orch_teardown_count(orch_counts *c, orch_obj_kind kind);

#endif
