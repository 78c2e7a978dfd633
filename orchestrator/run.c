/* run.c — the run: provision, boot, phases, collection, aggregation and
 * teardown (see run.h). */
#include "run.h"
#include "aggregate.h"
#include "names.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

/* Set by the SIGINT/SIGTERM handler only; read through orch_stop_requested. */
static volatile sig_atomic_t stop_signal;

static void on_stop(int sig)
{
    stop_signal = sig;
}

int orch_stop_requested(void)
{
    return stop_signal != 0;
}

#define ORCH_STEP_NAME(id, text) text,
static const char *const step_names[] = { ORCH_STEPS(ORCH_STEP_NAME) };
#undef ORCH_STEP_NAME

const char *orch_step_name(orch_step s)
{
    return s < ORCH_STEP_COUNT ? step_names[s] : "?";
}

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
    orch_vm_result  *results;
    int              nresults;
    char             err[1024];
} run_state;

/* The hook, then the check for a stop request. -1 with st->err set. */
static int step(run_state *st, orch_step s, const char *object)
{
    if (orch_stop_requested()) {
        snprintf(st->err, sizeof st->err, "interrupted");
        return -1;
    }
    if (st->o->inject && st->o->inject(st->o->hook_ctx, s, object) < 0) {
        snprintf(st->err, sizeof st->err, "%s %s: injected failure", orch_step_name(s), object);
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

/* Host CPU, memory and each hypervisor's versions, for the report. */
static json_object *environment(run_state *st)
{
    json_object *env = json_object_new_object(), *host = json_object_new_object();
    json_object *hvs = json_object_new_array();
    struct utsname u;
    char line[512], cpu[256] = "";
    FILE *f = fopen("/proc/cpuinfo", "r");
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, "model name", 10) == 0 && strchr(line, ':')) {
            snprintf(cpu, sizeof cpu, "%s", strchr(line, ':') + 2);
            cpu[strcspn(cpu, "\n")] = '\0';
            break;
        }
    if (f)
        fclose(f);
    if (uname(&u) == 0) {
        json_object_object_add(host, "hostname", json_object_new_string(u.nodename));
        json_object_object_add(host, "kernel", json_object_new_string(u.release));
    }
    json_object_object_add(host, "cpu_model", json_object_new_string(cpu));
    json_object_object_add(host, "cpus", json_object_new_int((int)sysconf(_SC_NPROCESSORS_ONLN)));
    json_object_object_add(host, "memory_bytes", json_object_new_int64(
                               (int64_t)sysconf(_SC_PHYS_PAGES) * sysconf(_SC_PAGESIZE)));
    json_object_object_add(env, "host", host);
    for (int i = 0; i < st->l->nvms; i++) {
        orch_vm *vm = &st->l->vms[i];
        const char *uri = orch_plan_drive_uri(st->p, vm->drive);
        json_object *h;
        unsigned long lib = 0, hv = 0;
        char ver[64], *hostname;
        int dup = 0;
        for (size_t k = 0; k < json_object_array_length(hvs); k++) {
            json_object *u2;
            json_object_object_get_ex(json_object_array_get_idx(hvs, k), "uri", &u2);
            dup |= strcmp(json_object_get_string(u2), uri) == 0;
        }
        if (dup || !vm->conn)
            continue;
        h = json_object_new_object();
        json_object_object_add(h, "uri", json_object_new_string(uri));
        hostname = virConnectGetHostname(vm->conn);
        json_object_object_add(h, "hostname", hostname ? json_object_new_string(hostname) : NULL);
        free(hostname);
        virConnectGetLibVersion(vm->conn, &lib);
        snprintf(ver, sizeof ver, "%lu.%lu.%lu", lib / 1000000, lib / 1000 % 1000, lib % 1000);
        json_object_object_add(h, "libvirt_version", json_object_new_string(ver));
        json_object_object_add(h, "hypervisor", json_object_new_string(
                                   virConnectGetType(vm->conn) ? virConnectGetType(vm->conn) : ""));
        virConnectGetVersion(vm->conn, &hv);
        snprintf(ver, sizeof ver, "%lu.%lu.%lu", hv / 1000000, hv / 1000 % 1000, hv % 1000);
        json_object_object_add(h, "hypervisor_version", json_object_new_string(ver));
        json_object_object_add(h, "domain_type", json_object_new_string(vm->domain_type));
        json_object_array_add(hvs, h);
    }
    json_object_object_add(env, "hypervisors", hvs);
    return env;
}

/* The plan's figures as the summary records them. */
static json_object *plan_json(const orch_plan *p, const orch_template *t)
{
    json_object *o = json_object_new_object(), *w = json_object_new_object();
    json_object_object_add(o, "name", json_object_new_string(p->name));
    json_object_object_add(o, "profile", json_object_new_string(orch_template_profile(t)));
    json_object_object_add(o, "vms_per_drive", json_object_new_int(p->vms_per_drive));
    json_object_object_add(o, "client", json_object_new_string(
                               p->client == ORCH_CLIENT_HOST ? "host" : "guest"));
    json_object_object_add(o, "repetitions", json_object_new_int(p->repetitions));
    json_object_object_add(o, "cv_threshold", orch_json_number(p->cv_threshold));
    json_object_object_add(w, "name", json_object_new_string(p->workload));
    json_object_object_add(w, "db_driver", json_object_new_string(p->db_driver));
    if (p->tables)
        json_object_object_add(w, "tables", json_object_new_int(p->tables));
    if (p->table_size)
        json_object_object_add(w, "table_size", json_object_new_int64(p->table_size));
    if (p->warehouses)
        json_object_object_add(w, "warehouses", json_object_new_int(p->warehouses));
    json_object_object_add(w, "threads", json_object_new_int(p->threads ? p->threads : 1));
    json_object_object_add(w, "precondition_s", json_object_new_int(p->precondition_s));
    json_object_object_add(w, "warmup_s", json_object_new_int(p->warmup_s));
    json_object_object_add(w, "measure_s", json_object_new_int(p->measure_s));
    json_object_object_add(o, "workload", w);
    return o;
}

/* Pools and, for profiles with a prebuilt database, each VM's seed disk:
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
        if (!conn)
            return -1;
        st->pools[d] = dr->pool ? orch_pool_lookup(conn, dr->pool, st->err, sizeof st->err)
                                : orch_pool_create_dir(conn, st->run_objs, st->l->drive_pools[d],
                                                       dr->path, st->err, sizeof st->err);
        if (!st->pools[d])
            return -1;
    }
    for (int i = 0; i < st->l->nvms; i++) {
        orch_vm *vm = &st->l->vms[i];
        const char *type;
        char *seed_path;
        virStorageVolPtr vol;
        vm->conn = virStoragePoolGetConnect(st->pools[vm->drive_index]);
        type = strcmp(p->domain_type, "auto") != 0 ? p->domain_type
               : orch_domain_type_for(vm->conn, st->err, sizeof st->err);
        if (!type)
            return -1;
        vm->domain_type = type;
        if (!vm->seed_vol)
            continue;
        if (step(st, ORCH_STEP_SEED, vm->seed_vol) < 0)
            return -1;
        seed_path = orch_strfmt("%s/seed.qcow2", p->image_dir);
        vol = seed_path ? orch_vol_create(st->pools[vm->drive_index], st->run_objs, vm->seed_vol,
                                          "qcow2", p->seed_size ? p->seed_size
                                          : orch_template_disk_size(st->t, "seeddisk"),
                                          seed_path, NULL, st->err, sizeof st->err)
                        : NULL;
        free(seed_path);
        if (!vol)
            return -1;
        virStorageVolFree(vol);
    }
    return 0;
}

/* Boot and database volumes, then define and start every VM. The database
 * volume is a full raw copy of the VM's seed disk, made again before each
 * repetition, so each drive starts from identical data. */
static int provision_rep(run_state *st, int rep)
{
    const orch_plan *p = st->p;
    for (int i = 0; i < st->l->nvms; i++) {
        orch_vm *vm = &st->l->vms[i];
        virStoragePoolPtr pool = st->pools[vm->drive_index];
        virStorageVolPtr vol, seed = NULL;
        char *base = orch_strfmt("%s/base.qcow2", p->image_dir);
        char *xml;

        if (!base || step(st, ORCH_STEP_BOOT_VOL, vm->boot_vol) < 0) {
            free(base);
            return -1;
        }
        vol = orch_vol_create(pool, st->rep_objs, vm->boot_vol, "qcow2",
                              p->boot_size ? p->boot_size
                                           : orch_template_disk_size(st->t, "bootdisk"),
                              base, NULL, st->err, sizeof st->err);
        free(base);
        if (!vol)
            return -1;
        virStorageVolFree(vol);

        if (step(st, ORCH_STEP_DB_VOL, vm->db_vol) < 0)
            return -1;
        if (vm->seed_vol && !(seed = virStorageVolLookupByName(pool, vm->seed_vol))) {
            snprintf(st->err, sizeof st->err, "seed volume %s: %s", vm->seed_vol,
                     orch_virt_error());
            return -1;
        }
        vol = orch_vol_create(pool, st->rep_objs, vm->db_vol, "raw",
                              p->db_size ? p->db_size : orch_template_disk_size(st->t, "dbdisk"),
                              NULL, seed, st->err, sizeof st->err);
        if (seed)
            virStorageVolFree(seed);
        if (!vol)
            return -1;
        virStorageVolFree(vol);

        if (step(st, ORCH_STEP_DOMAIN, vm->name) < 0)
            return -1;
        xml = orch_layout_render(st->l, p, st->t, vm, vm->domain_type, rep, st->err,
                                 sizeof st->err);
        if (!xml)
            return -1;
        vm->dom = orch_domain_start(vm->conn, st->rep_objs, xml, st->err, sizeof st->err);
        free(xml);
        if (!vm->dom)
            return -1;
    }
    return 0;
}

/* Print the end of a VM's serial console log (why boot failed). */
static void show_console(run_state *st, const orch_vm *vm, int rep)
{
    char *rel = orch_layout_console(vm, rep);
    char *path = rel ? orch_strfmt("%s/%s", st->l->run_dir, rel) : NULL;
    char line[512];
    long keep = 40, n = 0;
    FILE *f = path ? fopen(path, "r") : NULL;
    if (!f) {
        fprintf(st->out, "drivebench: no console log at %s\n", path ? path : "?");
    } else {
        while (fgets(line, sizeof line, f))
            n++;
        rewind(f);
        fprintf(st->out, "--- last lines of %s ---\n", path);
        for (long i = 0; fgets(line, sizeof line, f); i++)
            if (i >= n - keep)
                fputs(line, st->out);
        fprintf(st->out, "--- end of console log ---\n");
        fclose(f);
    }
    free(rel);
    free(path);
}

static int wait_all_ready(run_state *st, int rep)
{
    time_t deadline = time(NULL) + st->p->boot_timeout_s;

    fprintf(st->out, "waiting for %d VM(s) to boot and their databases to answer "
            "(timeout %d s)\n", st->l->nvms, st->p->boot_timeout_s);
    for (int i = 0; i < st->l->nvms; i++) {
        orch_vm *vm = &st->l->vms[i];
        int left = (int)(deadline - time(NULL));
        if (step(st, ORCH_STEP_READY, vm->name) < 0)
            return -1;
        int rc = st->o->wait_ready
                 ? st->o->wait_ready(st->o->hook_ctx, vm, left > 1 ? left : 1, st->err,
                                     sizeof st->err)
                 : st->client->wait_ready(&st->cl, vm, left > 1 ? left : 1, st->err,
                                          sizeof st->err);
        if (rc < 0) {
            if (!orch_stop_requested())
                show_console(st, vm, rep);
            else
                snprintf(st->err, sizeof st->err, "interrupted");
            return -1;
        }
    }
    return 0;
}

/* Run one phase of oltp on every VM at once. Results land in the run
 * folder as vm/<vm>.r<rep>[.<phase>].json (none for prepare). */
static int run_phase(run_state *st, int rep, orch_step s, const char *phase, const char *command,
                     int time_s, int warmup_s)
{
    const orch_plan *p = st->p;
    int n = st->l->nvms, rc = -1, has_json = strcmp(command, "run") == 0;
    char ***argvs = calloc((size_t)n, sizeof *argvs);
    char **results = calloc((size_t)n, sizeof *results);
    char **guest_results = calloc((size_t)n, sizeof *guest_results);
    if (!argvs || !results || !guest_results)
        goto cleanup;
    if (step(st, s, phase) < 0)
        goto cleanup;
    for (int i = 0; i < n; i++) {
        orch_vm *vm = &st->l->vms[i];
        char *rel = orch_layout_result(vm, rep, phase);
        results[i] = rel && has_json ? orch_strfmt("%s/%s", st->l->run_dir, rel) : NULL;
        guest_results[i] = has_json ? orch_strfmt("/var/tmp/drivebench.%s.json", phase) : NULL;
        free(rel);
        if (st->client->in_guest)
            argvs[i] = orch_oltp_argv(p, p->guest_oltp, 3306, command, time_s, warmup_s,
                                      guest_results[i]);
        else
            argvs[i] = orch_oltp_argv(p, p->oltp, vm->port, command, time_s, warmup_s,
                                      results[i]);
        if (!argvs[i] || (has_json && (!results[i] || !guest_results[i]))) {
            snprintf(st->err, sizeof st->err, "out of memory");
            goto cleanup;
        }
    }
    fprintf(st->out, "repetition %d: %s on %d VM(s)%s\n", rep, phase, n,
            time_s ? "" : " (until done)");
    fflush(st->out);
    rc = st->client->run_phase(&st->cl, st->l->vms, n, argvs, guest_results, results, phase,
                               time_s);
    if (rc == ORCH_RUN_INTERRUPTED)
        snprintf(st->err, sizeof st->err, "interrupted");
    else if (rc < 0)
        snprintf(st->err, sizeof st->err, "%s failed on at least one VM (see above)", phase);
cleanup:
    for (int i = 0; i < n; i++) {
        if (argvs)
            orch_argv_free(argvs[i]);
        if (results)
            free(results[i]);
        if (guest_results)
            free(guest_results[i]);
    }
    free(argvs);
    free(results);
    free(guest_results);
    return rc < 0 || rc == ORCH_RUN_INTERRUPTED ? -1 : 0;
}

static int need_prepare(const orch_plan *p, const orch_layout *l)
{
    if (strcmp(p->prepare, "auto") == 0)
        return l->nvms > 0 && l->vms[0].seed_vol == NULL;
    return strcmp(p->prepare, "yes") == 0;
}

static int run_rep(run_state *st, int rep)
{
    const orch_plan *p = st->p;
    if (provision_rep(st, rep) < 0 || wait_all_ready(st, rep) < 0)
        return -1;
    if (need_prepare(p, st->l)
        && run_phase(st, rep, ORCH_STEP_PREPARE, "prepare", "prepare", 0, 0) < 0)
        return -1;
    if (p->precondition_s > 0
        && run_phase(st, rep, ORCH_STEP_PRECONDITION, "precondition", "run",
                     p->precondition_s, 0) < 0)
        return -1;
    if (run_phase(st, rep, ORCH_STEP_MEASURE, "measure", "run", p->measure_s, p->warmup_s) < 0)
        return -1;
    for (int i = 0; i < st->l->nvms; i++) {
        orch_vm *vm = &st->l->vms[i];
        orch_vm_result *r = &st->results[st->nresults++];
        r->vm = vm->name;
        r->drive = vm->drive->name;
        r->repetition = rep;
        r->result = orch_layout_result(vm, rep, "measure");
        r->precondition = p->precondition_s > 0 ? orch_layout_result(vm, rep, "precondition")
                                                : NULL;
    }
    return 0;
}

static int write_summary(run_state *st, const char *started)
{
    char finished[32];
    const char **drives = calloc((size_t)st->p->ndrives, sizeof *drives);
    json_object *plan = plan_json(st->p, st->t), *env = environment(st), *sum = NULL;
    orch_summary_input in;
    int rc = -1;

    if (!drives || step(st, ORCH_STEP_SUMMARY, "summary.json") < 0)
        goto cleanup;
    for (int d = 0; d < st->p->ndrives; d++)
        drives[d] = st->p->drives[d].name;
    iso_now(finished, sizeof finished);
    memset(&in, 0, sizeof in);
    in.run_id = st->l->run_id;
    in.run_dir = st->l->run_dir;
    in.started_at = started;
    in.finished_at = finished;
    in.plan = plan;
    in.environment = env;
    in.drives = drives;
    in.ndrives = st->p->ndrives;
    in.vms = st->results;
    in.nvms = st->nresults;
    in.repetitions = st->p->repetitions;
    sum = orch_summary_build(&in, st->err, sizeof st->err);
    if (sum && orch_summary_write(st->l->run_dir, sum, st->err, sizeof st->err) == 0)
        rc = 0;
cleanup:
    json_object_put(sum);
    json_object_put(plan);
    json_object_put(env);
    free(drives);
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
    for (int i = 0; st->l && i < st->l->nvms; i++)
        if (st->l->vms[i].dom) {
            virDomainFree(st->l->vms[i].dom);
            st->l->vms[i].dom = NULL;
        }
    return failed;
}

int orch_run(const orch_plan *p, orch_run_opts *o)
{
    run_state st;
    struct sigaction sa, old_int, old_term;
    char started[32];
    char *run_id = o->run_id ? strdup(o->run_id) : orch_runid_new(p->name, time(NULL));
    int rc = ORCH_RUN_FAILED;

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
    iso_now(started, sizeof started);

    stop_signal = 0;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop;          /* no SA_RESTART: waits wake up */
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);

    if (!run_id || !orch_runid_valid(run_id)) {
        snprintf(st.err, sizeof st.err, "bad run id '%s'", run_id ? run_id : "");
        goto done;
    }
    snprintf(o->run_id_out, sizeof o->run_id_out, "%s", run_id);
    st.t = orch_template_load(p->template_path, st.err, sizeof st.err);
    if (!st.t)
        goto done;
    st.l = orch_layout_new(p, run_id, orch_template_disk_size(st.t, "seeddisk") != 0);
    st.conns = o->conns ? o->conns : orch_conns_new();
    st.run_objs = orch_ledger_new();
    st.rep_objs = orch_ledger_new();
    st.pools = calloc((size_t)p->ndrives, sizeof *st.pools);
    st.results = calloc((size_t)(orch_plan_total_vms(p) * p->repetitions), sizeof *st.results);
    if (!st.l || !st.conns || !st.run_objs || !st.rep_objs || !st.pools || !st.results) {
        snprintf(st.err, sizeof st.err, "out of memory");
        goto done;
    }
    fprintf(st.out, "run %s: %d drive(s), %d VM(s), results in %s\n", run_id, p->ndrives,
            st.l->nvms, st.l->run_dir);
    if (setup_dirs(&st) < 0)
        goto done;
    for (int i = 0; i < st.l->nvms && !st.client->in_guest; i++) {
        int port = free_port(i ? st.l->vms[i - 1].port + 1 : p->port_base);
        if (port < 0) {
            snprintf(st.err, sizeof st.err, "no free loopback port from %d", p->port_base);
            goto done;
        }
        st.l->vms[i].port = port;
    }
    if (orch_space_check(st.conns, p, st.t, st.out, st.err, sizeof st.err) < 0
        || provision_run(&st) < 0)
        goto done;
    for (int rep = 1; rep <= p->repetitions; rep++) {
        if (run_rep(&st, rep) < 0)
            goto done;
        teardown(&st, st.rep_objs);
    }
    if (write_summary(&st, started) < 0)
        goto done;
    fprintf(st.out, "summary: %s/summary.json\n", st.l->run_dir);
    rc = ORCH_RUN_OK;

done:
    if (rc != ORCH_RUN_OK) {
        if (orch_stop_requested()) {
            rc = ORCH_RUN_INTERRUPTED;
            fprintf(st.out, "drivebench: interrupted by signal %d; tearing down\n",
                    (int)stop_signal);
        } else {
            fprintf(st.out, "drivebench: %s\n", st.err);
        }
    }
    if (teardown(&st, st.rep_objs) + teardown(&st, st.run_objs) > 0 && rc == ORCH_RUN_OK)
        rc = ORCH_RUN_FAILED;
    for (int d = 0; st.pools && d < p->ndrives; d++)
        if (st.pools[d])
            virStoragePoolFree(st.pools[d]);
    for (int i = 0; i < st.nresults; i++) {
        free((char *)st.results[i].result);
        free((char *)st.results[i].precondition);
    }
    free(st.results);
    free(st.pools);
    orch_ledger_free(st.rep_objs);
    orch_ledger_free(st.run_objs);
    if (!o->conns)
        orch_conns_free(st.conns);
    orch_layout_free(st.l);
    orch_template_free(st.t);
    free(run_id);
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    return rc;
}
