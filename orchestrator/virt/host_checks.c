/* host_checks.c — what a host offers before anything is created on it:
 * the domain type its capabilities allow and the free space each drive
 * needs (see provision.h). */
#include "virt/provision.h"
#include "util/names.h"
#include "plan/plan.h"
#include "plan/template.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <libvirt/virterror.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xpath.h>

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

const char *orch_format_bytes(uint64_t bytes, char *buf, size_t len)
{
    static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB" };
    double v = (double)bytes;
    int u = 0;
    while (v >= 1024 && u < 5) {
        v /= 1024;
        u++;
    }
    if (u == 0 || v >= 100 || v == (double)(uint64_t)v)
        snprintf(buf, len, "%.0f %s", v, units[u]);
    else
        snprintf(buf, len, "%.1f %s", v, units[u]);
    return buf;
}

/* One place space is taken from: a file system (by device) or a pool. */
typedef struct space_group {
    const char *uri;
    const char *where;          /* path or "pool NAME" as shown */
    dev_t       dev;            /* path drives */
    const char *pool;           /* pool drives */
    uint64_t    need, avail;
    char        names[512];     /* "d1" or "d1, d2" */
} space_group;

/* Free bytes (for unprivileged users) on the file system holding path,
 * or its nearest existing parent (the pool creates the folder). */
static int path_space(const char *path, dev_t *dev, uint64_t *avail, char *err, size_t errlen)
{
    char *p = strdup(path), *slash;
    struct statvfs vfs;
    struct stat sb;
    int rc = -1;
    if (!p) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    while (stat(p, &sb) < 0 && errno == ENOENT && (slash = strrchr(p, '/')) != NULL) {
        if (slash == p)
            slash++;            /* "/x" -> "/" */
        *slash = '\0';
    }
    if (stat(p, &sb) < 0 || statvfs(p, &vfs) < 0) {
        snprintf(err, errlen, "cannot read the free space of %s: %s", p, strerror(errno));
    } else {
        *dev = sb.st_dev;
        *avail = (uint64_t)vfs.f_bavail * vfs.f_frsize;
        rc = 0;
    }
    free(p);
    return rc;
}

/* Available bytes of pool name: 0, 1 when there is no such pool (left to
 * provisioning, which reports it with the rest of its checks), or -1
 * with err. */
static int pool_space(virConnectPtr conn, const char *name, uint64_t *avail, char *err,
                      size_t errlen)
{
    virStoragePoolPtr pool = virStoragePoolLookupByName(conn, name);
    virStoragePoolInfo info;
    int rc = -1;
    if (!pool && virGetLastErrorCode() == VIR_ERR_NO_STORAGE_POOL)
        return 1;
    if (!pool) {
        snprintf(err, errlen, "storage pool %s: %s", name, orch_virt_error());
        return -1;
    }
    virStoragePoolRefresh(pool, 0);     /* best effort: numbers as of now */
    if (virStoragePoolGetInfo(pool, &info) < 0) {
        snprintf(err, errlen, "cannot read the free space of pool %s: %s", name,
                 orch_virt_error());
    } else {
        *avail = info.available;
        rc = 0;
    }
    virStoragePoolFree(pool);
    return rc;
}

int orch_space_check(orch_conns *conns, const orch_plan *p, const orch_template *t,
                     FILE *out, char *err, size_t errlen)
{
    space_group *g = calloc((size_t)p->ndrives + 1, sizeof *g);
    uint64_t db = p->db_size ? p->db_size : orch_template_disk_size(t, "dbdisk");
    int ng = 0, short_drives = 0, rc = -1;

    if (!g) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (int d = 0; d < p->ndrives; d++) {
        const orch_drive *dr = &p->drives[d];
        const char *uri = orch_plan_drive_uri(p, dr);
        space_group cur = { .uri = uri, .where = dr->path ? dr->path : dr->pool,
                            .pool = dr->pool };
        int k;
        if (dr->path && orch_uri_is_remote(uri))
            continue;
        if (dr->path) {
            if (path_space(dr->path, &cur.dev, &cur.avail, err, errlen) < 0)
                goto cleanup;
        } else {
            virConnectPtr conn = orch_conns_open(conns, uri, err, errlen);
            int found = conn ? pool_space(conn, dr->pool, &cur.avail, err, errlen) : -1;
            if (found < 0)
                goto cleanup;
            if (found > 0)
                continue;
        }
        for (k = 0; k < ng; k++)
            if (strcmp(g[k].uri, uri) == 0 && !g[k].pool == !cur.pool
                && (cur.pool ? strcmp(g[k].pool, cur.pool) == 0 : g[k].dev == cur.dev))
                break;
        if (k == ng)
            g[ng++] = cur;
        g[k].need += db * (uint64_t)orch_plan_drive_vms(p, dr);
        snprintf(g[k].names + strlen(g[k].names), sizeof g[k].names - strlen(g[k].names),
                 "%s%s", g[k].names[0] ? ", " : "", dr->name);
    }
    for (int k = 0; k < ng; k++) {
        uint64_t head = g[k].need / 100 * ORCH_SPACE_HEADROOM_PCT;
        char a[32], b[32], c[32], e[32];
        if (head < ORCH_SPACE_HEADROOM_MIN)
            head = ORCH_SPACE_HEADROOM_MIN;
        if (g[k].avail >= g[k].need + head)
            continue;
        short_drives++;
        fprintf(out, "drivebench: drive%s %s (%s%s, %s free) is %s short: %s volumes need %s "
                "plus %s headroom\n", strchr(g[k].names, ',') ? "s" : "", g[k].names,
                g[k].pool ? "pool " : "", g[k].where,
                orch_format_bytes(g[k].avail, a, sizeof a),
                orch_format_bytes(g[k].need + head - g[k].avail, b, sizeof b),
                strchr(g[k].names, ',') ? "their" : "its",
                orch_format_bytes(g[k].need, c, sizeof c), orch_format_bytes(head, e, sizeof e));
    }
    if (short_drives) {
        snprintf(err, errlen, "not enough free space on %d drive(s) (see above); nothing was "
                 "created", short_drives);
        goto cleanup;
    }
    rc = 0;
cleanup:
    free(g);
    return rc;
}
