/* capacity.c — disk, memory and CPUs a plan needs of its hosts, against
 * what they have (see capacity.h). */
#include "virt/capacity.h"
#include "virt/virt_error.h"
#include "plan/plan.h"
#include "util/util.h"          /* orch_format_bytes */

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <libvirt/virterror.h>

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

int orch_space_groups(orch_conns *conns, const orch_plan *p, const orch_template *t,
                      orch_space_group **groups, int *n, char *err, size_t errlen)
{
    orch_space_group *g = calloc((size_t)p->ndrives + 1, sizeof *g);
    uint64_t db = p->db_size ? p->db_size : orch_template_disk_size(t, "dbdisk");
    int ng = 0;

    *groups = NULL;
    *n = 0;
    if (!g) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (int d = 0; d < p->ndrives; d++) {
        const orch_drive *dr = &p->drives[d];
        const char *uri = orch_plan_drive_uri(p, dr);
        orch_space_group cur = { .uri = uri, .where = dr->path ? dr->path : dr->pool,
                                 .pool = dr->pool, .known = 1 };
        int k = ng;
        if (dr->path && orch_uri_is_remote(uri)) {
            cur.known = 0;
        } else if (dr->path) {
            if (path_space(dr->path, &cur.dev, &cur.avail, err, errlen) < 0)
                goto fail;
        } else {
            virConnectPtr conn = orch_conns_open(conns, uri, err, errlen);
            int found = conn ? pool_space(conn, dr->pool, &cur.avail, err, errlen) : -1;
            if (found < 0)
                goto fail;
            cur.known = !found;
        }
        /* drives on one known file system or pool are counted together */
        for (k = 0; cur.known && k < ng; k++)
            if (g[k].known && strcmp(g[k].uri, uri) == 0 && !g[k].pool == !cur.pool
                && (cur.pool ? strcmp(g[k].pool, cur.pool) == 0 : g[k].dev == cur.dev))
                break;
        if (!cur.known)
            k = ng;
        if (k == ng)
            g[ng++] = cur;
        g[k].need += db * (uint64_t)orch_plan_drive_vms(p, dr);
        snprintf(g[k].names + strlen(g[k].names), sizeof g[k].names - strlen(g[k].names),
                 "%s%s", g[k].names[0] ? ", " : "", dr->name);
    }
    for (int k = 0; k < ng; k++) {
        g[k].headroom = g[k].need / 100 * ORCH_SPACE_HEADROOM_PCT;
        if (g[k].headroom < ORCH_SPACE_HEADROOM_MIN)
            g[k].headroom = ORCH_SPACE_HEADROOM_MIN;
    }
    *groups = g;
    *n = ng;
    return 0;
fail:
    free(g);
    return -1;
}

int orch_space_check(orch_conns *conns, const orch_plan *p, const orch_template *t,
                     FILE *out, char *err, size_t errlen)
{
    orch_space_group *g;
    int ng, short_drives = 0;

    if (orch_space_groups(conns, p, t, &g, &ng, err, errlen) < 0)
        return -1;
    for (int k = 0; k < ng; k++) {
        char a[32], b[32], c[32], e[32];
        if (!g[k].known || g[k].avail >= g[k].need + g[k].headroom)
            continue;
        short_drives++;
        fprintf(out, "drivebench: drive%s %s (%s%s, %s free) is %s short: %s volumes need %s "
                "plus %s headroom\n", strchr(g[k].names, ',') ? "s" : "", g[k].names,
                g[k].pool ? "pool " : "", g[k].where,
                orch_format_bytes(g[k].avail, a, sizeof a),
                orch_format_bytes(g[k].need + g[k].headroom - g[k].avail, b, sizeof b),
                strchr(g[k].names, ',') ? "their" : "its",
                orch_format_bytes(g[k].need, c, sizeof c),
                orch_format_bytes(g[k].headroom, e, sizeof e));
    }
    free(g);
    if (short_drives) {
        snprintf(err, errlen, "not enough free space on %d drive(s) (see above); nothing was "
                 "created", short_drives);
        return -1;
    }
    return 0;
}

/* The memory of the host behind conn, in bytes: total and what it can
 * give without swapping (free + buffers + cached) as its libvirt reads
 * /proc/meminfo (virNodeGetMemoryStats, all cells); where that is not
 * supported (the test driver), *total stays as the caller set it
 * (virNodeGetInfo's, which on some hosts counts only NUMA node 0's) and
 * *avail is virNodeGetFreeMemory's. */
static void host_memory(virConnectPtr conn, uint64_t *total, uint64_t *avail)
{
    virNodeMemoryStatsPtr st = NULL;
    int nst = 0;
    uint64_t kib = 0, total_kib = 0;

    if (virNodeGetMemoryStats(conn, VIR_NODE_MEMORY_STATS_ALL_CELLS, NULL, &nst, 0) == 0
        && nst > 0 && (st = calloc((size_t)nst, sizeof *st)) != NULL
        && virNodeGetMemoryStats(conn, VIR_NODE_MEMORY_STATS_ALL_CELLS, st, &nst, 0) == 0) {
        for (int i = 0; i < nst; i++) {
            if (strcmp(st[i].field, VIR_NODE_MEMORY_STATS_TOTAL) == 0)
                total_kib = st[i].value;
            else if (strcmp(st[i].field, VIR_NODE_MEMORY_STATS_FREE) == 0
                     || strcmp(st[i].field, VIR_NODE_MEMORY_STATS_BUFFERS) == 0
                     || strcmp(st[i].field, VIR_NODE_MEMORY_STATS_CACHED) == 0)
                kib += st[i].value;
        }
    }
    free(st);
    if (total_kib)
        *total = total_kib * 1024;
    *avail = kib ? kib * 1024 : virNodeGetFreeMemory(conn);
}

int orch_host_caps(orch_conns *conns, const orch_plan *p, const orch_template *t,
                   orch_host_cap **hosts, int *n, char *err, size_t errlen)
{
    orch_host_cap *h = calloc((size_t)p->ndrives + 1, sizeof *h);
    uint64_t mem = p->memory ? p->memory : orch_template_memory(t);
    int vcpus = p->vcpus ? p->vcpus : orch_template_vcpus(t), nh = 0;

    *hosts = NULL;
    *n = 0;
    if (!h) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (int d = 0; d < p->ndrives; d++) {
        const char *uri = orch_plan_drive_uri(p, &p->drives[d]);
        int k, vms = orch_plan_drive_vms(p, &p->drives[d]);
        for (k = 0; k < nh && strcmp(h[k].uri, uri) != 0; k++)
            ;
        if (k == nh) {
            virConnectPtr conn = orch_conns_open(conns, uri, err, errlen);
            virNodeInfo info;
            if (!conn)
                goto fail;
            if (virNodeGetInfo(conn, &info) < 0) {
                snprintf(err, errlen, "cannot read the memory and CPUs of host %s: %s", uri,
                         orch_virt_error());
                goto fail;
            }
            h[nh].uri = uri;
            h[nh].cpus = (int)info.cpus;
            h[nh].memory = (uint64_t)info.memory * 1024;
            host_memory(conn, &h[nh].memory, &h[nh].free);
            h[nh].vm_memory = mem;
            nh++;
        }
        h[k].vms += vms;
        h[k].vcpus += vms * vcpus;
        h[k].need += (uint64_t)vms * (mem + ORCH_VM_MEM_OVERHEAD);
    }
    *hosts = h;
    *n = nh;
    return 0;
fail:
    free(h);
    return -1;
}

int orch_memory_check(const orch_plan *p, const orch_host_cap *h, int n, FILE *out, char *err,
                      size_t errlen)
{
    int short_hosts = 0, short_cpus = 0;
    for (int k = 0; k < n; k++) {
        char a[32], b[32], c[32];
        if (h[k].cpus > 0 && h[k].vcpus > h[k].cpus) {
            short_cpus++;
            fprintf(out, "drivebench: host %s has %d CPU(s) and its %d VM(s) have %d vCPU(s)%s\n",
                    h[k].uri, h[k].cpus, h[k].vms, h[k].vcpus,
                    p->overcommit ? "; overcommit = yes: they share them" : "");
        }
        if (h[k].need <= h[k].memory)
            continue;
        short_hosts++;
        fprintf(out, "drivebench: host %s has %s of memory and its %d VM(s) need %s (%d x %s "
                "+ 100 MiB for QEMU each)%s\n", h[k].uri, orch_format_bytes(h[k].memory, a, sizeof a),
                h[k].vms, orch_format_bytes(h[k].need, b, sizeof b), h[k].vms,
                orch_format_bytes(h[k].vm_memory, c, sizeof c),
                p->overcommit ? "; overcommit = yes: running them anyway" : "");
    }
    if (short_hosts && !p->overcommit) {
        snprintf(err, errlen, "not enough memory on %d host(s) (see above); nothing was created "
                 "(fewer VMs per host, a smaller [run] memory, or [run] overcommit = yes)",
                 short_hosts);
        return -1;
    }
    if (short_cpus && !p->overcommit) {
        snprintf(err, errlen, "more vCPUs than CPUs on %d host(s) (see above); nothing was created "
                 "(fewer VMs per host, a smaller [run] vcpus, or [run] overcommit = yes to let "
                 "them share the CPUs)", short_cpus);
        return -1;
    }
    return 0;
}
