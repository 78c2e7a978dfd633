/* summary.c — summary.json (the plan, the environment, the VMs' results
 * aggregated, drive telemetry) and the report (see run_state.h). */
#include "run/run_state.h"
#include "virt/virt.h"
#include "util/util.h"
#include "report/report.h"
#include "run/fingerprint.h"
#include "results_capacity.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>

void run_iso_now(char *buf, size_t len)
{
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
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
        h->domain_type_reason = strdup(rv->type_reason);
        h->guest_cpu = strdup(orch_cpu_rendered(st->p->cpu, rv->domain_type, line, sizeof line));
        oom |= !h->domain_type_reason || !h->guest_cpu;
        oom |= orch_host_describe(rv->conn, uri, h) < 0;
        oom |= !h->uri || !h->libvirt_version || !h->hypervisor || !h->hypervisor_version
               || !h->domain_type;
    }
    if (!oom && st->nhc > 0) {
        res_env src = { .host_check = st->hc, .nhost_check = st->nhc };
        res_env copy;
        res_env_init(&copy);
        oom |= res_env_copy(&copy, &src) < 0;
        e->host_check = copy.host_check;
        e->nhost_check = copy.nhost_check;
        copy.host_check = NULL;
        copy.nhost_check = 0;
        res_env_clear(&copy);
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
    r->client = orch_plan_choice("run", "client", (int)p->client);
    r->client_path = strdup(p->client == ORCH_CLIENT_GUEST ? RES_PATH_GUEST_LOCAL
                            : p->network == ORCH_NET_PASST ? RES_PATH_PASST_STREAM
                                                           : RES_PATH_USER_HOSTFWD);
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
    r->rate = p->rate;                  /* 0: closed loop (issue 29) */
    if (p->expect_database_size)
        r->expect_database_bytes = (int64_t)p->expect_database_size;
    if (p->precondition_steady && !(r->precondition_rule = strdup("until-steady")))
        goto oom;
    if (p->repetitions_auto) {
        if (!(r->repetitions_rule = strdup("auto")))
            goto oom;
        r->repetitions_min = p->repetitions_min;
        r->repetitions_max = p->repetitions_max;
    }
    r->pinning = strdup(p->pinning);
    r->hugepages = strdup(p->hugepages ? "yes" : "no");
    if (!r->name || !r->profile || !r->client || !r->client_path || !r->workload || !r->db_driver
        || !r->pinning || !r->hugepages)
        goto oom;
    return 0;
oom:
    res_plan_clear(r);
    return -1;
}

/* The precondition's rounds and verdicts (precondition.c) into sum: per
 * drive, every repetition that ran one; per VM run, its own. 0, or -1
 * when out of memory. */
static int attach_precondition(run_state *st, res_summary *sum)
{
    const orch_plan *p = st->p;
    for (int d = 0; st->pre_drives && d < sum->ndrives && d < p->ndrives; d++) {
        res_drive *dr = &sum->drives[d];
        dr->pre = calloc((size_t)p->repetitions, sizeof *dr->pre);
        if (!dr->pre)
            return -1;
        for (int rep = 1; rep <= p->repetitions; rep++) {
            const res_steady *s = &st->pre_drives[(rep - 1) * p->ndrives + d];
            if (s->nrounds && res_steady_copy(&dr->pre[dr->npre++], s) < 0)
                return -1;
        }
    }
    for (int v = 0; st->pre_vms && v < sum->nvms; v++) {
        res_vm *vm = &sum->vms[v];
        for (int i = 0; i < st->l->nvms; i++) {
            const res_steady *s;
            if (strcmp(st->l->vms[i].name, vm->name) != 0 || vm->repetition < 1
                || vm->repetition > p->repetitions)
                continue;
            s = &st->pre_vms[(vm->repetition - 1) * st->l->nvms + i];
            if (!s->nrounds)
                continue;
            if (!(vm->pre = calloc(1, sizeof *vm->pre)) || res_steady_copy(vm->pre, s) < 0)
                return -1;
        }
    }
    if (st->repetitions_stop && !(sum->repetitions_stop = strdup(st->repetitions_stop)))
        return -1;
    return 0;
}

/* ms from µs, NAN for an unbounded side */
static double cap_ms(double us)
{
    return us < 0 || !isfinite(us) ? NAN : us / 1e3;
}

/* The capacity searches' results (capacity_search.c, st->cap) into the
 * drives of sum, the run's summary. 0, or -1 when out of memory. */
static int attach_capacity(const run_state *st, res_summary *sum)
{
    for (int d = 0; st->cap && d < sum->ndrives && d < st->p->ndrives; d++) {
        const orch_cap_search *s = &st->cap[d];
        res_capacity *c = calloc(1, sizeof *c);
        char tgt[64];
        if (!c || !(c->probes = calloc((size_t)s->nprobes + 1, sizeof *c->probes))) {
            free(c);
            return -1;
        }
        sum->drives[d].capacity = c;
        orch_cap_target_format(&s->target, tgt, sizeof tgt);
        c->capacity = c->lo = s->held > 0 ? s->held : NAN;
        c->hi = s->failed > 0 ? s->failed : NAN;
        c->breaking = s->breaking + 1;
        if (!(c->target = strdup(tgt))
            || !(c->end = strdup(s->end ? s->end : "the search did not end: a probe failed")))
            return -1;
        for (int i = 0; i < s->nprobes; i++) {
            const orch_cap_probe *pr = &s->probes[i];
            res_cap_probe *r = &c->probes[c->nprobes++];
            *r = (res_cap_probe){ .offered = pr->offered, .achieved = pr->achieved,
                                  .queue_ms = pr->queue_ms, .pct_ms = cap_ms(pr->q.value_us),
                                  .pct_lo_ms = cap_ms(pr->q.lo_us),
                                  .pct_hi_ms = cap_ms(pr->q.hi_us), .transactions = pr->q.n };
            if (!(r->verdict = strdup(orch_cap_side_name(pr->side))) || !(r->why = strdup(pr->why))
                || !(r->run_id = orch_strfmt("%s-p%d", st->l->run_id, st->cap_step[d][i])))
                return -1;
        }
    }
    return 0;
}

int run_write_summary(run_state *st, const char *started, int partial)
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
    if (!partial && run_step(st, ORCH_STEP_SUMMARY, "summary.json") < 0)
        goto cleanup;
    /* samples the spool lost (a full disk): no measurement, a failed run */
    if (!partial && orch_telemetry_spool_error(st->tel, st->err, sizeof st->err))
        goto cleanup;
    for (int d = 0; d < st->p->ndrives; d++)
        drives[d] = st->p->drives[d].name;
    run_iso_now(finished, sizeof finished);
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
    /* repetitions = auto: as many as it ran (the plan's is the maximum) */
    in.repetitions = st->p->repetitions_auto && st->reps_run ? st->reps_run : st->p->repetitions;
    in.partial = partial != 0;
    sum = orch_summary_build(&in, st->err, sizeof st->err);
    /* the protocol, so that reports compare only runs of one (issue 22) */
    if (sum && !(sum->fp = orch_fingerprint_build(st->p, st->t, sum))) {
        snprintf(st->err, sizeof st->err, "out of memory");
        goto cleanup;
    }
    /* each VM's disk series built as the summary writes it (issue 33) */
    orch_telemetry_lazy_series(st->tel);
    if (sum && st->tel)
        orch_telemetry_fill(st->tel, sum, st->l->run_dir);
    if (sum && attach_precondition(st, sum) < 0) {
        snprintf(st->err, sizeof st->err, "out of memory");
        goto cleanup;
    }
    /* the capacity search's, in the run's own summary, not a probe's */
    if (sum && !st->cap_probing && attach_capacity(st, sum) < 0) {
        snprintf(st->err, sizeof st->err, "out of memory");
        goto cleanup;
    }
    if (sum && run_resume_record(st, sum) < 0) {
        snprintf(st->err, sizeof st->err, "out of memory");
        goto cleanup;
    }
    for (int d = 0; sum && d < sum->ndrives && d < st->p->ndrives; d++) {
        sum->drives[d].restore.bytes = (int64_t)st->restore[d].bytes;
        sum->drives[d].restore.seconds = st->restore[d].seconds;
    }
    if (sum && res_summary_write_files_vm(sum, st->l->run_dir, orch_telemetry_vm_each, st->tel,
                                          st->err, sizeof st->err) == 0) {
        if (partial != RUN_CHECKPOINT)
            orch_summary_db_warnings(sum, st->out);
        /* VM runs the aggregation failed (a refused result, none without
         * transactions) count as the monitor's do */
        if (!partial && sum->run.failed_vms > st->failed_vms)
            st->failed_vms = (int)sum->run.failed_vms;
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
int run_write_report(run_state *st)
{
    const char *dirs[] = { st->l->run_dir };
    char *html = NULL;
    if (run_step(st, ORCH_STEP_REPORT, "report.html") < 0)
        return -1;
    if (report_write(dirs, 1, NULL, &html, NULL, st->err, sizeof st->err) != 0)
        return -1;
    fprintf(st->out, "report: %s\n", html);
    free(html);
    return 0;
}
