/* placement_host.c — [run] pinning on the plan's hosts (placement_host.h). */
#include "virt/placement_host.h"
#include "virt/virt_error.h"
#include "util/util.h"

#include <stdlib.h>
#include <string.h>

int orch_host_topology(virConnectPtr conn, orch_host_topo *t, char *err, size_t errlen)
{
    char *caps = virConnectGetCapabilities(conn);
    int rc;
    if (!caps) {
        snprintf(err, errlen, "cannot read the host's capabilities: %s", orch_virt_error());
        return -1;
    }
    rc = orch_topo_parse(caps, t, err, errlen);
    free(caps);
    return rc;
}

static int topo_from_file(const char *path, orch_host_topo *t, char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    char *text = NULL;
    size_t len = 0;
    int rc;
    if (!f || getdelim(&text, &len, '\0', f) < 0) {
        snprintf(err, errlen, "cannot read the capabilities file %s", path);
        if (f)
            fclose(f);
        free(text);
        return -1;
    }
    fclose(f);
    rc = orch_topo_parse(text, t, err, errlen);
    free(text);
    if (rc == 0 && t->ncpus == 0) {
        snprintf(err, errlen, "%s: no <host><topology><cells> with CPUs", path);
        return -1;
    }
    return rc;
}

static void print_vm(FILE *out, const orch_vm *vm)
{
    const orch_vm_place *pl = &vm->place;
    if (!out)
        return;
    if (!pl->nvcpus) {
        fprintf(out, "  %s-vm%d: not pinned\n", vm->drive->name, vm->index);
        return;
    }
    fprintf(out, "  %s-vm%d: vCPUs on CPUs %s, emulator and I/O thread on %s, memory %s", vm->drive->name,
            vm->index, pl->vcpus, pl->emulator, pl->node >= 0 ? "on node " : "not bound");
    if (pl->node >= 0)
        fprintf(out, "%d", pl->node);
    fputc('\n', out);
}

/* The VMs of l on host uri: their indexes into idx, how many. */
static int host_vms(const orch_plan *p, const orch_layout *l, const char *uri, int *idx)
{
    int n = 0;
    for (int i = 0; i < l->nvms; i++)
        if (strcmp(orch_plan_drive_uri(p, l->vms[i].drive), uri) == 0)
            idx[n++] = i;
    return n;
}

/* Place the VMs idx[0..n) of one host with topology t. 0, or -1 with err. */
static int place_host(const orch_plan *p, orch_layout *l, const int *idx, int n, int vcpus,
                      const orch_host_topo *t, const char *uri, FILE *out, char *err, size_t errlen)
{
    int auto_pin = strcmp(p->pinning, "auto") == 0, rc;
    if (out)
        fprintf(out, "placement on %s: pinning %s, %d CPU(s) in %d core(s) on %d NUMA node(s)\n",
                uri, auto_pin ? "auto" : "explicit", t->ncpus, t->ncores, t->nnodes);
    if (auto_pin) {
        orch_vm_place *pl = calloc((size_t)n, sizeof *pl);
        if (!pl) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        rc = orch_place_auto(t, n, vcpus, pl, err, errlen);
        if (rc == 1 && p->overcommit) {
            if (out)
                fprintf(out, "drivebench: host %s: %s; overcommit = yes: not pinned, the VMs "
                        "share the CPUs\n", uri, err);
            rc = 0;
        } else if (rc == 1) {
            size_t used = strlen(err);
            snprintf(err + used, errlen - used, " on host %s; nothing was created (fewer VMs "
                     "or vCPUs, or [run] overcommit = yes to run them unpinned)", uri);
            rc = -1;
        }
        for (int k = 0; k < n; k++)
            l->vms[idx[k]].place = pl[k];
        free(pl);
        if (rc < 0)
            return -1;
    } else {
        for (int k = 0; k < n; k++)
            if (orch_place_explicit(p->pinning, idx[k], 1, vcpus, t, &l->vms[idx[k]].place,
                                    err, errlen) < 0)
                return -1;
    }
    for (int k = 0; k < n; k++)
        print_vm(out, &l->vms[idx[k]]);
    return 0;
}

int orch_place_layout(orch_conns *conns, const orch_plan *p, orch_layout *l, int vcpus,
                      const char *caps_file, FILE *out, char *err, size_t errlen)
{
    int *idx = calloc((size_t)(l->nvms ? l->nvms : 1), sizeof *idx), rc = -1;
    orch_host_topo t = { 0 };
    if (!idx) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    if (strcmp(p->pinning, "off") == 0) {     /* the vCPUs float over the host's CPUs */
        free(idx);
        return 0;
    }
    for (int d = 0; d < p->ndrives; d++) {
        const char *uri = orch_plan_drive_uri(p, &p->drives[d]);
        int n, seen = 0;
        for (int e = 0; e < d && !seen; e++)
            seen = strcmp(orch_plan_drive_uri(p, &p->drives[e]), uri) == 0;
        if (seen || (n = host_vms(p, l, uri, idx)) == 0)
            continue;
        if (caps_file) {
            if (topo_from_file(caps_file, &t, err, errlen) < 0)
                goto out;
        } else {
            virConnectPtr conn = orch_conns_open(conns, uri, err, errlen);
            if (!conn || orch_host_topology(conn, &t, err, errlen) < 0)
                goto out;
        }
        if (t.ncpus == 0) {
            if (out)
                fprintf(out, "placement on %s: the host's libvirt describes no NUMA cells "
                        "and CPUs: not pinned\n", uri);
        } else if (place_host(p, l, idx, n, vcpus, &t, uri, out, err, errlen) < 0)
            goto out;
        orch_topo_clear(&t);
    }
    rc = 0;
out:
    orch_topo_clear(&t);
    free(idx);
    return rc;
}
