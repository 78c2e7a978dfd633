/* provision.c — libvirt pools, volumes, domains, teardown (see
 * provision.h). */
#include "virt/provision.h"
#include "virt/passt.h"
#include "util/util.h"
#include "plan/plan.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <libvirt/virterror.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xpath.h>

struct orch_conns {
    char         **uris;
    virConnectPtr *conns;
    int            n;
};

typedef struct orch_obj {
    orch_obj_kind kind;
    virConnectPtr conn;         /* referenced */
    char         *pool;         /* pool of a volume */
    char         *name;
} orch_obj;

struct orch_ledger {
    orch_obj *objs;
    int       n;
    pthread_mutex_t mu;         /* restore.c creates volumes from threads */
};

static void silent_error(void *ud, virErrorPtr e)
{
    (void)ud;
    (void)e;
}

static void set_silent_error(void)
{
    virSetErrorFunc(NULL, silent_error);
}

void orch_virt_errors_init(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, set_silent_error);
}

const char *orch_virt_error(void)
{
    /* a copy: any later libvirt call (even virXGetName) resets the error */
    static __thread char buf[1024];
    const char *m = virGetLastErrorMessage();
    snprintf(buf, sizeof buf, "%s", m ? m : "unknown libvirt error");
    return buf;
}

orch_conns *orch_conns_new(void)
{
    orch_virt_errors_init();
    return calloc(1, sizeof(orch_conns));
}

virConnectPtr orch_conns_open(orch_conns *c, const char *uri, char *err, size_t errlen)
{
    virConnectPtr conn;
    char **u;
    virConnectPtr *cs;
    for (int i = 0; i < c->n; i++)
        if (strcmp(c->uris[i], uri) == 0)
            return c->conns[i];
    conn = virConnectOpen(uri);
    if (!conn) {
        snprintf(err, errlen, "cannot connect to %s: %s", uri, orch_virt_error());
        return NULL;
    }
    u = realloc(c->uris, sizeof *u * (size_t)(c->n + 1));
    if (u)
        c->uris = u;
    cs = realloc(c->conns, sizeof *cs * (size_t)(c->n + 1));
    if (cs)
        c->conns = cs;
    if (!u || !cs || !(c->uris[c->n] = strdup(uri))) {
        virConnectClose(conn);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    c->conns[c->n++] = conn;
    return conn;
}

int orch_conns_replace(orch_conns *c, virConnectPtr old, virConnectPtr conn)
{
    for (int i = 0; i < c->n; i++)
        if (c->conns[i] == old) {
            c->conns[i] = conn;
            virConnectClose(old);
            return 0;
        }
    return -1;
}

void orch_conns_free(orch_conns *c)
{
    if (!c)
        return;
    for (int i = 0; i < c->n; i++) {
        virConnectClose(c->conns[i]);
        free(c->uris[i]);
    }
    free(c->uris);
    free(c->conns);
    free(c);
}

orch_ledger *orch_ledger_new(void)
{
    orch_ledger *l = calloc(1, sizeof(orch_ledger));
    if (l)
        pthread_mutex_init(&l->mu, NULL);
    return l;
}

int orch_ledger_count(const orch_ledger *l)
{
    return l ? l->n : 0;
}

void orch_ledger_rebind(orch_ledger *l, virConnectPtr old, virConnectPtr conn)
{
    for (int i = 0; l && i < l->n; i++)
        if (l->objs[i].conn == old) {
            virConnectRef(conn);
            virConnectClose(old);
            l->objs[i].conn = conn;
        }
}

static void obj_clear(orch_obj *o)
{
    virConnectClose(o->conn);
    free(o->pool);
    free(o->name);
}

void orch_ledger_free(orch_ledger *l)
{
    if (!l)
        return;
    for (int i = 0; i < l->n; i++)
        obj_clear(&l->objs[i]);
    free(l->objs);
    pthread_mutex_destroy(&l->mu);
    free(l);
}

/* Record an object; safe from several threads at once. */
static int ledger_add(orch_ledger *l, orch_obj_kind kind, virConnectPtr conn,
                      const char *pool, const char *name)
{
    orch_obj *o;
    pthread_mutex_lock(&l->mu);
    o = realloc(l->objs, sizeof *o * (size_t)(l->n + 1));
    if (!o) {
        pthread_mutex_unlock(&l->mu);
        return -1;
    }
    l->objs = o;
    o = &l->objs[l->n];
    o->kind = kind;
    o->conn = conn;
    o->pool = pool ? strdup(pool) : NULL;
    o->name = strdup(name);
    if (!o->name || (pool && !o->pool)) {
        free(o->pool);
        free(o->name);
        pthread_mutex_unlock(&l->mu);
        return -1;
    }
    virConnectRef(conn);
    l->n++;
    pthread_mutex_unlock(&l->mu);
    return 0;
}

static int is_gone(void)
{
    int code = virGetLastErrorCode();
    return code == VIR_ERR_NO_DOMAIN || code == VIR_ERR_NO_STORAGE_POOL
        || code == VIR_ERR_NO_STORAGE_VOL;
}

/* Destroy and undefine a domain. 1 removed, 0 already gone, -1 failed. */
static int domain_remove(virDomainPtr dom, FILE *log)
{
    int rc = 1, active;
    if (virDomainIsActive(dom) == 1 && virDomainDestroy(dom) < 0 && !is_gone()) {
        char why[1024];
        snprintf(why, sizeof why, "%s", orch_virt_error());
        /* it stopped by itself meanwhile: a guest that shut down or reset
         * (on_reboot destroy) between the two calls; libvirt then refuses
         * the destroy with "domain is not running" */
        active = virDomainIsActive(dom);
        if (active == 1 || (active < 0 && !is_gone())) {
            if (log)
                fprintf(log, "teardown: cannot stop domain %s: %s\n", virDomainGetName(dom), why);
            return -1;
        }
    }
    if (virDomainIsPersistent(dom) == 1
        && virDomainUndefineFlags(dom, VIR_DOMAIN_UNDEFINE_MANAGED_SAVE
                                  | VIR_DOMAIN_UNDEFINE_SNAPSHOTS_METADATA
                                  | VIR_DOMAIN_UNDEFINE_NVRAM) < 0
        && virDomainUndefine(dom) < 0 && !is_gone()) {
        if (log) {
            const char *why = orch_virt_error();
            fprintf(log, "teardown: cannot undefine domain %s: %s\n", virDomainGetName(dom), why);
        }
        rc = -1;
    }
    return rc;
}

static int pool_remove(virStoragePoolPtr pool, FILE *log)
{
    if (virStoragePoolIsActive(pool) == 1 && virStoragePoolDestroy(pool) < 0 && !is_gone()) {
        if (log) {
            const char *why = orch_virt_error();
            fprintf(log, "teardown: cannot stop pool %s: %s\n", virStoragePoolGetName(pool), why);
        }
        return -1;
    }
    if (virStoragePoolIsPersistent(pool) == 1 && virStoragePoolUndefine(pool) < 0
        && !is_gone()) {
        if (log) {
            const char *why = orch_virt_error();
            fprintf(log, "teardown: cannot undefine pool %s: %s\n", virStoragePoolGetName(pool), why);
        }
        return -1;
    }
    return 1;
}

static int vol_remove(virStorageVolPtr vol, FILE *log)
{
    if (virStorageVolDelete(vol, 0) < 0 && !is_gone()) {
        if (log) {
            const char *why = orch_virt_error();
            fprintf(log, "teardown: cannot delete volume %s: %s\n", virStorageVolGetName(vol), why);
        }
        return -1;
    }
    return 1;
}

/* Remove one recorded object. 1 removed, 0 already gone, -1 failed. */
static int obj_remove(const orch_obj *o, FILE *log)
{
    int rc = 0;
    if (o->kind == ORCH_OBJ_NET)
        return orch_passt_stop(o->name, log);
    if (o->kind == ORCH_OBJ_DOMAIN) {
        virDomainPtr dom = virDomainLookupByName(o->conn, o->name);
        if (dom) {
            rc = domain_remove(dom, log);
            virDomainFree(dom);
        }
    } else {
        virStoragePoolPtr pool = virStoragePoolLookupByName(o->conn,
                                                            o->pool ? o->pool : o->name);
        if (pool && o->kind == ORCH_OBJ_POOL) {
            rc = pool_remove(pool, log);
        } else if (pool) {
            virStorageVolPtr vol = virStorageVolLookupByName(pool, o->name);
            if (vol) {
                rc = vol_remove(vol, log);
                virStorageVolFree(vol);
            }
        }
        if (pool)
            virStoragePoolFree(pool);
    }
    if (rc == 0 && !is_gone() && virGetLastErrorCode() != VIR_ERR_OK) {
        if (log)
            fprintf(log, "teardown: cannot look up %s: %s\n", o->name, orch_virt_error());
        return -1;
    }
    return rc;
}

static void count(orch_counts *c, orch_obj_kind kind)
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

int orch_ledger_teardown(orch_ledger *l, FILE *log, orch_counts *removed)
{
    int failed = 0;
    if (!l)
        return 0;
    for (int i = l->n - 1; i >= 0; i--) {
        int rc;
        virResetLastError();
        rc = obj_remove(&l->objs[i], log);
        if (rc < 0)
            failed++;
        else if (rc > 0)
            count(removed, l->objs[i].kind);
        obj_clear(&l->objs[i]);
    }
    l->n = 0;
    return failed;
}

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
    else if (ledger_add(l, ORCH_OBJ_POOL, conn, NULL, name) < 0) {
        pool_remove(pool, NULL);
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
    if (ledger_add(l, ORCH_OBJ_VOLUME, virStoragePoolGetConnect(pool),
                   virStoragePoolGetName(pool), name) < 0) {
        vol_remove(vol, NULL);
        virStorageVolFree(vol);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    return vol;
}

void orch_teardown_print_counts(FILE *out, const orch_counts *c)
{
    fprintf(out, "removed %d domain(s), %d volume(s), %d pool(s)", c->domains, c->volumes,
            c->pools);
    if (c->nets)
        fprintf(out, "; stopped %d passt network(s)", c->nets);
}

int orch_ledger_add_net(orch_ledger *l, virConnectPtr conn, const char *name)
{
    return ledger_add(l, ORCH_OBJ_NET, conn, NULL, name);
}

virDomainPtr orch_domain_start(virConnectPtr conn, orch_ledger *l, const char *xml,
                               char *err, size_t errlen)
{
    virDomainPtr dom = virDomainDefineXML(conn, xml);
    if (!dom) {
        snprintf(err, errlen, "cannot define domain: %s", orch_virt_error());
        return NULL;
    }
    if (ledger_add(l, ORCH_OBJ_DOMAIN, conn, NULL, virDomainGetName(dom)) < 0) {
        domain_remove(dom, NULL);
        virDomainFree(dom);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    if (virDomainCreate(dom) < 0) {
        const char *why = orch_virt_error();
        snprintf(err, errlen, "cannot start domain %s: %s", virDomainGetName(dom), why);
        virDomainFree(dom);
        return NULL;
    }
    return dom;
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
            int rc = domain_remove(doms[i], log);
            if (rc < 0)
                failed++;
            else if (rc > 0)
                count(removed, ORCH_OBJ_DOMAIN);
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
                if (vol_remove(vols[j], log) < 0)
                    failed++;
                else
                    count(removed, ORCH_OBJ_VOLUME);
            }
            virStorageVolFree(vols[j]);
        }
        free(vols);
        if (has_prefix(virStoragePoolGetName(pools[i]), prefix)) {
            if (pool_remove(pools[i], log) < 0)
                failed++;
            else
                count(removed, ORCH_OBJ_POOL);
        }
        virStoragePoolFree(pools[i]);
    }
    free(pools);
    failed += orch_passt_teardown_prefix(prefix, log, removed ? &removed->nets : NULL);
    return failed;
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

const char *orch_domain_type_for(virConnectPtr conn, char *err, size_t errlen)
{
    char *caps = virConnectGetCapabilities(conn);
    const char *type = "qemu";
    xmlDocPtr doc;
    xmlXPathContextPtr ctx = NULL;
    xmlXPathObjectPtr kvm = NULL;

    if (!caps) {
        snprintf(err, errlen, "cannot read host capabilities: %s", orch_virt_error());
        return NULL;
    }
    doc = xmlReadMemory(caps, (int)strlen(caps), "capabilities.xml", NULL,
                        XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
    free(caps);
    if (doc && (ctx = xmlXPathNewContext(doc)))
        kvm = xmlXPathEvalExpression(BAD_CAST "/capabilities/guest[os_type='hvm']"
                                     "/arch[@name='x86_64']/domain[@type='kvm']", ctx);
    if (kvm && kvm->nodesetval && kvm->nodesetval->nodeNr > 0)
        type = "kvm";
    xmlXPathFreeObject(kvm);
    xmlXPathFreeContext(ctx);
    xmlFreeDoc(doc);
    return type;
}

int orch_domain_restarts_on_reboot(virDomainPtr dom)
{
    char *xml = virDomainGetXMLDesc(dom, 0);
    xmlDocPtr doc;
    xmlXPathContextPtr ctx = NULL;
    xmlXPathObjectPtr v = NULL;
    int rc = -1;

    if (!xml)
        return -1;
    doc = xmlReadMemory(xml, (int)strlen(xml), "domain.xml", NULL,
                        XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
    free(xml);
    if (doc && (ctx = xmlXPathNewContext(doc)))
        v = xmlXPathEvalExpression(BAD_CAST "string(/domain/on_reboot)", ctx);
    if (v && v->type == XPATH_STRING)
        /* libvirt's default, when the element is absent, is restart */
        rc = !*v->stringval || !strcmp((const char *)v->stringval, "restart");
    xmlXPathFreeObject(v);
    xmlXPathFreeContext(ctx);
    xmlFreeDoc(doc);
    return rc;
}
