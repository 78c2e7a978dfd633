/*
 * vol.h — the volumes of a run: raw or qcow2, empty, an overlay on a
 * qcow2 file or a copy of another volume, each recorded in the run's
 * ledger (ledger.h); and their <volume> XML, built as a tree.
 */
#ifndef ORCH_VOL_H
#define ORCH_VOL_H

#include <stddef.h>
#include <stdint.h>
#include <libvirt/libvirt.h>
#include "virt/ledger.h"

/* The <volume> XML of orch_vol_create; with mode (e.g. "0644") the volume
 * gets those permissions and starts empty, as the target of an upload.
 * Caller frees; NULL when out of memory. */
char *orch_vol_xml(const char *name, const char *format, uint64_t capacity, const char *backing,
                   const char *mode);

/* Create volume `name` in pool: format "raw" or "qcow2", capacity in
 * bytes; with backing (a path) it is a qcow2 overlay on that qcow2 file;
 * with from it is a copy of that volume. Returns the volume (caller
 * virStorageVolFree) or NULL with err. */
virStorageVolPtr orch_vol_create(virStoragePoolPtr pool, orch_ledger *l, const char *name,
                                 const char *format, uint64_t capacity, const char *backing,
                                 virStorageVolPtr from, char *err, size_t errlen);

#endif
