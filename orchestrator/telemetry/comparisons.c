/* comparisons.c — the summary's comparisons of each pair of drives
 * (telemetry_state.h): paired batch means of their per-interval TPS and
 * p-latency, and Welch's interval over their repetitions (stats.h), then
 * Holm's correction over the pairs of each method. Only data that may be
 * compared gets a verdict: a pair with an incomplete drive (a VM failed)
 * is "not comparable" in the paired methods, and Welch leaves the
 * repetitions with a failed VM out; a repetition in which a drive did not
 * measure every VM (a partial run) is left out; series are matched by
 * time, to the bins every VM of both drives measured, never padded or
 * shifted. */
#include "telemetry/telemetry_state.h"
#include "attributes.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"
#include "results_server.h"

/* The reason of two drives whose compared values are the same throughout. */
#define ORCH_CMP_IDENTICAL \
    "not comparable: identical values (no variance to judge a difference by)"

/* What one drive measured in one repetition. */
typedef struct rep_view {
    int complete;       /* every VM of the drive measured, none failed */
    int vms;            /* its VMs in the repetition */
} rep_view;

/* Drive `name` in repetition rep, as the summary's VMs say; vms_per_drive
 * <= 0 when the plan's count is not recorded. */
static rep_view drive_rep(const res_summary *sum, const char *name, int rep)
{
    rep_view v = { .complete = 1 };
    int64_t want = sum->plan.vms_per_drive;
    for (int i = 0; i < sum->nvms; i++) {
        const res_vm *m = &sum->vms[i];
        if (m->repetition != rep || strcmp(m->drive, name) != 0)
            continue;
        v.vms++;
        if (m->failed || !m->measured)
            v.complete = 0;
    }
    if (v.vms == 0 || (want != RES_UNSET && want > 0 && v.vms != want))
        v.complete = 0;
    return v;
}

/* One comparison of drives a and b appended to io->cmp: with a verdict
 * from df, or (df NULL) none, `reason` saying why. 0, or -1 when out of
 * memory. */
static int add_cmp(res_io *io, const char *a, const char *b, res_cmp_method method,
                   const orch_diff *df, int k, double r1, res_cmp_verdict none,
                   const char *reason, int needs)
{
    res_io_cmp *n = realloc(io->cmp, (size_t)(io->ncmp + 1) * sizeof *n), *c;
    if (!n)
        return -1;
    io->cmp = n;
    c = &io->cmp[io->ncmp++];
    *c = (res_io_cmp){ .mean_a = NAN, .mean_b = NAN, .diff = NAN, .diff_pct = NAN,
                       .lo = NAN, .hi = NAN, .df = NAN, .p_value = NAN, .r1 = r1,
                       .p_holm = NAN };
    c->a = strdup(a);
    c->b = strdup(b);
    c->method = method;
    if (!df) {
        c->verdict = none;
        c->reason = strdup(reason);
        c->needs = needs;
        return c->a && c->b && c->reason ? 0 : -1;
    }
    c->n = df->n;
    c->k = k;
    c->mean_a = df->mean_a;
    c->mean_b = df->mean_b;
    c->diff = df->diff;
    c->diff_pct = df->diff_pct;
    c->lo = df->lo;
    c->hi = df->hi;
    c->df = df->df;
    c->p_value = df->p_value;
    c->verdict = df->distinguishable ? RES_CMP_DISTINGUISHABLE : RES_CMP_NOT_DISTINGUISHABLE;
    if (!(df->se > 0)) {
        /* no spread: equal values are identical, others need repetitions
         * to show theirs; neither is a verdict (no p-value, out of Holm's
         * family), whatever a reader counts from the JSON */
        int same = df->diff == 0;
        c->verdict = same ? RES_CMP_NOT_COMPARABLE : RES_CMP_TOO_SHORT;
        c->reason = strdup(same ? ORCH_CMP_IDENTICAL : "no variance: needs repetitions");
        return c->a && c->b && c->reason ? 0 : -1;
    }
    return c->a && c->b ? 0 : -1;
}

/* The summary's interval (seconds), 0 when no VM says. */
static double interval_of(const res_summary *sum)
{
    for (int i = 0; i < sum->nvms; i++)
        if (sum->vms[i].measured && sum->vms[i].interval_s > 0)
            return sum->vms[i].interval_s;
    return 0;
}

/* The paired test of a[]/b[] (segments seg[0..nseg)) as one comparison.
 * 0, or -1 when out of memory. */
static int paired_one(res_io *io, const res_summary *sum, const char *na, const char *nb,
                      res_cmp_method method, const double *a, const double *b, const int *seg,
                      int nseg)
{
    orch_diff df;
    orch_batching bt;
    char why[DB_ERR_LEN];
    int n = 0, rc, len;
    double iv = interval_of(sum);
    for (int s = 0; s < nseg; s++)
        n += seg[s];
    if (nseg == 0)
        return add_cmp(io, na, nb, method, NULL, 0, NAN, RES_CMP_NOT_COMPARABLE,
                       "not comparable: no repetition in which both drives measured "
                       "every VM", 0);
    rc = orch_stats_paired(a, b, seg, nseg, &df, &bt);
    if (rc == -2)
        return -1;
    if (rc == 0)
        return add_cmp(io, na, nb, method, &df, bt.k, bt.r1, RES_CMP_NOT_COMPARABLE, NULL, 0);
    if (rc == -3)
        return add_cmp(io, na, nb, method, NULL, 0, NAN, RES_CMP_NOT_COMPARABLE,
                       "not comparable: the intervals have no lag-1 correlation (no two "
                       "consecutive intervals both drives measured, or none varies)", 0);
    len = snprintf(why, sizeof why, "too short for a verdict (needs %d intervals, has %d): "
                   "a correlation time up to %.1f intervals needs %d batches of %d and %.0f "
                   "intervals in all", bt.needs * nseg, n, bt.tau_hi, ORCH_STATS_BATCHES, bt.kreq,
                   ceil(ORCH_STATS_MIN_TAUS * bt.tau_hi));
    if (iv > 0 && len > 0 && (size_t)len < sizeof why)
        snprintf(why + len, sizeof why - (size_t)len, "; measure at least %.0f s%s at this "
                 "%g-s interval", bt.needs * iv, nseg > 1 ? " per repetition" : "", iv);
    return add_cmp(io, na, nb, method, NULL, 0, bt.r1, RES_CMP_TOO_SHORT, why,
                   bt.needs * nseg);
}

/* The percentile pct's paired test of the bins whose transactions are
 * txa[0..n) and txb[0..n) (of drives na and nb): "too short" (1, into
 * io) when either drive's mean is under orch_stats_tail_txns(pct), its
 * intervals' percentile then mostly their sampling noise (stats.h
 * ORCH_STATS_MIN_TAIL); 0 when it may go on, -1 when out of memory. */
static int tail_short(res_io *io, const char *na, const char *nb, double pct, const double *txa,
                      const double *txb, int n, double iv)
{
    double need = orch_stats_tail_txns(pct), sa = 0, sb = 0, m;
    int ca = 0, cb = 0;
    char why[DB_ERR_LEN], fix[160];
    for (int i = 0; i < n; i++) {
        if (isfinite(txa[i]))
            sa += txa[i], ca++;
        if (isfinite(txb[i]))
            sb += txb[i], cb++;
    }
    if (ca == 0 || cb == 0)
        return 0;
    m = fmin(sa / ca, sb / cb);
    if (!(m < need))
        return 0;
    if (iv > 0 && m > 0)
        snprintf(fix, sizeof fix, "intervals of at least %.0f s (oltp --report-interval)",
                 ceil(iv * need / m));
    else
        snprintf(fix, sizeof fix, "longer intervals");
    snprintf(why, sizeof why, "too short for a verdict (needs %.0f transactions per interval, "
             "has %.0f): an interval's p%g from so few is mostly their sampling noise; %s or "
             "more VMs per drive", need, floor(m), pct, fix);
    return add_cmp(io, na, nb, RES_CMP_P99_PAIRED, NULL, 0, NAN, RES_CMP_TOO_SHORT, why, 0) < 0
           ? -1 : 1;
}

/* Paired over the repetitions both drives measured completely, matched
 * by time: a time bin enters when both drives have it (every VM of each
 * measured it), and a bin one of them lacks drops out of both, never
 * shifting the rest (issue 29). TPS, and the p-latency of the bins where
 * every VM of both has one. 0, or -1 when out of memory. */
static int compare_paired(res_io *io, const res_summary *sum, const res_drive *da,
                          const res_drive *db, const tel_drive_acc *a, const tel_drive_acc *b,
                          int reps, int nint)
{
    size_t cap = (size_t)reps * (size_t)nint + 1;
    double *ta = malloc(cap * sizeof *ta), *tb = malloc(cap * sizeof *tb);
    double *pa = malloc(cap * sizeof *pa), *pb = malloc(cap * sizeof *pb);
    double *xa = malloc(cap * sizeof *xa), *xb = malloc(cap * sizeof *xb), iv = interval_of(sum);
    int *seg = calloc((size_t)reps + 1, sizeof *seg), *pseg = calloc((size_t)reps + 1,
                                                                      sizeof *pseg);
    int nseg = 0, npseg = 0, n = 0, np = 0, rc = -1, tail = 0;
    int has_p = isfinite(a->p_pct) && isfinite(b->p_pct);

    if (!ta || !tb || !pa || !pb || !xa || !xb || !seg || !pseg)
        goto cleanup;
    for (int r = 1; r <= reps && nint > 0; r++) {
        rep_view va = drive_rep(sum, da->name, r), vb = drive_rep(sum, db->name, r);
        int base = (r - 1) * nint, len = 0, plen = 0;
        if (!va.complete || !vb.complete)
            continue;
        for (int i = base; i < base + nint; i++) {
            if (isfinite(a->tps[i]) && isfinite(b->tps[i])) {
                ta[n] = a->tps[i];
                tb[n++] = b->tps[i];
                len++;
            }
            /* p-latency: of the VMs' merged histograms, where every VM has one */
            if (has_p && a->pn[i] == va.vms && b->pn[i] == vb.vms && isfinite(a->p[i])
                && isfinite(b->p[i])) {
                /* its transactions, from the VMs' TPS (1-s bins without an interval) */
                xa[np] = a->tps[i] * (iv > 0 ? iv : 1.0);
                xb[np] = b->tps[i] * (iv > 0 ? iv : 1.0);
                pa[np] = a->p[i];
                pb[np++] = b->p[i];
                plen++;
            }
        }
        if (len > 0)
            seg[nseg++] = len;
        if (plen > 0)
            pseg[npseg++] = plen;
    }
    if (paired_one(io, sum, da->name, db->name, RES_CMP_TPS_PAIRED, ta, tb, seg, nseg) < 0
        || (has_p && (tail = tail_short(io, da->name, db->name, a->p_pct, xa, xb, np, iv)) < 0)
        || (has_p && !tail && paired_one(io, sum, da->name, db->name, RES_CMP_P99_PAIRED, pa,
                                         pb, pseg, npseg) < 0))
        goto cleanup;
    rc = 0;
cleanup:
    free(ta);
    free(tb);
    free(pa);
    free(pb);
    free(xa);
    free(xb);
    free(seg);
    free(pseg);
    return rc;
}

/* Each complete repetition of drive d: TPS into tps[], p99 into p99[].
 * Returns how many. */
static int complete_reps(const res_summary *sum, const res_drive *d, double *tps, double *p99)
{
    int n = 0;
    for (int k = 0; k < d->nreps; k++)
        if (!d->reps[k].f.failed_vms && drive_rep(sum, d->name, d->reps[k].repetition).complete) {
            tps[n] = d->reps[k].f.tps;
            p99[n++] = d->reps[k].f.lat_p99_ms;
        }
    return n;
}

/* Welch over the complete repetitions of drives a and b: TPS and p99.
 * 0, or -1 when out of memory. */
static int compare_welch(res_io *io, const res_summary *sum, const res_drive *a,
                         const res_drive *b)
{
    size_t na0 = (size_t)a->nreps + 1, nb0 = (size_t)b->nreps + 1;
    double *ta = calloc(na0, sizeof *ta), *tb = calloc(nb0, sizeof *tb);
    double *qa = calloc(na0, sizeof *qa), *qb = calloc(nb0, sizeof *qb);
    orch_diff df;
    char why[DB_ERR_LEN];
    int rc = -1, ra, rb;
    if (!ta || !tb || !qa || !qb)
        goto cleanup;
    ra = complete_reps(sum, a, ta, qa);
    rb = complete_reps(sum, b, tb, qb);
    if (ra < ORCH_STATS_MIN_REPS || rb < ORCH_STATS_MIN_REPS) {
        snprintf(why, sizeof why, "too short for a verdict (needs %d complete repetitions "
                 "of each drive, has %d and %d)", ORCH_STATS_MIN_REPS, ra, rb);
        rc = add_cmp(io, a->name, b->name, RES_CMP_TPS_WELCH, NULL, 0, NAN, RES_CMP_TOO_SHORT,
                     why, ORCH_STATS_MIN_REPS) < 0
             || add_cmp(io, a->name, b->name, RES_CMP_P99_WELCH, NULL, 0, NAN, RES_CMP_TOO_SHORT,
                        why, ORCH_STATS_MIN_REPS) < 0 ? -1 : 0;
        goto cleanup;
    }
    if (orch_stats_welch(ta, ra, tb, rb, &df) < 0
        || add_cmp(io, a->name, b->name, RES_CMP_TPS_WELCH, &df, 0, NAN, 0, NULL, 0) < 0
        || orch_stats_welch(qa, ra, qb, rb, &df) < 0
        || add_cmp(io, a->name, b->name, RES_CMP_P99_WELCH, &df, 0, NAN, 0, NULL, 0) < 0)
        goto cleanup;
    rc = 0;
cleanup:
    free(ta);
    free(tb);
    free(qa);
    free(qb);
    return rc;
}

/* A pair with an incomplete drive: each paired method it would have,
 * without a verdict (Welch leaves the failed repetitions out instead).
 * 0, or -1 when out of memory. */
static int not_comparable(res_io *io, const res_drive *a, const res_drive *b, int has_p)
{
    const res_drive *bad = a->f.failed_vms ? a : b;
    char why[DB_ERR_LEN];
    snprintf(why, sizeof why, "not comparable: drive %s is incomplete (%d failed VM run%s)",
             bad->name, bad->f.failed_vms, bad->f.failed_vms == 1 ? "" : "s");
    if (add_cmp(io, a->name, b->name, RES_CMP_TPS_PAIRED, NULL, 0, NAN, RES_CMP_NOT_COMPARABLE,
                why, 0) < 0)
        return -1;
    return has_p ? add_cmp(io, a->name, b->name, RES_CMP_P99_PAIRED, NULL, 0, NAN,
                           RES_CMP_NOT_COMPARABLE, why, 0)
                 : 0;
}

/* The first server setting (issue 44) in which a VM of drive a and a VM
 * of drive b disagree (the healthy VMs with a read-back, over every
 * repetition): 1 with why ("not comparable: server setting X differs:
 * drive A has V, drive B has W"), else 0. */
static int settings_differ(const res_summary *sum, const res_drive *a, const res_drive *b,
                           char *why, size_t len)
{
    for (int i = 0; i < sum->nvms; i++) {
        const res_vm *x = &sum->vms[i];
        if (x->failed || !x->server || strcmp(x->drive, a->name) != 0)
            continue;
        for (int j = 0; j < sum->nvms; j++) {
            const res_vm *y = &sum->vms[j];
            const char *va = NULL, *vb = NULL, *name;
            if (y->failed || !y->server || strcmp(y->drive, b->name) != 0
                || !(name = res_server_differs(x->server, y->server, &va, &vb)))
                continue;
            snprintf(why, len, "not comparable: server setting '%s' differs: drive %s has %s, "
                     "drive %s has %s", name, a->name, va ? va : "not available", b->name,
                     vb ? vb : "not available");
            return 1;
        }
    }
    return 0;
}

/* A pair whose servers ran with different settings: every method it
 * would have, without a verdict. 0, or -1 when out of memory. */
static int settings_not_comparable(res_io *io, const res_drive *a, const res_drive *b,
                                   int has_p, int welch, const char *why)
{
    if (add_cmp(io, a->name, b->name, RES_CMP_TPS_PAIRED, NULL, 0, NAN, RES_CMP_NOT_COMPARABLE,
                why, 0) < 0
        || (has_p && add_cmp(io, a->name, b->name, RES_CMP_P99_PAIRED, NULL, 0, NAN,
                             RES_CMP_NOT_COMPARABLE, why, 0) < 0))
        return -1;
    if (welch && (add_cmp(io, a->name, b->name, RES_CMP_TPS_WELCH, NULL, 0, NAN,
                          RES_CMP_NOT_COMPARABLE, why, 0) < 0
                  || add_cmp(io, a->name, b->name, RES_CMP_P99_WELCH, NULL, 0, NAN,
                             RES_CMP_NOT_COMPARABLE, why, 0) < 0))
        return -1;
    return 0;
}

/* Holm's correction over every comparison with a verdict that the run's
 * report prints, all methods as one family (issue 29); a verdict stays "distinguishable" only when its adjusted p is
 * below ORCH_STATS_ALPHA too. 0, or -1 when out of memory. */
static int holm(res_io *io)
{
    double *p = calloc((size_t)io->ncmp + 1, sizeof *p), *adj = calloc((size_t)io->ncmp + 1,
                                                                       sizeof *adj);
    int rc = -1;
    if (!p || !adj)
        goto cleanup;
    for (int i = 0; i < io->ncmp; i++) {
        int m = 0;
        for (int j = 0; j < io->ncmp; j++) {
            const res_io_cmp *c = &io->cmp[j];
            int verdict = c->verdict == RES_CMP_DISTINGUISHABLE
                          || c->verdict == RES_CMP_NOT_DISTINGUISHABLE;
            p[j] = verdict ? c->p_value : NAN;
            m += verdict && !isnan(c->p_value);
        }
        if (io->cmp[i].verdict != RES_CMP_DISTINGUISHABLE
            && io->cmp[i].verdict != RES_CMP_NOT_DISTINGUISHABLE)
            continue;
        if (orch_stats_holm(p, io->ncmp, adj) < 0)
            goto cleanup;
        io->cmp[i].p_holm = adj[i];
        io->cmp[i].family = isnan(adj[i]) ? 0 : m;
        if (io->cmp[i].verdict == RES_CMP_DISTINGUISHABLE && !(adj[i] < ORCH_STATS_ALPHA)
            && !isnan(adj[i]))
            io->cmp[i].verdict = RES_CMP_NOT_DISTINGUISHABLE;
    }
    rc = 0;
cleanup:
    free(p);
    free(adj);
    return rc;
}

int tel_compare_drives(const res_summary *sum, const tel_drive_acc *acc, int reps, int nint,
                       res_io *io)
{
    int welch = reps >= ORCH_STATS_MIN_REPS;
    /* made again (`drivebench summarize`): the earlier ones go */
    for (int i = 0; i < io->ncmp; i++) {
        free(io->cmp[i].a);
        free(io->cmp[i].b);
        free(io->cmp[i].reason);
    }
    free(io->cmp);
    io->cmp = NULL;
    io->ncmp = 0;
    for (int a = 0; a < sum->ndrives; a++)
        for (int b = a + 1; b < sum->ndrives; b++) {
            const res_drive *da = &sum->drives[a], *db = &sum->drives[b];
            int has_p = isfinite(acc[a].p_pct) && isfinite(acc[b].p_pct);
            char why[DB_ERR_LEN];
            /* measured under different server settings: no verdict */
            if (settings_differ(sum, da, db, why, sizeof why)) {
                if (settings_not_comparable(io, da, db, has_p, welch, why) < 0)
                    return -1;
                continue;
            }
            /* a failed VM makes the pair's paired methods not comparable;
             * Welch leaves the repetitions with one out and keeps the
             * complete ones (issue 29) */
            if (da->f.failed_vms || db->f.failed_vms) {
                if (not_comparable(io, da, db, has_p) < 0)
                    return -1;
            } else if (compare_paired(io, sum, da, db, &acc[a], &acc[b], reps, nint) < 0)
                return -1;
            if (welch && compare_welch(io, sum, da, db) < 0)
                return -1;
        }
    return holm(io);
}
