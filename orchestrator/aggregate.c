/* aggregate.c — per-VM results to per-drive and run aggregates (see
 * aggregate.h): arithmetic on common/results.h structs. */
#include "aggregate.h"
#include "hist.h"
#include "names.h"

#include <stdio.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>

/* Merged figures of a set of VM results. */
typedef struct group {
    int     vms;
    double  tps;                /* sum */
    int64_t transactions;
    double  p99_sum;            /* sum of each VM's p99, ms */
    hist   *h;                  /* merged */
    int     failed;             /* VM runs that failed: in no figure above */
} group;

static double us_to_ms(double us)
{
    return us / 1000.0;
}

static double p99_ms(const hist *h)
{
    return h ? us_to_ms((double)hist_percentile(h, 99.0)) : 0;
}

/* Add one VM's measure phase to a group. 0, or -1 when histograms do not
 * merge. */
static int group_add(group *g, const res_phase *m)
{
    if (!g->h) {
        g->h = hist_new(m->histogram->highest, m->histogram->sig_digits);
        if (!g->h)
            return -1;
    }
    if (hist_add(g->h, m->histogram) < 0)
        return -1;
    g->vms++;
    g->tps += m->tps;
    g->transactions += m->transactions;
    g->p99_sum += p99_ms(m->histogram);
    return 0;
}

static res_figures group_figures(const group *g, double tps, int vms_per_rep)
{
    return (res_figures){
        .vms = vms_per_rep, .failed_vms = g->failed, .tps = tps,
        .transactions = g->transactions,
        .lat_avg_ms = g->h ? us_to_ms(hist_mean(g->h)) : 0, .lat_p99_ms = p99_ms(g->h),
        .lat_p99_mean_of_vms_ms = g->vms ? g->p99_sum / g->vms : 0,
    };
}

/* The summary's entry of VM r: its health, and its figures from its
 * result doc when there is one (doc NULL: a failed VM that left none). 0,
 * or -1 when out of memory. */
static int vm_entry(res_vm *v, const orch_vm_result *r, const res_oltp *doc)
{
    const res_phase *m = doc ? res_oltp_measure(doc) : NULL;
    v->name = strdup(r->vm);
    v->drive = strdup(r->drive);
    v->host = r->host ? strdup(r->host) : NULL;     /* optional: no host is no failure */
    v->repetition = r->repetition;
    v->result = strdup(r->result);
    v->precondition_result = r->precondition ? strdup(r->precondition) : NULL;
    if (!v->name || !v->drive || !v->result || (r->precondition && !v->precondition_result))
        return -1;
    if (r->failed_in) {
        char when[32] = "";
        struct tm tm;
        v->failed = true;
        if (r->health.at && gmtime_r(&r->health.at, &tm))
            strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);
        v->fault = strdup(orch_fault_name(r->health.fault));
        v->reason = strdup(r->health.reason[0] ? r->health.reason : "failed");
        v->failed_at = *when ? strdup(when) : NULL;
        v->failed_in = strdup(r->failed_in);
        v->console_tail = r->console_tail ? strdup(r->console_tail) : NULL;
        if (!v->fault || !v->reason || (*when && !v->failed_at) || !v->failed_in
            || (r->console_tail && !v->console_tail))
            return -1;
    }
    if (!m)
        return 0;
    v->measured = true;
    v->tps = m->tps;
    v->transactions = m->transactions;
    v->lat_avg_ms = us_to_ms(hist_mean(m->histogram));
    v->lat_p99_ms = p99_ms(m->histogram);
    v->server_version = doc->server_version ? strdup(doc->server_version) : NULL;
    v->errors = m->errors;
    v->reconnects = m->reconnects;
    v->series = calloc(m->nintervals ? (size_t)m->nintervals : 1, sizeof *v->series);
    if (!v->series || (doc->server_version && !v->server_version))
        return -1;
    v->npoints = m->nintervals;
    for (int i = 0; i < m->nintervals; i++)
        v->series[i] = (res_point){ m->intervals[i].t, m->intervals[i].tps };
    return 0;
}

/* Read each VM's result and merge the healthy ones into their groups; every
 * VM gets its entry in the summary's vms. A failed VM, or any VM of a
 * partial run, may have left no result: that is no error. 0, or -1 with
 * err. */
static int add_vms(const orch_summary_input *in, res_summary *s, group *groups, group *run,
                   int reps, char *err, size_t errlen)
{
    for (int i = 0; i < in->nvms; i++) {
        const orch_vm_result *r = &in->vms[i];
        group *targets[3];
        res_oltp doc;
        int d, rc, have;
        char *path = orch_strfmt("%s/%s", in->run_dir, r->result);
        for (d = 0; d < in->ndrives; d++)
            if (strcmp(in->drives[d], r->drive) == 0)
                break;
        if (!path || d == in->ndrives || r->repetition < 1 || r->repetition > reps) {
            snprintf(err, errlen, "%s: VM %s has no drive or repetition in the plan",
                     r->result, r->vm);
            free(path);
            return -1;
        }
        targets[0] = &groups[d * (reps + 1)];
        targets[1] = &groups[d * (reps + 1) + r->repetition];
        targets[2] = run;
        rc = res_oltp_read_file(path, &doc, err, errlen);
        free(path);
        have = rc == 0;
        if (!have && !r->failed_in && !in->partial)
            return -1;
        if (r->failed_in) {
            for (int k = 0; k < 3; k++)
                targets[k]->failed++;
        } else if (have) {
            const res_phase *m = res_oltp_measure(&doc);
            for (int k = 0; k < 3; k++)
                if (group_add(targets[k], m) < 0) {
                    snprintf(err, errlen, "%s: histogram parameters differ from the other "
                             "VMs'; cannot merge", r->result);
                    res_oltp_clear(&doc);
                    return -1;
                }
        }
        rc = vm_entry(&s->vms[s->nvms++], r, have ? &doc : NULL);
        if (have)
            res_oltp_clear(&doc);
        if (rc < 0) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
    }
    return 0;
}

res_summary *orch_summary_build(const orch_summary_input *in, char *err, size_t errlen)
{
    int reps = in->repetitions > 0 ? in->repetitions : 1;
    size_t ng = (size_t)in->ndrives * (size_t)(reps + 1);
    group *groups = calloc(ng ? ng : 1, sizeof *groups);   /* [drive][0]=all, [drive][r] */
    group run = { 0 };
    res_summary *s = calloc(1, sizeof *s);
    double run_tps = 0;
    int ok = 0;

    if (!groups || !s) {
        snprintf(err, errlen, "out of memory");
        goto cleanup;
    }
    res_plan_init(&s->plan);
    res_env_init(&s->env);
    s->run_id = strdup(in->run_id);
    s->started_at = in->started_at ? strdup(in->started_at) : NULL;
    s->finished_at = in->finished_at ? strdup(in->finished_at) : NULL;
    s->plan_file = strdup("plan.ini");
    s->repetitions = reps;
    s->vms = calloc(in->nvms ? (size_t)in->nvms : 1, sizeof *s->vms);
    s->drives = calloc(in->ndrives ? (size_t)in->ndrives : 1, sizeof *s->drives);
    if (!s->run_id || !s->plan_file || !s->vms || !s->drives
        || (in->started_at && !s->started_at) || (in->finished_at && !s->finished_at)
        || (in->plan && res_plan_copy(&s->plan, in->plan) < 0)
        || (in->env && res_env_copy(&s->env, in->env) < 0)) {
        snprintf(err, errlen, "out of memory");
        goto cleanup;
    }
    if (add_vms(in, s, groups, &run, reps, err, errlen) < 0)
        goto cleanup;

    for (int d = 0; d < in->ndrives; d++) {
        res_drive *dr = &s->drives[s->ndrives++];
        group *all = &groups[d * (reps + 1)];
        double tps_sum = 0;
        dr->name = strdup(in->drives[d]);
        dr->reps = calloc((size_t)reps, sizeof *dr->reps);
        if (!dr->name || !dr->reps) {
            snprintf(err, errlen, "out of memory");
            goto cleanup;
        }
        for (int r = 1; r <= reps; r++) {
            group *g = &groups[d * (reps + 1) + r];
            if (!g->vms && !g->failed)
                continue;
            dr->reps[dr->nreps++] = (res_repetition){ r, group_figures(g, g->tps, g->vms) };
            tps_sum += g->tps;
        }
        dr->f = group_figures(all, dr->nreps ? tps_sum / dr->nreps : 0,
                              dr->nreps ? all->vms / dr->nreps : 0);
        run_tps += dr->f.tps;
    }
    s->run = group_figures(&run, run_tps, run.vms / reps);
    s->status = in->partial ? RES_RUN_PARTIAL : run.failed ? RES_RUN_DEGRADED : RES_RUN_COMPLETE;
    s->run_drives = in->ndrives;
    ok = 1;
cleanup:
    for (size_t i = 0; groups && i < ng; i++)
        hist_free(groups[i].h);
    free(groups);
    hist_free(run.h);
    if (!ok) {
        orch_summary_free(s);
        s = NULL;
    }
    return s;
}

void orch_summary_free(res_summary *s)
{
    res_summary_clear(s);
    free(s);
}

int orch_summary_write(const char *run_dir, const res_summary *s, char *err, size_t errlen)
{
    return res_summary_write_files(s, run_dir, err, errlen);
}
