/* boot.c — pools, seed volumes, each repetition's volumes and domains,
 * and the wait until every database answers (see run_state.h). */
#include "run/run_state.h"
#include "attributes.h"
#include "util/util.h"
#include "virt/virt.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Whether a VM before VM i runs on the same libvirt connection. */
static bool conn_seen_before(const run_state *st, int i)
{
    for (int j = 0; j < i; j++)
        if (st->vms[j].conn == st->vms[i].conn)
            return true;
    return false;
}

/* Pools and, for plans with a prebuilt database (orch_layout_has_seed),
 * each VM's seed volume:
 * a qcow2 overlay on the image's seed.qcow2, attached read-only, so the
 * prebuilt data stays pristine. */
int run_provision_drives(run_state *st)
{
    const orch_plan *p = st->p;
    for (int d = 0; d < p->ndrives; d++) {
        const orch_drive *dr = &p->drives[d];
        virConnectPtr conn;
        if (run_step(st, ORCH_STEP_POOL, st->l->drive_pools[d]) < 0)
            return -1;
        conn = orch_conns_open(st->conns, orch_plan_drive_uri(p, dr), st->err, sizeof st->err);
        if (!conn || orch_monitor_watch_conn(st->mon, conn, orch_plan_drive_uri(p, dr), st->err,
                                             sizeof st->err) < 0)
            return -1;
        st->pools[d] = dr->pool ? orch_pool_lookup(conn, dr->pool, st->err, sizeof st->err)
                                : orch_pool_create_dir(conn, st->run_objs, st->l->drive_pools[d],
                                                       dr->path, st->err, sizeof st->err);
        if (!st->pools[d]
            || orch_images_ensure(st->images, d, conn,
                                  orch_layout_has_seed(p, st->t), st->out,
                                  st->err, sizeof st->err) < 0)
            return -1;
    }
    for (int i = 0; i < st->l->nvms; i++) {
        const orch_vm *vm = &st->l->vms[i];
        run_vm *rv = &st->vms[i];
        const char *type;
        char *seed_path;
        virStorageVolPtr vol;
        rv->conn = virStoragePoolGetConnect(st->pools[vm->drive_index]);
        snprintf(rv->type_reason, sizeof rv->type_reason, "asked for");
        type = strcmp(p->domain_type, "auto") != 0
               ? p->domain_type
               : orch_kvm_domain_type(rv->conn, orch_plan_drive_uri(p, vm->drive), st->o->kvm_probe,
                                      rv->type_reason, sizeof rv->type_reason,
                                      st->err, sizeof st->err);
        if (!type)
            return -1;
        rv->domain_type = type;
        if (!conn_seen_before(st, i)) {
            char *uri = virConnectGetURI(rv->conn);
            fprintf(st->out, "%s: domain type %s (%s)\n", uri ? uri : "libvirt", type,
                    rv->type_reason);
            free(uri);
        }
        if (!vm->seed_vol)
            continue;
        if (run_step(st, ORCH_STEP_SEED, vm->seed_vol) < 0)
            return -1;
        seed_path = strdup(orch_images_path(st->images, vm->drive_index, ORCH_IMG_SEED));
        vol = seed_path ? orch_vol_create(st->pools[vm->drive_index], st->run_objs, vm->seed_vol,
                                          "qcow2", orch_layout_seed_size(p, st->t),
                                          seed_path, NULL, st->err, sizeof st->err)
                        : NULL;
        free(seed_path);
        if (!vol)
            return -1;
        virStorageVolFree(vol);
    }
    return 0;
}

/* The database volumes of a repetition: a full raw copy of each VM's
 * seed disk (or an empty disk without a prebuilt database), made again
 * before each repetition so each drive starts from identical data; all
 * VMs and drives at once (restore.h), each drive's throughput added to
 * st->restore. */
static int restore_db_vols(run_state *st)
{
    const orch_plan *p = st->p;
    orch_restore_job *jobs = calloc((size_t)st->l->nvms + 1, sizeof *jobs);
    const char **names = calloc((size_t)p->ndrives + 1, sizeof *names);
    orch_restore_opts ro = { .out = st->out, .progress_every = st->cl.progress_every,
                             .drive_names = names, .stop_requested = run_stop_requested,
                             .stop_ctx = st };
    int rc = -1;

    if (!jobs || !names) {
        snprintf(st->err, sizeof st->err, "out of memory");
        goto cleanup;
    }
    for (int d = 0; d < p->ndrives; d++)
        names[d] = p->drives[d].name;
    for (int i = 0; i < st->l->nvms; i++)
        if (run_step(st, ORCH_STEP_DB_VOL, st->l->vms[i].db_vol) < 0)
            goto cleanup;
    /* pools read after every step: a step may reconnect and replace them */
    for (int i = 0; i < st->l->nvms; i++) {
        const orch_vm *vm = &st->l->vms[i];
        jobs[i].pool = st->pools[vm->drive_index];
        jobs[i].name = vm->db_vol;
        jobs[i].capacity = p->db_size ? p->db_size : orch_template_disk_size(st->t, "dbdisk");
        jobs[i].seed = vm->seed_vol;
        jobs[i].drive = vm->drive_index;
    }
    rc = orch_restore_all(jobs, st->l->nvms, st->rep_objs, st->restore, p->ndrives, &ro,
                          st->err, sizeof st->err);
cleanup:
    free(jobs);
    free(names);
    return rc;
}

/* network = passt: vm's network, recorded in the repetition's ledger
 * first (its teardown stops passt after the domain and deletes the
 * namespace), then made (virt/passt.h). 0, or -1 with st->err. */
static int start_passt(run_state *st, const orch_vm *vm, const run_vm *rv)
{
    char *sock;
    int rc;
    if (st->p->network != ORCH_NET_PASST)
        return 0;
    if (!(sock = orch_layout_passt_socket(vm))
        || orch_ledger_add_net(st->rep_objs, rv->conn, vm->name) < 0) {
        free(sock);
        snprintf(st->err, sizeof st->err, "out of memory");
        return -1;
    }
    rc = orch_passt_start(st->p->passt, vm->name, sock, vm->port, st->p->engine->port,
                          st->err, sizeof st->err);
    free(sock);
    return rc;
}

/* Boot volumes, the database volumes (restore_db_vols), then define and
 * start every VM. */
int run_provision_rep(run_state *st, int rep)
{
    const orch_plan *p = st->p;
    for (int i = 0; i < st->l->nvms; i++) {
        const orch_vm *vm = &st->l->vms[i];
        virStorageVolPtr vol;
        /* the user's own image, or drivebench's image of the engine, where
         * this drive's host has it (upload.h) */
        char *base = strdup(orch_images_path(st->images, vm->drive_index, ORCH_IMG_BASE));

        if (!base || run_step(st, ORCH_STEP_BOOT_VOL, vm->boot_vol) < 0) {
            free(base);
            return -1;
        }
        vol = orch_vol_create(st->pools[vm->drive_index], st->rep_objs, vm->boot_vol, "qcow2",
                              p->boot_size ? p->boot_size
                                           : orch_template_disk_size(st->t, "bootdisk"),
                              base, NULL, st->err, sizeof st->err);
        free(base);
        if (!vol)
            return -1;
        virStorageVolFree(vol);
    }
    if (restore_db_vols(st) < 0)
        return -1;
    for (int i = 0; i < st->l->nvms; i++) {
        const orch_vm *vm = &st->l->vms[i];
        run_vm *rv = &st->vms[i];
        virStoragePoolPtr pool;     /* read after each step: a reconnect replaces it */
        char *xml, *here;
        if (run_step(st, ORCH_STEP_DOMAIN, vm->name) < 0)
            return -1;
        pool = st->pools[vm->drive_index];
        xml = orch_layout_render(st->l, p, st->t, vm, rv->domain_type, rep, st->err,
                                 sizeof st->err);
        if (!xml)
            return -1;
        /* kernel and initrd where this drive's host has them (upload.h) */
        here = orch_images_apply(st->images, vm->drive_index, xml, st->err, sizeof st->err);
        free(xml);
        if (!(xml = here) || start_passt(st, vm, rv) < 0) {
            free(xml);
            return -1;
        }
        rv->dom = orch_domain_start(rv->conn, st->rep_objs, xml, st->err, sizeof st->err);
        free(xml);
        if (!rv->dom)
            return -1;
        rv->failed_in = NULL;
        virDomainGetUUID(rv->dom, rv->uuid);
        rv->slot = orch_monitor_add(st->mon, rv->dom, vm->name, vm->drive->name);
        /* a profile that restarts on reboot (Windows: specialize, updates)
         * may reboot until its database answers (run_wait_ready) */
        if (rv->slot >= 0 && orch_domain_restarts_on_reboot(rv->dom) == 1)
            orch_monitor_boot_reboots(st->mon, rv->slot);
        orch_live_vm(st->live, i, rep, rv->slot);
        /* out of memory either way (the telemetry's said on its output) */
        if (orch_telemetry_add_vm(st->tel, i, vm->name, vm->drive_index, rep, pool, vm->db_vol,
                                  vm->boot_vol, rv->dom) < 0 || rv->slot < 0) {
            snprintf(st->err, sizeof st->err, "out of memory");
            return -1;
        }
    }
    return 0;
}

/* Print the end of a VM's serial console log (why boot failed). */
static void show_console(run_state *st, const orch_vm *vm, int rep)
{
    char *path = NULL;
    /* at once after the domain stopped: virtlogd may still be writing
     * what QEMU printed last */
    char *tail = run_console_tail(st, vm, rep, 40, 3000, &path);
    if (!tail) {
        fprintf(st->out, "drivebench: no console log at %s\n", path ? path : "?");
    } else {
        fprintf(st->out, "--- last lines of %s ---\n", path);
        fputs(tail, st->out);
        fprintf(st->out, "--- end of console log ---\n");
    }
    free(tail);
    free(path);
}

/* The CPU flags the guest of VM i sees (the first "flags" line of its
 * /proc/cpuinfo, through the guest agent), into its run_vm; left NULL
 * where the guest has no agent or no /proc (a Windows guest): not a
 * failure, the summary then lacks them. */
static void read_cpu_flags(run_state *st, int i)
{
    run_vm *rv = &st->vms[i];
    char err[DB_ERR_LEN], *text, *colon;
    int code = -1;
    free(rv->cpu_flags);
    rv->cpu_flags = NULL;
    if (!st->cl.agent)
        return;
    text = orch_agent_sh(st->cl.agent, st->cl.agent_ctx, rv->dom, st->l->vms[i].name,
                         "grep -m1 '^flags' /proc/cpuinfo", 10000, &code, err, sizeof err);
    if (text && code == 0 && (colon = strchr(text, ':'))) {
        char *f = colon + 1 + strspn(colon + 1, " \t");
        f[strcspn(f, "\n")] = '\0';
        rv->cpu_flags = *f ? strdup(f) : NULL;
    }
    free(text);
}

int run_wait_ready(run_state *st, int rep)
{
    time_t deadline = time(NULL) + st->p->boot_timeout_s;

    fprintf(st->out, "waiting for %d VM(s) to boot and their databases to answer "
            "(timeout %d s)\n", st->l->nvms, st->p->boot_timeout_s);
    for (int i = 0; i < st->l->nvms; i++) {
        const orch_vm *vm = &st->l->vms[i];
        virDomainPtr dom;
        int left = (int)(deadline - time(NULL));
        if (run_step(st, ORCH_STEP_READY, vm->name) < 0)
            return -1;
        dom = st->vms[i].dom;           /* after step: a reconnect replaces it */
        if (!dom) {
            snprintf(st->err, sizeof st->err, "%s is gone (see above)", vm->name);
            return -1;
        }
        int rc = st->o->wait_ready
                 ? st->o->wait_ready(st->o->hook_ctx, vm, dom, left > 1 ? left : 1, st->err,
                                     sizeof st->err)
                 : st->client->wait_ready(&st->cl, vm, dom, left > 1 ? left : 1, st->err,
                                          sizeof st->err);
        if (rc < 0) {
            if (!run_stop_requested(st))
                show_console(st, vm, rep);
            else
                snprintf(st->err, sizeof st->err, "interrupted");
            return -1;
        }
        orch_monitor_ready(st->mon, st->vms[i].slot);
        read_cpu_flags(st, i);
    }
    return 0;
}
