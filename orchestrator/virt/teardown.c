/* teardown.c — removing libvirt objects: one domain, pool or volume for
 * the ledger (ledger.c) and its creators, and every object of a name
 * prefix (see teardown.h, teardown_priv.h). */
#include "virt/teardown.h"
#include "virt/teardown_priv.h"
#include "virt/passt.h"
#include "virt/virt_error.h"

#include <stdlib.h>
#include <string.h>
#include <libvirt/virterror.h>

int orch_teardown_gone(void)
{
    int code = virGetLastErrorCode();
    return code == VIR_ERR_NO_DOMAIN || code == VIR_ERR_NO_STORAGE_POOL
        || code == VIR_ERR_NO_STORAGE_VOL;
}

/* Destroy and undefine a domain. 1 removed, 0 already gone, -1 failed. */
int orch_teardown_domain(virDomainPtr dom, FILE *log)
{
    int rc = 1, active;
    if (virDomainIsActive(dom) == 1 && virDomainDestroy(dom) < 0 && !orch_teardown_gone()) {
        char why[1024];
        snprintf(why, sizeof why, "%s", orch_virt_error());
        /* it stopped by itself meanwhile: a guest that shut down or reset
         * (on_reboot destroy) between the two calls; libvirt then refuses
         * the destroy with "domain is not running" */
        active = virDomainIsActive(dom);
        if (active == 1 || (active < 0 && !orch_teardown_gone())) {
            if (log)
                fprintf(log, "teardown: cannot stop domain %s: %s\n", virDomainGetName(dom), why);
            return -1;
        }
    }
    if (virDomainIsPersistent(dom) == 1
        && virDomainUndefineFlags(dom, VIR_DOMAIN_UNDEFINE_MANAGED_SAVE
                                  | VIR_DOMAIN_UNDEFINE_SNAPSHOTS_METADATA
                                  | VIR_DOMAIN_UNDEFINE_NVRAM) < 0
        && virDomainUndefine(dom) < 0 && !orch_teardown_gone()) {
        if (log) {
            const char *why = orch_virt_error();
            fprintf(log, "teardown: cannot undefine domain %s: %s\n", virDomainGetName(dom), why);
        }
        rc = -1;
    }
    return rc;
}

int orch_teardown_pool(virStoragePoolPtr pool, FILE *log)
{
    if (virStoragePoolIsActive(pool) == 1 && virStoragePoolDestroy(pool) < 0 && !orch_teardown_gone()) {
        if (log) {
            const char *why = orch_virt_error();
            fprintf(log, "teardown: cannot stop pool %s: %s\n", virStoragePoolGetName(pool), why);
        }
        return -1;
    }
    if (virStoragePoolIsPersistent(pool) == 1 && virStoragePoolUndefine(pool) < 0
        && !orch_teardown_gone()) {
        if (log) {
            const char *why = orch_virt_error();
            fprintf(log, "teardown: cannot undefine pool %s: %s\n", virStoragePoolGetName(pool), why);
        }
        return -1;
    }
    return 1;
}

int orch_teardown_vol(virStorageVolPtr vol, FILE *log)
{
    if (virStorageVolDelete(vol, 0) < 0 && !orch_teardown_gone()) {
        if (log) {
            const char *why = orch_virt_error();
            fprintf(log, "teardown: cannot delete volume %s: %s\n", virStorageVolGetName(vol), why);
        }
        return -1;
    }
    return 1;
}

void orch_teardown_count(orch_counts *c, orch_obj_kind kind)
{
    if (!c)
        return;
    if (kind == ORCH_OBJ_DOMAIN)
        c->domains++;
    else if (kind == ORCH_OBJ_VOLUME)
        c->volumes++;
    else if (kind == ORCH_OBJ_NET)
        c->nets++;
    else
        c->pools++;
}

static int has_prefix(const char *name, const char *prefix)
{
    return strncmp(name, prefix, strlen(prefix)) == 0;
}

int orch_teardown_prefix(virConnectPtr conn, const char *prefix, FILE *log,
                         orch_counts *removed)
{
    virDomainPtr *doms = NULL;
    virStoragePoolPtr *pools = NULL;
    int ndoms, npools, failed = 0;

    ndoms = virConnectListAllDomains(conn, &doms, 0);
    if (ndoms < 0) {
        if (log)
            fprintf(log, "teardown: cannot list domains: %s\n", orch_virt_error());
        failed++;
    }
    for (int i = 0; i < ndoms; i++) {
        if (has_prefix(virDomainGetName(doms[i]), prefix)) {
            int rc = orch_teardown_domain(doms[i], log);
            if (rc < 0)
                failed++;
            else if (rc > 0)
                orch_teardown_count(removed, ORCH_OBJ_DOMAIN);
        }
        virDomainFree(doms[i]);
    }
    free(doms);

    npools = virConnectListAllStoragePools(conn, &pools, VIR_CONNECT_LIST_STORAGE_POOLS_ACTIVE);
    if (npools < 0) {
        if (log)
            fprintf(log, "teardown: cannot list storage pools: %s\n", orch_virt_error());
        failed++;
    }
    for (int i = 0; i < npools; i++) {
        virStorageVolPtr *vols = NULL;
        int nvols;
        virStoragePoolRefresh(pools[i], 0);
        nvols = virStoragePoolListAllVolumes(pools[i], &vols, 0);
        for (int j = 0; j < nvols; j++) {
            if (has_prefix(virStorageVolGetName(vols[j]), prefix)) {
                if (orch_teardown_vol(vols[j], log) < 0)
                    failed++;
                else
                    orch_teardown_count(removed, ORCH_OBJ_VOLUME);
            }
            virStorageVolFree(vols[j]);
        }
        free(vols);
        if (has_prefix(virStoragePoolGetName(pools[i]), prefix)) {
            if (orch_teardown_pool(pools[i], log) < 0)
                failed++;
            else
                orch_teardown_count(removed, ORCH_OBJ_POOL);
        }
        virStoragePoolFree(pools[i]);
    }
    free(pools);
    failed += orch_passt_teardown_prefix(prefix, log, removed ? &removed->nets : NULL);
    return failed;
}

void orch_teardown_print_counts(FILE *out, const orch_counts *c)
{
    fprintf(out, "removed %d domain(s), %d volume(s), %d pool(s)", c->domains, c->volumes,
            c->pools);
    if (c->nets)
        fprintf(out, "; stopped %d passt network(s)", c->nets);
}
