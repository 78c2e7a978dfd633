/* list.c — drivebench's objects on a host, found by their names (see
 * list.h). */
#include "virt/list.h"
#include "virt/virt_error.h"
#include "util/util.h"          /* ORCH_NAME_PREFIX */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int has_prefix(const char *name, const char *prefix)
{
    return strncmp(name, prefix, strlen(prefix)) == 0;
}

int orch_list_objects(virConnectPtr conn, orch_list_fn fn, void *ctx, char *err, size_t errlen)
{
    virDomainPtr *doms = NULL;
    virStoragePoolPtr *pools = NULL;
    int ndoms = virConnectListAllDomains(conn, &doms, 0);
    int npools;

    if (ndoms < 0) {
        snprintf(err, errlen, "cannot list domains: %s", orch_virt_error());
        return -1;
    }
    for (int i = 0; i < ndoms; i++) {
        if (has_prefix(virDomainGetName(doms[i]), ORCH_NAME_PREFIX))
            fn(ctx, ORCH_OBJ_DOMAIN, virDomainGetName(doms[i]), NULL);
        virDomainFree(doms[i]);
    }
    free(doms);
    npools = virConnectListAllStoragePools(conn, &pools, VIR_CONNECT_LIST_STORAGE_POOLS_ACTIVE);
    if (npools < 0) {
        snprintf(err, errlen, "cannot list storage pools: %s", orch_virt_error());
        return -1;
    }
    for (int i = 0; i < npools; i++) {
        virStorageVolPtr *vols = NULL;
        const char *pname = virStoragePoolGetName(pools[i]);
        int nvols = virStoragePoolListAllVolumes(pools[i], &vols, 0);
        for (int j = 0; j < nvols; j++) {
            if (has_prefix(virStorageVolGetName(vols[j]), ORCH_NAME_PREFIX))
                fn(ctx, ORCH_OBJ_VOLUME, virStorageVolGetName(vols[j]), pname);
            virStorageVolFree(vols[j]);
        }
        free(vols);
        if (has_prefix(pname, ORCH_NAME_PREFIX))
            fn(ctx, ORCH_OBJ_POOL, pname, NULL);
        virStoragePoolFree(pools[i]);
    }
    free(pools);
    return 0;
}
