/* run.c — the run: provision, boot, phases, collection, aggregation, the
 * report and teardown (see run.h). */
#include "run/run.h"
#include "run/fingerprint.h"
#include "run/aggregate.h"
#include "run/estimate.h"
#include "virt/hosts.h"
#include "nap.h"
#include "util/files.h"
#include "util/names.h"
#include "report/report.h"
#include "telemetry/telemetry.h"
#include "virt/restore.h"
#include "virt/upload.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#define ORCH_STEP_NAME(id, text) text,
static const char *const step_names[] = { ORCH_STEPS(ORCH_STEP_NAME) };
#undef ORCH_STEP_NAME

const char *orch_step_name(orch_step s)
{
    return s < ORCH_STEP_COUNT ? step_names[s] : "?";
}

/* What exists of one VM while the run goes (index as in the layout). */
typedef struct run_vm {
    virConnectPtr conn;         /* its drive's, borrowed from the run's orch_conns */
    const char   *domain_type;  /* "kvm" or "qemu" */
    virDomainPtr  dom;          /* running domain of this repetition, or NULL */
    unsigned char uuid[VIR_UUID_BUFLEN];    /* of dom: found again after a reconnect */
    int           slot;         /* in the monitor, this repetition */
    const char   *failed_in;    /* the phase it failed in (static), or NULL */
} run_vm;

typedef struct run_state {
    const orch_plan *p;
    const orch_client_ops *client;
    orch_client      cl;
    orch_run_opts   *o;
    FILE            *out;
    orch_layout     *l;
    orch_template   *t;
    orch_conns      *conns;
    orch_ledger     *run_objs;      /* pools, seed volumes: live for the whole run */
    orch_ledger     *rep_objs;      /* domains, boot and db volumes: one repetition */
    virStoragePoolPtr *pools;       /* per drive */
    orch_restore_figure *restore;   /* per drive, all repetitions */
    orch_images     *images;        /* image paths per drive, on its host */
    run_vm          *vms;           /* per layout VM */
    orch_monitor    *mon;           /* VM health, all connections */
    orch_telemetry  *tel;           /* drive I/O sampling (issue 13), or NULL */
    int              failed_vms;    /* VMs that failed, all repetitions */
    orch_vm_result  *results;
    int              nresults;
    char             err[1024];
    orch_eta         eta;           /* the whole run's time left (estimate.h) */
} run_state;

static int reconnect_lost(run_state *st, const char *when);

/* Whether SIGINT or SIGTERM asked the run to stop (util/stop.h). The run
 * reads the request here only, and hands this function to the layers
 * below that wait as their stop hook (orch_restore_opts.stop_requested);
 * ctx is the run_state. */
static int run_stop_requested(void *ctx)
{
    (void)ctx;
    return orch_stop_requested();
}

/* The hook, then the checks for a stop request and for a lost libvirt
 * connection. -1 with st->err set. */
static int step(run_state *st, orch_step s, const char *object)
{
    if (run_stop_requested(st)) {
        snprintf(st->err, sizeof st->err, "interrupted");
        return -1;
    }
    if (st->o->inject && st->o->inject(st->o->hook_ctx, s, object) < 0) {
        snprintf(st->err, sizeof st->err, "%s %s: injected failure", orch_step_name(s), object);
        return -1;
    }
    return reconnect_lost(st, orch_step_name(s));
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
static void nap(run_state *st, int s)
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
static int reconnect_lost(run_state *st, const char *when)
{
    const orch_plan *p = st->p;
    for (int d = 0; st->conns && st->mon && d < p->ndrives; d++) {
        const char *uri = orch_plan_drive_uri(p, &p->drives[d]);
        char why[512] = "";
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
            nap(st, wait);
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
        orch_conns_replace(st->conns, old, conn);
        if (rebind(st, uri, old, conn, when) < 0)
            return -1;
    }
    return 0;
}

static void iso_now(char *buf, size_t len)
{
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static int mkdir_p(const char *path, mode_t mode)
{
    char *copy = strdup(path);
    int rc = 0;
    if (!copy)
        return -1;
    for (char *s = copy + 1; *s && rc == 0; s++)
        if (*s == '/') {
            *s = '\0';
            if (mkdir(copy, mode) < 0 && errno != EEXIST)
                rc = -1;
            *s = '/';
        }
    if (rc == 0 && mkdir(copy, mode) < 0 && errno != EEXIST)
        rc = -1;
    free(copy);
    return rc;
}

/* A free loopback TCP port >= from, or -1. */
static int free_port(int from)
{
    for (int port = from; port <= 65535; port++) {
        struct sockaddr_in a;
        int fd = socket(AF_INET, SOCK_STREAM, 0), ok;
        if (fd < 0)
            return -1;
        memset(&a, 0, sizeof a);
        a.sin_family = AF_INET;
        a.sin_port = htons((uint16_t)port);
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        ok = bind(fd, (struct sockaddr *)&a, sizeof a) == 0;
        close(fd);
        if (ok)
            return port;
    }
    return -1;
}

/* Each VM's forwarded database port: its port from the layout, or the next
 * free one on this host after it (QEMU cannot start a VM whose forward is
 * taken, by another run for instance). A VM on another host (client = guest only) keeps its port from
 * the layout: this host cannot tell what is free there. Where a port other
 * than the layout's is used, one line names every local VM's port. */
static int assign_ports(run_state *st)
{
    const orch_plan *p = st->p;
    int next = p->port_base, moved = 0;
    for (int i = 0; i < st->l->nvms; i++) {
        orch_vm *vm = &st->l->vms[i];
        int from = vm->port > next ? vm->port : next, port;
        if (orch_uri_is_remote(orch_plan_drive_uri(p, vm->drive)))
            continue;
        if ((port = free_port(from)) < 0) {
            snprintf(st->err, sizeof st->err, "no free loopback port from %d", from);
            return -1;
        }
        moved |= port != vm->port;
        vm->port = port;
        next = port + 1;
    }
    if (!moved)
        return 0;
    fprintf(st->out, "ports from port_base %d are in use on this host; databases forwarded from "
            "127.0.0.1:", p->port_base);
    for (int i = 0, n = 0; i < st->l->nvms; i++) {
        const orch_vm *vm = &st->l->vms[i];
        if (!orch_uri_is_remote(orch_plan_drive_uri(p, vm->drive)))
            fprintf(st->out, "%s %s-vm%d %d", n++ ? "," : "", vm->drive->id, vm->index, vm->port);
    }
    fputc('\n', st->out);
    return 0;
}

/* A libvirt version number as "major.minor.micro" (new string). */
static char *version_text(unsigned long v)
{
    return orch_strfmt("%lu.%lu.%lu", v / 1000000, v / 1000 % 1000, v % 1000);
}

/* Host CPU, memory and each hypervisor's versions, for the summary.
 * 0, or -1 when out of memory (e is then cleared). */
static int environment(run_state *st, res_env *e)
{
    struct utsname u;
    char line[512], cpu[256] = "";
    FILE *f = fopen("/proc/cpuinfo", "r");
    int oom = 0;

    res_env_init(e);
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, "model name", 10) == 0 && strchr(line, ':')) {
            snprintf(cpu, sizeof cpu, "%s", strchr(line, ':') + 2);
            cpu[strcspn(cpu, "\n")] = '\0';
            break;
        }
    if (f)
        fclose(f);
    if (uname(&u) == 0) {
        oom |= !(e->hostname = strdup(u.nodename));
        oom |= !(e->kernel = strdup(u.release));
    }
    oom |= !(e->cpu_model = strdup(cpu));
    e->cpus = sysconf(_SC_NPROCESSORS_ONLN);
    e->memory_bytes = (int64_t)sysconf(_SC_PHYS_PAGES) * sysconf(_SC_PAGESIZE);
    e->hypervisors = calloc((size_t)st->l->nvms + 1, sizeof *e->hypervisors);
    oom |= !e->hypervisors;
    for (int i = 0; !oom && i < st->l->nvms; i++) {
        const orch_vm *vm = &st->l->vms[i];
        const run_vm *rv = &st->vms[i];
        const char *uri = orch_plan_drive_uri(st->p, vm->drive);
        res_hypervisor *h;
        unsigned long lib = 0, hv = 0;
        int dup = 0;
        for (int k = 0; k < e->nhypervisors; k++)
            dup |= strcmp(e->hypervisors[k].uri, uri) == 0;
        if (dup || !rv->conn)
            continue;
        h = &e->hypervisors[e->nhypervisors++];
        h->uri = strdup(uri);
        h->hostname = virConnectGetHostname(rv->conn);
        virConnectGetLibVersion(rv->conn, &lib);
        h->libvirt_version = version_text(lib);
        h->hypervisor = strdup(virConnectGetType(rv->conn) ? virConnectGetType(rv->conn) : "");
        virConnectGetVersion(rv->conn, &hv);
        h->hypervisor_version = version_text(hv);
        h->domain_type = strdup(rv->domain_type);
        oom |= orch_host_describe(rv->conn, uri, h) < 0;
        oom |= !h->uri || !h->libvirt_version || !h->hypervisor || !h->hypervisor_version
               || !h->domain_type;
    }
    if (oom) {
        res_env_clear(e);
        return -1;
    }
    return 0;
}

/* The plan's figures as the summary records them. 0, or -1 when out of
 * memory (r is then cleared). */
static int plan_record(const orch_plan *p, const orch_template *t, res_plan *r)
{
    res_plan_init(r);
    r->name = strdup(p->name);
    r->profile = strdup(orch_template_profile(t));
    r->vms_per_drive = p->vms_per_drive;
    r->client = strdup(p->client == ORCH_CLIENT_HOST ? "host" : "guest");
    r->client_path = strdup(p->client == ORCH_CLIENT_HOST ? RES_PATH_USER_HOSTFWD : RES_PATH_GUEST_LOCAL);
    r->repetitions = p->repetitions;
    r->cv_threshold = p->cv_threshold;
    r->workload = strdup(p->workload);
    r->db_driver = strdup(p->db_driver);
    if (p->tables)
        r->tables = p->tables;
    if (p->table_size)
        r->table_size = p->table_size;
    if (p->warehouses)
        r->warehouses = p->warehouses;
    r->threads = p->threads ? p->threads : 1;
    r->precondition_s = p->precondition_s;
    r->warmup_s = p->warmup_s;
    r->measure_s = p->measure_s;
    if (p->expect_database_size)
        r->expect_database_bytes = (int64_t)p->expect_database_size;
    if (!r->name || !r->profile || !r->client || !r->client_path || !r->workload || !r->db_driver) {
        res_plan_clear(r);
        return -1;
    }
    return 0;
}

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
static int provision_run(run_state *st)
{
    const orch_plan *p = st->p;
    for (int d = 0; d < p->ndrives; d++) {
        const orch_drive *dr = &p->drives[d];
        virConnectPtr conn;
        if (step(st, ORCH_STEP_POOL, st->l->drive_pools[d]) < 0)
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
        type = strcmp(p->domain_type, "auto") != 0 ? p->domain_type
               : orch_domain_type_for(rv->conn, st->err, sizeof st->err);
        if (!type)
            return -1;
        rv->domain_type = type;
        if (!conn_seen_before(st, i)) {
            char *uri = virConnectGetURI(rv->conn);
            fprintf(st->out, "%s: domain type %s (%s)\n", uri ? uri : "libvirt", type,
                    strcmp(p->domain_type, "auto") != 0 ? "asked for" : "host capabilities");
            free(uri);
        }
        if (!vm->seed_vol)
            continue;
        if (step(st, ORCH_STEP_SEED, vm->seed_vol) < 0)
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
        if (step(st, ORCH_STEP_DB_VOL, st->l->vms[i].db_vol) < 0)
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

/* Boot volumes, the database volumes (restore_db_vols), then define and
 * start every VM. */
static int provision_rep(run_state *st, int rep)
{
    const orch_plan *p = st->p;
    for (int i = 0; i < st->l->nvms; i++) {
        const orch_vm *vm = &st->l->vms[i];
        virStorageVolPtr vol;
        /* the user's own image, or drivebench's image of the engine, where
         * this drive's host has it (upload.h) */
        char *base = strdup(orch_images_path(st->images, vm->drive_index, ORCH_IMG_BASE));

        if (!base || step(st, ORCH_STEP_BOOT_VOL, vm->boot_vol) < 0) {
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
        if (step(st, ORCH_STEP_DOMAIN, vm->name) < 0)
            return -1;
        pool = st->pools[vm->drive_index];
        xml = orch_layout_render(st->l, p, st->t, vm, rv->domain_type, rep, st->err,
                                 sizeof st->err);
        if (!xml)
            return -1;
        /* kernel and initrd where this drive's host has them (upload.h) */
        here = orch_images_apply(st->images, vm->drive_index, xml, st->err, sizeof st->err);
        free(xml);
        if (!(xml = here))
            return -1;
        rv->dom = orch_domain_start(rv->conn, st->rep_objs, xml, st->err, sizeof st->err);
        free(xml);
        if (!rv->dom)
            return -1;
        rv->failed_in = NULL;
        virDomainGetUUID(rv->dom, rv->uuid);
        rv->slot = orch_monitor_add(st->mon, rv->dom, vm->name, vm->drive->name);
        orch_telemetry_add_vm(st->tel, i, vm->name, vm->drive_index, rep, pool, vm->db_vol,
                              vm->boot_vol, rv->dom);
        if (rv->slot < 0) {
            snprintf(st->err, sizeof st->err, "out of memory");
            return -1;
        }
    }
    return 0;
}

/* Print the end of a VM's serial console log (why boot failed). */
static void show_console(run_state *st, const orch_vm *vm, int rep)
{
    char *rel = orch_layout_console(vm, rep);
    char *path = rel ? orch_strfmt("%s/%s", st->l->run_dir, rel) : NULL;
    char *tail = path ? orch_file_tail(path, 40) : NULL;
    if (!tail) {
        fprintf(st->out, "drivebench: no console log at %s\n", path ? path : "?");
    } else {
        fprintf(st->out, "--- last lines of %s ---\n", path);
        fputs(tail, st->out);
        fprintf(st->out, "--- end of console log ---\n");
    }
    free(tail);
    free(rel);
    free(path);
}

static int wait_all_ready(run_state *st, int rep)
{
    time_t deadline = time(NULL) + st->p->boot_timeout_s;

    fprintf(st->out, "waiting for %d VM(s) to boot and their databases to answer "
            "(timeout %d s)\n", st->l->nvms, st->p->boot_timeout_s);
    for (int i = 0; i < st->l->nvms; i++) {
        const orch_vm *vm = &st->l->vms[i];
        virDomainPtr dom;
        int left = (int)(deadline - time(NULL));
        if (step(st, ORCH_STEP_READY, vm->name) < 0)
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
    }
    return 0;
}

/* Free the jobs of a phase and what they point to. */
static void jobs_free(orch_job *jobs, int n)
{
    for (int i = 0; jobs && i < n; i++) {
        orch_argv_free(jobs[i].argv);
        free((char *)jobs[i].result);
        free((char *)jobs[i].guest_result);
    }
    free(jobs);
}

/* Mark VMs the monitor saw fail since the last look as failed in phase. */
static void note_failures(run_state *st, const char *phase)
{
    orch_health h;
    for (int i = 0; i < st->l->nvms; i++)
        if (!st->vms[i].failed_in && st->vms[i].dom
            && orch_monitor_health(st->mon, st->vms[i].slot, &h)) {
            st->vms[i].failed_in = phase;
            st->failed_vms++;
        }
}

/* The measured phase of a VM whose database did not answer for
 * max_outage_s or longer (a connection's longest outage in its result)
 * is not comparable: fail the VM. A result that cannot be read is left to
 * the aggregation, which says why. */
static void note_outages(run_state *st, const orch_job *jobs, const int *vm_of, int n,
                         const char *phase)
{
    for (int j = 0; st->p->max_outage_s > 0 && j < n; j++) {
        run_vm *rv = &st->vms[vm_of[j]];
        res_oltp r;
        const res_phase *ph;
        double worst = 0;
        char err[512];
        if (rv->failed_in || !jobs[j].result
            || res_oltp_read_file(jobs[j].result, &r, err, sizeof err) < 0)
            continue;
        ph = res_oltp_measure(&r);
        for (int k = 0; ph && k < ph->nlongest_outage; k++)
            if (ph->longest_outage_s[k] > worst)
                worst = ph->longest_outage_s[k];
        res_oltp_clear(&r);
        if (worst < st->p->max_outage_s)
            continue;
        orch_monitor_fail(st->mon, rv->slot, ORCH_FAULT_DATABASE,
                          "the database did not answer for %.1f s during %s (max_outage %d s): "
                          "its figures are not comparable", worst, phase,
                          st->p->max_outage_s);
        rv->failed_in = phase;
        st->failed_vms++;
    }
}

/* Each job's measured window as its oltp reported it (its measure phase's
 * start_s after the process started, and its duration_s) to the
 * telemetry, which takes the drives' I/O and the host's CPU over it. A
 * result without start_s (an older oltp) gives none. */
static void note_windows(run_state *st, const orch_job *jobs, int n, int rep)
{
    for (int j = 0; j < n; j++) {
        res_oltp r;
        const res_phase *m;
        char err[512];
        if (!jobs[j].result || res_oltp_read_file(jobs[j].result, &r, err, sizeof err) < 0)
            continue;
        m = res_oltp_measure(&r);
        if (m && m->start_s > 0)
            orch_telemetry_vm_window(st->tel, jobs[j].vm->name, rep,
                                     jobs[j].started + m->start_s,
                                     jobs[j].started + m->start_s + m->duration_s);
        res_oltp_clear(&r);
    }
}

/* Run one phase of oltp on every VM still healthy, all at once. Results
 * land in the run folder as vm/<vm>.r<rep>[.<phase>].json (none for
 * prepare). A VM that fails is named (monitor.h) and left out of the
 * phases after; the phase fails only when no VM is left. */
static int run_phase(run_state *st, int rep, orch_step s, res_phase_id ph, const char *command,
                     int time_s, int warmup_s)
{
    const orch_plan *p = st->p;
    const char *phase = res_phase_name(ph);
    int n = 0, rc = -1, has_json = strcmp(command, "run") == 0;
    orch_job *jobs = calloc((size_t)st->l->nvms, sizeof *jobs);
    int *vm_of = calloc((size_t)st->l->nvms, sizeof *vm_of);
    if (!jobs || !vm_of) {
        snprintf(st->err, sizeof st->err, "out of memory");
        goto cleanup;
    }
    if (step(st, s, phase) < 0)
        goto cleanup;
    note_failures(st, phase);
    for (int i = 0; i < st->l->nvms; i++) {
        orch_job *job = &jobs[n];
        char *rel, *result, *guest_result;
        if (st->vms[i].failed_in)
            continue;
        rel = orch_layout_result(&st->l->vms[i], rep, ph);
        result = rel && has_json ? orch_strfmt("%s/%s", st->l->run_dir, rel) : NULL;
        guest_result = has_json ? orch_strfmt("/var/tmp/drivebench.%s.json", phase) : NULL;
        free(rel);
        vm_of[n++] = i;
        job->vm = &st->l->vms[i];
        job->dom = st->vms[i].dom;
        job->slot = st->vms[i].slot;
        job->result = result;
        job->guest_result = guest_result;
        job->status = -1;
        if (st->client->in_guest)
            job->argv = orch_oltp_argv(p, p->guest_oltp, p->engine->port, command, time_s, warmup_s,
                                       guest_result);
        else
            job->argv = orch_oltp_argv(p, p->oltp, job->vm->port, command, time_s, warmup_s,
                                       result);
        if (!job->argv || (has_json && (!result || !guest_result))) {
            snprintf(st->err, sizeof st->err, "out of memory");
            goto cleanup;
        }
    }
    if (n == 0) {
        snprintf(st->err, sizeof st->err, "every VM failed before %s; nothing to measure",
                 phase);
        goto cleanup;
    }
    fprintf(st->out, "repetition %d: %s on %d VM(s)%s\n", rep, phase, n,
            time_s ? "" : " (until done)");
    fflush(st->out);
    orch_telemetry_phase_start(st->tel, ph, warmup_s);
    rc = st->client->run_phase(&st->cl, jobs, n, phase, time_s > 0 ? time_s + warmup_s : 0);
    if (s == ORCH_STEP_MEASURE)
        note_windows(st, jobs, n, rep);
    orch_telemetry_phase_end(st->tel, ph, rep);
    /* libvirt may have gone and come back during the phase */
    if (rc == 0 && reconnect_lost(st, phase) < 0)
        rc = -2;
    for (int j = 0; j < n; j++)
        if (jobs[j].failed && !st->vms[vm_of[j]].failed_in) {
            st->vms[vm_of[j]].failed_in = phase;
            st->failed_vms++;
        }
    note_failures(st, phase);
    if (rc == 0 && s == ORCH_STEP_MEASURE)
        note_outages(st, jobs, vm_of, n, phase);
    if (rc == ORCH_RUN_INTERRUPTED) {
        snprintf(st->err, sizeof st->err, "interrupted");
    } else if (rc == -2) {
        rc = -1;                /* st->err says why */
    } else if (rc < 0) {
        snprintf(st->err, sizeof st->err, "%s failed on at least one VM (see above)", phase);
    } else {
        int left = 0;
        for (int i = 0; i < st->l->nvms; i++)
            left += !st->vms[i].failed_in;
        if (left == 0) {
            snprintf(st->err, sizeof st->err, "%s failed on every VM (see above)", phase);
            rc = -1;
        }
    }
cleanup:
    jobs_free(jobs, n);
    free(vm_of);
    return rc < 0 || rc == ORCH_RUN_INTERRUPTED ? -1 : 0;
}

static int need_prepare(const orch_plan *p, const orch_layout *l)
{
    if (strcmp(p->prepare, "auto") == 0)
        return l->nvms > 0 && l->vms[0].seed_vol == NULL;
    return strcmp(p->prepare, "yes") == 0;
}

/* The last lines of vm's console log in repetition rep (new string), or
 * NULL. */
static char *console_tail(run_state *st, const orch_vm *vm, int rep, int keep)
{
    char *rel = orch_layout_console(vm, rep);
    char *path = rel ? orch_strfmt("%s/%s", st->l->run_dir, rel) : NULL;
    char *text = path ? orch_file_tail(path, keep) : NULL;
    free(rel);
    free(path);
    return text;
}

/* One result entry per VM of repetition rep, with its health; called once
 * per repetition that reached its measured phase. */
static void record_rep(run_state *st, int rep)
{
    const orch_plan *p = st->p;
    for (int i = 0; i < st->l->nvms; i++) {
        orch_vm *vm = &st->l->vms[i];
        run_vm *rv = &st->vms[i];
        orch_vm_result *r = &st->results[st->nresults++];
        r->vm = vm->name;
        r->drive = vm->drive->name;
        r->host = orch_plan_drive_uri(p, vm->drive);
        r->repetition = rep;
        r->result = orch_layout_result(vm, rep, RES_PHASE_MEASURE);
        r->precondition = p->precondition_s > 0
                          ? orch_layout_result(vm, rep, RES_PHASE_PRECONDITION) : NULL;
        r->failed_in = rv->failed_in;
        if (rv->failed_in) {
            orch_monitor_health(st->mon, rv->slot, &r->health);
            r->console_tail = console_tail(st, vm, rep, 20);
        }
    }
}

static int run_rep(run_state *st, int rep, int *measured)
{
    const orch_plan *p = st->p;
    if (provision_rep(st, rep) < 0 || wait_all_ready(st, rep) < 0)
        return -1;
    if (need_prepare(p, st->l)
        && run_phase(st, rep, ORCH_STEP_PREPARE, RES_PHASE_PREPARE, "prepare", 0, 0) < 0)
        return -1;
    if (p->precondition_s > 0
        && run_phase(st, rep, ORCH_STEP_PRECONDITION, RES_PHASE_PRECONDITION, "run",
                     p->precondition_s, 0) < 0)
        return -1;
    *measured = 1;
    if (run_phase(st, rep, ORCH_STEP_MEASURE, RES_PHASE_MEASURE, "run", p->measure_s,
                  p->warmup_s) < 0)
        return -1;
    /* TPC-C's consistency conditions after the load (oltp tpcc check): a
     * VM whose database fails them is named and left out of the figures */
    if (strcmp(p->workload, "tpcc") == 0
        && run_phase(st, rep, ORCH_STEP_CHECK, RES_PHASE_CHECK, "check", 0, 0) < 0)
        return -1;
    return 0;
}

static int write_summary(run_state *st, const char *started, int partial)
{
    char finished[32];
    const char **drives = calloc((size_t)st->p->ndrives, sizeof *drives);
    res_plan plan;
    res_env env;
    res_summary *sum = NULL;
    orch_summary_input in;
    int rc = -1, have_plan = plan_record(st->p, st->t, &plan) == 0;
    int have_env = environment(st, &env) == 0;

    if (!drives || !have_plan || !have_env) {
        snprintf(st->err, sizeof st->err, "out of memory");
        goto cleanup;
    }
    /* a partial summary is written after a failure, whatever stopped it */
    if (!partial && step(st, ORCH_STEP_SUMMARY, "summary.json") < 0)
        goto cleanup;
    for (int d = 0; d < st->p->ndrives; d++)
        drives[d] = st->p->drives[d].name;
    iso_now(finished, sizeof finished);
    memset(&in, 0, sizeof in);
    in.run_id = st->l->run_id;
    in.run_dir = st->l->run_dir;
    in.started_at = started;
    in.finished_at = finished;
    in.plan = &plan;
    in.env = &env;
    in.drives = drives;
    in.ndrives = st->p->ndrives;
    in.vms = st->results;
    in.nvms = st->nresults;
    in.repetitions = st->p->repetitions;
    in.partial = partial;
    sum = orch_summary_build(&in, st->err, sizeof st->err);
    /* the protocol, so that reports compare only runs of one (issue 22) */
    if (sum && !(sum->fp = orch_fingerprint_build(st->p, st->t, sum))) {
        snprintf(st->err, sizeof st->err, "out of memory");
        goto cleanup;
    }
    if (sum && st->tel)
        orch_telemetry_fill(st->tel, sum, st->l->run_dir);
    for (int d = 0; sum && d < sum->ndrives && d < st->p->ndrives; d++) {
        sum->drives[d].restore.bytes = (int64_t)st->restore[d].bytes;
        sum->drives[d].restore.seconds = st->restore[d].seconds;
    }
    if (sum && orch_summary_write(st->l->run_dir, sum, st->err, sizeof st->err) == 0) {
        orch_summary_db_warnings(sum, st->out);
        rc = 0;
    }
cleanup:
    orch_summary_free(sum);
    if (have_plan)
        res_plan_clear(&plan);
    if (have_env)
        res_env_clear(&env);
    free(drives);
    return rc;
}

/* report.html and report.csv in the run folder, from its summary.json and
 * plan.ini only (report.h: no per-VM file is opened), as `drivebench
 * report RUN_DIR` writes them. */
static int write_report(run_state *st)
{
    const char *dirs[] = { st->l->run_dir };
    char *html = NULL;
    if (step(st, ORCH_STEP_REPORT, "report.html") < 0)
        return -1;
    if (report_write(dirs, 1, NULL, &html, NULL, st->err, sizeof st->err) != 0)
        return -1;
    fprintf(st->out, "report: %s\n", html);
    free(html);
    return 0;
}

/* drivebench's image of another engine than the plan's would boot and
 * never answer on the engine's port: image_dir/image.info names its
 * engine (images/build.sh writes engine=NAME). A user's image, or an
 * image.info without the line (older builds), is not checked. */
static int check_image_engine(run_state *st)
{
    const orch_plan *p = st->p;
    char *path, line[256];
    FILE *f;
    int rc = 0;

    if (p->image || !p->image_dir)
        return 0;
    path = orch_strfmt("%s/image.info", p->image_dir);
    f = path ? fopen(path, "r") : NULL;
    while (f && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        if (strncmp(line, "engine=", 7) == 0 && strcmp(line + 7, p->engine->name) != 0) {
            snprintf(st->err, sizeof st->err, "%s says the image serves %s, and the plan's "
                     "engine is %s: build its image (images/build.sh --engine %s) or set "
                     "image_dir", path, line + 7, p->engine->name, p->engine->name);
            rc = -1;
        }
    }
    if (f)
        fclose(f);
    free(path);
    return rc;
}

static int setup_dirs(run_state *st)
{
    const char *subs[] = { "", "/vm", "/console" };
    char *plan_copy;
    for (int i = 0; i < 3; i++) {
        char *d = orch_strfmt("%s%s", st->l->run_dir, subs[i]);
        int rc = d ? mkdir_p(d, 0755) : -1;
        if (rc < 0) {
            snprintf(st->err, sizeof st->err, "cannot create %s: %s", d ? d : "results folder",
                     strerror(errno));
            free(d);
            return -1;
        }
        free(d);
    }
    /* the copy shows secrets as ******** (it is shared, and report.html shows it) */
    plan_copy = orch_strfmt("%s/plan.ini", st->l->run_dir);
    if (!plan_copy || orch_plan_write_redacted(st->p, plan_copy, st->err, sizeof st->err) < 0) {
        if (!plan_copy)
            snprintf(st->err, sizeof st->err, "out of memory");
        free(plan_copy);
        return -1;
    }
    free(plan_copy);
    return 0;
}

static int teardown(run_state *st, orch_ledger *l)
{
    orch_counts c = { 0 };
    int n = orch_ledger_count(l), failed;
    if (!n)
        return 0;
    failed = orch_ledger_teardown(l, st->out, &c);
    fprintf(st->out, "teardown: removed %d domain(s), %d volume(s), %d pool(s)%s\n",
            c.domains, c.volumes, c.pools, failed ? "; some objects remain (see above)" : "");
    for (int i = 0; st->vms && st->l && i < st->l->nvms; i++)
        if (st->vms[i].dom) {
            virDomainFree(st->vms[i].dom);
            st->vms[i].dom = NULL;
        }
    return failed;
}

/* After a teardown that left objects (a host that did not answer, a
 * dropped connection): the run's objects by name on every host of the
 * run, each attempt on a new connection, with backoff (hosts.h). 0 when
 * every host is clean. */
static int retry_teardown(run_state *st)
{
    orch_counts c = { 0 };
    char err[512];
    int left;
    if (!st->l)
        return -1;
    fprintf(st->out, "teardown: retrying by name on every host of the run\n");
    left = orch_hosts_teardown_run(st->l->run_dir, st->l->run_id, st->out, &c, err, sizeof err);
    if (left < 0)
        fprintf(st->out, "teardown: %s\n", err);
    else
        fprintf(st->out, "teardown: removed %d domain(s), %d volume(s), %d pool(s)%s\n",
                c.domains, c.volumes, c.pools, left ? "; some hosts still hold objects" : "");
    return left;
}

int orch_run(const orch_plan *p, orch_run_opts *o)
{
    run_state st;
    orch_stop_saved saved_handlers;
    char started[32];
    char *run_id = o->run_id ? strdup(o->run_id) : orch_runid_new(p->name, time(NULL));
    int rc = ORCH_RUN_FAILED, summary_written = 0;

    memset(&st, 0, sizeof st);
    st.p = p;
    st.o = o;
    st.out = o->out ? o->out : stderr;
    st.client = p->client == ORCH_CLIENT_GUEST ? &orch_client_guest : &orch_client_host;
    st.cl.plan = p;
    st.cl.agent = o->agent ? o->agent : orch_agent_libvirt;
    st.cl.agent_ctx = o->hook_ctx;
    st.cl.out = st.out;
    st.cl.progress_every = o->progress_every > 0 ? o->progress_every : 10;
    orch_eta_init(&st.eta, p);
    st.cl.progress_hook = orch_eta_progress;
    st.cl.progress_ctx = &st.eta;
    iso_now(started, sizeof started);
    if (orch_events_start(st.err, sizeof st.err) < 0)
        return ORCH_RUN_FAILED;
    st.mon = orch_monitor_new(st.out);
    st.cl.monitor = st.mon;
    st.tel = st.mon ? orch_telemetry_new(p, st.mon, st.out, o->telemetry) : NULL;
    o->monitor = st.mon;

    orch_stop_arm(&saved_handlers);

    if (!run_id || !orch_runid_valid(run_id)) {
        snprintf(st.err, sizeof st.err, "bad run id '%s'", run_id ? run_id : "");
        goto done;
    }
    snprintf(o->run_id_out, sizeof o->run_id_out, "%s", run_id);
    st.t = orch_template_load(p->template_path, st.err, sizeof st.err);
    if (!st.t)
        goto done;
    st.l = orch_layout_new(p, run_id, orch_layout_has_seed(p, st.t));
    st.conns = o->conns ? o->conns : orch_conns_new();
    st.run_objs = orch_ledger_new();
    st.rep_objs = orch_ledger_new();
    st.pools = calloc((size_t)p->ndrives, sizeof *st.pools);
    st.restore = calloc((size_t)p->ndrives + 1, sizeof *st.restore);
    st.images = orch_images_new(p);
    st.vms = st.l ? calloc((size_t)st.l->nvms, sizeof *st.vms) : NULL;
    st.results = calloc((size_t)(orch_plan_total_vms(p) * p->repetitions), sizeof *st.results);
    if (!st.l || !st.conns || !st.run_objs || !st.rep_objs || !st.pools || !st.restore
        || !st.images || !st.vms || !st.results || !st.mon) {
        snprintf(st.err, sizeof st.err, "out of memory");
        goto done;
    }
    st.cl.run_dir = st.l->run_dir;
    fprintf(st.out, "run %s: %d drive(s), %d VM(s), results in %s\n", run_id, p->ndrives,
            st.l->nvms, st.l->run_dir);
    if (check_image_engine(&st) < 0 || setup_dirs(&st) < 0
        || orch_hosts_write(p, st.l->run_dir, st.err, sizeof st.err) < 0)
        goto done;
    if (assign_ports(&st) < 0)
        goto done;
    /* the plan's cost, and its refusal when a drive or a host is short */
    if (orch_estimate(st.conns, p, st.t, st.out, st.err, sizeof st.err) < 0
        || provision_run(&st) < 0)
        goto done;
    for (int rep = 1; rep <= p->repetitions; rep++) {
        int measured = 0, rc_rep;
        orch_eta_rep_begin(&st.eta, rep, time(NULL));
        rc_rep = run_rep(&st, rep, &measured);
        orch_eta_rep_end(&st.eta, time(NULL));
        if (measured)
            record_rep(&st, rep);
        orch_monitor_clear(st.mon);     /* teardown's destroys are no faults */
        if (rc_rep < 0)
            goto done;
        teardown(&st, st.rep_objs);
    }
    if (write_summary(&st, started, 0) < 0)
        goto done;
    summary_written = 1;
    fprintf(st.out, "summary: %s/summary.json\n", st.l->run_dir);
    if (write_report(&st) < 0)
        goto done;
    rc = ORCH_RUN_OK;
    if (st.failed_vms > 0) {
        rc = ORCH_RUN_DEGRADED;
        fprintf(st.out, "drivebench: completed with failures: %d VM run(s) failed and are "
                "left out of the figures (see the summary)\n", st.failed_vms);
    }

done:
    if (rc != ORCH_RUN_OK && rc != ORCH_RUN_DEGRADED) {
        if (run_stop_requested(&st)) {
            rc = ORCH_RUN_INTERRUPTED;
            fprintf(st.out, "drivebench: interrupted by signal %d; tearing down\n",
                    orch_stop_signal());
        } else {
            fprintf(st.out, "drivebench: %s\n", st.err);
        }
        /* nothing measured is lost: what the finished phases measured goes
         * into a summary marked partial, before teardown */
        if (st.nresults > 0 && st.l && !summary_written) {
            char keep[sizeof st.err];
            snprintf(keep, sizeof keep, "%s", st.err);
            if (write_summary(&st, started, 1) == 0)
                fprintf(st.out, "partial summary: %s/summary.json\n", st.l->run_dir);
            else
                fprintf(st.out, "drivebench: no partial summary: %s\n", st.err);
            snprintf(st.err, sizeof st.err, "%s", keep);
        }
    }
    /* teardown needs libvirt: wait for a lost connection to come back */
    if (st.mon && reconnect_lost(&st, "teardown") < 0)
        fprintf(st.out, "drivebench: %s\n", st.err);
    if (st.mon)
        orch_monitor_clear(st.mon);
    if (teardown(&st, st.rep_objs) + teardown(&st, st.run_objs) > 0
        && retry_teardown(&st) != 0 && (rc == ORCH_RUN_OK || rc == ORCH_RUN_DEGRADED))
        rc = ORCH_RUN_FAILED;
    for (int d = 0; st.pools && d < p->ndrives; d++)
        if (st.pools[d])
            virStoragePoolFree(st.pools[d]);
    for (int i = 0; i < st.nresults; i++) {
        free((char *)st.results[i].result);
        free((char *)st.results[i].precondition);
        free(st.results[i].console_tail);
    }
    orch_monitor_free(st.mon);
    orch_telemetry_free(st.tel);
    o->monitor = NULL;
    free(st.results);
    free(st.vms);
    free(st.pools);
    free(st.restore);
    orch_images_free(st.images);
    orch_ledger_free(st.rep_objs);
    orch_ledger_free(st.run_objs);
    if (!o->conns)
        orch_conns_free(st.conns);
    orch_layout_free(st.l);
    orch_template_free(st.t);
    free(run_id);
    orch_stop_disarm(&saved_handlers);
    return rc;
}
