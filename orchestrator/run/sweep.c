/* sweep.c — a plan's sweep (run.h orch_run_sweep, issue 34): each step a
 * run of its own at that step's value, the steps' figures per drive from
 * their summaries into sweep.json, each drive's knee, and the sweep's
 * page. */
#include "run/run_state.h"
#include "report/report.h"
#include "util/util.h"
#include "results_sweep.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

/* Step i's plan: p's text parsed again (its warnings were shown once),
 * the swept key at the step's value, the run's domain type (a command
 * line's --domain-type) and results in dir. NULL with err. */
static orch_plan *step_plan(const orch_plan *p, int i, const char *dir, char *err,
                            size_t errlen)
{
    char *quiet_text = NULL;
    size_t quiet_len = 0;
    FILE *quiet = open_memstream(&quiet_text, &quiet_len);
    orch_plan *s = quiet ? orch_plan_reload(p, quiet) : NULL;
    char *dt = strdup(p->domain_type), *rd = strdup(dir);
    if (quiet)
        fclose(quiet);
    free(quiet_text);
    if (!s || !dt || !rd) {
        snprintf(err, errlen, "%s: cannot read the plan again for step %d", p->file, i + 1);
        goto fail;
    }
    if (orch_plan_sweep_step(s, i, err, errlen) < 0)
        goto fail;
    free(s->domain_type);
    s->domain_type = dt;
    free(s->results_dir);
    s->results_dir = rd;
    return s;
fail:
    free(dt);
    free(rd);
    orch_plan_free(s);
    return NULL;
}

/* Step st's drives from the summary of its run folder (none when it
 * wrote none: the step failed before measuring). */
static void step_figures(res_sweep_step *st, const char *run_dir)
{
    char *path = orch_strfmt("%s/summary.json", run_dir), err[512];
    res_summary sum;
    if (!path || res_summary_read_file(path, &sum, err, sizeof err) != 0) {
        free(path);
        return;
    }
    free(path);
    free(st->status);
    st->status = strdup(res_run_status_name(sum.status));
    st->drives = calloc((size_t)sum.ndrives + 1, sizeof *st->drives);
    for (int d = 0; st->drives && d < sum.ndrives; d++) {
        const res_drive *dr = &sum.drives[d];
        res_sweep_drive *x = &st->drives[st->ndrives];
        if (!(x->name = strdup(dr->name)))
            break;
        x->vms = dr->f.vms;
        x->complete = dr->f.vms > 0 && dr->f.failed_vms == 0;
        x->tps = dr->f.vms > 0 ? dr->f.tps : NAN;
        x->lat_avg_ms = dr->f.vms > 0 ? dr->f.lat_avg_ms : NAN;
        x->lat_p99_ms = dr->f.vms > 0 ? dr->f.lat_p99_ms : NAN;
        st->ndrives++;
    }
    res_summary_clear(&sum);
}

/* Each drive's knee over the complete steps (orch_stats_knee). */
static void knees(res_sweep *w)
{
    double *tps = calloc((size_t)w->nsteps + 1, sizeof *tps);
    w->knees = calloc((size_t)(w->nsteps ? w->steps[0].ndrives : 0) + 1, sizeof *w->knees);
    for (int d = 0; tps && w->knees && w->nsteps && d < w->steps[0].ndrives; d++) {
        const char *name = w->steps[0].drives[d].name;
        int k;
        for (int i = 0; i < w->nsteps; i++) {
            tps[i] = NAN;
            for (int j = 0; j < w->steps[i].ndrives; j++)
                if (strcmp(w->steps[i].drives[j].name, name) == 0 && w->steps[i].drives[j].complete)
                    tps[i] = w->steps[i].drives[j].tps;
        }
        if ((k = orch_stats_knee(tps, w->nsteps, RES_SWEEP_KNEE_SHARE)) < 0)
            continue;
        w->knees[w->nknees] = (res_sweep_knee){ .drive = strdup(name), .step = k + 1,
                                                 .value = w->steps[k].value, .tps = tps[k] };
        if (w->knees[w->nknees].drive)
            w->nknees++;
    }
    free(tps);
}

/* The worse of two run statuses. */
static int worse(int a, int b)
{
    static const int order[] = { ORCH_RUN_OK, ORCH_RUN_DEGRADED, ORCH_RUN_FAILED,
                                 ORCH_RUN_INTERRUPTED };
    int ia = 0, ib = 0;
    for (int i = 0; i < 4; i++) {
        ia = order[i] == a ? i : ia;
        ib = order[i] == b ? i : ib;
    }
    return ia >= ib ? a : b;
}

/* The steps in order; each one's entry in w. Returns the worst status. */
static int run_steps(const orch_plan *p, orch_run_opts *o, const char *dir, res_sweep *w,
                     FILE *out)
{
    int rc = ORCH_RUN_OK;
    for (int i = 0; i < p->nsweep; i++) {
        res_sweep_step *st = &w->steps[w->nsteps++];
        char value[64], err[1024], *sid = orch_strfmt("%s-s%d", w->run_id, i + 1), *sdir;
        orch_plan *sp;
        orch_run_opts so = *o;
        int src;
        orch_plan_sweep_value(p, i, value, sizeof value);
        st->value = p->sweep_values[i];
        st->run_id = sid;
        if (rc == ORCH_RUN_FAILED || rc == ORCH_RUN_INTERRUPTED) {
            st->status = strdup("not run");
            continue;
        }
        fprintf(out, "sweep step %d of %d: [%s] %s = %s (run %s)\n", i + 1, p->nsweep,
                p->sweep_section, p->sweep_key, value, sid ? sid : "?");
        fflush(out);
        if (!sid || !(sp = step_plan(p, i, dir, err, sizeof err))) {
            fprintf(out, "drivebench: %s\n", sid ? err : "out of memory");
            st->status = strdup("failed");
            rc = ORCH_RUN_FAILED;
            continue;
        }
        so.run_id = sid;
        src = orch_run(sp, &so);
        o->monitor = NULL;
        orch_plan_free(sp);
        st->status = strdup(src == ORCH_RUN_INTERRUPTED ? "interrupted" : "failed");
        if ((sdir = orch_strfmt("%s/%s", dir, sid)))
            step_figures(st, sdir);
        free(sdir);
        rc = worse(rc, src);
    }
    return rc;
}

/* The statuses of steps that ran without a summary (they failed before
 * measuring) or did not run. */
static void step_status(res_sweep_step *st, int status)
{
    if (st->status)
        return;
    st->status = strdup(status < 0 ? "not run"
                        : status == ORCH_RUN_INTERRUPTED ? "interrupted" : "failed");
}

/* A sweep on the same VMs (issue 45): one run, the first step's, whose
 * later steps run before its teardown (run/step.c); each step's entry in
 * w. Returns the run's status. */
static int run_same_vms(const orch_plan *p, orch_run_opts *o, const char *dir, res_sweep *w,
                        FILE *out)
{
    orch_plan **plans = calloc((size_t)p->nsweep, sizeof *plans);
    char **ids = calloc((size_t)p->nsweep, sizeof *ids), err[1024], value[64];
    int *status = calloc((size_t)p->nsweep, sizeof *status), rc = ORCH_RUN_FAILED;
    orch_sweep_steps steps = { .plans = (const orch_plan *const *)plans, .ids = ids,
                               .status = status, .n = p->nsweep };
    orch_run_opts so = *o;

    for (int i = 0; plans && ids && status && i < p->nsweep; i++) {
        status[i] = -1;
        if (!(ids[i] = orch_strfmt("%s-s%d", w->run_id, i + 1))
            || !(plans[i] = step_plan(p, i, dir, err, sizeof err))) {
            fprintf(out, "drivebench: %s\n", ids[i] ? err : "out of memory");
            goto cleanup;
        }
    }
    if (!plans || !ids || !status) {
        fprintf(out, "drivebench: out of memory\n");
        goto cleanup;
    }
    orch_plan_sweep_value(p, 0, value, sizeof value);
    fprintf(out, "sweep step 1 of %d: [%s] %s = %s (run %s; the VMs provisioned, prepared and "
            "preconditioned once, for every step)\n", p->nsweep, p->sweep_section, p->sweep_key,
            value, ids[0]);
    fflush(out);
    so.run_id = ids[0];
    so.steps = &steps;
    rc = orch_run(plans[0], &so);
    o->monitor = NULL;
    if (status[0] < 0)
        status[0] = rc;
cleanup:
    for (int i = 0; i < p->nsweep; i++) {
        res_sweep_step *st = &w->steps[w->nsteps++];
        char *sdir = ids && ids[i] ? orch_strfmt("%s/%s", dir, ids[i]) : NULL;
        st->value = p->sweep_values[i];
        st->run_id = ids && ids[i] ? strdup(ids[i]) : NULL;
        if (sdir && status && status[i] >= 0)
            step_figures(st, sdir);
        step_status(st, status ? status[i] : ORCH_RUN_FAILED);
        free(sdir);
        if (plans)
            orch_plan_free(plans[i]);
        if (ids)
            free(ids[i]);
    }
    free(plans);
    free(ids);
    free(status);
    return rc;
}

int orch_run_sweep(const orch_plan *p, orch_run_opts *o)
{
    FILE *out = o->out ? o->out : stderr;
    char *id = o->run_id ? strdup(o->run_id) : orch_runid_new(p->name, time(NULL));
    char *dir = NULL, *plan_copy = NULL, *html = NULL, err[1024], when[32];
    res_sweep w;
    int rc = ORCH_RUN_FAILED;

    memset(&w, 0, sizeof w);
    /* the steps' run ids: ID-s1 .. ID-sN, each a valid run id */
    if (!id || !orch_runid_valid(id) || strlen(id) + 4 > ORCH_ID_MAX + 16) {
        fprintf(out, "drivebench: bad run id '%s' for a sweep (its steps add -sN; at most "
                "%d characters)\n", id ? id : "", ORCH_ID_MAX + 12);
        goto cleanup;
    }
    snprintf(o->run_id_out, sizeof o->run_id_out, "%s", id);
    dir = orch_strfmt("%s/%s", p->results_dir, id);
    plan_copy = dir ? orch_strfmt("%s/plan.ini", dir) : NULL;
    w.steps = calloc((size_t)p->nsweep + 1, sizeof *w.steps);
    w.run_id = strdup(id);
    w.plan_name = strdup(p->name);
    w.section = strdup(p->sweep_section);
    w.key = strdup(p->sweep_key);
    if (!plan_copy || !w.steps || !w.run_id || !w.plan_name || !w.section || !w.key) {
        fprintf(out, "drivebench: out of memory\n");
        goto cleanup;
    }
    if (run_mkdir_p(dir, 0755) < 0) {
        fprintf(out, "drivebench: cannot create %s: %s\n", dir, strerror(errno));
        goto cleanup;
    }
    if (orch_plan_write_redacted(p, plan_copy, err, sizeof err) < 0) {
        fprintf(out, "drivebench: %s\n", err);
        goto cleanup;
    }
    run_iso_now(when, sizeof when);
    w.started_at = strdup(when);
    fprintf(out, "sweep %s: [%s] %s in %d steps, results in %s\n", id, p->sweep_section,
            p->sweep_key, p->nsweep, dir);
    rc = orch_plan_sweep_same_vms(p, err, sizeof err) ? run_same_vms(p, o, dir, &w, out)
                                                      : run_steps(p, o, dir, &w, out);
    knees(&w);
    run_iso_now(when, sizeof when);
    w.finished_at = strdup(when);
    if (res_sweep_write_file(&w, dir, err, sizeof err) < 0
        || report_sweep_write(dir, NULL, &html, err, sizeof err) != 0) {
        fprintf(out, "drivebench: %s\n", err);
        rc = worse(rc, ORCH_RUN_FAILED);
        goto cleanup;
    }
    for (int i = 0; i < w.nknees; i++)
        fprintf(out, "sweep: drive %s: knee at %s = %g (%.2f TPS, step %d)\n", w.knees[i].drive,
                w.key, w.knees[i].value, w.knees[i].tps, w.knees[i].step);
    fprintf(out, "sweep: %s/sweep.json\nsweep report: %s\n", dir, html);
cleanup:
    res_sweep_clear(&w);
    free(html);
    free(plan_copy);
    free(dir);
    free(id);
    return rc;
}
