/* aggregate.c — per-VM results to per-drive and run aggregates (see
 * aggregate.h): arithmetic on common/results.h structs. */
#include "run/aggregate.h"
#include "hist.h"
#include "plan/layout.h"
#include "telemetry/timebins.h"
#include "util/names.h"

#include <math.h>
#include <stdio.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>

/* One TPC-C transaction type merged over a group's VMs. */
typedef struct group_type {
    char   *name;
    int64_t count, rollbacks;
    double  p90_limit_ms;       /* from the first VM's tpcc.limits; 0: none */
    hist   *h;                  /* merged */
} group_type;

/* Merged figures of a set of VM results. */
typedef struct group {
    int     vms;
    double  tps;                /* sum */
    int64_t transactions;
    double  p99_sum;            /* sum of each VM's p99, ms */
    hist   *h;                  /* merged */
    int     failed;             /* VM runs that failed: in no figure above */
    /* TPC-C: VMs with a tpcc section, sums of their rates, merged types */
    int        tpcc_vms, nopm_vms;
    double     tpm, nopm;
    group_type types[RES_MAX_TYPES];
    int        ntypes;
} group;

static void group_clear(group *g)
{
    hist_free(g->h);
    for (int i = 0; i < g->ntypes; i++) {
        free(g->types[i].name);
        hist_free(g->types[i].h);
    }
}

static double us_to_ms(double us)
{
    return us / 1000.0;
}

static double p99_ms(const hist *h)
{
    return h ? us_to_ms((double)hist_percentile(h, 99.0)) : 0;
}

/* hist_add into *dst, made empty with src's parameters when NULL. 0, or
 * -1 when out of memory or the parameters differ. */
static int merge_hist(hist **dst, const hist *src)
{
    if (!*dst && !(*dst = hist_new(src->highest, src->sig_digits)))
        return -1;
    return hist_add(*dst, src);
}

/* Add the TPC-C figures of one VM's measure phase: its rates, and each
 * transaction type by name (histograms merged). 0, or -1 when out of
 * memory or histograms do not merge. */
static int group_add_tpcc(group *g, const res_phase *m)
{
    g->tpcc_vms++;
    g->tpm += m->tpcc->tpm;
    if (m->tpcc->server_rate_name) {
        g->nopm_vms++;
        g->nopm += m->tpcc->server_rate;
    }
    for (int t = 0; t < m->ntypes; t++) {
        const res_txn_type *x = &m->types[t];
        group_type *gt = NULL;
        if (!x->name || !x->histogram)
            continue;
        for (int i = 0; i < g->ntypes && !gt; i++)
            if (strcmp(g->types[i].name, x->name) == 0)
                gt = &g->types[i];
        if (!gt) {
            if (g->ntypes == RES_MAX_TYPES)
                continue;
            gt = &g->types[g->ntypes];
            if (!(gt->name = strdup(x->name)))
                return -1;
            g->ntypes++;
            for (int l = 0; l < m->tpcc->nlimits; l++)
                if (m->tpcc->limits[l].name && strcmp(m->tpcc->limits[l].name, x->name) == 0)
                    gt->p90_limit_ms = m->tpcc->limits[l].p90_limit_ms;
        }
        if (merge_hist(&gt->h, x->histogram) < 0)
            return -1;
        gt->count += x->count;
        gt->rollbacks += x->rollbacks;
    }
    return 0;
}

/* The TPC-C figures of a group with the given rates (a sum, or a mean of
 * repetitions' sums): latencies from the merged histograms, the p90 limits
 * checked on them as oltp checks one VM's. A new struct (NULL: the group
 * has no TPC-C result); *oom set when out of memory. */
static res_tpcc_figures *group_tpcc(const group *g, double tpm, double nopm, bool *oom)
{
    res_tpcc_figures *t;
    if (!g->tpcc_vms)
        return NULL;
    t = calloc(1, sizeof *t);
    if (!t || (g->ntypes && !(t->types = calloc((size_t)g->ntypes, sizeof *t->types)))) {
        free(t);
        *oom = true;
        return NULL;
    }
    t->tpmc = tpm;
    t->has_nopm = g->nopm_vms == g->tpcc_vms;
    t->nopm = t->has_nopm ? nopm : 0;
    t->p90_limits_met = true;
    for (int i = 0; i < g->ntypes; i++) {
        const group_type *gt = &g->types[i];
        res_tpcc_type *x = &t->types[t->ntypes++];
        x->name = strdup(gt->name);
        if (!x->name) {
            res_tpcc_figures_free(t);
            *oom = true;
            return NULL;
        }
        x->count = gt->count;
        x->rollbacks = gt->rollbacks;
        x->lat_avg_ms = us_to_ms(hist_mean(gt->h));
        x->lat_p90_ms = us_to_ms((double)hist_percentile(gt->h, 90.0));
        x->lat_p99_ms = p99_ms(gt->h);
        x->p90_limit_ms = gt->p90_limit_ms;
        x->p90_met = gt->p90_limit_ms <= 0
                     || hist_percentile(gt->h, 90.0) <= (int64_t)(gt->p90_limit_ms * 1000);
        t->p90_limits_met = t->p90_limits_met && x->p90_met;
        t->rollbacks += gt->rollbacks;
    }
    return t;
}

/* Add one VM's measure phase to a group. 0, or -1 when histograms do not
 * merge or out of memory. */
static int group_add(group *g, const res_phase *m)
{
    if (merge_hist(&g->h, m->histogram) < 0)
        return -1;
    g->vms++;
    g->tps += m->tps;
    g->transactions += m->transactions;
    g->p99_sum += p99_ms(m->histogram);
    return m->tpcc ? group_add_tpcc(g, m) : 0;
}

/* Figures of group g with its tps (a sum, or a mean of repetitions'
 * sums) over `reps` measured repetitions: VMs per repetition and TPS per
 * VM come from the healthy VM runs, never from the plan's counts. */
static res_figures group_figures(const group *g, double tps, int reps)
{
    return (res_figures){
        .vms = reps > 0 ? g->vms / reps : 0, .vm_runs = g->vms, .repetitions = reps,
        .tps_per_vm = g->vms ? g->tps / g->vms : 0, .failed_vms = g->failed, .tps = tps,
        .transactions = g->transactions,
        .lat_avg_ms = g->h ? us_to_ms(hist_mean(g->h)) : 0, .lat_p99_ms = p99_ms(g->h),
        .lat_p99_mean_of_vms_ms = g->vms ? g->p99_sum / g->vms : 0,
    };
}

/* VM v's TPS series: the measured phase's intervals on bins of oltp's
 * interval (telemetry/timebins.h), so that series of VMs line up by time;
 * a bin none of its intervals reaches is left out. 0, or -1. */
static int vm_series(res_vm *v, const res_phase *m)
{
    double w = orch_bins_width(m, ORCH_REPORT_INTERVAL_S);
    int nb = orch_bins_count(m, w);
    double *tps = calloc(nb ? (size_t)nb : 1, sizeof *tps);
    v->series = calloc(nb ? (size_t)nb : 1, sizeof *v->series);
    v->interval_s = w;
    if (!tps || !v->series) {
        free(tps);
        return -1;
    }
    orch_bins_tps(m, w, nb, tps, NULL);
    for (int k = 0; k < nb; k++)
        if (isfinite(tps[k]))
            v->series[v->npoints++] = (res_point){ (k + 1) * w, tps[k] };
    free(tps);
    return 0;
}

/* Seconds from the start of doc's measured phase to a fault at `at`: its
 * started_at plus the phases before "measure" (the result's clock and the
 * monitor's, both to the second, so within a second or two), never below
 * 0; NAN when either time is unknown. */
static double fault_in_measure(const res_oltp *doc, time_t at)
{
    struct tm tm;
    const char *end;
    double t0;
    memset(&tm, 0, sizeof tm);
    if (!at || !doc->started_at
        || !(end = strptime(doc->started_at, "%Y-%m-%dT%H:%M:%SZ", &tm)) || *end)
        return NAN;
    t0 = (double)timegm(&tm);
    for (int i = 0; i < doc->nphases && doc->phases[i].phase != RES_PHASE_MEASURE; i++)
        t0 += doc->phases[i].duration_s;
    return (double)at > t0 ? (double)at - t0 : 0;
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
    v->failed_at_s = NAN;
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
        /* what it measured up to the fault: shown with the fault, in no figure */
        if (m && !(v->result_ended = strdup(res_end_name(doc->ended))))
            return -1;
        if (m && strcmp(r->failed_in, "measure") == 0)
            v->failed_at_s = fault_in_measure(doc, r->health.at);
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
    if (doc->server_version && !v->server_version)
        return -1;
    return vm_series(v, m);
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
        if (have && !r->failed_in && doc.ended != RES_END_COMPLETE) {
            /* stopped early without a fault of its VM (the run was
             * interrupted): what it measured stays in its file, and is
             * never a measurement */
            res_oltp_clear(&doc);
            have = 0;
        }
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
    double run_tps = 0, run_tpm = 0, run_nopm = 0;
    int run_reps = 0;               /* repetitions in which a VM was measured */
    bool oom = false;
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
        double tps_sum = 0, tpm_sum = 0, nopm_sum = 0;
        int measured = 0;           /* repetitions with a healthy VM run */
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
            dr->reps[dr->nreps] = (res_repetition){ r, group_figures(g, g->tps, g->vms > 0) };
            dr->reps[dr->nreps++].f.tpcc = group_tpcc(g, g->tpm, g->nopm, &oom);
            if (!g->vms)            /* every VM failed: no zero in the mean */
                continue;
            measured++;
            tps_sum += g->tps;
            tpm_sum += g->tpm;
            nopm_sum += g->nopm;
        }
        dr->f = group_figures(all, measured ? tps_sum / measured : 0, measured);
        dr->f.tpcc = group_tpcc(all, measured ? tpm_sum / measured : 0,
                                measured ? nopm_sum / measured : 0, &oom);

        run_tps += dr->f.tps;
        run_tpm += dr->f.tpcc ? dr->f.tpcc->tpmc : 0;
        run_nopm += dr->f.tpcc ? dr->f.tpcc->nopm : 0;
    }
    for (int r = 1; r <= reps; r++) {
        int any = 0;
        for (int d = 0; d < in->ndrives; d++)
            any |= groups[d * (reps + 1) + r].vms > 0;
        run_reps += any;
    }
    s->run = group_figures(&run, run_tps, run_reps);
    s->run.tpcc = group_tpcc(&run, run_tpm, run_nopm, &oom);
    if (oom) {
        snprintf(err, errlen, "out of memory");
        goto cleanup;
    }
    s->status = in->partial ? RES_RUN_PARTIAL : run.failed ? RES_RUN_DEGRADED : RES_RUN_COMPLETE;
    s->run_drives = in->ndrives;
    ok = 1;
cleanup:
    for (size_t i = 0; groups && i < ng; i++)
        group_clear(&groups[i]);
    free(groups);
    group_clear(&run);
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
