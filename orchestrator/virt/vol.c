/* vol.c — the volumes of a run (see vol.h). */
#include "virt/vol.h"
#include "virt/ledger_priv.h"
#include "virt/teardown_priv.h"
#include "virt/virt_error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libxml/tree.h>

char *orch_vol_xml(const char *name, const char *format, uint64_t capacity, const char *backing,
                   const char *mode)
{
    xmlDocPtr doc = xmlNewDoc(BAD_CAST "1.0");
    xmlNodePtr root, n, target, fmt;
    xmlChar *xml = NULL;
    char *out = NULL, num[32];
    int len = 0;

    if (!doc || !(root = xmlNewNode(NULL, BAD_CAST "volume")))
        goto done;
    xmlDocSetRootElement(doc, root);
    xmlNewTextChild(root, NULL, BAD_CAST "name", BAD_CAST name);
    snprintf(num, sizeof num, "%llu", (unsigned long long)capacity);
    n = xmlNewTextChild(root, NULL, BAD_CAST "capacity", BAD_CAST num);
    if (n)
        xmlSetProp(n, BAD_CAST "unit", BAD_CAST "bytes");
    /* an overlay, or the target of an upload, starts empty */
    if (backing || mode)
        xmlNewTextChild(root, NULL, BAD_CAST "allocation", BAD_CAST "0");
    target = xmlNewChild(root, NULL, BAD_CAST "target", NULL);
    fmt = target ? xmlNewChild(target, NULL, BAD_CAST "format", NULL) : NULL;
    if (fmt)
        xmlSetProp(fmt, BAD_CAST "type", BAD_CAST format);
    if (target && mode && (n = xmlNewChild(target, NULL, BAD_CAST "permissions", NULL)))
        xmlNewTextChild(n, NULL, BAD_CAST "mode", BAD_CAST mode);
    if (backing) {
        n = xmlNewChild(root, NULL, BAD_CAST "backingStore", NULL);
        if (n) {
            xmlNewTextChild(n, NULL, BAD_CAST "path", BAD_CAST backing);
            fmt = xmlNewChild(n, NULL, BAD_CAST "format", NULL);
            if (fmt)
                xmlSetProp(fmt, BAD_CAST "type", BAD_CAST "qcow2");
        }
    }
    xmlDocDumpMemory(doc, &xml, &len);
    if (xml)
        out = strdup((const char *)xml);
done:
    xmlFree(xml);
    xmlFreeDoc(doc);
    return out;
}

virStorageVolPtr orch_vol_create(virStoragePoolPtr pool, orch_ledger *l, const char *name,
                                 const char *format, uint64_t capacity, const char *backing,
                                 virStorageVolPtr from, char *err, size_t errlen)
{
    char *xml = orch_vol_xml(name, format, capacity, backing, NULL);
    virStorageVolPtr vol;
    if (!xml) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    vol = from ? virStorageVolCreateXMLFrom(pool, xml, from, 0)
               : virStorageVolCreateXML(pool, xml, 0);
    free(xml);
    if (!vol) {
        const char *why = orch_virt_error();
        snprintf(err, errlen, "cannot create volume %s in pool %s: %s", name,
                 virStoragePoolGetName(pool), why);
        return NULL;
    }
    if (orch_ledger_add(l, ORCH_OBJ_VOLUME, virStoragePoolGetConnect(pool),
                   virStoragePoolGetName(pool), name) < 0) {
        orch_teardown_vol(vol, NULL);
        virStorageVolFree(vol);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    return vol;
}
