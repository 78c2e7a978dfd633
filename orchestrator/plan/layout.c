/* layout.c — names, ports and commands of a plan's VMs (see layout.h). */
#include "plan/layout.h"
#include "util/util.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void orch_layout_free(orch_layout *l)
{
    if (!l)
        return;
    for (int i = 0; i < l->nvms; i++) {
        orch_vm *vm = &l->vms[i];
        free(vm->name);
        free(vm->pool);
        free(vm->boot_vol);
        free(vm->db_vol);
        free(vm->seed_vol);
        orch_vm_place_clear(&vm->place);
    }
    free(l->vms);
    if (l->drive_pools) {
        for (int i = 0; l->drive_pools[i]; i++)
            free(l->drive_pools[i]);
        free(l->drive_pools);
    }
    free(l->run_id);
    free(l->run_dir);
    free(l);
}

static char *run_dir_of(const orch_plan *p, const char *run_id)
{
    char cwd[PATH_MAX];
    if (p->results_dir[0] == '/' || !getcwd(cwd, sizeof cwd))
        return orch_strfmt("%s/%s", p->results_dir, run_id);
    return orch_strfmt("%s/%s/%s", cwd, p->results_dir, run_id);
}

int orch_layout_has_seed(const orch_plan *p, const orch_template *t)
{
    return orch_template_disk_size(t, "seeddisk") != 0
           || (p->image && p->image_attaches_databases && strcmp(p->prepare, "yes") != 0);
}

uint64_t orch_layout_seed_size(const orch_plan *p, const orch_template *t)
{
    if (p->seed_size)
        return p->seed_size;
    if (orch_template_disk_size(t, "seeddisk"))
        return orch_template_disk_size(t, "seeddisk");
    return p->db_size ? p->db_size : orch_template_disk_size(t, "dbdisk");
}

orch_layout *orch_layout_new(const orch_plan *p, const char *run_id, int has_seed)
{
    orch_layout *l = calloc(1, sizeof *l);
    int total = orch_plan_total_vms(p), k = 0;

    if (!l)
        return NULL;
    l->run_id = strdup(run_id);
    l->run_dir = run_dir_of(p, run_id);
    l->vms = calloc((size_t)(total ? total : 1), sizeof *l->vms);
    l->drive_pools = calloc((size_t)p->ndrives + 1, sizeof *l->drive_pools);
    if (!l->run_id || !l->run_dir || !l->vms || !l->drive_pools)
        goto oom;
    for (int d = 0; d < p->ndrives; d++) {
        const orch_drive *dr = &p->drives[d];
        l->drive_pools[d] = dr->pool ? strdup(dr->pool)
                                     : orch_strfmt(ORCH_NAME_PREFIX "%s--drive-%s", run_id, dr->id);
        if (!l->drive_pools[d])
            goto oom;
        for (int i = 1; i <= orch_plan_drive_vms(p, dr); i++, k++) {
            orch_vm *vm = &l->vms[k];
            l->nvms = k + 1;
            vm->drive = dr;
            vm->drive_index = d;
            vm->index = i;
            vm->port = p->port_base + k;
            vm->place.node = -1;
            vm->name = orch_strfmt(ORCH_NAME_PREFIX "%s--%s-vm%d", run_id, dr->id, i);
            if (!vm->name)
                goto oom;
            orch_uuid_from_name(vm->name, vm->uuid);
            vm->pool = strdup(l->drive_pools[d]);
            vm->boot_vol = orch_strfmt("%s-boot.qcow2", vm->name);
            vm->db_vol = orch_strfmt("%s-db.img", vm->name);
            vm->seed_vol = has_seed ? orch_strfmt("%s-seed.qcow2", vm->name) : NULL;
            if (!vm->pool || !vm->boot_vol || !vm->db_vol || (has_seed && !vm->seed_vol))
                goto oom;
        }
    }
    return l;
oom:
    orch_layout_free(l);
    return NULL;
}

char *orch_layout_result(const orch_vm *vm, int rep, res_phase_id phase)
{
    if (phase == RES_PHASE_MEASURE)
        return orch_strfmt("vm/%s.r%d.json", vm->name, rep);
    return orch_strfmt("vm/%s.r%d.%s.json", vm->name, rep, res_phase_name(phase));
}

char *orch_layout_round_result(const orch_vm *vm, int rep, int round)
{
    return orch_strfmt("vm/%s.r%d.%s.%d.json", vm->name, rep,
                       res_phase_name(RES_PHASE_PRECONDITION), round);
}

char *orch_layout_console(const orch_vm *vm, int rep)
{
    return orch_strfmt("console/%s.r%d.log", vm->name, rep);
}

void orch_layout_uuid(const orch_vm *vm, int rep, char out[37])
{
    char seed[PATH_MAX];        /* names are far shorter (a domain name) */
    if (rep <= 1) {
        memcpy(out, vm->uuid, 37);
        return;
    }
    snprintf(seed, sizeof seed, "%s repetition %d", vm->name, rep);
    orch_uuid_from_name(seed, out);
}

char *orch_layout_render(const orch_layout *l, const orch_plan *p, const orch_template *t,
                         const orch_vm *vm, const char *domain_type, int rep,
                         char *err, size_t errlen)
{
    /* drivebench's images boot directly; a user's image boots from its
     * disk unless the plan gives a kernel */
    char *kernel = p->image ? (p->kernel ? strdup(p->kernel) : NULL)
                            : orch_strfmt("%s/vmlinuz", p->image_dir);
    char *initrd = p->image ? (p->initrd ? strdup(p->initrd) : NULL)
                            : orch_strfmt("%s/initrd.img", p->image_dir);
    char *console_rel = orch_layout_console(vm, rep);
    char *console = console_rel ? orch_strfmt("%s/%s", l->run_dir, console_rel) : NULL;
    int oom = 0;
    char *settings = orch_plan_settings_cmdline(p, &oom);
    char *sock = p->network == ORCH_NET_PASST ? orch_layout_passt_socket(vm) : NULL;
    char *xml = NULL, uuid[37];
    orch_domain_spec s = {
        .name = vm->name, .uuid = uuid, .domain_type = domain_type, .cpu = p->cpu,
        .place = vm->place.nvcpus ? &vm->place : NULL, .hugepages = p->hugepages,
        .run_id = l->run_id, .drive = vm->drive->name, .vm_index = vm->index,
        .vcpus = p->vcpus, .memory = p->memory, .kernel = kernel, .initrd = initrd,
        .pool = vm->pool, .boot_vol = vm->boot_vol, .db_vol = vm->db_vol,
        .seed_vol = vm->seed_vol, .console_log = console, .port = vm->port,
        .guest_port = p->engine->port, .cmdline = p->cmdline, .cmdline_extra = settings,
        .controller = p->controller,
        .guest_os = p->guest_os, .nic = p->nic, .firmware = p->firmware, .hyperv = p->hyperv,
        .passt_socket = sock,
    };
    orch_layout_uuid(vm, rep, uuid);
    /* each path the plan needs was copied */
    int copied = console && !oom && (p->network != ORCH_NET_PASST || sock) && (p->image ? (!p->kernel || kernel) && (!p->initrd || initrd)
                                      : kernel && initrd);
    if (copied)
        xml = orch_template_render(t, &s, err, errlen);
    else
        snprintf(err, errlen, "out of memory");
    free(kernel);
    free(initrd);
    free(console_rel);
    free(console);
    free(settings);
    free(sock);
    return xml;
}

char *orch_layout_passt_socket(const orch_vm *vm)
{
    return orch_strfmt("%s/%s.sock", ORCH_PASST_DIR, vm->uuid);
}

void orch_argv_free(char **argv)
{
    if (!argv)
        return;
    for (int i = 0; argv[i]; i++)
        free(argv[i]);
    free(argv);
}

typedef struct argv_builder {
    char **v;
    int    n, cap, failed;
} argv_builder;

static void arg(argv_builder *b, char *s)      /* takes s */
{
    if (!s || b->failed) {
        b->failed = 1;
        free(s);
        return;
    }
    if (b->n + 2 > b->cap) {
        int cap = b->cap ? b->cap * 2 : 32;
        char **v = realloc(b->v, sizeof *v * (size_t)cap);
        if (!v) {
            b->failed = 1;
            free(s);
            return;
        }
        b->v = v;
        b->cap = cap;
    }
    b->v[b->n++] = s;
    b->v[b->n] = NULL;
}

static void arg_cb(void *ctx, char *s)
{
    arg(ctx, s);
}

char **orch_oltp_argv(const orch_plan *p, const char *oltp, int port, const char *command,
                      int time_s, int warmup_s, const char *json_path)
{
    argv_builder b = { 0 };
    orch_db_target target = orch_plan_db_target(p);
    int run = strcmp(command, "run") == 0;

    arg(&b, strdup(oltp));
    orch_db_conn_args(&target, port, arg_cb, &b);
    if (p->tables)
        arg(&b, orch_strfmt("--tables=%d", p->tables));
    if (p->table_size)
        arg(&b, orch_strfmt("--table-size=%lld", (long long)p->table_size));
    if (p->warehouses)
        arg(&b, orch_strfmt("--warehouses=%d", p->warehouses));
    arg(&b, orch_strfmt("--threads=%d", p->threads ? p->threads : 1));
    if (run) {
        /* oltp's --time is the whole run: the warm-up comes before the
         * measured time_s */
        arg(&b, orch_strfmt("--time=%d", time_s > 0 ? time_s + warmup_s : 0));
        if (warmup_s)
            arg(&b, orch_strfmt("--warmup-time=%d", warmup_s));
        if (p->rate > 0)
            arg(&b, orch_strfmt("--rate=%g", p->rate));
        arg(&b, orch_strfmt("--report-interval=%d", ORCH_REPORT_INTERVAL_S));
        arg(&b, orch_strfmt("--json=%s", json_path));
    }
    if (strcmp(command, "prepare") == 0)
        orch_plan_file_args(p, arg_cb, &b);
    if (p->extra) {
        char *copy = strdup(p->extra), *save = NULL;
        for (char *t = copy ? strtok_r(copy, " \t", &save) : NULL; t;
             t = strtok_r(NULL, " \t", &save))
            arg(&b, strdup(t));
        if (!copy)
            b.failed = 1;
        free(copy);
    }
    arg(&b, strdup(p->workload));
    arg(&b, strdup(command));
    if (b.failed) {
        orch_argv_free(b.v);
        return NULL;
    }
    return b.v;
}

char **orch_oltp_ping_argv(const orch_plan *p, const char *oltp, int port, int timeout_s)
{
    argv_builder b = { 0 };
    orch_db_target target = orch_plan_db_target(p);

    arg(&b, strdup(oltp));
    orch_db_conn_args(&target, port, arg_cb, &b);
    arg(&b, orch_strfmt("--connect-timeout=%d", timeout_s));
    arg(&b, strdup("ping"));
    if (b.failed) {
        orch_argv_free(b.v);
        return NULL;
    }
    return b.v;
}

char **orch_oltp_settings_argv(const orch_plan *p, const char *oltp, int port,
                               const char *json_path)
{
    argv_builder b = { 0 };
    orch_db_target target = orch_plan_db_target(p);
    char *stated = NULL;
    size_t len = 0;
    FILE *f = p->nsettings ? open_memstream(&stated, &len) : NULL;

    if (p->nsettings && !f)
        return NULL;
    for (int i = 0; f && i < p->nsettings; i++)
        fprintf(f, "%s%s=%s", i ? ";" : "", p->settings[i].name, p->settings[i].value);
    if (f && fclose(f) != 0) {
        free(stated);
        return NULL;
    }
    arg(&b, strdup(oltp));
    orch_db_conn_args(&target, port, arg_cb, &b);
    if (stated)
        arg(&b, orch_strfmt("--server-settings=%s", stated));
    arg(&b, orch_strfmt("--json=%s", json_path));
    arg(&b, strdup("settings"));
    free(stated);
    if (b.failed) {
        orch_argv_free(b.v);
        return NULL;
    }
    return b.v;
}

char *orch_layout_server_result(const orch_vm *vm, int rep)
{
    return orch_strfmt("vm/%s.r%d.server.json", vm->name, rep);
}

const char *orch_local_domain_type(const orch_plan *p)
{
    if (strcmp(p->domain_type, "auto") != 0)
        return p->domain_type;
    return access("/dev/kvm", R_OK | W_OK) == 0 ? "kvm" : "qemu";   /* run measures (virt/kvm.h) */
}
