/* aggregate.c — per-VM results to per-drive and run aggregates (see
 * aggregate.h). */
#include "aggregate.h"
#include "hist.h"
#include "names.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define OLTP_SCHEMA_MAJOR "drivebench.oltp/1"

/* One VM's measure phase. */
typedef struct vm_figures {
    double tps;
    int64_t transactions;
    hist  *h;
    json_object *doc;           /* whole result document */
    json_object *phase;         /* borrowed from doc */
} vm_figures;

/* Merged figures of a set of VM results. */
typedef struct group {
    int    vms;
    double tps;                 /* sum */
    int64_t transactions;
    double p99_sum;             /* sum of each VM's p99, ms */
    hist  *h;                   /* merged */
} group;

json_object *orch_json_number(double v)
{
    char text[64];
    double r = round(v * 1e6) / 1e6;
    size_t n;
    snprintf(text, sizeof text, "%.6f", r);
    n = strlen(text);
    while (n > 1 && text[n - 1] == '0')
        text[--n] = '\0';
    if (text[n - 1] == '.')
        text[n - 1] = '\0';
    if (strcmp(text, "-0") == 0)
        snprintf(text, sizeof text, "0");
    return json_object_new_double_s(r, text);
}

static double us_to_ms(double us)
{
    return us / 1000.0;
}

static void vm_figures_clear(vm_figures *f)
{
    hist_free(f->h);
    json_object_put(f->doc);
    memset(f, 0, sizeof *f);
}

/* Load the measure phase of path into f. 0, or -1 with err. */
static int vm_load(const char *path, vm_figures *f, char *err, size_t errlen)
{
    json_object *schema, *phases, *v;
    char herr[256];
    size_t n;

    memset(f, 0, sizeof *f);
    f->doc = json_object_from_file(path);
    if (!f->doc) {
        snprintf(err, errlen, "%s: cannot read result JSON: %s", path, json_util_get_last_err()
                 ? json_util_get_last_err() : "unreadable");
        n = strlen(err);
        if (n && err[n - 1] == '\n')
            err[n - 1] = '\0';
        return -1;
    }
    if (!json_object_object_get_ex(f->doc, "schema", &schema)
        || strncmp(json_object_get_string(schema), OLTP_SCHEMA_MAJOR,
                   strlen(OLTP_SCHEMA_MAJOR)) != 0) {
        snprintf(err, errlen, "%s: not a %s result", path, OLTP_SCHEMA_MAJOR);
        goto fail;
    }
    if (!json_object_object_get_ex(f->doc, "phases", &phases)
        || !json_object_is_type(phases, json_type_array)) {
        snprintf(err, errlen, "%s: no phases array", path);
        goto fail;
    }
    for (size_t i = 0; i < json_object_array_length(phases); i++) {
        json_object *ph = json_object_array_get_idx(phases, i), *name;
        if (json_object_object_get_ex(ph, "name", &name)
            && strcmp(json_object_get_string(name), "measure") == 0)
            f->phase = ph;
    }
    if (!f->phase) {
        snprintf(err, errlen, "%s: no \"measure\" phase", path);
        goto fail;
    }
    if (!json_object_object_get_ex(f->phase, "tps", &v)
        || !(json_object_is_type(v, json_type_double) || json_object_is_type(v, json_type_int))) {
        snprintf(err, errlen, "%s: measure phase has no numeric tps", path);
        goto fail;
    }
    f->tps = json_object_get_double(v);
    if (json_object_object_get_ex(f->phase, "transactions", &v))
        f->transactions = json_object_get_int64(v);
    if (!json_object_object_get_ex(f->phase, "histogram", &v)) {
        snprintf(err, errlen, "%s: measure phase has no histogram", path);
        goto fail;
    }
    f->h = hist_from_json(v, herr, sizeof herr);
    if (!f->h) {
        snprintf(err, errlen, "%s: histogram: %s", path, herr);
        goto fail;
    }
    return 0;
fail:
    vm_figures_clear(f);
    return -1;
}

/* Add one VM to a group. 0, or -1 when histograms do not merge. */
static int group_add(group *g, const vm_figures *f)
{
    if (!g->h) {
        g->h = hist_new(f->h->highest, f->h->sig_digits);
        if (!g->h)
            return -1;
    }
    if (hist_add(g->h, f->h) < 0)
        return -1;
    g->vms++;
    g->tps += f->tps;
    g->transactions += f->transactions;
    g->p99_sum += us_to_ms((double)hist_percentile(f->h, 99.0));
    return 0;
}

static json_object *latency_json(const hist *h, double p99_mean)
{
    json_object *o = json_object_new_object();
    json_object_object_add(o, "avg", orch_json_number(h ? us_to_ms(hist_mean(h)) : 0));
    json_object_object_add(o, "p99", orch_json_number(
                               h ? us_to_ms((double)hist_percentile(h, 99.0)) : 0));
    if (p99_mean >= 0)
        json_object_object_add(o, "p99_mean_of_vms", orch_json_number(p99_mean));
    return o;
}

static json_object *group_json(const group *g, double tps, int vms_per_rep)
{
    json_object *o = json_object_new_object();
    json_object_object_add(o, "vms", json_object_new_int(vms_per_rep));
    json_object_object_add(o, "tps", orch_json_number(tps));
    json_object_object_add(o, "transactions", json_object_new_int64(g->transactions));
    json_object_object_add(o, "latency_ms",
                           latency_json(g->h, g->vms ? g->p99_sum / g->vms : 0));
    return o;
}

/* Per-VM entry: its own figures and where its samples are. */
static json_object *vm_json(const orch_vm_result *r, const vm_figures *f)
{
    json_object *o = json_object_new_object(), *v, *series, *server, *ver;
    json_object_object_add(o, "name", json_object_new_string(r->vm));
    json_object_object_add(o, "drive", json_object_new_string(r->drive));
    json_object_object_add(o, "repetition", json_object_new_int(r->repetition));
    json_object_object_add(o, "result", json_object_new_string(r->result));
    json_object_object_add(o, "precondition_result",
                           r->precondition ? json_object_new_string(r->precondition) : NULL);
    json_object_object_add(o, "tps", orch_json_number(f->tps));
    json_object_object_add(o, "transactions", json_object_new_int64(f->transactions));
    json_object_object_add(o, "latency_ms", latency_json(f->h, -1));
    if (json_object_object_get_ex(f->doc, "server", &server)
        && json_object_object_get_ex(server, "version", &ver))
        json_object_object_add(o, "server_version", json_object_get(ver));
    /* [t, tps] per interval, for TPS-over-time charts */
    series = json_object_new_array();
    if (json_object_object_get_ex(f->phase, "intervals", &v))
        for (size_t i = 0; i < json_object_array_length(v); i++) {
            json_object *iv = json_object_array_get_idx(v, i), *t, *tps;
            if (json_object_object_get_ex(iv, "t", &t)
                && json_object_object_get_ex(iv, "tps", &tps)) {
                json_object *pair = json_object_new_array();
                json_object_array_add(pair, json_object_get(t));
                json_object_array_add(pair, json_object_get(tps));
                json_object_array_add(series, pair);
            }
        }
    json_object_object_add(o, "tps_series", series);
    return o;
}

json_object *orch_summary_build(const orch_summary_input *in, char *err, size_t errlen)
{
    int reps = in->repetitions > 0 ? in->repetitions : 1;
    size_t ng = (size_t)in->ndrives * (size_t)(reps + 1);
    group *groups = calloc(ng ? ng : 1, sizeof *groups);   /* [drive][0]=all, [drive][r] */
    group run = { 0 };
    json_object *out = NULL, *vms = NULL, *drives, *o;
    double run_tps = 0;

    if (!groups) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    vms = json_object_new_array();
    for (int i = 0; i < in->nvms; i++) {
        const orch_vm_result *r = &in->vms[i];
        vm_figures f;
        char *path = orch_strfmt("%s/%s", in->run_dir, r->result);
        int d, rc;
        for (d = 0; d < in->ndrives; d++)
            if (strcmp(in->drives[d], r->drive) == 0)
                break;
        if (!path || d == in->ndrives || r->repetition < 1 || r->repetition > reps) {
            snprintf(err, errlen, "%s: VM %s has no drive or repetition in the plan",
                     r->result, r->vm);
            free(path);
            goto fail;
        }
        rc = vm_load(path, &f, err, errlen);
        free(path);
        if (rc < 0)
            goto fail;
        if (group_add(&groups[d * (reps + 1)], &f) < 0
            || group_add(&groups[d * (reps + 1) + r->repetition], &f) < 0
            || group_add(&run, &f) < 0) {
            snprintf(err, errlen, "%s: histogram parameters differ from the other VMs'; "
                     "cannot merge", r->result);
            vm_figures_clear(&f);
            goto fail;
        }
        json_object_array_add(vms, vm_json(r, &f));
        vm_figures_clear(&f);
    }

    out = json_object_new_object();
    json_object_object_add(out, "schema", json_object_new_string(ORCH_SUMMARY_SCHEMA));
    json_object_object_add(out, "run_id", json_object_new_string(in->run_id));
    json_object_object_add(out, "started_at",
                           in->started_at ? json_object_new_string(in->started_at) : NULL);
    json_object_object_add(out, "finished_at",
                           in->finished_at ? json_object_new_string(in->finished_at) : NULL);
    json_object_object_add(out, "plan_file", json_object_new_string("plan.ini"));
    json_object_object_add(out, "plan", in->plan ? json_object_get(in->plan) : NULL);
    json_object_object_add(out, "environment",
                           in->environment ? json_object_get(in->environment) : NULL);
    json_object_object_add(out, "repetitions", json_object_new_int(reps));

    drives = json_object_new_array();
    for (int d = 0; d < in->ndrives; d++) {
        group *all = &groups[d * (reps + 1)];
        json_object *per_rep = json_object_new_array();
        double tps_sum = 0;
        int nrep = 0;
        for (int r = 1; r <= reps; r++) {
            group *g = &groups[d * (reps + 1) + r];
            json_object *rj;
            if (!g->vms)
                continue;
            rj = group_json(g, g->tps, g->vms);
            json_object_object_add(rj, "repetition", json_object_new_int(r));
            json_object_array_add(per_rep, rj);
            tps_sum += g->tps;
            nrep++;
        }
        o = group_json(all, nrep ? tps_sum / nrep : 0, nrep ? all->vms / nrep : 0);
        json_object_object_add(o, "name", json_object_new_string(in->drives[d]));
        json_object_object_add(o, "repetitions", per_rep);
        json_object_array_add(drives, o);
        run_tps += nrep ? tps_sum / nrep : 0;
    }
    json_object_object_add(out, "drives", drives);
    json_object_object_add(out, "vms", vms);
    vms = NULL;
    o = group_json(&run, run_tps, run.vms / reps);
    json_object_object_add(o, "drives", json_object_new_int(in->ndrives));
    json_object_object_add(out, "run", o);

fail:
    json_object_put(vms);
    for (size_t i = 0; i < ng; i++)
        hist_free(groups[i].h);
    free(groups);
    hist_free(run.h);
    return out;
}

/* CSV field per RFC 4180: quoted when it holds a comma, quote or newline. */
static void csv_field(FILE *f, const char *s)
{
    if (!strpbrk(s, ",\"\r\n")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

static double get_num(json_object *o, const char *k1, const char *k2)
{
    json_object *v;
    if (!json_object_object_get_ex(o, k1, &v))
        return 0;
    if (k2 && !json_object_object_get_ex(v, k2, &v))
        return 0;
    return json_object_get_double(v);
}

/* The text json-c would print for a number (keeps orch_json_number's). */
static const char *num_text(json_object *o, const char *k1, const char *k2)
{
    json_object *v;
    if (!json_object_object_get_ex(o, k1, &v))
        return "";
    if (k2 && !json_object_object_get_ex(v, k2, &v))
        return "";
    return json_object_to_json_string(v);
}

int orch_summary_write(const char *run_dir, json_object *summary, char *err, size_t errlen)
{
    char *jpath = orch_strfmt("%s/summary.json", run_dir);
    char *cpath = orch_strfmt("%s/summary.csv", run_dir);
    json_object *drives, *run_id;
    FILE *f = NULL;
    int rc = -1;

    if (!jpath || !cpath) {
        snprintf(err, errlen, "out of memory");
        goto cleanup;
    }
    if (json_object_to_file_ext(jpath, summary, JSON_C_TO_STRING_PRETTY
                                | JSON_C_TO_STRING_NOSLASHESCAPE) < 0) {
        snprintf(err, errlen, "cannot write %s: %s", jpath, strerror(errno));
        goto cleanup;
    }
    f = fopen(cpath, "w");
    if (!f) {
        snprintf(err, errlen, "cannot write %s: %s", cpath, strerror(errno));
        goto cleanup;
    }
    json_object_object_get_ex(summary, "run_id", &run_id);
    fputs("run_id,drive,repetition,vms,tps,transactions,latency_avg_ms,latency_p99_ms,"
          "latency_p99_mean_of_vms_ms\n", f);
    if (json_object_object_get_ex(summary, "drives", &drives))
        for (size_t i = 0; i < json_object_array_length(drives); i++) {
            json_object *d = json_object_array_get_idx(drives, i), *reps, *name;
            json_object_object_get_ex(d, "name", &name);
            if (!json_object_object_get_ex(d, "repetitions", &reps))
                continue;
            for (size_t r = 0; r < json_object_array_length(reps); r++) {
                json_object *g = json_object_array_get_idx(reps, r);
                csv_field(f, json_object_get_string(run_id));
                fputc(',', f);
                csv_field(f, json_object_get_string(name));
                fprintf(f, ",%d,%d,%s,%s,%s,%s,%s\n", (int)get_num(g, "repetition", NULL),
                        (int)get_num(g, "vms", NULL), num_text(g, "tps", NULL),
                        num_text(g, "transactions", NULL), num_text(g, "latency_ms", "avg"),
                        num_text(g, "latency_ms", "p99"),
                        num_text(g, "latency_ms", "p99_mean_of_vms"));
            }
        }
    if (fclose(f) != 0) {
        f = NULL;
        snprintf(err, errlen, "cannot write %s: %s", cpath, strerror(errno));
        goto cleanup;
    }
    f = NULL;
    rc = 0;
cleanup:
    if (f)
        fclose(f);
    free(jpath);
    free(cpath);
    return rc;
}
