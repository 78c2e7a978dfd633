/* aggregate.c — per-VM results to per-drive and run aggregates (see
 * aggregate.h): arithmetic on common/results_summary.h structs. */
#include "run/aggregate.h"
#include "hist.h"
#include "plan/plan.h"
#include "telemetry/telemetry.h"
#include "util/util.h"
#include "results_server.h"

#include <math.h>
#include <stdio.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
    /* database sizes of the VMs that recorded them, in the order
     * loaded.data, loaded.log, end.data, end.log: sums and counts */
    double     db_sum[4];
    int        db_n[4];
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
    return hist_percentile_ms(h, 99.0);
}

/* The mean latency of h, ms; NAN when h is NULL or empty (absent, never 0). */
static double avg_ms(const hist *h)
{
    return h && h->total ? us_to_ms(hist_mean(h)) : NAN;
}

/* hist_add into *dst, made empty with src's parameters when NULL. 0, or
 * -1 when out of memory or the parameters differ. */
static int merge_hist(hist **dst, const hist *src)
{
    if (!*dst && !(*dst = hist_new(src->highest, src->sig_digits)))
        return -1;
    return hist_add(*dst, src);
}

/* g's transaction type `name`, added (with its p90 limit) when new; NULL
 * when g holds RES_MAX_TYPES others (*oom clear) or out of memory (*oom
 * set). */
static group_type *type_of(group *g, const char *name, double p90_limit_ms, bool *oom)
{
    group_type *gt;
    for (int i = 0; i < g->ntypes; i++)
        if (strcmp(g->types[i].name, name) == 0)
            return &g->types[i];
    if (g->ntypes == RES_MAX_TYPES)
        return NULL;
    gt = &g->types[g->ntypes];
    if (!(gt->name = strdup(name))) {
        *oom = true;
        return NULL;
    }
    gt->p90_limit_ms = p90_limit_ms;
    g->ntypes++;
    return gt;
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
        group_type *gt;
        double limit = 0;
        bool oom = false;
        if (!x->name || !x->histogram)
            continue;
        for (int l = 0; l < m->tpcc->nlimits; l++)
            if (m->tpcc->limits[l].name && strcmp(m->tpcc->limits[l].name, x->name) == 0)
                limit = m->tpcc->limits[l].p90_limit_ms;
        if (!(gt = type_of(g, x->name, limit, &oom))) {
            if (oom)
                return -1;
            continue;
        }
        if (merge_hist(&gt->h, x->histogram) < 0)
            return -1;
        gt->count += x->count;
        gt->rollbacks += x->rollbacks;
    }
    return 0;
}

/* Everything of group src added to dst (a drive's repetitions into the
 * drive, drives into the run). 0, or -1 when out of memory. */
static int group_merge(group *dst, const group *src)
{
    if (src->h && merge_hist(&dst->h, src->h) < 0)
        return -1;
    dst->vms += src->vms;
    dst->tps += src->tps;
    dst->transactions += src->transactions;
    dst->p99_sum += src->p99_sum;
    dst->failed += src->failed;
    dst->tpcc_vms += src->tpcc_vms;
    dst->nopm_vms += src->nopm_vms;
    dst->tpm += src->tpm;
    dst->nopm += src->nopm;
    for (int i = 0; i < 4; i++) {
        dst->db_sum[i] += src->db_sum[i];
        dst->db_n[i] += src->db_n[i];
    }
    for (int t = 0; t < src->ntypes; t++) {
        const group_type *x = &src->types[t];
        bool oom = false;
        group_type *gt = type_of(dst, x->name, x->p90_limit_ms, &oom);
        if (!gt) {
            if (oom)
                return -1;
            continue;
        }
        if (x->h && merge_hist(&gt->h, x->h) < 0)
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
        x->lat_avg_ms = avg_ms(gt->h);
        x->lat_p90_ms = hist_percentile_ms(gt->h, 90.0);
        x->lat_p99_ms = p99_ms(gt->h);
        x->p90_limit_ms = gt->p90_limit_ms;
        x->p90_met = gt->p90_limit_ms <= 0
                     || hist_percentile(gt->h, 90.0) <= (int64_t)(gt->p90_limit_ms * 1000);
        t->p90_limits_met = t->p90_limits_met && x->p90_met;
        t->rollbacks += gt->rollbacks;
    }
    return t;
}

/* The four sizes of a VM, in group.db_sum's order. */
static void db_figures(const res_vm *v, int64_t out[4])
{
    out[0] = v->db_loaded.data_bytes;
    out[1] = v->db_loaded.log_bytes;
    out[2] = v->db_end.data_bytes;
    out[3] = v->db_end.log_bytes;
}

/* Add a healthy VM's database sizes to a group. */
static void group_add_db(group *g, const res_vm *v)
{
    int64_t x[4];
    db_figures(v, x);
    for (int i = 0; i < 4; i++)
        if (res_db_known(x[i])) {
            g->db_sum[i] += (double)x[i];
            g->db_n[i]++;
        }
}

/* The mean of figure i of g in bytes (RES_UNSET when no VM recorded it). */
static int64_t db_mean(const group *g, int i)
{
    return g->db_n[i] ? (int64_t)(g->db_sum[i] / g->db_n[i] + 0.5) : RES_UNSET;
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
 * sums) over `reps` measured repetitions of `vms` VMs each: VMs per
 * repetition and TPS per VM come from the healthy VM runs, never from the
 * plan's counts; latencies of no transaction are absent (NAN). */
static res_figures group_figures(const group *g, double tps, int vms, int reps)
{
    return (res_figures){
        .vms = vms, .vm_runs = g->vms, .repetitions = reps,
        .tps_per_vm = g->vms ? g->tps / g->vms : 0, .failed_vms = g->failed, .tps = tps,
        .transactions = g->transactions,
        .lat_avg_ms = avg_ms(g->h), .lat_p99_ms = p99_ms(g->h),
        .lat_p99_mean_of_vms_ms = g->vms ? g->p99_sum / g->vms : NAN,
        .db_loaded = { db_mean(g, 0), db_mean(g, 1) }, .db_end = { db_mean(g, 2), db_mean(g, 3) },
    };
}

/* VM v's TPS series: the measured phase's intervals on bins of oltp's
 * interval (telemetry/timebins.h), so that series of VMs line up by time;
 * a bin none of its intervals reaches is left out. 0, or -1. */
static int vm_series(res_vm *v, const res_phase *m)
{
    double w = orch_bins_width(m, ORCH_REPORT_INTERVAL_S);
    int nb = orch_bins_count(m, w);
    double *tps = calloc(nb ? 2 * (size_t)nb : 1, sizeof *tps);
    v->series = calloc(nb ? (size_t)nb : 1, sizeof *v->series);
    v->interval_s = w;
    if (!tps || !v->series) {
        free(tps);
        return -1;
    }
    orch_bins_tps(m, w, nb, tps, tps + nb);     /* the second half: coverage */
    for (int k = 0; k < nb; k++)
        if (isfinite(tps[k]))
            v->series[v->npoints++] = (res_point){ (k + 1) * w, tps[k] };
    free(tps);
    return 0;
}

/* VM v's database sizes: after load from the start of its first oltp run
 * (pre: the precondition result, or NULL), at the end from the measured
 * one; the data after load against the plan's expectation. */
static void vm_db_sizes(res_vm *v, const res_oltp *doc, const res_oltp *pre,
                        int64_t expect)
{
    v->db_loaded = pre && res_db_known(pre->db_start.data_bytes) ? pre->db_start : doc->db_start;
    v->db_end = doc->db_end;
    if (expect > 0 && res_db_known(v->db_loaded.data_bytes)) {
        v->db_deviation_pct = 100.0 * ((double)v->db_loaded.data_bytes - (double)expect)
                              / (double)expect;
        v->db_size_warning = fabs(v->db_deviation_pct) > RES_DB_SIZE_TOLERANCE_PCT;
    }
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

/* Whether measured phase m (NULL: none) holds no transaction: a VM run
 * without one measured nothing and is failed ("no transactions"). */
static bool no_transactions(const res_phase *m)
{
    return !m || m->transactions <= 0 || !m->histogram || m->histogram->total == 0;
}

/* The summary's entry of VM r: its health, and its figures from its
 * result doc when there is one (doc NULL: a failed VM that left none);
 * empty: a complete result without transactions, failed for that;
 * refused: why its result was refused (NULL: it was not), failed for
 * that. 0, or -1 when out of memory. */
static int vm_entry(res_vm *v, const orch_vm_result *r, const res_oltp *doc,
                    const res_oltp *pre, int64_t expect, bool empty, const char *refused)
{
    const res_phase *m = doc ? res_oltp_measure(doc) : NULL;
    v->db_deviation_pct = NAN;
    v->name = strdup(r->vm);
    v->drive = strdup(r->drive);
    v->host = r->host ? strdup(r->host) : NULL;     /* optional: no host is no failure */
    v->cpu_flags = r->cpu_flags ? strdup(r->cpu_flags) : NULL;
    v->cpus = r->cpus ? strdup(r->cpus) : NULL;
    v->emulator_cpus = r->emulator_cpus ? strdup(r->emulator_cpus) : NULL;
    v->pinned = r->cpus != NULL;
    v->numa_node = r->numa_node;
    if ((r->cpus && !v->cpus) || (r->emulator_cpus && !v->emulator_cpus)
        || (r->cpu_flags && !v->cpu_flags))
        return -1;
    v->repetition = r->repetition;
    v->result = strdup(r->result);
    v->precondition_result = r->precondition ? strdup(r->precondition) : NULL;
    v->failed_at_s = NAN;
    v->boot_reboots = r->boot_reboots > 0 ? r->boot_reboots : 0;
    if (!v->name || !v->drive || !v->result || (r->precondition && !v->precondition_result))
        return -1;
    if (r->failed_in || empty || refused) {
        char when[32] = "";
        struct tm tm;
        v->failed = true;
        if (r->failed_in && r->health.at && gmtime_r(&r->health.at, &tm))
            strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);
        v->fault = strdup(orch_fault_name(r->failed_in ? r->health.fault
                                          : refused    ? ORCH_FAULT_RESULT
                                                       : ORCH_FAULT_NO_TRANSACTIONS));
        v->reason = r->failed_in ? strdup(r->health.reason[0] ? r->health.reason : "failed")
                    : refused    ? orch_strfmt("its result was refused: %s", refused)
                                 : strdup("no transactions: its measured phase completed "
                                          "without one");
        v->failed_at = *when ? strdup(when) : NULL;
        v->failed_in = strdup(r->failed_in ? r->failed_in : "measure");
        v->console_tail = r->console_tail ? strdup(r->console_tail) : NULL;
        if (!v->fault || !v->reason || (*when && !v->failed_at) || !v->failed_in
            || (r->console_tail && !v->console_tail))
            return -1;
        /* what it measured up to the fault: shown with the fault, in no figure */
        if (m && !(v->result_ended = strdup(res_end_name(doc->ended))))
            return -1;
        if (m && r->failed_in && strcmp(r->failed_in, "measure") == 0)
            v->failed_at_s = fault_in_measure(doc, r->health.at);
    }
    if (!m)
        return 0;
    v->measured = true;
    v->tps = m->tps;
    v->transactions = m->transactions;
    v->lat_avg_ms = avg_ms(m->histogram);
    v->lat_p99_ms = p99_ms(m->histogram);
    v->server_version = doc->server_version ? strdup(doc->server_version) : NULL;
    v->errors = m->errors;
    v->reconnects = m->reconnects;
    if (doc->server_version && !v->server_version)
        return -1;
    vm_db_sizes(v, doc, pre, expect);
    return vm_series(v, m);
}

/* v's server settings (issue 44): vm/NAME.rREP.server.json beside its
 * result vm/NAME.rREP.json, when the run read them (a run before issue
 * 44, or a VM that failed before, has none: no server entry). 0, or -1
 * when out of memory. */
static int vm_server(res_vm *v, const char *run_dir, const char *result)
{
    size_t n = strlen(result);
    char why[512], *path;
    if (n < 5 || strcmp(result + n - 5, ".json") != 0)
        return 0;
    path = orch_strfmt("%s/%.*s.server.json", run_dir, (int)(n - 5), result);
    if (!path || !(v->server = calloc(1, sizeof *v->server))) {
        free(path);
        return -1;
    }
    if (res_server_read_file(path, v->server, why, sizeof why) < 0) {
        free(v->server);
        v->server = NULL;
    }
    free(path);
    return 0;
}

/* Read each VM's result and merge the healthy ones into their
 * repetition's group (groups[d * (reps + 1) + r]); every VM gets its entry
 * in the summary's vms. A failed VM, or any VM of a partial run, may have
 * left no result: that is no error. A complete result without transactions
 * is a failed VM run, and so is a result refused (or missing from a run
 * that ended): fault "result", the reader's line its reason (issue 42).
 * 0, or -1 with err. */
static int add_vms(const orch_summary_input *in, res_summary *s, group *groups, int reps,
                   char *err, size_t errlen)
{
    for (int i = 0; i < in->nvms; i++) {
        const orch_vm_result *r = &in->vms[i];
        group *g;
        res_oltp doc, pre = { 0 };
        char why[DB_ERR_LEN];
        int d, rc, have, have_pre = 0, refused;
        bool empty = false;
        int64_t expect = in->plan ? in->plan->expect_database_bytes : RES_UNSET;
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
        g = &groups[d * (reps + 1) + r->repetition];
        rc = res_oltp_read_file(path, &doc, why, sizeof why);
        if (rc == 0 && !r->failed_in && res_oltp_measure(&doc)) {
            /* a measurement counts each transaction once (issue 42) */
            char cnt[256];
            if (res_phase_counts_agree(res_oltp_measure(&doc), cnt, sizeof cnt) < 0) {
                if (snprintf(why, sizeof why, "%s: %s", path, cnt) >= (int)sizeof why)
                    why[sizeof why - 1] = '\0';        /* cut: still names the file */
                res_oltp_clear(&doc);
                rc = -1;
            }
        }
        have = rc == 0;
        /* a healthy VM's result refused (or missing from a run that
         * ended): a failed VM run, in no figure; a partial run's VMs may
         * have written none */
        refused = !have && !r->failed_in && (!in->partial || access(path, F_OK) == 0);
        free(path);
        if (have && !r->failed_in && doc.ended != RES_END_COMPLETE) {
            /* stopped early without a fault of its VM (the run was
             * interrupted): what it measured stays in its file, and is
             * never a measurement */
            res_oltp_clear(&doc);
            have = 0;
        }
        empty = have && !r->failed_in && no_transactions(res_oltp_measure(&doc));
        if (r->failed_in || empty || refused) {
            g->failed++;
        } else if (have && group_add(g, res_oltp_measure(&doc)) < 0) {
            snprintf(err, errlen, "%s: histogram parameters differ from the other "
                     "VMs'; cannot merge", r->result);
            res_oltp_clear(&doc);
            return -1;
        }
        /* the size after load is the precondition's start; a result that
         * cannot be read only leaves it to the measured one's */
        if (have && r->precondition) {
            char perr[256], *ppath = orch_strfmt("%s/%s", in->run_dir, r->precondition);
            have_pre = ppath && res_oltp_read_file(ppath, &pre, perr, sizeof perr) == 0;
            free(ppath);
        }
        rc = vm_entry(&s->vms[s->nvms], r, have ? &doc : NULL, have_pre ? &pre : NULL, expect,
                      empty, refused ? why : NULL);
        if (rc == 0)
            rc = vm_server(&s->vms[s->nvms], in->run_dir, r->result);
        if (rc == 0 && have && !r->failed_in && !empty)
            group_add_db(g, &s->vms[s->nvms]);
        s->nvms++;
        if (have)
            res_oltp_clear(&doc);
        if (have_pre)
            res_oltp_clear(&pre);
        if (rc < 0) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
    }
    return 0;
}

/* The run's totals over its drives. */
typedef struct run_totals {
    double tps, tpm, nopm;
    int    vms;
} run_totals;

/* Drive d of the summary: its repetitions, and its figures from those
 * that measured all its VMs, merged into run and added to t. 0, or -1
 * with err (*oom set when a TPC-C figure could not be made). */
static int build_drive(const orch_summary_input *in, res_summary *s, group *groups, int reps,
                       int d, group *run, run_totals *t, bool *oom, char *err, size_t errlen)
{
    res_drive *dr = &s->drives[s->ndrives++];
    group *all = &groups[d * (reps + 1)];
    double tps_sum = 0, tpm_sum = 0, nopm_sum = 0;
    int measured = 0;           /* repetitions its figures count */
    int full = 0;               /* the most VMs a repetition measured */
    dr->name = strdup(in->drives[d]);
    dr->reps = calloc((size_t)reps, sizeof *dr->reps);
    dr->other_reps = calloc((size_t)reps, sizeof *dr->other_reps);
    if (!dr->name || !dr->reps || !dr->other_reps) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (int r = 1; r <= reps; r++)
        if (groups[d * (reps + 1) + r].vms > full)
            full = groups[d * (reps + 1) + r].vms;
    /* a drive's TPS is a mean of repetitions at one load: those that
     * measured `full` VMs; one that lost a VM (331.54 TPS of 4 VMs,
     * 247.76 of 3) is listed, in no figure, and its failures counted */
    for (int r = 1; r <= reps; r++) {
        group *g = &groups[d * (reps + 1) + r];
        if (!g->vms && !g->failed)
            continue;
        dr->reps[dr->nreps] = (res_repetition){ r, group_figures(g, g->tps, g->vms,
                                                                 g->vms > 0) };
        dr->reps[dr->nreps++].f.tpcc = group_tpcc(g, g->tpm, g->nopm, oom);
        if (g->vms == 0 || g->vms != full) {
            /* every VM failed (no zero in the mean), or fewer measured */
            all->failed += g->failed;
            if (g->vms)
                dr->other_reps[dr->nother_reps++] = (res_rep_vms){ r, g->vms };
            continue;
        }
        if (group_merge(all, g) < 0) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        measured++;
        tps_sum += g->tps;
        tpm_sum += g->tpm;
        nopm_sum += g->nopm;
    }
    if (group_merge(run, all) < 0) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    t->vms += measured ? full : 0;
    dr->f = group_figures(all, measured ? tps_sum / measured : 0, measured ? full : 0,
                          measured);
    dr->f.tpcc = group_tpcc(all, measured ? tpm_sum / measured : 0,
                            measured ? nopm_sum / measured : 0, oom);

    t->tps += dr->f.tps;
    t->tpm += dr->f.tpcc ? dr->f.tpcc->tpmc : 0;
    t->nopm += dr->f.tpcc ? dr->f.tpcc->nopm : 0;
    return 0;
}

res_summary *orch_summary_build(const orch_summary_input *in, char *err, size_t errlen)
{
    int reps = in->repetitions > 0 ? in->repetitions : 1;
    size_t ng = (size_t)in->ndrives * (size_t)(reps + 1);
    /* [drive][0]: the repetitions its figures count, [drive][r] */
    group *groups = calloc(ng ? ng : 1, sizeof *groups);
    group run = { 0 };
    res_summary *s = calloc(1, sizeof *s);
    run_totals t = { 0 };
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
    s->completed_reps = -1;     /* the run says (resume.h) */
    s->vms = calloc(in->nvms ? (size_t)in->nvms : 1, sizeof *s->vms);
    s->drives = calloc(in->ndrives ? (size_t)in->ndrives : 1, sizeof *s->drives);
    if (!s->run_id || !s->plan_file || !s->vms || !s->drives
        || (in->started_at && !s->started_at) || (in->finished_at && !s->finished_at)
        || (in->plan && res_plan_copy(&s->plan, in->plan) < 0)
        || (in->env && res_env_copy(&s->env, in->env) < 0)) {
        snprintf(err, errlen, "out of memory");
        goto cleanup;
    }
    if (add_vms(in, s, groups, reps, err, errlen) < 0)
        goto cleanup;

    for (int d = 0; d < in->ndrives; d++)
        if (build_drive(in, s, groups, reps, d, &run, &t, &oom, err, errlen) < 0)
            goto cleanup;
    for (int r = 1; r <= reps; r++) {
        int any = 0;
        for (int d = 0; d < in->ndrives; d++)
            any |= groups[d * (reps + 1) + r].vms > 0;
        run_reps += any;
    }
    s->run = group_figures(&run, t.tps, t.vms, run_reps);
    s->run.tpcc = group_tpcc(&run, t.tpm, t.nopm, &oom);
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

int orch_summary_db_warnings(const res_summary *s, FILE *out)
{
    const double gib = 1024.0 * 1024.0 * 1024.0;
    int n = 0;
    for (int i = 0; i < s->nvms; i++) {
        const res_vm *v = &s->vms[i];
        if (!v->db_size_warning)
            continue;
        n++;
        fprintf(out, "drivebench: warning: VM %s (drive %s, repetition %d): its database holds "
                "%.2f GiB of data after load, %+.1f %% from the plan's expect_database_size "
                "(%.2f GiB, tolerance ±%.0f %%); the figures stand, but the database is not the "
                "size the plan expects (docs/database-size.md)\n", v->name, v->drive,
                v->repetition, (double)v->db_loaded.data_bytes / gib, v->db_deviation_pct,
                (double)s->plan.expect_database_bytes / gib, RES_DB_SIZE_TOLERANCE_PCT);
    }
    return n;
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
