/* reconnect.c — the checks before every step of a run (stop request,
 * test hook) and libvirt connections found again after libvirtd went
 * away (see run_state.h). */
#include "run/run_state.h"
#include "attributes.h"
#include "nap.h"

#include <time.h>

/* The steps' names (run.h's ORCH_STEPS), which the checks before each
 * step print; here, so that no file of run/ calls run.c back. */
#define ORCH_STEP_NAME(id, text) text,
static const char *const step_names[] = { ORCH_STEPS(ORCH_STEP_NAME) };
#undef ORCH_STEP_NAME

const char *orch_step_name(orch_step s)
{
    return s < ORCH_STEP_COUNT ? step_names[s] : "?";
}

/* Whether SIGINT or SIGTERM asked the run to stop (util/stop.h). The run
 * reads the request here only, and hands this function to the layers
 * below that wait as their stop hook (orch_restore_opts.stop_requested);
 * ctx is the run_state. */
int run_stop_requested(void *ctx)
{
    (void)ctx;
    return orch_stop_requested();
}

/* The hook, then the checks for a stop request and for a lost libvirt
 * connection. -1 with st->err set. */
int run_step(run_state *st, orch_step s, const char *object)
{
    if (run_stop_requested(st)) {
        snprintf(st->err, sizeof st->err, "interrupted");
        return -1;
    }
    if (st->o->inject && st->o->inject(st->o->hook_ctx, s, object) < 0) {
        snprintf(st->err, sizeof st->err, "%s %s: injected failure", orch_step_name(s), object);
        return -1;
    }
    return run_reconnect_lost(st, orch_step_name(s));
}

static virConnectPtr reopen_default(void *ctx, const char *uri, char *err, size_t errlen)
{
    virConnectPtr c = virConnectOpen(uri);
    (void)ctx;
    if (!c)
        snprintf(err, errlen, "%s", orch_virt_error());
    return c;
}

/* Sleep up to s seconds, waking early (within 0.1 s) on a stop request. */
void run_nap(run_state *st, int s)
{
    for (int i = 0; i < 10 * s && !run_stop_requested(st); i++)
        nap_ms(100);
}

/* Point everything of the run that lived on old at conn, its
 * replacement for uri: the pools, each VM's domain (found again by UUID;
 * one that is gone or no longer running fails with fault `connection`),
 * the ledgers (teardown looks objects up by name) and the monitor. 0, or
 * -1 with st->err when a pool of the run cannot be found again. */
static int rebind(run_state *st, const char *uri, virConnectPtr old, virConnectPtr conn,
                  const char *when)
{
    const orch_plan *p = st->p;
    int running = 0, total = 0;

    orch_ledger_rebind(st->run_objs, old, conn);
    orch_ledger_rebind(st->rep_objs, old, conn);
    orch_monitor_conn_reset(st->mon, old);
    if (orch_monitor_watch_conn(st->mon, conn, uri, st->err, sizeof st->err) < 0)
        return -1;
    for (int d = 0; d < p->ndrives; d++) {
        const orch_drive *dr = &p->drives[d];
        const char *name = dr->pool ? dr->pool : st->l->drive_pools[d];
        if (!st->pools[d] || virStoragePoolGetConnect(st->pools[d]) != old)
            continue;
        virStoragePoolFree(st->pools[d]);
        st->pools[d] = virStoragePoolLookupByName(conn, name);
        if (!st->pools[d]) {
            snprintf(st->err, sizeof st->err, "pool %s of drive %s is gone after libvirt at %s "
                     "came back: %s", name, dr->name, uri, orch_virt_error());
            return -1;
        }
    }
    for (int i = 0; i < st->l->nvms; i++) {
        run_vm *rv = &st->vms[i];
        int state = 0, reason = 0;
        if (rv->conn != old)
            continue;
        rv->conn = conn;
        if (!rv->dom)
            continue;
        total++;
        virDomainFree(rv->dom);
        rv->dom = virDomainLookupByUUID(conn, rv->uuid);
        if (rv->dom && virDomainGetState(rv->dom, &state, &reason, 0) == 0
            && state == VIR_DOMAIN_RUNNING) {
            running++;
            continue;
        }
        orch_monitor_fail(st->mon, rv->slot, ORCH_FAULT_CONNECTION,
                          "%s after libvirt at %s came back (its connection had closed)",
                          !rv->dom ? "the domain is gone"
                          : state == VIR_DOMAIN_PAUSED ? "the domain is paused"
                          : "the domain no longer runs", uri);
        if (!rv->failed_in) {
            rv->failed_in = when;
            st->failed_vms++;
        }
    }
    fprintf(st->out, "drivebench: reconnected to libvirt at %s; %d of %d VM(s) still "
            "running\n", uri, running, total);
    fflush(st->out);
    return 0;
}

/* Every connection of the run that the monitor saw close (libvirtd
 * stopped or restarted): reopen it, with backoff, for up to the plan's
 * libvirt_reconnect seconds, and rebind the run's objects to it; the
 * VMs' host-side clients need no libvirt and go on meanwhile. 0 when
 * every connection answers (again), -1 with st->err when libvirt did not
 * come back in time (the run stops; teardown waits for it again). */
int run_reconnect_lost(run_state *st, const char *when)
{
    const orch_plan *p = st->p;
    for (int d = 0; st->conns && st->mon && d < p->ndrives; d++) {
        const char *uri = orch_plan_drive_uri(p, &p->drives[d]);
        char why[DB_ERR_LEN] = "";
        virConnectPtr old = orch_conns_open(st->conns, uri, why, sizeof why), conn = NULL;
        time_t start = time(NULL);
        int wait = 1;
        if (!old || !orch_monitor_conn_lost(st->mon, old))
            continue;
        fprintf(st->out, "drivebench: reconnecting to libvirt at %s (for up to %d s)\n", uri,
                p->libvirt_reconnect_s);
        fflush(st->out);
        for (;;) {
            conn = st->o->reopen ? st->o->reopen(st->o->hook_ctx, uri, why, sizeof why)
                                 : reopen_default(NULL, uri, why, sizeof why);
            if (conn || run_stop_requested(st) || time(NULL) - start >= p->libvirt_reconnect_s)
                break;
            run_nap(st, wait);
            wait = wait < 8 ? 2 * wait : 8;
        }
        if (!conn) {
            if (run_stop_requested(st))
                snprintf(st->err, sizeof st->err, "interrupted");
            else
                snprintf(st->err, sizeof st->err, "libvirt at %s did not answer again within "
                         "%d s (libvirt_reconnect): %s; stopping", uri, p->libvirt_reconnect_s,
                         why);
            return -1;
        }
        if (orch_conns_replace(st->conns, old, conn) < 0) {   /* old came from st->conns */
            virConnectClose(conn);
            snprintf(st->err, sizeof st->err, "libvirt at %s: the lost connection is not the run's", uri);
            return -1;
        }
        if (rebind(st, uri, old, conn, when) < 0)
            return -1;
    }
    return 0;
}
