/*
 * list.h — drivebench's objects on a host, whatever run made them, found
 * by their names ("drivebench-..."): what `drivebench list` shows.
 */
#ifndef ORCH_LIST_H
#define ORCH_LIST_H

#include "attributes.h"

#include <stddef.h>
#include <libvirt/libvirt.h>
#include "virt/ledger.h"

/* Call fn for every drivebench object on conn (any run): kind, name, and
 * the pool for volumes. Returns 0 or -1 with err. */
typedef void (*orch_list_fn)(void *ctx, orch_obj_kind kind, const char *name,
                             const char *pool);
int orch_list_objects(virConnectPtr conn, orch_list_fn fn, void *ctx, char *err, size_t errlen) DB_MUST_CHECK;

#endif
