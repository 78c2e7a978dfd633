/* pool.c — the storage pools of a run (see pool.h). */
#include "virt/pool.h"
#include "virt/ledger_priv.h"
#include "virt/teardown_priv.h"
#include "virt/virt_error.h"

#include <stdio.h>
#include <libvirt/virterror.h>
#include <libxml/tree.h>

virStoragePoolPtr orch_pool_create_dir(virConnectPtr conn, orch_ledger *l, const char *name,
                                       const char *path, char *err, size_t errlen)
{
    xmlDocPtr doc = xmlNewDoc(BAD_CAST "1.0");
    xmlNodePtr root, target;
    xmlChar *xml = NULL;
    int len = 0;
    virStoragePoolPtr pool = NULL;

    if (!doc)
        goto oom;
    root = xmlNewNode(NULL, BAD_CAST "pool");
    if (!root)
        goto oom;
    xmlDocSetRootElement(doc, root);
    xmlSetProp(root, BAD_CAST "type", BAD_CAST "dir");
    xmlNewTextChild(root, NULL, BAD_CAST "name", BAD_CAST name);
    target = xmlNewChild(root, NULL, BAD_CAST "target", NULL);
    if (!target || !xmlNewTextChild(target, NULL, BAD_CAST "path", BAD_CAST path))
        goto oom;
    xmlDocDumpMemory(doc, &xml, &len);
    if (!xml)
        goto oom;
    /* build = create the directory if missing; drivers without it (the
     * test driver) get the plain call */
    pool = virStoragePoolCreateXML(conn, (const char *)xml, VIR_STORAGE_POOL_CREATE_WITH_BUILD);
    if (!pool && virGetLastErrorCode() == VIR_ERR_INVALID_ARG)
        pool = virStoragePoolCreateXML(conn, (const char *)xml, 0);
    if (!pool)
        snprintf(err, errlen, "cannot create storage pool %s on %s: %s", name, path,
                 orch_virt_error());
    else if (orch_ledger_add(l, ORCH_OBJ_POOL, conn, NULL, name) < 0) {
        orch_teardown_pool(pool, NULL);
        virStoragePoolFree(pool);
        pool = NULL;
        goto oom;
    }
    xmlFree(xml);
    xmlFreeDoc(doc);
    return pool;
oom:
    snprintf(err, errlen, "out of memory");
    xmlFree(xml);
    xmlFreeDoc(doc);
    return NULL;
}

virStoragePoolPtr orch_pool_lookup(virConnectPtr conn, const char *name, char *err, size_t errlen)
{
    virStoragePoolPtr pool = virStoragePoolLookupByName(conn, name);
    if (!pool) {
        snprintf(err, errlen, "storage pool %s: %s", name, orch_virt_error());
        return NULL;
    }
    if (virStoragePoolIsActive(pool) != 1) {
        snprintf(err, errlen, "storage pool %s is not active: start it with "
                 "`virsh pool-start %s`", name, name);
        virStoragePoolFree(pool);
        return NULL;
    }
    return pool;
}
