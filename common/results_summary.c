/* results_summary.c — the run summary (drivebench.summary/2) <-> res_summary:
 * summary.json and summary.csv (see results.h; the format is in
 * results/SCHEMA.md). */
#include "results.h"
#include "results_json.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SUMMARY_SCHEMA      "drivebench.summary/2"
#define SUMMARY_SCHEMA_NAME "drivebench.summary/"
#define SUMMARY_MAJOR       2

/* ------------------------------------------------------------------ */
/* summary                                                             */

void res_plan_init(res_plan *p)
{
    memset(p, 0, sizeof *p);
    p->vms_per_drive = p->repetitions = RES_UNSET;
    p->cv_threshold = NAN;
    p->tables = p->table_size = p->warehouses = p->threads = RES_UNSET;
    p->precondition_s = p->warmup_s = p->measure_s = RES_UNSET;
}

void res_env_init(res_env *e)
{
    memset(e, 0, sizeof *e);
    e->cpus = e->memory_bytes = RES_UNSET;
}

static int plan_from_json(json_object *o, res_plan *p)
{
    json_object *w = rj_get(o, "workload"), *cv = rj_get(o, "cv_threshold");
    bool oom = false;
    res_plan_init(p);
    p->name = rj_get_s(o, "name", &oom);
    p->profile = rj_get_s(o, "profile", &oom);
    p->client = rj_get_s(o, "client", &oom);
    p->vms_per_drive = rj_get_i_opt(o, "vms_per_drive");
    p->repetitions = rj_get_i_opt(o, "repetitions");
    p->cv_threshold = rj_is_number(cv) ? json_object_get_double(cv) : NAN;
    p->workload = rj_get_s(w, "name", &oom);
    p->db_driver = rj_get_s(w, "db_driver", &oom);
    p->tables = rj_get_i_opt(w, "tables");
    p->table_size = rj_get_i_opt(w, "table_size");
    p->warehouses = rj_get_i_opt(w, "warehouses");
    p->threads = rj_get_i_opt(w, "threads");
    p->precondition_s = rj_get_i_opt(w, "precondition_s");
    p->warmup_s = rj_get_i_opt(w, "warmup_s");
    p->measure_s = rj_get_i_opt(w, "measure_s");
    return oom ? -1 : 0;
}

static int env_from_json(json_object *o, res_env *e)
{
    json_object *host = rj_get(o, "host"), *hvs = rj_get(o, "hypervisors");
    size_t n = rj_array_len(hvs);
    bool oom = false;
    res_env_init(e);
    e->hostname = rj_get_s(host, "hostname", &oom);
    e->kernel = rj_get_s(host, "kernel", &oom);
    e->cpu_model = rj_get_s(host, "cpu_model", &oom);
    e->cpus = rj_get_i_opt(host, "cpus");
    e->memory_bytes = rj_get_i_opt(host, "memory_bytes");
    if (n && !(e->hypervisors = calloc(n, sizeof *e->hypervisors)))
        return -1;
    e->nhypervisors = (int)n;
    for (size_t i = 0; i < n; i++) {
        json_object *h = rj_idx(hvs, i);
        res_hypervisor *x = &e->hypervisors[i];
        x->uri = rj_get_s(h, "uri", &oom);
        x->hostname = rj_get_s(h, "hostname", &oom);
        x->libvirt_version = rj_get_s(h, "libvirt_version", &oom);
        x->hypervisor = rj_get_s(h, "hypervisor", &oom);
        x->hypervisor_version = rj_get_s(h, "hypervisor_version", &oom);
        x->domain_type = rj_get_s(h, "domain_type", &oom);
        x->cpu_model = rj_get_s(h, "cpu_model", &oom);
        x->arch = rj_get_s(h, "arch", &oom);
        x->kernel = rj_get_s(h, "kernel", &oom);
        x->cpus = rj_get_i_opt(h, "cpus");
        x->cpu_mhz = rj_get_i_opt(h, "cpu_mhz");
        x->memory_bytes = rj_get_i_opt(h, "memory_bytes");
    }
    return oom ? -1 : 0;
}

void res_plan_clear(res_plan *p)
{
    free(p->name);
    free(p->profile);
    free(p->client);
    free(p->workload);
    free(p->db_driver);
}

void res_env_clear(res_env *e)
{
    free(e->hostname);
    free(e->kernel);
    free(e->cpu_model);
    for (int i = 0; i < e->nhypervisors; i++) {
        res_hypervisor *x = &e->hypervisors[i];
        free(x->uri);
        free(x->hostname);
        free(x->libvirt_version);
        free(x->hypervisor);
        free(x->hypervisor_version);
        free(x->domain_type);
        free(x->cpu_model);
        free(x->arch);
        free(x->kernel);
    }
    free(e->hypervisors);
}

/* A copy of s (NULL stays NULL); sets *oom when the copy fails. */
static char *dup_opt(const char *s, bool *oom)
{
    char *d = s ? strdup(s) : NULL;
    if (s && !d)
        *oom = true;
    return d;
}

int res_plan_copy(res_plan *dst, const res_plan *src)
{
    bool oom = false;
    *dst = *src;
    dst->name = dup_opt(src->name, &oom);
    dst->profile = dup_opt(src->profile, &oom);
    dst->client = dup_opt(src->client, &oom);
    dst->workload = dup_opt(src->workload, &oom);
    dst->db_driver = dup_opt(src->db_driver, &oom);
    return oom ? -1 : 0;
}

int res_env_copy(res_env *dst, const res_env *src)
{
    bool oom = false;
    *dst = *src;
    dst->hostname = dup_opt(src->hostname, &oom);
    dst->kernel = dup_opt(src->kernel, &oom);
    dst->cpu_model = dup_opt(src->cpu_model, &oom);
    dst->hypervisors = src->nhypervisors ? calloc((size_t)src->nhypervisors,
                                                  sizeof *dst->hypervisors) : NULL;
    if (src->nhypervisors && !dst->hypervisors) {
        dst->nhypervisors = 0;
        return -1;
    }
    for (int i = 0; i < src->nhypervisors; i++) {
        const res_hypervisor *a = &src->hypervisors[i];
        res_hypervisor *b = &dst->hypervisors[i];
        b->uri = dup_opt(a->uri, &oom);
        b->hostname = dup_opt(a->hostname, &oom);
        b->libvirt_version = dup_opt(a->libvirt_version, &oom);
        b->hypervisor = dup_opt(a->hypervisor, &oom);
        b->hypervisor_version = dup_opt(a->hypervisor_version, &oom);
        b->domain_type = dup_opt(a->domain_type, &oom);
        b->cpu_model = dup_opt(a->cpu_model, &oom);
        b->arch = dup_opt(a->arch, &oom);
        b->kernel = dup_opt(a->kernel, &oom);
        b->cpus = a->cpus;
        b->cpu_mhz = a->cpu_mhz;
        b->memory_bytes = a->memory_bytes;
    }
    return oom ? -1 : 0;
}

static const char *const run_status_names[] = {
    [RES_RUN_COMPLETE] = "complete",
    [RES_RUN_DEGRADED] = "completed_with_failures",
    [RES_RUN_PARTIAL] = "partial",
};

const char *res_run_status_name(res_run_status st)
{
    return (unsigned)st <= RES_RUN_PARTIAL ? run_status_names[st] : "?";
}

void res_tpcc_figures_free(res_tpcc_figures *t)
{
    if (!t)
        return;
    for (int i = 0; i < t->ntypes; i++)
        free(t->types[i].name);
    free(t->types);
    free(t);
}

void res_summary_clear(res_summary *s)
{
    if (!s)
        return;
    free(s->run_id);
    free(s->started_at);
    free(s->finished_at);
    free(s->plan_file);
    res_plan_clear(&s->plan);
    res_env_clear(&s->env);
    for (int i = 0; i < s->ndrives; i++) {
        free(s->drives[i].name);
        res_tpcc_figures_free(s->drives[i].f.tpcc);
        for (int r = 0; r < s->drives[i].nreps; r++)
            res_tpcc_figures_free(s->drives[i].reps[r].f.tpcc);
        free(s->drives[i].reps);
        res_io_free(s->drives[i].io);
    }
    res_tpcc_figures_free(s->run.tpcc);
    free(s->drives);
    for (int i = 0; i < s->nvms; i++) {
        res_vm *v = &s->vms[i];
        free(v->name);
        free(v->drive);
        free(v->host);
        free(v->result);
        free(v->precondition_result);
        free(v->server_version);
        free(v->series);
        free(v->fault);
        free(v->reason);
        free(v->failed_at);
        free(v->failed_in);
        free(v->console_tail);
        free(v->result_ended);
        res_io_free(v->io);
    }
    free(s->vms);
    res_io_free(s->io);
    memset(s, 0, sizeof *s);
}

static void put_i_opt(json_object *o, const char *key, int64_t v)
{
    if (v != RES_UNSET)
        rj_put(o, key, json_object_new_int64(v));
}

static void put_s_opt(json_object *o, const char *key, const char *v)
{
    if (v)
        rj_put(o, key, json_object_new_string(v));
}

static json_object *plan_to_json(const res_plan *p)
{
    json_object *o = json_object_new_object(), *w = json_object_new_object();
    put_s_opt(o, "name", p->name);
    put_s_opt(o, "profile", p->profile);
    put_i_opt(o, "vms_per_drive", p->vms_per_drive);
    put_s_opt(o, "client", p->client);
    put_i_opt(o, "repetitions", p->repetitions);
    if (!isnan(p->cv_threshold))
        rj_put(o, "cv_threshold", res_json_number(p->cv_threshold));
    put_s_opt(w, "name", p->workload);
    put_s_opt(w, "db_driver", p->db_driver);
    put_i_opt(w, "tables", p->tables);
    put_i_opt(w, "table_size", p->table_size);
    put_i_opt(w, "warehouses", p->warehouses);
    put_i_opt(w, "threads", p->threads);
    put_i_opt(w, "precondition_s", p->precondition_s);
    put_i_opt(w, "warmup_s", p->warmup_s);
    put_i_opt(w, "measure_s", p->measure_s);
    rj_put(o, "workload", w);
    return o;
}

static json_object *env_to_json(const res_env *e)
{
    json_object *o = json_object_new_object(), *host = json_object_new_object();
    json_object *hvs = json_object_new_array();
    put_s_opt(host, "hostname", e->hostname);
    put_s_opt(host, "kernel", e->kernel);
    put_s_opt(host, "cpu_model", e->cpu_model);
    put_i_opt(host, "cpus", e->cpus);
    put_i_opt(host, "memory_bytes", e->memory_bytes);
    rj_put(o, "host", host);
    for (int i = 0; i < e->nhypervisors; i++) {
        const res_hypervisor *x = &e->hypervisors[i];
        json_object *h = json_object_new_object();
        rj_put(h, "uri", rj_str_or_null(x->uri));
        rj_put(h, "hostname", rj_str_or_null(x->hostname));
        rj_put(h, "libvirt_version", rj_str_or_null(x->libvirt_version));
        rj_put(h, "hypervisor", rj_str_or_null(x->hypervisor));
        rj_put(h, "hypervisor_version", rj_str_or_null(x->hypervisor_version));
        rj_put(h, "domain_type", rj_str_or_null(x->domain_type));
        put_s_opt(h, "cpu_model", x->cpu_model);
        put_s_opt(h, "arch", x->arch);
        put_s_opt(h, "kernel", x->kernel);
        put_i_opt(h, "cpus", x->cpus ? x->cpus : RES_UNSET);     /* 0: not recorded */
        put_i_opt(h, "cpu_mhz", x->cpu_mhz ? x->cpu_mhz : RES_UNSET);
        put_i_opt(h, "memory_bytes", x->memory_bytes ? x->memory_bytes : RES_UNSET);
        json_object_array_add(hvs, h);
    }
    rj_put(o, "hypervisors", hvs);
    return o;
}

static json_object *latency_summary_json(double avg, double p99, const double *p99_mean)
{
    json_object *o = json_object_new_object();
    rj_put(o, "avg", res_json_number(avg));
    rj_put(o, "p99", res_json_number(p99));
    if (p99_mean)
        rj_put(o, "p99_mean_of_vms", res_json_number(*p99_mean));
    return o;
}

static json_object *tpcc_figures_json(const res_tpcc_figures *t)
{
    json_object *o = json_object_new_object(), *types = json_object_new_array();
    rj_put(o, "tpmC", res_json_number(t->tpmc));
    if (t->has_nopm)
        rj_put(o, "NOPM", res_json_number(t->nopm));
    rj_put(o, "rollbacks", json_object_new_int64(t->rollbacks));
    rj_put(o, "p90_limits_met", json_object_new_boolean(t->p90_limits_met));
    for (int i = 0; i < t->ntypes; i++) {
        const res_tpcc_type *x = &t->types[i];
        json_object *e = json_object_new_object(), *l = json_object_new_object();
        rj_put(e, "name", json_object_new_string(x->name));
        rj_put(e, "count", json_object_new_int64(x->count));
        rj_put(e, "rollbacks", json_object_new_int64(x->rollbacks));
        rj_put(l, "avg", res_json_number(x->lat_avg_ms));
        rj_put(l, "p90", res_json_number(x->lat_p90_ms));
        rj_put(l, "p99", res_json_number(x->lat_p99_ms));
        rj_put(e, "latency_ms", l);
        rj_put(e, "p90_limit_ms", res_json_number(x->p90_limit_ms));
        rj_put(e, "p90_met", json_object_new_boolean(x->p90_met));
        json_object_array_add(types, e);
    }
    rj_put(o, "transaction_types", types);
    return o;
}

static json_object *figures_json(const res_figures *f)
{
    json_object *o = json_object_new_object();
    rj_put(o, "vms", json_object_new_int(f->vms));
    rj_put(o, "vm_runs", json_object_new_int(f->vm_runs));
    rj_put(o, "measured_repetitions", json_object_new_int(f->repetitions));
    rj_put(o, "failed_vms", json_object_new_int(f->failed_vms));
    rj_put(o, "tps", res_json_number(f->tps));
    rj_put(o, "tps_per_vm", res_json_number(f->tps_per_vm));
    rj_put(o, "transactions", json_object_new_int64(f->transactions));
    rj_put(o, "latency_ms", latency_summary_json(f->lat_avg_ms, f->lat_p99_ms,
                                              &f->lat_p99_mean_of_vms_ms));
    if (f->tpcc)
        rj_put(o, "tpcc", tpcc_figures_json(f->tpcc));
    return o;
}

static json_object *vm_json(const res_vm *v)
{
    json_object *o = json_object_new_object(), *series = json_object_new_array();
    rj_put(o, "name", json_object_new_string(v->name));
    rj_put(o, "drive", json_object_new_string(v->drive));
    put_s_opt(o, "host", v->host);
    rj_put(o, "repetition", json_object_new_int(v->repetition));
    rj_put(o, "status", json_object_new_string(v->failed ? "failed" : "ok"));
    if (v->failed) {
        rj_put(o, "fault", rj_str_or_null(v->fault));
        rj_put(o, "reason", rj_str_or_null(v->reason));
        rj_put(o, "failed_at", rj_str_or_null(v->failed_at));
        rj_put(o, "failed_in", rj_str_or_null(v->failed_in));
        rj_put(o, "console_tail", rj_str_or_null(v->console_tail));
        if (isfinite(v->failed_at_s))
            rj_put(o, "failed_at_s", res_json_number(v->failed_at_s));
        put_s_opt(o, "result_ended", v->result_ended);
    }
    rj_put(o, "result", rj_str_or_null(v->result));
    rj_put(o, "precondition_result", rj_str_or_null(v->precondition_result));
    if (v->measured) {
        rj_put(o, "tps", res_json_number(v->tps));
        rj_put(o, "transactions", json_object_new_int64(v->transactions));
        rj_put(o, "latency_ms", latency_summary_json(v->lat_avg_ms, v->lat_p99_ms, NULL));
        put_s_opt(o, "server_version", v->server_version);
        rj_put(o, "errors", json_object_new_int64(v->errors));
        rj_put(o, "reconnects", json_object_new_int64(v->reconnects));
    }
    for (int i = 0; i < v->npoints; i++) {
        json_object *pair = json_object_new_array();
        json_object_array_add(pair, res_json_number(v->series[i].t));
        json_object_array_add(pair, res_json_number(v->series[i].tps));
        json_object_array_add(series, pair);
    }
    rj_put(o, "tps_series", series);
    res_io_put(o, v->io);
    return o;
}

/* {"bytes", "seconds", "mb_s"}: MB = 10^6 bytes, as drives are sold. */
static json_object *restore_json(const res_restore *r)
{
    json_object *o = json_object_new_object();
    rj_put(o, "bytes", json_object_new_int64(r->bytes));
    rj_put(o, "seconds", res_json_number(r->seconds));
    rj_put(o, "mb_s", res_json_number(r->seconds > 0 ? (double)r->bytes / 1e6 / r->seconds
                                                      : 0));
    return o;
}

json_object *res_summary_to_json(const res_summary *s)
{
    json_object *out = json_object_new_object(), *drives = json_object_new_array();
    json_object *vms = json_object_new_array(), *run;

    rj_put(out, "schema", json_object_new_string(SUMMARY_SCHEMA));
    rj_put(out, "run_id", rj_str_or_null(s->run_id));
    rj_put(out, "status", json_object_new_string(res_run_status_name(s->status)));
    rj_put(out, "started_at", rj_str_or_null(s->started_at));
    rj_put(out, "finished_at", rj_str_or_null(s->finished_at));
    rj_put(out, "plan_file", json_object_new_string(s->plan_file ? s->plan_file : "plan.ini"));
    rj_put(out, "plan", plan_to_json(&s->plan));
    rj_put(out, "environment", env_to_json(&s->env));
    rj_put(out, "repetitions", json_object_new_int(s->repetitions));
    for (int d = 0; d < s->ndrives; d++) {
        const res_drive *dr = &s->drives[d];
        json_object *o = figures_json(&dr->f), *reps = json_object_new_array();
        for (int r = 0; r < dr->nreps; r++) {
            json_object *rj = figures_json(&dr->reps[r].f);
            rj_put(rj, "repetition", json_object_new_int(dr->reps[r].repetition));
            json_object_array_add(reps, rj);
        }
        rj_put(o, "name", json_object_new_string(dr->name));
        if (dr->restore.bytes > 0)
            rj_put(o, "restore", restore_json(&dr->restore));
        rj_put(o, "status", json_object_new_string(dr->f.failed_vms ? "incomplete"
                                                                     : "complete"));
        rj_put(o, "repetitions", reps);
        res_io_put(o, dr->io);
        json_object_array_add(drives, o);
    }
    rj_put(out, "drives", drives);
    for (int i = 0; i < s->nvms; i++)
        json_object_array_add(vms, vm_json(&s->vms[i]));
    rj_put(out, "vms", vms);
    run = figures_json(&s->run);
    rj_put(run, "drives", json_object_new_int(s->run_drives));
    rj_put(out, "run", run);
    res_io_put(out, s->io);
    return out;
}

/* summary.csv: one row per drive per repetition. */
static int summary_csv(const res_summary *s, const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "w");
    char b[5][48];
    if (!f) {
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
        return -1;
    }
    fputs("run_id,drive,repetition,vms,tps,transactions,latency_avg_ms,latency_p99_ms,"
          "latency_p99_mean_of_vms_ms,failed_vms,status,failures,tpmC,NOPM", f);
    res_io_csv_head(f);
    fputc('\n', f);
    for (int d = 0; d < s->ndrives; d++)
        for (int r = 0; r < s->drives[d].nreps; r++) {
            const res_repetition *g = &s->drives[d].reps[r];
            char *failures = NULL;
            size_t flen = 0;
            FILE *fl = open_memstream(&failures, &flen);
            /* "VM: reason" of each VM of this drive and repetition that failed */
            for (int i = 0; fl && i < s->nvms; i++) {
                const res_vm *v = &s->vms[i];
                if (v->failed && v->repetition == g->repetition
                    && strcmp(v->drive, s->drives[d].name) == 0)
                    fprintf(fl, "%s%s: %s", ftell(fl) ? "; " : "", v->name,
                            v->reason ? v->reason : "failed");
            }
            if (fl)
                fclose(fl);
            res_csv_field(f, s->run_id, false);
            fputc(',', f);
            res_csv_field(f, s->drives[d].name, false);
            fprintf(f, ",%d,%d,%s,%" PRId64 ",%s,%s,%s,%d,%s,", g->repetition, g->f.vms,
                    res_num(g->f.tps, b[0], sizeof b[0]), g->f.transactions,
                    res_num(g->f.lat_avg_ms, b[1], sizeof b[1]),
                    res_num(g->f.lat_p99_ms, b[2], sizeof b[2]),
                    res_num(g->f.lat_p99_mean_of_vms_ms, b[3], sizeof b[3]), g->f.failed_vms,
                    g->f.failed_vms ? "incomplete" : "complete");
            res_csv_field(f, failures ? failures : "", false);
            /* TPC-C runs only: empty otherwise */
            fprintf(f, ",%s,%s", g->f.tpcc ? res_num(g->f.tpcc->tpmc, b[0], sizeof b[0]) : "",
                    g->f.tpcc && g->f.tpcc->has_nopm
                    ? res_num(g->f.tpcc->nopm, b[1], sizeof b[1]) : "");
            res_io_csv_row(f, s, d, g->repetition);
            fputc('\n', f);
            free(failures);
        }
    if (fclose(f) != 0) {
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
        return -1;
    }
    return 0;
}

int res_summary_write_files(const res_summary *s, const char *dir, char *err, size_t errlen)
{
    size_t n = strlen(dir) + sizeof "/summary.json";
    char *jpath = malloc(n), *cpath = malloc(n);
    json_object *doc = NULL;
    int rc = -1;

    if (!jpath || !cpath) {
        snprintf(err, errlen, "out of memory");
        goto cleanup;
    }
    snprintf(jpath, n, "%s/summary.json", dir);
    snprintf(cpath, n, "%s/summary.csv", dir);
    doc = res_summary_to_json(s);
    if (rj_write_json(doc, jpath, err, errlen) < 0 || summary_csv(s, cpath, err, errlen) < 0)
        goto cleanup;
    rc = 0;
cleanup:
    json_object_put(doc);
    free(jpath);
    free(cpath);
    return rc;
}

/* The "tpcc" member of a figures object into f->tpcc (NULL when absent).
 * 0, or -1 when out of memory or above RES_MAX_TYPES. */
static int tpcc_figures_from_json(json_object *o, res_figures *f)
{
    json_object *t = rj_get(o, "tpcc"), *types = rj_get(t, "transaction_types");
    size_t n = rj_array_len(types);
    bool oom = false;
    res_tpcc_figures *x;
    if (!t)
        return 0;
    if (n > RES_MAX_TYPES || !(x = f->tpcc = calloc(1, sizeof *x))
        || (n && !(x->types = calloc(n, sizeof *x->types))))
        return -1;
    x->tpmc = rj_get_d(t, "tpmC");
    x->has_nopm = rj_is_number(rj_get(t, "NOPM"));
    x->nopm = rj_get_d(t, "NOPM");
    x->rollbacks = rj_get_i(t, "rollbacks");
    x->p90_limits_met = rj_get_b(t, "p90_limits_met");
    x->ntypes = (int)n;
    for (size_t i = 0; i < n; i++) {
        json_object *e = rj_idx(types, i), *l = rj_get(e, "latency_ms");
        res_tpcc_type *y = &x->types[i];
        y->name = rj_get_s(e, "name", &oom);
        if (!y->name && !oom)
            oom = !(y->name = strdup(""));
        y->count = rj_get_i(e, "count");
        y->rollbacks = rj_get_i(e, "rollbacks");
        y->lat_avg_ms = rj_get_d(l, "avg");
        y->lat_p90_ms = rj_get_d(l, "p90");
        y->lat_p99_ms = rj_get_d(l, "p99");
        y->p90_limit_ms = rj_get_d(e, "p90_limit_ms");
        y->p90_met = rj_get_b(e, "p90_met");
    }
    return oom ? -1 : 0;
}

static int figures_from_json(json_object *o, res_figures *f)
{
    json_object *l = rj_get(o, "latency_ms");
    f->vms = (int)rj_get_i(o, "vms");
    f->failed_vms = (int)rj_get_i(o, "failed_vms");
    f->tps = rj_get_d(o, "tps");
    /* summaries before vm_runs: per VM as they computed it */
    f->vm_runs = rj_get(o, "vm_runs") ? (int)rj_get_i(o, "vm_runs") : 0;
    f->repetitions = rj_get(o, "measured_repetitions")
                     ? (int)rj_get_i(o, "measured_repetitions") : 0;
    f->tps_per_vm = rj_get(o, "tps_per_vm") ? rj_get_d(o, "tps_per_vm")
                    : f->vms ? f->tps / f->vms : 0;
    f->transactions = rj_get_i(o, "transactions");
    f->lat_avg_ms = rj_get_d(l, "avg");
    f->lat_p99_ms = rj_get_d(l, "p99");
    f->lat_p99_mean_of_vms_ms = rj_get_d(l, "p99_mean_of_vms");
    return tpcc_figures_from_json(o, f);
}

/* A drive's "restore" object (or NULL: not recorded, all 0). */
static void restore_from_json(json_object *o, res_restore *r)
{
    r->bytes = o ? rj_get_i(o, "bytes") : 0;
    r->seconds = o ? rj_get_d(o, "seconds") : 0;
}

static int drive_from_json(json_object *o, res_drive *d)
{
    json_object *reps = rj_get(o, "repetitions");
    size_t n = rj_array_len(reps);
    bool oom = false;
    restore_from_json(rj_get(o, "restore"), &d->restore);
    d->name = rj_get_s(o, "name", &oom);
    if (!d->name)
        d->name = strdup("");
    if (figures_from_json(o, &d->f) < 0 || !d->name
        || (n && !(d->reps = calloc(n, sizeof *d->reps))))
        return -1;
    for (size_t r = 0; r < n; r++) {
        json_object *rj = rj_idx(reps, r);
        d->nreps++;
        d->reps[r].repetition = (int)rj_get_i(rj, "repetition");
        if (figures_from_json(rj, &d->reps[r].f) < 0)
            return -1;
    }
    return oom || res_io_get(o, &d->io) < 0 ? -1 : 0;
}

static int vm_from_json(json_object *o, res_vm *v)
{
    json_object *l = rj_get(o, "latency_ms"), *series = rj_get(o, "tps_series");
    size_t n = rj_array_len(series);
    bool oom = false;
    v->name = rj_get_s(o, "name", &oom);
    v->drive = rj_get_s(o, "drive", &oom);
    v->host = rj_get_s(o, "host", &oom);
    if (!v->name)
        v->name = strdup("");
    if (!v->drive)
        v->drive = strdup("");
    v->repetition = (int)rj_get_i(o, "repetition");
    v->failed = rj_get(o, "status") && strcmp(json_object_get_string(rj_get(o, "status")),
                                              "failed") == 0;
    v->fault = rj_get_s(o, "fault", &oom);
    v->reason = rj_get_s(o, "reason", &oom);
    v->failed_at = rj_get_s(o, "failed_at", &oom);
    v->failed_in = rj_get_s(o, "failed_in", &oom);
    v->console_tail = rj_get_s(o, "console_tail", &oom);
    v->failed_at_s = rj_is_number(rj_get(o, "failed_at_s")) ? rj_get_d(o, "failed_at_s") : NAN;
    v->result_ended = rj_get_s(o, "result_ended", &oom);
    v->measured = rj_is_number(rj_get(o, "tps"));
    v->result = rj_get_s(o, "result", &oom);
    v->precondition_result = rj_get_s(o, "precondition_result", &oom);
    v->tps = rj_get_d(o, "tps");
    v->transactions = rj_get_i(o, "transactions");
    v->lat_avg_ms = rj_get_d(l, "avg");
    v->lat_p99_ms = rj_get_d(l, "p99");
    v->server_version = rj_get_s(o, "server_version", &oom);
    v->errors = rj_get_i_opt(o, "errors");
    v->reconnects = rj_get_i_opt(o, "reconnects");
    if (oom || !v->name || !v->drive || (n && !(v->series = calloc(n, sizeof *v->series))))
        return -1;
    v->npoints = (int)n;
    for (size_t i = 0; i < n; i++) {
        json_object *pair = rj_idx(series, i);
        v->series[i].t = json_object_get_double(rj_idx(pair, 0));
        v->series[i].tps = json_object_get_double(rj_idx(pair, 1));
    }
    return res_io_get(o, &v->io);
}

/* The lengths of a summary's arrays against results.h's bounds, before
 * anything is allocated for them. 0, or -1 with the reason. */
static int summary_bounds(json_object *doc, char *err, size_t errlen)
{
    json_object *drives = rj_get(doc, "drives"), *vms = rj_get(doc, "vms");
    size_t n;
    if ((n = rj_array_len(drives)) > RES_MAX_DRIVES
        || (n = rj_array_len(rj_get(rj_get(doc, "environment"), "hypervisors"))) > RES_MAX_DRIVES) {
        snprintf(err, errlen, "%zu drives or hypervisors, more than %d", n, RES_MAX_DRIVES);
        return -1;
    }
    if ((n = rj_array_len(vms)) > RES_MAX_VMS) {
        snprintf(err, errlen, "%zu vms, more than %d", n, RES_MAX_VMS);
        return -1;
    }
    for (size_t i = 0; i < rj_array_len(drives); i++)
        if ((n = rj_array_len(rj_get(rj_idx(drives, i), "repetitions")))
            > RES_MAX_REPETITIONS) {
            snprintf(err, errlen, "drives[%zu]: %zu repetitions, more than %d", i, n,
                     RES_MAX_REPETITIONS);
            return -1;
        }
    for (size_t i = 0; i < rj_array_len(vms); i++)
        if ((n = rj_array_len(rj_get(rj_idx(vms, i), "tps_series")))
            > RES_MAX_INTERVALS) {
            snprintf(err, errlen, "vms[%zu]: %zu tps_series points, more than %d", i, n,
                     RES_MAX_INTERVALS);
            return -1;
        }
    return 0;
}

static int summary_from_json(json_object *doc, res_summary *s, char *err, size_t errlen)
{
    json_object *schema = rj_get(doc, "schema"), *drives = rj_get(doc, "drives"), *vms = rj_get(doc, "vms");
    const char *name = schema ? json_object_get_string(schema) : NULL;
    int major = rj_schema_major(name, SUMMARY_SCHEMA_NAME);
    bool oom = false;

    if (major == 1) {
        snprintf(err, errlen, "%s was written by an older drivebench, whose summaries lack "
                 "the per-VM figures this report reads; run the plan again", name);
        return -1;
    }
    if (major != SUMMARY_MAJOR) {
        snprintf(err, errlen, "not a %s document", SUMMARY_SCHEMA);
        return -1;
    }
    if (!drives || !json_object_is_type(drives, json_type_array)
        || !vms || !json_object_is_type(vms, json_type_array)) {
        snprintf(err, errlen, "no drives or vms array");
        return -1;
    }
    if (summary_bounds(doc, err, errlen) < 0)
        return -1;
    s->run_id = rj_get_s(doc, "run_id", &oom);
    if (!s->run_id && !oom)
        oom = !(s->run_id = strdup(""));
    s->started_at = rj_get_s(doc, "started_at", &oom);
    s->finished_at = rj_get_s(doc, "finished_at", &oom);
    s->plan_file = rj_get_s(doc, "plan_file", &oom);
    s->repetitions = (int)rj_get_i(doc, "repetitions");
    {
        const char *st = rj_get(doc, "status") ? json_object_get_string(rj_get(doc, "status"))
                                               : "complete";
        s->status = strcmp(st, "partial") == 0 ? RES_RUN_PARTIAL
                    : strcmp(st, "completed_with_failures") == 0 ? RES_RUN_DEGRADED
                    : RES_RUN_COMPLETE;
    }
    s->run_drives = (int)rj_get_i(rj_get(doc, "run"), "drives");
    if (oom || figures_from_json(rj_get(doc, "run"), &s->run) < 0
        || plan_from_json(rj_get(doc, "plan"), &s->plan) < 0
        || env_from_json(rj_get(doc, "environment"), &s->env) < 0)
        goto oom;
    s->drives = calloc(rj_array_len(drives) + 1, sizeof *s->drives);
    s->vms = calloc(rj_array_len(vms) + 1, sizeof *s->vms);
    if (!s->drives || !s->vms)
        goto oom;
    for (size_t i = 0; i < rj_array_len(drives); i++) {
        s->ndrives++;
        if (drive_from_json(rj_idx(drives, i), &s->drives[i]) < 0)
            goto oom;
    }
    for (size_t i = 0; i < rj_array_len(vms); i++) {
        s->nvms++;
        if (vm_from_json(rj_idx(vms, i), &s->vms[i]) < 0)
            goto oom;
    }
    if (res_io_get(doc, &s->io) < 0)
        goto oom;
    return 0;
oom:
    snprintf(err, errlen, "out of memory");
    return -1;
}

int res_summary_read_file(const char *path, res_summary *s, char *err, size_t errlen)
{
    char why[512];
    json_object *doc;

    memset(s, 0, sizeof *s);
    res_plan_init(&s->plan);
    res_env_init(&s->env);
    doc = rj_read_json(path, why, sizeof why);
    if (!doc) {
        snprintf(err, errlen, "%s: %s", path, why);
        return RES_E_UNREADABLE;
    }
    if (summary_from_json(doc, s, why, sizeof why) < 0) {
        snprintf(err, errlen, "%s: %s", path, why);
        res_summary_clear(s);
        json_object_put(doc);
        return -1;
    }
    json_object_put(doc);
    return 0;
}
